/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * apply's sessions: a profile set onto the running system in each of its
 * modes (every section with the globals, at a person's command or at boot;
 * one workqueue; a workqueue's udev add or remove; an owner device's udev
 * event), with the lock order and the journal's upkeep each mode needs.
 * The command line parses options and the udev environment into a struct
 * wq_apply, loads the profiles and prints; every decision is here.
 */
#ifndef WQ_SESSION_H
#define WQ_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "apply.h"
#include "ctx.h"
#include "plan.h"
#include "profile.h"

/* How long a udev event waits for the run lock (the rule's runs are short). */
#define WQ_UDEV_LOCK_WAIT_MS 3000

enum wq_apply_mode {
	WQ_APPLY_ALL, /* the set's sections and globals (apply, apply --profile) */
	WQ_APPLY_BOOT, /* the same, by the boot unit */
	WQ_APPLY_WQ, /* one workqueue (apply --workqueue) */
	WQ_APPLY_UDEV_ADD, /* a workqueue's add or change event */
	WQ_APPLY_UDEV_REMOVE, /* a workqueue's remove event */
	WQ_APPLY_UDEV_OWNER, /* an owner device's event (block, scsi, scsi_host) */
};

struct wq_apply {
	/* asked */
	enum wq_apply_mode mode;
	const char *wq; /* WQ, UDEV_ADD, UDEV_REMOVE: the workqueue */
	const char *devpath, *subsystem; /* UDEV_OWNER: the device, as the event names it */
	bool dry; /* plan only: no lock, no journal, no write */
	/* found */
	char **targets; /* the workqueues concerned; NULL (ntargets 0) for every one */
	size_t ntargets;
	int lock; /* the run lock while held between resolve and commit, else -1 */
	struct wq_settings st;
	struct wq_skips skips;
	struct wq_plan plan;
	size_t skipped; /* settings this machine could not take for a warning: apply's exit 1 */
	int dropped; /* UDEV_REMOVE: the journal entries dropped */
};

/* What wq_apply_begin() found: go on with the profiles, or stop here. */
enum wq_apply_step {
	WQ_APPLY_GO, /* load the profiles, then wq_apply_resolve() */
	WQ_APPLY_DONE, /* nothing to apply (no owned workqueue, gone again, the remove handled): exit 0 */
	WQ_APPLY_KEPT, /* a remove event while the workqueue is there: its journal entries are kept */
	WQ_APPLY_NO_WQ, /* --workqueue names no workqueue */
};

/*
 * Before any profile is read: the workqueues the request concerns. A
 * remove event forgets the workqueue's journal entries (the lock only when
 * there are some, a second look while it is still there); an owner event
 * maps the device (its MAJ:MIN, or hostN) to its workqueues; a named
 * workqueue must exist. Initialises a (free it with wq_apply_free()).
 * A step, or -EINVAL (no valid workqueue name where the mode needs one; an
 * owner event without DEVPATH and SUBSYSTEM, or whose DEVPATH names no such device),
 * -ETIMEDOUT (the lock is held) or -errno.
 */
int wq_apply_begin(struct wq_ctx *ctx, struct wq_apply *a);
/*
 * With the profile set: the settings, the plan and what is skipped. A
 * person's apply of whole profiles (ALL, BOOT) tries the lock first and
 * reads under it, so that the commit need not read again; a udev event
 * reads first and locks only to write; a dry run never locks. 0 or -errno.
 */
int wq_apply_resolve(struct wq_ctx *ctx, struct wq_apply *a, const struct wq_pset *set);
/* The transaction (wq_plan_commit), releasing the lock. 0, or -EIO after the errors were logged. */
int wq_apply_commit(struct wq_ctx *ctx, struct wq_apply *a);
/* Whether each setting of a profile set holds: verify's rows, metrics' drift. */
struct wq_holds {
	struct wq_settings st; /* the settings resolved against the running system */
	enum wq_cond *cond; /* per setting: its own condition, or drift or foreign (wq_setting_holds) */
	char (*why)[sizeof(((struct wq_setting *)0)->why)]; /* per setting: the reason */
};
/* Resolve set (every section, the globals) and judge each setting against the journal. 0 or -errno. */
int wq_holds_judge(struct wq_ctx *ctx, const struct wq_pset *set, struct wq_holds *h);
void wq_holds_free(struct wq_holds *h);

/* Of the plan's changes: written, already set, failed. */
void wq_apply_counts(const struct wq_apply *a, size_t *written, size_t *same, size_t *failed);
void wq_apply_free(struct wq_apply *a);

#endif
