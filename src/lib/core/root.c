// SPDX-License-Identifier: GPL-2.0-or-later
/* The root handle: every path wqctl reads or writes, opened inside the sysroot. */
#define _GNU_SOURCE
#include "root.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../util/macro.h"

/* replace_data()'s mode for "the mode of the file being replaced, which must exist" */
#define KEEP_MODE ((mode_t)-1)
static int replace_data(const struct wq_root *root, const char *rel, mode_t mode, const char *data, size_t len,
			bool durable);

struct wq_root {
	int dirfd;
	bool live;
	bool no_openat2;
	bool sysfs_known, sysfs; /* sys_is_sysfs(), once asked */
	int wqfd; /* WQ_P_WQ, opened at its first use (open_wq_file()); -1 before, -2 if it failed */
	char *path;
	char *abs; /* the kernel's name of the root directory, for wq_root_canonical() */
};

unsigned long long wq_self_pidns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

int wq_root_new(const char *sysroot, struct wq_root **out)
{
	struct wq_root *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->live = !sysroot;
	r->wqfd = -1;
	r->path = strdup(sysroot ? sysroot : "/");
	if (!r->path) {
		free(r);
		return -ENOMEM;
	}
	r->dirfd = open(r->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->dirfd < 0) {
		int e = -errno;

		free(r->path);
		free(r);
		return e;
	}
	*out = r;
	return 0;
}

