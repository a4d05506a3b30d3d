// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl verify: each setting of the active profiles against the system. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/session.h"
#include "../lib/core/state.h"
#include "../lib/util/macro.h"
#include "../lib/core/verdict.h"
#include "../lib/core/wq.h"
#include "cli.h"
#include "profiles.h"

enum { COL_TARGET, COL_STATUS, COL_CONDITION, COL_EXPECTED, COL_ACTUAL, COL_SOURCE, COL_REASON };

static const struct colinfo cols[] = {
    [COL_TARGET] = {"TARGET", 0.2, 0, SCOLS_JSON_STRING, "workqueue/attribute, knob, or section pattern"},
    [COL_STATUS] = {"STATUS", 0.1, 0, SCOLS_JSON_STRING,
		    "ok, drift, absent, waiting (a device's workqueues, none present), outside (never in sysfs), "
		    "unsupported, skipped, invalid"},
    [COL_CONDITION] = {"CONDITION", 0.1, 0, SCOLS_JSON_STRING, "the condition's code (wqctl.profile(5), CONDITIONS)"},
    [COL_EXPECTED] = {"EXPECTED", 0.15, 0, SCOLS_JSON_STRING, "value from the profile"},
    [COL_ACTUAL] = {"ACTUAL", 0.15, 0, SCOLS_JSON_STRING, "value in the kernel"},
    [COL_SOURCE] = {"SOURCE", 0.3, 0, SCOLS_JSON_STRING, "profile file and line"},
    [COL_REASON] = {"REASON", 0.3, SCOLS_FL_TRUNC, SCOLS_JSON_STRING, "why it is not ok"},
};

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"profile", required_argument, NULL, 'p'}, {"strict", no_argument, NULL, 's'}, {NULL, 0, NULL, 0}};
	_cleanup_free_ char **names = calloc((size_t)argc + 1, sizeof(char *));
	struct wq_holds h = {0};
	struct wq_pset set;
	struct out o;
	bool none;
	size_t n = 0;
	int c, rc;
	bool strict = false;

	if (!names)
		return EXIT_FAIL;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'p') {
			names[n++] = optarg;
			continue;
		}
		if (c == 's') {
			strict = true;
			continue;
		}
		cli_err(cli, "verify: %s: unknown option or missing argument", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (optind < argc) {
		cli_err(cli, "verify: %s: unexpected argument", argv[optind]);
		return EXIT_USAGE;
	}
	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "TARGET,STATUS,EXPECTED,ACTUAL,REASON", NULL, "settings");
	if (rc)
		return rc;
	rc = cli_load_profiles(cli, names, n, &set, &none);
	if (rc || none) {
		if (none)
			cli_err(cli, "verify: no active profiles (wqctl profile use NAME, or --profile NAME)");
		out_free(&o);
		return none ? EXIT_USAGE : rc;
	}
	if (wq_holds_judge(cli->ctx, &set, &h) < 0) {
		cli_err(cli, "verify: cannot read the workqueues");
		rc = EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < h.st.n; i++) {
		const struct wq_setting *x = &h.st.v[i];
		struct libscols_line *ln = out_line(&o);
		const char *why = h.why[i];
		const enum wq_cond cond = h.cond[i];
		_cleanup_free_ char *actual = x->current ? wq_value_display(x->type, x->current) : NULL;

		/* a hot-plug section before its device: waiting, a failure only with --strict */
		rc = wq_cond_exit_worse(rc, cond == WQ_COND_WAITING && strict ? EXIT_FINDINGS
									      : wq_conds[cond].exit[WQ_CMD_VERIFY]);
		out_set(&o, ln, COL_TARGET, x->object);
		out_set(&o, ln, COL_STATUS, wq_conds[cond].status);
		out_set(&o, ln, COL_CONDITION, wq_conds[cond].code);
		out_set(&o, ln, COL_EXPECTED, x->wq || x->attr[0] ? x->value : NULL);
		out_set(&o, ln, COL_ACTUAL, actual);
		out_setf(&o, ln, COL_SOURCE, "%s:%d", x->file, x->line);
		out_set(&o, ln, COL_REASON, why[0] ? why : NULL);
	}
	if (out_print(&o) != EXIT_OK)
		rc = EXIT_FAIL;
out:
	out_free(&o);
	wq_holds_free(&h);
	wq_pset_free(&set);
	return rc;
}

const struct cmd cmd_verify = {
    .name = "verify",
    .run = run,
    .summary = "compare the live settings with the active (or named) profiles",
    .usage = "[--strict] [--profile NAME...]",
    .options = "  --profile NAME   verify this profile instead of the active set (repeatable)\n"
	       "  --strict         a section for devices none of which is present fails too\n"
	       "  exit 0 when every setting is ok or left out for a reason of severity info, 3 on drift\n"
	       "  and warnings (absent, a node this machine lacks, 'local' unplaced), 2 on invalid settings;\n"
	       "  the table of conditions is in wqctl.profile(5)\n",
};
