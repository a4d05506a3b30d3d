/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rescuer threads: the kernel gives every workqueue created with
 * WQ_MEM_RECLAIM a kernel thread of its own, in sysfs or not, so the
 * threads under /proc are the kernel's own list of those workqueues.
 */
#ifndef WQ_RESCUER_H
#define WQ_RESCUER_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

struct wq_rescuer {
	char name[64]; /* the workqueue's name as its thread carries it */
	char rel[32]; /* "proc/PID/stat", the file it was read from */
	int pid;
	size_t comm_len; /* the thread's name as /proc shows it, its length */
	/*
	 * The thread's name fills the 15 characters /proc shows of a task's own
	 * name, and no rescuer's is longer (a kernel that shows workers' full
	 * names shows some longer): name may be the start of the workqueue's.
	 */
	bool truncated;
};

/*
 * One line of /proc/PID/stat: the rescuer it describes into *r (pid and
 * rel not set). 1 a rescuer, 0 another task, -EINVAL a line that does not
 * parse.
 */
int wq_rescuer_parse(const char *stat, struct wq_rescuer *r);
/* Whether r is the rescuer of the workqueue NAME (a truncated name: the start of NAME). */
bool wq_rescuer_is(const struct wq_rescuer *r, const char *name);
/*
 * Every rescuer thread under the root's proc/, sorted by name, into *out
 * (malloc'ed, *n of them). Processes that exit while they are read are
 * skipped. 0, -ENOENT when the root has no proc/ with processes, -errno.
 */
int wq_rescuers(struct wq_ctx *ctx, struct wq_rescuer **out, size_t *n);
/*
 * Whether the root has processes to find rescuer threads in (a live
 * system, or a dump that copied them), without reading any: cheap where
 * wq_rescuers() reads every kernel thread.
 */
bool wq_rescuers_findable(struct wq_ctx *ctx);
/* The same, less those whose workqueue sysfs lists: the workqueues known to exist outside it. */
int wq_rescuers_outside(struct wq_ctx *ctx, struct wq_rescuer **out, size_t *n);

#endif
