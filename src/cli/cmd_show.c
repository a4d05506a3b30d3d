// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl show: one row per workqueue. */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/explain.h"
#include "../lib/util/macro.h"
#include "../lib/core/owner.h"
#include "../lib/core/ownerknob.h"
#include "../lib/core/rescuer.h"
#include "../lib/core/wq.h"
#include "../lib/core/mountopt.h"
#include "cli.h"

enum {
	COL_NAME,
	COL_KIND,
	COL_MAX_ACTIVE,
	COL_MAX_INFLIGHT,
	COL_CPUS,
	COL_SCOPE,
	COL_STRICT,
	COL_NICE,
	COL_OWNER,
	COL_EFFECTIVE_CPUS,
	COL_NUMA,
	COL_PATH,
	COL_OWNER_NODE,
	COL_OWNER_NODE_REASON,
	COL_SCOPE_DEFAULT,
};

static const struct colinfo cols[] = {
    [COL_NAME] = {"NAME", 0.2, 0, SCOLS_JSON_STRING, "workqueue name as in sysfs"},
    [COL_KIND] = {"KIND", 0.1, 0, SCOLS_JSON_STRING, "unbound or percpu"},
    [COL_MAX_ACTIVE] = {"MAX_ACTIVE", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "configured max_active"},
    [COL_MAX_INFLIGHT] = {"MAX_INFLIGHT", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			  "most work items in flight on this kernel and topology (derived)"},
    [COL_CPUS] = {"CPUS", 0.1, 0, SCOLS_JSON_STRING, "requested cpumask as a CPU list"},
    [COL_SCOPE] = {"SCOPE", 0.1, 0, SCOLS_JSON_STRING, "affinity scope as the kernel reports it"},
    [COL_STRICT] = {"STRICT", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_BOOLEAN_OPTIONAL, "strict affinity"},
    [COL_NICE] = {"NICE", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "worker nice level"},
    [COL_OWNER] = {"OWNER", 0.1, 0, SCOLS_JSON_STRING, "device the workqueue belongs to"},
    [COL_EFFECTIVE_CPUS] = {"EFFECTIVE_CPUS", 0.1, 0, SCOLS_JSON_STRING,
			    "CPUs actually used: cpumask & root cpumask, or the root cpumask"},
    [COL_NUMA] = {"NUMA", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_BOOLEAN_OPTIONAL, "legacy NUMA affinity (<= 6.5)"},
    [COL_PATH] = {"PATH", 0.2, 0, SCOLS_JSON_STRING, "sysfs directory"},
    [COL_OWNER_NODE] = {"OWNER_NODE", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			"NUMA node of the owner device (what 'local' means)"},
    [COL_OWNER_NODE_REASON] = {"OWNER_NODE_REASON", 0.2, 0, SCOLS_JSON_STRING,
			       "why the owner device has no NUMA node ('cpumask = local' is skipped)"},
    [COL_SCOPE_DEFAULT] = {"SCOPE_DEFAULT", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_BOOLEAN_OPTIONAL,
			   "the scope follows the module default (default_affinity_scope)"},
};

#define DEFAULT_COLS "NAME,KIND,MAX_ACTIVE,MAX_INFLIGHT,CPUS,SCOPE,STRICT,NICE,OWNER"

/* show --outside: the workqueues the kernel has beyond sysfs, as their rescuer threads name them */
enum { OCOL_NAME, OCOL_RESCUER_PID, OCOL_TRUNCATED, OCOL_OWNER, OCOL_SETTING };

static const struct colinfo ocols[] = {
    [OCOL_NAME] = {"NAME", 0.3, 0, SCOLS_JSON_STRING, "workqueue name as its rescuer thread carries it"},
    [OCOL_RESCUER_PID] = {"RESCUER_PID", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "process ID of its rescuer thread"},
    [OCOL_TRUNCATED] = {"TRUNCATED", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_BOOLEAN,
			"the thread's name fills the 15 characters /proc shows of it on some kernels: NAME may be "
			"the start of the workqueue's"},
    [OCOL_OWNER] = {"OWNER", 0.1, 0, SCOLS_JSON_STRING, "owner that offers a setting for it instead (btrfs, dm-crypt)"},
    [OCOL_SETTING] = {"SETTING", 0.4, 0, SCOLS_JSON_STRING, "what sets its concurrency, when anything does"},
};

