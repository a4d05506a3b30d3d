// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A second reference for bench/hook.sh: the least any hook built on the
 * system inih can do for this event — check the udev variables, parse the
 * profile with inih, match sections by name, and read the workqueue's
 * attribute files. It links libinih dynamically, as wqctl does.
 *   minhook ROOT PROFILE
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

#include "attrs.h"

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
	const char *devpath = getenv("DEVPATH"), *action = getenv("ACTION"), *subsys = getenv("SUBSYSTEM");

	if (argc < 3 || !devpath || !action || !subsys || strncmp(devpath, "/devices/virtual/workqueue/", 27))
		return 2;
	wq = devpath + 27;
	if (ini_parse(argv[2], handler, NULL) != 0)
		return 2;
	return matched && read_attrs(argv[1], wq) > 0 ? 0 : 1;
}
