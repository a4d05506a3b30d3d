// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"
#include "../lib/macro.h"
#include "cli.h"

enum { COL_SEVERITY, COL_CODE, COL_TARGET, COL_MESSAGE };

static const struct colinfo cols[] = {
    [COL_SEVERITY] = {"SEVERITY", 0.05, 0, SCOLS_JSON_STRING, "error, warning or info"},
    [COL_CODE] = {"CODE", 0.15, 0, SCOLS_JSON_STRING, "stable finding identifier"},
    [COL_TARGET] = {"TARGET", 0.15, 0, SCOLS_JSON_STRING, "workqueue or knob"},
    [COL_MESSAGE] = {"MESSAGE", 0.6, 0, SCOLS_JSON_STRING, "what it means"},
};

struct tally {
	struct out *o;
	int errors, warnings;
};

static void on_finding(void *data, const struct wq_finding *f)
{
	struct tally *t = data;
	struct libscols_line *ln = out_line(t->o);

	out_set(t->o, ln, COL_SEVERITY, wq_severity_name(f->severity));
	out_set(t->o, ln, COL_CODE, f->code);
	out_set(t->o, ln, COL_TARGET, f->target);
	out_set(t->o, ln, COL_MESSAGE, f->message);
	t->errors += f->severity == WQ_SEV_ERROR;
	t->warnings += f->severity == WQ_SEV_WARNING;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"strict", no_argument, NULL, 's'},
	    {"profile", required_argument, NULL, 'p'},
	    {NULL, 0, NULL, 0},
	};
	bool strict = false;
	struct tally t = {0};
	char **names = NULL;
	size_t n = 0;
	struct out o;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': strict = true; break;
		case 'p': cli_err(cli, "check: --profile: profiles are not implemented yet"); return EXIT_USAGE;
		default:
			cli_err(cli, "check: %s: unknown option or missing argument", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "SEVERITY,CODE,TARGET,MESSAGE", NULL, "findings");
	if (rc)
		return rc;
	t.o = &o;
	if (!cli_ctx(cli) || !wq_ctx_topo(cli->ctx)) {
		out_free(&o);
		return EXIT_FAIL;
	}
	rc = cli_resolve_targets(cli, argv + optind, (size_t)(argc - optind), &names, &n, true);
	if (rc == EXIT_FAIL) {
		out_free(&o);
		return rc;
	}
	if (optind == argc && wq_check_globals(cli->ctx, NULL, on_finding, &t) < 0)
		cli_err(cli, "cpumask: cannot check the root unbound cpumask");
	for (size_t i = 0; i < n; i++) {
		struct wq_info wi;

		if (wq_info_read(cli->ctx, names[i], &wi) == 0 && !(wi.bad & (1U << WQ_A_MAX_ACTIVE))) {
			if (wq_check_wq(cli->ctx, &wi, NULL, on_finding, &t) < 0)
				cli_err(cli, "%s: cannot check", names[i]);
		} else {
			cli_err(cli, "%s: cannot read its attributes", names[i]);
			t.errors++;
		}
		wq_info_clear(&wi);
	}
	wq_names_free(names, n);
	if (out_print(&o) != EXIT_OK)
		rc = EXIT_FAIL;
	out_free(&o);
	if (rc == EXIT_OK && (t.errors || (strict && t.warnings)))
		rc = EXIT_FINDINGS;
	return rc;
}

const struct cmd cmd_check = {
    .name = "check",
    .run = run,
    .summary = "report settings the kernel will silently ignore, multiply or clamp",
    .usage = "[--strict] [PATTERN...]",
    .options = "  --strict     exit 3 on warnings too (always on errors)\n"
	       "  PATTERN      check only these workqueues (all, and the root cpumask, when none)\n",
};
