/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a max_active write does to min_active (>= 6.9) and to ordering (<= 6.8): the warnings it needs. */
#ifndef WQ_MINACT_H
#define WQ_MINACT_H

#include "ctx.h"
#include "state.h"
#include "wq.h"

/*
 * Warnings (logged) about what a valid write of attr does that a user may
 * not expect: a max_active below min_active (>= 6.9) and an implicitly
 * ordered workqueue made unordered (<= 6.8). 0, or -EPERM with why for a
 * write that needs force (not logged: the verdict carries it).
 */
int wq_minact_check_write(struct wq_ctx *ctx, const struct wq_info *wi, int attr, const char *newv, bool force,
			  char *why, size_t whysz);

#endif
