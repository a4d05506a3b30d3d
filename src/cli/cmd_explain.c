// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl explain: the max_active model of src/lib/core/explain.c for one workqueue, printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/explain.h"
#include "../lib/util/macro.h"
#include "../lib/core/ownerknob.h"
#include "../lib/core/wq.h"
#include "../lib/core/mountopt.h"
#include "cli.h"
#include "json.h"

enum { COL_NODE, COL_CPUS, COL_LIMIT };

static const struct colinfo cols[] = {
    [COL_NODE] = {"NODE", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		  "concurrency counter: NUMA node, or - for the node-less fallback"},
    [COL_CPUS] = {"CHARGED_BY", 0.5, 0, SCOLS_JSON_STRING,
		  "the CPUs whose queued work charges this counter (where work is queued, not where it runs)"},
    [COL_LIMIT] = {"LIMIT", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "most work items active on it"},
};

static int json_out(struct cli *cli, const struct wq_info *wi, const struct wq_explain *ex)
{
	json_object *doc = json_object_new_object(), *nodes = json_object_new_array(), *notes = json_object_new_array();
	const char *era = wq_era_name(ex->era);

	json_object_object_add(doc, "workqueue", json_object_new_string(wi->name));
	json_object_object_add(doc, "kind", json_object_new_string(wi->unbound ? "unbound" : "percpu"));
	json_object_object_add(doc, "kernel",
			       cli->ctx->kver.known ? json_object_new_string(cli->ctx->kver.release) : NULL);
	json_object_object_add(doc, "era", wi->unbound && era ? json_object_new_string(era) : NULL);
	json_object_object_add(doc, "max_active", ex->max_active > 0 ? json_object_new_int(ex->max_active) : NULL);
	json_object_object_add(doc, "min_active", ex->min_active >= 0 ? json_object_new_int(ex->min_active) : NULL);
	json_object_object_add(doc, "max_inflight",
			       ex->max_inflight >= 0 ? json_object_new_int64(ex->max_inflight) : NULL);
	json_object_object_add(doc, "ordered", json_object_new_boolean(ex->ordered));
	json_object_object_add(doc, "scope", ex->scope[0] ? json_object_new_string(ex->scope) : NULL);
	json_object_object_add(doc, "effective_cpus", json_cpus(ex->effective));
	for (int i = 0; i < ex->ncounters; i++) {
		json_object *n = json_object_new_object();

		json_object_object_add(n, "node",
				       ex->counters[i].node >= 0 ? json_object_new_int(ex->counters[i].node) : NULL);
		json_object_object_add(n, "cpus", json_cpus(ex->counters[i].cpus));
		json_object_object_add(n, "limit", json_object_new_int64(ex->counters[i].limit));
		json_object_array_add(nodes, n);
	}
	json_object_object_add(doc, "nodes", nodes);
	if (ex->why)
		json_object_array_add(notes, json_object_new_string(ex->why));
	for (int i = 0; i < ex->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(ex->notes[i]));
	json_object_object_add(doc, "notes", notes);
	return json_print(doc);
}

static int text_out(struct cli *cli, const struct wq_info *wi, const struct wq_explain *ex, const char *cpuspec,
		    const struct wq_cpuset *cpus)
{
	struct wq_ctx *ctx = cli->ctx;
	_cleanup_free_ char *eff = wq_cpuset_format_list(ex->effective);
	struct out o;
	int rc;

	printf("workqueue:    %s (%s)\n", wi->name, wi->unbound ? "unbound" : "percpu");
	printf("kernel:       %s", ctx->kver.known ? ctx->kver.release : "unknown");
	if (wi->unbound && wq_era_name(ex->era))
		printf(" (max_active era: %s)", wq_era_name(ex->era));
	if (ex->max_active > 0)
		printf("\nmax_active:   %d\n", ex->max_active);
	else
		printf("\nmax_active:   -\n");
	if (ex->min_active >= 0)
		printf("min_active:   %d (derived, not in sysfs)\n", ex->min_active);
	if (cpuspec && cpus) {
		/* what the what-if value resolved to: node:0+1 is node 0 and CPU 1, node:0,1 nodes 0 and 1 */
		_cleanup_free_ char *asked = wq_cpuset_format_list(cpus);

		printf("--cpus:       %s = %s\n", cpuspec, asked ? asked : "?");
	}
	if (wi->unbound)
		printf("cpus:         %s (effective)\n", eff ? eff : "?");
	if (ex->scope[0])
		printf("scope:        %s\n", ex->scope);
	if (ex->max_inflight >= 0)
		printf("max_inflight: %ld\n", ex->max_inflight);
	else
		printf("max_inflight: - (%s)\n", ex->why ? ex->why : "unknown");
	if (ex->ncounters) {
		putchar('\n');
		fflush(stdout);
		rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "NODE,CHARGED_BY,LIMIT", NULL, "counters");
		if (rc)
			return rc;
		for (int i = 0; i < ex->ncounters; i++) {
			struct libscols_line *ln = out_line(&o);
			_cleanup_free_ char *l = wq_cpuset_format_list(ex->counters[i].cpus);

			if (ex->counters[i].node >= 0)
				out_setn(&o, ln, COL_NODE, ex->counters[i].node);
			else
				out_set(&o, ln, COL_NODE, NULL);
			out_set(&o, ln, COL_CPUS, l);
			out_setn(&o, ln, COL_LIMIT, ex->counters[i].limit);
		}
		rc = out_print(&o);
		out_free(&o);
		if (rc)
			return rc;
	}
	if (ex->nnotes) {
		putchar('\n');
		for (int i = 0; i < ex->nnotes; i++)
			printf("note: %s\n", ex->notes[i]);
	}
	return EXIT_OK;
}

