// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor's session: the tracepoints drained into the bookkeeping interval
 * by interval on a fixed clock (interval i ends at start + (i + 1) x the
 * interval, whatever printing took), the lost events counted, the run
 * summed up; the patterns' selection and each workqueue's limit.
 */
#define _GNU_SOURCE
#include "sampler.h"

#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/explain.h"
#include "kboth.h"
#include "kbpf.h"
#include "kcount.h"
#include "khist.h"
#include "klat.h"
#include "../util/macro.h"
#include "../core/ownerknob.h"
#include "trace.h"
#include "../core/wq.h"

struct wq_sampler {
	struct wq_ctx *ctx;
	const struct wq_cancel *cancel;
	struct wq_trace *trace;
	struct wq_khist *khist;
	struct wq_mon *mon;
	char **pats;
	size_t npats;
	double interval, start;
	long next; /* the interval wq_sampler_next() waits for */
	long done; /* intervals read */
	unsigned long long lost;
	struct wq_sampler_limit *lim;
	size_t nlim;
	/* --backend counters: the reader, its first and latest reads, the rows made of them */
	struct wq_kcount *kc;
	struct wq_kcount_row *kfirst, *kprev;
	size_t nfirst, nprev;
	struct wq_mon_row *krows;
	/* our BPF programs: the reader, its first and latest reads (rows made of them in krows), what they lost */
	struct wq_kbpf *kb;
	struct wq_kbpf_row *bfirst, *bprev;
	size_t nbfirst, nbprev;
	struct wq_kbpf_lost blost;
	struct wq_mon_row *brows; /* the rows made of them */
	enum wq_sampler_backend backend; /* as resolved by wq_sampler_open */
};

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep until deadline or a signal. */
static void wait_until(const struct wq_sampler *s, double deadline)
{
	double left;

	while (!wq_cancelled(s->cancel) && (left = deadline - wq_mono_now()) > 0) {
		struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};

		nanosleep(&ts, NULL);
	}
}

enum wq_sampler_backend wq_sampler_auto(struct wq_ctx *ctx, bool times, bool throttled)
{
	if (!ctx)
		return WQ_SAMPLER_STREAM;
	return throttled ? WQ_SAMPLER_AUTO_ALL : times ? WQ_SAMPLER_AUTO_TIMES : WQ_SAMPLER_AUTO_COUNTS;
}

enum wq_sampler_backend wq_sampler_kernel(struct wq_ctx *ctx, bool times)
{
	return times && wq_khist_times_available(ctx) ? WQ_SAMPLER_KERNEL_TIMES : WQ_SAMPLER_KERNEL;
}

/* Our BPF programs' first read, the base of the first interval and of the summary; on failure they are closed. */
static int first_bpf_read(struct wq_sampler *s, char *why, size_t whysz)
{
	struct wq_kbpf_lost lost = {0};
	int r = wq_kbpf_read(s->kb, &s->bfirst, &s->nbfirst, &lost, why, whysz);

	if (r < 0) {
		wq_kbpf_free(s->kb);
		s->kb = NULL;
	}
	s->blost = lost;
	return r;
}

/* Our BPF programs attached (held: activate_work's too) and read first. */
static int open_bpf(struct wq_sampler *s, bool held, char *why, size_t whysz)
{
	int r = wq_kbpf_open(s->ctx, held, &s->kb, why, whysz);

	return r < 0 ? r : first_bpf_read(s, why, whysz);
}

/* The counters' filter: the workqueues the patterns select. */
static bool counters_want(const char *name, void *arg)
{
	return wq_sampler_wanted(arg, name);
}

/* The counters' reader, reading only what the patterns select, and its first read. */
static int open_counters(struct wq_sampler *s, char *why, size_t whysz)
{
	int r = wq_kcount_open(s->ctx, &s->kc, why, whysz);

	if (r == 0 && s->npats)
		wq_kcount_filter(s->kc, counters_want, s);
	if (r == 0 && (r = wq_kcount_read(s->kc, &s->kfirst, &s->nfirst, why, whysz)) < 0) {
		wq_kcount_free(s->kc);
		s->kc = NULL;
	}
	return r;
}

/*
 * auto with times: our BPF programs, their counts from the kernel's
 * counters where those can be read (exact also where the kernel skips our
 * programs: it does not run one while it runs on that CPU already, and
 * 7.x's tracepoints are preemptible), opened as experiment opens them
 * (obs/kboth.c: activate_work only where held or the counters fail). 0, or
 * -errno with why when BPF cannot be had.
 */
