// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl knob: the global knobs (root masks, module parameters), read and set. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/knob.h"
#include "../lib/util/macro.h"
#include "../lib/core/plan.h"
#include "../lib/core/verdict.h"
#include "cli.h"
#include "plan_out.h"
#include "profiles.h"

enum { COL_NAME, COL_VALUE, COL_WRITABLE, COL_SINCE, COL_DESCRIPTION, COL_PATH };

static const struct colinfo cols[] = {
    [COL_NAME] = {"NAME", 0.2, 0, SCOLS_JSON_STRING, "knob name"},
    [COL_VALUE] = {"VALUE", 0.2, 0, SCOLS_JSON_STRING, "current value (masks as CPU lists)"},
    [COL_WRITABLE] = {"WRITABLE", 0.05, 0, SCOLS_JSON_STRING, "yes, no (read-only) or boot (command line only)"},
    [COL_SINCE] = {"SINCE", 0.05, 0, SCOLS_JSON_STRING, "kernel release that added it"},
    [COL_DESCRIPTION] = {"DESCRIPTION", 0.5, SCOLS_FL_TRUNC, SCOLS_JSON_STRING, "what it does"},
    [COL_PATH] = {"PATH", 0.3, 0, SCOLS_JSON_STRING, "file, or the kernel command-line parameter"},
};

static void row(struct cli *cli, struct out *o, const struct wq_knob *k)
{
	struct libscols_line *ln = out_line(o);
	_cleanup_free_ char *v = k->value ? wq_value_display(wq_knob_type(k), k->value) : NULL;

	out_set(o, ln, COL_NAME, k->name);
	out_set(o, ln, COL_VALUE, v);
	out_set(o, ln, COL_WRITABLE, k->boot_only ? "boot" : k->writable ? "yes" : "no");
	out_set(o, ln, COL_SINCE, k->desc ? k->desc->since : NULL);
	out_set(o, ln, COL_DESCRIPTION, k->desc ? k->desc->desc : "unknown parameter (shown raw)");
	if (k->present)
		out_setf(o, ln, COL_PATH, "%s/%s", cli->sysroot ? cli->sysroot : "", k->path);
	else
		out_setf(o, ln, COL_PATH, "workqueue.%s=", k->name);
}

/* A knob whose file is there but cannot be read (listed with '-'): say why. */
static bool unreadable(struct cli *cli, const struct wq_knob *k)
{
	if (!k->present || !k->err)
		return false;
	cli_err(cli, "%s: cannot read: %s", k->path, wq_strerror(-k->err));
	return true;
}

/* "NAME: no such knob on this kernel", with the nearest one it has. */
static void knob_unknown(struct cli *cli, const char *arg)
{
	const char *names[64], *near;
	char name[64];
	size_t nn = 0;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	for (unsigned int i = 0; i < wq_knob_ndescs && nn < ARRAY_SIZE(names); i++) {
		struct wq_knob k;

		memset(&k, 0, sizeof(k));
		if (wq_knob_get(cli->ctx, wq_knob_descs[i].name, &k) == 0 && k.present)
			names[nn++] = wq_knob_descs[i].name;
		wq_knob_clear(&k);
	}
	near = cli_nearest(name, names, nn);
	if (near)
		cli_err(cli, "%s: no such knob on this kernel; did you mean '%s'?", name, near);
	else
		cli_err(cli, "%s: no such knob on this kernel", name);
}