static void outside_notes(struct wq_ctx *ctx, const struct wq_info *info, const struct wq_owner_knob *knob,
			  struct wq_explain *ex)
{
	wq_explain_note(ex,
			"%s is not in sysfs (created without WQ_SYSFS): its attributes cannot be read or set; the "
			"figures assume an unbound workqueue on every CPU with the default scope; 'wqctl monitor %s' "
			"shows its work",
			info->name, info->name);
	if (!knob)
		return;
	if (!strcmp(knob->owner, "btrfs"))
		wq_explain_note(ex, "btrfs: %s; %d on this machine; change it with '%s' (%s)", knob->knob,
				wq_btrfs_thread_pool_default(ctx), knob->how, knob->source);
	else if (knob->knob)
		wq_explain_note(ex, "%s: %s%s%s (%s)", knob->owner, knob->knob, knob->how ? "; " : "",
				knob->how ? knob->how : "", knob->source);
	else
		wq_explain_note(ex, "%s offers no setting for it: %s (%s)", knob->owner, knob->none, knob->source);
}

/* The btrfs mounts (at most 16 told apart; more are counted). */
struct mounts {
	struct {
		char dir[256], dev[128];
		int thread_pool;
		bool given;
	} m[16];
	size_t n;
};

static void count_mount(const struct wq_btrfs_mount *m, void *data)
{
	struct mounts *mm = data;

	if (mm->n < ARRAY_SIZE(mm->m)) {
		snprintf(mm->m[mm->n].dir, sizeof(mm->m[mm->n].dir), "%s", m->dir);
		snprintf(mm->m[mm->n].dev, sizeof(mm->m[mm->n].dev), "%s", m->dev);
		mm->m[mm->n].thread_pool = m->thread_pool;
		mm->m[mm->n].given = m->given;
	}
	mm->n++;
}

/*
 * Each btrfs mount makes its own set of these workqueues with its own
 * thread_pool: the most in flight of this name on each, by mount point.
 */
static void mount_notes(struct wq_ctx *ctx, const struct wq_info *info, const struct wq_whatif *wi,
			const struct mounts *mm, struct wq_explain *ex)
{
	if (!mm->n) {
		wq_explain_note(ex, "no btrfs is mounted here: the figures are for the default thread_pool");
		return;
	}
	for (size_t i = 0; i < mm->n && i < ARRAY_SIZE(mm->m); i++) {
		struct wq_whatif w = *wi;
		struct wq_explain one;

		if (!w.max_active)
			w.max_active = mm->m[i].thread_pool;
		if (wq_explain(ctx, info, &w, &one) == 0)
			wq_explain_note(ex, "%s on %s (%s): thread_pool %d (%s): up to %ld in flight%s", info->name,
					mm->m[i].dir, mm->m[i].dev, mm->m[i].thread_pool,
					mm->m[i].given ? "its mount option" : "the default", one.max_inflight,
					wi->max_active ? " with --max-active" : "");
		wq_explain_clear(&one);
	}
	if (mm->n > ARRAY_SIZE(mm->m))
		wq_explain_note(ex, "and %zu more btrfs mounts", mm->n - ARRAY_SIZE(mm->m));
}

/* explain's request: the workqueue and the what-if options as given. */
struct args {
	const char *ma, *cpuspec, *scope, *mina, *fromspec;
	const char *name;
};