static int open_bpf_counted(struct wq_sampler *s, bool held, char *why, size_t whysz)
{
	struct wq_kboth b;
	char kwhy[300];

	if (wq_kboth_open(s->ctx, held, s->npats ? counters_want : NULL, s, &b, why, whysz, kwhy, sizeof(kwhy)) < 0)
		return -ENOTSUP;
	s->kb = b.kb;
	s->kc = b.kc;
	s->kfirst = b.kfirst;
	s->nfirst = b.nfirst;
	if (first_bpf_read(s, why, whysz) < 0) {
		wq_kcount_free(s->kc);
		s->kc = NULL;
		free(s->kfirst);
		s->kfirst = NULL;
		return -ENOTSUP;
	}
	if (!s->kc)
		wq_log(s->ctx, WQ_LOG_INFO, "monitor: counts from BPF too: the kernel's counters: %s", kwhy);
	return 0;
}

/*
 * auto's choice, cheapest first: the kernel's counters for counts alone,
 * our BPF programs for anything, then the hist triggers where they measure
 * what is asked, then the stream. Each that cannot be had is said with -v.
 */
static enum wq_sampler_backend resolve(struct wq_sampler *s, enum wq_sampler_backend backend)
{
	char why[300];

	if (backend != WQ_SAMPLER_AUTO_COUNTS && backend != WQ_SAMPLER_AUTO_TIMES &&
	    backend != WQ_SAMPLER_AUTO_TIMES_HELD && backend != WQ_SAMPLER_AUTO_ALL)
		return backend;
	if (backend == WQ_SAMPLER_AUTO_COUNTS) {
		if (open_counters(s, why, sizeof(why)) == 0)
			return WQ_SAMPLER_COUNTERS;
		wq_log(s->ctx, WQ_LOG_INFO, "monitor: the kernel's counters: %s", why);
	}
	if (backend == WQ_SAMPLER_AUTO_COUNTS
		? open_bpf(s, true, why, sizeof(why)) == 0
		: open_bpf_counted(s, backend != WQ_SAMPLER_AUTO_TIMES, why, sizeof(why)) == 0)
		return WQ_SAMPLER_BPF;
	wq_log(s->ctx, WQ_LOG_INFO, "monitor: BPF: %s; counting through the tracepoints", why);
	if (backend == WQ_SAMPLER_AUTO_COUNTS)
		return wq_khist_available(s->ctx) ? WQ_SAMPLER_KERNEL : WQ_SAMPLER_STREAM;
	if (backend == WQ_SAMPLER_AUTO_TIMES || backend == WQ_SAMPLER_AUTO_TIMES_HELD)
		/* wq_khist_times_available asks wq_khist_available first */
		return wq_khist_times_available(s->ctx) ? WQ_SAMPLER_KERNEL_TIMES : WQ_SAMPLER_STREAM;
	return WQ_SAMPLER_STREAM;
}

int wq_sampler_open(struct wq_ctx *ctx, const struct wq_cancel *cancel, enum wq_sampler_backend backend,
		    unsigned int buffer_kb, double interval, char **pats, size_t npats, struct wq_sampler **out,
		    char *why, size_t whysz)
{
	struct wq_sampler *s = calloc(1, sizeof(*s));
	int r;

	*out = NULL;
	if (!s || !(s->mon = wq_mon_new())) {
		free(s);
		snprintf(why, whysz, "%s", wq_strerror(ENOMEM));
		return -ENOMEM;
	}
	s->ctx = ctx;
	s->cancel = cancel;
	s->pats = pats;
	s->npats = npats;
	s->interval = interval;
	backend = resolve(s, backend);
	s->backend = backend;
	if (backend == WQ_SAMPLER_COUNTERS || backend == WQ_SAMPLER_BPF) {
		/* what killed runs of the tracefs backends left goes all the same, as they would remove it */
		wq_trace_tidy(ctx);
		wq_khist_tidy(ctx);
	}
	if (backend == WQ_SAMPLER_COUNTERS)
		r = s->kc ? 0 : open_counters(s, why, whysz);
	else if (backend == WQ_SAMPLER_BPF)
		r = s->kb ? 0 : open_bpf(s, true, why, whysz);
	else if (backend != WQ_SAMPLER_STREAM)
		r = wq_khist_open(ctx, backend == WQ_SAMPLER_KERNEL_TIMES, &s->khist, why, whysz);
	else
		r = wq_trace_open(ctx, buffer_kb, &s->trace, why, whysz);
	if (r < 0) {
		wq_sampler_free(s);
		return r;
	}
	s->start = wq_mono_now();
	*out = s;
	return 0;
}

