/* SPDX-License-Identifier: GPL-2.0-or-later */
/* min_active as wqctl lowered it (>= 6.9): the records apply writes and explain reads. */
#ifndef WQ_MINACT_H
#define WQ_MINACT_H

#include "ctx.h"
#include "plan.h"
#include "wq.h"

/*
 * min_active lowered by wqctl (>= 6.9): every max_active write sets
 * min_active = min(min_active, max_active) until the workqueue is recreated.
 * run/wqctl/min_active keeps "NAME <tab> INODE <tab> MIN" per workqueue; the
 * sysfs directory's inode number tells a recreated workqueue (a new kernfs
 * node) from the one that was written, udev or not.
 */
/* The min_active wqctl left on wq (this instance of it), or 0. Read once per run. */
int wq_minact_get(struct wq_ctx *ctx, const char *wq);
/* After a plan's writes (under the lock): record every max_active below min_active written to an unbound wq. */
int wq_minact_note(struct wq_ctx *ctx, const struct wq_plan *plan);

/*
 * Warnings (logged) about what a valid write of attr does that a user may
 * not expect: a max_active below min_active (>= 6.9) and an implicitly
 * ordered workqueue made unordered (<= 6.8). 0, or -EPERM with why for a
 * write that needs force (not logged: the verdict carries it).
 */
int wq_minact_check_write(struct wq_ctx *ctx, const struct wq_info *wi, int attr, const char *newv, bool force,
			  char *why, size_t whysz);

#endif
