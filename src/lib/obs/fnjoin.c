// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-function hist counts joined into per-workqueue counts, read after read. */
#include "fnjoin.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"

enum { QUEUE = WQ_KJ_QUEUE, ACTIVATE = WQ_KJ_ACTIVATE, START = WQ_KJ_START, END = WQ_KJ_END, NEV = WQ_KJ_NEV };
/* Wait and run times: lib/kjoin's log2 buckets of microseconds. */
enum { WAIT = WQ_KJ_WAIT, RUN = WQ_KJ_RUN, NLAT = WQ_KJ_NLAT, NBUCKET = WQ_KJ_NBUCKET };
enum { WRAPPED = 44 /* 2^44 us: 203 days */ };

/* What one function queued on one workqueue. */
struct fnwq {
	int wq;
	unsigned long long seen; /* the count as last read */
	unsigned long long d; /* in the last feed */
	unsigned long long total; /* since the triggers were set */
};

struct fn {
	uint64_t addr;
	char *sym;
	unsigned long long seen[NEV]; /* activate, start and end counts as last read */
	unsigned long long d[NEV]; /* in the last feed (queue: summed over its workqueues) */
	struct fnwq *q;
	size_t nq;
	/*
	 * Queued minus activated and started minus ended since the triggers
	 * were set, and their lowest at any read: items queued or started
	 * before we counted make them negative, by as many as there were.
	 */
	long long qa, se, qa_low, se_low;
	size_t told; /* its workqueues when it was last told shared */
	unsigned long long lseen[NLAT][NBUCKET]; /* wait and run counts per bucket as last read */
	unsigned long long ld[NLAT][NBUCKET]; /* in the last feed */
	unsigned long long sseen[NLAT][NBUCKET], sd[NLAT][NBUCKET]; /* their sums (us), the same way */
};

struct wq_fnjoin {
	struct fn *fn;
	size_t nfn;
	struct wq_kjoin_wqs wqs;
	unsigned long long dropped[NEV];
	unsigned long long ldropped[NLAT]; /* the time hists' Dropped as last read */
};

struct wq_fnjoin *wq_fnjoin_new(void)
{
	return calloc(1, sizeof(struct wq_fnjoin));
}

void wq_fnjoin_free(struct wq_fnjoin *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->nfn; i++) {
		free(j->fn[i].sym);
		free(j->fn[i].q);
	}
	wq_kjoin_wqs_clear(&j->wqs);
	free(j->fn);
	free(j);
}