/* The kernel's hists read: the interval's rows in out, what the maps had no room for in *lost. */
static int read_khist(struct wq_sampler *s, struct wq_sample *out, unsigned long long *lost)
{
	char why[300];
	int r = wq_khist_read(s->khist, out->seconds, &out->rows, &out->n, lost, why, sizeof(why));

	const char *fn;

	if (r < 0)
		wq_log(s->ctx, WQ_LOG_ERR, "monitor: %s", why);
	else if (*lost)
		wq_log(s->ctx, WQ_LOG_WARNING,
		       "monitor: %llu events not counted: the kernel's hist maps are full (%d %s each); "
		       "--backend stream counts them",
		       *lost, wq_khist_by_function(s->khist) ? WQ_KHIST_FN_MAP_SIZE : WQ_KHIST_MAP_SIZE,
		       wq_khist_by_function(s->khist) ? "keys" : "work items");
	if (r == 0 && wq_khist_times_dropped(s->khist))
		wq_log(s->ctx, WQ_LOG_WARNING,
		       "monitor: %llu wait or run times not kept: the kernel's time hists are full (%d keys of "
		       "function and bucket each); the counts are whole, WAIT and RUN are of the other times",
		       wq_khist_times_dropped(s->khist), WQ_KLAT_MAP_SIZE);
	while (r == 0 && wq_khist_next_shared(s->khist, &fn, why, sizeof(why)))
		wq_log(s->ctx, WQ_LOG_WARNING,
		       "monitor: %s is queued on %s: the kernel does not say which of them runs it, so their "
		       "STARTED, DONE, PENDING and INFLIGHT share its counts in proportion to QUEUED; "
		       "--backend stream counts them apart",
		       fn, why);
	out->kernel = true;
	return r;
}

/* The counters' rows from base to cur over seconds (obs/kcount.c), the sampler's until the next. */
static int kc_rows(struct wq_sampler *s, const struct wq_kcount_row *base, size_t nbase,
		   const struct wq_kcount_row *cur, size_t ncur, double seconds, struct wq_sample *out)
{
	struct wq_mon_row *rows;
	int r = wq_kcount_rows(base, nbase, cur, ncur, seconds, &rows, &out->n);

	if (r < 0)
		return r;
	free(s->krows);
	s->krows = rows;
	out->rows = rows;
	out->kernel = out->counters = true;
	return 0;
}

/* The counters read: the interval's rows in out, against the read before. */
static int read_kcount(struct wq_sampler *s, struct wq_sample *out)
{
	struct wq_kcount_row *cur;
	size_t ncur;
	char why[300];
	int r = wq_kcount_read(s->kc, &cur, &ncur, why, sizeof(why));

	if (r < 0) {
		wq_log(s->ctx, WQ_LOG_ERR, "monitor: %s", why);
		return r;
	}
	r = kc_rows(s, s->kprev ? s->kprev : s->kfirst, s->kprev ? s->nprev : s->nfirst, cur, ncur, out->seconds, out);
	free(s->kprev);
	s->kprev = cur;
	s->nprev = ncur;
	return r;
}

/* Rows of what our BPF programs counted from base to cur. */
static int kb_rows(struct wq_sampler *s, const struct wq_kbpf_row *base, size_t nbase, const struct wq_kbpf_row *cur,
		   size_t ncur, double seconds, struct wq_sample *out)
{
	struct wq_mon_row *rows;
	int r = wq_kbpf_rows(base, nbase, cur, ncur, seconds, &rows, &out->n);

	if (r < 0)
		return r;
	free(s->brows);
	s->brows = rows;
	out->rows = rows;
	return 0;
}

