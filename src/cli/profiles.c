// SPDX-License-Identifier: GPL-2.0-or-later
/* The profile set as the commands see it: search path, names, the active set. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/macro.h"
#include "profiles.h"

int cli_profile_dirs(struct cli *cli, char ***dirs, size_t *n)
{
	size_t cnt = cli->nprofile_dirs ? cli->nprofile_dirs : ARRAY_SIZE(wq_profile_default_dirs);
	char **v = calloc(cnt, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		/*
		 * --profile-dir is taken as given. Of the default path, /etc and /run
		 * live below the root; the vendor directory is the installed package's
		 * (a dump has none: --sysroot DUMP check --profile numa-local works).
		 */
		if (cli->nprofile_dirs)
			v[i] = strdup(cli->profile_dirs[i]);
		else if (wq_profile_default_dirs[i][0] == '/')
			v[i] = strdup(wq_profile_default_dirs[i]);
		else
			v[i] = wq_root_join(cli->ctx->root, wq_profile_default_dirs[i]);
		if (!v[i]) {
			cli_strv_free(v, i);
			return -ENOMEM;
		}
	}
	*dirs = v;
	*n = cnt;
	return 0;
}

void cli_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A profile name the search path does not have: the nearest one it has, or NULL (static buffer). */
static const char *nearest_profile(struct cli *cli, char *const *dirs, size_t ndirs, const char *name)
{
	static char pick[256];
	const char *v[256] = {NULL}, *near;
	char *own[256];
	size_t nv = 0;

	for (size_t i = 0; i < ndirs; i++) {
		_cleanup_closedir_ DIR *d = opendir(dirs[i]);
		struct dirent *de;

		while (d && (de = readdir(d)) && nv < ARRAY_SIZE(v)) {
			size_t len = strlen(de->d_name);

			if (len > 5 && !strcmp(de->d_name + len - 5, ".conf") &&
			    (own[nv] = strndup(de->d_name, len - 5)))
				v[nv] = own[nv], nv++;
		}
	}
	(void)cli;
	near = cli_nearest(name, v, nv);
	snprintf(pick, sizeof(pick), "%s", near ? near : "");
	for (size_t i = 0; i < nv; i++)
		free(own[i]);
	return pick[0] ? pick : NULL;
}

int cli_load_profiles(struct cli *cli, char **names, size_t n, struct wq_pset *set, bool *none)
{
	char **dirs = NULL, **active = NULL;
	size_t ndirs = 0, nactive = 0;
	int r;

	*none = false;
	memset(set, 0, sizeof(*set));
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (n == 0) {
		r = wq_active_read(cli->ctx, &active, &nactive);
		if (r == -ENOENT || (r == 0 && nactive == 0)) {
			*none = true;
			return EXIT_OK;
		}
		if (r < 0) {
			_cleanup_free_ char *p = wq_active_path(cli->ctx);

			if (r != -EINVAL)
				cli_err(cli, "%s: cannot read: %s", p ? p : "active-profiles", wq_strerror(-r));
			return EXIT_USAGE;
		}
		names = active;
		n = nactive;
	}
	if (cli_profile_dirs(cli, &dirs, &ndirs) < 0) {
		cli_strv_free(active, nactive);
		return EXIT_FAIL;
	}
	/* a name the search path lacks: say the nearest one before anything else */
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = NULL;
		const char *near;

		if (strchr(names[i], '/') || !wq_profile_name_is_valid(names[i]) ||
		    wq_profile_find(cli->ctx, (const char *const *)dirs, ndirs, names[i], &path) != -ENOENT)
			continue;
		near = nearest_profile(cli, dirs, ndirs, names[i]);
		if (!near)
			continue;
		cli_err(cli, "%s: no such profile; did you mean '%s'?", names[i], near);
		cli_strv_free(dirs, ndirs);
		cli_strv_free(active, nactive);
		return EXIT_USAGE;
	}
	r = wq_pset_load(cli->ctx, (const char *const *)dirs, ndirs, names, n, set);
	cli_strv_free(dirs, ndirs);
	cli_strv_free(active, nactive);
	if (r < 0) {
		wq_pset_free(set);
		/* only the commands that write have something not to apply */
		cli_err(cli, "profiles: invalid%s",
			cli->cmdname && (!strcmp(cli->cmdname, "apply") || !strcmp(cli->cmdname, "profile"))
			    ? ", nothing applied"
			    : "");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cli_report_settings(struct cli *cli, const struct wq_settings *s)
{
	int invalid = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct wq_setting *x = &s->v[i];

		switch (x->status) {
		case WQ_SET_INVALID:
			cli_err(cli, "%s:%d: %s: invalid value '%s': %s", x->file, x->line, x->object, x->value,
				x->why);
			invalid++;
			break;
		case WQ_SET_SKIPPED:
			cli_warn(cli, "%s:%d: %s: skipped: %s", x->file, x->line, x->object, x->why);
			break;
		case WQ_SET_UNSUPPORTED:
			/*
			 * A value this machine cannot take is worth saying without -v;
			 * apply exits 1 for it, so there it is an error that --boot and
			 * -q do not silence (its last line points here).
			 */
			if (x->machine)
				(cli->cmdname && !strcmp(cli->cmdname, "apply") ? cli_err : cli_warn)(
				    cli, "%s:%d: %s: not on this machine, skipped: %s", x->file, x->line, x->object,
				    x->why);
			else
				cli_info(cli, "%s:%d: %s: unsupported: %s", x->file, x->line, x->object, x->why);
			break;
		case WQ_SET_ABSENT:
			cli_info(cli, "%s:%d: [workqueue %s]: %s", x->file, x->line, x->object, x->why);
			break;
		default: break;
		}
	}
	return invalid;
}
