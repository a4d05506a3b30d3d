// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wqctl check: the findings of src/lib/core/check.c as a table or JSON, and the --isolation audit's
 * entry.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/core/check.h"
#include "../lib/util/macro.h"
#include "cli.h"
#include "isolation.h"
#include "profiles.h"

enum { COL_SEVERITY, COL_CODE, COL_TARGET, COL_MESSAGE };

static const struct colinfo cols[] = {
    [COL_SEVERITY] = {"SEVERITY", 0.05, 0, SCOLS_JSON_STRING, "error, warning or info"},
    [COL_CODE] = {"CODE", 0.15, 0, SCOLS_JSON_STRING, "stable finding identifier"},
    [COL_TARGET] = {"TARGET", 0.15, 0, SCOLS_JSON_STRING, "workqueue or knob"},
    [COL_MESSAGE] = {"MESSAGE", 0.6, 0, SCOLS_JSON_STRING, "what it means"},
};

struct tally {
	struct out *o;
	int errors, warnings, findings;
	int settings_exit; /* --profile: the worst exit status its settings' conditions give (verdict.h) */
};

static void on_finding(void *data, const struct wq_finding *f)
{
	struct tally *t = data;
	struct libscols_line *ln = out_line(t->o);

	t->findings++;
	out_set(t->o, ln, COL_SEVERITY, wq_severity_name(f->severity));
	out_set(t->o, ln, COL_CODE, f->code);
	out_set(t->o, ln, COL_TARGET, f->target);
	out_set(t->o, ln, COL_MESSAGE, f->message);
	t->errors += f->severity == WQ_SEV_ERROR;
	t->warnings += f->severity == WQ_SEV_WARNING;
}

struct relevant {
	struct tally *t;
	const struct wq_whatif *wi;
};

/* In profile mode only findings about what the profile sets count, not the live state it leaves alone. */
static void on_relevant(void *data, const struct wq_finding *f)
{
	const struct relevant *r = data;
	bool keep;

	if (!strncmp(f->code, "cpumask-", 8))
		keep = r->wi->cpus != NULL;
	else if (!strncmp(f->code, "scope-", 6))
		keep = r->wi->scope != NULL;
	else if (!strncmp(f->code, "percpu-", 7))
		keep = r->wi->cpus || r->wi->scope;
	else
		keep = r->wi->max_active > 0;
	if (keep)
		on_finding(r->t, f);
}

/* Findings for what a profile set would do, workqueue by workqueue (settings are grouped per target). */
static int check_profiles(struct cli *cli, char **names, size_t n, struct tally *t)
{
	struct wq_settings st = {0};
	struct wq_pset set;
	bool none;
	int rc = cli_load_profiles(cli, names, n, &set, &none);

	if (rc)
		return rc;
	if (wq_settings_resolve(cli->ctx, &set, NULL, 0, true, &st) < 0) {
		wq_pset_free(&set);
		return EXIT_FAIL;
	}
	/* sections whose condition does not hold here */
	for (size_t i = 0; i < set.ns; i++) {
		struct wq_finding f = {.severity = wq_conds[WQ_COND_WHEN].severity,
				       .code = wq_conds[WQ_COND_WHEN].code};

		if (!set.s[i].when_off)
			continue;
		snprintf(f.target, sizeof(f.target), "%s", set.s[i].global ? "[global]" : set.s[i].pattern);
		snprintf(f.message, sizeof(f.message), "%s:%d: section left out: %s", set.s[i].file, set.s[i].line,
			 set.s[i].when_off);
		on_finding(t, &f);
	}
	/* a profile used outside the kernels it says it is for: once per profile */
	for (size_t i = 0; i < set.ns; i++) {
		struct wq_finding f = {.severity = wq_conds[WQ_COND_KERNELS].severity,
				       .code = wq_conds[WQ_COND_KERNELS].code};
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = set.s[k].off_kernel && set.s[k].file == set.s[i].file;
		if (!set.s[i].off_kernel || seen)
			continue;
		snprintf(f.target, sizeof(f.target), "%s", set.s[i].file);
		snprintf(f.message, sizeof(f.message), "%s: its settings are not applied", set.s[i].off_kernel);
		on_finding(t, &f);
	}
	for (size_t i = 0; i < st.n;) {
		const struct wq_setting *x = &st.v[i];
		_cleanup_cpuset_ struct wq_cpuset *cpus = NULL;
		struct wq_whatif wi = {0};
		struct wq_finding f = {.severity = WQ_SEV_INFO};
		size_t j = i;

		/* one finding per setting that will not be applied as written, as the table says (verdict.h) */
		for (; j < st.n && (j == i || (st.v[j].wq && x->wq && !strcmp(st.v[j].wq, x->wq))); j++) {
			const struct wq_setting *y = &st.v[j];

			snprintf(f.target, sizeof(f.target), "%s", y->object);
			t->settings_exit = wq_cond_exit_worse(t->settings_exit, wq_conds[y->cond].exit[WQ_CMD_CHECK]);
			/* the profile-kernels finding above says it once per profile */
			if (y->cond == WQ_COND_KERNELS)
				continue;
			if (y->cond != WQ_COND_OK) {
				f.severity = wq_conds[y->cond].severity;
				f.code = wq_conds[y->cond].code;
				snprintf(f.message, sizeof(f.message), "%s:%d: %s", y->file, y->line, y->why);
				on_finding(t, &f);
				continue;
			}
			if (!y->wq && !strcmp(y->attr, "cpumask")) {
				_cleanup_cpuset_ struct wq_cpuset *g = wq_cpuset_new();

				if (g && wq_cpuset_parse_hex(g, y->write) == 0)
					wq_check_globals(cli->ctx, g, on_finding, t);
			} else if (y->wq && !strcmp(y->attr, "max_active")) {
				wi.max_active = atoi(y->write);
			} else if (y->wq && !strcmp(y->attr, "cpumask")) {
				cpus = wq_cpuset_new();
				if (cpus && wq_cpuset_parse_hex(cpus, y->write) == 0)
					wi.cpus = cpus;
			} else if (y->wq && !strcmp(y->attr, "affinity_scope")) {
				wi.scope = y->write;
			}
		}
		if (x->wq && (wi.max_active || wi.cpus || wi.scope)) {
			struct wq_info info;

			struct relevant rel = {.t = t, .wi = &wi};

			if (wq_info_read(cli->ctx, x->wq, &info) == 0)
				wq_check_wq(cli->ctx, &info, &wi, on_relevant, &rel);
			wq_info_clear(&info);
		}
		i = j;
	}
	wq_settings_free(&st);
	wq_pset_free(&set);
	return EXIT_OK;
}

