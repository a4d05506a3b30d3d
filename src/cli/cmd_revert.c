// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl revert: restore the originals kept in the journal. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/apply.h"
#include "../lib/macro.h"
#include "../lib/plan.h"
#include "../lib/profile.h"
#include "cli.h"
#include "plan_out.h"
#include "profiles.h"

int cli_revert(struct cli *cli)
{
	struct wq_journal j = {0};
	int lock, rc = EXIT_OK, restored = 0, left = 0;

	if (!cli_ctx(cli))
		return EXIT_FAIL;
	lock = wq_lock_take(cli->ctx, 10000);
	if (lock < 0) {
		cli_err(cli, "run/wqctl/lock: %s",
			lock == -ETIMEDOUT ? "another wqctl holds the lock" : wq_strerror(-lock));
		return EXIT_FAIL;
	}
	if (wq_journal_read(cli->ctx, &j) < 0) {
		wq_lock_release(lock);
		return EXIT_FAIL;
	}
	/* a run killed mid-write (SIGKILL) in a dump left its temporary files beside what it wrote */
	for (size_t i = 0; i < j.n; i++)
		if (wq_root_drop_temp(cli->ctx->root, j.e[i].path) > 0)
			cli_notice(cli, "%s: removed the temporary file a killed run left beside it", j.e[i].path);
	wq_root_drop_temp(cli->ctx->root, "run/wqctl/journal");
	for (size_t i = 0; i < j.n;) {
		struct wq_jentry *e = &j.e[i];
		_cleanup_free_ char *now = NULL;
		_cleanup_free_ char *txt = NULL;
		int r = wq_root_read(cli->ctx->root, e->path, &now);

		if (r < 0) {
			cli_warn(cli, "%s: not restored: %s", e->path, r == -ENOENT ? "it is gone" : wq_strerror(-r));
			wq_journal_drop(&j, i);
			left++;
			continue;
		}
		/* Only where the value is still what wqctl wrote: a later change is someone else's. */
		if (!wq_value_equal(e->type, now, e->written)) {
			cli_warn(cli, "%s: left alone: changed since wqctl wrote '%s' (now '%s')", e->path, e->written,
				 now);
			wq_journal_drop(&j, i);
			left++;
			continue;
		}
		txt = wq_value_restore_text(e->type, e->orig);
		r = txt ? wq_value_write(cli->ctx, e->path, e->type, txt) : -ENOMEM;
		if (r < 0) {
			cli_err(cli, "%s: restore failed: %s", e->path, wq_write_reason(r));
			rc = EXIT_FAIL;
			i++;
			continue;
		}
		cli_info(cli, "%s: restored '%s'", e->path, e->orig);
		restored++;
		wq_journal_drop(&j, i);
	}
	if (wq_journal_write(cli->ctx, &j) < 0)
		rc = EXIT_FAIL;
	cli_info(cli, "revert: %d restored, %d left alone", restored, left);
	wq_journal_free(&j);
	wq_lock_release(lock);
	return rc;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{NULL, 0, NULL, 0}};
	char **active = NULL;
	size_t nactive = 0;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		cli_err(cli, "revert: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli_no_table(cli, "revert", false))
		return EXIT_USAGE;
	if (optind < argc) {
		cli_err(cli, "revert: %s: unexpected argument", argv[optind]);
		return EXIT_USAGE;
	}
	rc = cli_revert(cli);
	/* the values are back, but the profiles that set them are not off: say so */
	if (rc == EXIT_OK && wq_active_read(cli->ctx, &active, &nactive) == 0 && nactive) {
		char names[256] = "";

		for (size_t i = 0; i < nactive; i++) {
			size_t len = strlen(names);

			snprintf(names + len, sizeof(names) - len, "%s%s", len ? " " : "", active[i]);
		}
		cli_warn(cli,
			 "revert: the active profiles (%s) stay active: boot and hot-plug apply them again; "
			 "'wqctl profile off' turns them off",
			 names);
	}
	cli_strv_free(active, nactive);
	return rc;
}

const struct cmd cmd_revert = {
    .name = "revert",
    .run = run,
    .summary = "restore the values wqctl changed, where nobody changed them since",
    .usage = "",
    .options = NULL,
};
