// SPDX-License-Identifier: GPL-2.0-or-later
/* What both bench references do at the least: read one workqueue's attribute files. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* Bytes read from ROOT/sys/devices/virtual/workqueue/WQ/{per_cpu,max_active,...}. */
static long read_attrs(const char *root, const char *wq)
{
	static const char *const attrs[] = {"per_cpu",	      "max_active",	 "cpumask",
					    "affinity_scope", "affinity_strict", "nice"};
	char path[512], buf[4096];
	long total = 0;

	for (unsigned i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "%s/sys/devices/virtual/workqueue/%s/%s", root, wq, attrs[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += n;
		close(fd);
	}
	return total;
}
