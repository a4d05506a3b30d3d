/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What max_active means on this kernel and topology (doc/kernel.md §4): the
 * concurrency counters work can reach and the most work items in flight.
 */
#ifndef WQ_EXPLAIN_H
#define WQ_EXPLAIN_H

#include <stdbool.h>

#include "cpuset.h"
#include "ctx.h"
#include "wq.h"

#define WQ_EXPLAIN_NOTES 12

struct wq_counter {
	int node; /* -1: the node-less dfl counter (or dfl_pwq) */
	struct wq_cpuset *cpus; /* CPUs whose work charges it */
	long limit;
};

struct wq_explain {
	enum wq_era era; /* WQ_ERA_UNKNOWN: figures unknown, see why */
	const char *why;
	bool unbound;
	bool ordered; /* implicitly ordered (<= 6.8, unbound, max_active 1) */
	int max_active;
	int min_active; /* era C only, derived; -1 otherwise */
	bool min_lowered; /* min_active comes from a max_active wqctl wrote (run/wqctl/min_active) */
	long max_inflight; /* -1 unknown */
	char scope[32]; /* effective affinity scope, "" before 6.6 */
	struct wq_cpuset *effective; /* E = requested & root mask, or the root mask */
	int ncounters, counters_cap;
	struct wq_counter *counters;
	bool brief; /* figures only: no notes, counters without CPU sets (models for show and check) */
	int nnotes;
	char *notes[WQ_EXPLAIN_NOTES]; /* malloc'ed, each as long as it needs */
};

/* What-if overrides; zero/NULL fields keep the live value. */
struct wq_whatif {
	int max_active;
	const struct wq_cpuset *cpus;
	const char *scope;
	int min_active; /* >0: assume this min_active */
	const struct wq_cpuset *from; /* work queued only from these CPUs (NULL: any CPU) */
};

/*
 * Compute the model for a workqueue. 0, or -errno when the topology cannot
 * be read; unknown kernels and an unreadable max_active give no figure, with
 * why set. The caller calls wq_explain_clear() whatever this returns.
 */
int wq_explain(struct wq_ctx *ctx, const struct wq_info *wq, const struct wq_whatif *wi, struct wq_explain *ex);
void wq_explain_clear(struct wq_explain *ex);
/*
 * wq_explain()'s figures alone (no notes; counters and effective are NULL):
 * what a check of thousands needs. Its models are computed without notes
 * and counter CPU sets, and kept apart from wq_explain()'s.
 */
int wq_explain_figures(struct wq_ctx *ctx, const struct wq_info *wq, const struct wq_whatif *wi, struct wq_explain *ex);
/* wq_explain()'s max_inflight alone, without a copy of the model: -1 when unknown or on error. */
long wq_explain_max_inflight(struct wq_ctx *ctx, const struct wq_info *wq);
/* Add a note (the caller's own, after wq_explain()). */
void wq_explain_note(struct wq_explain *ex, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* E for a requested mask: W & G, or G when that is empty. 0 or -errno. */
int wq_effective_cpus(struct wq_ctx *ctx, const struct wq_cpuset *requested, struct wq_cpuset *out);
/* The root unbound mask G (possible CPUs if the file is absent). 0 or -errno. */
int wq_root_cpumask(struct wq_ctx *ctx, struct wq_cpuset *out);
/* The same, the context's own copy (valid until wq_ctx_forget()). */
int wq_root_cpumask_get(struct wq_ctx *ctx, const struct wq_cpuset **out);

#endif
