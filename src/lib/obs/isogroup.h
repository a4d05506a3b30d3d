/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit's bookkeeping: which work items ran on the isolated CPUs,
 * grouped by workqueue, work function and worker kind, from the workqueue
 * tracepoints' events (doc/kernel.md §8). No tracefs here: events in, rows out.
 */
#ifndef WQ_ISOGROUP_H
#define WQ_ISOGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpuset.h"
#include "../core/isolate.h"
#include "trace.h"

struct wq_iso_row {
	char wq[32]; /* as the tracepoint names it; "?" when queued before the window */
	uint64_t fn; /* the work function */
	enum wq_worker_kind kind; /* of the worker that ran it */
	struct wq_cpuset *cpus; /* isolated CPUs it ran on */
	struct wq_cpuset *from; /* CPUs it was queued from (where seen) */
	unsigned long count, from_here; /* runs on isolated CPUs; of those, queued on the same CPU */
	uint64_t run_ns; /* their run time (execute_start to execute_end) */
	int worker_pid, queuer_pid; /* one worker that ran it, one task that queued it (-1: not seen) */
};

struct wq_iso_rows {
	size_t n;
	struct wq_iso_row *v;
};

/* The worker kind of a pid (the caller reads its name). */
typedef enum wq_worker_kind (*wq_iso_kind_fn)(int pid, void *data);
/*
 * Group the executions (events sorted by time) that started on a CPU of
 * isolated: by workqueue, work function and worker kind. 0 or -ENOMEM.
 */
int wq_iso_group(const struct wq_trace_ev *ev, size_t n, const struct wq_cpuset *isolated, wq_iso_kind_fn kind,
		 void *data, struct wq_iso_rows *out);
void wq_iso_rows_free(struct wq_iso_rows *r);

#endif
