// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl set: validate every ATTR=VALUE, then write them through one plan. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util/macro.h"
#include "../lib/core/owner.h"
#include "../lib/core/plan.h"
#include "../lib/core/verdict.h"
#include "../lib/core/wq.h"
#include "cli.h"
#include "plan_out.h"
#include "profiles.h"

struct pair {
	int attr;
	const char *value;
};

/* True when name was given as it is (not only reached by a glob). */
static bool named(char **targets, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(targets[i], name))
			return true;
	return false;
}

/* The operands: WORKQUEUE targets and ATTR=VALUE pairs (each attribute once). EXIT_OK or EXIT_USAGE. */
static int parse_operands(struct cli *cli, int argc, char **argv, char **targets, size_t *ntargets, struct pair *pairs,
			  size_t *npairs)
{
	for (int i = optind; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			targets[(*ntargets)++] = argv[i];
			continue;
		}
		*eq = '\0';
		pairs[*npairs].attr = wq_attr_from_name(argv[i]);
		pairs[*npairs].value = eq + 1;
		if (pairs[*npairs].attr < 0) {
			const char *near = cli_nearest_attr(argv[i]);

			if (near)
				cli_err(cli, "%s: unknown attribute; did you mean '%s'?", argv[i], near);
			else
				cli_err(cli,
					"%s: unknown attribute (max_active cpumask affinity_scope affinity_strict nice "
					"numa)",
					argv[i]);
			return EXIT_USAGE;
		}
		for (size_t j = 0; j < *npairs; j++) {
			if (pairs[j].attr == pairs[*npairs].attr) {
				cli_err(cli, "%s: given twice", argv[i]);
				return EXIT_USAGE;
			}
		}
		(*npairs)++;
	}
	if (!*ntargets || !*npairs) {
		cli_err(cli, "set: need at least one WORKQUEUE and one ATTR=VALUE (see wqctl set --help)");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < *ntargets; i++) {
		if (!cli_is_glob(targets[i]) && !wq_name_is_valid(targets[i])) {
			cli_err(cli, "%s: not a valid workqueue name", targets[i]);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

/* One workqueue's pairs, each with its verdict, into the plan; the number refused (said). */
static int plan_one(struct cli *cli, const char *name, char **targets, size_t ntargets, const struct pair *pairs,
		    size_t npairs, bool force, struct wq_plan *plan)
{
	struct wq_info wi;
	struct wq_owner_info owner;
	int r = wq_info_read(cli->ctx, name, &wi), invalid = 0;

	wq_owner_resolve(cli->ctx, name, &owner);
	if (r < 0) {
		cli_err(cli, "%s: cannot read: %s", name, r == -ENOENT ? "no such workqueue" : wq_strerror(-r));
		wq_info_clear(&wi);
		wq_owner_info_clear(&owner);
		return 1;
	}
	for (size_t p = 0; p < npairs; p++) {
		const struct wq_attr_desc *d = &wq_attr_descs[pairs[p].attr];
		struct wq_req_verdict v;
		char obj[160], path[256];

		snprintf(obj, sizeof(obj), "%s/%s", wi.name, d->name);
		if (wq_request_attr(
			cli->ctx,
			&(struct wq_request){.wi = &wi,
					     .attr = (enum wq_attr)pairs[p].attr,
					     .value = pairs[p].value,
					     .owner_node = owner.node,
					     .owner_why = owner.o.kind == WQ_OWNER_NONE ? NULL : owner.node_why,
					     .flags = force ? WQ_REQ_FORCE : 0},
			&v) < 0) {
			invalid++;
			break;
		}
		/* a glob that also reaches per-cpu workqueues: those lack the unbound attributes; skip, as profiles do */
		if (v.cond == WQ_COND_PERCPU && !named(targets, ntargets, wi.name)) {
			cli_warn(cli, "%s: skipped: %s", obj, v.why);
			continue;
		}
		if (v.cond != WQ_COND_OK) {
			cli_say_refusal(cli, obj, pairs[p].value, &v);
			invalid++;
			continue;
		}
		if (pairs[p].attr == WQ_A_CPUMASK && strstr(pairs[p].value, "local"))
			cli_info(cli, "%s: local = NUMA node %d of %s", obj, owner.node, owner.o.id);
		wq_attr_path(path, sizeof(path), wi.name, d->name);
		r = wq_plan_add(plan, obj, path, NULL, d->type, wi.raw[pairs[p].attr], v.write);
		wq_req_verdict_clear(&v);
		if (r < 0) {
			invalid++;
			break;
		}
	}
	wq_info_clear(&wi);
	wq_owner_info_clear(&owner);
	return invalid;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"dry-run", no_argument, NULL, 'd'}, {"force", no_argument, NULL, 'f'}, {NULL, 0, NULL, 0}};
	_cleanup_free_ char **targets = calloc((size_t)argc, sizeof(char *));
	_cleanup_free_ struct pair *pairs = calloc((size_t)argc, sizeof(struct pair));
	struct wq_plan plan = {0};
	size_t ntargets = 0, npairs = 0, n = 0;
	char **names = NULL;
	bool dry = false, force = false;
	int c, rc, invalid = 0, resolved;

	if (!targets || !pairs)
		return EXIT_FAIL;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'd' || c == 'f') {
			dry |= c == 'd';
			force |= c == 'f';
			continue;
		}
		cli_err(cli, "set: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli->list_columns)
		return plan_list_columns(cli);
	rc = parse_operands(cli, argc, argv, targets, &ntargets, pairs, &npairs);
	if (rc)
		return rc;
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	resolved = cli_resolve_targets(cli, targets, ntargets, &names, &n, true);
	if (resolved == EXIT_FAIL)
		return EXIT_FAIL;
	/* Validate everything before writing anything. */
	for (size_t t = 0; t < n; t++)
		invalid += plan_one(cli, names[t], targets, ntargets, pairs, npairs, force, &plan);
	wq_names_free(names, n);
	if (invalid) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (resolved != EXIT_OK) {
		cli_err(cli, "set: nothing written because a named workqueue does not exist");
		rc = resolved;
		goto out;
	}
	if (dry) {
		rc = plan_print(cli, &plan);
		goto out;
	}
	/* journaled like apply's writes, so that revert undoes them */
	rc = plan_transact(cli, &plan, PLAN_LOCK_WAIT_MS, -1);
	if (rc == EXIT_OK && !cli->quiet)
		plan_report_changes(&plan);
out:
	wq_plan_free(&plan);
	return rc;
}

const struct cmd cmd_set = {
    .name = "set",
    .run = run,
    .summary = "change workqueue attributes",
    .usage = "[--dry-run] [--force] WORKQUEUE|GLOB... ATTR=VALUE...",
    .options =
	"  --dry-run   print path, old, new and effective values; write nothing\n"
	"  --force     write a max_active that lowers the hidden min_active (kernel >= 6.9)\n"
	"  ATTR        max_active cpumask affinity_scope affinity_strict nice numa\n"
	"  VALUE       see wqctl(8): cpumask takes 0-3,8 all housekeeping node:LIST local 0xMASK, joined with +\n",
};
