/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wqctl's own files under the root (run/wqctl, etc/wqctl): the run lock,
 * the holds, the journal of originals, the min_active records, the active
 * profile set, the saved experiments (var/lib/wqctl). Nothing else opens
 * them (ARCHITECTURE.md).
 */
#ifndef WQ_STATE_H
#define WQ_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ctx.h"
#include "target.h"
#include "wq.h"

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
	enum wq_target target; /* what path names (told when the entry is read or noted) */
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
/* Remove the temporary file a run killed while writing the journal left beside it. 1, 0 or -errno. */
int wq_journal_drop_temp(struct wq_ctx *ctx);

/*
 * min_active lowered by wqctl (>= 6.9): every max_active write sets
 * min_active = min(min_active, max_active) until the workqueue is recreated.
 * run/wqctl/min_active keeps "NAME <tab> INODE <tab> MIN" per workqueue; the
 * sysfs directory's inode number tells a recreated workqueue (a new kernfs
 * node) from the one that was written, udev or not.
 */
/* The min_active wqctl left on wq (this instance of it), or 0. Read once per run. */
int wq_minact_get(struct wq_ctx *ctx, const char *wq);
/* A max_active written below the workqueue's min_active. */
struct wq_minact_low {
	const char *name;
	int min;
};
/* After the writes (under the lock): record each of low[] that lowers what the records hold. 0 or -errno. */
int wq_minact_record(struct wq_ctx *ctx, const struct wq_minact_low *low, size_t n);

/* The active profile names from etc/wqctl/active-profiles. 0, -ENOENT or -errno. */
int wq_active_read(struct wq_ctx *ctx, char ***names, size_t *n);
/* Replace the active set atomically (temp file + rename). 0 or -errno. */
int wq_active_write(struct wq_ctx *ctx, char *const *names, size_t n);
/* Path of the active-profiles file (malloc'ed). */
char *wq_active_path(struct wq_ctx *ctx);

/* experiment --save's documents, NAME.json: kept below the root. */
#define WQ_SAVED_DIR "var/lib/wqctl/experiments"
/* Name of a saved experiment: letters, digits, '.', '_', '-', not starting with '.'. */
bool wq_saved_name_ok(const char *n);
bool wq_saved_exists(struct wq_ctx *ctx, const char *name);
/* Keep a document as NAME (replaced atomically). 0 or -errno. */
int wq_saved_write(struct wq_ctx *ctx, const char *name, void (*fill)(FILE *f, const void *data), const void *data);
/*
 * The saved NAME opened to be read: its command runs as root, so it must be
 * root's alone as a profile is (owner, mode, every directory on its path).
 * fd, -ENOENT, -EPERM with why (not root's alone; why "" for another
 * failure of the check) or -errno.
 */
int wq_saved_open(struct wq_ctx *ctx, const char *name, char *why, size_t whysz);
/* The names of the saved experiments, sorted; none: 0 with *n 0. 0 or -errno. */
int wq_saved_names(struct wq_ctx *ctx, char ***names, size_t *n);
/* Where the saved experiment NAME is, as a host path (malloc'ed), or NULL. */
char *wq_saved_path(struct wq_ctx *ctx, const char *name);

#endif
