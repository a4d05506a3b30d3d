// SPDX-License-Identifier: GPL-2.0-or-later
/* monitor's bookkeeping without tracefs: events in, per-interval rows out. */
#include "monitor.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Samples kept per workqueue and interval; beyond that a uniform reservoir. */
#define MAX_SAMPLES 65536

struct samples {
	int64_t *v;
	size_t n, cap;
	uint64_t seen; /* every sample, kept or not */
	double sum; /* of every sample, ns */
};

struct wqstat {
	char *name;
	unsigned long queued, started, done, throttled;
	struct samples wait, run;
	long pending, inflight;
	/* over the whole run (wq_mon_summary) */
	unsigned long tqueued, tstarted, tdone, tthrottled;
	struct samples twait, trun;
};

/* One work pointer: its queued instance and its running instance. */
struct item {
	uint64_t work; /* 0: free slot */
	int qwq, rwq; /* wqstat index of the queued / running instance */
	bool queued, activated, running;
	uint64_t tq, ts;
};

struct wq_mon {
	struct wqstat *wq;
	size_t nwq;
	int last; /* wqstat index of the last name looked up */
	struct item *tab; /* open addressing, linear probing; cap is a power of 2 */
	size_t cap, used;
	struct wq_mon_row *rows;
	uint64_t rng;
	/* The last event seen on each CPU (index cpu + 1; 0 is the single stream). */
	struct last {
		uint64_t work;
		int ev;
	} * last_ev;
	size_t nlast;
};

struct wq_mon *wq_mon_new(void)
{
	struct wq_mon *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->cap = 1024;
	m->tab = calloc(m->cap, sizeof(*m->tab));
	m->last = -1;
	m->rng = 0x9e3779b97f4a7c15ULL;
	if (!m->tab) {
		free(m);
		return NULL;
	}
	return m;
}

void wq_mon_free(struct wq_mon *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nwq; i++) {
		free(m->wq[i].name);
		free(m->wq[i].wait.v);
		free(m->wq[i].run.v);
		free(m->wq[i].twait.v);
		free(m->wq[i].trun.v);
	}
	free(m->wq);
	free(m->tab);
	free(m->rows);
	free(m->last_ev);
	free(m);
}

static size_t slot_of(const struct wq_mon *m, uint64_t work)
{
	uint64_t h = work * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 20) & (m->cap - 1);
}

static struct item *find(struct wq_mon *m, uint64_t work)
{
	for (size_t i = slot_of(m, work);; i = (i + 1) & (m->cap - 1)) {
		if (m->tab[i].work == work)
			return &m->tab[i];
		if (m->tab[i].work == 0)
			return NULL;
	}
}

/* Rebuild the table with the live items only, at the given capacity. */
static int rehash(struct wq_mon *m, size_t cap)
{
	struct item *old = m->tab, *nt = calloc(cap, sizeof(*nt));
	size_t oldcap = m->cap;

	if (!nt)
		return -ENOMEM;
	m->tab = nt;
	m->cap = cap;
	m->used = 0;
	for (size_t i = 0; i < oldcap; i++) {
		size_t j;

		if (old[i].work == 0 || (!old[i].queued && !old[i].running))
			continue;
		for (j = slot_of(m, old[i].work); nt[j].work; j = (j + 1) & (cap - 1))
			;
		nt[j] = old[i];
		m->used++;
	}
	free(old);
	return 0;
}

static struct item *insert(struct wq_mon *m, uint64_t work)
{
	struct item *it = find(m, work);
	size_t i;

	if (it)
		return it;
	if ((m->used + 1) * 2 > m->cap && rehash(m, m->cap * 2) < 0)
		return NULL;
	for (i = slot_of(m, work); m->tab[i].work; i = (i + 1) & (m->cap - 1))
		;
	memset(&m->tab[i], 0, sizeof(m->tab[i]));
	m->tab[i].work = work;
	m->used++;
	return &m->tab[i];
}

static int wq_index(struct wq_mon *m, const char *name)
{
	struct wqstat *nw;

	if (m->last >= 0 && !strcmp(m->wq[m->last].name, name))
		return m->last;
	for (size_t i = 0; i < m->nwq; i++)
		if (!strcmp(m->wq[i].name, name))
			return m->last = (int)i;
	nw = realloc(m->wq, sizeof(*nw) * (m->nwq + 1));
	if (!nw)
		return -ENOMEM;
	m->wq = nw;
	memset(&nw[m->nwq], 0, sizeof(*nw));
	nw[m->nwq].name = strdup(name);
	if (!nw[m->nwq].name)
		return -ENOMEM;
	return m->last = (int)m->nwq++;
}

