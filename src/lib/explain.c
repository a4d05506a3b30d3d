// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "explain.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "macro.h"
#include "topo.h"

/* the model's own notes and the caller's go the same way */
#define note wq_explain_note

void wq_explain_note(struct wq_explain *ex, const char *fmt, ...)
{
	va_list ap;

	if (ex->nnotes >= WQ_EXPLAIN_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(ex->notes[ex->nnotes++], sizeof(ex->notes[0]), fmt, ap);
	va_end(ap);
}

void wq_explain_clear(struct wq_explain *ex)
{
	for (int i = 0; i < ex->ncounters; i++)
		wq_cpuset_free(ex->counters[i].cpus);
	free(ex->counters);
	wq_cpuset_free(ex->effective);
	memset(ex, 0, sizeof(*ex));
}

int wq_root_cpumask(struct wq_ctx *ctx, struct wq_cpuset *out)
{
	_cleanup_free_ char *s = NULL;
	_cleanup_cpuset_ struct wq_cpuset *g = NULL;
	struct wq_topo *t;
	int r;

	/* Read once per context: show/check consult it for every workqueue. */
	if (ctx->root_mask)
		return wq_cpuset_copy(out, ctx->root_mask);
	t = wq_ctx_topo(ctx);
	g = wq_cpuset_new();
	if (!t || !g)
		return t ? -ENOMEM : -EIO;
	r = wq_root_read(ctx->root, WQ_P_WQ "/cpumask", &s);
	if (r == -ENOENT) {
		r = wq_cpuset_copy(g, t->possible);
	} else if (r == 0) {
		r = wq_cpuset_parse_hex(g, s);
		wq_cpuset_and(g, t->possible);
	}
	if (r < 0) {
		if (!ctx->root_mask_logged)
			wq_log(ctx, WQ_LOG_ERR, "%s: cannot read the root cpumask: %s", WQ_P_WQ "/cpumask",
			       wq_strerror(r == -EINVAL ? WQ_EBADCPUS : -r));
		ctx->root_mask_logged = true;
		return r;
	}
	ctx->root_mask = g;
	g = NULL;
	return wq_cpuset_copy(out, ctx->root_mask);
}

int wq_effective_cpus(struct wq_ctx *ctx, const struct wq_cpuset *requested, struct wq_cpuset *out)
{
	_cleanup_cpuset_ struct wq_cpuset *g = wq_cpuset_new();
	int r;

	if (!g)
		return -ENOMEM;
	r = wq_root_cpumask(ctx, g);
	if (r < 0)
		return r;
	r = wq_cpuset_copy(out, requested);
	if (r < 0)
		return r;
	wq_cpuset_and(out, g);
	/* The kernel silently falls back to the root mask (wqattrs_actualize_cpumask). */
	if (wq_cpuset_is_empty(out))
		return wq_cpuset_copy(out, g);
	return 0;
}

static struct wq_counter *add_counter(struct wq_explain *ex, int node, long limit)
{
	struct wq_counter *n = realloc(ex->counters, sizeof(*n) * (size_t)(ex->ncounters + 1));

	if (!n)
		return NULL;
	ex->counters = n;
	n = &ex->counters[ex->ncounters];
	n->node = node;
	n->limit = limit;
	n->cpus = wq_cpuset_new();
	if (!n->cpus)
		return NULL;
	ex->ncounters++;
	return n;
}

static struct wq_counter *find_counter(struct wq_explain *ex, int node)
{
	for (int i = 0; i < ex->ncounters; i++)
		if (ex->counters[i].node == node)
			return &ex->counters[i];
	return NULL;
}

static int counter_sort(const void *a, const void *b)
{
	const struct wq_counter *x = a, *y = b;
	/* dfl (-1) last */
	unsigned int kx = (unsigned int)x->node, ky = (unsigned int)y->node;

	return (kx > ky) - (kx < ky);
}

static long ceil_div(long a, long b)
{
	return (a + b - 1) / b;
}

/* Does NUMA affinity apply in era A (KERNEL.md §4.1)? */
static bool era_a_numa(struct wq_ctx *ctx, struct wq_topo *t, const struct wq_info *wq)
{
	char buf[16];
	int nodes_with_cpus = 0;

	for (int i = 0; i < t->nr_nodes; i++)
		nodes_with_cpus += !wq_cpuset_is_empty(t->nodes[i].cpus);
	if (nodes_with_cpus < 2)
		return false;
	if (wq_root_read_buf(ctx->root, WQ_P_PARAMS "/disable_numa", buf, sizeof(buf)) > 0 &&
	    (buf[0] == 'Y' || buf[0] == '1'))
		return false;
	/*
	 * The kernel needs a node for every possible CPU; sysfs lists only
	 * present CPUs under nodes, so the online ones are what can be checked.
	 */
	wq_cpuset_for_each (c, t->online)
		if (wq_topo_cpu_node(t, (unsigned int)c) < 0)
			return false;
	return wq->numa != 0;
}

static int model_a(struct wq_ctx *ctx, struct wq_topo *t, const struct wq_info *wq, const struct wq_cpuset *issuing,
		   struct wq_explain *ex)
{
	long m = ex->max_active;
	struct wq_counter *c;

	if (!era_a_numa(ctx, t, wq)) {
		c = add_counter(ex, -1, m);
		if (!c)
			return -ENOMEM;
		wq_cpuset_copy(c->cpus, issuing);
		note(ex, "one pool for the whole workqueue (no NUMA affinity): max_active %ld is system-wide", m);
		return 0;
	}
	wq_cpuset_for_each (cpu, issuing) {
		int n = wq_topo_cpu_node(t, (unsigned int)cpu);
		const struct wq_node *node = wq_topo_node(t, n);
		bool own = false;

		if (node) {
			_cleanup_cpuset_ struct wq_cpuset *x = wq_cpuset_dup(ex->effective);

			if (!x)
				return -ENOMEM;
			wq_cpuset_and(x, node->cpus);
			/* Own pwq iff the node has online CPUs in E and E is not inside it. */
			own = wq_cpuset_intersects(x, t->online) && !wq_cpuset_equal(x, ex->effective);
		}
		c = find_counter(ex, own ? n : -1);
		if (!c && !(c = add_counter(ex, own ? n : -1, m)))
			return -ENOMEM;
		wq_cpuset_set(c->cpus, (unsigned int)cpu);
	}
	note(ex, "kernels up to 6.5 apply max_active per NUMA node pool: %d x %d pools = %ld", ex->max_active,
	     ex->ncounters, (long)ex->max_active * ex->ncounters);
	if (ex->max_active == 1 && ex->ncounters > 1)
		note(ex, "numa reads 1, so this workqueue was created with max_active above 1: writing 1 later does "
			 "not order it");
	return 0;
}

static int model_b(struct wq_topo *t, const struct wq_cpuset *issuing, struct wq_explain *ex)
{
	long m = ex->max_active;

	wq_cpuset_for_each (cpu, issuing) {
		int node = wq_topo_cpu_node(t, (unsigned int)cpu);
		struct wq_counter *c = find_counter(ex, node);

		if (!c && !(c = add_counter(ex, node, 0)))
			return -ENOMEM;
		c->limit += m;
		wq_cpuset_set(c->cpus, (unsigned int)cpu);
	}
	return 0;
}

static int model_c(struct wq_ctx *ctx, struct wq_topo *t, const struct wq_cpuset *issuing, struct wq_explain *ex)
{
	_cleanup_cpuset_ struct wq_cpuset *eo = wq_cpuset_dup(ex->effective);
	_cleanup_cpuset_ struct wq_cpuset *p = wq_cpuset_new();
	long m = ex->max_active, mn = ex->min_active, total;
	int scope = wq_scope_from_name(ex->scope);
	struct wq_pods *pods;

	if (!eo || !p)
		return -ENOMEM;
	if (scope < 0) {
		ex->why = "the pods of this affinity scope are not modelled";
		ex->max_inflight = -1;
		return 0;
	}
	if (!wq_ctx_topo_pods(ctx, scope))
		return -EIO;
	pods = &t->pods[scope];
	wq_cpuset_and(eo, t->online);
	total = wq_cpuset_count(eo);

	wq_cpuset_for_each (cpu, issuing) {
		int counter = -1;
		struct wq_counter *c;

		/* P(c) = pod(c) & E if it holds an online CPU, else E (wq_calc_pod_cpumask). */
		wq_cpuset_zero(p);
		if ((unsigned int)cpu < t->nr_cpu_ids && pods->cpu_pod[cpu] >= 0)
			wq_cpuset_copy(p, pods->pod[pods->cpu_pod[cpu]].cpus);
		wq_cpuset_and(p, ex->effective);
		if (!wq_cpuset_intersects(p, t->online))
			wq_cpuset_copy(p, ex->effective);
		for (int i = 0; i < t->nr_nodes; i++)
			if (!wq_cpuset_is_empty(t->nodes[i].cpus) && wq_cpuset_subset(p, t->nodes[i].cpus))
				counter = t->nodes[i].id;
		c = find_counter(ex, counter);
		if (!c) {
			long lim = m;

			if (counter >= 0) {
				_cleanup_cpuset_ struct wq_cpuset *x = wq_cpuset_dup(eo);

				if (!x)
					return -ENOMEM;
				wq_cpuset_and(x, wq_topo_node(t, counter)->cpus);
				/* node_max = clamp(ceil(M * c[n] / T), min_active, M) */
				lim = total ? ceil_div(m * (long)wq_cpuset_count(x), total) : mn;
				if (lim < mn)
					lim = mn;
				if (lim > m)
					lim = m;
			}
			c = add_counter(ex, counter, lim);
			if (!c)
				return -ENOMEM;
		}
		wq_cpuset_set(c->cpus, (unsigned int)cpu);
	}
	return 0;
}

/*
 * Work queued only from the CPUs F (KERNEL.md §4.8): queue_work() from a CPU
 * of the root mask G uses that CPU's pool; from any other CPU the kernel
 * picks the next online CPU of G round-robin (wq_select_unbound_cpu), so then
 * every CPU of G & O may receive it. issuing holds G & O on entry.
 */
static int issuing_from(struct wq_explain *ex, struct wq_topo *t, const struct wq_cpuset *from,
			struct wq_cpuset *issuing)
{
	_cleanup_cpuset_ struct wq_cpuset *outside = wq_cpuset_dup(from);
	_cleanup_free_ char *l = NULL;

	if (!outside)
		return -ENOMEM;
	wq_cpuset_and(outside, t->online);
	wq_cpuset_andnot(outside, issuing);
	l = wq_cpuset_format_list(from);
	if (wq_cpuset_is_empty(outside)) {
		wq_cpuset_and(issuing, from);
		note(ex, "work queued only from CPUs %s", l ? l : "?");
	} else {
		note(ex,
		     "work queued from CPUs %s: those outside the root cpumask hand it round-robin to every CPU of the "
		     "root mask",
		     l ? l : "?");
	}
	return 0;
}

int wq_explain(struct wq_ctx *ctx, const struct wq_info *wq, const struct wq_whatif *wi, struct wq_explain *ex)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	_cleanup_cpuset_ struct wq_cpuset *issuing = wq_cpuset_new();
	int r;

	memset(ex, 0, sizeof(*ex));
	ex->max_inflight = -1;
	ex->min_active = -1;
	if (!t || !issuing)
		return t ? -ENOMEM : -EIO;
	ex->unbound = wq->unbound;
	ex->max_active = wi && wi->max_active > 0 ? wi->max_active : wq->max_active;
	ex->era = wq_ctx_era(ctx, &ex->why);
	ex->effective = wq_cpuset_new();
	if (!ex->effective)
		return -ENOMEM;
	if (ex->max_active < 1) {
		/* an unreadable or malformed max_active file, and no what-if value */
		ex->why = "max_active cannot be read";
		return 0;
	}

	if (!wq->unbound) {
		/* Per-cpu: one pool per CPU, each with max_active, every era. */
		wq_cpuset_copy(issuing, t->online);
		if (wi && wi->from)
			wq_cpuset_and(issuing, wi->from);
		wq_cpuset_copy(ex->effective, t->online);
		r = model_b(t, issuing, ex);
		if (r < 0)
			return r;
		note(ex, "per-cpu workqueue: max_active applies on each CPU: %d x %u CPUs = %ld", ex->max_active,
		     wq_cpuset_count(issuing), (long)ex->max_active * wq_cpuset_count(issuing));
		ex->why = NULL;
		goto sum;
	}

	r = wq_root_cpumask(ctx, issuing);
	if (r < 0)
		return r;
	{
		const struct wq_cpuset *req = wi && wi->cpus ? wi->cpus : wq->cpumask;

		r = req ? wq_effective_cpus(ctx, req, ex->effective) : wq_cpuset_copy(ex->effective, issuing);
		if (r < 0)
			return r;
		if (req) {
			_cleanup_cpuset_ struct wq_cpuset *x = wq_cpuset_dup(req);

			if (!x)
				return -ENOMEM;
			wq_cpuset_and(x, issuing);
			if (wq_cpuset_is_empty(x))
				note(
				    ex,
				    "the requested cpumask misses the root unbound cpumask: the kernel uses the root mask");
		}
	}
	/* Work is queued from the CPUs of the root mask that are online (wq_select_unbound_cpu). */
	wq_cpuset_and(issuing, t->online);
	if (wi && wi->from) {
		r = issuing_from(ex, t, wi->from, issuing);
		if (r < 0)
			return r;
	}

	if (wi && wi->scope && strcmp(wi->scope, "default"))
		snprintf(ex->scope, sizeof(ex->scope), "%s", wi->scope);
	else if (wq->scope_eff[0] && !(wi && wi->scope))
		snprintf(ex->scope, sizeof(ex->scope), "%s", wq->scope_eff);
	else
		wq_default_scope(ctx, ex->scope, sizeof(ex->scope));

	if (ex->era == WQ_ERA_UNKNOWN)
		return 0;
	if (ex->era != WQ_ERA_C && wq_is_implicitly_ordered(wq) && !(wi && wi->max_active)) {
		/*
		 * alloc_workqueue() made unbound workqueues *created* with
		 * max_active 1 ordered up to 6.8; writing 1 later does not.
		 */
		ex->ordered = true;
		struct wq_counter *c = add_counter(ex, -1, 1);

		if (!c)
			return -ENOMEM;
		wq_cpuset_copy(c->cpus, issuing);
		note(ex,
		     "created unbound with max_active 1: implicitly ordered on kernels up to 6.8, one item at a time; "
		     "writing max_active removes the ordering");
		goto sum;
	}
	switch (ex->era) {
	case WQ_ERA_A: r = model_a(ctx, t, wq, issuing, ex); break;
	case WQ_ERA_B:
		r = model_b(t, issuing, ex);
		note(ex, "on 6.6-6.8 this limit applies per CPU: %d x %u CPUs = %ld", ex->max_active,
		     wq_cpuset_count(issuing), (long)ex->max_active * wq_cpuset_count(issuing));
		break;
	case WQ_ERA_C:
		ex->min_active = 8;
		if (ex->min_active > wq->max_active)
			ex->min_active = wq->max_active;
		if (wi && wi->max_active > 0 && ex->min_active > wi->max_active)
			ex->min_active = wi->max_active;
		if (wi && wi->min_active > 0) {
			ex->min_active = wi->min_active;
		} else {
			/* lowered by a max_active wqctl wrote to this instance of the workqueue */
			int low = wq_minact_get(ctx, wq->name);

			if (low > 0 && low < ex->min_active) {
				ex->min_active = low;
				ex->min_lowered = true;
			}
		}
		r = model_c(ctx, t, issuing, ex);
		if (r == 0 && ex->why)
			return 0;
		break;
	default: r = 0;
	}
	if (r < 0)
		return r;
sum:
	if (ex->ncounters > 1)
		qsort(ex->counters, (size_t)ex->ncounters, sizeof(*ex->counters), counter_sort);
	ex->max_inflight = 0;
	for (int i = 0; i < ex->ncounters; i++)
		ex->max_inflight += ex->counters[i].limit;
	if (ex->era == WQ_ERA_C && wq->unbound && !ex->ordered) {
		bool dfl = find_counter(ex, -1) != NULL;

		note(ex,
		     "since 6.9 max_active %d is system-wide, split across NUMA nodes by online CPUs in the mask "
		     "(each node at least min_active %d)",
		     ex->max_active, ex->min_active);
		if (dfl)
			note(ex, "CPUs whose %s pod misses the mask charge the node-less counter (another %d)",
			     ex->scope, ex->max_active);
		if (ex->max_inflight > ex->max_active)
			note(ex,
			     "per-node rounding and the min_active floor allow %ld in flight, more than max_active %d",
			     ex->max_inflight, ex->max_active);
		if (ex->min_lowered)
			note(ex,
			     "min_active is %d: wqctl wrote max_active %d to this workqueue (run/wqctl/min_active); it "
			     "stays so until the workqueue is recreated, whatever max_active is now",
			     ex->min_active, ex->min_active);
		else
			note(ex, "min_active is not shown by sysfs: assumed min(8, max_active); a smaller max_active "
				 "written earlier lowers it for good");
	}
	return 0;
}