/* --interval SECONDS for --isolation: 0 or EXIT_USAGE (said). */
static int interval(struct cli *cli, const char *arg, double *seconds)
{
	char *end;

	errno = 0;
	*seconds = strtod(arg, &end);
	if (errno || end == arg || *end || !(*seconds >= 0.1 && *seconds <= 3600)) {
		cli_err(cli, "check: --interval '%s': expected seconds from 0.1 to 3600", arg);
		return EXIT_USAGE;
	}
	return 0;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"strict", no_argument, NULL, 's'},	    {"profile", required_argument, NULL, 'p'},
	    {"isolation", no_argument, NULL, 'I'},  {"interval", required_argument, NULL, 'i'},
	    {"cpus", required_argument, NULL, 'c'}, {NULL, 0, NULL, 0},
	};
	bool isolation = false, interval_given = false;
	const char *iso_cpus = NULL;
	double seconds = 5;
	_cleanup_free_ char **pnames = calloc((size_t)argc + 1, sizeof(char *));
	bool strict = false;
	struct tally t = {0};
	char **names = NULL;
	size_t n = 0, np = 0;
	struct out o;
	int c, rc;

	if (!pnames)
		return EXIT_FAIL;
	while ((c = getopt_long(argc, argv, "i:", opts, NULL)) != -1) {
		switch (c) {
		case 's': strict = true; break;
		case 'p': pnames[np++] = optarg; break;
		case 'I': isolation = true; break;
		case 'c': iso_cpus = optarg; break;
		case 'i':
			interval_given = true;
			if (interval(cli, optarg, &seconds))
				return EXIT_USAGE;
			break;
		default:
			cli_err(cli, "check: %s: unknown option or missing argument", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (isolation) {
		if (np || optind < argc || strict) {
			cli_err(cli, "check --isolation samples the whole system: no --profile, --strict or PATTERN");
			return EXIT_USAGE;
		}
		return cli_isolation_audit(cli, seconds, iso_cpus);
	}
	if (iso_cpus || interval_given) {
		cli_err(cli, "check: --cpus and --interval go with --isolation");
		return EXIT_USAGE;
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
	if (np) {
		rc = check_profiles(cli, pnames, np, &t);
		goto print;
	}
	/* the findings need the masks as sets, not the kernel's texts */
	wq_ctx_mask_texts(cli->ctx, false);
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
print:
	if (rc == EXIT_USAGE) {
		out_free(&o);
		return rc;
	}
	/* an empty table says nothing to a person at a terminal; scripts get no output */
	if (t.findings == 0 && isatty(STDOUT_FILENO) && !cli->json && !cli->raw && !cli->pairs) {
		out_free(&o);
		puts("no findings");
		return rc;
	}
	if (out_print(&o) != EXIT_OK)
		rc = EXIT_FAIL;
	out_free(&o);
	if (rc == EXIT_OK && (t.errors || (strict && t.warnings)))
		rc = EXIT_FINDINGS;
	/* --profile: a setting apply would skip with a warning fails check too, so that 0 means a clean apply */
	if (rc == EXIT_OK || rc == EXIT_FINDINGS)
		rc = wq_cond_exit_worse(rc, t.settings_exit);
	return rc;
}

const struct cmd cmd_check = {
    .name = "check",
    .run = run,
    .summary = "report settings the kernel will silently ignore, multiply or clamp",
    .usage = "[--strict] [--profile NAME...] [PATTERN...]\n"
	     "       wqctl check --isolation [-i SECONDS] [--cpus LIST]",
    .options = "  --strict     exit 3 on warnings too (always on errors)\n"
	       "  PATTERN      check only these workqueues (all, and the root cpumask, when none)\n"
	       "  --profile NAME  check what these profiles would set instead of the live values\n"
	       "  --isolation  sample the workqueue tracepoints: which work ran on isolated CPUs, whether it can\n"
	       "               be moved and how (exit 3 when any ran there; root, live system)\n"
	       "  -i, --interval SECONDS  the sampling window (default 5)\n"
	       "  --cpus LIST  audit these CPUs instead of the kernel's isolated and nohz_full ones\n",
};