#define DEFAULT_OCOLS "NAME,RESCUER_PID,OWNER,SETTING"

static int report_bad(struct cli *cli, const struct wq_info *wi)
{
	int n = 0;

	for (int a = 0; a < WQ_A_NR; a++) {
		if (!(wi->bad & (1U << a)))
			continue;
		if (wi->raw[a])
			cli_err(cli, "%s/%s: malformed value '%.40s'", wi->name, wq_attr_descs[a].name, wi->raw[a]);
		else
			cli_err(cli, "%s/%s: cannot read: %s", wi->name, wq_attr_descs[a].name,
				wq_strerror(-wi->err[a]));
		n++;
	}
	return n;
}

static void fill_row(struct cli *cli, struct out *o, const struct wq_info *wi, struct wq_cpuset_memo *cpus)
{
	struct wq_ctx *ctx = cli->ctx;
	struct libscols_line *ln = out_line(o);
	bool ok_mask = (wi->has & (1U << WQ_A_CPUMASK)) && !(wi->bad & (1U << WQ_A_CPUMASK));
	char buf[64];

	if (!ln)
		return;
	out_set(o, ln, COL_NAME, wi->name);
	out_set(o, ln, COL_KIND, wi->unbound ? "unbound" : "percpu");
	/* Unknown or absent values are "-" (null in JSON), never blank. */
	for (int id = COL_MAX_ACTIVE; id <= COL_SCOPE_DEFAULT; id++)
		out_set(o, ln, id, NULL);
	if (!(wi->bad & (1U << WQ_A_MAX_ACTIVE)))
		out_setn(o, ln, COL_MAX_ACTIVE, wi->max_active);
	if (out_has(o, COL_MAX_INFLIGHT) && !(wi->bad & (1U << WQ_A_MAX_ACTIVE))) {
		long mi = wq_explain_max_inflight(ctx, wi);

		if (mi >= 0)
			out_setn(o, ln, COL_MAX_INFLIGHT, mi);
	}
	if (ok_mask) {
		out_set(o, ln, COL_CPUS, wq_cpuset_list_memo(cpus, wi->cpumask));
		if (out_has(o, COL_EFFECTIVE_CPUS)) {
			_cleanup_cpuset_ struct wq_cpuset *e = wq_cpuset_new();
			_cleanup_free_ char *el = NULL;

			if (e && wq_effective_cpus(ctx, wi->cpumask, e) == 0)
				el = wq_cpuset_format_list(e);
			out_set(o, ln, COL_EFFECTIVE_CPUS, el);
		}
	}
	if ((wi->has & (1U << WQ_A_AFFINITY_SCOPE)) && !(wi->bad & (1U << WQ_A_AFFINITY_SCOPE))) {
		/* JSON splits "default (cache)" into the scope and whether it is the default */
		out_set(o, ln, COL_SCOPE, cli->json && wi->scope_eff[0] ? wi->scope_eff : wi->raw[WQ_A_AFFINITY_SCOPE]);
		out_set(o, ln, COL_SCOPE_DEFAULT, !strcmp(wi->scope, "default") ? "1" : "0");
	}
	if (wi->strict >= 0)
		out_setn(o, ln, COL_STRICT, wi->strict);
	if (wi->nice >= -20 && (wi->has & (1U << WQ_A_NICE)) && !(wi->bad & (1U << WQ_A_NICE)))
		out_setn(o, ln, COL_NICE, wi->nice);
	if (wi->numa >= 0)
		out_setn(o, ln, COL_NUMA, wi->numa);
	if (out_has(o, COL_OWNER)) {
		struct wq_owner ow;

		wq_owner_from_name(wi->name, &ow);
		out_set(o, ln, COL_OWNER, wq_owner_format(&ow, buf, sizeof(buf)));
	}
	if (out_has(o, COL_OWNER_NODE) || out_has(o, COL_OWNER_NODE_REASON)) {
		struct wq_owner_info oi;

		wq_owner_resolve(ctx, wi->name, &oi);
		if (oi.node >= 0)
			out_setn(o, ln, COL_OWNER_NODE, oi.node);
		else
			out_set(o, ln, COL_OWNER_NODE_REASON,
				oi.o.kind == WQ_OWNER_NONE ? "the workqueue has no owner device" : oi.node_why);
		wq_owner_info_clear(&oi);
	}
	if (out_has(o, COL_PATH)) {
		char path[256];

		wq_attr_path(path, sizeof(path), wi->name, NULL);
		out_setf(o, ln, COL_PATH, "%s%s%s", cli->sysroot ? cli->sysroot : "", cli->sysroot ? "/" : "/", path);
	}
}

