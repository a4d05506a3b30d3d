/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-function hist counts joined into per-workqueue ones (doc/kernel.md
 * §8.1), for kernels whose four workqueue events all carry the function
 * (6.10+): queue_work is counted per (function, workqueue), the other three
 * per function, so the kernel's maps hold as many keys as there are
 * functions, whatever the rate and however many work items are allocated.
 * A function queued on one workqueue gives it all its counts; one queued on
 * several shares its activate, start and end counts (and so its pending and
 * in-flight items) among them in proportion to what each queued in the
 * interval, or over the run when none did: the execute events do not name
 * the workqueue. Pure bookkeeping on parsed hist sections (lib/hist),
 * cumulative as the kernel keeps them: each feed yields what changed.
 */
#ifndef WQ_FNJOIN_H
#define WQ_FNJOIN_H

#include <stdbool.h>
#include <stddef.h>

#include "hist.h"
#include "kjoin.h"
#include "monitor.h"

struct wq_fnjoin;

struct wq_fnjoin *wq_fnjoin_new(void);
void wq_fnjoin_free(struct wq_fnjoin *j);
/*
 * Take one read of the four hists: sec[WQ_KJ_QUEUE] keyed by function.sym
 * and workqueue, the others by function.sym. *dropped: events the maps had
 * no room for since the last feed. 0, -ENOMEM, or -EBADMSG for a key that
 * is not "[ADDR] SYMBOL".
 */
int wq_fnjoin_feed(struct wq_fnjoin *j, const struct wq_hist_sec *const sec[WQ_KJ_NEV], unsigned long long *dropped);
/*
 * Take the same read's wait and run times: sections keyed by fn.sym and
 * the time's log2 in microseconds (lib/klat), shared out as the counts
 * are; *dropped: the times their maps had no room for since the last read
 * (the percentiles are of the others). After wq_fnjoin_feed(). 0, -ENOMEM
 * or -EBADMSG.
 */
int wq_fnjoin_feed_lat(struct wq_fnjoin *j, const struct wq_hist_sec *wait, const struct wq_hist_sec *run,
		       unsigned long long *dropped);
/*
 * Rows as wq_kjoin_rows() gives them, with wait and run percentiles once
 * times were fed: the nearest-rank percentile's bucket, given as its top
 * (2^K microseconds; the true value is above half of it); shared is set on those holding a
 * share of some function's counts in the last feed (whole: in any).
 */
int wq_fnjoin_rows(struct wq_fnjoin *j, bool whole, double seconds, const struct wq_mon_row **rows, size_t *n);
/*
 * The next function found queued on more workqueues than when it was last
 * told: its symbol, and its workqueues by name joined by ", " in buf.
 * false when there is none.
 */
bool wq_fnjoin_next_shared(struct wq_fnjoin *j, const char **fn, char *buf, size_t bufsz);

#endif
