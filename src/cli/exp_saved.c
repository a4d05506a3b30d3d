// SPDX-License-Identifier: GPL-2.0-or-later
/* experiment --list: the saved experiments as a table, each read and checked as --compare reads it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "../lib/core/state.h"
#include "../lib/obs/experiment.h"
#include "../lib/util/macro.h"
#include "exp_saved.h"
#include "profiles.h"

enum { LCOL_NAME, LCOL_SETTINGS, LCOL_RUNS, LCOL_METRIC, LCOL_COMMAND };
static const struct colinfo list_cols[] = {
    [LCOL_NAME] = {"NAME", 0.2, 0, SCOLS_JSON_STRING, "saved experiment (--compare NAME runs it again)"},
    [LCOL_SETTINGS] = {"SETTINGS", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "settings in its grid"},
    [LCOL_RUNS] = {"RUNS", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "measured runs per setting"},
    [LCOL_METRIC] = {"METRIC", 0.15, 0, SCOLS_JSON_STRING, "its metric"},
    [LCOL_COMMAND] = {"COMMAND", 0.5, SCOLS_FL_TRUNC, SCOLS_JSON_STRING, "the workload"},
};

/* --list: each saved experiment, read and checked as --compare reads it. */
int exp_list_saved(struct cli *cli)
{
	char **names = NULL;
	size_t n = 0;
	struct out o;
	int rc, r;

	rc = out_init(&o, cli, list_cols, ARRAY_SIZE(list_cols), "NAME,SETTINGS,RUNS,METRIC,COMMAND", NULL,
		      "experiments");
	if (rc)
		return rc;
	if (!cli_ctx(cli)) {
		out_free(&o);
		return EXIT_FAIL;
	}
	r = wq_saved_names(cli->ctx, &names, &n);
	if (r < 0) {
		_cleanup_free_ char *at = wq_saved_path(cli->ctx, "");

		cli_err(cli, "%s: cannot list: %s", at ? at : "experiments", wq_strerror(-r));
		out_free(&o);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		struct wq_saved_exp b = {0};
		struct libscols_line *ln;
		char num[32], cmd[1024] = "";
		size_t len = 0;

		if (wq_exp_read_saved(cli->ctx, names[i], &b) < 0) {
			rc = EXIT_FAIL; /* said why; the others are listed */
			wq_saved_exp_free(&b);
			continue;
		}
		for (size_t k = 0; k < b.ncmd && len < sizeof(cmd); k++)
			len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, "%s%s", k ? " " : "", b.cmd[k]);
		ln = out_line(&o);
		out_set(&o, ln, LCOL_NAME, names[i]);
		snprintf(num, sizeof(num), "%zu", b.nsettings);
		out_set(&o, ln, LCOL_SETTINGS, num);
		snprintf(num, sizeof(num), "%ld", b.runs);
		out_set(&o, ln, LCOL_RUNS, num);
		out_set(&o, ln, LCOL_METRIC, b.metric ? b.metric : "");
		out_set(&o, ln, LCOL_COMMAND, cmd);
		wq_saved_exp_free(&b);
	}
	if (n == 0)
		cli_warn(cli, "experiment: none is saved yet (experiment --save NAME keeps one)");
	r = out_print(&o);
	out_free(&o);
	cli_strv_free(names, n);
	return rc ? rc : r;
}
