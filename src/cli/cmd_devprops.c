// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hidden diagnostic: the properties owner.* matching sees for a device —
 * libudev on the live system, the uevent file and DIR/run/udev/data in a
 * sysroot — one KEY=VALUE per line, as `udevadm info -q property` prints.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../lib/core/owner.h"
#include "../lib/core/root.h"
#include "cli.h"

static int run(struct cli *cli, int argc, char **argv)
{
	struct wq_owner_info oi;
	char devpath[512];
	int r;

	if (argc != 2) {
		cli_err(cli, "device-props: need one DEVPATH (/sys/devices/... or /devices/...)");
		return EXIT_USAGE;
	}
	if (wq_root_devpath(argv[1], devpath, sizeof(devpath)) < 0) {
		cli_err(cli, "%s: not a device path below /sys/devices", argv[1]);
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	r = wq_device_props(cli->ctx, devpath, &oi);
	if (r < 0) {
		cli_err(cli, "%s: %s", argv[1], r == -ENODEV ? "not a device (no subsystem link)" : wq_strerror(-r));
		wq_owner_info_clear(&oi);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < oi.nprops; i++)
		printf("%s=%s\n", oi.props[i].key, oi.props[i].value);
	wq_owner_info_clear(&oi);
	return EXIT_OK;
}

const struct cmd cmd_devprops = {
    .name = "device-props",
    .run = run,
    .summary = "show the properties owner.* matching sees for a device",
    .usage = "DEVPATH",
    .options = NULL,
    .hidden = true,
};
