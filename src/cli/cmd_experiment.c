// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * experiment: run a workload under several settings, interleaved in a
 * seeded shuffled order, and compare a metric of it (fio's JSON, a number in
 * its output, or wall time) with the workqueue counters of each run. Every
 * write goes through the journaled plan writer; the values found before the
 * first run are written back at the end, also after a failure or a signal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/core/apply.h"
#include "../lib/obs/experiment.h"
#include "../lib/core/state.h"
#include "../lib/obs/khist.h"
#include "../lib/util/macro.h"
#include "../lib/core/verdict.h"
#include "../lib/core/mountopt.h"
#include "../lib/core/owner.h"
#include "../lib/obs/sampler.h"
#include "../lib/core/wq.h"
#include "cli.h"
#include "exp_plot.h"
#include "json.h"
#include "profiles.h"

/* The command line's part of an experiment: the engine's state and the options it does not see. */
struct xp {
	struct cli *cli;
	struct wq_exp e;
	const char *plot;
	bool seed_given;
	const char *backend; /* --backend as given: auto (NULL), kernel, stream */
	bool list; /* --list: the saved experiments */
};

enum { LCOL_NAME, LCOL_SETTINGS, LCOL_RUNS, LCOL_METRIC, LCOL_COMMAND };
static const struct colinfo list_cols[] = {
    [LCOL_NAME] = {"NAME", 0.2, 0, SCOLS_JSON_STRING, "saved experiment (--compare NAME runs it again)"},
    [LCOL_SETTINGS] = {"SETTINGS", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "settings in its grid"},
    [LCOL_RUNS] = {"RUNS", 5, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "measured runs per setting"},
    [LCOL_METRIC] = {"METRIC", 0.15, 0, SCOLS_JSON_STRING, "its metric"},
    [LCOL_COMMAND] = {"COMMAND", 0.5, SCOLS_FL_TRUNC, SCOLS_JSON_STRING, "the workload"},
};

/* --list: each saved experiment, read and checked as --compare reads it. */
static int list_saved(struct cli *cli)
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

/* A figure for people: four significant digits or so, never an exponent. */
static void fmt_num(char *b, size_t size, double v)
{
	double a = fabs(v);

	if (a >= 1000)
		snprintf(b, size, "%.0f", v);
	else if (a >= 100)
		snprintf(b, size, "%.1f", v);
	else if (a >= 1)
		snprintf(b, size, "%.2f", v);
	else if (a == 0)
		snprintf(b, size, "0");
	else
		snprintf(b, size, "%.3g", v);
}

/* --- settings ------------------------------------------------------------ */

/* Append a copy of s to *v, NULL-terminated, of *n strings. 0 or -ENOMEM. */
static int strv_push(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, sizeof(char *) * (*n + 2));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -ENOMEM;
	nv[++*n] = NULL;
	return 0;
}

/* Split "8,16,768" (or "0-1|all" for cpumask, whose lists hold commas) into values. */
/* The values of one --set, in v; their number, or max + 1 when there are more (nothing is dropped). */
static size_t split_values(char *list, int attr, char **v, size_t max)
{
	const char *sep = attr == WQ_A_CPUMASK || strchr(list, '|') ? "|" : ",";
	size_t n = 0;
	char *save = NULL;

	for (char *t = strtok_r(list, sep, &save); t; t = strtok_r(NULL, sep, &save)) {
		if (n == max)
			return max + 1;
		v[n++] = t;
	}
	return n;
}

/*
 * --set 'MOUNTPOINT thread_pool=V1,V2,...': btrfs's own knob for its
 * workqueues, which are not in sysfs, as one axis (live system only: a
 * mount is reconfigured, nothing in a tree can be).
 */
