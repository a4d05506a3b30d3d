// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl dump DIR: the options of lib/dump.c's copy of what wqctl reads, for --sysroot elsewhere. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>

#include "../lib/dump.h"
#include "cli.h"

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{NULL, 0, NULL, 0}};
	int c, r, files;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		cli_err(cli, "dump: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli_no_table(cli, "dump", false))
		return EXIT_USAGE;
	if (optind + 1 != argc) {
		cli_err(cli, "dump: need exactly one DIR");
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	r = wq_dump(cli->ctx, argv[optind], &files);
	if (files >= 0)
		cli_info(cli, "dump: %d files in %s", files, argv[optind]);
	return r < 0 ? EXIT_FAIL : EXIT_OK;
}

const struct cmd cmd_dump = {
    .name = "dump",
    .run = run,
    .summary = "copy everything wqctl reads into DIR, for --sysroot DIR elsewhere",
    .usage = "DIR",
    .options = NULL,
};
