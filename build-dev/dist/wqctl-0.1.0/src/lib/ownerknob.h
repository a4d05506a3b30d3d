/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workqueues outside sysfs (no WQ_SYSFS) whose owner offers its own knob
 * for their concurrency: the one table of them, each row with the kernel
 * source it comes from.
 */
#ifndef WQ_OWNERKNOB_H
#define WQ_OWNERKNOB_H

#include "ctx.h"

struct wq_owner_knob {
	const char *pattern; /* glob on the name as the tracepoints carry it */
	const char *owner; /* "btrfs" */
	const char *knob; /* what to set */
	const char *how; /* how to change it at run time, or NULL */
	const char *source; /* kernel source of the facts */
};

/* The row for a workqueue name, or NULL. */
const struct wq_owner_knob *wq_owner_knob_find(const char *name);
/* btrfs's default thread_pool on this machine: min(online CPUs + 2, 8); 0 without a topology. */
int wq_btrfs_thread_pool_default(struct wq_ctx *ctx);

#endif
