// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for bench/scale.sh: a minimal program that reads what a command
 * must read at the least on a large tree, and nothing else.
 *   scalefloor ROOT [-w WQ] [-p PROFILE] [-o] [-W LIST]
 *   scalefloor ROOT -k
 * Always the topology: the CPU masks, every node's CPU list and, for the
 * default 'cache' scope, one last-level-cache list per cache: for a CPU not
 * covered by a list read before, the level of each cache leaf (index0, 1, ...
 * while they exist), then the highest one's CPU list; the root cpumask and
 * the default scope. Then the attribute files of
 *   every workqueue, or
 *   -w WQ        only that one,
 *   -p PROFILE   only those a [workqueue GLOB] section of PROFILE names (the
 *                profile is read, its section lines matched with fnmatch);
 *   -o           and the owner device of each matched kcryptd-MAJ:MIN-N:
 *                its sysfs link, uevent, dm/name, dm/uuid, udev database
 *                file, and the numa_node above each of its slaves;
 *   -W LIST      then replace each "PATH<TAB>VALUE" line's file below ROOT
 *                as a write into a tree must (temporary file, rename).
 *
 * -k (the floor of show --outside) reads instead kthreadd's children file
 * and every listed kernel thread's proc/PID/stat, nothing else.
 *
 * Files are opened from a descriptor of ROOT, and a workqueue's from one of
 * the workqueue directory, as wqctl opens them: the path of a file from /
 * has four more components to look up than its path from ROOT, and a
 * floor that looked them up for 60,000 files read 7% slower than one
 * opening from ROOT and 10.6% slower than this one.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attrs.h"

static const char *root = "";
static int rootfd = AT_FDCWD; /* root, which paths not starting with / are read from */
static char *globs[256];
static int nglobs;
static long total;

static long slurp(const char *path, char *buf, size_t size)
{
	int fd = openat(rootfd, path, O_RDONLY | O_CLOEXEC);
	long n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + n, size - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	total += n;
	return n;
}

static void topology(void)
{
	static const char *const cpu[] = {"possible", "online", "isolated", "nohz_full"};
	static char buf[65536];
	char path[PATH_MAX];
	static unsigned char covered[8192];
	DIR *d;
	struct dirent *de;
	int last = -1;

	for (unsigned i = 0; i < sizeof(cpu) / sizeof(cpu[0]); i++) {
		snprintf(path, sizeof(path), "sys/devices/system/cpu/%s", cpu[i]);
		if (slurp(path, buf, sizeof(buf)) > 0 && i == 0) {
			char *dash = strrchr(buf, '-'), *comma = strrchr(buf, ',');
			last = atoi(dash && (!comma || dash > comma) ? dash + 1 : comma ? comma + 1 : buf);
		}
	}
	snprintf(path, sizeof(path), "%s/sys/devices/system/node", root);
	if ((d = opendir(path))) {
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, "node", 4)) {
				snprintf(path, sizeof(path), "sys/devices/system/node/%s/cpulist", de->d_name);
				slurp(path, buf, sizeof(buf));
			}
		closedir(d);
	}
	for (int c = 0; c <= last && c < 8192; c++) {
		char *p;

		int best = -1, best_level = -1;

		if (covered[c])
			continue;
		for (int k = 0;; k++) {
			snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cache/index%d/level", c, k);
			if (slurp(path, buf, sizeof(buf)) < 0)
				break;
			if (atoi(buf) > best_level) {
				best_level = atoi(buf);
				best = k;
			}
		}
		if (best < 0)
			continue;
		snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", c, best);
		if (slurp(path, buf, sizeof(buf)) <= 0)
			continue;
		for (p = buf; *p;) {
			long a = strtol(p, &p, 10), b = a;

			if (*p == '-')
				b = strtol(p + 1, &p, 10);
			for (long x = a; x <= b && x < 8192; x++)
				covered[x] = 1;
			if (*p != ',')
				break;
			p++;
		}
	}
	snprintf(path, sizeof(path), "sys/devices/virtual/workqueue/cpumask");
	slurp(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "sys/module/workqueue/parameters/default_affinity_scope");
	slurp(path, buf, sizeof(buf));
}

static void profile(const char *file)
{
	char line[1024];
	FILE *f = fopen(file, "re");

	if (!f)
		exit(1);
	while (fgets(line, sizeof(line), f) && nglobs < 256) {
		char *end;

		total += (long)strlen(line);
		if (strncmp(line, "[workqueue ", 11) || !(end = strchr(line, ']')))
			continue;
		*end = '\0';
		globs[nglobs++] = strdup(line + 11);
	}
	fclose(f);
}

