// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The isolation audit (check --isolation): the workqueue tracepoints
 * sampled over a window, the work that ran on the audited CPUs grouped by
 * workqueue and function (isolate.c), each group judged (movable by a
 * cpumask or the root mask, a stale worker, per-CPU, or the application's
 * own), and the unbound kworkers whose allowed CPUs include audited ones.
 */
#define _GNU_SOURCE
#include "audit.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/explain.h"
#include "../util/macro.h"
#include "../core/root.h"
#include "../core/wq.h"

#define MAX_EVENTS (4UL << 20)

/* comm of a pid, cached for the run (kworkers keep their pid) */
struct comms {
	struct {
		int pid;
		char comm[64];
	} * v;
	size_t n;
	struct wq_ctx *ctx;
};

static const char *comm_of(struct comms *c, int pid)
{
	char rel[64], buf[64];
	void *nv;

	if (pid < 0)
		return NULL;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].pid == pid)
			return c->v[i].comm[0] ? c->v[i].comm : NULL;
	nv = realloc(c->v, sizeof(*c->v) * (c->n + 1));
	if (!nv)
		return NULL;
	c->v = nv;
	c->v[c->n].pid = pid;
	c->v[c->n].comm[0] = '\0';
	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	if (pid == 0)
		snprintf(c->v[c->n].comm, sizeof(c->v[c->n].comm), "swapper");
	else if (wq_root_read_buf(c->ctx->root, rel, buf, sizeof(buf)) >= 0)
		snprintf(c->v[c->n].comm, sizeof(c->v[c->n].comm), "%.*s", (int)strcspn(buf, "\n"), buf);
	c->n++;
	return c->v[c->n - 1].comm[0] ? c->v[c->n - 1].comm : NULL;
}

static enum wq_worker_kind kind_cb(int pid, void *data)
{
	const char *comm = comm_of(data, pid);
	int cpu;

	return comm ? wq_worker_kind(comm, &cpu) : WQ_WORKER_OTHER;
}

/* The CPU list of a "Cpus_allowed_list:" line of proc/PID/status, or NULL. */
static char *allowed_of(struct wq_ctx *ctx, int pid)
{
	_cleanup_free_ char *st = NULL;
	char rel[64], *p;

	snprintf(rel, sizeof(rel), "proc/%d/status", pid);
	if (wq_root_read(ctx->root, rel, &st) < 0 || !(p = strstr(st, "Cpus_allowed_list:")))
		return NULL;
	p += strlen("Cpus_allowed_list:");
	p += strspn(p, " \t");
	return strndup(p, strcspn(p, "\n"));
}

static const char *const verdict_names[] = {
    [WQ_AUDIT_CPUMASK] = "cpumask", [WQ_AUDIT_ROOT] = "root-cpumask", [WQ_AUDIT_STALE] = "stale-worker",
    [WQ_AUDIT_PERCPU] = "per-cpu",  [WQ_AUDIT_APP] = "application",   [WQ_AUDIT_UNKNOWN] = "unknown",
};

/* What can be done about per-CPU work of a known function or workqueue. */
static const char *percpu_remedy(const char *wq, const char *func)
{
	if (!strcmp(func, "vmstat_update"))
		return "vmstat: raise vm.stat_interval (sysctl); a nohz_full CPU quiesces it while it runs one task";
	if (!strcmp(func, "lru_add_drain_per_cpu"))
		return "queued by lru_add_drain_all() (mlock, page migration, compaction) from another CPU";
	if (strstr(wq, "power_efficient"))
		return "workqueue.power_efficient=Y on the kernel command line makes this workqueue unbound (forced "
		       "on with nohz_full= since 6.9)";
	return "not movable: per-CPU work runs where it is queued; only the queuing side (the driver's or "
	       "subsystem's own option) can avoid it";
}

/*
 * The cpumask value that keeps work off cpus: "housekeeping" when they are
 * isolated (the kernel's housekeeping set excludes them), else the
 * housekeeping CPUs less these as a list: a CPU audited that is not
 * isolated is in the housekeeping set, which would not move anything.
 */
