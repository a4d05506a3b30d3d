// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for bench/show.sh: a minimal program that reads what a listing
 * must read at the least — every workqueue's attribute files — and prints
 * one line per workqueue.
 *   showfloor ROOT
 */
#define _GNU_SOURCE
#include <dirent.h>

#include "attrs.h"

int main(int argc, char **argv)
{
	const char *root = argc > 1 ? argv[1] : "";
	char path[512];
	struct dirent *de;
	DIR *d;
	int dir = wq_dir_open(root);

	snprintf(path, sizeof(path), "%s/sys/devices/virtual/workqueue", root);
	d = opendir(path);
	if (!d || dir < 0)
		return 1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && read_attrs_at(dir, de->d_name) > 0)
			printf("%s\n", de->d_name);
	closedir(d);
	return 0;
}