static int axis_from_mount(struct xp *x, const char *spec, char *dir, const char *opt, char *list)
{
	struct wq_exp *e = &x->e;
	struct cli *cli = x->cli;
	_cleanup_free_ char *cur = NULL;
	char *vals[WQ_EXP_MAX_CELLS], path[4200], obj[4200];
	struct wq_exp_axis *ax;
	size_t nv;
	int r;

	/* "/mnt/data/" is /mnt/data, as the kernel lists it */
	for (size_t l = strlen(dir); l > 1 && dir[l - 1] == '/'; l--)
		dir[l - 1] = '\0';
	if (strcmp(opt, "thread_pool")) {
		cli_err(cli, "experiment: --set '%s': a mount point takes thread_pool= (btrfs's), not %s=", spec, opt);
		return EXIT_USAGE;
	}
	r = wq_mountopt_path(dir, opt, path, sizeof(path));
	if (r < 0) {
		cli_err(cli, "experiment: --set '%s': %s: %s", spec, dir,
			r == -EINVAL ? "not a mount point as the kernel names it (absolute, no '.', '..', '//', "
				       "spaces or control characters)"
				     : wq_strerror(-r));
		return EXIT_USAGE;
	}
	nv = split_values(list, WQ_A_MAX_ACTIVE, vals, ARRAY_SIZE(vals));
	if (nv == 0 || nv > ARRAY_SIZE(vals)) {
		if (nv)
			cli_err(cli, "experiment: --set '%s': more than %d values (the grid holds at most %d settings)",
				spec, WQ_EXP_MAX_CELLS, WQ_EXP_MAX_CELLS);
		else
			cli_err(cli, "experiment: --set '%s': no values after thread_pool=", spec);
		return EXIT_USAGE;
	}
	r = wq_mountopt_read(cli->ctx, path, &cur);
	if (r < 0) {
		cli_err(cli, "experiment: --set '%s': %s: %s", spec, dir,
			r == -ENOENT	    ? "no btrfs is mounted there"
			: r == -EMEDIUMTYPE ? "not a btrfs (thread_pool= is btrfs's mount option)"
					    : wq_strerror(-r));
		return r == -ENOENT ? EXIT_NONE_EXIST : r == -EMEDIUMTYPE ? EXIT_USAGE : EXIT_FAIL;
	}
	ax = wq_exp_axis_new(e, nv);
	if (!ax)
		return EXIT_FAIL;
	snprintf(obj, sizeof(obj), "%s %s", dir, opt);
	for (size_t v = 0; v < nv; v++) {
		_cleanup_free_ char *newv = NULL;
		char why[200];

		if (wq_mountopt_check(cli->ctx, opt, vals[v], &newv, why, sizeof(why)) < 0) {
			cli_err(cli, "%s: invalid value '%s': %s", obj, vals[v], why);
			return EXIT_USAGE;
		}
		if (asprintf(&ax->c[v].label, "%s %s=%s", dir, opt, vals[v]) < 0) {
			ax->c[v].label = NULL;
			return EXIT_FAIL;
		}
		if (wq_exp_choice_add(e, &ax->c[v], obj, path, WQ_V_INT, cur, NULL, newv, vals[v]) < 0)
			return EXIT_FAIL;
	}
	if (cli->sysroot) {
		cli_err(cli,
			"experiment: --set '%s': thread_pool changes by reconfiguring the mount, which only the "
			"live system can",
			spec);
		return EXIT_USAGE;
	}
	/* btrfs's workqueues are what the axis varies: count their work unless --watch says what to */
	if (!e->nwatch && e->monitor && strv_push(&e->watch, &e->nwatch, "btrfs-*") < 0)
		return EXIT_FAIL;
	return EXIT_OK;
}