static void away_from(struct wq_ctx *ctx, const struct wq_cpuset *cpus, char *buf, size_t size)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	_cleanup_cpuset_ struct wq_cpuset *hk = wq_cpuset_new();
	_cleanup_free_ char *list = NULL;

	snprintf(buf, size, "housekeeping");
	if (!t || !hk || wq_topo_housekeeping(t, hk) < 0 || !wq_cpuset_intersects(hk, cpus))
		return;
	wq_cpuset_andnot(hk, cpus);
	if (!wq_cpuset_is_empty(hk) && (list = wq_cpuset_format_list(hk)))
		snprintf(buf, size, "%s", list);
}

static void judge(struct wq_ctx *ctx, struct comms *cm, const struct wq_trace *t, const struct wq_cpuset *root_mask,
		  const struct wq_iso_row *r, struct wq_audit_row *j)
{
	char away[256];
	_cleanup_free_ char *cl = wq_cpuset_format_list(r->cpus);
	_cleanup_free_ char *fl = wq_cpuset_format_list(r->from);
	const char *sym = wq_trace_symbol((struct wq_trace *)t, r->fn), *queuer = comm_of(cm, r->queuer_pid);
	char sysfs[64];
	struct wq_info wi;
	bool in_sysfs = false;
	int cpu;

	memset(j, 0, sizeof(*j));
	j->r = r;
	if (sym)
		snprintf(j->func, sizeof(j->func), "%s", sym);
	else
		snprintf(j->func, sizeof(j->func), "0x%llx", (unsigned long long)r->fn);
	snprintf(j->cpus, sizeof(j->cpus), "%s", cl ? cl : "?");
	snprintf(j->from, sizeof(j->from), "%s", fl && *fl ? fl : "-");
	j->kind = r->kind == WQ_WORKER_UNBOUND ? "unbound" : r->kind == WQ_WORKER_PERCPU ? "per-cpu" : "?";
	snprintf(sysfs, sizeof(sysfs), "%s", r->wq);
	for (char *p = sysfs; *p; p++)
		if (*p == '/')
			*p = '!';
	memset(&wi, 0, sizeof(wi));
	if (strcmp(r->wq, "?") && wq_name_is_valid(sysfs) && wq_info_read(ctx, sysfs, &wi) == 0 &&
	    !(wi.bad & (1U << WQ_A_MAX_ACTIVE))) {
		in_sysfs = true;
		j->kind = wi.unbound ? "unbound" : "per-cpu";
	}
	if (in_sysfs && wi.unbound) {
		/* where its items may run: its cpumask within the root mask (the root mask if they miss) */
		_cleanup_cpuset_ struct wq_cpuset *eff = wi.cpumask ? wq_cpuset_dup(wi.cpumask) : NULL;

		if (eff && root_mask) {
			wq_cpuset_and(eff, root_mask);
			if (wq_cpuset_is_empty(eff))
				wq_cpuset_copy(eff, root_mask);
		}
		away_from(ctx, r->cpus, away, sizeof(away));
		if (eff && wq_cpuset_intersects(eff, r->cpus)) {
			j->v = WQ_AUDIT_CPUMASK;
			snprintf(j->fix, sizeof(j->fix),
				 "wqctl set %s cpumask=%s (profile: [workqueue %s] cpumask = %s)", sysfs, away, sysfs,
				 away);
		} else {
			j->v = WQ_AUDIT_STALE;
			snprintf(j->fix, sizeof(j->fix),
				 "its cpumask excludes them: a worker of an older pool ran it; it goes when that "
				 "pool's workers retire (wqctl set %s cpumask=%s rebuilds the pools)",
				 sysfs, away);
		}
		j->movable = true;
	} else if ((!in_sysfs && r->kind == WQ_WORKER_UNBOUND) || (in_sysfs && wi.unbound)) {
		/* unbound, not in sysfs: only the root unbound cpumask reaches it */
		if (root_mask && wq_cpuset_intersects(root_mask, r->cpus)) {
			away_from(ctx, r->cpus, away, sizeof(away));
			j->v = WQ_AUDIT_ROOT;
			snprintf(j->fix, sizeof(j->fix),
				 "not in sysfs; the root unbound cpumask includes them: wqctl knob cpumask=%s "
				 "(profile: [global] cpumask = %s)",
				 away, away);
		} else {
			j->v = WQ_AUDIT_STALE;
			snprintf(j->fix, sizeof(j->fix),
				 "the root unbound cpumask excludes them: a worker of an older pool ran it");
		}
		j->movable = true;
	} else if (r->kind == WQ_WORKER_PERCPU || (in_sysfs && !wi.unbound)) {
		if (r->count && r->from_here == r->count && queuer && wq_worker_kind(queuer, &cpu) == WQ_WORKER_OTHER &&
		    wq_task_is_user(ctx, r->queuer_pid)) {
			j->v = WQ_AUDIT_APP;
			snprintf(
			    j->fix, sizeof(j->fix),
			    "per-CPU, queued on the isolated CPU itself by %s (pid %d): the task's own system calls "
			    "(or its interrupts) cause it; %s",
			    queuer, r->queuer_pid, percpu_remedy(r->wq, j->func));
		} else {
			j->v = WQ_AUDIT_PERCPU;
			snprintf(j->fix, sizeof(j->fix), "%s", percpu_remedy(r->wq, j->func));
		}
	} else {
		j->v = WQ_AUDIT_UNKNOWN;
		snprintf(j->fix, sizeof(j->fix), "queued before the window began: sample longer (-i SECONDS)");
	}
	wq_info_clear(&wi);
}

