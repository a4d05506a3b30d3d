// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check --isolation: which work items ran on the isolated (isolcpus=,
 * nohz_full=) CPUs over a sampling window, grouped by workqueue and work
 * function, whether each can be moved and how; and the unbound kworkers
 * whose allowed CPUs include isolated ones.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/explain.h"
#include "../lib/isolate.h"
#include "../lib/macro.h"
#include "../lib/root.h"
#include "../lib/trace.h"
#include "../lib/wq.h"
#include "cli.h"
#include "isolation.h"
#include "json.h"

#define MAX_EVENTS (4UL << 20)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

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

enum verdict { V_CPUMASK, V_ROOT, V_STALE, V_PERCPU, V_APP, V_UNKNOWN };
static const char *const verdict_names[] = {
    [V_CPUMASK] = "cpumask", [V_ROOT] = "root-cpumask", [V_STALE] = "stale-worker",
    [V_PERCPU] = "per-cpu",  [V_APP] = "application",	[V_UNKNOWN] = "unknown",
};

struct judged {
	const struct wq_iso_row *r;
	char func[128], cpus[256], from[256], fix[400];
	const char *kind;
	enum verdict v;
	bool movable;
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

static void judge(struct cli *cli, struct comms *cm, const struct wq_trace *t, const struct wq_cpuset *root_mask,
		  const struct wq_iso_row *r, struct judged *j)
{
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
	if (strcmp(r->wq, "?") && wq_name_is_valid(sysfs) && wq_info_read(cli->ctx, sysfs, &wi) == 0 &&
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
		if (eff && wq_cpuset_intersects(eff, r->cpus)) {
			j->v = V_CPUMASK;
			snprintf(j->fix, sizeof(j->fix),
				 "wqctl set %s cpumask=housekeeping (profile: [workqueue %s] cpumask = housekeeping)",
				 sysfs, sysfs);
		} else {
			j->v = V_STALE;
			snprintf(j->fix, sizeof(j->fix),
				 "its cpumask excludes them: a worker of an older pool ran it; it goes when that "
				 "pool's workers retire (wqctl set %s cpumask=housekeeping rebuilds the pools)",
				 sysfs);
		}
		j->movable = true;
	} else if ((!in_sysfs && r->kind == WQ_WORKER_UNBOUND) || (in_sysfs && wi.unbound)) {
		/* unbound, not in sysfs: only the root unbound cpumask reaches it */
		if (root_mask && wq_cpuset_intersects(root_mask, r->cpus)) {
			j->v = V_ROOT;
			snprintf(
			    j->fix, sizeof(j->fix),
			    "not in sysfs; the root unbound cpumask includes them: wqctl knob cpumask=housekeeping "
			    "(profile: [global] cpumask = housekeeping)");
		} else {
			j->v = V_STALE;
			snprintf(j->fix, sizeof(j->fix),
				 "the root unbound cpumask excludes them: a worker of an older pool ran it");
		}
		j->movable = true;
	} else if (r->kind == WQ_WORKER_PERCPU || (in_sysfs && !wi.unbound)) {
		if (r->count && r->from_here == r->count && queuer && wq_worker_kind(queuer, &cpu) == WQ_WORKER_OTHER &&
		    wq_task_is_user(cli->ctx, r->queuer_pid)) {
			j->v = V_APP;
			snprintf(
			    j->fix, sizeof(j->fix),
			    "per-CPU, queued on the isolated CPU itself by %s (pid %d): the task's own system calls "
			    "(or its interrupts) cause it; %s",
			    queuer, r->queuer_pid, percpu_remedy(r->wq, j->func));
		} else {
			j->v = V_PERCPU;
			snprintf(j->fix, sizeof(j->fix), "%s", percpu_remedy(r->wq, j->func));
		}
	} else {
		j->v = V_UNKNOWN;
		snprintf(j->fix, sizeof(j->fix), "queued before the window began: sample longer (-i SECONDS)");
	}
	wq_info_clear(&wi);
}

/* Unbound kworkers allowed on isolated CPUs. */
struct kw {
	int pid;
	char comm[64];
	char *allowed, *iso;
};

static int scan_kworkers(struct wq_ctx *ctx, const struct wq_cpuset *iso, struct kw **out, size_t *n)
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
		struct kw *nv;
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
	const struct judged *x = a, *y = b;

