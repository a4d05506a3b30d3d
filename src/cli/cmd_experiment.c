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
#include "../lib/core/wq.h"
#include "cli.h"
#include "exp_grid.h"
#include "exp_plot.h"
#include "exp_saved.h"
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

/* --seed N */
static int seed(struct xp *x, const char *arg)
{
	char *end;

	errno = 0;
	x->e.seed = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-') {
		cli_err(x->cli, "experiment: --seed '%s': expected an unsigned number", arg);
		return EXIT_USAGE;
	}
	x->seed_given = true;
	return EXIT_OK;
}

/* --watch PATTERN */
static int watch(struct xp *x, const char *arg)
{
	struct wq_exp *e = &x->e;

	if (e->nwatch >= WQ_EXP_MAX_WATCH) {
		cli_err(x->cli, "experiment: more than %d --watch patterns", WQ_EXP_MAX_WATCH);
		return EXIT_USAGE;
	}
	if (!arg[0] || strlen(arg) >= WQ_NAME_MAX) {
		cli_err(x->cli, "experiment: --watch '%s': a workqueue name or glob of 1 to %d characters", arg,
			WQ_NAME_MAX - 1);
		return EXIT_USAGE;
	}
	return exp_strv_push(&e->watch, &e->nwatch, arg) < 0 ? EXIT_FAIL : EXIT_OK;
}

/* The options together: what excludes what, --compare's and --save's names, the workload, the metric. */
static int check_args(struct xp *x, int argc, const char *metric, const char *better, bool runs_given)
{
	struct wq_exp *e = &x->e;
	struct cli *cli = x->cli;
	char why[300];

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
	int c, rc;
	long v;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (e->nsets + 1 >= WQ_EXP_MAX_AXES) {
				cli_err(cli, "experiment: more than %d --set axes", WQ_EXP_MAX_AXES - 1);
				return EXIT_USAGE;
			}
			if (exp_strv_push(&e->sets, &e->nsets, optarg) < 0)
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
		case 'S':
			if ((rc = seed(x, optarg)))
				return rc;
			break;
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
			if (!streq(optarg, "auto") && !streq(optarg, "bpf") && !streq(optarg, "kernel") &&
			    !streq(optarg, "stream")) {
				cli_err(cli, "experiment: --backend '%s': expected auto, bpf, kernel or stream",
					optarg);
				return EXIT_USAGE;
			}
			x->backend = streq(optarg, "auto") ? NULL : optarg;
			break;
		case 'W':
			if ((rc = watch(x, optarg)))
				return rc;
			break;
		default:
			cli_err(cli, "experiment: %s: unknown option or missing argument", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	for (int i = optind; i < argc; i++)
		if (exp_strv_push(&e->cmd, &e->ncmd, argv[i]) < 0)
			return EXIT_FAIL;
	return check_args(x, argc, metric, better, runs_given);
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
 * How the workqueues are counted. auto: our BPF programs (every figure),
 * and where they cannot be loaded the kernel's hists where they keep wait
 * and run times too, unless THROTTLED is shown (then the stream, which
 * tells a held-back activation from an immediate one). An EXIT_* code.
 */
static int choose_backend(struct xp *x, bool throttled)
{
	struct wq_exp *e = &x->e;

	if (!e->monitor || !wq_root_is_live(e->ctx->root))
		return EXIT_OK;
	if (!x->backend) {
		/* monitor's auto with wait times (WAIT_P99 and -J have them): BPF, then as tracefs can */
		e->bpf = true;
		e->kernel = !throttled && wq_khist_times_available(e->ctx);
		return EXIT_OK;
	}
	if (streq(x->backend, "stream"))
		return EXIT_OK;
	if (streq(x->backend, "bpf")) {
		e->bpf = e->bpf_only = true;
		return EXIT_OK;
	}
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
		rc = exp_axis_from_set(x->cli, e, e->sets[i]);
	if (rc == EXIT_OK && e->profiles)
		rc = exp_axis_from_profiles(x->cli, e, e->profiles);
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

/* After the runs: the statistics, what they found, the table or document, --save, --plot; the exit status. */
static int results(struct xp *x, int rc, int rrc, bool was_auto)
{
	struct cli *cli = x->cli;
	struct wq_exp *e = &x->e;
	json_object *doc = NULL;
	char desc[300];

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
		rc = cli->json ? json_print(wq_exp_document(e, rrc == EXIT_OK)) : print_table(x);
	if (rc == EXIT_OK && e->save) {
		doc = wq_exp_document(e, rrc == EXIT_OK);
		if (wq_exp_save(e, doc) < 0)
			rc = EXIT_FAIL;
		json_object_put(doc);
	}
	if (rc == EXIT_OK && wq_exp_regressed(e))
		rc = EXIT_FINDINGS;
	/* after the results are printed and saved, so that a plot gnuplot cannot draw loses none of them */
	if ((rc == EXIT_OK || rc == EXIT_FINDINGS) && x->plot && exp_plot(cli, e, x->plot) != EXIT_OK)
		rc = EXIT_FAIL;
	if (rc == EXIT_OK || rc == EXIT_FINDINGS)
		rc = rrc ? rrc : rc;
	return rc;
}

static int run(struct cli *cli, int argc, char **argv)
{
	struct xp x = {.cli = cli};
	struct wq_exp *e = &x.e;
	struct wq_cancel cancel = {0};
	int rc, rrc;
	char desc[300];
	bool was_auto, throttled = false;

	wq_exp_init(e, NULL);
	e->progress = progress;
	e->progress_data = &x;
	rc = parse_args(&x, argc, argv);
	if (rc)
		goto out;
	if (x.list) {
		rc = exp_list_saved(cli);
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
	rc = results(&x, rc, rrc, was_auto);
out:
	wq_exp_free(e);
	return rc;
}

const struct cmd cmd_experiment = {
    .name = "experiment",
    .run = run,
    .summary = "run a workload under several settings and compare a metric of it",
    .usage =
	"[--set 'WQ ATTR=V1,V2'...] [--profile A,B,none] [--runs N] [--warmup N] [--seed N]\n"
	"       [--metric SPEC] [--better higher|lower] [--save NAME | --compare NAME] [--threshold PCT]\n"
	"       [--plot FILE.svg] [--force] [--no-monitor] [--watch PATTERN...] [--backend auto|bpf|kernel|stream]\n"
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
	       "  --backend WHICH        bpf: counts, THROTTLED and wait times kept by BPF programs of ours\n"
	       "                         (root, the kernel's BTF); kernel: counts and wait times kept by the\n"
	       "                         kernel's hist triggers (6.10+ with synthetic events for the times), no\n"
	       "                         THROTTLED; stream: every event read here; auto (default): bpf, else\n"
	       "                         kernel where it keeps the times and THROTTLED is not asked for, else\n"
	       "                         stream\n",
    .json = true, /* fio's and saved experiments' JSON, and the document it keeps */
};
