// SPDX-License-Identifier: GPL-2.0-or-later
/* The max_active model per era: counters, their limits and the most work in flight. */
#define _GNU_SOURCE
#include "explain.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"
#include "state.h"
#include "topo.h"

/* the model's own notes and the caller's go the same way */
#define note wq_explain_note

void wq_explain_note(struct wq_explain *ex, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (ex->brief || ex->nnotes >= WQ_EXPLAIN_NOTES)
		return;
	va_start(ap, fmt);
	/* out of memory: the note is left out, the figures stand */
	r = vasprintf(&ex->notes[ex->nnotes], fmt, ap);
	va_end(ap);
	if (r < 0)
		ex->notes[ex->nnotes] = NULL;
	else
		ex->nnotes++;
}

void wq_explain_clear(struct wq_explain *ex)
{
	for (int i = 0; i < ex->ncounters; i++)
		wq_cpuset_free(ex->counters[i].cpus);
	free(ex->counters);
	wq_cpuset_free(ex->effective);
	for (int i = 0; i < ex->nnotes; i++)
		free(ex->notes[i]);
	memset(ex, 0, sizeof(*ex));
}

int wq_root_cpumask(struct wq_ctx *ctx, struct wq_cpuset *out)
{
	const struct wq_cpuset *m;
	int r = wq_root_cpumask_get(ctx, &m);

	return r < 0 ? r : wq_cpuset_copy(out, m);
}

int wq_root_cpumask_get(struct wq_ctx *ctx, const struct wq_cpuset **out)
{
	_cleanup_free_ char *s = NULL;
	_cleanup_cpuset_ struct wq_cpuset *g = NULL;
	struct wq_topo *t;
	int r;

	/* Read once per context: show/check consult it for every workqueue. */
	if (ctx->root_mask) {
		*out = ctx->root_mask;
		return 0;
	}
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
	*out = ctx->root_mask;
	return 0;
}

int wq_effective_cpus(struct wq_ctx *ctx, const struct wq_cpuset *requested, struct wq_cpuset *out)
{
	const struct wq_cpuset *g;
	int r = wq_root_cpumask_get(ctx, &g);

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
	struct wq_counter *n;

	/* doubling: a mask over 32 nodes adds 32 counters */
	if (ex->ncounters == ex->counters_cap) {
		int cap = ex->counters_cap ? 2 * ex->counters_cap : 4;

		if (!(n = realloc(ex->counters, sizeof(*n) * (size_t)cap)))
			return NULL;
		ex->counters = n;
		ex->counters_cap = cap;
	}
	n = &ex->counters[ex->ncounters];
	n->node = node;
	n->limit = limit;
	n->cpus = NULL;
	if (!ex->brief && !(n->cpus = wq_cpuset_new()))
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

/*
 * Everything a model depends on besides the context (era, topology, root
 * mask, all fixed for its life): the key of the model cache. Thousands of
 * workqueues share a handful of keys (the default mask, one max_active), so
 * each model is computed once per key, not once per workqueue.
 */
struct model_key {
	bool full; /* notes and counter CPU sets (explain); else the figures alone (show, check) */
	bool unbound;
	bool ordered; /* implicitly ordered (eras A and B) */
	int max_active;
	int min_active; /* era C unbound; -1 otherwise */
	bool min_lowered;
	int numa; /* era A: the numa attribute */
	int strict;
	char scope[32]; /* effective scope, unbound */
	const struct wq_cpuset *req; /* requested cpumask, unbound; NULL: none */
	const struct wq_cpuset *from; /* what-if: queued only from these CPUs */
};

struct wq_model {
	struct wq_model *next;
	uint64_t hash;
	struct model_key k; /* req and from point to the entry's own copies */
	struct wq_cpuset *req, *from;
	struct wq_explain ex;
};

#define MODEL_BUCKETS 256

struct wq_model_cache {
	struct wq_model *b[MODEL_BUCKETS];
	struct wq_model *last; /* found last: workqueues in name order share keys in runs */
	struct wq_cpuset *hashed; /* the requested mask hashed last, and its hash */
	uint64_t hashed_h;
	struct wq_cpuset *queuers; /* G & O: the CPUs unbound work is queued from, once */
	/*
	 * model_c()'s working sets, one pair for every model rather than a new
	 * pair each: at 8,192 CPUs a copy of the issuing CPUs is 1 KB, and a
	 * model per node's mask put one on a new page, a page fault each.
	 */
	struct wq_cpuset *rest, *pod;
};

/* The models live in the context until a write may change them (wq_ctx_forget). */
static void models_release(void *data);
static const struct wq_ctx_cache models_key = {models_release, true};

static struct wq_model_cache *models_of(const struct wq_ctx *ctx)
{
	return wq_ctx_cache_get(ctx, &models_key);
}

/* Does NUMA affinity apply in era A (doc/kernel.md §4.1)? */
static bool era_a_numa(struct wq_ctx *ctx, struct wq_topo *t, const struct model_key *k)
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
	wq_topo_node_table(t);
	wq_cpuset_for_each (c, t->online)
		if (wq_topo_cpu_node(t, (unsigned int)c) < 0)
			return false;
	return k->numa != 0;
}

