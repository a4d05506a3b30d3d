// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "root.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "macro.h"

struct wq_root {
	int dirfd;
	bool live;
	bool no_openat2;
	char *path;
};

int wq_root_new(const char *sysroot, struct wq_root **out)
{
	struct wq_root *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->live = !sysroot;
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

void wq_root_free(struct wq_root *root)
{
	if (!root)
		return;
	close(root->dirfd);
	free(root->path);
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

int wq_root_open(const struct wq_root *root, const char *rel, int flags)
{
	int fd;

	while (*rel == '/')
		rel++;
	if (!root->live && !root->no_openat2) {
		/* A dump's absolute symlinks must resolve inside the dump. */
		struct open_how how = {
		    .flags = (unsigned long long)(flags | O_CLOEXEC),
		    .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
		};

		fd = (int)syscall(SYS_openat2, root->dirfd, rel, &how, sizeof(how));
		if (fd >= 0)
			return fd;
		if (errno != ENOSYS)
			return -errno;
		((struct wq_root *)root)->no_openat2 = true;
	}
	fd = openat(root->dirfd, rel, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int read_fd(int fd, char **out)
{
	size_t cap = 4096, len = 0;
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
	}
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	*out = buf;
	return 0;
}

int wq_root_read(const struct wq_root *root, const char *rel, char **out)
{
	int fd = wq_root_open(root, rel, O_RDONLY);
	int r;

	if (fd < 0)
		return fd;
	r = read_fd(fd, out);
	close(fd);
	return r;
}

int wq_root_read_buf(const struct wq_root *root, const char *rel, char *buf, size_t size)
{
	_cleanup_free_ char *s = NULL;
	size_t len;
	int r = wq_root_read(root, rel, &s);

	if (r < 0)
		return r;
	len = strlen(s);
	if (len >= size)
		return -EOVERFLOW;
	memcpy(buf, s, len + 1);
	return (int)len;
}

int wq_root_write(const struct wq_root *root, const char *rel, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, r = 0;

	fd = wq_root_open(root, rel, O_WRONLY | O_TRUNC | O_NOFOLLOW);
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

int wq_root_readlink(const struct wq_root *root, const char *rel, char *buf, size_t size)
{
	_cleanup_free_ char *dir = strdup(rel);
	const char *base;
	char *slash;
	int dfd;
	ssize_t n;

	if (!dir)
		return -ENOMEM;
	/* Resolve the parent inside the root, then read the link itself. */
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		base = slash + 1;
		dfd = wq_root_open(root, dir, O_PATH | O_DIRECTORY);
	} else {
		base = dir;
		dfd = wq_root_open(root, ".", O_PATH | O_DIRECTORY);
	}
	if (dfd < 0)
		return dfd;
	n = readlinkat(dfd, base, buf, size - 1);
	if (n < 0) {
		n = -errno;
		close(dfd);
		return (int)n;
	}
	close(dfd);
	buf[n] = '\0';
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
