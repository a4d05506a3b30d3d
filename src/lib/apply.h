/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From a profile set to concrete settings: merge per target with the
 * override rules of wqctl.profile(5), validate against each workqueue, and
 * build the plan.
 * Also the journal of original values (revert) and the run lock.
 */
#ifndef WQ_APPLY_H
#define WQ_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "plan.h"
#include "profile.h"
#include "verdict.h"

struct wq_setting {
	char *object; /* "writeback/max_active", "cpumask", or the pattern for ABSENT */
	char *wq; /* NULL for a global knob */
	char *attr;
	char *value; /* as in the profile */
	char *write; /* kernel form (OK only) */
	char *path; /* root-relative file */
	char *current; /* as read */
	enum wq_vtype type;
	enum wq_cond cond; /* the verdict (verdict.h): verify's status, apply's action, the exit status */
	char why[480];
	const char *file;
	int line;
};

struct wq_settings {
	size_t n;
	struct wq_setting *v;
};

/*
 * Resolve set against the running system. only (nonly > 0) limits it to
 * those workqueues, which the caller has found present; globals includes the [global] keys. 0 or -errno.
 */
int wq_settings_resolve(struct wq_ctx *ctx, const struct wq_pset *set, char *const *only, size_t nonly, bool globals,
			struct wq_settings *out);
void wq_settings_free(struct wq_settings *s);
/*
 * What an apply leaves out and why, one group per profile line and
 * condition: a section that reaches no workqueue (with, for an owner's
 * workqueues kept out of sysfs, what to change instead), or an attribute
 * some workqueues lack or cannot resolve (the workqueues listed). Every
 * condition of severity info or warning (verdict.h); refusals are not in
 * here.
 */
struct wq_skip {
	const char *file;
	int line;
	const char *what; /* the attribute, or the section's pattern (section) */
	bool section;
	enum wq_cond cond;
	const char *why;
	char *owner_why; /* lines joined by '\n', or NULL */
	const char **wqs; /* the workqueues (not for a section) */
	size_t nwqs;
};
struct wq_skips {
	size_t n;
	struct wq_skip *v;
};
/* Group s's skipped settings; the groups point into s. 0 or -ENOMEM. */
int wq_settings_skips(struct wq_ctx *ctx, const struct wq_settings *s, struct wq_skips *out);
void wq_skips_free(struct wq_skips *k);

/*
 * Whether a resolved setting holds, as verify and metrics judge it: its own
 * condition, or for one that applies drift (the live value differs) and
 * foreign (wqctl wrote the profile's value, per the journal j, which may be
 * NULL, and another writer changed it since). why gets the reason.
 */
struct wq_journal;
enum wq_cond wq_setting_holds(const struct wq_setting *x, const struct wq_journal *j, char *why, size_t whysz);

/* Plan the OK settings: root cpumask first, then other globals, then workqueues. 0 or -ENOMEM. */
int wq_settings_plan(const struct wq_settings *s, struct wq_plan *plan);

/* Take the run lock below the root, waiting at most timeout_ms. fd or -errno (-ETIMEDOUT). */
int wq_lock_take(struct wq_ctx *ctx, int timeout_ms);
void wq_lock_release(int fd);
/*
 * Hold one file for as long as the descriptor returned stays open (an
 * experiment holds each file it writes, for its whole run): a lock on
 * run/wqctl/hold/HASH (wq_text_hash of the path), which also records who holds it. A second holder
 * gets -EBUSY and, in holder, what the first wrote ("pid 123"). The
 * hold is the kernel's flock: it ends with the process, however it ends.
 * fd or -errno.
 */
int wq_hold_take(struct wq_ctx *ctx, const char *path, char *holder, size_t holdersz);

struct wq_jentry {
	char *path;
	enum wq_vtype type;
	char *orig;
	char *written;
};

/* A journal entry's "written" text as it was before a note replaced it. */
struct wq_jundo {
	size_t i;
	char *written;
};

struct wq_journal {
	size_t n;
	struct wq_jentry *e;
	size_t cap; /* entries allocated */
	/*
	 * wq_journal_note()'s index: entry index + 1 by the path's hash (open
	 * addressing, 0 empty, nslot a power of two over twice n), so that
	 * noting a plan's changes does not scan the journal for each one.
	 * Built by the first note; wq_journal_drop() discards it.
	 */
	size_t *slot, nslot;
	/*
	 * wq_journal_mark()'s undo: the entries the file held (mark) and the
	 * "written" texts that notes replaced since, oldest first, so that a
	 * failed transaction gets back the journal it read without reading
	 * the file a second time.
	 */
	size_t mark;
	struct wq_jundo *undo;
	size_t nundo, undocap;
	bool marked;
};

/* Read the journal (empty when none). 0 or -errno. */
int wq_journal_read(struct wq_ctx *ctx, struct wq_journal *j);
/* Write it atomically (removed when empty). 0 or -errno. */
int wq_journal_write(struct wq_ctx *ctx, const struct wq_journal *j);
void wq_journal_free(struct wq_journal *j);
/* Record a change about to be made: keeps the first original, updates what was written. 0 or -ENOMEM. */
int wq_journal_note(struct wq_journal *j, const char *path, enum wq_vtype type, const char *orig, const char *written);
/*
 * Start a transaction: the notes from here on can be undone by
 * wq_journal_undo(). Only notes may change j in between (no drops).
 */
void wq_journal_mark(struct wq_journal *j);
/* Back to what j held at wq_journal_mark(): its entries, each with the text it had. */
void wq_journal_undo(struct wq_journal *j);
/* Drop an entry (restored or given up). */
void wq_journal_drop(struct wq_journal *j, size_t i);
/* Drop every entry i with drop[i], in one pass. */
void wq_journal_compact(struct wq_journal *j, const bool *drop);
/*
 * Forget the entries of a workqueue that is gone (its udev remove event):
 * a later workqueue of the same name is another instance, whose originals
 * are its own. Takes the lock only when there is something to drop.
 * Nothing is dropped while the workqueue is there (-EEXIST: a remove
 * event for one that was not removed, or one handled after the add of a
 * new instance). The number of entries dropped, or -errno.
 */
int wq_journal_forget(struct wq_ctx *ctx, const char *wq, int wait_ms);

#endif