/* --set 'WQ ATTR=V1,V2,...': one axis, validated against every workqueue WQ names. */
static int axis_from_set(struct xp *x, const char *spec)
{
	struct wq_exp *e = &x->e;
	struct cli *cli = x->cli;
	_cleanup_free_ char *copy = strdup(spec);
	char *save = NULL, *wq, *assign, *eq, *extra, *vals[WQ_EXP_MAX_CELLS], **names = NULL;
	size_t nv, n = 0;
	int attr, rc = EXIT_OK, r;
	struct wq_exp_axis *ax;

	if (!copy)
		return EXIT_FAIL;
	wq = strtok_r(copy, " \t", &save);
	assign = strtok_r(NULL, " \t", &save);
	extra = strtok_r(NULL, " \t", &save);
	if (!wq || !assign || extra || !(eq = strchr(assign, '='))) {
		cli_err(cli, "experiment: --set '%s': expected 'WORKQUEUE ATTR=V1,V2,...'", spec);
		return EXIT_USAGE;
	}
	*eq = '\0';
	/* a mount point: btrfs's thread_pool */
	if (wq[0] == '/')
		return axis_from_mount(x, spec, wq, assign, eq + 1);
	attr = wq_attr_from_name(assign);
	if (attr < 0) {
		const char *near = cli_nearest_attr(assign);

		cli_err(cli, "experiment: --set '%s': %s: unknown attribute%s%s%s", spec, assign,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		return EXIT_USAGE;
	}
	nv = split_values(eq + 1, attr, vals, ARRAY_SIZE(vals));
	if (nv == 0) {
		cli_err(cli, "experiment: --set '%s': no values after %s=", spec, assign);
		return EXIT_USAGE;
	}
	if (nv > ARRAY_SIZE(vals)) {
		cli_err(cli, "experiment: --set '%s': more than %d values (the grid holds at most %d settings)", spec,
			WQ_EXP_MAX_CELLS, WQ_EXP_MAX_CELLS);
		return EXIT_USAGE;
	}
	if (!cli_is_glob(wq) && !wq_name_is_valid(wq)) {
		cli_err(cli, "experiment: --set '%s': %s: not a valid workqueue name", spec, wq);
		return EXIT_USAGE;
	}
	r = cli_resolve_targets(cli, &wq, 1, &names, &n, true);
	if (r != EXIT_OK) {
		wq_names_free(names, n);
		return r == EXIT_FAIL ? EXIT_FAIL : EXIT_NONE_EXIST;
	}
	ax = wq_exp_axis_new(e, nv);
	if (!ax) {
		wq_names_free(names, n);
		return EXIT_FAIL;
	}
	for (size_t v = 0; v < nv; v++) {
		if (asprintf(&ax->c[v].label, "%s %s=%s", wq, assign, vals[v]) < 0) {
			ax->c[v].label = NULL;
			rc = EXIT_FAIL;
			goto out;
		}
	}
	for (size_t t = 0; t < n; t++) {
		const struct wq_attr_desc *d = &wq_attr_descs[attr];
		struct wq_owner_info owner;
		struct wq_info wi;
		char obj[160], path[256];

		r = wq_info_read(cli->ctx, names[t], &wi);
		if (r < 0) {
			cli_err(cli, "%s: cannot read: %s", names[t], wq_strerror(-r));
			wq_info_clear(&wi);
			rc = EXIT_FAIL;
			goto out;
		}
		snprintf(obj, sizeof(obj), "%s/%s", wi.name, d->name);
		wq_owner_resolve(cli->ctx, names[t], &owner);
		wq_attr_path(path, sizeof(path), wi.name, d->name);
		for (size_t v = 0; v < nv && rc == EXIT_OK; v++) {
			struct wq_req_verdict vd;

			if (wq_request_attr(
				cli->ctx,
				&(struct wq_request){.wi = &wi,
						     .attr = (enum wq_attr)attr,
						     .value = vals[v],
						     .owner_node = owner.node,
						     .owner_why = owner.o.kind == WQ_OWNER_NONE ? NULL : owner.node_why,
						     .flags = e->force ? WQ_REQ_FORCE : 0},
				&vd) < 0) {
				rc = EXIT_FAIL;
				break;
			}
			/* a glob that reaches per-cpu workqueues: those lack the unbound attributes (as set) */
			if (vd.cond == WQ_COND_PERCPU && cli_is_glob(wq)) {
				if (v == 0)
					cli_warn(cli, "%s: skipped: %s", obj, vd.why);
				break;
			}
			if (vd.cond != WQ_COND_OK) {
				cli_say_refusal(cli, obj, vals[v], &vd);
				rc = vd.cond == WQ_COND_UNREADABLE ? EXIT_FAIL : EXIT_USAGE;
			} else if (wq_exp_choice_add(e, &ax->c[v], obj, path, d->type, wi.raw[attr], wi.name, vd.write,
						     vals[v]) < 0) {
				rc = EXIT_FAIL;
			}
			wq_req_verdict_clear(&vd);
		}
		wq_owner_info_clear(&owner);
		wq_info_clear(&wi);
		if (rc != EXIT_OK)
			goto out;
	}
out:
	wq_names_free(names, n);
	return rc;
}

/* --profile a,b,none: one axis of whole profiles ("none": only what was there before). */
static int axis_from_profiles(struct xp *x, const char *list)
{
	struct wq_exp *e = &x->e;
	struct cli *cli = x->cli;
	_cleanup_free_ char *copy = strdup(list);
	char *names[WQ_EXP_MAX_CELLS], *save = NULL;
	size_t n = 0;
	struct wq_exp_axis *ax;

	if (!copy)
		return EXIT_FAIL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (n == ARRAY_SIZE(names)) {
			cli_err(cli,
				"experiment: --profile: more than %d profiles (the grid holds at most %d settings)",
				WQ_EXP_MAX_CELLS, WQ_EXP_MAX_CELLS);
			return EXIT_USAGE;
		}
		names[n++] = t;
	}
	if (n == 0) {
		cli_err(cli, "experiment: --profile '%s': no profile names", list);
		return EXIT_USAGE;
	}
	ax = wq_exp_axis_new(e, n);
	if (!ax)
		return EXIT_FAIL;
	for (size_t i = 0; i < n; i++) {
		struct wq_settings st = {0};
		struct wq_pset set = {0};
		bool none = false;
		int rc;

		if (asprintf(&ax->c[i].label, "%s%s", strcmp(names[i], "none") ? "profile " : "", names[i]) < 0) {
			ax->c[i].label = NULL;
			return EXIT_FAIL;
		}
		if (!strcmp(names[i], "none"))
			continue;
		rc = cli_load_profiles(cli, &names[i], 1, &set, &none);
		if (rc)
			return rc;
		if (wq_settings_resolve(cli->ctx, &set, NULL, 0, true, &st) < 0) {
			cli_err(cli, "experiment: profile %s: cannot read the workqueues", names[i]);
			wq_pset_free(&set);
			return EXIT_FAIL;
		}
		if (cli_report_settings(cli, &st)) {
			cli_err(cli, "experiment: profile %s: invalid settings", names[i]);
			rc = EXIT_USAGE;
		}
		for (size_t s = 0; s < st.n && rc == EXIT_OK; s++) {
			const struct wq_setting *w = &st.v[s];

			if (w->cond != WQ_COND_OK)
				continue;
			if (wq_exp_choice_add(e, &ax->c[i], w->object, w->path, w->type, w->current, w->wq, w->write,
					      w->value) < 0)
				rc = EXIT_FAIL;
		}
		wq_settings_free(&st);
		wq_pset_free(&set);
		if (rc)
			return rc;
	}
	return EXIT_OK;
}

