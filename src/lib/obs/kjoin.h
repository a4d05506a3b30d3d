/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-work counts joined into per-workqueue ones (doc/kernel.md §8.1): the
 * kernel's hists count queue_work per (work, workqueue) and activate,
 * execute_start and execute_end per work; a work pointer belongs to the
 * workqueue it was last queued on. Pure bookkeeping on parsed hist sections
 * (lib/hist), cumulative as the kernel keeps them: each feed yields what
 * changed since the last one.
 */
#ifndef WQ_KJOIN_H
#define WQ_KJOIN_H

#include <stdbool.h>
#include <stddef.h>

#include "hist.h"
#include "monitor.h"

enum wq_kjoin_ev { WQ_KJ_QUEUE, WQ_KJ_ACTIVATE, WQ_KJ_START, WQ_KJ_END, WQ_KJ_NEV };
/* Wait and run times (lib/fnjoin): log2 buckets of microseconds, K holding 2^(K-1) < v <= 2^K. */
enum { WQ_KJ_WAIT, WQ_KJ_RUN, WQ_KJ_NLAT, WQ_KJ_NBUCKET = 64 };

struct wq_kjoin;

struct wq_kjoin *wq_kjoin_new(void);
void wq_kjoin_free(struct wq_kjoin *j);
/*
 * Take one read of the four hists: sec[WQ_KJ_QUEUE] keyed by work and
 * workqueue, the others by work alone. *dropped: events the maps had no
 * room for since the last feed. 0 or -ENOMEM.
 */
int wq_kjoin_feed(struct wq_kjoin *j, const struct wq_hist_sec *const sec[WQ_KJ_NEV], unsigned long long *dropped);
/*
 * Rows (sorted by name, valid until the next call) of the last feed's
 * counts, or with whole those of every feed; rates over seconds; pending
 * and in flight as of the last feed. Wait and run times are -1 (not
 * measured), throttled 0. 0 or -ENOMEM.
 */
int wq_kjoin_rows(struct wq_kjoin *j, bool whole, double seconds, const struct wq_mon_row **rows, size_t *n);
/* One workqueue's counts as both joins (this one and lib/fnjoin) keep them. */
struct wq_kjoin_wq {
	char *name;
	unsigned long long n[WQ_KJ_NEV]; /* the last feed */
	unsigned long long t[WQ_KJ_NEV]; /* every feed */
	long pending, inflight; /* as of the last feed */
	bool shared, tshared; /* lib/fnjoin: held a share of a function's counts in the last feed, in any */
	/* lib/fnjoin: wait and run times per bucket, the last feed's and every one's, and their sums (us) */
	unsigned long long lb[WQ_KJ_NLAT][WQ_KJ_NBUCKET], lt[WQ_KJ_NLAT][WQ_KJ_NBUCKET];
	unsigned long long sb[WQ_KJ_NLAT], st[WQ_KJ_NLAT];
};

/* The workqueues seen, by name, and the rows made of them. */
struct wq_kjoin_wqs {
	struct wq_kjoin_wq *wq;
	size_t n;
	struct wq_mon_row *rows;
	bool lat; /* times were fed: rows carry them */
};

/* name's index, added (zeroed) when new; -ENOMEM. */
int wq_kjoin_wqs_index(struct wq_kjoin_wqs *s, const char *name);
/*
 * What a count the kernel keeps for the whole run (a hitcount, a sum,
 * Dropped) gained since *seen, its value as last read; 0 if it went back.
 * *seen becomes now.
 */
static inline unsigned long long wq_kjoin_since(unsigned long long now, unsigned long long *seen)
{
	unsigned long long d = now >= *seen ? now - *seen : 0;

	*seen = now;
	return d;
}
/*
 * Rows (sorted by name, valid until the next call) of those with counts,
 * of the last feed or with whole of every one, or items pending or in
 * flight; rates over seconds; wait and run times from the buckets when
 * lat is set (percentiles as their bucket's top), else -1. 0 or -ENOMEM.
 */
int wq_kjoin_wqs_rows(struct wq_kjoin_wqs *s, bool whole, double seconds, const struct wq_mon_row **rows, size_t *n);
void wq_kjoin_wqs_clear(struct wq_kjoin_wqs *s);

#endif
