/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workqueue tracepoints through libtracefs: a tracing instance of our
 * own (so the system's trace buffer and other users are left alone) with
 * the workqueue events enabled, drained into a wq_mon.
 */
#ifndef WQ_TRACE_H
#define WQ_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "monitor.h"

struct wq_ctx;
struct wq_trace;
struct wq_libtrace;
struct tracefs_instance;

/* The per-CPU buffer of the instance unless the caller asks for another, in KiB. */
#define WQ_TRACE_BUFFER_KB 4096
/*
 * Create the instance with per-CPU buffers of buffer_kb KiB and start
 * tracing. Live system only. 0, or -errno with why (tracefs missing, not
 * root, events missing, library missing, buffer refused).
 */
int wq_trace_open(struct wq_ctx *ctx, unsigned int buffer_kb, struct wq_trace **out, char *why, size_t whysz);
/* Feed every event recorded since the last call to m; *lost counts events the buffer dropped. 0 or -errno. */
int wq_trace_read(struct wq_trace *t, struct wq_mon *m, unsigned long long *lost);
/*
 * wq_trace_read holds back the newest events of a drain to put events of
 * different CPUs in time order; this reads once more and feeds everything
 * (the last interval). 0 or -errno.
 */
int wq_trace_flush(struct wq_trace *t, struct wq_mon *m);
/* One event as recorded (the isolation audit keeps them all). */
struct wq_trace_ev {
	uint64_t ts, work;
	uint64_t fn; /* the work function's address (queue, start, end) */
	unsigned long long seq; /* arrival order: keeps one CPU's order among equal times */
	int ev; /* enum wq_mon_ev */
	int cpu; /* the CPU whose buffer holds it: where queue_work() or the item ran */
	int pid; /* the task: the queuer, or the worker that ran the item */
	char wq[32]; /* queue events: the workqueue, as the tracepoint names it */
};
/*
 * Keep every event recorded since the last call (no wq_mon), up to max
 * events; *lost counts what the buffer dropped, *full whether max cut it.
 * 0 or -errno.
 */
int wq_trace_collect(struct wq_trace *t, size_t max, unsigned long long *lost, bool *full);
/* The collected events in time order; valid until the next call or close. */
void wq_trace_collected(struct wq_trace *t, const struct wq_trace_ev **ev, size_t *n);
/*
 * Load /proc/kallsyms for function names (slow: the audit only). 0, or
 * -errno with why (kptr_restrict hides addresses, or it cannot be read).
 */
int wq_trace_load_symbols(struct wq_ctx *ctx, struct wq_trace *t, char *why, size_t whysz);
/* The function at addr, or NULL. */
const char *wq_trace_symbol(struct wq_trace *t, uint64_t addr);
/* The instance's name below tracefs instances/ (for messages and tests). */
const char *wq_trace_instance(const struct wq_trace *t);
/* tracefs' mount point as libtracefs finds it (asked once per process), or NULL. */
const char *wq_trace_mount(const struct wq_libtrace *L);
/*
 * tracefs on the live system, through libtracefs (*L), writable: its
 * directory, or NULL with *err (-errno) and why (a sysroot, the library
 * missing, tracefs not mounted, not root).
 */
const char *wq_trace_dir(struct wq_ctx *ctx, const struct wq_libtrace **L, int *err, char *why, size_t whysz);
/*
 * What names a run's tracefs objects: "PID_NS", its pid and the inode of
 * its PID namespace, so that two wqctl that have the same pid in two
 * namespaces sharing one tracefs (PID 1 of two containers) never share a
 * name. Without /proc, NS is 0. Made once per process.
 */
const char *wq_trace_tag(void);
/*
 * The pid and the namespace in a name wqctl made (PREFIX then "%ld_%llu"),
 * or -1 for any other name: "+123", "0123", " 123", "123x", or a name
 * without its namespace (an older wqctl's) are not its own.
 */
long wq_trace_instance_pid(const char *name, const char *prefix, unsigned long long *ns);
/*
 * Is the run that made a name proven gone? Only when it was in this
 * process's PID namespace and its pid no longer runs there: a run in
 * another namespace, or a name from one whose namespace is unknown, is
 * never taken for dead.
 */
bool wq_trace_owner_gone(long pid, unsigned long long ns);
/*
 * Remove the instances named PREFIX + tag whose run is proven gone (a run
 * killed by SIGKILL, which cannot be caught), calling before() on each
 * first with the tag; each removal is logged as "removed WHAT".
 */
void wq_trace_remove_stale(struct wq_ctx *ctx, const struct wq_libtrace *L, const char *dir, const char *prefix,
			   void (*before)(const struct wq_libtrace *L, struct tracefs_instance *inst, const char *tag),
			   const char *what);
/*
 * Remove the streaming instances of killed runs, as wq_trace_open does
 * first: for a run that counts without tracefs (the kernel's counters, our
 * BPF programs). Silent where tracefs cannot be had.
 */
void wq_trace_tidy(struct wq_ctx *ctx);
/* Stop tracing and remove the instance. */
void wq_trace_close(struct wq_trace *t);

#endif