/* --- results ------------------------------------------------------------- */

enum {
	COL_SETTING,
	COL_RUNS,
	COL_BASELINE,
	COL_MEDIAN,
	COL_MIN,
	COL_MAX,
	COL_DIFF,
	COL_WALL,
	COL_QUEUED,
	COL_THROTTLED,
	COL_WAIT_P99,
	COL_NOTE,
};

static const struct colinfo cols[] = {
    [COL_SETTING] = {"SETTING", 0.3, 0, SCOLS_JSON_STRING, "the setting: workqueue attribute=value, or profile"},
    [COL_RUNS] = {"RUNS", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "measured runs"},
    [COL_BASELINE] = {"BASELINE", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "median of the saved baseline's runs (--compare)"},
    [COL_MEDIAN] = {"MEDIAN", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "median of the metric over the runs"},
    [COL_MIN] = {"MIN", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "lowest run"},
    [COL_MAX] = {"MAX", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "highest run"},
    [COL_DIFF] = {"DIFF", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_STRING,
		  "median against the first setting (--compare: against the baseline), in percent"},
    [COL_WALL] = {"WALL", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "median wall time of a run, seconds"},
    [COL_QUEUED] = {"QUEUED", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		    "work items the workqueues under test (and --watch) queued in a run (median)"},
    [COL_THROTTLED] = {"THROTTLED", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		       "of those, held back by max_active (median; only streaming counts it, so asking for "
		       "it streams)"},
    [COL_WAIT_P99] = {"WAIT_P99", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "queue-to-start time, 99th percentile, microseconds (median over runs; from the "
		      "kernel's hists, the top of its power-of-2 bucket)"},
    [COL_NOTE] = {"NOTE", 0.2, 0, SCOLS_JSON_STRING,
		  "baseline, or the verdict against it (a rank test): better, worse, no change or "
		  "inconclusive, with the change and its 95% interval (--compare: regressed, improved)"},
};

#define DEFAULT_COLS "SETTING,RUNS,MEDIAN,MIN,MAX,DIFF,WALL,QUEUED,WAIT_P99,NOTE"
#define COMPARE_COLS "SETTING,RUNS,BASELINE,MEDIAN,MIN,MAX,DIFF,NOTE"

static void set_num(struct out *o, struct libscols_line *ln, int id, double v)
{
	char b[32];

	if (!isfinite(v)) {
		out_set(o, ln, id, NULL);
		return;
	}
	fmt_num(b, sizeof(b), v);
	out_set(o, ln, id, b);
}

/* A median of counts: whole unless it falls between two. */
static void set_count(struct out *o, struct libscols_line *ln, int id, double v)
{
	if (!isfinite(v))
		out_set(o, ln, id, NULL);
	else if (v == floor(v))
		out_setf(o, ln, id, "%.0f", v);
	else
		out_setf(o, ln, id, "%.1f", v);
}

static int print_table(struct xp *x)
{
	const struct wq_exp *e = &x->e;
	struct out o;
	int rc = out_init(&o, x->cli, cols, ARRAY_SIZE(cols), e->loaded ? COMPARE_COLS : DEFAULT_COLS,
			  "WQCTL_EXPERIMENT_COLUMNS", "settings");

	if (rc)
		return rc;
	for (size_t i = 0; i < e->ncells; i++) {
		const struct wq_exp_cell *c = &e->cells[i];
		struct libscols_line *ln = out_line(&o);
		double ref = e->loaded ? (c->has_base ? c->base_st.median : NAN) : e->cells[0].st.median;
		double d = wq_stat_reldiff(ref, c->st.median);

		if (!ln) {
			out_free(&o);
			return EXIT_FAIL;
		}
		out_set(&o, ln, COL_SETTING, c->label);
		out_setf(&o, ln, COL_RUNS, "%zu", c->n);
		set_num(&o, ln, COL_BASELINE, c->has_base ? c->base_st.median : NAN);
		set_num(&o, ln, COL_MEDIAN, c->st.median);
		set_num(&o, ln, COL_MIN, c->st.min);
		set_num(&o, ln, COL_MAX, c->st.max);
		if ((!e->loaded && i == 0) || !isfinite(d))
			out_set(&o, ln, COL_DIFF, NULL);
		else
			out_setf(&o, ln, COL_DIFF, "%+.1f%%", d);
		set_num(&o, ln, COL_WALL, wq_exp_median(c->wall, c->n));
		set_count(&o, ln, COL_QUEUED, c->counted ? wq_exp_median(c->queued, c->n) : NAN);
		set_count(&o, ln, COL_THROTTLED, c->counted && !e->kernel ? wq_exp_median(c->throttled, c->n) : NAN);
		{
			double w = c->counted ? wq_exp_median(c->wait99, c->n) : NAN;

			set_num(&o, ln, COL_WAIT_P99, w >= 0 ? w : NAN);
		}
		out_set(&o, ln, COL_NOTE, wq_exp_note(c));
	}
	rc = out_print(&o);
	out_free(&o);
	return rc;
}