	if (x->r->count != y->r->count)
		return x->r->count > y->r->count ? -1 : 1;
	return strcmp(x->func, y->func);
}

static int cmp_kw(const void *a, const void *b)
{
	return ((const struct kw *)a)->pid - ((const struct kw *)b)->pid;
}

enum {
	COL_WORKQUEUE,
	COL_FUNCTION,
	COL_KIND,
	COL_CPUS,
	COL_COUNT,
	COL_RUNTIME,
	COL_QUEUED_FROM,
	COL_VERDICT,
	COL_FIX,
};

static const struct colinfo cols[] = {
    [COL_WORKQUEUE] = {"WORKQUEUE", 0.15, 0, SCOLS_JSON_STRING,
		       "as the tracepoint names it; ? when queued before the window"},
    [COL_FUNCTION] = {"FUNCTION", 0.15, 0, SCOLS_JSON_STRING, "the work function (kernel symbol)"},
    [COL_KIND] = {"KIND", 0.05, 0, SCOLS_JSON_STRING, "unbound or per-cpu (the workqueue, else its worker)"},
    [COL_CPUS] = {"CPUS", 0.08, 0, SCOLS_JSON_STRING, "isolated CPUs it ran on"},
    [COL_COUNT] = {"COUNT", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "times it ran there"},
    [COL_RUNTIME] = {"RUNTIME_MS", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		     "its run time there, milliseconds (execute_start to execute_end)"},
    [COL_QUEUED_FROM] = {"QUEUED_FROM", 0.08, 0, SCOLS_JSON_STRING, "CPUs queue_work() was called on"},
    [COL_VERDICT] = {"VERDICT", 0.08, 0, SCOLS_JSON_STRING,
		     "cpumask, root-cpumask (movable), stale-worker, per-cpu, application (not movable), unknown"},
    [COL_FIX] = {"FIX", 0.3, SCOLS_FL_WRAP, SCOLS_JSON_STRING, "what moves it, or why nothing can"},
};

#define DEFAULT_COLS "WORKQUEUE,FUNCTION,KIND,CPUS,COUNT,RUNTIME_MS,QUEUED_FROM,VERDICT,FIX"

/* How many workqueues the tracepoints merge under this name (2 for events, events_unbound on 6.17+). */
static int queues_named(struct cli *cli, const char *name)
{
	const char *which;

	return wq_kver_name_sharers(&cli->ctx->kver, name, &which);
}