static int matched(const char *wq)
{
	for (int i = 0; i < nglobs; i++)
		if (!fnmatch(globs[i], wq, 0))
			return 1;
	return 0;
}

/* the numa_node of the nearest device at or above dir */
static void numa_above(char *dir)
{
	char path[PATH_MAX + 16], buf[64];

	for (char *slash; (slash = strrchr(dir, '/')) && slash > dir; *slash = '\0') {
		snprintf(path, sizeof(path), "%s/numa_node", dir);
		if (slurp(path, buf, sizeof(buf)) >= 0)
			return;
	}
}

/* realpath() with one open and one readlink, not a readlink per component (as wqctl) */
static char *resolve(const char *path, char *out)
{
	char proc[64];
	int fd = openat(rootfd, path, O_PATH | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return NULL;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, out, PATH_MAX - 1);
	close(fd);
	if (n < 0)
		return NULL;
	out[n] = '\0';
	return out;
}

static void owner(const char *wq)
{
	char path[PATH_MAX + 64], dev[PATH_MAX], buf[4096], slave[PATH_MAX];
	unsigned int maj, min;
	struct dirent *de;
	DIR *d;

	if (sscanf(wq, "kcryptd-%u:%u-", &maj, &min) != 2)
		return;
	snprintf(path, sizeof(path), "sys/dev/block/%u:%u", maj, min);
	if (!resolve(path, dev))
		return;
	snprintf(path, sizeof(path), "%s/uevent", dev);
	slurp(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "%s/dm/name", dev);
	slurp(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "%s/dm/uuid", dev);
	slurp(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "run/udev/data/b%u:%u", maj, min);
	slurp(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "%s/slaves", dev);
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		char link[PATH_MAX + 300];

		if (de->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/slaves/%s", dev, de->d_name);
		if (resolve(link, slave))
			numa_above(slave);
	}
	closedir(d);
}

static void rewrite(const char *list)
{
	char line[PATH_MAX + 256], path[2 * PATH_MAX + 512], tmp[2 * PATH_MAX + 528];
	FILE *f = fopen(list, "re");

	if (!f)
		exit(1);
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');
		int fd;

		if (!tab)
			continue;
		*tab++ = '\0';
		snprintf(path, sizeof(path), "%s", line);
		snprintf(tmp, sizeof(tmp), "%s.new", path);
		fd = openat(rootfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, tab, strlen(tab)) < 0 || close(fd) < 0 ||
		    renameat(rootfd, tmp, rootfd, path) < 0)
			exit(1);
	}
	fclose(f);
}

static int kthreads(void)
{
	static char list[1 << 20];
	char buf[1024], path[64];
	long n = slurp("proc/2/task/2/children", list, sizeof(list));

	if (n < 0)
		return 1;
	for (char *save = NULL, *tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		snprintf(path, sizeof(path), "proc/%s/stat", tok);
		slurp(path, buf, sizeof(buf));
	}
	printf("%ld\n", total);
	return 0;
}

int main(int argc, char **argv)
{
	const char *one = NULL, *prof = NULL, *list = NULL;
	char path[PATH_MAX];
	struct dirent *de;
	int owners = 0, o;
	DIR *d;

	if (argc < 2)
		return 2;
	root = argv[1];
	rootfd = open(*root ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return 1;
	optind = 2;
	while ((o = getopt(argc, argv, "w:p:oW:k")) != -1) {
		switch (o) {
		case 'k': return kthreads();
		case 'w': one = optarg; break;
		case 'p': prof = optarg; break;
		case 'o': owners = 1; break;
		case 'W': list = optarg; break;
		default: return 2;
		}
	}
	topology();
	if (prof)
		profile(prof);
	if (one) {
		read_attrs(root, one);
	} else {
		int dir = wq_dir_open(root);

		snprintf(path, sizeof(path), "%s/sys/devices/virtual/workqueue", root);
		if (dir < 0 || !(d = opendir(path)))
			return 1;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' || (prof && !matched(de->d_name)))
				continue;
			total += read_attrs_at(dir, de->d_name);
			if (owners)
				owner(de->d_name);
		}
		closedir(d);
	}
	if (list)
		rewrite(list);
	printf("%ld\n", total);
	return 0;
}
