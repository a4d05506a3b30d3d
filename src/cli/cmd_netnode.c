// SPDX-License-Identifier: GPL-2.0-or-later
/* Hidden diagnostic: which NUMA node an iSCSI peer address resolves to (the owner path's netlink walk). */
#include <stdio.h>

#include "../lib/core/owner.h"
#include "cli.h"

static int run(struct cli *cli, int argc, char **argv)
{
	char chain[1024], why[400];
	int node;

	if (argc != 2) {
		cli_err(cli, "net-node: need one ADDRESS");
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	node = wq_net_node(cli->ctx, argv[1], chain, sizeof(chain), why, sizeof(why));
	printf("address: %s\npath:    %s\nnode:    %d\n", argv[1], chain[0] ? chain : "-", node);
	if (node < 0)
		printf("why:     %s (fallback: no 'local' CPUs; the setting is skipped)\n", why);
	return EXIT_OK;
}

const struct cmd cmd_netnode = {
    .name = "net-node",
    .run = run,
    .summary = "show the NUMA node the network path to ADDRESS resolves to",
    .usage = "ADDRESS",
    .options = NULL,
    .hidden = true,
};