/* Unbound kworkers allowed on isolated CPUs. */
static int scan_kworkers(struct wq_ctx *ctx, const struct wq_cpuset *iso, struct wq_audit_kworker **out, size_t *n)
{
	DIR *d = wq_root_opendir(ctx->root, "proc");
	struct dirent *de;

	*out = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char rel[64], comm[64], *end;
		long pid = strtol(de->d_name, &end, 10);
		_cleanup_cpuset_ struct wq_cpuset *a = NULL;
		char *allowed;
		struct wq_audit_kworker *nv;
		int cpu;

		if (*end || pid <= 0)
			continue;
		snprintf(rel, sizeof(rel), "proc/%ld/comm", pid);
		if (wq_root_read_buf(ctx->root, rel, comm, sizeof(comm)) < 0)
			continue;
		comm[strcspn(comm, "\n")] = '\0';
		if (wq_worker_kind(comm, &cpu) != WQ_WORKER_UNBOUND || !(allowed = allowed_of(ctx, (int)pid)))
			continue;
		a = wq_cpuset_new();
		if (!a || wq_cpuset_parse_list(a, allowed) < 0 || !wq_cpuset_intersects(a, iso)) {
			free(allowed);
			continue;
		}
		wq_cpuset_and(a, iso);
		nv = realloc(*out, sizeof(**out) * (*n + 1));
		if (!nv) {
			free(allowed);
			break;
		}
		*out = nv;
		nv[*n].pid = (int)pid;
		snprintf(nv[*n].comm, sizeof(nv[*n].comm), "%s", comm);
		nv[*n].allowed = allowed;
		nv[*n].iso = wq_cpuset_format_list(a);
		(*n)++;
	}
	closedir(d);
	return 0;
}

static int cmp_judged(const void *a, const void *b)
{
	const struct wq_audit_row *x = a, *y = b;

	if (x->r->count != y->r->count)
		return x->r->count > y->r->count ? -1 : 1;
	return strcmp(x->func, y->func);
}

static int cmp_kw(const void *a, const void *b)
{
	return ((const struct wq_audit_kworker *)a)->pid - ((const struct wq_audit_kworker *)b)->pid;
}

const char *wq_audit_verdict_name(enum wq_audit_verdict v)
{
	return verdict_names[v];
}

int wq_audit_cpus(struct wq_ctx *ctx, const char *cpus, struct wq_cpuset *iso, char *why, size_t whysz)
{
	struct wq_topo *topo = wq_ctx_topo(ctx);

	if (!topo)
		return -EIO;
	if (!cpus) {
		wq_cpuset_copy(iso, topo->isolated);
		wq_cpuset_or(iso, topo->nohz_full);
		return 0;
	}
	if (wq_cpuset_parse_list(iso, cpus) < 0 || wq_cpuset_is_empty(iso)) {
		snprintf(why, whysz, "not a CPU list");
		return -EINVAL;
	}
	if (!wq_cpuset_subset(iso, topo->possible)) {
		_cleanup_cpuset_ struct wq_cpuset *extra = wq_cpuset_dup(iso);
		_cleanup_free_ char *xl = NULL, *pl = wq_cpuset_format_list(topo->possible);
		bool one;

		if (extra) {
			wq_cpuset_andnot(extra, topo->possible);
			xl = wq_cpuset_format_list(extra);
		}
		one = extra && wq_cpuset_count(extra) == 1;
		snprintf(why, whysz, "CPU%s %s do%s not exist here (possible CPUs: %s)", one ? "" : "s", xl ? xl : "?",
			 one ? "es" : "", pl ? pl : "?");
		return -ERANGE;
	}
	return 0;
}