/* Our BPF programs' maps read: the interval's rows in out, against the read before; *lost what they had no room for. */
static int read_kbpf(struct wq_sampler *s, struct wq_sample *out, unsigned long long *lost)
{
	struct wq_kbpf_row *cur;
	size_t ncur;
	struct wq_kbpf_lost all, was = s->blost;
	char why[300];
	int r = wq_kbpf_read(s->kb, &cur, &ncur, &all, why, sizeof(why));

	if (r < 0) {
		wq_log(s->ctx, WQ_LOG_ERR, "monitor: BPF: %s", why);
		return r;
	}
	r = kb_rows(s, s->bprev ? s->bprev : s->bfirst, s->bprev ? s->nbprev : s->nbfirst, cur, ncur, out->seconds,
		    out);
	free(s->bprev);
	s->bprev = cur;
	s->nbprev = ncur;
	s->blost = all;
	all.full -= was.full;
	all.busy -= was.busy;
	all.names -= was.names;
	all.unseen -= was.unseen;
	*lost = all.full + all.busy + all.names + all.unseen;
	all.skipped -= was.skipped;
	if (!s->kc) /* with the counters the counts are whole: the times are of fewer items */
		*lost += all.skipped;
	if (all.skipped)
		wq_log(s->ctx, WQ_LOG_WARNING,
		       "monitor: the kernel skipped our BPF programs %llu times (one was running on that CPU "
		       "already, interrupted or preempted): %s",
		       (unsigned long long)all.skipped,
		       s->kc ? "THROTTLED and the wait and run times are of the other items; the counts are the "
			       "kernel's own, whole"
			     : "QUEUED, STARTED, DONE, THROTTLED, PENDING and INFLIGHT may be short by as many");
	if (all.full || all.busy)
		wq_log(s->ctx, WQ_LOG_WARNING,
		       "monitor: %llu work items not counted as queued nor timed: our BPF maps were full (%llu; "
		       "%d items waiting at most) or busy in an interrupt that queued work during our program (%llu)",
		       (unsigned long long)(all.full + all.busy), (unsigned long long)all.full, WQ_KBPF_ITEMS,
		       (unsigned long long)all.busy);
	if (all.unseen)
		wq_log(s->ctx, WQ_LOG_WARNING,
		       "monitor: %llu starts or ends of work items not counted: their queueing was not seen and "
		       "their worker could not be read",
		       (unsigned long long)all.unseen);
	if (all.names)
		wq_log(s->ctx, WQ_LOG_WARNING,
		       "monitor: %llu events of workqueues our BPF maps had no room for not counted (%d names, "
		       "and %d whose row the kernel could not make when they first came)",
		       (unsigned long long)all.names, WQ_KBPF_NAMES, WQ_KBPF_SPILL);
	return r;
}

/*
 * Counts from the kernel's counters, times and the held-back count from
 * our BPF programs: rows of the one, with the other's figures for the
 * same names.
 */
static int read_both(struct wq_sampler *s, struct wq_sample *out, unsigned long long *lost)
{
	struct wq_sample times = {.seconds = out->seconds};
	int r = read_kbpf(s, &times, lost);

	if (r == 0)
		r = read_kcount(s, out);
	if (r == 0) {
		wq_mon_times_into(s->krows, out->n, times.rows, times.n);
		/* THROTTLED and the times are there; CPU_MS and the rest are not asked */
		out->kernel = out->counters = false;
	}
	return r;
}

/* The trace buffer drained into the bookkeeping: the interval's rows in out. */
static int read_trace(struct wq_sampler *s, bool flush, struct wq_sample *out, unsigned long long *lost)
{
	int r = flush ? wq_trace_flush(s->trace, s->mon) : wq_trace_read(s->trace, s->mon, lost);

	if (r < 0 || wq_mon_interval(s->mon, out->seconds, &out->rows, &out->n) < 0) {
		wq_log(s->ctx, WQ_LOG_ERR, "monitor: instances/%s: cannot read events: %s", wq_trace_instance(s->trace),
		       wq_strerror(r < 0 ? -r : ENOMEM));
		return r < 0 ? r : -ENOMEM;
	}
	if (*lost)
		wq_log(s->ctx, WQ_LOG_WARNING,
		       "monitor: %llu events lost (trace buffer full: --buffer-size); PENDING and INFLIGHT may be off",
		       *lost);
	return 0;
}

int wq_sampler_next(struct wq_sampler *s, bool flush, struct wq_sample *out)
{
	double began = s->start + (double)s->next * s->interval;
	unsigned long long lost = 0;
	int r;

	memset(out, 0, sizeof(*out));
	wait_until(s, began + s->interval);
	if (wq_cancelled(s->cancel))
		return 0;
	s->next++;
	out->seconds = wq_mono_now() - began;
	r = s->kc && s->kb ? read_both(s, out, &lost)
	    : s->kc	   ? read_kcount(s, out)
	    : s->kb	   ? read_kbpf(s, out, &lost)
	    : s->khist	   ? read_khist(s, out, &lost)
			   : read_trace(s, flush, out, &lost);
	if (r < 0)
		return r;
	s->lost += lost;
	s->done++;
	out->lost = lost;
	out->timestamp = wall();
	return 1;
}