static int list(struct cli *cli, char **names, int n)
{
	struct wq_knob *ks = NULL;
	size_t nk = 0;
	struct out o;
	int rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "NAME,VALUE,WRITABLE,SINCE,DESCRIPTION", NULL, "knobs");

	if (rc)
		return rc;
	if (n == 0) {
		if (wq_knobs_list(cli->ctx, &ks, &nk) < 0) {
			cli_err(cli, "%s: cannot list parameters", WQ_P_PARAMS);
			out_free(&o);
			return EXIT_FAIL;
		}
		for (size_t i = 0; i < nk; i++) {
			row(cli, &o, &ks[i]);
			if (unreadable(cli, &ks[i]))
				rc = EXIT_FAIL;
		}
		wq_knobs_free(ks, nk);
	}
	for (int i = 0; i < n; i++) {
		struct wq_knob k;

		if (wq_knob_get(cli->ctx, names[i], &k) < 0) {
			knob_unknown(cli, names[i]);
			rc = EXIT_USAGE;
			continue;
		}
		row(cli, &o, &k);
		if (unreadable(cli, &k))
			rc = EXIT_FAIL;
		wq_knob_clear(&k);
	}
	if (out_print(&o) != EXIT_OK)
		rc = EXIT_FAIL;
	out_free(&o);
	return rc;
}

static int set(struct cli *cli, char **args, int n, bool dry)
{
	struct wq_plan plan = {0};
	int invalid = 0, rc;

	for (int i = 0; i < n; i++) {
		char *eq = strchr(args[i], '=');
		struct wq_req_verdict v = {0};
		struct wq_knob k;

		if (!eq)
			continue;
		*eq = '\0';
		if (wq_knob_get(cli->ctx, args[i], &k) < 0) {
			knob_unknown(cli, args[i]);
			invalid++;
			continue;
		}
		if (wq_request_knob(cli->ctx, &k, eq + 1, &v) < 0) {
			invalid++;
		} else if (v.cond != WQ_COND_OK && (k.boot_only || !k.writable)) {
			cli_err(cli, "%s: cannot set: %s", k.name, v.why);
			invalid++;
		} else if (v.cond != WQ_COND_OK) {
			cli_say_refusal(cli, k.name, eq + 1, &v);
			invalid++;
		} else {
			/*
			 * The root mask reads back as written, isolated CPUs included: a sysfs
			 * write does not subtract cpumask_isolated ("not excluding isolated cpus
			 * on purpose", workqueue_set_unbound_cpumask(); only a cpuset partition
			 * change does). Debian 6.12.95 booted with isolcpus=12-13 read back ffff
			 * after ffff was written, with cpumask_isolated 3000.
			 */
			if (wq_plan_add(&plan, k.name, k.path, NULL, wq_knob_type(&k), k.value, v.write) < 0)
				invalid++;
		}
		wq_req_verdict_clear(&v);
		wq_knob_clear(&k);
	}
	if (invalid) {
		wq_plan_free(&plan);
		return EXIT_USAGE;
	}
	/* journaled like apply's writes, so that revert undoes them */
	rc = dry ? plan_print(cli, &plan) : plan_transact(cli, &plan, PLAN_LOCK_WAIT_MS, -1);
	if (rc == EXIT_OK && !dry && !cli->quiet)
		plan_report_changes(&plan);
	wq_plan_free(&plan);
	return rc;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{"dry-run", no_argument, NULL, 'd'}, {NULL, 0, NULL, 0}};
	bool dry = false;
	int c, nset = 0, nget = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'd') {
			dry = true;
			continue;
		}
		cli_err(cli, "knob: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	for (int i = optind; i < argc; i++) {
		if (strchr(argv[i], '='))
			nset++;
		else
			nget++;
	}
	if (nset && nget) {
		cli_err(cli, "knob: give either NAME... or NAME=VALUE..., not both");
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (nset)
		return set(cli, argv + optind, argc - optind, dry);
	return list(cli, argv + optind, argc - optind);
}

const struct cmd cmd_knob = {
    .name = "knob",
    .run = run,
    .summary = "list, print or set global workqueue knobs",
    .usage = "[--dry-run] [NAME[=VALUE]...]",
    .options = "  NAME          print one knob (all when none)\n"
	       "  NAME=VALUE    validate and set; boot-only knobs print the kernel command-line fragment\n"
	       "  --dry-run     print what would be written\n",
};
