/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-workqueue activity from the workqueue tracepoints (doc/kernel.md §8).
 * Only queue_work carries the workqueue name; activate, execute_start and
 * execute_end are attributed by work pointer to the latest queue_work of
 * that pointer. A work item may be queued again while it runs, so each
 * pointer tracks a queued and a running instance separately.
 *
 * This part is pure bookkeeping (no tracefs): events in, interval rows out.
 */
#ifndef WQ_MONITOR_H
#define WQ_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum wq_mon_ev {
	WQ_EV_QUEUE,
	WQ_EV_ACTIVATE,
	WQ_EV_START,
	WQ_EV_END,
};

struct wq_mon;

/* One workqueue over one interval. Times in nanoseconds; -1 when there was no sample. */
struct wq_mon_row {
	const char *name; /* as in the tracepoint (not the sysfs form) */
	unsigned long queued, started, done; /* events in the interval */
	unsigned long throttled; /* activated later than queued: held back by max_active */
	double queued_ps, started_ps;
	long pending; /* queued, not yet activated: held back by max_active */
	long inflight; /* started, not yet ended */
	int64_t wait_p50, wait_p99; /* queue_work -> execute_start */
	int64_t run_p50, run_p99; /* execute_start -> execute_end (wall clock) */
	double wait_sum, run_sum; /* of every wait and run time (not only the kept samples), ns */
	uint64_t wait_count, run_count; /* how many */
	bool shared; /* kernel's hists: holds a share of a function queued on several workqueues (lib/fnjoin) */
	/* the kernel's own counters in the interval (--backend counters, obs/kcount.c) */
	uint64_t cpu_us, cpu_intensive, cm_wakeup, repatriated, mayday, rescued;
};

/* A cumulative counter's growth from b to c; 0 when it fell (what kept it was released since). */
static inline uint64_t wq_mon_grown(uint64_t c, uint64_t b)
{
	return c >= b ? c - b : 0;
}

/*
 * The element named name among n of size sz sorted by name, whose first
 * member is the name as a char array (the counters' and our BPF programs'
 * reads); NULL when there is none.
 */
const void *wq_mon_by_name(const void *v, size_t n, size_t sz, const char *name);

/*
 * rows (the kernel's counters' counts, sorted by name) take their wait and
 * run times and held-back count from times (our BPF programs', sorted by
 * name) for the same workqueue; a row times lack keeps none (-1).
 */
void wq_mon_times_into(struct wq_mon_row *rows, size_t n, const struct wq_mon_row *times, size_t ntimes);

struct wq_mon *wq_mon_new(void);
void wq_mon_free(struct wq_mon *m);
/*
 * Feed one event recorded on cpu (-1: one stream); wq is the name for
 * WQ_EV_QUEUE, ignored otherwise. An activation that directly follows its
 * own queue_work on the same CPU happened at queue time (the kernel traces
 * both in __queue_work()); any other one was held back by max_active.
 * 0 or -ENOMEM.
 */
int wq_mon_event_cpu(struct wq_mon *m, enum wq_mon_ev ev, uint64_t ts_ns, uint64_t work, const char *wq, int cpu);
/* The same on one stream (cpu -1). */
int wq_mon_event(struct wq_mon *m, enum wq_mon_ev ev, uint64_t ts_ns, uint64_t work, const char *wq);
/*
 * Rows (sorted by name) for every workqueue with events in the interval or
 * with items pending or in flight now; then start a new interval. *rows is
 * valid until the next call or wq_mon_free. 0 or -ENOMEM.
 */
int wq_mon_interval(struct wq_mon *m, double seconds, const struct wq_mon_row **rows, size_t *n);
/*
 * The whole run so far: totals, rates over seconds, percentiles over every
 * sample (a uniform reservoir past 65536 per workqueue), pending and in
 * flight as of the last interval. *rows as for wq_mon_interval. 0 or -ENOMEM.
 */
int wq_mon_summary(struct wq_mon *m, double seconds, const struct wq_mon_row **rows, size_t *n);
/* Nearest-rank percentile (0 < p <= 100) of n samples, sorting them in place; -1 when n is 0. */
int64_t wq_mon_percentile(int64_t *v, size_t n, double p);

#endif
