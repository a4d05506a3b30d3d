// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A second reference for bench/hook.sh: the least any hook built on the
 * system inih can do for this event — check the udev variables, parse the
 * profile with inih, match sections by name, and read the workqueue's
 * attribute files. It links libinih dynamically, as wqctl does.
 *   minhook ROOT PROFILE
 */
#include <fcntl.h>
#include <fnmatch.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *wq;
static int matched;

static int handler(void *user, const char *section, const char *key, const char *value)
{
	(void)user;
	(void)value;
	if (!strncmp(section, "workqueue ", 10) && !fnmatch(section + 10, wq, 0) && *key)
		matched++;
	return 1;
}

int main(int argc, char **argv)
{
	static const char *const attrs[] = {"per_cpu",	      "max_active",	 "cpumask",
					    "affinity_scope", "affinity_strict", "nice"};
	const char *devpath = getenv("DEVPATH"), *action = getenv("ACTION"), *subsys = getenv("SUBSYSTEM");
	char path[512], buf[4096];
	long total = 0;

	if (argc < 3 || !devpath || !action || !subsys || strncmp(devpath, "/devices/virtual/workqueue/", 27))
		return 2;
	wq = devpath + 27;
	if (ini_parse(argv[2], handler, NULL) != 0)
		return 2;
	for (unsigned i = 0; matched && i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		int fd;
		ssize_t n;

		snprintf(path, sizeof(path), "%s/sys/devices/virtual/workqueue/%s/%s", argv[1], wq, attrs[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += n;
		close(fd);
	}
	return total > 0 ? 0 : 1;
}
