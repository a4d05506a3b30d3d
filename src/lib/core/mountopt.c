// SPDX-License-Identifier: GPL-2.0-or-later
/* btrfs's thread_pool as a setting: proc/self/mounts to read it, fspick/fsconfig to change it. */
#define _GNU_SOURCE
#include "mountopt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "../util/macro.h"
#include "ownerknob.h"
#include "root.h"
#include "wq.h"

/* The kernel's octal escapes in /proc/self/mounts (\040 a space, \011 a tab, \012, \134) undone in place. */
static char *unoctal(char *s)
{
	char *w = s;

	for (const char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' && r[3] >= '0' &&
		    r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	return s;
}

/* Each line of proc/self/mounts as its fields (escapes undone but in the options) to fn. 0 or -errno. */
static int each_mount(struct wq_ctx *ctx, void (*fn)(char *const f[4], void *data), void *data)
{
	_cleanup_free_ char *mounts = NULL;
	int r = wq_root_read(ctx->root, WQ_P_MOUNTS, &mounts);

	if (r < 0)
		return r;
	for (char *l = mounts, *next; l && *l; l = next) {
		char *f[4] = {NULL}, *rest;
		int nf = 0;

		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		/* fields of any length, split in place (a mount point may be 4095 bytes) */
		for (rest = l; nf < 4 && rest;) {
			char *tok = strsep(&rest, " ");

			if (*tok)
				f[nf++] = tok;
		}
		if (nf == 4) {
			unoctal(f[0]);
			unoctal(f[1]);
			fn(f, data);
		}
	}
	return 0;
}

struct btrfs_each {
	struct wq_ctx *ctx;
	void (*fn)(const struct wq_btrfs_mount *m, void *data);
	void *data;
};

/* The thread_pool= a btrfs mount's options give, or -1 */
static int thread_pool_given(const char *opts)
{
	for (const char *o = opts; o; o = strchr(o, ',') ? strchr(o, ',') + 1 : NULL)
		if (!strncmp(o, "thread_pool=", 12))
			return atoi(o + 12);
	return -1;
}

static void btrfs_one(char *const f[4], void *data)
{
	const struct btrfs_each *b = data;
	int tp;
	struct wq_btrfs_mount m;

	if (strcmp(f[2], "btrfs"))
		return;
	tp = thread_pool_given(f[3]);
	/* btrfs shows thread_pool= only where it differs from min(online CPUs + 2, 8) (super.c) */
	m = (struct wq_btrfs_mount){.dev = f[0],
				    .dir = f[1],
				    .thread_pool = tp >= 0 ? tp : wq_btrfs_thread_pool_default(b->ctx),
				    .given = tp >= 0};
	b->fn(&m, b->data);
}

int wq_btrfs_mounts(struct wq_ctx *ctx, void (*fn)(const struct wq_btrfs_mount *m, void *data), void *data)
{
	struct btrfs_each b = {ctx, fn, data};

	return each_mount(ctx, btrfs_one, &b);
}

bool wq_mountopt_is(const char *path)
{
	return !strncmp(path, WQ_MOUNTOPT_PREFIX, strlen(WQ_MOUNTOPT_PREFIX));
}

int wq_mountopt_path(const char *dir, const char *opt, char *buf, size_t size)
{
	if (!wq_path_is_canonical(dir) || strcmp(opt, "thread_pool"))
		return -EINVAL;
	for (const char *p = dir; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == ' ')
			return -EINVAL;
	if ((size_t)snprintf(buf, size, WQ_MOUNTOPT_PREFIX "%s %s", dir, opt) >= size)
		return -ENAMETOOLONG;
	return 0;
}

const char *wq_mountopt_object(const char *path)
{
	return wq_mountopt_is(path) ? path + strlen(WQ_MOUNTOPT_PREFIX) : path;
}

/* path -> the mount point (into dir) and the option; -EINVAL when it is not one wq_mountopt_path() makes */
static int split(const char *path, char *dir, size_t size, const char **opt)
{
	const char *obj = wq_mountopt_object(path), *sp = strrchr(obj, ' ');
	char check[4200];

	if (!wq_mountopt_is(path) || !sp || (size_t)(sp - obj) >= size)
		return -EINVAL;
	memcpy(dir, obj, (size_t)(sp - obj));
	dir[sp - obj] = '\0';
	*opt = sp + 1;
	/* the same rules as the path was made under: a journal line could say anything */
	if (wq_mountopt_path(dir, *opt, check, sizeof(check)) < 0 || strcmp(check, path))
		return -EINVAL;
	return 0;
}

bool wq_mountopt_valid(const char *path)
{
	char dir[4096];
	const char *opt;

	return split(path, dir, sizeof(dir), &opt) == 0;
}

struct find {
	const char *dir;
	int thread_pool; /* as given, or -1 */
	bool found, btrfs;
};

static void find_one(char *const f[4], void *data)
{
	struct find *t = data;

	/* the last line at a mount point is the mount on top, the one a path reaches */
	if (strcmp(f[1], t->dir))
		return;
	t->found = true;
	t->btrfs = !strcmp(f[2], "btrfs");
	t->thread_pool = t->btrfs ? thread_pool_given(f[3]) : -1;
}

int wq_mountopt_read(struct wq_ctx *ctx, const char *path, char **out)
{
	char dir[4096];
	const char *opt;
	struct find f = {.dir = dir};
	int r = split(path, dir, sizeof(dir), &opt);

	*out = NULL;
	if (r < 0)
		return r;
	r = each_mount(ctx, find_one, &f);
	if (r < 0)
		return r;
	if (!f.found)
		return -ENOENT;
	if (!f.btrfs)
		return -EMEDIUMTYPE; /* another file system mounted on top */
	if (f.thread_pool < 0)
		f.thread_pool = wq_btrfs_thread_pool_default(ctx);
	if (f.thread_pool <= 0)
		return -EIO; /* no topology for the default */
	return asprintf(out, "%d", f.thread_pool) < 0 ? -ENOMEM : 0;
}

int wq_mountopt_check(struct wq_ctx *ctx, const char *opt, const char *value, char **out, char *why, size_t whysz)
{
	int limit = wq_max_active_limit(ctx, true);
	char *end;
	long v;

	*out = NULL;
	if (strcmp(opt, "thread_pool")) {
		snprintf(why, whysz, "%s: no such mount option setting (thread_pool is btrfs's)", opt);
		return -EINVAL;
	}
	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < 1) {
		snprintf(why, whysz, "expected a whole number of 1 or more");
		return -EINVAL;
	}
	if (limit > 0 && v > limit) {
		snprintf(why, whysz, "above %d, the most max_active the kernel gives a workqueue", limit);
		return -EINVAL;
	}
	return asprintf(out, "%ld", v) < 0 ? -ENOMEM : 0;
}

int wq_mountopt_write(struct wq_ctx *ctx, const char *path, const char *value)
{
	char dir[4096], msg[256];
	const char *opt;
	_cleanup_close_ int fd = -1;
	int r = split(path, dir, sizeof(dir), &opt);
	ssize_t n;

	if (r < 0)
		return r;
	if (!wq_root_is_live(ctx->root))
		return -EOPNOTSUPP;
	fd = fspick(AT_FDCWD, dir, FSPICK_CLOEXEC | FSPICK_NO_AUTOMOUNT | FSPICK_SYMLINK_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (fsconfig(fd, FSCONFIG_SET_STRING, opt, value, 0) == 0 &&
	    fsconfig(fd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0) == 0)
		return 0;
	r = -errno;
	/* what the filesystem said, one message a read */
	while ((n = read(fd, msg, sizeof(msg) - 1)) > 0) {
		msg[n] = '\0';
		wq_log(ctx, WQ_LOG_DEBUG, "%s: %s", dir, msg);
	}
	return r;
}