int wq_root_new_outdir(const char *dir, struct wq_root **out, char *why, size_t whysz)
{
	struct wq_root *r;
	struct stat st;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), e;

	*out = NULL;
	if (fd < 0) {
		e = errno;
		if ((e == ELOOP || e == ENOTDIR) && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)) {
			snprintf(why, whysz, "a symlink (not followed: name the directory itself)");
			return -EPERM;
		}
		snprintf(why, whysz, "%s", strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		snprintf(why, whysz, "%s", strerror(e));
		return -e;
	}
	if (geteuid() == 0 && (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		close(fd);
		snprintf(why, whysz,
			 st.st_uid != 0 ? "owned by uid %u, not root: another user could put what root writes elsewhere"
					: "writable by group or others (mode %04o): chmod go-w it",
			 st.st_uid != 0 ? (unsigned int)st.st_uid : (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(dir))) {
		free(r);
		close(fd);
		return -ENOMEM;
	}
	r->live = false;
	r->wqfd = -1;
	r->dirfd = fd;
	*out = r;
	return 0;
}

void wq_root_free(struct wq_root *root)
{
	if (!root)
		return;
	close(root->dirfd);
	if (root->wqfd >= 0)
		close(root->wqfd);
	free(root->path);
	free(root->abs);
	free(root);
}

bool wq_root_is_live(const struct wq_root *root)
{
	return root->live;
}

const char *wq_root_path(const struct wq_root *root)
{
	return root->path;
}

/* openat2() of rel below dirfd with that resolve; fd or -errno (-ENOSYS: no openat2()). */
static int openat2_fd(int dirfd, const char *rel, int flags, mode_t mode, unsigned long long resolve)
{
	struct open_how how = {
	    .flags = (unsigned long long)(flags | O_CLOEXEC),
	    .mode = (flags & O_CREAT) ? mode : 0,
	    .resolve = resolve,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

static int openat_fd(int dirfd, const char *rel, int flags, mode_t mode)
{
	int fd = openat(dirfd, rel, flags | O_CLOEXEC, mode);

	return fd < 0 ? -errno : fd;
}

/* rel from the root directory: openat2() below a sysroot, openat() on the live tree. */
static int open_below(const struct wq_root *root, const char *rel, int flags, mode_t mode)
{
	if (!root->live && !root->no_openat2) {
		int fd = openat2_fd(root->dirfd, rel, flags, mode, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);

		if (fd != -ENOSYS)
			return fd;
		((struct wq_root *)root)->no_openat2 = true;
	}
	return openat_fd(root->dirfd, rel, flags, mode);
}

/*
 * A file below WQ_P_WQ ("NAME/ATTR") from a descriptor of that directory:
 * two components to look up where the path from the root has six, for each
 * of the six files of each workqueue (show on 10,000 workqueues and 8,192
 * CPUs: 482 ms instead of 509, median of 11). Below a sysroot the walk
 * refuses any symlink (RESOLVE_NO_SYMLINKS) and "..", and such a path is
 * opened from the root instead, so it resolves exactly as before. -EAGAIN:
 * take the root's way.
 */
static int open_wq_file(const struct wq_root *root, const char *rest, int flags, mode_t mode)
{
	struct wq_root *rw = (struct wq_root *)root;
	int fd;

	if (rw->wqfd == -1) { /* tried once: the root's way serves a tree without it */
		fd = open_below(root, WQ_P_WQ, O_PATH | O_DIRECTORY, 0);
		rw->wqfd = fd < 0 ? -2 : fd;
	}
	if (rw->wqfd < 0)
		return -EAGAIN;
	if (root->live)
		return openat_fd(root->wqfd, rest, flags, mode);
	if (root->no_openat2)
		return -EAGAIN; /* the root's way, whose fallback is openat() */
	fd = openat2_fd(root->wqfd, rest, flags, mode, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS);
	return fd == -ELOOP || fd == -EXDEV || fd == -ENOSYS ? -EAGAIN : fd;
}

/*
 * The one place that opens below the root. In a dump, openat2() keeps
 * absolute symlinks inside it; kernels without openat2() fall back to
 * openat() (a dump is then trusted like the live tree).
 */
static int open_at(const struct wq_root *root, const char *rel, int flags, mode_t mode)
{
	static const char wq_prefix[] = WQ_P_WQ "/";

	while (*rel == '/')
		rel++;
	if (!strncmp(rel, wq_prefix, sizeof(wq_prefix) - 1) && rel[sizeof(wq_prefix) - 1]) {
		int fd = open_wq_file(root, rel + sizeof(wq_prefix) - 1, flags, mode);

		if (fd != -EAGAIN)
			return fd;
	}
	return open_below(root, rel, flags, mode);
}

int wq_root_open(const struct wq_root *root, const char *rel, int flags)
{
	return open_at(root, rel, flags, 0);
}

/*
 * Only regular files are read or written: a FIFO or a device in a dump (or
 * planted in a state directory) would block or misbehave. Callers open with
 * O_NONBLOCK so that a FIFO's open returns at once and is refused here.
 * Takes the result of an open (a descriptor or -errno); closes it on refusal.
 */
static int regular_fd_size(int fd, off_t *size)
{
	struct stat st;
	int r;

	if (fd < 0)
		return fd;
	*size = 0;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -WQ_ENOTREG;
	else
		return *size = st.st_size, fd;
	close(fd);
	return r;
}

static int regular_fd(int fd)
{
	off_t size;

	return regular_fd_size(fd, &size);
}

/*
 * Read a whole file. size, its st_size, ends the read once that much has
 * come, without the read() that only returns end of file: half the reads of
 * a listing of thousands of workqueues in a dump. sysfs reports 4096 and
 * procfs 0 whatever they hold, so there the read goes on to end of file.
 */
static int read_fd(int fd, char **out, off_t size)
{
	size_t cap = size > 0 && size < (1 << 24) ? (size_t)size + 1 : 4096, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb;

			if (cap >= (1U << 24)) {
				free(buf);
				return -EFBIG;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			free(buf);
			return (int)n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (size > 0 && len == (size_t)size)
			break;
	}
	buf[len] = '\0';
	/* A kernel attribute never holds a NUL: a value cut short there would be wrong. */
	if (memchr(buf, '\0', len)) {
		free(buf);
		return -WQ_ENUL;
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	*out = buf;
	return 0;
}

int wq_fd_read(int fd, char **out)
{
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	return read_fd(fd, out, 0);
}

const char *wq_strerror(int e)
{
	switch (e) {
	case WQ_ENOTREG: return "not a regular file";
	case WQ_ENUL: return "contains a NUL byte";
	case WQ_ENOTPOSSIBLE: return "lists CPUs that are not possible";
	case WQ_EBADCPUS: return "not a CPU list or mask";
	case WQ_ETMPFILE:
		return "the temporary file beside it (.NAME.wqctl-new) cannot be made: the directory is not writable or "
		       "something is in the way; nothing was written";
	default: return strerror(e);
	}
}

int wq_root_read(const struct wq_root *root, const char *rel, char **out)
{
	off_t size;
	int fd = regular_fd_size(open_at(root, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0), &size);
	int r;

	if (fd < 0)
		return fd;
	r = read_fd(fd, out, size);
	close(fd);
	return r;
}

/*
 * Read a file into buf, as read_fd() but with no allocation: the read
 * buffers of a listing of thousands of workqueues, and at 8,192 CPUs a
 * 2.3 KB one for each cpumask, which glibc serves from its bins and not
 * its per-thread cache. Room for size bytes of file when the last one is
 * the newline that is stripped; anything more is -EOVERFLOW.
 */
static int read_fd_into(int fd, char *buf, size_t size, off_t fsize, bool nul_ok)
{
	size_t len = 0;

	for (;;) {
		ssize_t n;

		if (len == size) {
			char more;

			if (fsize > 0 && (size_t)fsize == len)
				break;
			n = read(fd, &more, 1); /* full: only the end of the file may follow */
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			if (n > 0)
				return -EOVERFLOW;
			break;
		}
		n = read(fd, buf + len, size - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (fsize > 0 && len == (size_t)fsize)
			break;
	}
	if (!nul_ok && memchr(buf, '\0', len))
		return -WQ_ENUL;
	if (len && buf[len - 1] == '\n')
		len--;
	if (len >= size || len > INT_MAX)
		return -EOVERFLOW;
	buf[len] = '\0';
	return (int)len;
}

static int read_into(const struct wq_root *root, const char *rel, char *buf, size_t size, bool nul_ok)
{
	off_t fsize;
	int fd, r;

	if (!size)
		return -EOVERFLOW;
	fd = regular_fd_size(open_at(root, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0), &fsize);
	if (fd < 0)
		return fd;
	r = read_fd_into(fd, buf, size, fsize, nul_ok);
	close(fd);
	return r;
}

int wq_root_read_buf(const struct wq_root *root, const char *rel, char *buf, size_t size)
{
	return read_into(root, rel, buf, size, false);
}

int wq_root_read_bytes(const struct wq_root *root, const char *rel, char *buf, size_t size)
{
	return read_into(root, rel, buf, size, true);
}

/*
 * Is the sysroot's sys/ the kernel's sysfs? --sysroot /, or a container's
 * DIR with the host's /sys bound at DIR/sys: its files take one write() as
 * on the live root (a temporary file and a rename cannot be made there).
 * Asked once per root.
 */
static bool sys_is_sysfs(const struct wq_root *root)
{
	struct wq_root *rw = (struct wq_root *)root;

	if (!rw->sysfs_known) {
		struct statfs sf;
		int fd = open_below(root, "sys", O_PATH | O_DIRECTORY, 0);

		rw->sysfs = fd >= 0 && fstatfs(fd, &sf) == 0 && sf.f_type == SYSFS_MAGIC;
		rw->sysfs_known = true;
		if (fd >= 0)
			close(fd);
	}
	return rw->sysfs;
}

int wq_root_write(const struct wq_root *root, const char *rel, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, r = 0;

	/*
	 * A dump is a plain file system: O_TRUNC then write() would leave the
	 * file empty if killed in between (sysfs ignores O_TRUNC). Replace it
	 * whole instead, keeping its mode.
	 */
	while (*rel == '/')
		rel++;
	if (!root->live && !(!strncmp(rel, "sys/", 4) && sys_is_sysfs(root)))
		/* an attribute, durable no more than sysfs is: no fsync (thousands in one apply) */
		return replace_data(root, rel, KEEP_MODE, value, len, false);
	fd = wq_root_open_file(root, rel, O_WRONLY | O_TRUNC | O_NOFOLLOW, 0);
	if (fd < 0)
		return fd;
	n = write(fd, value, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int wq_file_open(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, mode);

	return regular_fd(fd < 0 ? -errno : fd);
}

int wq_root_open_file(const struct wq_root *root, const char *rel, int flags, mode_t mode)
{
	return regular_fd(open_at(root, rel, flags | O_NONBLOCK | O_NOCTTY, mode));
}

/* path relative to a sysroot it lies in, or NULL (live, or a path outside it) */
static const char *below_root(const struct wq_root *root, const char *path)
{
	size_t n = strlen(root->path);

	while (n > 1 && root->path[n - 1] == '/')
		n--;
	if (!root->live && !strncmp(path, root->path, n) && path[n] == '/')
		return path + n;
	return NULL;
}

int wq_root_open_path(const struct wq_root *root, const char *path, int flags)
{
	const char *rel = below_root(root, path);

	return rel ? wq_root_open_file(root, rel, flags, 0) : wq_file_open(path, flags, 0);
}

int wq_root_readlink_path(const struct wq_root *root, const char *path, char *buf, size_t size)
{
	const char *rel = below_root(root, path);
	ssize_t n;

	if (rel)
		return wq_root_readlink(root, rel, buf, size);
	n = readlink(path, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

int wq_root_mkdirs(const struct wq_root *root, const char *reldir)
{
	_cleanup_free_ char *p = strdup(reldir);
	char *s;

	if (!p)
		return -ENOMEM;
	for (s = p; *s == '/'; s++)
		;
	for (;;) {
		char *slash = strchr(s, '/'), *base;
		int fd, pfd;

		if (slash)
			*slash = '\0';
		fd = wq_root_open(root, p, O_PATH | O_DIRECTORY);
		if (fd == -ENOENT) {
			/* create it in its parent, itself resolved below the root */
			base = strrchr(p, '/');
			if (base) {
				*base = '\0';
				pfd = wq_root_open(root, p, O_PATH | O_DIRECTORY);
				*base++ = '/';
			} else {
				base = p;
				pfd = wq_root_open(root, ".", O_PATH | O_DIRECTORY);
			}
			if (pfd < 0)
				return pfd;
			fd = mkdirat(pfd, base, 0755) < 0 && errno != EEXIST ? -errno : 0;
			close(pfd);
			if (fd == 0)
				fd = wq_root_open(root, p, O_PATH | O_DIRECTORY);
		}
		if (fd < 0)
			return fd;
		close(fd);
		if (!slash)
			return 0;
		*slash = '/';
		s = slash + 1;
	}
}

/* The directory of rel, opened below the root, and rel's last component. */
static int open_parent(const struct wq_root *root, const char *rel, char **base)
{
	_cleanup_free_ char *dir = strdup(rel);
	char *slash;
	int fd;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	fd = wq_root_open(root, slash ? dir : ".", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	*base = strdup(slash ? slash + 1 : dir);
	if (!*base || !**base || streq(*base, ".") || streq(*base, "..")) {
		int e = *base ? -EINVAL : -ENOMEM;

		free(*base);
		*base = NULL; /* the caller's cleanup frees it too */
		close(fd);
		return e;
	}
	return fd;
}

/* replace_data() in the directory dfd: base replaced by a temporary file renamed over it. */
static int replace_in(int dfd, const char *base, mode_t mode, const char *data, size_t len, bool durable)
{
	_cleanup_free_ char *tmp = NULL;
	int fd, r = 0;
	ssize_t n;

	/*
	 * One fixed temporary name: a run killed before rename() leaves it
	 * behind, and the next run removes it instead of adding another.
	 */
	if (asprintf(&tmp, ".%s.wqctl-new", base) < 0)
		return -ENOMEM;
	if (mode == KEEP_MODE) {
		struct stat st;

		if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		if (!S_ISREG(st.st_mode))
			return -WQ_ENOTREG;
		mode = st.st_mode & 07777;
	}
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777);
	if (fd < 0 && errno == EEXIST) {
		/* a killed run left it: removed only then, not before every write (a system call each) */
		if (unlinkat(dfd, tmp, 0) < 0 && errno != ENOENT)
			return -WQ_ETMPFILE; /* a directory or a file we may not remove is in the way */
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777);
	} else if (fd < 0 && (errno == EISDIR || errno == ENOTEMPTY)) {
		errno = EEXIST;
	}
	if (fd < 0) {
		/* nothing was written: say why the temporary file could not be made */
		return errno == EACCES || errno == EPERM || errno == EEXIST || errno == EISDIR || errno == ENOTEMPTY ||
			       errno == ELOOP
			   ? -WQ_ETMPFILE
			   : -errno;
	}
	/* a short write is retried: the write that fails then says why (ENOSPC on a full disk, not EIO) */
	for (size_t done = 0; done < len && r == 0; done += (size_t)n) {
		n = write(fd, (const char *)data + done, len - done);
		if (n < 0 && errno == EINTR)
			n = 0;
		else if (n < 0)
			r = -errno;
		else if (n == 0)
			r = -EIO;
	}
	if (r == 0 && ((durable && fsync(fd) < 0) || fchmod(fd, mode) < 0))
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	/* rename() replaces a symlink at the destination, it never writes through one */
	if (r == 0 && renameat(dfd, tmp, dfd, base) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dfd, tmp, 0);
	return r;
}

static int replace_data(const struct wq_root *root, const char *rel, mode_t mode, const char *data, size_t len,
			bool durable)
{
	_cleanup_free_ char *base = NULL;
	int dfd, r;

	while (*rel == '/')
		rel++;
	dfd = open_parent(root, rel, &base);
	if (dfd < 0)
		return dfd;
	r = replace_in(dfd, base, mode, data, len, durable);
	close(dfd);
	return r;
}

int wq_file_replace(const char *path, mode_t mode, const char *data, size_t len)
{
	_cleanup_free_ char *dir = strdup(path);
	const char *base;
	char *slash;
	int dfd, r;

	if (!dir)
		return -ENOMEM;
	slash = strrchr(dir, '/');
	base = slash ? slash + 1 : dir;
	if (!*base || streq(base, ".") || streq(base, ".."))
		return -EISDIR;
	if (slash)
		*slash = '\0';
	dfd = open(slash ? (*dir ? dir : "/") : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	r = replace_in(dfd, base, mode, data, len, true);
	close(dfd);
	return r;
}

int wq_root_drop_temp(const struct wq_root *root, const char *rel)
{
	_cleanup_free_ char *base = NULL, *tmp = NULL;
	struct stat st;
	int dfd, r = 0;

	while (*rel == '/')
		rel++;
	if (root->live)
		return 0;
	dfd = open_parent(root, rel, &base);
	if (dfd < 0)
		return dfd == -ENOENT ? 0 : dfd;
	if (asprintf(&tmp, ".%s.wqctl-new", base) < 0)
		r = -ENOMEM;
	else if (fstatat(dfd, tmp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) && unlinkat(dfd, tmp, 0) == 0)
		r = 1;
	close(dfd);
	return r;
}

int wq_root_replace(const struct wq_root *root, const char *rel, mode_t mode, void (*fill)(FILE *f, const void *data),
		    const void *data)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f)
		return -ENOMEM;
	fill(f, data);
	r = fclose(f) != 0 ? -ENOMEM : 0;
	return r < 0 ? r : replace_data(root, rel, mode, buf ? buf : "", len, true);
}

int wq_root_unlink(const struct wq_root *root, const char *rel)
{
	_cleanup_free_ char *base = NULL;
	int dfd, r = 0;

	while (*rel == '/')
		rel++;
	dfd = open_parent(root, rel, &base);
	if (dfd < 0)
		return dfd == -ENOENT ? 0 : dfd;
	if (unlinkat(dfd, base, 0) < 0 && errno != ENOENT)
		r = -errno;
	close(dfd);
	return r;
}

int wq_root_symlink(const struct wq_root *root, const char *target, const char *rel)
{
	_cleanup_free_ char *base = NULL;
	int dfd, r = 0;

	while (*rel == '/')
		rel++;
	dfd = open_parent(root, rel, &base);
	if (dfd < 0)
		return dfd;
	if (symlinkat(target, dfd, base) < 0 && errno != EEXIST)
		r = -errno;
	close(dfd);
	return r;
}

int wq_root_stat(const struct wq_root *root, const char *rel, struct stat *st)
{
	int fd = wq_root_open(root, rel, O_PATH);
	int r = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, st) < 0)
		r = -errno;
	close(fd);
	return r;
}

int wq_root_probe(const struct wq_root *root, const char *rel)
{
	int fd = wq_root_open(root, rel, O_PATH);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

bool wq_root_exists(const struct wq_root *root, const char *rel)
{
	struct stat st;

	return wq_root_stat(root, rel, &st) == 0;
}

DIR *wq_root_opendir(const struct wq_root *root, const char *rel)
{
	int fd = wq_root_open(root, rel, O_RDONLY | O_DIRECTORY);
	DIR *d;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return d;
}

/* Each name in the directory open at fd but . and .., to fn; closes fd. 0 or -errno. */
static int each_name_fd(int fd, void (*fn)(const char *name, void *data), void *data)
{
	_Alignas(struct dirent64) char buf[4096];
	int r = 0;

	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : 0;
			break;
		}
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *de = (const struct dirent64 *)(buf + off);

			if (de->d_reclen == 0 || (ssize_t)de->d_reclen > n - off) {
				r = -EIO;
				break;
			}
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				fn(de->d_name, data);
			off += de->d_reclen;
		}
		if (r < 0)
			break;
	}
	close(fd);
	return r;
}

int wq_root_each_name(const struct wq_root *root, const char *rel, void (*fn)(const char *name, void *data), void *data)
{
	return each_name_fd(wq_root_open(root, rel, O_RDONLY | O_DIRECTORY), fn, data);
}

int wq_root_each_name_path(const struct wq_root *root, const char *path, void (*fn)(const char *name, void *data),
			   void *data)
{
	const char *rel = below_root(root, path);
	int fd;

	if (rel)
		fd = open_at(root, rel, O_RDONLY | O_DIRECTORY, 0);
	else
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return each_name_fd(fd < 0 && !rel ? -errno : fd, fn, data);
}

/* The kernel's path of an open descriptor (/proc/self/fd). 0 or -errno. */
static int fd_path(int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return buf[0] == '/' ? 0 : -EXDEV;
}

/* Who may change what a root-run file holds: owner root, no group or other write (sticky dirs aside). */
static int owner_rule(const struct stat *st, bool dir, const char *path, char *why, size_t whysz)
{
	const char *what = dir ? "its directory " : "it";

	if (!dir)
		path = "";
	if (st->st_uid != 0) {
		snprintf(why, whysz, "%s%s is owned by uid %u, not root", what, path, (unsigned int)st->st_uid);
		return -EPERM;
	}
	/* a root-owned sticky directory (/tmp) lets nobody else rename what root owns in it */
	if ((st->st_mode & 022) && !(dir && (st->st_mode & S_ISVTX))) {
		snprintf(why, whysz, "%s%s is writable by %s (chmod go-w)", what, path,
			 st->st_mode & 002 ? "anyone" : "its group");
		return -EPERM;
	}
	return 0;
}

int wq_fd_trusted(int fd, char *why, size_t whysz)
{
	char path[PATH_MAX];
	struct stat st, last;
	int dfd, r;

	if (geteuid() != 0)
		return 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	if ((r = owner_rule(&st, false, NULL, why, whysz)) < 0)
		return r;
	r = fd_path(fd, path, sizeof(path));
	if (r < 0) {
		snprintf(why, whysz, "its path cannot be resolved (/proc/self/fd): %s", strerror(-r));
		return r == -EXDEV || r == -ENOENT ? -EPERM : r;
	}
	/* every directory on the resolved path, walked from / without following anything */
	dfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (fstat(dfd, &last) < 0 || (r = owner_rule(&last, true, "/", why, whysz)) < 0) {
		close(dfd);
		return r < 0 ? r : -errno;
	}
	for (char *p = path + 1, *slash; (slash = strchr(p, '/')); p = slash + 1) {
		int nfd;

		*slash = '\0';
		nfd = openat(dfd, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			r = -errno;
			snprintf(why, whysz, "%s: %s", path, strerror(-r));
			close(dfd);
			return r == -ENOENT || r == -ENOTDIR || r == -ELOOP ? -EPERM : r;
		}
		r = fstat(nfd, &last) < 0 ? -errno : 0;
		if (r == 0 && !strchr(slash + 1, '/') && (last.st_mode & S_ISVTX) && (last.st_mode & 002) &&
		    last.st_uid == 0) {
			/* the file's own directory: in a shared one such as /tmp, others could add names beside it */
			snprintf(why, whysz,
				 "its directory %s is a shared one anyone may write to (sticky, as /tmp): keep it in a "
				 "directory only root may write to (a profile: /etc/wqctl/profiles)",
				 path);
			r = -EPERM;
		}
		if (!strchr(slash + 1, '/'))
			last.st_mode &= ~(mode_t)S_ISVTX;
		if (r < 0 || (r = owner_rule(&last, true, path, why, whysz)) < 0) {
			close(nfd);
			close(dfd);
			return r;
		}
		*slash = '/';
		close(dfd);
		dfd = nfd;
	}
	close(dfd);
	return 0;
}

int wq_root_canonical(const struct wq_root *root, const char *rel, char *out, size_t size)
{
	char buf[PATH_MAX];
	size_t len;
	int fd, r;

	if (!root->abs) {
		r = fd_path(root->dirfd, buf, sizeof(buf));
		if (r < 0)
			return r;
		if (!(((struct wq_root *)root)->abs = strdup(streq(buf, "/") ? "" : buf)))
			return -ENOMEM;
	}
	fd = wq_root_open(root, rel, O_PATH);
	if (fd < 0)
		return fd;
	r = fd_path(fd, buf, sizeof(buf));
	close(fd);
	if (r < 0)
		return r;
	len = strlen(root->abs);
	/* outside the root's name (a bind mount, a moved root): the caller walks instead */
	if (strncmp(buf, root->abs, len) || (buf[len] != '/' && buf[len] != '\0'))
		return -EXDEV;
	for (rel = buf + len; *rel == '/'; rel++)
		;
	if (strlen(rel) >= size)
		return -ENAMETOOLONG;
	memcpy(out, rel, strlen(rel) + 1);
	return 0;
}

int wq_root_readlink(const struct wq_root *root, const char *rel, char *buf, size_t size)
{
	_cleanup_free_ char *base = NULL;
	ssize_t n;
	int dfd;

	/* Resolve the parent inside the root, then read the link itself. */
	while (*rel == '/')
		rel++;
	dfd = open_parent(root, rel, &base);
	if (dfd < 0)
		return dfd;
	n = readlinkat(dfd, base, buf, size - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(dfd);
	return (int)n;
}

char *wq_root_join(const struct wq_root *root, const char *rel)
{
	char *s = NULL;

	while (*rel == '/')
		rel++;
	if (asprintf(&s, "%s%s%s", root->path, root->path[strlen(root->path) - 1] == '/' ? "" : "/", rel) < 0)
		return NULL;
	return s;
}

bool wq_path_is_canonical(const char *p)
{
	size_t len = strlen(p);

	return p[0] == '/' && !strstr(p, "/../") && !strstr(p, "/./") && !strstr(p, "//") &&
	       !(len >= 3 && !strcmp(p + len - 3, "/..")) && !(len >= 2 && !strcmp(p + len - 2, "/."));
}

int wq_root_devpath(const char *arg, char *out, size_t size)
{
	const char *p = strncmp(arg, "/sys/", 5) ? arg : arg + 4;
	size_t len;

	if (strncmp(p, "/devices/", 9) || !wq_path_is_canonical(p))
		return -EINVAL;
	len = strlen(p);
	while (len > 9 && p[len - 1] == '/')
		len--;
	if (len + 4 >= size)
		return -ENAMETOOLONG;
	snprintf(out, size, "sys%.*s", (int)len, p);
	return 0;
}
