// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl verify: each setting of the active profiles against the system. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/macro.h"
#include "../lib/wq.h"
#include "cli.h"
#include "profiles.h"

enum { COL_TARGET, COL_STATUS, COL_EXPECTED, COL_ACTUAL, COL_SOURCE, COL_REASON };

static const struct colinfo cols[] = {
    [COL_TARGET] = {"TARGET", 0.2, 0, SCOLS_JSON_STRING, "workqueue/attribute, knob, or section pattern"},
    [COL_STATUS] = {"STATUS", 0.1, 0, SCOLS_JSON_STRING,
		    "ok, drift, absent, waiting (a device's workqueues, none present), unsupported, skipped, invalid"},
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
	struct wq_settings st = {0};
	struct wq_pset set;
	struct out o;
	bool none;
	size_t n = 0;
	int c, rc, bad = 0, invalid = 0;
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
	if (wq_settings_resolve(cli->ctx, &set, NULL, 0, true, &st) < 0) {
		cli_err(cli, "verify: cannot read the workqueues");
		rc = EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < st.n; i++) {
		const struct wq_setting *x = &st.v[i];
		struct libscols_line *ln = out_line(&o);
		const char *status = wq_setting_status_name(x->status);
		_cleanup_free_ char *actual = x->current ? wq_value_display(x->type, x->current) : NULL;

		if (x->status == WQ_SET_OK && !wq_value_equal(x->type, x->current, x->write)) {
			status = "drift";
			bad++;
		}
		/* a hot-plug section before its device: waiting, a failure only with --strict */
		if (x->status == WQ_SET_ABSENT && x->waiting)
			status = "waiting";
		bad += x->status == WQ_SET_ABSENT && (!x->waiting || strict);
		invalid += x->status == WQ_SET_INVALID;
		out_set(&o, ln, COL_TARGET, x->object);
		out_set(&o, ln, COL_STATUS, status);
		out_set(&o, ln, COL_EXPECTED, x->status == WQ_SET_ABSENT ? NULL : x->value);
		out_set(&o, ln, COL_ACTUAL, actual);
		out_setf(&o, ln, COL_SOURCE, "%s:%d", x->file, x->line);
		out_set(&o, ln, COL_REASON, x->why[0] ? x->why : NULL);
	}
	rc = out_print(&o);
	if (rc == EXIT_OK && invalid)
		rc = EXIT_USAGE;
	else if (rc == EXIT_OK && bad)
		rc = EXIT_FINDINGS;
out:
	out_free(&o);
	wq_settings_free(&st);
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
	       "  exit 0 when every setting is ok, unsupported or waiting for its device, 3 on drift or absent\n"
	       "  workqueues\n",
};
