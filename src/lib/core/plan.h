/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A plan of (object, file, old, new) changes and the transactional writer:
 * write in order, read back, and on any failure restore what this run changed.
 */
#ifndef WQ_PLAN_H
#define WQ_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "target.h"
#include "wq.h"

enum wq_change_state {
	WQ_CH_PENDING,
	WQ_CH_UNCHANGED, /* already had the value: not written */
	WQ_CH_WRITTEN,
	WQ_CH_FAILED,
	WQ_CH_RESTORED, /* written, then rolled back */
};

struct wq_change {
	char *object; /* "writeback/max_active" or "cpumask" (knob) */
	char *path; /* root-relative file, or a mount option's path (mountopt.h) */
	enum wq_target target; /* what path names */
	char *readback; /* file to compare after writing (usually path) */
	enum wq_vtype type;
	char *old; /* as read */
	char *new; /* as written */
	char *expect; /* what the read-back must equal, NULL = new */
	char *now; /* as read back after the write */
	enum wq_change_state state;
	int err; /* -errno of a failed write, -EILSEQ for a differing read-back */
};

struct wq_plan {
	size_t n;
	struct wq_change *c;
};

/* Append a change; strings are copied. readback NULL = path. 0 or -ENOMEM. */
int wq_plan_add(struct wq_plan *p, const char *object, const char *path, const char *readback, enum wq_vtype type,
		const char *old, const char *new);
void wq_plan_free(struct wq_plan *p);
/* Set what the last added change must read back as (default: the value written). 0 or -ENOMEM. */
int wq_plan_expect(struct wq_plan *p, const char *expect);
/* Is change i a no-op (new equals old as the kernel means it)? */
bool wq_change_is_noop(const struct wq_change *c);
/*
 * Read every change's current value again into old (under the run lock, so
 * that originals and no-op decisions are not stale). 0, or -errno with
 * *failed the change that could not be read.
 */
int wq_plan_refresh(struct wq_ctx *ctx, struct wq_plan *p, size_t *failed);
/*
 * Write every change that is not a no-op, in order; read each back. On the
 * first failure restore every change already written (reverse order) and
 * return its -errno, with *failed its index. 0 when all landed. Afterwards a
 * change left WRITTEN (its now set when it could be read back) is one whose
 * restore failed: the failed change too, when its write landed but read
 * back different (-EILSEQ); otherwise that one is FAILED.
 */
int wq_plan_apply(struct wq_ctx *ctx, struct wq_plan *p, size_t *failed);
/* Write one value of target t as `echo` would (newline-terminated, strings verbatim). 0 or -errno. */
int wq_value_write(struct wq_ctx *ctx, enum wq_target t, const char *path, enum wq_vtype type, const char *v);
/* Read what path holds: a file below the root, or a mount option (WQ_T_MOUNT). 0 with *out malloc'ed, or -errno. */
int wq_value_read(struct wq_ctx *ctx, enum wq_target t, const char *path, char **out);
/* The text that restores an old value ("default (cache)" -> "default"). malloc'ed. */
char *wq_value_restore_text(enum wq_vtype type, const char *old);

#endif