/* --- set-up -------------------------------------------------------------- */

static int number(struct cli *cli, const char *opt, const char *arg, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi) {
		cli_err(cli, "experiment: %s '%s': expected a number from %ld to %ld", opt, arg, lo, hi);
		return EXIT_USAGE;
	}
	*out = v;
	return EXIT_OK;
}

enum { OPT_BACKEND = 0x100 };

static int parse_args(struct xp *x, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 's'},
	    {"profile", required_argument, NULL, 'p'},
	    {"runs", required_argument, NULL, 'n'},
	    {"warmup", required_argument, NULL, 'w'},
	    {"seed", required_argument, NULL, 'S'},
	    {"metric", required_argument, NULL, 'm'},
	    {"better", required_argument, NULL, 'b'},
	    {"save", required_argument, NULL, 'a'},
	    {"compare", required_argument, NULL, 'c'},
	    {"threshold", required_argument, NULL, 't'},
	    {"plot", required_argument, NULL, 'P'},
	    {"force", no_argument, NULL, 'f'},
	    {"no-monitor", no_argument, NULL, 'M'},
	    {"watch", required_argument, NULL, 'W'},
	    {"backend", required_argument, NULL, OPT_BACKEND},
	    {"list", no_argument, NULL, 'L'},
	    {NULL, 0, NULL, 0},
	};
	struct wq_exp *e = &x->e;
	struct cli *cli = x->cli;
	const char *metric = NULL, *better = NULL;
	bool runs_given = false;
	char why[300];
	int c, rc;
	long v;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (e->nsets + 1 >= WQ_EXP_MAX_AXES) {
				cli_err(cli, "experiment: more than %d --set axes", WQ_EXP_MAX_AXES - 1);
				return EXIT_USAGE;
			}
			if (strv_push(&e->sets, &e->nsets, optarg) < 0)
				return EXIT_FAIL;
			break;
		case 'p':
			if (e->profiles) {
				cli_err(cli, "experiment: --profile given twice (one list: --profile a,b,none)");
				return EXIT_USAGE;
			}
			e->profiles = strdup(optarg);
			break;
		case 'n':
			if ((rc = number(cli, "--runs", optarg, 1, WQ_EXP_MAX_RUNS, &e->runs)))
				return rc;
			runs_given = true;
			break;
		case 'w':
			if ((rc = number(cli, "--warmup", optarg, 0, WQ_EXP_MAX_WARMUP, &e->warmup)))
				return rc;
			break;
		case 'S': {
			char *end;

			errno = 0;
			e->seed = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-') {
				cli_err(cli, "experiment: --seed '%s': expected an unsigned number", optarg);
				return EXIT_USAGE;
			}
			x->seed_given = true;
			break;
		}
		case 'm': metric = optarg; break;
		case 'b': better = optarg; break;
		case 'a': e->save = optarg; break;
		case 'c': e->compare = optarg; break;
		case 't':
			if ((rc = number(cli, "--threshold", optarg, 0, 1000, &v)))
				return rc;
			e->threshold = (double)v;
			break;
		case 'P': x->plot = optarg; break;
		case 'L': x->list = true; break;
		case 'f': e->force = true; break;
		case 'M': e->monitor = false; break;
		case OPT_BACKEND:
			if (!streq(optarg, "auto") && !streq(optarg, "kernel") && !streq(optarg, "stream")) {
				cli_err(cli, "experiment: --backend '%s': expected auto, kernel or stream", optarg);
				return EXIT_USAGE;
			}
			x->backend = streq(optarg, "auto") ? NULL : optarg;
			break;
		case 'W':
			if (e->nwatch >= WQ_EXP_MAX_WATCH) {
				cli_err(cli, "experiment: more than %d --watch patterns", WQ_EXP_MAX_WATCH);
				return EXIT_USAGE;
			}
			if (!optarg[0] || strlen(optarg) >= WQ_NAME_MAX) {
				cli_err(cli, "experiment: --watch '%s': a workqueue name or glob of 1 to %d characters",
					optarg, WQ_NAME_MAX - 1);
				return EXIT_USAGE;
			}
			if (strv_push(&e->watch, &e->nwatch, optarg) < 0)
				return EXIT_FAIL;
			break;
		default:
			cli_err(cli, "experiment: %s: unknown option or missing argument", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	for (int i = optind; i < argc; i++)
		if (strv_push(&e->cmd, &e->ncmd, argv[i]) < 0)
			return EXIT_FAIL;
	if (cli->list_columns)
		return EXIT_OK;
	if (x->list) {
		if (argc != 2) {
			cli_err(cli, "experiment: --list takes nothing else");
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	if (e->save && e->compare) {
		cli_err(cli, "experiment: --save and --compare exclude each other");
		return EXIT_USAGE;
	}
	if (e->compare) {
		if (e->nsets || e->profiles || e->ncmd || metric || better || runs_given || e->warmup || e->nwatch) {
			cli_err(cli, "experiment: --compare re-runs the saved experiment as it was: give no --set, "
				     "--profile, --runs, --warmup, --metric, --better, --watch or command");
			return EXIT_USAGE;
		}
		if (!wq_saved_name_ok(e->compare)) {
			cli_err(cli, "experiment: --compare '%s': a name is letters, digits, '.', '_' and '-'",
				e->compare);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	if (x->backend && !e->monitor) {
		cli_err(cli,
			"experiment: --backend chooses how the workqueues are counted, which --no-monitor turns off");
		return EXIT_USAGE;
	}
	if (e->nwatch && !e->monitor) {
		cli_err(cli, "experiment: --watch counts work through the tracepoints, which --no-monitor turns off");
		return EXIT_USAGE;
	}
	if (e->save && !wq_saved_name_ok(e->save)) {
		cli_err(cli, "experiment: --save '%s': a name is letters, digits, '.', '_' and '-'", e->save);
		return EXIT_USAGE;
	}
	/* no setting: the system as found, one setting (a baseline to --compare against later) */
	if (!e->nsets && !e->profiles && !(e->profiles = strdup("none")))
		return EXIT_FAIL;
	if (!e->ncmd) {
		cli_err(cli, "experiment: no workload: put the command after --");
		return EXIT_USAGE;
	}
	if (better && metric_set_better(&e->metric, better) < 0) {
		cli_err(cli, "experiment: --better '%s': expected higher or lower", better);
		return EXIT_USAGE;
	}
	if (metric_parse(&e->metric, metric, why, sizeof(why)) < 0) {
		cli_err(cli, "experiment: --metric '%s': %s", metric, why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The progress line after each measured run: on a terminal, or with -v. */
static void progress(void *data, const struct wq_exp_cell *c, size_t order, double value, double wall)
{
	const struct xp *x = data;
	char v[32];

	if (!x->cli->verbose && !isatty(STDERR_FILENO))
		return;
	fmt_num(v, sizeof(v), value);
	fprintf(stderr, "wqctl: experiment: run %zu: %s: %s %s, %.2f s\n", order + 1, c->label, v,
		x->e.metric.unit ? x->e.metric.unit : "", wall);
}

/*
 * How the workqueues are counted. auto: the kernel's hists where they keep
 * wait and run times too, unless THROTTLED is shown (only the stream tells
 * a held-back activation from an immediate one). An EXIT_* code.
 */
static int choose_backend(struct xp *x, bool throttled)
{
	struct wq_exp *e = &x->e;

	if (!e->monitor || !wq_root_is_live(e->ctx->root))
		return EXIT_OK;
	if (!x->backend) {
		/* monitor's auto with wait times (WAIT_P99 and -J have them) */
		e->kernel = wq_sampler_auto(e->ctx, true, throttled) == WQ_SAMPLER_KERNEL_TIMES;
		return EXIT_OK;
	}
	if (streq(x->backend, "stream"))
		return EXIT_OK;
	if (!wq_khist_available(e->ctx)) {
		cli_err(x->cli, "experiment: --backend kernel: this kernel has no hist triggers "
				"(events/workqueue/workqueue_queue_work/hist); --backend stream counts without them");
		return EXIT_FAIL;
	}
	if (throttled)
		wq_log(e->ctx, WQ_LOG_WARNING,
		       "experiment: --backend kernel does not count THROTTLED; its column stays empty");
	e->kernel = true;
	return EXIT_OK;
}

/* Build the grid from the options (or the baseline's spec). An EXIT_* code. */
static int build(struct xp *x)
{
	struct wq_exp *e = &x->e;
	int rc = EXIT_OK, r;

	if (e->compare && (r = wq_exp_load(e)) < 0)
		return r == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
	/* a baseline is not replaced by accident: checked before the first run, not after the last */
	if (e->save && wq_saved_exists(e->ctx, e->save) && !e->force) {
		cli_err(x->cli,
			"experiment: --save %s: a saved experiment of that name exists; add --force to replace it",
			e->save);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < e->nsets && rc == EXIT_OK; i++)
		rc = axis_from_set(x, e->sets[i]);
	if (rc == EXIT_OK && e->profiles)
		rc = axis_from_profiles(x, e->profiles);
	if (rc == EXIT_OK && (r = wq_exp_build_cells(e)) < 0)
		rc = r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	if (rc == EXIT_OK && e->compare)
		wq_exp_attach_baseline(e);
	return rc;
}

/* What the runs say beside the verdicts: outliers, trends over the rounds, a shift of every setting. */
static void say_findings(struct cli *cli, const struct wq_exp *e)
{
	for (size_t i = 0; i < e->ncells; i++) {
		const struct wq_exp_cell *c = &e->cells[i];

		for (size_t k = 0; c->outlier && k < c->n; k++)
			if (c->outlier[k])
				cli_warn(cli,
					 "experiment: %s: run %zu (%g) lies far from the others (median %g): "
					 "something else may have run then",
					 c->label, k + 1, c->val[k], c->st.median);
		if (c->trend_p < WQ_EXP_TREND_P)
			cli_warn(cli,
				 "experiment: %s: the runs go %s over the rounds (Kendall's tau %.2f, p=%.2g): "
				 "the machine drifted (a filling disk, a warming cache); warm-up rounds may help",
				 c->label, c->trend_tau > 0 ? "up" : "down", c->trend_tau, c->trend_p);
	}
	if (e->common)
		cli_warn(cli,
			 "experiment: every setting moved together, %+.1f%% to %+.1f%% against the saved runs: %s, "
			 "not one setting%s",
			 e->common_lo, e->common_hi,
			 e->kernel_changed ? "the kernel changed (or the machine)" : "the machine changed",
			 e->kernel_changed ? " (a regression of this kernel: exit 3 when worse)"
					   : "; nothing is claimed about the settings (same kernel: exit 0)");
}

static int run(struct cli *cli, int argc, char **argv)
{
	struct xp x = {.cli = cli};
	struct wq_exp *e = &x.e;
	struct wq_cancel cancel = {0};
	int rc, rrc;
	json_object *doc = NULL;
	char desc[300];
	bool was_auto, throttled = false;

	wq_exp_init(e, NULL);
	e->progress = progress;
	e->progress_data = &x;
	rc = parse_args(&x, argc, argv);
	if (rc)
		goto out;
	if (x.list) {
		rc = list_saved(cli);
		goto out;
	}
	if (cli->list_columns) {
		rc = out_list_columns(cli, cols, ARRAY_SIZE(cols));
		goto out;
	}
	if (!cli->json) {
		/* the columns are checked before anything is written */
		struct out o;

		rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), e->compare ? COMPARE_COLS : DEFAULT_COLS,
			      "WQCTL_EXPERIMENT_COLUMNS", "settings");
		if (rc)
			goto out;
		throttled = out_has(&o, COL_THROTTLED);
		out_free(&o);
	}
	if (x.plot && (rc = exp_plot_check(cli, x.plot)))
		goto out;
	if (!(e->ctx = cli_ctx(cli))) {
		rc = EXIT_FAIL;
		goto out;
	}
	if ((rc = choose_backend(&x, throttled)))
		goto out;
	if ((rc = build(&x)))
		goto out;
	if (!x.seed_given)
		e->seed = wq_exp_new_seed();
	if (wq_exp_start(e) < 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	metric_describe(&e->metric, desc, sizeof(desc));
	was_auto = e->metric.kind == METRIC_AUTO;
	if (!cli->quiet) {
		char warm[48] = "";

		if (e->warmup)
			snprintf(warm, sizeof(warm), " after %ld warm-up round%s", e->warmup,
				 e->warmup == 1 ? "" : "s");
		fprintf(stderr,
			"wqctl: experiment: %zu setting%s x %ld run%s%s, shuffled with --seed %llu; metric: %s\n",
			e->ncells, e->ncells == 1 ? "" : "s", e->runs, e->runs == 1 ? "" : "s", warm,
			(unsigned long long)e->seed, desc);
	}
	/* handlers before the first write: a signal must still restore */
	e->cancel = &cancel;
	wq_cancel_arm(&cancel);
	rc = wq_exp_run(e) < 0 ? EXIT_FAIL : EXIT_OK;
	rrc = wq_exp_finish(e) < 0 ? EXIT_FAIL : EXIT_OK;
	wq_cancel_disarm(&cancel);
	if (wq_cancelled(&cancel)) {
		int sig = cancel.sig;

		cli_err(cli, "experiment: interrupted by %s; %s", strsignal(sig),
			rrc == EXIT_OK ? "every value is restored" : "see above");
		wq_exp_free(e);
		signal(sig, SIG_DFL);
		raise(sig);
		return EXIT_FAIL;
	}
	if (rc == EXIT_OK && (wq_exp_compute(e) < 0 || wq_exp_judge(e) < 0))
		rc = EXIT_FAIL;
	if (rc == EXIT_OK && !cli->quiet)
		say_findings(cli, e);
	if (rc == EXIT_OK) {
		double q = wq_exp_most_queued(e);

		/* fewer than 10 items a run: the workload hardly goes through what is varied */
		if (q >= 0 && q < 10)
			cli_warn(
			    cli,
			    "experiment: the workqueues under test queued at most %.0f work item%s a run (median): "
			    "the workload barely uses them, so a difference between the settings is unlikely to "
			    "come from them (--watch counts the workqueues it does use)",
			    q, q == 1 ? "" : "s");
	}
	if (rc == EXIT_OK && !cli->quiet && was_auto) {
		metric_describe(&e->metric, desc, sizeof(desc));
		fprintf(stderr, "wqctl: experiment: metric: %s\n", desc);
	}
	if (rc == EXIT_OK)
		rc = cli->json ? json_print(wq_exp_document(e, rrc == EXIT_OK)) : print_table(&x);
	if (rc == EXIT_OK && e->save) {
		doc = wq_exp_document(e, rrc == EXIT_OK);
		if (wq_exp_save(e, doc) < 0)
			rc = EXIT_FAIL;
		json_object_put(doc);
	}
	if (rc == EXIT_OK && wq_exp_regressed(e))
		rc = EXIT_FINDINGS;
	/* after the results are printed and saved, so that a plot gnuplot cannot draw loses none of them */
	if ((rc == EXIT_OK || rc == EXIT_FINDINGS) && x.plot && exp_plot(cli, e, x.plot) != EXIT_OK)
		rc = EXIT_FAIL;
	if (rc == EXIT_OK || rc == EXIT_FINDINGS)
		rc = rrc ? rrc : rc;
out:
	wq_exp_free(e);
	return rc;
}

const struct cmd cmd_experiment = {
    .name = "experiment",
    .run = run,
    .summary = "run a workload under several settings and compare a metric of it",
    .usage = "[--set 'WQ ATTR=V1,V2'...] [--profile A,B,none] [--runs N] [--warmup N] [--seed N]\n"
	     "       [--metric SPEC] [--better higher|lower] [--save NAME | --compare NAME] [--threshold PCT]\n"
	     "       [--plot FILE.svg] [--force] [--no-monitor] [--watch PATTERN...] [--backend auto|kernel|stream]\n"
	     "       -- COMMAND [ARG...]\n"
	     "       --list",
    .options = "  --set 'WQ ATTR=V1,V2'  one axis: these values of one attribute (cpumask values split by '|');\n"
	       "                         several --set multiply into a grid. 'MOUNTPOINT thread_pool=V1,V2':\n"
	       "                         a btrfs's thread_pool, the max_active of its workqueues (live only;\n"
	       "                         watches btrfs-* unless --watch is given)\n"
	       "  --profile A,B,none     one axis of whole profiles; 'none' is the system as found (the\n"
	       "                         default without --set: one setting, a baseline for --compare)\n"
	       "  --runs N               measured runs per setting (default 5), interleaved in shuffled rounds\n"
	       "  --warmup N             unmeasured rounds first (default 0)\n"
	       "  --seed N               the shuffle's seed (default: a new one, printed)\n"
	       "  --metric SPEC          wall | fio:[read.|write.]bw|iops|clat_pN | re:REGEX | json:PATH\n"
	       "                         (default: fio:bw when the output is fio JSON, else wall)\n"
	       "  --better higher|lower  which way is better for re: and json: metrics (default higher)\n"
	       "  --save NAME            keep the result in /var/lib/wqctl/experiments/NAME.json (--force replaces)\n"
	       "  --compare NAME         run a saved experiment again; exit 3 when a setting regressed\n"
	       "  --list                 the saved experiments (NAME SETTINGS RUNS METRIC COMMAND)\n"
	       "  --threshold PCT        the smallest change that matters, in percent (default 5)\n"
	       "  --plot FILE.svg        draw a box plot per setting with gnuplot\n"
	       "  --force                allow max_active values that lower min_active (kernel >= 6.9); replace a\n"
	       "                         saved experiment of the --save name\n"
	       "  --no-monitor           do not trace the workqueues under test\n"
	       "  --watch PATTERN        also count the work of the workqueues PATTERN names (a glob, as the\n"
	       "                         tracepoints name them: btrfs-endio-write, kcryptd/253:0); repeatable\n"
	       "  --backend WHICH        kernel: counts and wait times kept by the kernel's hist triggers (6.10+\n"
	       "                         with synthetic events for the times), no THROTTLED; stream: every\n"
	       "                         event read here; auto (default): kernel where it keeps the times and\n"
	       "                         THROTTLED is not asked for\n",
    .json = true, /* fio's and saved experiments' JSON, and the document it keeps */
};
