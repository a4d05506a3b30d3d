/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The isolation audit (check --isolation): which work ran on isolated CPUs
 * over a window, what can move it, and the unbound kworkers allowed there.
 */
#ifndef WQ_AUDIT_H
#define WQ_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/cpuset.h"
#include "../core/ctx.h"
#include "../util/cancel.h"
#include "isogroup.h"
#include "../core/isolate.h"
#include "trace.h"

enum wq_audit_verdict {
	WQ_AUDIT_CPUMASK, /* movable: the workqueue's cpumask includes the CPUs */
	WQ_AUDIT_ROOT, /* movable: not in sysfs, the root unbound cpumask includes them */
	WQ_AUDIT_STALE, /* a worker of an older pool ran it */
	WQ_AUDIT_PERCPU, /* per-CPU work: not movable */
	WQ_AUDIT_APP, /* per-CPU, queued on the CPU by the task that runs there */
	WQ_AUDIT_UNKNOWN, /* queued before the window */
};

/* One group of the work that ran there (a workqueue and a function), judged. */
struct wq_audit_row {
	const struct wq_iso_row *r;
	char func[128], cpus[256], from[256], fix[1024];
	const char *kind; /* unbound, per-cpu or ? */
	enum wq_audit_verdict v;
	bool movable;
	int queues; /* workqueues the tracepoints merge under r->wq (2 for events on 6.17+) */
};

/* An unbound kworker whose allowed CPUs include audited ones. */
struct wq_audit_kworker {
	int pid;
	char comm[64];
	char *allowed, *iso;
};

struct wq_audit {
	struct wq_ctx *ctx;
	struct wq_cpuset *iso, *root_mask;
	char *isolated; /* iso as a list */
	double seconds; /* the window as sampled */
	unsigned long long lost;
	bool full; /* stopped keeping events */
	struct wq_audit_row *rows; /* most runs first */
	size_t n, movable;
	unsigned long total; /* runs on the audited CPUs */
	struct wq_audit_kworker *kw; /* by pid */
	size_t nkw;
	struct wq_iso_rows grouped;
	struct wq_trace *trace;
};

/*
 * The CPUs to audit: cpus (a list the user gave), or with NULL the isolated
 * and nohz_full CPUs. -EINVAL (not a list), -ERANGE (CPUs the machine does
 * not have) with why; -EIO without a topology (logged).
 */
int wq_audit_cpus(struct wq_ctx *ctx, const char *cpus, struct wq_cpuset *iso, char *why, size_t whysz);
/* Open the trace for auditing iso (symbols loaded, or a warning). -errno with why; wq_audit_free() after either. */
int wq_audit_open(struct wq_ctx *ctx, const struct wq_cpuset *iso, struct wq_audit *a, char *why, size_t whysz);
/* Sample for seconds (less when cancel is), then group and judge. 0 or -errno. */
int wq_audit_sample(struct wq_audit *a, double seconds, const struct wq_cancel *cancel);
void wq_audit_free(struct wq_audit *a);
const char *wq_audit_verdict_name(enum wq_audit_verdict v);

#endif