/* "4 on /data (the default), 2 on /fast": each btrfs mount's thread_pool, into a memstream. */
static void btrfs_mount_text(const struct wq_btrfs_mount *m, void *data)
{
	FILE *f = data;

	fprintf(f, "%s%d on %s%s", ftell(f) ? ", " : "", m->thread_pool, m->dir, m->given ? "" : " (the default)");
}

static bool matches(char **pats, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (fnmatch(pats[i], name, 0) == 0)
			return true;
	return n == 0;
}

/* show --outside [PATTERN...] */
static int run_outside(struct cli *cli, char **pats, size_t npats)
{
	char *btrfs = NULL;
	size_t blen = 0;
	struct wq_rescuer *v = NULL;
	size_t n = 0, rows = 0;
	struct out o;
	int rc, r;

	rc = out_init(&o, cli, ocols, ARRAY_SIZE(ocols), DEFAULT_OCOLS, NULL, "outside");
	if (rc == 0 && cli->json && !out_has(&o, OCOL_TRUNCATED))
		rc = out_add_column(&o, OCOL_TRUNCATED);
	if (rc)
		return rc;
	if (!cli_ctx(cli)) {
		out_free(&o);
		return EXIT_FAIL;
	}
	r = wq_rescuers_outside(cli->ctx, &v, &n);
	if (r < 0) {
		cli_err(cli, "%sproc: cannot list the rescuer threads: %s", cli->sysroot ? "--sysroot's " : "/",
			r == -ENOENT ? "no processes there" : wq_strerror(-r));
		out_free(&o);
		return EXIT_FAIL;
	}
	/* btrfs's: the value in force on each mount, which each makes its own set with */
	{
		FILE *f = open_memstream(&btrfs, &blen);

		if (f) {
			wq_btrfs_mounts(cli->ctx, btrfs_mount_text, f);
			if (fclose(f) != 0) {
				free(btrfs);
				btrfs = NULL;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct wq_owner_knob *k = wq_owner_knob_find(v[i].name);
		struct libscols_line *ln;
		_cleanup_free_ char *setting = NULL;

		if (!matches(pats, npats, v[i].name) || !(ln = out_line(&o)))
			continue;
		rows++;
		out_set(&o, ln, OCOL_NAME, v[i].name);
		out_setn(&o, ln, OCOL_RESCUER_PID, v[i].pid);
		out_set(&o, ln, OCOL_TRUNCATED, v[i].truncated ? "1" : "0");
		out_set(&o, ln, OCOL_OWNER, k ? k->owner : NULL);
		if (k && !strcmp(k->owner, "btrfs") && btrfs && *btrfs &&
		    asprintf(&setting, "%s: %s", k->brief, btrfs) < 0)
			setting = NULL;
		out_set(&o, ln, OCOL_SETTING, setting ? setting : k ? k->brief : NULL);
	}
	free(v);
	free(btrfs);
	rc = out_print(&o);
	out_free(&o);
	if (rc == EXIT_OK && npats && !rows) {
		cli_err(cli, "no workqueue outside sysfs matches%s%s (only those with a rescuer thread are known)",
			npats == 1 ? " " : "", npats == 1 ? pats[0] : " the patterns");
		rc = EXIT_NONE_EXIST;
	}
	return rc;
}

/*
 * After the full list: a pointer to the workqueues sysfs does not list, where
 * there are processes to find their rescuer threads in. Not their count:
 * that reads every kernel thread's stat file (six or more a CPU, tens of
 * thousands on a big machine), which only --outside pays for.
 */
static void note_outside(struct cli *cli)
{
	if (cli->quiet || !wq_rescuers_findable(cli->ctx))
		return;
	fflush(stdout); /* after the table on a terminal */
	cli_warn(cli, "the kernel has more workqueues than sysfs lists: 'wqctl show --outside' lists those with a "
		      "rescuer thread, 'wqctl monitor' every one doing work");
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{"outside", no_argument, NULL, 'O'}, {NULL, 0, NULL, 0}};
	bool outside = false;
	struct wq_cpuset_memo cpus = {0};
	char **names = NULL;
	size_t n = 0;
	struct out o;
	int c, rc, bad = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'O') {
			outside = true;
			continue;
		}
		cli_err(cli, "show: %s: unknown option (see wqctl show --help)", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli->list_columns)
		return outside ? out_list_columns(cli, ocols, ARRAY_SIZE(ocols))
			       : out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (outside)
		return run_outside(cli, argv + optind, (size_t)(argc - optind));
	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), DEFAULT_COLS, "WQCTL_COLUMNS", "workqueues");
	/* JSON consumers get the reason beside a null owner_node */
	if (rc == 0 && cli->json && out_has(&o, COL_OWNER_NODE))
		rc = out_add_column(&o, COL_OWNER_NODE_REASON);
	if (rc == 0 && cli->json && out_has(&o, COL_SCOPE))
		rc = out_add_column(&o, COL_SCOPE_DEFAULT);
	if (rc) {
		out_free(&o);
		return rc;
	}
	if (!cli_ctx(cli)) {
		out_free(&o);
		return EXIT_FAIL;
	}
	/* a row shows the mask as a CPU list: the set, not the kernel's text */
	wq_ctx_mask_texts(cli->ctx, false);
	rc = cli_resolve_targets(cli, argv + optind, (size_t)(argc - optind), &names, &n, true);
	if (rc == EXIT_FAIL) {
		out_free(&o);
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		struct wq_info wi;
		int r = wq_info_read(cli->ctx, names[i], &wi);

		if (r == -ENOENT) { /* vanished while we looked */
			wq_info_clear(&wi);
			continue;
		}
		if (r < 0) {
			cli_err(cli, "%s: cannot read: %s", names[i], wq_strerror(-r));
			bad++;
		} else {
			bad += report_bad(cli, &wi);
			fill_row(cli, &o, &wi, &cpus);
		}
		wq_info_clear(&wi);
	}
	wq_cpuset_memo_clear(&cpus);
	if (out_print(&o) != EXIT_OK)
		rc = EXIT_FAIL;
	else if (optind == argc)
		note_outside(cli);
	out_free(&o);
	wq_names_free(names, n);
	/* columns left '-' because the topology or the root mask could not be read (said above) */
	if (cli->ctx->topo_err || cli->ctx->root_mask_logged)
		bad++;
	if (rc == EXIT_OK && bad)
		rc = EXIT_FAIL;
	return rc;
}

const struct cmd cmd_show = {
    .name = "show",
    .run = run,
    .summary = "list workqueues and their settings",
    .usage = "[--outside] [PATTERN...]",
    .options = "  PATTERN              workqueue names or globs (all when none)\n"
	       "  -o, --output LIST    columns (see --list-columns); WQCTL_COLUMNS sets the default\n",
};