/* The function of a ".sym" key, added when new: its index, or -errno. */
static long fn_index(struct wq_fnjoin *j, const char *key)
{
	const char *sym;
	struct fn *nv;
	uint64_t addr;

	if (wq_hist_sym(key, &addr, &sym) < 0)
		return -EBADMSG;
	for (size_t i = 0; i < j->nfn; i++)
		if (j->fn[i].addr == addr)
			return (long)i;
	nv = realloc(j->fn, (j->nfn + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	j->fn = nv;
	memset(&nv[j->nfn], 0, sizeof(*nv));
	nv[j->nfn].addr = addr;
	nv[j->nfn].sym = strdup(sym);
	if (!nv[j->nfn].sym)
		return -ENOMEM;
	return (long)j->nfn++;
}

static struct fnwq *fnwq_get(struct fn *f, int wq)
{
	struct fnwq *nv;

	for (size_t i = 0; i < f->nq; i++)
		if (f->q[i].wq == wq)
			return &f->q[i];
	nv = realloc(f->q, (f->nq + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	f->q = nv;
	memset(&nv[f->nq], 0, sizeof(*nv));
	nv[f->nq].wq = wq;
	return &nv[f->nq++];
}

/*
 * total shared out by the weights w: each its floor share, what is left one
 * by one to the largest remainders, so that the shares add up to total.
 * Weights that are all 0 count as equal: the kernel publishes a hist entry
 * before its first hit, so a read can find a function's queue_work lines at
 * hitcount 0 while its other events have counts (issue 60: a division by
 * zero, SIGFPE in monitor --backend kernel).
 */
static void share(unsigned long long total, const unsigned long long *w, size_t n, unsigned long long *out)
{
	unsigned __int128 sum = 0;
	unsigned long long given = 0;
	bool equal;

	for (size_t i = 0; i < n; i++)
		sum += w[i];
	equal = sum == 0;
	if (equal)
		sum = n;
	for (size_t i = 0; i < n; i++) {
		out[i] = (unsigned long long)((unsigned __int128)total * (equal ? 1 : w[i]) / sum);
		given += out[i];
	}
	/* the floors leave fewer units than there are non-zero remainders */
	while (given < total) {
		size_t best = n;
		unsigned __int128 brem = 0;

		for (size_t i = 0; i < n; i++) {
			unsigned __int128 exact = (unsigned __int128)total * (equal ? 1 : w[i]),
					  floor = (unsigned __int128)out[i] * sum;

			/* not yet given its extra unit, with the largest remainder (ties: the first) */
			if (floor <= exact && exact - floor > brem) {
				best = i;
				brem = exact - floor;
			}
		}
		if (best == n)
			break;
		out[best]++;
		given++;
	}
}

/* What a function's counts are shared by (malloc'ed): the last feed's queueing, or the run's when it queued none. */
static unsigned long long *weights(const struct fn *f)
{
	unsigned long long *w = calloc(f->nq ? f->nq : 1, sizeof(*w)), sum = 0;

	if (!w)
		return NULL;
	for (size_t i = 0; i < f->nq; i++)
		sum += f->q[i].d;
	for (size_t i = 0; i < f->nq; i++)
		w[i] = sum ? f->q[i].d : f->q[i].total;
	return w;
}

/* weights() and room for the shares of one count (f->nq each). 0 or -ENOMEM (neither kept). */
static int weights_parts(const struct fn *f, unsigned long long **w, unsigned long long **part)
{
	*w = weights(f);
	*part = calloc(f->nq, sizeof(**part));
	if (!*w || !*part) {
		free(*w);
		free(*part);
		return -ENOMEM;
	}
	return 0;
}

/* One function's counts of the last feed given to its workqueues. */
static int attribute(struct wq_fnjoin *j, struct fn *f)
{
	unsigned long long what[5] = {f->d[ACTIVATE], f->d[START], f->d[END], (unsigned long long)(f->qa - f->qa_low),
				      (unsigned long long)(f->se - f->se_low)};
	unsigned long long *w, *part;

	for (size_t i = 0; i < f->nq; i++) {
		struct wq_kjoin_wq *q = &j->wqs.wq[f->q[i].wq];

		q->n[QUEUE] += f->q[i].d;
		q->t[QUEUE] += f->q[i].d;
	}
	if (f->nq == 0)
		return 0; /* never queued while we counted */
	if (weights_parts(f, &w, &part) < 0)
		return -ENOMEM;
	for (int k = 0; k < 5; k++) {
		share(what[k], w, f->nq, part);
		for (size_t i = 0; i < f->nq; i++) {
			struct wq_kjoin_wq *q = &j->wqs.wq[f->q[i].wq];

			if (k < 3) {
				q->n[ACTIVATE + k] += part[i];
				q->t[ACTIVATE + k] += part[i];
			} else if (k == 3) {
				q->pending += (long)part[i];
			} else {
				q->inflight += (long)part[i];
			}
			if (f->nq > 1)
				q->shared = q->tshared = true;
		}
	}
	free(w);
	free(part);
	return 0;
}

int wq_fnjoin_feed(struct wq_fnjoin *j, const struct wq_hist_sec *const sec[WQ_KJ_NEV], unsigned long long *dropped)
{
	*dropped = 0;
	for (size_t i = 0; i < j->wqs.n; i++) {
		memset(j->wqs.wq[i].n, 0, sizeof(j->wqs.wq[i].n));
		j->wqs.wq[i].pending = j->wqs.wq[i].inflight = 0;
		j->wqs.wq[i].shared = false;
	}
	for (size_t i = 0; i < j->nfn; i++) {
		memset(j->fn[i].d, 0, sizeof(j->fn[i].d));
		for (size_t k = 0; k < j->fn[i].nq; k++)
			j->fn[i].q[k].d = 0;
	}
	for (int ev = 0; ev < NEV; ev++) {
		for (size_t k = 0; k < sec[ev]->n; k++) {
			const struct wq_hist_entry *e = &sec[ev]->ent[k];
			long fi = fn_index(j, e->key[0]);
			unsigned long long *seen, d;
			struct fnwq *q = NULL;
			struct fn *f;
			int w;

			if (fi < 0)
				return (int)fi;
			f = &j->fn[fi];
			if (ev == QUEUE) {
				if (!e->key[1] || (w = wq_kjoin_wqs_index(&j->wqs, e->key[1])) < 0 ||
				    !(q = fnwq_get(f, w)))
					return e->key[1] ? -ENOMEM : -EBADMSG;
			}
			seen = q ? &q->seen : &f->seen[ev];
			d = wq_kjoin_since(e->hitcount, seen);
			f->d[ev] += d;
			if (q) {
				q->d += d;
				q->total += d;
			}
		}
		*dropped += wq_kjoin_since(sec[ev]->dropped, &j->dropped[ev]);
	}
	for (size_t i = 0; i < j->nfn; i++) {
		struct fn *f = &j->fn[i];

		f->qa += (long long)f->d[QUEUE] - (long long)f->d[ACTIVATE];
		f->se += (long long)f->d[START] - (long long)f->d[END];
		f->qa_low = f->qa < f->qa_low ? f->qa : f->qa_low;
		f->se_low = f->se < f->se_low ? f->se : f->se_low;
		if (attribute(j, f) < 0)
			return -ENOMEM;
	}
	return 0;
}

int wq_fnjoin_feed_lat(struct wq_fnjoin *j, const struct wq_hist_sec *wait, const struct wq_hist_sec *run,
		       unsigned long long *dropped)
{
	const struct wq_hist_sec *sec[NLAT] = {wait, run};

	*dropped = 0;
	for (int l = 0; l < NLAT; l++)
		*dropped += wq_kjoin_since(sec[l]->dropped, &j->ldropped[l]);

	for (size_t i = 0; i < j->wqs.n; i++) {
		memset(j->wqs.wq[i].lb, 0, sizeof(j->wqs.wq[i].lb));
		memset(j->wqs.wq[i].sb, 0, sizeof(j->wqs.wq[i].sb));
	}
	for (size_t i = 0; i < j->nfn; i++) {
		memset(j->fn[i].ld, 0, sizeof(j->fn[i].ld));
		memset(j->fn[i].sd, 0, sizeof(j->fn[i].sd));
	}
	for (int l = 0; l < NLAT; l++)
		for (size_t k = 0; k < sec[l]->n; k++) {
			const struct wq_hist_entry *e = &sec[l]->ent[k];
			long fi = fn_index(j, e->key[0]);
			int b = e->key[1] ? wq_hist_log2(e->key[1]) : -1;
			struct fn *f;

			if (fi < 0)
				return (int)fi;
			if (b < 0)
				return -EBADMSG;
			/*
			 * A time below 0 (a variable from another queueing; seen on
			 * 6.12) wraps around as a u64: the kernel files it under
			 * 2^0 or a bucket past 2^43 us with a sum to match. Not a time.
			 */
			if (b >= WRAPPED || (e->hitcount && e->val / e->hitcount >= 1ULL << WRAPPED))
				continue;
			f = &j->fn[fi];
			f->ld[l][b] += wq_kjoin_since(e->hitcount, &f->lseen[l][b]);
			f->sd[l][b] += wq_kjoin_since(e->val, &f->sseen[l][b]);
		}
	for (size_t i = 0; i < j->nfn; i++) {
		struct fn *f = &j->fn[i];
		unsigned long long *w, *part;

		if (f->nq == 0)
			continue; /* never queued while we counted */
		if (weights_parts(f, &w, &part) < 0)
			return -ENOMEM;
		for (int l = 0; l < NLAT; l++)
			for (int b = 0; b < NBUCKET; b++) {
				if (!f->ld[l][b])
					continue;
				share(f->ld[l][b], w, f->nq, part);
				for (size_t q = 0; q < f->nq; q++) {
					struct wq_kjoin_wq *kw = &j->wqs.wq[f->q[q].wq];

					kw->lb[l][b] += part[q];
					kw->lt[l][b] += part[q];
					if (f->nq > 1)
						kw->shared = kw->tshared = true;
				}
				share(f->sd[l][b], w, f->nq, part);
				for (size_t q = 0; q < f->nq; q++) {
					j->wqs.wq[f->q[q].wq].sb[l] += part[q];
					j->wqs.wq[f->q[q].wq].st[l] += part[q];
				}
			}
		free(w);
		free(part);
	}
	j->wqs.lat = true;
	return 0;
}

int wq_fnjoin_rows(struct wq_fnjoin *j, bool whole, double seconds, const struct wq_mon_row **out, size_t *n)
{
	return wq_kjoin_wqs_rows(&j->wqs, whole, seconds, out, n);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool wq_fnjoin_next_shared(struct wq_fnjoin *j, const char **fn, char *buf, size_t bufsz)
{
	for (size_t i = 0; i < j->nfn; i++) {
		struct fn *f = &j->fn[i];
		const char **names;
		size_t len = 0;

		if (f->nq < 2 || f->told >= f->nq)
			continue;
		names = calloc(f->nq, sizeof(*names));
		if (!names)
			return false;
		f->told = f->nq;
		for (size_t k = 0; k < f->nq; k++)
			names[k] = j->wqs.wq[f->q[k].wq].name;
		qsort(names, f->nq, sizeof(*names), cmp_str);
		buf[0] = '\0';
		for (size_t k = 0; k < f->nq && len < bufsz; k++) {
			int r = snprintf(buf + len, bufsz - len, "%s%s", k ? ", " : "", names[k]);

			if (r < 0)
				break;
			len += (size_t)r;
		}
		free(names);
		*fn = f->sym;
		return true;
	}
	return false;
}
