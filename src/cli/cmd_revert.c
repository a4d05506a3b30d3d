// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl revert: restore the originals kept in the journal. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/apply.h"
#include "../lib/core/state.h"
#include "../lib/util/macro.h"
#include "../lib/core/plan.h"
#include "../lib/core/profile.h"
#include "cli.h"
#include "plan_out.h"
#include "profiles.h"

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
