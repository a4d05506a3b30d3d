// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl snapshot: the current settings written out as a profile. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/knob.h"
#include "../lib/macro.h"
#include "../lib/wq.h"
#include "cli.h"

/* Print a profile that restores what is set now; apply --profile-dir takes it back. */
static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{NULL, 0, NULL, 0}};
	struct wq_knob *ks = NULL;
	char **names = NULL;
	size_t nk = 0, n = 0;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		cli_err(cli, "snapshot: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli_no_table(cli, "snapshot", false))
		return EXIT_USAGE;
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	rc = cli_resolve_targets(cli, argv + optind, (size_t)(argc - optind), &names, &n, true);
	if (rc == EXIT_FAIL)
		return rc;
	printf("[profile]\ndescription = snapshot (kernel %s)\n",
	       cli->ctx->kver.known ? cli->ctx->kver.release : "unknown");
	if (optind == argc && wq_knobs_list(cli->ctx, &ks, &nk) == 0) {
		printf("\n[global]\n");
		for (size_t i = 0; i < nk; i++) {
			_cleanup_free_ char *v = NULL;

			if (!ks[i].desc || !ks[i].writable || ks[i].boot_only || !ks[i].value)
				continue;
			v = wq_value_display(ks[i].desc->type, ks[i].value);
			printf("%s = %s\n", ks[i].name, v ? v : ks[i].value);
		}
		wq_knobs_free(ks, nk);
	}
	for (size_t i = 0; i < n; i++) {
		struct wq_info wi;

		if (wq_info_read(cli->ctx, names[i], &wi) < 0 || wi.bad) {
			cli_err(cli, "%s: cannot read all of its attributes", names[i]);
			rc = EXIT_FAIL;
			wq_info_clear(&wi);
			continue;
		}
		printf("\n[workqueue %s]\n", names[i]);
		for (int a = 0; a < WQ_A_NR; a++) {
			_cleanup_free_ char *v = NULL;

			if (!wi.raw[a])
				continue;
			v = a == WQ_A_AFFINITY_SCOPE ? strdup(wi.scope)
						     : wq_value_display(wq_attr_descs[a].type, wi.raw[a]);
			printf("%s = %s\n", wq_attr_descs[a].name, v ? v : "");
		}
		wq_info_clear(&wi);
	}
	wq_names_free(names, n);
	return rc;
}

const struct cmd cmd_snapshot = {
    .name = "snapshot",
    .run = run,
    .summary = "print the current settings as a profile",
    .usage = "[PATTERN...]",
    .options = "  PATTERN   only these workqueues (and no globals); all when none\n",
};
