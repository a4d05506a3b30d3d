// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for bench/hook.sh: a minimal program that does what the udev
 * path must do at the least — read one workqueue's attribute files.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const char *const attrs[] = {"per_cpu",	      "max_active",	 "cpumask",
					    "affinity_scope", "affinity_strict", "nice"};
	const char *root = argc > 1 ? argv[1] : "";
	const char *wq = argc > 2 ? argv[2] : "writeback";
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
	return total > 0 ? 0 : 1;
}
