/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workqueue tracepoints counted and timed inside the kernel by BPF
 * programs of ours (obs/kbpf.bpf.c), loaded through libbpf: per workqueue
 * name, how many items were queued, activated, started and done, and their
 * wait (queue_work to execute_start) and run (execute_start to execute_end)
 * times in log2 buckets of nanoseconds, kept in per-CPU maps and summed
 * when read. Nothing crosses to user space per event; the maps are read
 * once an interval. Detached and freed on close (the kernel frees them with
 * the last descriptor, also for a run killed with SIGKILL).
 */
#ifndef WQ_KBPF_H
#define WQ_KBPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/ctx.h"
#include "monitor.h"

/* Log2 buckets of nanoseconds: bucket K holds 2^(K-1) < t <= 2^K (K 0: t <= 1 ns). */
#define WQ_KBPF_BUCKETS 64
/* Workqueue names the maps keep, and items waiting to start at once. */
#define WQ_KBPF_NAMES 2048
#define WQ_KBPF_ITEMS 65536
/* Names whose row the kernel could not make at once (no memory at hand): their counts kept apart, not their times. */
#define WQ_KBPF_SPILL 64

/* One workqueue name, cumulative since the programs were attached. */
struct wq_kbpf_row {
	char name[32];
	uint64_t queued, activated, started, done;
	uint64_t throttled; /* activated later than queued: held back by max_active */
	uint64_t wait_count, run_count; /* the times kept (an item queued before the attach has no wait) */
	uint64_t wait_sum, run_sum; /* ns */
	uint64_t wait[WQ_KBPF_BUCKETS], run[WQ_KBPF_BUCKETS];
};

/* What the programs could not keep since the attach. */
struct wq_kbpf_lost {
	uint64_t full; /* work items: a map of items waiting or running was full */
	uint64_t busy; /* work items: the map was busy on that CPU (an interrupt queued work during our program) */
	uint64_t names; /* events of a workqueue name the name map had no room for */
	uint64_t unseen; /* starts and ends not counted: the queueing not seen, the worker not readable */
	/*
	 * runs of our programs the kernel skipped: one of them was running on
	 * that CPU already, interrupted or (where tracepoints are preemptible,
	 * 7.x) preempted; its per-program recursion_misses
	 */
	uint64_t skipped;
};

static inline uint64_t wq_kbpf_lost_total(const struct wq_kbpf_lost *l)
{
	return l->full + l->busy + l->names + l->unseen + l->skipped;
}

struct wq_kbpf;

/*
 * Load and attach the programs: the live system, root, the kernel's BTF
 * (the programs read pool_workqueue and worker through it). held: the
 * activate_work program too, which the held-back count (THROTTLED) and
 * PENDING need; without it one event less an item is watched, and those
 * two mean nothing. -errno with why, in words a user can act on.
 */
int wq_kbpf_open(struct wq_ctx *ctx, bool held, struct wq_kbpf **out, char *why, size_t whysz);
/*
 * Every name's row (malloc'ed, sorted by name) and their number; *lost:
 * what was not kept since the attach (an item not kept is not counted as
 * queued, and its wait or run is not timed). -errno with why.
 */
int wq_kbpf_read(struct wq_kbpf *k, struct wq_kbpf_row **rows, size_t *n, struct wq_kbpf_lost *lost, char *why,
		 size_t whysz);
/*
 * What was counted from base to cur (two reads, base possibly none) over
 * seconds, as monitor's rows: the interval's queued, started, done and
 * throttled, pending and in flight as of cur (counted since the attach),
 * wait and run percentiles as the top of their log2 bucket in ns, with
 * their sums and counts. Rows (malloc'ed, *rows; names point into cur) of
 * the names that did something or hold items now. 0 or -ENOMEM.
 */
int wq_kbpf_rows(const struct wq_kbpf_row *base, size_t nbase, const struct wq_kbpf_row *cur, size_t ncur,
		 double seconds, struct wq_mon_row **rows, size_t *n);
void wq_kbpf_free(struct wq_kbpf *k);

#endif
