// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hidden: the words shell completions offer, taken from wqctl itself
 * (command table, option help, live workqueues, profiles, columns).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/core/knob.h"
#include "../lib/util/macro.h"
#include "../lib/core/owner.h"
#include "../lib/core/state.h"
#include "../lib/core/topo.h"
#include "../lib/core/verdict.h"
#include "../lib/core/wq.h"
#include "cli.h"
#include "profiles.h"

static const char *const global_opts[] = {
    "--sysroot",    "--kernel",	      "--profile-dir", "--json",    "--raw",	"--pairs", "--noheadings", "--output",
    "--output-all", "--list-columns", "--quiet",       "--verbose", "--syslog", "--help",  "--version"};

static const struct cmd *lookup(const char *name)
{
	size_t n;
	const struct cmd *const *cmds = cli_commands(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

static bool is_global(const char *opt, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(global_opts); i++)
		if (strlen(global_opts[i]) == len && !strncmp(global_opts[i], opt, len))
			return true;
	return false;
}

/* Long options of a command, as its help text lists them, each once and not again if global. */
static void command_options(const struct cmd *c)
{
	const char *p = c->options, *seen[64];
	size_t nseen = 0;

	while (p && (p = strstr(p, "--"))) {
		size_t len = 2;
		bool dup = false;

		while (isalnum((unsigned char)p[len]) || p[len] == '-')
			len++;
		for (size_t i = 0; i < nseen && !dup; i++)
			dup =
			    !strncmp(seen[i], p, len) && !(isalnum((unsigned char)seen[i][len]) || seen[i][len] == '-');
		if (len > 2 && !dup && !is_global(p, len)) {
			printf("%.*s\n", (int)len, p);
			if (nseen < ARRAY_SIZE(seen))
				seen[nseen++] = p;
		}
		p += len;
	}
}

/* Whether one of the workqueues typed (names or globs) can have an owner device ('local'). */
static bool any_owned(char **wqs, int n)
{
	for (int i = 0; i < n; i++)
		if (wq_owner_pattern_is_device(wqs[i]))
			return true;
	return false;
}

/*
 * The values an attribute or knob takes, where they are few (completion of
 * ATTR=); wqs: the workqueues the line names (set), none for a knob.
 */
static void values(struct cli *cli, const char *name, char **wqs, int nwqs)
{
	if (!strcmp(name, "affinity_scope") || !strcmp(name, "default_affinity_scope")) {
		const char *const *v;

		if (!cli_ctx(cli))
			return;
		if (!strcmp(name, "affinity_scope"))
			puts("default");
		for (v = wq_scope_names(cli->ctx); v && *v; v++)
			puts(*v);
	} else if (!strcmp(name, "affinity_strict") || !strcmp(name, "numa")) {
		puts("0");
		puts("1");
	} else if (!strcmp(name, "debug_force_rr_cpu") || !strcmp(name, "power_efficient")) {
		puts("Y");
		puts("N");
	} else if (!strcmp(name, "cpumask")) {
		struct wq_topo *t;

		puts("all");
		puts("housekeeping");
		/* the owner device's node: only a workqueue with an owner has one */
		if (any_owned(wqs, nwqs))
			puts("local");
		if (cli_ctx(cli) && (t = wq_ctx_topo(cli->ctx)))
			for (int i = 0; i < t->nr_nodes; i++)
				printf("node:%d\n", t->nodes[i].id);
	}
}

/* The names in one directory with suffix, one a line (a sysroot's directories walked inside it). */
static void names_in(struct cli *cli, const char *dir, const char *suffix)
{
	char **names = NULL;
	size_t n = 0;

	cli_dir_names(cli, dir, suffix, &names, &n);
	for (size_t i = 0; i < n; i++)
		puts(names[i]);
	cli_strv_free(names, n);
}

static void profiles(struct cli *cli)
{
	char **dirs = NULL;
	size_t n = 0;

	if (!cli_ctx(cli) || cli_profile_dirs(cli, &dirs, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		names_in(cli, dirs[i], ".conf");
	cli_strv_free(dirs, n);
}

/* Experiments kept by experiment --save (below the root). */
static void experiments(struct cli *cli)
{
	char **names = NULL;
	size_t n = 0;

	if (!cli_ctx(cli) || wq_saved_names(cli->ctx, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		puts(names[i]);
	cli_strv_free(names, n);
}

static int run(struct cli *cli, int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	const struct cmd *c = argc > 2 ? lookup(argv[2]) : NULL;
	size_t n;

	if (!strcmp(what, "commands")) {
		const struct cmd *const *cmds = cli_commands(&n);

		for (size_t i = 0; i < n; i++)
			if (!cmds[i]->hidden)
				printf("%s\n", cmds[i]->name);
	} else if (!strcmp(what, "options")) {
		for (size_t i = 0; i < ARRAY_SIZE(global_opts); i++)
			printf("%s\n", global_opts[i]);
		if (c)
			command_options(c);
	} else if (!strcmp(what, "attributes")) {
		/* those this kernel has: numa up to 6.5, the affinity scope from 6.6 */
		const int scopes = cli_ctx(cli) && cli->ctx->kver.known ? wq_has_scopes(cli->ctx) : -1;

		for (int a = 0; a < WQ_A_NR; a++) {
			if (scopes == 1 && a == WQ_A_NUMA)
				continue;
			if (scopes == 0 && (a == WQ_A_AFFINITY_SCOPE || a == WQ_A_AFFINITY_STRICT))
				continue;
			printf("%s\n", wq_attr_descs[a].name);
		}
	} else if (!strcmp(what, "scopes")) {
		/* the names this kernel takes (none before 6.6) */
		for (const char *const *v = cli_ctx(cli) ? wq_scope_names(cli->ctx) : NULL; v && *v; v++)
			printf("%s\n", *v);
	} else if (!strcmp(what, "values") && argc > 2) {
		values(cli, argv[2], argv + 3, argc - 3);
	} else if (!strcmp(what, "workqueues")) {
		char **names = NULL;

		if (cli_ctx(cli) && wq_list(cli->ctx, &names, &n) == 0) {
			for (size_t i = 0; i < n; i++)
				printf("%s\n", names[i]);
			wq_names_free(names, n);
		}
	} else if (!strcmp(what, "knobs")) {
		/* only those this kernel has */
		for (unsigned int i = 0; cli_ctx(cli) && i < wq_knob_ndescs; i++) {
			struct wq_knob k;

			memset(&k, 0, sizeof(k));
			/* "knobs writable": those a NAME=VALUE can set */
			if (wq_knob_get(cli->ctx, wq_knob_descs[i].name, &k) == 0 && k.present &&
			    (argc < 3 || strcmp(argv[2], "writable") || (k.writable && !wq_knob_descs[i].boot_only)))
				printf("%s\n", wq_knob_descs[i].name);
			wq_knob_clear(&k);
		}
	} else if (!strcmp(what, "profiles")) {
		profiles(cli);
	} else if (!strcmp(what, "experiments")) {
		experiments(cli);
	} else if (!strcmp(what, "metrics")) {
		static const char *const m[] = {
		    "wall",	    "fio:bw",	     "fio:iops",       "fio:clat_p99",	    "fio:read.bw",
		    "fio:write.bw", "fio:read.iops", "fio:write.iops", "fio:read.clat_p99", "fio:write.clat_p99",
		    "re:",	    "json:"};

		for (size_t i = 0; i < ARRAY_SIZE(m); i++)
			printf("%s\n", m[i]);
	} else if (!strcmp(what, "conditions")) {
		/* the verdicts' table, tab-separated (wqctl.profile(5) CONDITIONS is checked against it) */
		for (int i = 0; i < WQ_COND_NR; i++)
			printf("%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\n", wq_conds[i].code,
			       wq_severity_name(wq_conds[i].severity), wq_conds[i].status, wq_conds[i].apply,
			       wq_conds[i].exit[WQ_CMD_CHECK], wq_conds[i].exit[WQ_CMD_APPLY],
			       wq_conds[i].exit[WQ_CMD_VERIFY], wq_conds[i].meaning);
	} else if (!strcmp(what, "columns") && c) {
		char *sub[] = {argv[2], NULL};

		/* The command's own --list-columns, first field only in the scripts. */
		cli->list_columns = true;
		cli->raw = true;
		cli->noheadings = true;
		cli->json = cli->pairs = false;
		return c->run(cli, 1, sub);
	} else {
		cli_err(
		    cli,
		    "__complete: commands|options [CMD]|attributes|scopes|values NAME [WQ...]|workqueues|knobs|profiles|"
		    "experiments|metrics|conditions|columns CMD");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const struct cmd cmd_complete = {
    .name = "__complete",
    .run = run,
    .summary = "words for shell completion",
    .usage = "commands | options [COMMAND] | attributes | scopes | values NAME | workqueues | knobs | profiles | "
	     "experiments | metrics | conditions | columns COMMAND",
    .options = NULL,
    .hidden = true,
};
