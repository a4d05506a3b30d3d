// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl topology: NUMA nodes, CPU sets, the boot root mask and each affinity scope's pods. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/explain.h"
#include "../lib/core/isolate.h"
#include "../lib/util/macro.h"
#include "../lib/core/topo.h"
#include "cli.h"
#include "json.h"

enum { COL_SCOPE, COL_POD, COL_NODE, COL_CPUS, COL_NR_CPUS };

static const struct colinfo cols[] = {
    [COL_SCOPE] = {"SCOPE", 0.1, 0, SCOLS_JSON_STRING, "affinity scope, or 'node' for NUMA nodes"},
    [COL_POD] = {"POD", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "pod number (kernel order)"},
    [COL_NODE] = {"NODE", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "NUMA node (- when a pod spans nodes)"},
    [COL_CPUS] = {"CPUS", 0.5, 0, SCOLS_JSON_STRING, "CPU list"},
    [COL_NR_CPUS] = {"NR_CPUS", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "number of CPUs"},
};

struct sets {
	const char *name;
	struct wq_cpuset *set;
};

/* The scopes this kernel has: cache_shard from 7.1 (wq_has_cache_shard: the tree, or --kernel). */
static bool listed(struct cli *cli, int s, int only)
{
	if (only >= 0)
		return s == only;
	return s != WQ_SCOPE_CACHE_SHARD || wq_has_cache_shard(cli->ctx);
}

static int text_out(struct cli *cli, struct wq_topo *t, const struct sets *sets, size_t nsets, int only)
{
	struct out o;
	int rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "SCOPE,POD,NODE,CPUS,NR_CPUS", NULL, "topology");

	if (rc)
		return rc;
	for (size_t i = 0; i < nsets && only < 0; i++) {
		struct libscols_line *ln = out_line(&o);
		_cleanup_free_ char *l = wq_cpuset_format_list(sets[i].set);

		out_set(&o, ln, COL_SCOPE, sets[i].name);
		out_set(&o, ln, COL_CPUS, l);
		out_setf(&o, ln, COL_NR_CPUS, "%u", wq_cpuset_count(sets[i].set));
	}
	for (int i = 0; i < t->nr_nodes && only < 0; i++) {
		struct libscols_line *ln = out_line(&o);
		_cleanup_free_ char *l = wq_cpuset_format_list(t->nodes[i].cpus);

		out_set(&o, ln, COL_SCOPE, "node");
		out_setn(&o, ln, COL_NODE, t->nodes[i].id);
		out_set(&o, ln, COL_CPUS, l);
		out_setf(&o, ln, COL_NR_CPUS, "%u", wq_cpuset_count(t->nodes[i].cpus));
	}
	for (int s = 0; s < WQ_SCOPE_NR; s++) {
		if (!listed(cli, s, only))
			continue;
		for (int p = 0; p < t->pods[s].nr; p++) {
			struct libscols_line *ln = out_line(&o);
			_cleanup_free_ char *l = wq_cpuset_format_list(t->pods[s].pod[p].cpus);

			out_set(&o, ln, COL_SCOPE, wq_scope_name((enum wq_scope)s));
			out_setn(&o, ln, COL_POD, p);
			if (t->pods[s].pod[p].node >= 0)
				out_setn(&o, ln, COL_NODE, t->pods[s].pod[p].node);
			else
				out_set(&o, ln, COL_NODE, NULL);
			out_set(&o, ln, COL_CPUS, l);
			out_setf(&o, ln, COL_NR_CPUS, "%u", wq_cpuset_count(t->pods[s].pod[p].cpus));
		}
	}
	rc = out_print(&o);
	out_free(&o);
	return rc;
}

