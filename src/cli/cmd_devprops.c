// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hidden diagnostic: the properties owner.* matching sees for a device —
 * libudev on the live system, the uevent file and DIR/run/udev/data in a
 * sysroot — one KEY=VALUE per line, as `udevadm info -q property` prints.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../lib/owner.h"
#include "cli.h"

static int run(struct cli *cli, int argc, char **argv)
{
	struct wq_owner_info oi;
	char devpath[512];
	const char *p;
	int r;

	if (argc != 2) {
		cli_err(cli, "device-props: need one DEVPATH (/sys/devices/... or /devices/...)");
		return EXIT_USAGE;
	}
	p = argv[1];
	if (!strncmp(p, "/sys/", 5))
		p += 4;
	if (strncmp(p, "/devices/", 9) || strstr(p, "/../") || strstr(p, "/./") ||
	    snprintf(devpath, sizeof(devpath), "sys%s", p) >= (int)sizeof(devpath)) {
		cli_err(cli, "%s: not a device path below /sys/devices", argv[1]);
		return EXIT_USAGE;
	}
	while (strlen(devpath) > 4 && devpath[strlen(devpath) - 1] == '/')
		devpath[strlen(devpath) - 1] = '\0';
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	r = wq_device_props(cli->ctx, devpath, &oi);
	if (r < 0) {
		cli_err(cli, "%s: %s", argv[1], r == -ENODEV ? "not a device (no subsystem link)" : strerror(-r));
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