static uint64_t next_rand(struct wq_mon *m)
{
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng;
}

static int sample(struct wq_mon *m, struct samples *s, int64_t x)
{
	s->seen++;
	s->sum += (double)x;
	if (s->n == s->cap && s->cap < MAX_SAMPLES) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		int64_t *nv = realloc(s->v, sizeof(*nv) * nc);

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = nc;
	}
	if (s->n < s->cap) {
		s->v[s->n++] = x;
	} else {
		uint64_t j = next_rand(m) % s->seen;

		if (j < s->n)
			s->v[j] = x;
	}
	return 0;
}

/* Record ev as the last event of cpu; return the previous one in *prev. */
static int last_swap(struct wq_mon *m, int cpu, enum wq_mon_ev ev, uint64_t work, struct last *prev)
{
	size_t i = cpu < 0 ? 0 : (size_t)cpu + 1;

	if (i >= m->nlast) {
		size_t nn = i + 1 > m->nlast * 2 ? i + 1 : m->nlast * 2;
		struct last *nl = realloc(m->last_ev, sizeof(*nl) * nn);

		if (!nl)
			return -ENOMEM;
		memset(nl + m->nlast, 0, sizeof(*nl) * (nn - m->nlast));
		m->last_ev = nl;
		m->nlast = nn;
	}
	*prev = m->last_ev[i];
	m->last_ev[i] = (struct last){.work = work, .ev = (int)ev};
	return 0;
}

int wq_mon_event(struct wq_mon *m, enum wq_mon_ev ev, uint64_t ts, uint64_t work, const char *wq)
{
	return wq_mon_event_cpu(m, ev, ts, work, wq, -1);
}

