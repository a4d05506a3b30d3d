/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * experiment's engine: a grid of settings, each written through the commit
 * and journal apply uses, a workload run under each in shuffled rounds,
 * and the statistics and baseline verdicts of a metric of its output.
 * Errors are logged through the context; the command line parses and prints.
 */
#ifndef WQ_EXPERIMENT_H
#define WQ_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../core/ctx.h"
#include "../util/cancel.h"
#include "expfile.h"
#include "kbpf.h"
#include "kcount.h"
#include "khist.h"
#include "metric.h"
#include "stats.h"
#include "trace.h"
#include "../core/wq.h"

struct json_object;

/* A file the grid writes: its original, and how to write the original back. */
struct wq_exp_key {
	char *object, *path;
	enum wq_vtype type;
	char *orig; /* as read before the first run */
	char *restore; /* the text that writes orig back */
	bool global;
	bool journaled; /* the journal held this file before the experiment */
	char *last; /* what the experiment left there (read back after its write); orig before the first */
	bool foreign; /* changed by someone else while the experiment ran: left as it is */
	int hold; /* wq_hold_take()'s descriptor while the experiment runs, else -1 */
	char tp[WQ_NAME_MAX]; /* workqueue name as the tracepoints carry it; "" for a knob */
};

/* One value a choice writes to a key. */
struct wq_exp_write {
	size_t key;
	char *value; /* kernel form */
	char *shown; /* as given */
};

/* One value of an axis (one attribute value, or one whole profile): the writes it makes. */
struct wq_exp_choice {
	char *label;
	struct wq_exp_write *w;
	size_t nw;
};

struct wq_exp_axis {
	struct wq_exp_choice *c;
	size_t nc;
};

/* One setting of the grid (a choice per axis), and what its runs measured. */
struct wq_exp_cell {
	char *label;
	const struct wq_exp_write **w;
	size_t nw;
	size_t n; /* measured runs */
	double *val, *wall, *queued, *throttled, *wait99;
	bool counted; /* monitor counters for every run */
	struct json_object *runs;
	struct wq_stat st, base_st;
	bool has_base;
	const double *base_val; /* --compare: the saved runs of this setting (in the baseline) */
	size_t base_n;
	/* wq_exp_judge(): against the first setting, or --compare: against its saved runs */
	bool judged;
	enum wq_verdict verdict;
	struct wq_diff ch;
	bool *outlier; /* per run: far from the others */
	double trend_tau, trend_p; /* over the runs in the order they ran */
	char note[224];
};

struct wq_exp {
	struct wq_ctx *ctx;
	/*
	 * A signal in it stops wq_exp_run() at its next step (the running
	 * workload gets the signal too: it is the cancel's child); the caller
	 * restores with wq_exp_finish(). NULL: nobody can stop it.
	 */
	struct wq_cancel *cancel;
	struct wq_exp_key *k;
	size_t nk;
	struct wq_exp_axis *ax;
	size_t nax;
	struct wq_exp_cell *cells;
	size_t ncells;
	char **sets; /* the --set specs as given (NULL-terminated) */
	size_t nsets;
	char *profiles; /* the --profile list as given */
	char **watch; /* --watch patterns (NULL-terminated): more workqueues to count, as the tracepoints name them */
	size_t nwatch;
	long runs, warmup;
	uint64_t seed;
	bool force, monitor;
	/*
	 * Count with the kernel's hists, wait and run times included (lib/khist),
	 * not by streaming every event; no THROTTLED then. The caller decides
	 * (wq_khist_times_available()).
	 */
	bool kernel;
	/*
	 * Count and time with our BPF programs (obs/kbpf) first, THROTTLED
	 * included, and where they cannot be loaded as kernel says (said with
	 * -v); bpf_only: or not at all (--backend bpf).
	 */
	bool bpf, bpf_only;
	struct metric metric;
	double threshold; /* the smallest change that matters, percent of the baseline's median */
	/*
	 * wq_exp_judge(), --compare: every setting moved the same way, their
	 * intervals meeting each other's (-1 worse, 1 better, 0 not so), from
	 * common_lo to common_hi percent; and whether the kernel differs from
	 * the saved one's.
	 */
	int common;
	double common_lo, common_hi;
	bool kernel_changed;
	char **cmd; /* the workload (NULL-terminated) */
	size_t ncmd;
	const char *save, *compare; /* names under var/lib/wqctl/experiments */
	struct wq_saved_exp base; /* --compare: the saved experiment */
	bool loaded; /* base holds one */
	char *cwd; /* where the workload runs (--compare: where it ran when saved); NULL: here */
	/* called after each measured run (a progress line) */
	void (*progress)(void *data, const struct wq_exp_cell *c, size_t order, double value, double wall);
	void *progress_data;
	/* the engine's own */
	struct wq_trace *trace;
	struct wq_khist *khist; /* kernel: the hists, read before and after each run */
	struct wq_kbpf *kbpf; /* bpf: our programs, their maps read before and after each run */
	struct wq_kbpf_row *kbase; /* the read before this run */
	size_t nkbase;
	struct wq_kbpf_lost kbase_lost;
	/* with bpf: the counts from the kernel's own counters where it has them, read before and after each run */
	struct wq_kcount *kc;
	struct wq_kcount_row *kcbase;
	size_t nkcbase;
	/*
	 * where the counts came from ("counters", "bpf", "kernel" or "stream")
	 * and the times ("bpf", "kernel", "stream"), once opened (kept after
	 * wq_exp_finish), else NULL
	 */
	const char *counters, *times;
	pid_t orphan; /* the workload a signal interrupted, ended after the restore */
	bool warned_lingering;
};