int cli_isolation_audit(struct cli *cli, double seconds, const char *cpus)
{
	struct sigaction sa = {.sa_handler = on_signal};
	_cleanup_cpuset_ struct wq_cpuset *iso = wq_cpuset_new();
	_cleanup_cpuset_ struct wq_cpuset *root_mask = wq_cpuset_new();
	_cleanup_free_ char *isol = NULL;
	struct comms cm = {.ctx = NULL};
	struct wq_iso_rows rows = {0};
	struct judged *jv = NULL;
	struct kw *kws = NULL;
	size_t nkw = 0, nev = 0, movable = 0;
	const struct wq_trace_ev *ev;
	struct wq_trace *t = NULL;
	struct wq_topo *topo;
	unsigned long long lost = 0, l;
	unsigned long total = 0;
	double start, took;
	bool full = false, f;
	struct out o;
	char why[300];
	unsigned int shared_said = 0;
	int rc, r;

	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (!cli->json) {
		rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), DEFAULT_COLS, NULL, "work");
		if (rc)
			return rc;
		out_free(&o);
	}
	if (!iso || !root_mask || !cli_ctx(cli) || !(topo = wq_ctx_topo(cli->ctx)))
		return EXIT_FAIL;
	cm.ctx = cli->ctx;
	if (cpus) {
		if (wq_cpuset_parse_list(iso, cpus) < 0 || wq_cpuset_is_empty(iso)) {
			cli_err(cli, "check: --cpus '%s': not a CPU list", cpus);
			return EXIT_USAGE;
		}
		if (!wq_cpuset_subset(iso, topo->possible)) {
			_cleanup_cpuset_ struct wq_cpuset *extra = wq_cpuset_dup(iso);
			_cleanup_free_ char *xl = NULL, *pl = wq_cpuset_format_list(topo->possible);

			if (extra) {
				wq_cpuset_andnot(extra, topo->possible);
				xl = wq_cpuset_format_list(extra);
			}
			bool one = extra && wq_cpuset_count(extra) == 1;

			cli_err(cli, "check: --cpus '%s': CPU%s %s do%s not exist here (possible CPUs: %s)", cpus,
				one ? "" : "s", xl ? xl : "?", one ? "es" : "", pl ? pl : "?");
			return EXIT_USAGE;
		}
	} else {
		wq_cpuset_copy(iso, topo->isolated);
		wq_cpuset_or(iso, topo->nohz_full);
	}
	if (wq_cpuset_is_empty(iso)) {
		cli_notice(cli, "check --isolation: no isolated or nohz_full CPUs here (isolcpus=, nohz_full=); "
				"--cpus LIST audits chosen CPUs");
		return EXIT_OK;
	}
	isol = wq_cpuset_format_list(iso);
	if (wq_root_cpumask(cli->ctx, root_mask) < 0)
		wq_cpuset_copy(root_mask, topo->possible);

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* a closed terminal too: the trace instance is removed */
	r = wq_trace_open(cli->ctx, WQ_TRACE_BUFFER_KB, &t, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "check --isolation: %s", why);
		return r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	if (wq_trace_load_symbols(cli->ctx, t, why, sizeof(why)) < 0)
		cli_warn(cli, "check --isolation: work functions are shown as addresses: %s", why);
	if (!cli->quiet)
		fprintf(stderr, "wqctl: check --isolation: sampling %.1f s on isolated CPUs %s\n", seconds, isol);
	start = cli_now();
	while (!stop && cli_now() - start < seconds) {
		struct timespec ts = {0, 200 * 1000 * 1000};

		nanosleep(&ts, NULL);
		if (wq_trace_collect(t, MAX_EVENTS, &l, &f) < 0)
			break;
		lost += l;
		full |= f;
	}
	took = cli_now() - start;
	wq_trace_collect(t, MAX_EVENTS, &l, &f);
	lost += l;
	full |= f;
	if (lost)
		cli_warn(cli, "check --isolation: %llu events lost (trace buffer full): counts are low", lost);
	if (full)
		cli_warn(cli, "check --isolation: stopped keeping events after %lu; sample a shorter window",
			 MAX_EVENTS);
	wq_trace_collected(t, &ev, &nev);
	r = wq_iso_group(ev, nev, iso, kind_cb, &cm, &rows);
	if (r < 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	jv = calloc(rows.n + 1, sizeof(*jv));
	if (!jv) {
		rc = EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < rows.n; i++) {
		judge(cli, &cm, t, root_mask, &rows.v[i], &jv[i]);
		total += rows.v[i].count;
		movable += jv[i].movable;
	}
	qsort(jv, rows.n, sizeof(*jv), cmp_judged);
	for (size_t i = 0; i < rows.n; i++)
		cli_note_shared_name(cli, jv[i].r->wq, &shared_said);
	if (scan_kworkers(cli->ctx, iso, &kws, &nkw) == 0 && nkw > 1)
		qsort(kws, nkw, sizeof(*kws), cmp_kw);

	if (cli->json) {
		json_object *doc = json_object_new_object(), *w = json_object_new_array(), *k = json_object_new_array();
		char b[32];

		json_object_object_add(doc, "isolated", json_object_new_string(isol ? isol : ""));
		snprintf(b, sizeof(b), "%.1f", took);
		json_object_object_add(doc, "seconds", json_object_new_double_s(took, b));
		json_object_object_add(doc, "lost", json_object_new_int64((int64_t)lost));
		json_object_object_add(doc, "isolated_ok", json_object_new_boolean(rows.n == 0));
		for (size_t i = 0; i < rows.n; i++) {
			json_object *x = json_object_new_object();

			json_object_object_add(x, "workqueue", json_object_new_string(jv[i].r->wq));
			json_object_object_add(x, "queues", json_object_new_int(queues_named(cli, jv[i].r->wq)));
			json_object_object_add(x, "function", json_object_new_string(jv[i].func));
			json_object_object_add(x, "kind", json_object_new_string(jv[i].kind));
			json_object_object_add(x, "cpus", json_object_new_string(jv[i].cpus));
			json_object_object_add(x, "count", json_object_new_int64((int64_t)jv[i].r->count));
			snprintf(b, sizeof(b), "%.3f", (double)jv[i].r->run_ns / 1e6);
			json_object_object_add(x, "runtime_ms",
					       json_object_new_double_s((double)jv[i].r->run_ns / 1e6, b));
			json_object_object_add(x, "queued_from", json_object_new_string(jv[i].from));
			json_object_object_add(x, "queued_here", json_object_new_int64((int64_t)jv[i].r->from_here));
			json_object_object_add(x, "movable", json_object_new_boolean(jv[i].movable));
			json_object_object_add(x, "verdict", json_object_new_string(verdict_names[jv[i].v]));
			json_object_object_add(x, "fix", json_object_new_string(jv[i].fix));
			json_object_array_add(w, x);
		}
		for (size_t i = 0; i < nkw; i++) {
			json_object *x = json_object_new_object();

			json_object_object_add(x, "pid", json_object_new_int(kws[i].pid));
			json_object_object_add(x, "comm", json_object_new_string(kws[i].comm));
			json_object_object_add(x, "cpus_allowed", json_object_new_string(kws[i].allowed));
			json_object_object_add(x, "isolated", json_object_new_string(kws[i].iso ? kws[i].iso : ""));
			json_object_array_add(k, x);
		}
		json_object_object_add(doc, "work", w);
		json_object_object_add(doc, "kworkers", k);
		rc = json_print(doc);
	} else {
		rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), DEFAULT_COLS, NULL, "work");
		if (rc)
			goto out;
		for (size_t i = 0; i < rows.n; i++) {
			struct libscols_line *ln = out_line(&o);

			out_set(&o, ln, COL_WORKQUEUE, jv[i].r->wq);
			out_set(&o, ln, COL_FUNCTION, jv[i].func);
			out_set(&o, ln, COL_KIND, jv[i].kind);
			out_set(&o, ln, COL_CPUS, jv[i].cpus);
			out_setf(&o, ln, COL_COUNT, "%lu", jv[i].r->count);
			out_setf(&o, ln, COL_RUNTIME, "%.3f", (double)jv[i].r->run_ns / 1e6);
			out_set(&o, ln, COL_QUEUED_FROM, jv[i].from);
			out_set(&o, ln, COL_VERDICT, verdict_names[jv[i].v]);
			out_set(&o, ln, COL_FIX, jv[i].fix);
		}
		if (rows.n)
			rc = out_print(&o);
		out_free(&o);
		if (!cli->raw && !cli->pairs) {
			for (size_t i = 0; i < nkw; i++)
				printf("unbound worker %s (pid %d) may run on isolated CPUs %s (allowed %s)\n",
				       kws[i].comm, kws[i].pid, kws[i].iso ? kws[i].iso : "?", kws[i].allowed);
			if (rows.n)
				printf(
				    "isolation: no: %zu work function%s ran %lu time%s on isolated CPUs %s in %.1f s; "
				    "%zu movable, %zu not\n",
				    rows.n, rows.n == 1 ? "" : "s", total, total == 1 ? "" : "s", isol, took, movable,
				    rows.n - movable);
			else
				printf("isolation: yes: no workqueue work ran on isolated CPUs %s in %.1f s\n", isol,
				       took);
		}
	}
	if (rc == EXIT_OK && rows.n)
		rc = EXIT_FINDINGS;
out:
	for (size_t i = 0; i < nkw; i++) {
		free(kws[i].allowed);
		free(kws[i].iso);
	}
	free(kws);
	free(jv);
	free(cm.v);
	wq_iso_rows_free(&rows);
	wq_trace_close(t);
	return rc;
}
