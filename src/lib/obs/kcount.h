/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own workqueue counters (6.3+): every pool_workqueue keeps
 * started, completed, CPU time, CPU-intensive, concurrency-managed wake-ups,
 * repatriated (6.6+), mayday and rescued, beside its nr_active and its
 * in-flight counts. Read without any probe on the work path, as drgn reads
 * the live kernel: struct layouts and enum values from the kernel's BTF
 * (libbpf), the address of the `workqueues` list from kallsyms, the memory
 * from /proc/kcore, read-only. Every walk is bounded, every pointer and name
 * checked; a list that changed under the walk is reported as a torn read,
 * never followed into the weeds.
 */
#ifndef WQ_KCOUNT_H
#define WQ_KCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/ctx.h"
#include "monitor.h"

/* The counters of enum pool_workqueue_stats, in wq_monitor.py's order. */
enum wq_kstat {
	WQ_KS_STARTED,
	WQ_KS_COMPLETED,
	WQ_KS_CPU_TIME, /* microseconds, sampled at the tick */
	WQ_KS_CPU_INTENSIVE,
	WQ_KS_CM_WAKEUP,
	WQ_KS_REPATRIATED, /* 6.6+ */
	WQ_KS_MAYDAY,
	WQ_KS_RESCUED,
	WQ_KS_NR
};
/* The kernel's name of each (PWQ_STAT_STARTED...). */
extern const char *const wq_kstat_names[WQ_KS_NR];

/*
 * One workqueue, its pool_workqueues summed; workqueues that share a name
 * (6.17+: events, events_unbound) summed into one row, as the tracepoints
 * count them.
 */
struct wq_kcount_row {
	char name[64];
	unsigned int flags; /* WQ_UNBOUND 1<<1, WQ_MEM_RECLAIM 1<<3, as the kernel keeps them (or-ed over a name) */
	uint64_t stat[WQ_KS_NR]; /* valid where the kernel has the counter (wq_kcount_has) */
	long nr_active; /* work items counted against max_active now */
	long nr_in_flight; /* queued and not yet finished, over every flush color */
	unsigned int npwqs;
	unsigned int nwqs; /* workqueues of this name */
};

struct wq_kcount;

/*
 * Ready to read: the live system, root, a kernel of 6.3 or later, its BTF
 * with the fields this needs, `workqueues` in kallsyms, /proc/kcore readable
 * (not under lockdown's confidentiality mode). -errno with why, the first
 * of these that fails, in words a user can act on.
 */
int wq_kcount_open(struct wq_ctx *ctx, struct wq_kcount **out, char *why, size_t whysz);
/*
 * The same in two steps: every check, the layout and the symbol (the slow
 * part), then /proc/kcore opened (what can still fail there: its ELF
 * header, lockdown's refusal); a reader prepared and not started is freed
 * with wq_kcount_free.
 */
int wq_kcount_prepare(struct wq_ctx *ctx, struct wq_kcount **out, char *why, size_t whysz);
int wq_kcount_start(struct wq_ctx *ctx, struct wq_kcount *k, char *why, size_t whysz);
/*
 * Read only the workqueues want (name as the kernel keeps it, arg) says
 * yes to: the others' pwqs are not read and they have no row, so a reader
 * watching one workqueue reads a few structs, not every pwq of the system.
 * NULL: every workqueue (the default).
 */
void wq_kcount_filter(struct wq_kcount *k, bool (*want)(const char *name, void *arg), void *arg);
/* Does this kernel keep counter s (REPATRIATED: 6.6+)? */
bool wq_kcount_has(const struct wq_kcount *k, enum wq_kstat s);
/*
 * One walk of every workqueue: rows (malloc'ed, sorted by name) and their
 * number. A list that changed under the walk is walked again, at most three
 * times; then -EAGAIN with why. Other failures -errno with why.
 */
int wq_kcount_read(struct wq_kcount *k, struct wq_kcount_row **rows, size_t *n, char *why, size_t whysz);
/*
 * What the counters did from base to cur (two reads, base possibly none)
 * over seconds, as monitor's rows: started and done from STARTED and
 * COMPLETED; queued as done plus the growth (or less the fall) of the
 * items in flight; INFLIGHT the items started and not completed, PENDING
 * the rest of those in flight, both as of cur; CPU time and the other
 * counters' growth; no times (-1). Rows (malloc'ed, *rows; names point
 * into cur; sorted by name) of the workqueues that did something or hold
 * items now. 0 or -ENOMEM.
 */
int wq_kcount_rows(const struct wq_kcount_row *base, size_t nbase, const struct wq_kcount_row *cur, size_t ncur,
		   double seconds, struct wq_mon_row **rows, size_t *n);
void wq_kcount_free(struct wq_kcount *k);

#endif
