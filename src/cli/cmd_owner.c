// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wqctl owner WORKQUEUE: the device a workqueue belongs to (wqctl.profile(5), OWNERS), the
 * properties owner.* keys match, and how its NUMA node ('cpumask = local')
 * was found, step by step, or why it cannot be.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../lib/core/owner.h"
#include "../lib/core/wq.h"
#include "cli.h"
#include "json.h"

static int json_out(const char *wq, const struct wq_owner_info *oi, const char *owner)
{
	json_object *doc = json_object_new_object(), *steps = json_object_new_array(),
		    *props = json_object_new_object();
	char dev[520];

	snprintf(dev, sizeof(dev), "/%s", oi->devpath);
	json_object_object_add(doc, "workqueue", json_object_new_string(wq));
	json_object_object_add(doc, "owner", owner ? json_object_new_string(owner) : NULL);
	json_object_object_add(doc, "present", json_object_new_boolean(oi->present));
	json_object_object_add(doc, "device", oi->present ? json_object_new_string(dev) : NULL);
	json_object_object_add(doc, "udev_id", owner ? json_object_new_string(oi->dbid) : NULL);
	json_object_object_add(doc, "node", oi->node >= 0 ? json_object_new_int(oi->node) : NULL);
	json_object_object_add(doc, "node_reason", owner && oi->node < 0 ? json_object_new_string(oi->node_why) : NULL);
	for (size_t i = 0; i < oi->nsteps; i++)
		json_object_array_add(steps, json_object_new_string(oi->steps[i]));
	json_object_object_add(doc, "steps", steps);
	for (size_t i = 0; i < oi->nprops; i++)
		json_object_object_add(props, oi->props[i].key, json_object_new_string(oi->props[i].value));
	json_object_object_add(doc, "properties", props);
	return json_print(doc);
}

static void text_out(const char *wq, const struct wq_owner_info *oi, const char *owner)
{
	printf("workqueue:  %s\n", wq);
	if (!owner) {
		printf("owner:      none (the name maps to no device; owner.* keys never match it and "
		       "'cpumask = local' is skipped)\n");
		return;
	}
	printf("owner:      %s\n", owner);
	if (oi->present)
		printf("device:     /%s\n", oi->devpath);
	else
		printf("device:     not present\n");
	printf("udev id:    %s\n", oi->dbid);
	if (oi->node >= 0)
		printf("node:       %d ('cpumask = local' is node %d's CPUs)\n", oi->node, oi->node);
	else
		printf("node:       - ('cpumask = local' is skipped: %s)\n", oi->node_why);
	for (size_t i = 0; i < oi->nsteps; i++)
		printf("%s%s\n", i ? "            " : "found by:   ", oi->steps[i]);
	for (size_t i = 0; i < oi->nprops; i++)
		printf("%s%s=%s\n", i ? "            " : "properties: ", oi->props[i].key, oi->props[i].value);
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{NULL, 0, NULL, 0}};
	struct wq_owner_info oi;
	const char *wq, *owner;
	char buf[64];
	int c, r, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		cli_err(cli, "owner: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli_no_table(cli, "owner", true))
		return EXIT_USAGE;
	if (argc - optind != 1) {
		cli_err(cli, "owner: need one WORKQUEUE (see wqctl owner --help)");
		return EXIT_USAGE;
	}
	wq = argv[optind];
	if (!wq_name_is_valid(wq)) {
		cli_err(cli, "%s: not a valid workqueue name", wq);
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (!wq_exists(cli->ctx, wq)) {
		cli_no_such_wq(cli, wq);
		return EXIT_NONE_EXIST;
	}
	r = wq_owner_resolve(cli->ctx, wq, &oi);
	if (r < 0) {
		cli_err(cli, "%s: cannot resolve its owner: %s", wq, wq_strerror(-r));
		wq_owner_info_clear(&oi);
		return EXIT_FAIL;
	}
	owner = wq_owner_format(&oi.o, buf, sizeof(buf));
	rc = EXIT_OK;
	if (cli->json)
		rc = json_out(wq, &oi, owner);
	else
		text_out(wq, &oi, owner);
	wq_owner_info_clear(&oi);
	return rc;
}

const struct cmd cmd_owner = {
    .name = "owner",
    .run = run,
    .summary = "show a workqueue's owner device, its properties and how its NUMA node is found",
    .usage = "WORKQUEUE",
    .options = "  -J          JSON output\n",
};
