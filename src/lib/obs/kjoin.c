// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-work hist counts joined into per-workqueue counts, read after read. */
#include "kjoin.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"

/* One key: a work pointer, or a (work, workqueue) pair for queue_work's counts. */
struct item {
	uint64_t key; /* 0: a free slot */
	int wq; /* the workqueue it was last queued on; -1: not queued while we counted */
	unsigned long long seen[WQ_KJ_NEV]; /* the counts as last read */
	int pending, running; /* 0 or 1: a work item is queued once and runs once at a time */
};

/* Open addressing on the key, cap a power of 2. */
struct tab {
	struct item *it;
	size_t n, cap;
};

struct wq_kjoin {
	struct tab items; /* per work pointer */
	struct tab pairs; /* per (work, workqueue) */
	struct wq_kjoin_wqs wqs;
	unsigned long long dropped[WQ_KJ_NEV];
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static struct item *tab_get(struct tab *t, uint64_t key)
{
	size_t mask, i;

	if (2 * (t->n + 1) > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 1024;
		struct item *nv = calloc(ncap, sizeof(*nv));

		if (!nv)
			return NULL;
		for (size_t j = 0; j < t->cap; j++) {
			if (!t->it[j].key)
				continue;
			for (i = mix(t->it[j].key) & (ncap - 1); nv[i].key; i = (i + 1) & (ncap - 1))
				;
			nv[i] = t->it[j];
		}
		free(t->it);
		t->it = nv;
		t->cap = ncap;
	}
	mask = t->cap - 1;
	for (i = mix(key) & mask; t->it[i].key; i = (i + 1) & mask)
		if (t->it[i].key == key)
			return &t->it[i];
	t->it[i].key = key;
	t->it[i].wq = -1;
	t->n++;
	return &t->it[i];
}

int wq_kjoin_wqs_index(struct wq_kjoin_wqs *s, const char *name)
{
	struct wq_kjoin_wq *nv;

	for (size_t i = 0; i < s->n; i++)
		if (streq(s->wq[i].name, name))
			return (int)i;
	nv = realloc(s->wq, (s->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	s->wq = nv;
	memset(&nv[s->n], 0, sizeof(*nv));
	nv[s->n].name = strdup(name);
	if (!nv[s->n].name)
		return -ENOMEM;
	return (int)s->n++;
}

void wq_kjoin_wqs_clear(struct wq_kjoin_wqs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->wq[i].name);
	free(s->wq);
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

struct wq_kjoin *wq_kjoin_new(void)
{
	return calloc(1, sizeof(struct wq_kjoin));
}

void wq_kjoin_free(struct wq_kjoin *j)
{
	if (!j)
		return;
	wq_kjoin_wqs_clear(&j->wqs);
	free(j->items.it);
	free(j->pairs.it);
	free(j);
}

int wq_kjoin_feed(struct wq_kjoin *j, const struct wq_hist_sec *const sec[WQ_KJ_NEV], unsigned long long *dropped)
{
	*dropped = 0;
	for (size_t i = 0; i < j->wqs.n; i++)
		memset(j->wqs.wq[i].n, 0, sizeof(j->wqs.wq[i].n));
	/* queue_work first: a work queued in this read belongs to its workqueue for the others */
	for (int ev = 0; ev < WQ_KJ_NEV; ev++) {
		for (size_t k = 0; k < sec[ev]->n; k++) {
			const struct wq_hist_entry *e = &sec[ev]->ent[k];
			unsigned long long *seen, d;
			struct item *it, *pair = NULL;
			uint64_t work;
			int w = -1;

			if (wq_hist_u64(e->key[0], &work) < 0 || !work)
				continue;
			it = tab_get(&j->items, work);
			/* queue_work's lines are per (work, workqueue): each pair has counts of its own */
			if (it && ev == WQ_KJ_QUEUE && (w = wq_kjoin_wqs_index(&j->wqs, e->key[1])) >= 0)
				pair = tab_get(&j->pairs, mix(work) ^ ((uint64_t)w + 1) * 0x9e3779b97f4a7c15ULL);
			if (!it || (ev == WQ_KJ_QUEUE && !pair))
				return -ENOMEM;
			seen = ev == WQ_KJ_QUEUE ? &pair->seen[ev] : &it->seen[ev];
			d = wq_kjoin_since(e->hitcount, seen);
			if (ev == WQ_KJ_QUEUE) {
				/* exact per workqueue; the work now belongs to the workqueue it was queued on */
				j->wqs.wq[w].n[ev] += d;
				j->wqs.wq[w].t[ev] += d;
				if (d) {
					it->wq = w;
					it->pending += (int)d;
				}
				continue;
			}
			if (it->wq < 0)
				continue; /* never queued while we counted */
			j->wqs.wq[it->wq].n[ev] += d;
			j->wqs.wq[it->wq].t[ev] += d;
			if (ev == WQ_KJ_ACTIVATE)
				it->pending -= (int)d;
			else if (ev == WQ_KJ_START)
				it->running += (int)d;
			else
				it->running -= (int)d;
		}
		*dropped += wq_kjoin_since(sec[ev]->dropped, &j->dropped[ev]);
	}
	/* pending and in flight now */
	for (size_t i = 0; i < j->wqs.n; i++)
		j->wqs.wq[i].pending = j->wqs.wq[i].inflight = 0;
	for (size_t i = 0; i < j->items.cap; i++) {
		struct item *it = &j->items.it[i];

		if (!it->key)
			continue;
		it->pending = it->pending < 0 ? 0 : it->pending > 1 ? 1 : it->pending;
		it->running = it->running < 0 ? 0 : it->running > 1 ? 1 : it->running;
		if (it->wq >= 0) {
			j->wqs.wq[it->wq].pending += it->pending;
			j->wqs.wq[it->wq].inflight += it->running;
		}
	}
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	return strcmp(((const struct wq_mon_row *)a)->name, ((const struct wq_mon_row *)b)->name);
}

/* The nearest-rank p-th percentile of log2 buckets of microseconds, as its bucket's top in ns; -1 for none. */
static int64_t bucket_quantile(const unsigned long long *b, double p)
{
	unsigned long long n = 0, rank, cum = 0;

	for (int k = 0; k < WQ_KJ_NBUCKET; k++)
		n += b[k];
	if (!n)
		return -1;
	rank = (unsigned long long)((double)n * p / 100.0);
	if ((double)rank < (double)n * p / 100.0)
		rank++;
	if (rank < 1)
		rank = 1;
	for (int k = 0; k < WQ_KJ_NBUCKET; k++) {
		cum += b[k];
		if (cum >= rank)
			return k >= 43 ? INT64_MAX : (int64_t)(1ULL << k) * 1000;
	}
	return -1;
}

int wq_kjoin_wqs_rows(struct wq_kjoin_wqs *s, bool whole, double seconds, const struct wq_mon_row **out, size_t *n)
{
	struct wq_mon_row *nv = realloc(s->rows, (s->n ? s->n : 1) * sizeof(*nv));
	size_t m = 0;

	if (!nv)
		return -ENOMEM;
	s->rows = nv;
	for (size_t i = 0; i < s->n; i++) {
		const struct wq_kjoin_wq *w = &s->wq[i];
		const unsigned long long *c = whole ? w->t : w->n;
		struct wq_mon_row *r;

		if (!c[WQ_KJ_QUEUE] && !c[WQ_KJ_ACTIVATE] && !c[WQ_KJ_START] && !c[WQ_KJ_END] && !w->pending &&
		    !w->inflight)
			continue;
		r = &nv[m++];
		memset(r, 0, sizeof(*r));
		r->name = w->name;
		r->queued = c[WQ_KJ_QUEUE];
		r->started = c[WQ_KJ_START];
		r->done = c[WQ_KJ_END];
		r->queued_ps = seconds > 0 ? (double)c[WQ_KJ_QUEUE] / seconds : 0;
		r->started_ps = seconds > 0 ? (double)c[WQ_KJ_START] / seconds : 0;
		r->pending = w->pending;
		r->inflight = w->inflight;
		r->wait_p50 = r->wait_p99 = r->run_p50 = r->run_p99 = -1;
		r->shared = whole ? w->tshared : w->shared;
		if (s->lat) {
			const unsigned long long(*lb)[WQ_KJ_NBUCKET] = whole ? w->lt : w->lb;

			r->wait_p50 = bucket_quantile(lb[WQ_KJ_WAIT], 50);
			r->wait_p99 = bucket_quantile(lb[WQ_KJ_WAIT], 99);
			r->run_p50 = bucket_quantile(lb[WQ_KJ_RUN], 50);
			r->run_p99 = bucket_quantile(lb[WQ_KJ_RUN], 99);
			for (int k = 0; k < WQ_KJ_NBUCKET; k++) {
				r->wait_count += lb[WQ_KJ_WAIT][k];
				r->run_count += lb[WQ_KJ_RUN][k];
			}
			r->wait_sum = 1e3 * (double)(whole ? w->st : w->sb)[WQ_KJ_WAIT];
			r->run_sum = 1e3 * (double)(whole ? w->st : w->sb)[WQ_KJ_RUN];
		}
	}
	qsort(nv, m, sizeof(*nv), cmp_row);
	*out = nv;
	*n = m;
	return 0;
}

int wq_kjoin_rows(struct wq_kjoin *j, bool whole, double seconds, const struct wq_mon_row **out, size_t *n)
{
	return wq_kjoin_wqs_rows(&j->wqs, whole, seconds, out, n);
}