static int json_out(struct cli *cli, struct wq_topo *t, const struct sets *sets, size_t nsets, int only)
{
	json_object *doc = json_object_new_object(), *nodes = json_object_new_array(),
		    *scopes = json_object_new_object();

	for (int i = 0; i < t->nr_nodes; i++) {
		json_object *n = json_object_new_object();

		json_object_object_add(n, "node", json_object_new_int(t->nodes[i].id));
		json_object_object_add(n, "cpus", json_cpus(t->nodes[i].cpus));
		json_object_object_add(n, "nr_cpus", json_object_new_int((int)wq_cpuset_count(t->nodes[i].cpus)));
		json_object_array_add(nodes, n);
	}
	json_object_object_add(doc, "nodes", nodes);
	for (size_t i = 0; i < nsets; i++)
		json_object_object_add(doc, sets[i].name, json_cpus(sets[i].set));
	for (int s = 0; s < WQ_SCOPE_NR; s++) {
		json_object *pods;

		if (!listed(cli, s, only))
			continue;
		pods = json_object_new_array();
		for (int p = 0; p < t->pods[s].nr; p++) {
			json_object *o = json_object_new_object();
			int node = t->pods[s].pod[p].node;

			json_object_object_add(o, "pod", json_object_new_int(p));
			json_object_object_add(o, "cpus", json_cpus(t->pods[s].pod[p].cpus));
			json_object_object_add(o, "node", node >= 0 ? json_object_new_int(node) : NULL);
			json_object_array_add(pods, o);
		}
		json_object_object_add(scopes, wq_scope_name((enum wq_scope)s), pods);
	}
	json_object_object_add(doc, "scopes", scopes);
	return json_print(doc);
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {{"scope", required_argument, NULL, 's'}, {NULL, 0, NULL, 0}};
	_cleanup_cpuset_ struct wq_cpuset *hk = wq_cpuset_new();
	_cleanup_cpuset_ struct wq_cpuset *root = wq_cpuset_new();
	_cleanup_cpuset_ struct wq_cpuset *boot = wq_cpuset_new();
	const char *scope = NULL;
	struct wq_topo *t;
	int c, only = -1;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 's') {
			scope = optarg;
			continue;
		}
		cli_err(cli, "topology: %s: unknown option or missing argument", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (optind < argc) {
		cli_err(cli, "topology: %s: unexpected argument", argv[optind]);
		return EXIT_USAGE;
	}
	if (scope) {
		only = wq_scope_from_name(scope);
		if (only < 0) {
			cli_err(cli, "--scope: '%s' is not an affinity scope (cpu smt cache cache_shard numa system)",
				scope);
			return EXIT_USAGE;
		}
	}
	if (!hk || !root || !cli_ctx(cli) || !(t = wq_ctx_topo(cli->ctx)))
		return EXIT_FAIL;
	if (only == WQ_SCOPE_CACHE_SHARD && !wq_has_cache_shard(cli->ctx)) {
		cli_err(cli, "--scope: cache_shard: %s", WQ_NO_CACHE_SHARD);
		return EXIT_USAGE;
	}
	/* every scope this kernel has, or the one asked for */
	for (int s = 0; s < WQ_SCOPE_NR; s++)
		if (listed(cli, s, only) && !wq_ctx_topo_pods(cli->ctx, s))
			return EXIT_FAIL;
	wq_topo_housekeeping(t, hk);
	if (wq_root_cpumask(cli->ctx, root) < 0)
		return EXIT_FAIL;
	{
		struct sets sets[] = {
		    {"possible", t->possible},	 {"online", t->online}, {"isolated", t->isolated},
		    {"nohz_full", t->nohz_full}, {"housekeeping", hk},	{"cpumask", root},
		    {"boot_cpumask", boot},
		};
		size_t n = ARRAY_SIZE(sets);
		struct wq_boot_isolation b = {0};
		char why[300];

		/* the root mask this kernel's boot rule gives: left out without a command line to read */
		if (!boot || wq_boot_isolation_read(cli->ctx, &b, why, sizeof(why)) < 0 ||
		    wq_boot_root_mask(&cli->ctx->kver, t, &b, boot) < 0)
			n--;
		wq_boot_isolation_clear(&b);
		if (cli->json)
			return json_out(cli, t, sets, n, only);
		return text_out(cli, t, sets, n, only);
	}
}

const struct cmd cmd_topology = {
    .name = "topology",
    .run = run,
    .summary = "show NUMA nodes, CPU sets and affinity-scope pods",
    .usage = "[--scope SCOPE]",
    .options = "  --scope SCOPE   list the pods of one scope (cpu smt cache cache_shard numa system;\n"
	       "                  cache_shard on kernels that have it, 7.1 and later)\n",
};