int wq_mon_event_cpu(struct wq_mon *m, enum wq_mon_ev ev, uint64_t ts, uint64_t work, const char *wq, int cpu)
{
	struct last prev;
	struct item *it;
	int w;

	if (work == 0)
		return 0;
	if (last_swap(m, cpu, ev, work, &prev) < 0)
		return -ENOMEM;
	if (ev == WQ_EV_QUEUE) {
		w = wq_index(m, wq ? wq : "?");
		if (w < 0)
			return w;
		it = insert(m, work);
		if (!it)
			return -ENOMEM;
		it->queued = true;
		it->activated = false;
		it->qwq = w;
		it->tq = ts;
		m->wq[w].queued++;
		return 0;
	}
	it = find(m, work);
	if (!it)
		return 0; /* queued before we started watching */
	switch (ev) {
	case WQ_EV_ACTIVATE:
		if (it->queued && !it->activated && !(prev.ev == WQ_EV_QUEUE && prev.work == work))
			m->wq[it->qwq].throttled++;
		if (it->queued)
			it->activated = true;
		return 0;
	case WQ_EV_START:
		if (!it->queued)
			return 0;
		w = it->qwq;
		it->queued = false;
		it->running = true;
		it->rwq = w;
		it->ts = ts;
		m->wq[w].started++;
		return sample(m, &m->wq[w].wait, ts >= it->tq ? (int64_t)(ts - it->tq) : 0) ||
		       sample(m, &m->wq[w].twait, ts >= it->tq ? (int64_t)(ts - it->tq) : 0);
	case WQ_EV_END:
		if (!it->running)
			return 0;
		it->running = false;
		w = it->rwq;
		m->wq[w].done++;
		return sample(m, &m->wq[w].run, ts >= it->ts ? (int64_t)(ts - it->ts) : 0) ||
		       sample(m, &m->wq[w].trun, ts >= it->ts ? (int64_t)(ts - it->ts) : 0);
	default: return 0;
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t wq_mon_percentile(int64_t *v, size_t n, double p)
{
	double x = p / 100.0 * (double)n;
	size_t rank = (size_t)x;

	if (n == 0)
		return -1;
	qsort(v, n, sizeof(*v), cmp_i64);
	if ((double)rank < x)
		rank++; /* ceil, without libm */
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

static int cmp_row(const void *a, const void *b)
{
	return strcmp(((const struct wq_mon_row *)a)->name, ((const struct wq_mon_row *)b)->name);
}

/* One row: counts and rates over seconds, percentiles of the given samples (an interval's or the run's). */
static void make_row(struct wq_mon_row *r, const struct wqstat *s, double seconds, unsigned long q, unsigned long st,
		     unsigned long done, unsigned long thr, struct samples *wait, struct samples *run)
{
	*r = (struct wq_mon_row){
	    .name = s->name,
	    .queued = q,
	    .started = st,
	    .done = done,
	    .throttled = thr,
	    .queued_ps = seconds > 0 ? (double)q / seconds : 0,
	    .started_ps = seconds > 0 ? (double)st / seconds : 0,
	    .pending = s->pending,
	    .inflight = s->inflight,
	    .wait_p50 = wq_mon_percentile(wait->v, wait->n, 50),
	    .wait_p99 = wq_mon_percentile(wait->v, wait->n, 99),
	    .run_p50 = wq_mon_percentile(run->v, run->n, 50),
	    .run_p99 = wq_mon_percentile(run->v, run->n, 99),
	    .wait_sum = wait->sum,
	    .run_sum = run->sum,
	    .wait_count = wait->seen,
	    .run_count = run->seen,
	};
}

int wq_mon_interval(struct wq_mon *m, double seconds, const struct wq_mon_row **rows, size_t *n)
{
	struct wq_mon_row *r;
	size_t cnt = 0;

	*rows = NULL;
	*n = 0;
	for (size_t i = 0; i < m->nwq; i++)
		m->wq[i].pending = m->wq[i].inflight = 0;
	for (size_t i = 0; i < m->cap; i++) {
		const struct item *it = &m->tab[i];

		if (it->work && it->queued && !it->activated)
			m->wq[it->qwq].pending++;
		if (it->work && it->running)
			m->wq[it->rwq].inflight++;
	}
	r = realloc(m->rows, sizeof(*r) * (m->nwq + 1));
	if (!r)
		return -ENOMEM;
	m->rows = r;
	for (size_t i = 0; i < m->nwq; i++) {
		struct wqstat *s = &m->wq[i];

		if (!s->queued && !s->started && !s->done && !s->throttled && !s->pending && !s->inflight)
			continue;
		make_row(&r[cnt++], s, seconds, s->queued, s->started, s->done, s->throttled, &s->wait, &s->run);
		s->tqueued += s->queued;
		s->tstarted += s->started;
		s->tdone += s->done;
		s->tthrottled += s->throttled;
		s->queued = s->started = s->done = s->throttled = 0;
		s->wait.n = s->run.n = 0;
		s->wait.seen = s->run.seen = 0;
		s->wait.sum = s->run.sum = 0;
	}
	qsort(r, cnt, sizeof(*r), cmp_row);
	*rows = r;
	*n = cnt;
	/* Drop the items that are neither queued nor running. */
	return rehash(m, m->cap);
}

int wq_mon_summary(struct wq_mon *m, double seconds, const struct wq_mon_row **rows, size_t *n)
{
	struct wq_mon_row *r = realloc(m->rows, sizeof(*r) * (m->nwq + 1));
	size_t cnt = 0;

	*rows = NULL;
	*n = 0;
	if (!r)
		return -ENOMEM;
	m->rows = r;
	for (size_t i = 0; i < m->nwq; i++) {
		struct wqstat *s = &m->wq[i];
		/* what the last interval left counted but not yet folded in */
		unsigned long q = s->tqueued + s->queued, st = s->tstarted + s->started;

		if (!q && !st && !s->tdone && !s->done && !s->pending && !s->inflight)
			continue;
		make_row(&r[cnt++], s, seconds, q, st, s->tdone + s->done, s->tthrottled + s->throttled, &s->twait,
			 &s->trun);
	}
	qsort(r, cnt, sizeof(*r), cmp_row);
	*rows = r;
	*n = cnt;
	return 0;
}

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, elem);
}

const void *wq_mon_by_name(const void *v, size_t n, size_t sz, const char *name)
{
	return v && n ? bsearch(name, v, n, sz, cmp_name) : NULL;
}

void wq_mon_times_into(struct wq_mon_row *rows, size_t n, const struct wq_mon_row *times, size_t ntimes)
{
	size_t j = 0;

	for (size_t i = 0; i < n; i++) {
		struct wq_mon_row *r = &rows[i];
		int c = 1;

		while (j < ntimes && (c = strcmp(times[j].name, r->name)) < 0)
			j++;
		if (j < ntimes && c == 0) {
			const struct wq_mon_row *t = &times[j];

			r->throttled = t->throttled;
			r->wait_p50 = t->wait_p50;
			r->wait_p99 = t->wait_p99;
			r->run_p50 = t->run_p50;
			r->run_p99 = t->run_p99;
			r->wait_sum = t->wait_sum;
			r->run_sum = t->run_sum;
			r->wait_count = t->wait_count;
			r->run_count = t->run_count;
		} else {
			r->throttled = 0;
			r->wait_p50 = r->wait_p99 = r->run_p50 = r->run_p99 = -1;
			r->wait_sum = r->run_sum = 0;
			r->wait_count = r->run_count = 0;
		}
	}
}
