/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workqueues outside sysfs (no WQ_SYSFS) whose owner offers its own knob
 * for their concurrency: the one table of them, each row with the kernel
 * source it comes from.
 */
#ifndef WQ_OWNERKNOB_H
#define WQ_OWNERKNOB_H

#include "ctx.h"
#include "wq.h"

struct wq_owner_knob {
	const char *pattern; /* glob on the name as the tracepoints carry it */
	const char *example; /* a name the owner creates, for a glob the user typed */
	const char *owner; /* "btrfs" */
	const char *knob; /* what to set, or NULL: the owner offers none */
	const char *brief; /* the setting in a few words (a table cell) */
	const char *none; /* with no knob: why */
	const char *how; /* how to change it at run time, or NULL */
	const char *source; /* kernel source of the facts */
	int sysfs_from[2]; /* in sysfs from this kernel on (major, minor), or 0 */
	/*
	 * The names the owner creates, where they are a fixed set (NULL-
	 * terminated), or NULL: any name of the pattern. A name of the pattern
	 * outside the set is a typo, unless a rescuer thread of that name runs.
	 */
	const char *const *names;
};

/* The row for a workqueue name, or NULL. */
const struct wq_owner_knob *wq_owner_knob_find(const char *name);
/*
 * Is name one the row's owner creates? Rows without a fixed set: any name
 * of the pattern. With a set (names): a name in it, or one a rescuer
 * thread of the live system carries (another kernel's name).
 */
bool wq_owner_knob_known(struct wq_ctx *ctx, const struct wq_owner_knob *k, const char *name);
/* The row a name or a glob belongs to (a glob: the row whose example it matches), or NULL. */
const struct wq_owner_knob *wq_owner_knob_for(const char *name_or_glob);
/* Whether the row's workqueues are in sysfs on the context's kernel (an unknown kernel: no). */
bool wq_owner_knob_in_sysfs(struct wq_ctx *ctx, const struct wq_owner_knob *k);
/*
 * Why NAME (a name or a glob) is absent from sysfs and what to change instead,
 * into buf: lines (joined by '\n') each the rest of a "NAME: ..." message; 0 when a row knows it, -ENOENT
 * when none does. Where the row's workqueues are in sysfs on this kernel, it
 * says the device that makes one does not exist now.
 */
int wq_owner_knob_absent(struct wq_ctx *ctx, const char *name, char *buf, size_t len);
/*
 * A workqueue that sysfs does not show, as the kernel would create an
 * unbound one (explain's and monitor's model): every possible CPU, the
 * default scope, NUMA affinity on (<= 6.5), max_active the owner's default
 * (btrfs's thread_pool, dm-crypt's online CPUs) or half the kernel's limit.
 * knob may be NULL. 0 or -ENOMEM; the caller clears info.
 */
int wq_owner_knob_model(struct wq_ctx *ctx, const char *name, const struct wq_owner_knob *knob, struct wq_info *info);
/* btrfs's default thread_pool on this machine: min(online CPUs + 2, 8); 0 without a topology. */
int wq_btrfs_thread_pool_default(struct wq_ctx *ctx);

#endif