static int model_a(struct wq_ctx *ctx, struct wq_topo *t, const struct model_key *k, const struct wq_cpuset *issuing,
		   struct wq_explain *ex)
{
	_cleanup_free_ signed char *own = NULL;
	_cleanup_cpuset_ struct wq_cpuset *x = wq_cpuset_new();
	long m = ex->max_active;
	struct wq_counter *c;

	if (!x)
		return -ENOMEM;
	if (!era_a_numa(ctx, t, k)) {
		c = add_counter(ex, -1, m);
		if (!c || (c->cpus && wq_cpuset_copy(c->cpus, issuing) < 0))
			return -ENOMEM;
		note(ex, "one pool for the whole workqueue (no NUMA affinity): max_active %ld is system-wide", m);
		return 0;
	}
	/* Own pwq iff the node has online CPUs in E and E is not inside it: once per node. */
	own = calloc((size_t)t->nr_nodes, 1);
	if (!own)
		return -ENOMEM;
	for (int i = 0; i < t->nr_nodes; i++) {
		if (wq_cpuset_copy(x, ex->effective) < 0)
			return -ENOMEM;
		wq_cpuset_and(x, t->nodes[i].cpus);
		own[i] = wq_cpuset_intersects(x, t->online) && !wq_cpuset_equal(x, ex->effective);
	}
	wq_topo_node_table(t); /* a lookup per CPU */
	wq_cpuset_for_each (cpu, issuing) {
		int n = wq_topo_cpu_node(t, (unsigned int)cpu), counter = -1;

		for (int i = 0; i < t->nr_nodes; i++)
			if (t->nodes[i].id == n && own[i])
				counter = n;
		c = find_counter(ex, counter);
		if (!c && !(c = add_counter(ex, counter, m)))
			return -ENOMEM;
		if (c->cpus && wq_cpuset_set(c->cpus, (unsigned int)cpu) < 0)
			return -ENOMEM;
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
	_cleanup_cpuset_ struct wq_cpuset *rest = wq_cpuset_dup(issuing);
	long m = ex->max_active;

	if (!rest)
		return -ENOMEM;
	/* a node at a time, in words: max_active per CPU, summed per node */
	for (int i = 0; i < t->nr_nodes; i++) {
		struct wq_counter *c;

		if (!wq_cpuset_intersects(rest, t->nodes[i].cpus))
			continue;
		c = add_counter(ex, t->nodes[i].id, m * (long)wq_cpuset_count_and(rest, t->nodes[i].cpus));
		if (!c)
			return -ENOMEM;
		if (c->cpus) {
			if (wq_cpuset_copy(c->cpus, rest) < 0)
				return -ENOMEM;
			wq_cpuset_and(c->cpus, t->nodes[i].cpus);
		}
		wq_cpuset_andnot(rest, t->nodes[i].cpus);
	}
	if (!wq_cpuset_is_empty(rest)) {
		struct wq_counter *c = add_counter(ex, -1, m * (long)wq_cpuset_count(rest));

		if (!c || (c->cpus && wq_cpuset_copy(c->cpus, rest) < 0))
			return -ENOMEM;
	}
	return 0;
}

/* The counter P charges: the node whose CPUs hold all of P, or -1 (the node-less dfl counter). */
static int pod_counter(const struct wq_topo *t, const struct wq_cpuset *p)
{
	int first = wq_cpuset_next(p, 0), counter = -1;
	const struct wq_node *n;

	if (first >= 0) {
		/* a node holding P holds its first CPU: only that node is tested */
		n = wq_topo_node(t, wq_topo_cpu_node(t, (unsigned int)first));
		return n && wq_cpuset_subset(p, n->cpus) ? n->id : -1;
	}
	for (int i = 0; i < t->nr_nodes; i++)
		if (!wq_cpuset_is_empty(t->nodes[i].cpus))
			counter = t->nodes[i].id;
	return counter;
}

struct c_ctx {
	struct wq_topo *t;
	struct wq_pods *pods;
	struct wq_explain *ex;
	const struct wq_cpuset *eo;
	struct wq_cpuset *p;
	long total;
	int e_idx; /* the counter of P = E, once found; -1 before */
};

/* The index in ex->counters of the counter a CPU of pod (-1: of no pod) charges, added if new; -ENOMEM. */
static int pod_charge(struct c_ctx *cc, int pod)
{
	struct wq_explain *ex = cc->ex;
	struct wq_topo *t = cc->t;
	long m = ex->max_active, mn = ex->min_active;
	const struct wq_cpuset *pc = ex->effective;
	struct wq_counter *c;
	bool is_e;
	int counter;

	/*
	 * P(c) = pod(c) & E if it holds an online CPU, else E
	 * (wq_calc_pod_cpumask). A mask of one node makes every other node's
	 * pods E: their counter is found once, not once a pod.
	 */
	is_e = pod < 0 || !wq_cpuset_intersects(cc->pods->pod[pod].cpus, cc->eo);
	if (is_e && cc->e_idx >= 0)
		return cc->e_idx;
	if (!is_e) {
		if (wq_cpuset_copy(cc->p, cc->pods->pod[pod].cpus) < 0)
			return -ENOMEM;
		wq_cpuset_and(cc->p, ex->effective);
		pc = cc->p;
	}
	counter = pod_counter(t, pc);
	c = find_counter(ex, counter);
	if (!c) {
		long lim = m;

		if (counter >= 0) {
			/* node_max = clamp(ceil(M * c[n] / T), min_active, M) */
			unsigned int cn = wq_cpuset_count_and(cc->eo, wq_topo_node(t, counter)->cpus);

			lim = cc->total ? ceil_div(m * (long)cn, cc->total) : mn;
			if (lim < mn)
				lim = mn;
			if (lim > m)
				lim = m;
		}
		c = add_counter(ex, counter, lim);
		if (!c)
			return -ENOMEM;
	}
	if (is_e)
		cc->e_idx = (int)(c - ex->counters);
	return (int)(c - ex->counters);
}

static int model_c(struct wq_ctx *ctx, struct wq_topo *t, const struct wq_cpuset *issuing, struct wq_explain *ex)
{
	_cleanup_cpuset_ struct wq_cpuset *own_eo = NULL;
	struct wq_model_cache *mc = models_of(ctx);
	struct wq_cpuset *rest;
	_cleanup_free_ int *pod_idx = NULL;
	const int16_t *cpu_pod;
	int scope = wq_scope_from_name(ex->scope), nopod_idx = -1;
	struct c_ctx cc = {.t = t, .ex = ex, .eo = ex->effective, .e_idx = -1};

	if ((!mc->rest && !(mc->rest = wq_cpuset_new())) || (!mc->pod && !(mc->pod = wq_cpuset_new())))
		return -ENOMEM;
	rest = mc->rest;
	cc.p = mc->pod;
	if (wq_cpuset_copy(rest, issuing) < 0)
		return -ENOMEM;
	if (scope < 0) {
		ex->why = "the pods of this affinity scope are not modelled";
		ex->max_inflight = -1;
		return 0;
	}
	if (!wq_ctx_topo_pods(ctx, scope))
		return -EIO;
	cc.pods = &t->pods[scope];
	/* the online CPUs of E: E itself when all of them are online */
	if (!wq_cpuset_subset(ex->effective, t->online)) {
		if (!(own_eo = wq_cpuset_dup(ex->effective)))
			return -ENOMEM;
		wq_cpuset_and(own_eo, t->online);
		cc.eo = own_eo;
	}
	cc.total = wq_cpuset_count(cc.eo);

	if (cc.pods->nr <= 256) {
		/*
		 * few pods (cache, numa, system): a pod at a time, its CPUs in
		 * words. A pod without an online CPU of E charges the counter of
		 * P = E, as CPUs of no pod do: its CPUs stay in rest, charged with
		 * them below (a one-node mask on 32 nodes visits one pod, not 32).
		 */
		_cleanup_cpuset_ struct wq_cpuset *q = ex->brief ? NULL : wq_cpuset_new();

		if (!ex->brief && !q)
			return -ENOMEM;
		for (int i = 0; i < cc.pods->nr; i++) {
			int idx;

			if (!wq_cpuset_intersects(cc.pods->pod[i].cpus, cc.eo) ||
			    !wq_cpuset_intersects(cc.pods->pod[i].cpus, issuing))
				continue;
			if ((idx = pod_charge(&cc, i)) < 0)
				return -ENOMEM;
			/* rest holds only issuing CPUs: less the pod's is less the pod */
			wq_cpuset_andnot(rest, cc.pods->pod[i].cpus);
			if (ex->brief)
				continue;
			if (wq_cpuset_copy(q, cc.pods->pod[i].cpus) < 0)
				return -ENOMEM;
			wq_cpuset_and(q, issuing);
			if (wq_cpuset_or(ex->counters[idx].cpus, q) < 0)
				return -ENOMEM;
		}
		if (!wq_cpuset_is_empty(rest)) {
			int idx = pod_charge(&cc, -1);

			if (idx < 0 || (!ex->brief && wq_cpuset_or(ex->counters[idx].cpus, rest) < 0))
				return -ENOMEM;
		}
		return 0;
	}
	/* many pods (cpu, smt): a CPU at a time, each pod's counter found once */
	pod_idx = malloc(sizeof(int) * (size_t)cc.pods->nr);
	if (!pod_idx || !(cpu_pod = wq_topo_pod_table(t, scope)))
		return -ENOMEM;
	for (int i = 0; i < cc.pods->nr; i++)
		pod_idx[i] = -1;
	wq_cpuset_for_each (cpu, issuing) {
		int pod = (unsigned int)cpu < t->nr_cpu_ids ? cpu_pod[cpu] : -1;
		int *idx = pod >= 0 ? &pod_idx[pod] : &nopod_idx;

		if (*idx < 0 && (*idx = pod_charge(&cc, pod)) < 0)
			return -ENOMEM;
		if (!ex->brief && wq_cpuset_set(ex->counters[*idx].cpus, (unsigned int)cpu) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Work queued only from the CPUs F (doc/kernel.md §4.8): queue_work() from a CPU
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

/* The model of one key; ex holds era, why and max_active on entry. */
static int model(struct wq_ctx *ctx, struct wq_topo *t, const struct model_key *k, struct wq_explain *ex)
{
	_cleanup_cpuset_ struct wq_cpuset *own = NULL; /* issuing, when the what-if narrows it */
	const struct wq_cpuset *issuing, *g;
	struct wq_model_cache *mc;
	int r;

	ex->effective = wq_cpuset_new();
	if (!ex->effective)
		return -ENOMEM;
	if (!k->unbound) {
		/* Per-cpu: one pool per CPU, each with max_active, every era. */
		issuing = t->online;
		if (k->from) {
			if (!(own = wq_cpuset_dup(t->online)))
				return -ENOMEM;
			wq_cpuset_and(own, k->from);
			issuing = own;
		}
		if (wq_cpuset_copy(ex->effective, t->online) < 0)
			return -ENOMEM;
		r = model_b(t, issuing, ex);
		if (r < 0)
			return r;
		note(ex, "per-cpu workqueue: max_active applies on each CPU: %d x %u CPUs = %ld", ex->max_active,
		     wq_cpuset_count(issuing), (long)ex->max_active * wq_cpuset_count(issuing));
		ex->why = NULL;
		goto sum;
	}

	r = wq_root_cpumask_get(ctx, &g);
	if (r < 0)
		return r;
	r = k->req ? wq_effective_cpus(ctx, k->req, ex->effective) : wq_cpuset_copy(ex->effective, g);
	if (r < 0)
		return r;
	if (k->req && !wq_cpuset_intersects(k->req, g)) {
		note(ex, "the requested cpumask misses the root unbound cpumask: the kernel uses the root mask");
	} else if (!ex->brief && k->req && !wq_cpuset_equal(k->req, ex->effective)) {
		/* the written mask is not what the kernel uses: say where the CPUs went */
		_cleanup_cpuset_ struct wq_cpuset *gone = wq_cpuset_dup(k->req);
		_cleanup_free_ char *w = wq_cpuset_format_list(k->req);
		_cleanup_free_ char *gl = wq_cpuset_format_list(g);
		_cleanup_free_ char *gn = NULL;

		if (!gone)
			return -ENOMEM;
		wq_cpuset_andnot(gone, g);
		gn = wq_cpuset_format_list(gone);
		note(ex,
		     "the effective CPUs are the cpumask %s within the root unbound cpumask %s: the kernel "
		     "keeps this workqueue off CPUs %s",
		     w ? w : "?", gl ? gl : "?", gn ? gn : "?");
	}
	/* Work is queued from the CPUs of the root mask that are online (wq_select_unbound_cpu). */
	mc = models_of(ctx);
	if (!mc->queuers) {
		if (!(mc->queuers = wq_cpuset_dup(g)))
			return -ENOMEM;
		wq_cpuset_and(mc->queuers, t->online);
	}
	issuing = mc->queuers;
	if (k->from) {
		if (!(own = wq_cpuset_dup(issuing)))
			return -ENOMEM;
		r = issuing_from(ex, t, k->from, own);
		if (r < 0)
			return r;
		issuing = own;
	}
	/* affinity scopes came with 6.6: up to 6.5 a workqueue has none to show */
	copy_str(ex->scope, sizeof(ex->scope), ex->era == WQ_ERA_A ? "" : k->scope);

	if (ex->era == WQ_ERA_UNKNOWN)
		return 0;
	if (k->ordered) {
		/*
		 * alloc_workqueue() made unbound workqueues *created* with
		 * max_active 1 ordered up to 6.8; writing 1 later does not.
		 */
		ex->ordered = true;
		struct wq_counter *c = add_counter(ex, -1, 1);

		if (!c || (c->cpus && wq_cpuset_copy(c->cpus, issuing) < 0))
			return -ENOMEM;
		note(ex,
		     "created unbound with max_active 1: implicitly ordered on kernels up to 6.8, one item at a time; "
		     "writing max_active removes the ordering");
		goto sum;
	}
	switch (ex->era) {
	case WQ_ERA_A: r = model_a(ctx, t, k, issuing, ex); break;
	case WQ_ERA_B:
		r = model_b(t, issuing, ex);
		note(ex, "on 6.6-6.8 this limit applies per CPU: %d x %u CPUs = %ld", ex->max_active,
		     wq_cpuset_count(issuing), (long)ex->max_active * wq_cpuset_count(issuing));
		break;
	case WQ_ERA_C:
		ex->min_active = k->min_active;
		ex->min_lowered = k->min_lowered;
		r = model_c(ctx, t, issuing, ex);
		if (r == 0 && ex->why)
			return 0;
		break;
	default: r = 0;
	}
	if (r < 0)
		return r;
sum:
	if (ex->ncounters > 1 && !ex->brief)
		qsort(ex->counters, (size_t)ex->ncounters, sizeof(*ex->counters), counter_sort);
	ex->max_inflight = 0;
	for (int i = 0; i < ex->ncounters; i++)
		ex->max_inflight += ex->counters[i].limit;
	if (ex->era == WQ_ERA_C && k->unbound && !ex->ordered) {
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

/* The hash of a requested mask: most keys that miss the last model still share its mask. */
static uint64_t req_hash(struct wq_model_cache *mc, const struct wq_cpuset *req)
{
	const uint64_t seed = UINT64_C(0xcbf29ce484222325);

	if (mc->hashed && wq_cpuset_equal(mc->hashed, req))
		return mc->hashed_h;
	mc->hashed_h = wq_cpuset_hash(req, seed);
	wq_cpuset_free(mc->hashed);
	mc->hashed = wq_cpuset_hold(req); /* NULL: the next key hashes its mask again */
	return mc->hashed_h;
}

static uint64_t key_hash(struct wq_model_cache *mc, const struct model_key *k)
{
	const int v[] = {k->full,	k->unbound,	k->ordered, k->max_active,
			 k->min_active, k->min_lowered, k->numa,    k->strict};
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		h = (h ^ (uint64_t)(unsigned int)v[i]) * UINT64_C(0x100000001b3);
	for (const char *c = k->scope; *c; c++)
		h = (h ^ (unsigned char)*c) * UINT64_C(0x100000001b3);
	h = (h ^ !!k->req) * UINT64_C(0x100000001b3);
	if (k->req)
		h = (h ^ req_hash(mc, k->req)) * UINT64_C(0x100000001b3);
	h = (h ^ !!k->from) * UINT64_C(0x100000001b3);
	if (k->from)
		h = wq_cpuset_hash(k->from, h);
	return h;
}

static bool set_eq(const struct wq_cpuset *a, const struct wq_cpuset *b)
{
	return (!a && !b) || (a && b && wq_cpuset_equal(a, b));
}

static bool key_eq(const struct model_key *a, const struct model_key *b)
{
	return a->full == b->full && a->unbound == b->unbound && a->ordered == b->ordered &&
	       a->max_active == b->max_active && a->min_active == b->min_active && a->min_lowered == b->min_lowered &&
	       a->numa == b->numa && a->strict == b->strict && streq(a->scope, b->scope) && set_eq(a->req, b->req) &&
	       set_eq(a->from, b->from);
}

/* Deep copy of a model's result into the caller's ex. 0 or -ENOMEM. */
static int explain_copy(struct wq_explain *dst, const struct wq_explain *src)
{
	*dst = *src;
	dst->effective = NULL;
	dst->counters = NULL;
	dst->ncounters = dst->counters_cap = 0;
	dst->nnotes = 0;
	memset(dst->notes, 0, sizeof(dst->notes));
	for (int i = 0; i < src->nnotes; i++) {
		if (!(dst->notes[i] = strdup(src->notes[i])))
			return -ENOMEM;
		dst->nnotes++;
	}
	if (!(dst->effective = wq_cpuset_dup(src->effective)))
		return -ENOMEM;
	if (src->ncounters && !(dst->counters = calloc((size_t)src->ncounters, sizeof(*dst->counters))))
		return -ENOMEM;
	dst->counters_cap = src->ncounters;
	for (int i = 0; i < src->ncounters; i++) {
		dst->counters[i] = src->counters[i];
		dst->counters[i].cpus = wq_cpuset_dup(src->counters[i].cpus);
		dst->ncounters++;
		if (!dst->counters[i].cpus) {
			dst->ncounters--;
			return -ENOMEM;
		}
	}
	return 0;
}

static void model_free(struct wq_model *m)
{
	wq_explain_clear(&m->ex);
	wq_cpuset_free(m->req);
	wq_cpuset_free(m->from);
	free(m);
}

static void models_release(void *data)
{
	struct wq_model_cache *mc = data;

	if (!mc)
		return;
	for (size_t i = 0; i < MODEL_BUCKETS; i++)
		while (mc->b[i]) {
			struct wq_model *m = mc->b[i];

			mc->b[i] = m->next;
			model_free(m);
		}
	wq_cpuset_free(mc->hashed);
	wq_cpuset_free(mc->queuers);
	wq_cpuset_free(mc->rest);
	wq_cpuset_free(mc->pod);
	free(mc);
}

/* The cached model of k, computed on first use; NULL with *err on failure. */
static const struct wq_model *model_get(struct wq_ctx *ctx, struct wq_topo *t, const struct model_key *k,
					const struct wq_explain *pre, int *err)
{
	struct wq_model_cache *mc = models_of(ctx);
	struct wq_model *m, **b;
	uint64_t h;

	if (!mc) {
		mc = calloc(1, sizeof(*mc));
		if (!mc || wq_ctx_cache_set(ctx, &models_key, mc) < 0) {
			*err = -ENOMEM;
			return NULL;
		}
	}
	/* a compare of the masks costs less than their hash (128 words at 8,192 CPUs) */
	if (mc->last && key_eq(&mc->last->k, k))
		return mc->last;
	h = key_hash(mc, k);
	b = &mc->b[h % MODEL_BUCKETS];
	for (m = *b; m; m = m->next)
		if (m->hash == h && key_eq(&m->k, k))
			return mc->last = m;
	m = calloc(1, sizeof(*m));
	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	m->hash = h;
	m->k = *k;
	m->k.req = m->req = k->req ? wq_cpuset_hold(k->req) : NULL;
	m->k.from = m->from = k->from ? wq_cpuset_dup(k->from) : NULL;
	m->ex = *pre; /* the figures lookup() set; no notes yet */
	m->ex.brief = !k->full;
	*err = (k->req && !m->req) || (k->from && !m->from) ? -ENOMEM : model(ctx, t, &m->k, &m->ex);
	if (*err < 0) {
		model_free(m);
		return NULL;
	}
	if (!k->full) {
		/*
		 * A brief model is read for its figures alone: its effective set
		 * (1 KB at 8,192 CPUs) and a counter per node would only grow the
		 * heap with the node count, a page fault every few models.
		 */
		wq_cpuset_free(m->ex.effective);
		free(m->ex.counters);
		m->ex.effective = NULL;
		m->ex.counters = NULL;
		m->ex.ncounters = m->ex.counters_cap = 0;
	}
	m->next = *b;
	*b = m;
	return mc->last = m;
}

/* The cached model of a workqueue (NULL, *err 0: none, ex says why), without copying it. */
static const struct wq_model *lookup(struct wq_ctx *ctx, const struct wq_info *wq, const struct wq_whatif *wi,
				     bool full, struct wq_explain *ex, int *err)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	struct model_key k = {.full = full, .unbound = wq->unbound, .min_active = -1, .strict = wq->strict};

	*err = 0;
	memset(ex, 0, sizeof(*ex));
	ex->max_inflight = -1;
	ex->min_active = -1;
	if (!t) {
		*err = -EIO;
		return NULL;
	}
	ex->unbound = wq->unbound;
	ex->max_active = wi && wi->max_active > 0 ? wi->max_active : wq->max_active;
	ex->era = wq_ctx_era(ctx, &ex->why);
	if (ex->max_active < 1) {
		/* an unreadable or malformed max_active file, and no what-if value */
		ex->why = "max_active cannot be read";
		return NULL;
	}
	k.max_active = ex->max_active;
	k.from = wi ? wi->from : NULL;
	if (wq->unbound) {
		k.req = wi && wi->cpus ? wi->cpus : wq->cpumask;
		if (wi && wi->scope && strcmp(wi->scope, "default"))
			copy_str(k.scope, sizeof(k.scope), wi->scope);
		else if (wq->scope_eff[0] && !(wi && wi->scope))
			copy_str(k.scope, sizeof(k.scope), wq->scope_eff);
		else
			wq_default_scope(ctx, k.scope, sizeof(k.scope));
		k.ordered = ex->era != WQ_ERA_C && wq_is_implicitly_ordered(wq) && !(wi && wi->max_active);
		if (ex->era == WQ_ERA_A)
			k.numa = wq->numa;
		if (ex->era == WQ_ERA_C) {
			k.min_active = 8;
			if (k.min_active > wq->max_active)
				k.min_active = wq->max_active;
			if (wi && wi->max_active > 0 && k.min_active > wi->max_active)
				k.min_active = wi->max_active;
			if (wi && wi->min_active > 0) {
				k.min_active = wi->min_active;
			} else {
				/* lowered by a max_active wqctl wrote to this instance of the workqueue */
				int low = wq_minact_get(ctx, wq->name);

				if (low > 0 && low < k.min_active) {
					k.min_active = low;
					k.min_lowered = true;
				}
			}
		}
	}
	return model_get(ctx, t, &k, ex, err);
}

int wq_explain(struct wq_ctx *ctx, const struct wq_info *wq, const struct wq_whatif *wi, struct wq_explain *ex)
{
	int r;
	const struct wq_model *m = lookup(ctx, wq, wi, true, ex, &r);

	if (m) {
		r = explain_copy(ex, &m->ex);
		/* a scope the named kernel lacks: said, not silently modelled as another */
		if (r == 0 && wq->unbound && (!wi || !wi->scope) && !strcmp(wq->scope_eff, "cache_shard") &&
		    !wq_has_cache_shard(ctx))
			note(ex,
			     "affinity_scope cache_shard exists from Linux 7.1 on, not on %s: this what-if keeps "
			     "the scope the values' kernel has, so its pods are 7.1's",
			     ctx->kver.known ? ctx->kver.release : "this kernel");
		return r;
	}
	if (r == 0 && !(ex->effective = wq_cpuset_new()))
		r = -ENOMEM;
	return r;
}

int wq_explain_figures(struct wq_ctx *ctx, const struct wq_info *wq, const struct wq_whatif *wi, struct wq_explain *ex)
{
	int r;
	const struct wq_model *m = lookup(ctx, wq, wi, false, ex, &r);

	if (m) {
		/* the figures: a brief model has no notes, and its counters no CPU sets */
		*ex = m->ex;
		ex->counters = NULL;
		ex->ncounters = ex->counters_cap = 0;
		ex->effective = NULL;
		ex->brief = false;
	}
	return r;
}

long wq_explain_max_inflight(struct wq_ctx *ctx, const struct wq_info *wq)
{
	struct wq_explain pre;
	int r;
	const struct wq_model *m = lookup(ctx, wq, NULL, false, &pre, &r);

	return m ? m->ex.max_inflight : -1;
}
