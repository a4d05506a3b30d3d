// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD fault injection: fail the N-th write() to a file whose path
 * contains FAILWRITE_MATCH (default "/workqueue/") with FAILWRITE_ERRNO
 * (FAILWRITE_N may list several: "2,4" fails the second and the fourth)
 * (EINVAL, EACCES, EIO, ENOENT, EOVERFLOW). CI runs as root, so file modes
 * cannot make sysfs-like writes fail; this can. The writes FAILWRITE_SKEW
 * lists land with a '0' added before the newline and report success: what
 * the file then holds reads back different from what was written, as when
 * the kernel adjusts a value. FAILDLOPEN_MATCH makes dlopen() of a library
 * whose name contains it fail.
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
	const char *n = getenv("FAILWRITE_N"), *skew = getenv("FAILWRITE_SKEW"), *match = getenv("FAILWRITE_MATCH");
	char link[64], path[4096], text[4096];
	ssize_t l;

	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if ((n || skew) && fd > 2) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		l = readlink(link, path, sizeof(path) - 1);
		if (l > 0) {
			path[l] = '\0';
			if (!strstr(path, match ? match : "/workqueue/"))
				return real(fd, buf, len);
			++count;
			if (n && listed(n, count)) {
				errno = wanted_errno();
				return -1;
			}
			if (skew && listed(skew, count) && len > 0 && len < sizeof(text)) {
				size_t k = len - (((const char *)buf)[len - 1] == '\n');

				memcpy(text, buf, k);
				text[k] = '0';
				memcpy(text + k + 1, (const char *)buf + k, len - k);
				return real(fd, text, len + 1) < 0 ? -1 : (ssize_t)len;
			}
		}
	}
	return real(fd, buf, len);
}

/* dlopen() of a library whose name contains FAILDLOPEN_MATCH fails (a json-c that cannot be loaded) */
void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	const char *m = getenv("FAILDLOPEN_MATCH");

	if (!real)
		real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	if (m && *m && file && strstr(file, m))
		return NULL;
	return real(file, mode);
}