int wq_sampler_summary(struct wq_sampler *s, struct wq_sample *out)
{
	memset(out, 0, sizeof(*out));
	if (s->done == 0)
		return 0;
	out->timestamp = wall();
	out->seconds = wq_mono_now() - s->start;
	out->lost = s->lost;
	out->intervals = s->done;
	if (s->khist) {
		out->kernel = true;
		return wq_khist_summary(s->khist, out->seconds, &out->rows, &out->n) == 0 ? 1 : -ENOMEM;
	}
	if (s->kc && s->kb) {
		struct wq_sample times = {.seconds = out->seconds};

		if (kb_rows(s, s->bfirst, s->nbfirst, s->bprev, s->nbprev, out->seconds, &times) < 0 ||
		    kc_rows(s, s->kfirst, s->nfirst, s->kprev, s->nprev, out->seconds, out) < 0)
			return -ENOMEM;
		wq_mon_times_into(s->krows, out->n, times.rows, times.n);
		out->kernel = out->counters = false;
		return 1;
	}
	if (s->kc)
		return kc_rows(s, s->kfirst, s->nfirst, s->kprev, s->nprev, out->seconds, out) == 0 ? 1 : -ENOMEM;
	if (s->kb)
		return kb_rows(s, s->bfirst, s->nbfirst, s->bprev, s->nbprev, out->seconds, out) == 0 ? 1 : -ENOMEM;
	return wq_mon_summary(s->mon, out->seconds, &out->rows, &out->n) == 0 ? 1 : -ENOMEM;
}

/* The sysfs form of a tracepoint's name: '/' -> '!'. */
static void sysfs_name(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s", name);
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = '!';
}

bool wq_sampler_wanted(const struct wq_sampler *s, const char *name)
{
	char sysfs[64];

	if (s->npats == 0)
		return true;
	sysfs_name(sysfs, sizeof(sysfs), name);
	for (size_t i = 0; i < s->npats; i++)
		if (!fnmatch(s->pats[i], name, 0) || !fnmatch(s->pats[i], sysfs, 0))
			return true;
	return false;
}

const struct wq_sampler_limit *wq_sampler_limit(struct wq_sampler *s, const char *name)
{
	struct wq_sampler_limit *nv, *l;
	const struct wq_owner_knob *knob;
	struct wq_explain ex;
	struct wq_info wi = {0};
	char sysfs[64];

	for (size_t i = 0; i < s->nlim; i++)
		if (!strcmp(s->lim[i].name, name))
			return &s->lim[i];
	nv = realloc(s->lim, sizeof(*nv) * (s->nlim + 1));
	if (!nv)
		return NULL;
	s->lim = nv;
	l = &nv[s->nlim++];
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->max_active = -1;
	l->limit = -1;
	sysfs_name(sysfs, sizeof(sysfs), name);
	if (wq_name_is_valid(sysfs) && wq_info_read(s->ctx, sysfs, &wi) == 0 && !(wi.bad & (1U << WQ_A_MAX_ACTIVE))) {
		l->max_active = wi.max_active;
		if (wq_explain(s->ctx, &wi, NULL, &ex) == 0 && ex.max_inflight > 0)
			l->limit = ex.max_inflight;
		wq_explain_clear(&ex);
	} else if ((knob = wq_owner_knob_find(name)) && !wq_owner_knob_in_sysfs(s->ctx, knob)) {
		/* outside sysfs (btrfs, dm-zoned): explain's model, with the owner's default */
		wq_info_clear(&wi);
		if (wq_owner_knob_model(s->ctx, name, knob, &wi) == 0) {
			l->max_active = wi.max_active;
			if (wq_explain(s->ctx, &wi, NULL, &ex) == 0 && ex.max_inflight > 0)
				l->limit = ex.max_inflight;
			wq_explain_clear(&ex);
		}
	}
	wq_info_clear(&wi);
	return l;
}

enum wq_sampler_backend wq_sampler_backend_used(const struct wq_sampler *s)
{
	return s->backend;
}

bool wq_sampler_counter(const struct wq_sampler *s, enum wq_kstat ks)
{
	return s->backend == WQ_SAMPLER_COUNTERS && wq_kcount_has(s->kc, ks);
}

void wq_sampler_free(struct wq_sampler *s)
{
	if (!s)
		return;
	if (s->trace)
		wq_trace_close(s->trace);
	wq_khist_close(s->khist);
	wq_kcount_free(s->kc);
	wq_kbpf_free(s->kb);
	free(s->bfirst);
	free(s->bprev);
	free(s->kfirst);
	free(s->kprev);
	free(s->krows);
	free(s->brows);
	wq_mon_free(s->mon);
	free(s->lim);
	free(s);
}
