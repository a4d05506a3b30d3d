// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD fault injection: fail the N-th write() to a file whose path
 * contains FAILWRITE_MATCH (default "/workqueue/") with FAILWRITE_ERRNO
 * (FAILWRITE_N may list several: "2,4" fails the second and the fourth)
 * (EINVAL, EACCES, EIO, ENOENT, EOVERFLOW). CI runs as root, so file modes
 * cannot make sysfs-like writes fail; this can.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count;

/* n is one of the comma-separated numbers in list */
static int listed(const char *list, int n)
{
	for (char *end; *list; list = end + (*end == ',')) {
		long v = strtol(list, &end, 10);

		if (end == list)
			return 0;
		if (v == n)
			return 1;
	}
	return 0;
}

static int wanted_errno(void)
{
	const char *e = getenv("FAILWRITE_ERRNO");

	if (!e || !strcmp(e, "EIO"))
		return EIO;
	if (!strcmp(e, "EINVAL"))
		return EINVAL;
	if (!strcmp(e, "EACCES"))
		return EACCES;
	if (!strcmp(e, "ENOENT"))
		return ENOENT;
	if (!strcmp(e, "EOVERFLOW"))
		return EOVERFLOW;
	return EIO;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);
	const char *n = getenv("FAILWRITE_N"), *match = getenv("FAILWRITE_MATCH");
	char link[64], path[4096];
	ssize_t l;

	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (n && fd > 2) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		l = readlink(link, path, sizeof(path) - 1);
		if (l > 0) {
			path[l] = '\0';
			if (strstr(path, match ? match : "/workqueue/") && listed(n, ++count)) {
				errno = wanted_errno();
				return -1;
			}
		}
	}
	return real(fd, buf, len);
}
