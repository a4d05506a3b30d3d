// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl revert: restore the originals kept in the journal. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/apply.h"
#include "../lib/state.h"
#include "../lib/macro.h"
#include "../lib/plan.h"
#include "../lib/profile.h"
#include "cli.h"
#include "plan_out.h"
#include "profiles.h"

/* "OBJECT: NOW -> ORIGINAL" for each value written back, as apply prints its changes */
static void restored(void *arg, const char *object, enum wq_vtype type, const char *from, const char *to,
		     int min_active)
{
	struct cli *cli = arg;
	_cleanup_free_ char *f = wq_value_display(type, from);
	_cleanup_free_ char *t = wq_value_display(type, to);

	if (!cli->quiet)
		printf("%s: %s -> %s\n", object, f ? f : from, t ? t : to);
	if (min_active > 0 && atoi(to) > min_active)
		cli_warn(cli,
			 "%s: min_active stays %d, as the earlier write below it left it, until the workqueue is "
			 "recreated",
			 object, min_active);
}

int cli_revert(struct cli *cli)
{
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	return wq_revert(cli->ctx, restored, cli) < 0 ? EXIT_FAIL : EXIT_OK;
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