/*
 * The workqueue to explain: from sysfs, or outside it (an owner's knob, or
 * --max-active alone) modelled into info. EXIT_OK to go on, else the exit
 * status after the message; *outside, *knob and mounts say what was found.
 */
static int find_target(struct cli *cli, const struct args *a, struct wq_info *info, bool *outside,
		       const struct wq_owner_knob **knob, struct mounts *mounts)
{
	const char *name = a->name;

	if (!wq_name_is_valid(name) && !strchr(name, '/')) {
		cli_err(cli, "%s: not a workqueue name", name);
		return EXIT_USAGE;
	}
	if (wq_name_is_valid(name) && wq_info_read(cli->ctx, name, info) == 0)
		return EXIT_OK;
	/* not in sysfs: most workqueues (btrfs, dm-zoned, drivers) are not WQ_SYSFS */
	*knob = wq_owner_knob_find(name);
	if (cli_is_glob(name)) {
		cli_err(cli,
			"%s: explain takes one workqueue's name, not a pattern (wqctl show '%s' lists "
			"those in sysfs)",
			name, name);
		return EXIT_USAGE;
	}
	/* an owner whose workqueues this kernel puts in sysfs: the device is absent */
	if (!a->ma && *knob && wq_owner_knob_in_sysfs(cli->ctx, *knob)) {
		cli_no_such_wq(cli, name);
		return EXIT_NONE_EXIST;
	}
	if (!a->ma && *knob && !wq_owner_knob_known(cli->ctx, *knob, name)) {
		struct mounts mm = {0};
		const char *near;
		size_t nn = 0;

		while ((*knob)->names[nn])
			nn++;
		near = cli_nearest(name, (*knob)->names, nn);
		if (!strcmp((*knob)->owner, "btrfs"))
			wq_btrfs_mounts(cli->ctx, count_mount, &mm);
		cli_err(cli, "%s: no such %s workqueue%s%s%s%s", name, (*knob)->owner, near ? "; did you mean '" : "",
			near ? near : "", near ? "'?" : "",
			!strcmp((*knob)->owner, "btrfs") && !mm.n ? " (no btrfs is mounted here)" : "");
		return EXIT_NONE_EXIST;
	}
	if (!a->ma && !*knob) {
		cli_err(cli,
			"%s: no such workqueue in sysfs (a workqueue outside sysfs: give --max-active N for "
			"what N means here)",
			name);
		return EXIT_NONE_EXIST;
	}
	if (wq_owner_knob_model(cli->ctx, name, *knob, info) < 0)
		return EXIT_FAIL;
	*outside = true;
	/* btrfs: each mount's own thread_pool; one mount's is the figure */
	if (*knob && !strcmp((*knob)->owner, "btrfs")) {
		wq_btrfs_mounts(cli->ctx, count_mount, mounts);
		if (mounts->n == 1)
			info->max_active = mounts->m[0].thread_pool;
	}
	return EXIT_OK;
}

/* The what-if options into wi, each checked against this machine; cpus and from hold the sets. EXIT_OK or EXIT_USAGE. */
static int whatif(struct cli *cli, const struct args *a, const struct wq_info *info, struct wq_whatif *wi,
		  struct wq_cpuset **cpus, struct wq_cpuset **from)
{
	char why[512], *out = NULL;

