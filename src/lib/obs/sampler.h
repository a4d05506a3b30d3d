/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * monitor's session: the workqueue tracepoints drained into the
 * bookkeeping (monitor.c) interval by interval on a fixed clock, the events
 * lost counted, the whole run summed up; which workqueues the user's
 * patterns select, and each one's max_active and limit looked up once.
 */
#ifndef WQ_SAMPLER_H
#define WQ_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/ctx.h"
#include "../util/cancel.h"
#include "kcount.h"
#include "monitor.h"

struct wq_sampler;

/* What one interval (or, summary, the whole run) measured. */
struct wq_sample {
	const struct wq_mon_row *rows; /* valid until the next call */
	size_t n;
	double timestamp; /* wall clock at its end, seconds since the epoch */
	double seconds; /* its length as measured */
	unsigned long long lost; /* events the trace buffer dropped */
	long intervals; /* summary: how many intervals it covers */
	bool
	    kernel; /* counted by the kernel's hists: no throttled count (nor wait or run times but with KERNEL_TIMES) */
	bool counters; /* the kernel's own counters: CPU time and the rest, no wait or run times, no throttled count */
};

/* Where the counts come from. */
enum wq_sampler_backend {
	WQ_SAMPLER_STREAM, /* every event through the trace buffer (all figures) */
	WQ_SAMPLER_KERNEL, /* hist triggers (lib/khist: counts only, exact at any rate) */
	WQ_SAMPLER_KERNEL_TIMES, /* the same with wait and run times (lib/klat), where the kernel can */
	WQ_SAMPLER_COUNTERS, /* the kernel's own per-pwq counters (obs/kcount.c): no probe at all, no times */
	WQ_SAMPLER_BPF, /* our BPF programs on the tracepoints (obs/kbpf.c): every figure, per-CPU maps */
	/* auto (wq_sampler_auto), resolved by wq_sampler_open: */
	WQ_SAMPLER_AUTO_COUNTS, /* counts alone: COUNTERS, else BPF, else KERNEL, else STREAM */
	WQ_SAMPLER_AUTO_TIMES, /* with wait and run times: BPF, else KERNEL_TIMES, else STREAM */
	WQ_SAMPLER_AUTO_TIMES_HELD, /* the same, with the held-back count where BPF or the stream counts it */
	WQ_SAMPLER_AUTO_ALL, /* with the held-back count: BPF, else STREAM */
};

/*
 * "auto": the cheapest backend that measures what is wanted on the live
 * kernel, chosen when wq_sampler_open tries them in turn (each one that
 * cannot be had is said with -v). Counts alone come from the kernel's own
 * counters first, read with no probe at all; anything from our BPF
 * programs; then counts and times from hist triggers (times only where
 * the kernel keys by function and has synthetic events,
 * wq_khist_times_available), the held-back count (throttled) from the
 * stream. STREAM without a context.
 */
enum wq_sampler_backend wq_sampler_auto(struct wq_ctx *ctx, bool times, bool throttled);

/* --backend kernel: with wait and run times (times) where the kernel keeps them too, else counts alone. */
enum wq_sampler_backend wq_sampler_kernel(struct wq_ctx *ctx, bool times);

/* A workqueue's settings as sysfs has them (looked up once per run). */
struct wq_sampler_limit {
	char name[64];
	int max_active; /* -1: not in sysfs */
	long limit; /* the most in flight (explain's max_inflight); -1: unknown */
};

/*
 * Start tracing (an instance of our own, buffer_kb per CPU for streaming);
 * pats (kept, not copied) select the workqueues wq_sampler_wanted()
 * accepts, all with none. -errno with why (-EINVAL: a setting the user can
 * change; -ENOTSUP: no hist triggers in this kernel for WQ_SAMPLER_KERNEL).
 */
int wq_sampler_open(struct wq_ctx *ctx, const struct wq_cancel *cancel, enum wq_sampler_backend backend,
		    unsigned int buffer_kb, double interval, char **pats, size_t npats, struct wq_sampler **out,
		    char *why, size_t whysz);
/*
 * Wait for the end of the next interval and read its events (flush: also
 * those held back for ordering, for a last interval). 1 with the interval
 * in out, 0 when cancel (wq_sampler_open) ended the wait, -errno
 * after the error was logged. Lost events are logged as a warning.
 */
int wq_sampler_next(struct wq_sampler *s, bool flush, struct wq_sample *out);
/* The whole run so far. 1 with it in out, 0 when no interval ended, -errno. */
int wq_sampler_summary(struct wq_sampler *s, struct wq_sample *out);
/* A name matches a pattern in its tracepoint form or its sysfs form ('/' -> '!'). */
bool wq_sampler_wanted(const struct wq_sampler *s, const char *name);
/* name's max_active and limit (NULL when memory is short). */
const struct wq_sampler_limit *wq_sampler_limit(struct wq_sampler *s, const char *name);
/* The backend the sampler counts with (AUTO_COUNTS resolved). */
enum wq_sampler_backend wq_sampler_backend_used(const struct wq_sampler *s);
/* Does the kernel keep counter ks (--backend counters; REPATRIATED from 6.6)? false for the other backends. */
bool wq_sampler_counter(const struct wq_sampler *s, enum wq_kstat ks);
void wq_sampler_free(struct wq_sampler *s);

#endif
