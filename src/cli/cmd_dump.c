// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl dump DIR: the options of lib/dump.c's copy of what wqctl reads, for --sysroot elsewhere. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../lib/core/dump.h"
#include "cli.h"

/* Whether dir exists with something in it (a dump into it would mix with what is there). */
static bool holds_something(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool any = false;

	if (!d)
		return errno != ENOENT;
	while (!any && (e = readdir(d)))
		any = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return any;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{"force", no_argument, NULL, 'f'}, {NULL, 0, NULL, 0}};
	bool force = false;
	int c, r, files;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'f') {
			force = true;
			continue;
		}
		cli_err(cli, "dump: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli_no_table(cli, "dump", false))
		return EXIT_USAGE;
	if (optind + 1 != argc) {
		cli_err(cli, "dump: need exactly one DIR");
		return EXIT_USAGE;
	}
	if (!force && holds_something(argv[optind])) {
		cli_err(cli,
			"%s: exists and is not empty (or cannot be read): dump writes into a new or empty directory; "
			"--force writes into it, replacing what it copies",
			argv[optind]);
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	r = wq_dump(cli->ctx, argv[optind], &files);
	if (files >= 0 && !cli->quiet)
		printf("dump: %d files in %s; read them with 'wqctl --sysroot %s'\n", files, argv[optind],
		       argv[optind]);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct cmd cmd_dump = {
    .name = "dump",
    .run = run,
    .summary = "copy everything wqctl reads into DIR, for --sysroot DIR elsewhere",
    .usage = "[--force] DIR",
    .options = "  --force   write into a DIR that is not empty (what dump copies replaces what is there)\n",
};
