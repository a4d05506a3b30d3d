/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Committing a plan: lock, journal, write, roll back; what set, knob, apply and experiment share. */
#ifndef WQ_COMMIT_H
#define WQ_COMMIT_H

#include "ctx.h"
#include "plan.h"

#define WQ_LOCK_WAIT_MS 10000

/*
 * Write a plan as apply, set and knob do: take the lock (wait_ms at most),
 * re-read what the plan replaces, save the originals in the journal (the
 * first one is kept, so revert undoes every wqctl change), write, and on a
 * failed write restore both the system and the journal. Writes nothing and
 * takes no lock when every change is a no-op. taken: the lock, taken before
 * the plan was read (no re-read then; released here), or -1. 0, or -EIO
 * after the errors were logged.
 */
int wq_plan_commit(struct wq_ctx *ctx, struct wq_plan *plan, int wait_ms, int taken);
/* "OBJECT: write failed: REASON" plus what was rolled back, logged as errors. */
void wq_plan_report_failure(struct wq_ctx *ctx, const struct wq_plan *plan, size_t failed);
/* The reason a person needs for a failed sysfs write. */
const char *wq_write_reason(int err);

/*
 * revert: under the lock, write back every original in the journal where
 * the value is still the one wqctl wrote (a later change is someone
 * else's: left alone, with a warning), and drop those entries. Each value
 * written back is passed to done (may be NULL): its object ("writeback/nice",
 * a knob's name, or the path), what it was and what it is again; min_active,
 * when an earlier max_active write lowered it and the workqueue still has it,
 * else 0. 0, or -EIO after the errors were logged.
 */
typedef void (*wq_revert_fn)(void *arg, const char *object, enum wq_vtype type, const char *from, const char *to,
			     int min_active);
int wq_revert(struct wq_ctx *ctx, wq_revert_fn done, void *arg);

#endif