	if (a->ma) {
		if (wq_attr_parse(cli->ctx, info, WQ_A_MAX_ACTIVE, -1, a->ma, &out, why, sizeof(why)) < 0) {
			cli_err(cli, "--max-active: invalid value '%s': %s", a->ma, why);
			return EXIT_USAGE;
		}
		wi->max_active = atoi(out);
		free(out);
	}
	if (a->mina) {
		char *end;
		long v = strtol(a->mina, &end, 10);

		if (*end || v < 1 || v > 2048) {
			cli_err(cli, "--min-active: invalid value '%s': must be 1-2048", a->mina);
			return EXIT_USAGE;
		}
		wi->min_active = (int)v;
	}
	if ((a->cpuspec || a->scope) && !info->unbound) {
		cli_err(cli, "%s: per-cpu workqueues have no %s", info->name,
			a->cpuspec ? "cpumask" : "affinity_scope");
		return EXIT_USAGE;
	}
	if (a->cpuspec) {
		*cpus = wq_cpuset_new();
		if (!*cpus || wq_cpuspec_parse(cli->ctx, a->cpuspec, -1, *cpus, why, sizeof(why)) < 0) {
			cli_err(cli, "--cpus: invalid value '%s': %s", a->cpuspec, why);
			return EXIT_USAGE;
		}
		wi->cpus = *cpus;
	}
	if (a->fromspec) {
		struct wq_topo *t = wq_ctx_topo(cli->ctx);

		*from = wq_cpuset_new();
		if (!*from || wq_cpuspec_parse(cli->ctx, a->fromspec, -1, *from, why, sizeof(why)) < 0) {
			cli_err(cli, "--from: invalid value '%s': %s", a->fromspec, why);
			return EXIT_USAGE;
		}
		if (!t || !wq_cpuset_intersects(*from, t->online)) {
			cli_err(cli, "--from: invalid value '%s': no online CPU queues work from there", a->fromspec);
			return EXIT_USAGE;
		}
		wi->from = *from;
	}
	if (a->scope) {
		if (wq_value_parse(cli->ctx, WQ_V_SCOPE, 0, 0, -1, true, a->scope, &out, why, sizeof(why)) < 0) {
			cli_err(cli, "--scope: invalid value: %s", why);
			return EXIT_USAGE;
		}
		free(out);
		wi->scope = a->scope;
	}
	return EXIT_OK;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"max-active", required_argument, NULL, 'm'}, {"cpus", required_argument, NULL, 'c'},
	    {"scope", required_argument, NULL, 's'},	  {"min-active", required_argument, NULL, 'M'},
	    {"from", required_argument, NULL, 'f'},	  {NULL, 0, NULL, 0},
	};
	_cleanup_cpuset_ struct wq_cpuset *cpus = NULL, *from = NULL;
	const struct wq_owner_knob *knob = NULL;
	struct args a = {0};
	struct wq_whatif wi = {0};
	struct wq_explain ex;
	struct wq_info info;
	struct mounts mounts = {0};
	bool outside = false;
	int c, r, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm': a.ma = optarg; break;
		case 'c': a.cpuspec = optarg; break;
		case 's': a.scope = optarg; break;
		case 'M': a.mina = optarg; break;
		case 'f': a.fromspec = optarg; break;
		default:
			cli_err(cli, "explain: %s: unknown option or missing argument", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (optind + 1 != argc) {
		cli_err(cli, "explain: need exactly one WORKQUEUE (see wqctl explain --help)");
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	a.name = argv[optind];
	memset(&info, 0, sizeof(info));
	rc = find_target(cli, &a, &info, &outside, &knob, &mounts);
	if (rc == EXIT_OK)
		rc = whatif(cli, &a, &info, &wi, &cpus, &from);
	if (rc != EXIT_OK)
		goto out;
	if (!outside && !wi.max_active && (!info.raw[WQ_A_MAX_ACTIVE] || (info.bad & (1U << WQ_A_MAX_ACTIVE)))) {
		if (info.raw[WQ_A_MAX_ACTIVE])
			cli_err(cli, "%s/max_active: malformed value '%.40s' (give --max-active N)", info.name,
				info.raw[WQ_A_MAX_ACTIVE]);
		else
			cli_err(cli, "%s/max_active: cannot read: %s", info.name,
				wq_strerror(info.err[WQ_A_MAX_ACTIVE] ? -info.err[WQ_A_MAX_ACTIVE] : ENOENT));
		rc = EXIT_FAIL;
		goto out;
	}
	r = wq_explain(cli->ctx, &info, &wi, &ex);
	if (r < 0) {
		cli_err(cli, "%s: cannot compute: %s", info.name, wq_strerror(-r));
		wq_explain_clear(&ex);
		rc = EXIT_FAIL;
		goto out;
	}
	if (outside)
		outside_notes(cli->ctx, &info, knob, &ex);
	if (outside && knob && !strcmp(knob->owner, "btrfs"))
		mount_notes(cli->ctx, &info, &wi, &mounts, &ex);
	rc = cli->json ? json_out(cli, &info, &ex) : text_out(cli, &info, &ex, a.cpuspec, cpus);
	wq_explain_clear(&ex);
out:
	wq_info_clear(&info);
	return rc;
}

const struct cmd cmd_explain = {
    .name = "explain",
    .run = run,
    .summary = "explain what max_active means on this kernel and topology",
    .usage = "WORKQUEUE [--max-active N] [--cpus VALUE] [--scope SCOPE] [--from CPUS]",
    .options = "  --max-active N   what if max_active were N\n"
	       "  --cpus VALUE     what if cpumask were VALUE (same syntax as set)\n"
	       "  --scope SCOPE    what if affinity_scope were SCOPE\n"
	       "  --min-active N   assume this hidden min_active (default: min(8, max_active))\n"
	       "  --from CPUS      work is queued only from these CPUs (same syntax as set)\n",
};
