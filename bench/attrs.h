// SPDX-License-Identifier: GPL-2.0-or-later
/* What both bench references do at the least: read one workqueue's attribute files.
 * Includers define _GNU_SOURCE (O_PATH) before any include. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* The workqueue directory below ROOT, to open each workqueue's files from (as wqctl does). */
static inline int wq_dir_open(const char *root)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/sys/devices/virtual/workqueue", root);
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/*
 * Bytes read from WQ/{per_cpu,max_active,...} below the workqueue directory
 * dir: two components to look up for each file, not the whole path.
 */
static inline long read_attrs_at(int dir, const char *wq)
{
	static const char *const attrs[] = {"per_cpu",	      "max_active",	 "cpumask",
					    "affinity_scope", "affinity_strict", "nice"};
	char path[512], buf[4096];
	long total = 0;

	for (unsigned i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "%s/%s", wq, attrs[i]);
		fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += n;
		close(fd);
	}
	return total;
}

/* The same for one workqueue below ROOT. */
static inline long read_attrs(const char *root, const char *wq)
{
	int dir = wq_dir_open(root);
	long total;

	if (dir < 0)
		return 0;
	total = read_attrs_at(dir, wq);
	close(dir);
	return total;
}
