// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hidden: the words shell completions offer, taken from wqctl itself
 * (command table, option help, live workqueues, profiles, columns).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/knob.h"
#include "../lib/macro.h"
#include "../lib/topo.h"
#include "../lib/wq.h"
#include "cli.h"
#include "profiles.h"

static const char *const global_opts[] = {"--sysroot", "--kernel",     "--profile-dir", "--json",	  "--raw",
					  "--pairs",   "--noheadings", "--output",	"--list-columns", "--quiet",
					  "--verbose", "--syslog",     "--help",	"--version"};

static const struct cmd *lookup(const char *name)
{
	size_t n;
	const struct cmd *const *cmds = cli_commands(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

/* Long options of a command, as its help text lists them. */
static void command_options(const struct cmd *c)
{
	const char *p = c->options;

	while (p && (p = strstr(p, "--"))) {
		size_t len = 2;

		while (isalnum((unsigned char)p[len]) || p[len] == '-')
			len++;
		if (len > 2)
			printf("%.*s\n", (int)len, p);
		p += len;
	}
}

static void profiles(struct cli *cli)
{
	char **dirs = NULL;
	size_t n = 0;

	if (!cli_ctx(cli) || cli_profile_dirs(cli, &dirs, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		_cleanup_closedir_ DIR *d = opendir(dirs[i]);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			size_t len = strlen(de->d_name);

			if (len > 5 && !strcmp(de->d_name + len - 5, ".conf"))
				printf("%.*s\n", (int)(len - 5), de->d_name);
		}
	}
	cli_strv_free(dirs, n);
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
		for (int a = 0; a < WQ_A_NR; a++)
			printf("%s\n", wq_attr_descs[a].name);
	} else if (!strcmp(what, "scopes")) {
		for (int s = 0; s < WQ_SCOPE_NR; s++)
			printf("%s\n", wq_scope_name((enum wq_scope)s));
	} else if (!strcmp(what, "workqueues")) {
		char **names = NULL;

		if (cli_ctx(cli) && wq_list(cli->ctx, &names, &n) == 0) {
			for (size_t i = 0; i < n; i++)
				printf("%s\n", names[i]);
			wq_names_free(names, n);
		}
	} else if (!strcmp(what, "knobs")) {
		for (unsigned int i = 0; i < wq_knob_ndescs; i++)
			printf("%s\n", wq_knob_descs[i].name);
	} else if (!strcmp(what, "profiles")) {
		profiles(cli);
	} else if (!strcmp(what, "columns") && c) {
		char *sub[] = {argv[2], NULL};

		/* The command's own --list-columns, first field only in the scripts. */
		cli->list_columns = true;
		cli->raw = true;
		cli->noheadings = true;
		cli->json = cli->pairs = false;
		return c->run(cli, 1, sub);
	} else {
		cli_err(cli,
			"__complete: commands|options [CMD]|attributes|scopes|workqueues|knobs|profiles|columns CMD");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const struct cmd cmd_complete = {
    .name = "__complete",
    .run = run,
    .summary = "words for shell completion",
    .usage = "commands | options [COMMAND] | attributes | scopes | workqueues | knobs | profiles | columns COMMAND",
    .options = NULL,
    .hidden = true,
};
