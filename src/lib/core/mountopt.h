/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mount options as settings: btrfs's thread_pool=N, the max_active of its
 * workqueues (which are not in sysfs). Read from proc/self/mounts; changed
 * on the live system by reconfiguring the mount (fspick and fsconfig), which
 * keeps every other option and flag as they are.
 *
 * Such a setting travels through plans, the journal and revert under a path
 * of its own, "mount:MOUNTPOINT OPTION", which no sysfs file can have.
 */
#ifndef WQ_MOUNTOPT_H
#define WQ_MOUNTOPT_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

#define WQ_MOUNTOPT_PREFIX "mount:"

struct wq_btrfs_mount {
	const char *dev, *dir; /* as the kernel names them, escapes undone */
	int thread_pool; /* in force: the option, or the default it shows none for */
	bool given; /* thread_pool= is among the options (not the default) */
};

/* Each btrfs line of proc/self/mounts to fn, in order. 0 or -errno (the file unreadable). */
int wq_btrfs_mounts(struct wq_ctx *ctx, void (*fn)(const struct wq_btrfs_mount *m, void *data), void *data);

/* Is path a mount option's ("mount:MOUNTPOINT OPTION")? */
bool wq_mountopt_is(const char *path);
/*
 * The path of option opt of the mount at dir into buf. -EINVAL for a mount
 * point that is not absolute and canonical or holds a control character or
 * a space, or an option other than thread_pool; -ENAMETOOLONG.
 */
int wq_mountopt_path(const char *dir, const char *opt, char *buf, size_t size);
/* Is path one wq_mountopt_path() makes (a journal line may hold anything)? */
bool wq_mountopt_valid(const char *path);
/* The object a path names, as users write it: "MOUNTPOINT OPTION". */
const char *wq_mountopt_object(const char *path);
/*
 * The value in force, *out malloc'ed ("6"). -ENOENT when nothing is mounted
 * there (the topmost mount at that point counts), -EMEDIUMTYPE when it is no
 * btrfs, -EINVAL for a malformed path, -errno.
 */
int wq_mountopt_read(struct wq_ctx *ctx, const char *path, char **out);
/*
 * A value for opt as the user gave it, checked: a thread_pool from 1 to the
 * kernel's max_active limit (btrfs's workqueues clamp there). 0 with *out
 * malloc'ed in kernel form, or -EINVAL with why.
 */
int wq_mountopt_check(struct wq_ctx *ctx, const char *opt, const char *value, char **out, char *why, size_t whysz);
/*
 * Reconfigure the mount with the option's new value. Live system only
 * (-EOPNOTSUPP below a sysroot); -errno as the kernel answers (-EINVAL for a
 * value it refuses), its own message logged at debug level.
 */
int wq_mountopt_write(struct wq_ctx *ctx, const char *path, const char *value);

#endif