/* A seed for the shuffle when none is given: below 10^9, printable, new each run. */
uint64_t wq_exp_new_seed(void);
/* Defaults: 5 runs, counters traced, threshold 5 %. */
void wq_exp_init(struct wq_exp *e, struct wq_ctx *ctx);
void wq_exp_free(struct wq_exp *e);

/* A new axis of nc choices (labels and writes filled by the caller), or NULL. */
struct wq_exp_axis *wq_exp_axis_new(struct wq_exp *e, size_t nc);
/* Add to a choice the write of value (shown: as the user gave it) to path, whose value now is current. 0 or -ENOMEM. */
int wq_exp_choice_add(struct wq_exp *e, struct wq_exp_choice *c, const char *object, const char *path,
		      enum wq_vtype type, const char *current, const char *wq, const char *value, const char *shown);
/*
 * Every combination of one choice per axis. -EINVAL (logged) for more than
 * WQ_EXP_MAX_CELLS, a file two axes set, or a setting given twice; -ENOMEM.
 */
int wq_exp_build_cells(struct wq_exp *e);

/*
 * Read and check a saved experiment as --compare does (root's alone, every
 * field checked): 0, -ENOENT (not logged), or -errno after the error was logged.
 */
int wq_exp_read_saved(struct wq_ctx *ctx, const char *name, struct wq_saved_exp *b);
/*
 * --compare: read var/lib/wqctl/experiments/COMPARE.json (root's alone, every
 * field checked) and take its spec; the directory it ran in must still be
 * there. -ENOENT when there is none; other -errno. Logged.
 */
int wq_exp_load(struct wq_exp *e);
/* Match each cell with the baseline's runs of the same setting. */
void wq_exp_attach_baseline(struct wq_exp *e);

/*
 * Before the first write: hold every file the grid writes (-EBUSY, logged,
 * when another experiment holds one: nothing written then), note which
 * files the journal already holds, open the tracing instance (live only).
 */
int wq_exp_start(struct wq_exp *e);
/*
 * Every round, every cell in shuffled order: write, run, measure. A file
 * someone else changed while the experiment ran (before a write, or under
 * a run: that run is dropped) stops it with -EBUSY, that file left as it
 * is. 0 or -errno (logged).
 */
int wq_exp_run(struct wq_exp *e);
/*
 * Write each original back where the value is still the one the
 * experiment wrote (a later change is someone else's: left alone, with a
 * warning, as revert does) and check it reads back as it was; drop the
 * journal entries of the files it restored that the journal did not hold
 * before; end a workload a signal left; close the trace; release the
 * holds. 0 or -EIO (logged: revert writes them).
 */
int wq_exp_finish(struct wq_exp *e);

/* Statistics per cell; -ENODATA (logged) for a cell without a measured run. */
int wq_exp_compute(struct wq_exp *e);
/*
 * The most work items the workqueues under test queued in a run (the
 * median over each setting's runs, the largest of the settings), or -1
 * when the runs were not all counted. A workload that barely uses them
 * measures something else than their setting.
 */
double wq_exp_most_queued(const struct wq_exp *e);
/* The median of n values, NAN for none. */
double wq_exp_median(const double *v, size_t n);
/*
 * After wq_exp_compute(): each setting judged against the first (or, with
 * --compare, against its saved runs) by wq_stat_judge(); outliers and
 * trends found; a shift of every setting together told apart; the notes
 * written. -ENOMEM.
 */
int wq_exp_judge(struct wq_exp *e);
/* A trend over the rounds is named below this p (rarer than a verdict's alpha: it is a warning). */
#define WQ_EXP_TREND_P 0.01
/*
 * --compare: does a setting count as regressed (exit 3)? A setting judged
 * worse, unless every setting moved together on the same kernel (the
 * machine changed, not a setting).
 */
bool wq_exp_regressed(const struct wq_exp *e);
/* A cell's note (wq_exp_judge()): baseline, or the verdict with the change and its interval. */
const char *wq_exp_note(const struct wq_exp_cell *c);
/* The whole experiment: what -J prints and --save keeps (the runs move into it). */
struct json_object *wq_exp_document(struct wq_exp *e, bool restored);
/* Keep doc as var/lib/wqctl/experiments/SAVE.json. 0 or -errno (logged). */
int wq_exp_save(struct wq_exp *e, struct json_object *doc);

#endif
