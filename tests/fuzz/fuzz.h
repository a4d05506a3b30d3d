/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the libFuzzer harnesses: a small sysroot (4 nodes x 4 CPUs, a
 * 6.12 workqueue tree) made once per process, and a silent log callback.
 */
#ifndef WQ_FUZZ_H
#define WQ_FUZZ_H

#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ctx.h"

static void fuzz_quiet(void *data, int level, const char *fmt, va_list ap)
{
	(void)data;
	(void)level;
	(void)fmt;
	(void)ap;
}

static void fuzz_put(const char *root, const char *rel, const char *data, size_t len)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = path + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f)
		abort();
	if (len)
		fwrite(data, 1, len, f);
	fclose(f);
}

static void fuzz_puts(const char *root, const char *rel, const char *s)
{
	fuzz_put(root, rel, s, strlen(s));
}

static char fuzz_dir[64];

static int fuzz_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void fuzz_cleanup(void)
{
	nftw(fuzz_dir, fuzz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* A fresh sysroot in a temporary directory, removed at exit; its path (static). */
static const char *fuzz_tree(void)
{
	static const char *const files[][2] = {
	    {"sys/devices/system/cpu/possible", "0-15\n"},
	    {"sys/devices/system/cpu/online", "0-15\n"},
	    {"sys/devices/system/cpu/isolated", "\n"},
	    {"sys/devices/system/cpu/nohz_full", "          (null)\n"},
	    {"proc/sys/kernel/osrelease", "6.12.95+deb12-amd64\n"},
	    {"proc/cmdline", "console=ttyS0\n"},
	    {"sys/module/workqueue/parameters/default_affinity_scope", "cache\n"},
	    {"sys/module/workqueue/parameters/power_efficient", "N\n"},
	    {"sys/devices/virtual/workqueue/cpumask", "ffff\n"},
	    {"sys/devices/virtual/workqueue/writeback/per_cpu", "0\n"},
	    {"sys/devices/virtual/workqueue/writeback/max_active", "256\n"},
	    {"sys/devices/virtual/workqueue/writeback/cpumask", "ffff\n"},
	    {"sys/devices/virtual/workqueue/writeback/nice", "0\n"},
	    {"sys/devices/virtual/workqueue/writeback/affinity_scope", "default (cache)\n"},
	    {"sys/devices/virtual/workqueue/writeback/affinity_strict", "0\n"},
	};
	char *dir = fuzz_dir;
	char p[256];

	/*
	 * In memory where the machine has a tmpfs: the sysfs harness rewrites 14
	 * files an input, and on the ext4 /tmp that was 70 s of a 20,000-input run.
	 */
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/wqctl-fuzz-XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(dir))
		abort();
	atexit(fuzz_cleanup);
	for (int n = 0; n < 4; n++) {
		char l[32];

		snprintf(p, sizeof(p), "sys/devices/system/node/node%d/cpulist", n);
		snprintf(l, sizeof(l), "%d-%d\n", n * 4, n * 4 + 3);
		fuzz_puts(dir, p, l);
	}
	for (int c = 0; c < 16; c++) {
		char l[32];

		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", c);
		snprintf(l, sizeof(l), "%d-%d\n", c / 4 * 4, c / 4 * 4 + 3);
		fuzz_puts(dir, p, l);
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index3/level", c);
		fuzz_puts(dir, p, "3\n");
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		fuzz_puts(dir, files[i][0], files[i][1]);
	return dir;
}

static struct wq_ctx *fuzz_ctx(const char *root)
{
	struct wq_ctx *ctx = NULL;

	if (wq_ctx_new(root, NULL, &ctx) < 0)
		return NULL;
	wq_ctx_set_log(ctx, fuzz_quiet, NULL);
	return ctx;
}

/* The input as a NUL-terminated string (inner NULs end it early). */
static char *fuzz_str(const unsigned char *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