int wq_audit_open(struct wq_ctx *ctx, const struct wq_cpuset *iso, struct wq_audit *a, char *why, size_t whysz)
{
	struct wq_topo *topo = wq_ctx_topo(ctx);
	char sym[300];
	int r;

	memset(a, 0, sizeof(*a));
	a->ctx = ctx;
	if (!topo || !(a->iso = wq_cpuset_dup(iso)) || !(a->root_mask = wq_cpuset_new()) ||
	    !(a->isolated = wq_cpuset_format_list(iso))) {
		snprintf(why, whysz, "%s", topo ? wq_strerror(ENOMEM) : "no topology");
		return -ENOMEM;
	}
	if (wq_root_cpumask(ctx, a->root_mask) < 0)
		wq_cpuset_copy(a->root_mask, topo->possible);
	r = wq_trace_open(ctx, WQ_TRACE_BUFFER_KB, &a->trace, why, whysz);
	if (r < 0)
		return r;
	if (wq_trace_load_symbols(ctx, a->trace, sym, sizeof(sym)) < 0)
		wq_log(ctx, WQ_LOG_WARNING, "check --isolation: work functions are shown as addresses: %s", sym);
	return 0;
}

int wq_audit_sample(struct wq_audit *a, double seconds, const struct wq_cancel *cancel)
{
	struct comms cm = {.ctx = a->ctx};
	const struct wq_trace_ev *ev;
	unsigned long long l;
	size_t nev = 0;
	double start;
	bool f;
	int r;

	start = wq_mono_now();
	while (!wq_cancelled(cancel) && wq_mono_now() - start < seconds) {
		struct timespec ts = {0, 200 * 1000 * 1000};

		nanosleep(&ts, NULL);
		if (wq_trace_collect(a->trace, MAX_EVENTS, &l, &f) < 0)
			break;
		a->lost += l;
		a->full |= f;
	}
	a->seconds = wq_mono_now() - start;
	wq_trace_collect(a->trace, MAX_EVENTS, &l, &f);
	a->lost += l;
	a->full |= f;
	if (a->lost)
		wq_log(a->ctx, WQ_LOG_WARNING,
		       "check --isolation: %llu events lost (trace buffer full): counts are low", a->lost);
	if (a->full)
		wq_log(a->ctx, WQ_LOG_WARNING,
		       "check --isolation: stopped keeping events after %lu; sample a shorter window", MAX_EVENTS);
	wq_trace_collected(a->trace, &ev, &nev);
	r = wq_iso_group(ev, nev, a->iso, kind_cb, &cm, &a->grouped);
	if (r < 0 || !(a->rows = calloc(a->grouped.n + 1, sizeof(*a->rows)))) {
		free(cm.v);
		return r < 0 ? r : -ENOMEM;
	}
	a->n = a->grouped.n;
	for (size_t i = 0; i < a->n; i++) {
		const char *which;

		judge(a->ctx, &cm, a->trace, a->root_mask, &a->grouped.v[i], &a->rows[i]);
		a->rows[i].queues = wq_kver_name_sharers(&a->ctx->kver, a->grouped.v[i].wq, &which);
		a->total += a->grouped.v[i].count;
		a->movable += a->rows[i].movable;
	}
	free(cm.v);
	qsort(a->rows, a->n, sizeof(*a->rows), cmp_judged);
	if (scan_kworkers(a->ctx, a->iso, &a->kw, &a->nkw) == 0 && a->nkw > 1)
		qsort(a->kw, a->nkw, sizeof(*a->kw), cmp_kw);
	return 0;
}

void wq_audit_free(struct wq_audit *a)
{
	for (size_t i = 0; i < a->nkw; i++) {
		free(a->kw[i].allowed);
		free(a->kw[i].iso);
	}
	free(a->kw);
	free(a->rows);
	wq_iso_rows_free(&a->grouped);
	if (a->trace)
		wq_trace_close(a->trace);
	wq_cpuset_free(a->iso);
	wq_cpuset_free(a->root_mask);
	free(a->isolated);
	memset(a, 0, sizeof(*a));
}
