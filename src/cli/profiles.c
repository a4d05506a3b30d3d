// SPDX-License-Identifier: GPL-2.0-or-later
/* The profile set as the commands see it: search path, names, the active set. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util/macro.h"
#include "../lib/core/state.h"
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

struct dir_names {
	const char *suffix;
	char **v;
	size_t n;
	int err;
};

static void add_dir_name(const char *name, void *data)
{
	struct dir_names *d = data;
	size_t len = strlen(name), slen = strlen(d->suffix);
	char **nv, *s;

	if (d->err || len <= slen || strcmp(name + len - slen, d->suffix))
		return;
	if (!(s = strndup(name, len - slen)) || !(nv = realloc(d->v, sizeof(*nv) * (d->n + 1)))) {
		free(s);
		d->err = -ENOMEM;
		return;
	}
	if (!wq_profile_name_is_valid(s)) {
		free(s);
		d->v = nv;
		return;
	}
	d->v = nv;
	d->v[d->n++] = s;
}

int cli_dir_names(struct cli *cli, const char *path, const char *suffix, char ***names, size_t *n)
{
	struct dir_names d = {.suffix = suffix, .v = *names, .n = *n};

	(void)wq_root_each_name_path(cli->ctx->root, path, add_dir_name, &d);
	*names = d.v;
	*n = d.n;
	return d.err;
}

void cli_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The search path as a person reads it: each directory as a host path, joined by ", " (malloc'ed). */
static char *search_path(struct cli *cli, char *const *dirs, size_t ndirs)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < ndirs; i++) {
		_cleanup_free_ char *host = dirs[i][0] == '/' ? NULL : wq_root_join(cli->ctx->root, dirs[i]);

		fprintf(f, "%s%s", i ? ", " : "", host ? host : dirs[i]);
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * NAME.conf where people put it by mistake: one directory above a search
 * directory (/etc/wqctl/NAME.conf), or the working directory. Its path as
 * shown (malloc'ed), or NULL.
 */
static char *file_nearby(struct cli *cli, char *const *dirs, size_t ndirs, const char *name)
{
	for (size_t i = 0; i <= ndirs; i++) {
		_cleanup_free_ char *dir = i < ndirs ? strdup(dirs[i]) : NULL;
		char *slash, *p = NULL;
		int fd;

		if (i < ndirs) {
			if (!dir || !(slash = strrchr(dir, '/')) || slash == dir)
				continue;
			*slash = '\0';
			if (asprintf(&p, "%s/%s.conf", dir, name) < 0)
				return NULL;
			fd = wq_root_open_path(cli->ctx->root, p, O_RDONLY);
		} else {
			if (asprintf(&p, "./%s.conf", name) < 0)
				return NULL;
			fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		}
		if (fd >= 0) {
			char *host = p[0] == '/' || p[0] == '.' ? NULL : wq_root_join(cli->ctx->root, p);

			close(fd);
			if (host) {
				free(p);
				return host;
			}
			return p;
		}
		free(p);
	}
	return NULL;
}

/* A profile name the search path does not have: the nearest one it has, or NULL (static buffer). */
static const char *nearest_profile(struct cli *cli, char *const *dirs, size_t ndirs, const char *name)
{
	static char pick[256];
	char **own = NULL;
	const char *near;
	size_t nv = 0;

	for (size_t i = 0; i < ndirs; i++)
		if (cli_dir_names(cli, dirs[i], ".conf", &own, &nv) < 0)
			break;
	near = cli_nearest(name, (const char *const *)own, nv);
	snprintf(pick, sizeof(pick), "%s", near ? near : "");
	cli_strv_free(own, nv);
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
	/*
	 * A name the search path lacks: a file of that name one directory
	 * too high (or here) first, then the nearest name, before anything
	 * else; each with the search path.
	 */
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = NULL, *nearby = NULL, *where = NULL;
		const char *near;

		if (strchr(names[i], '/') || !wq_profile_name_is_valid(names[i]) ||
		    wq_profile_find(cli->ctx, (const char *const *)dirs, ndirs, names[i], &path) != -ENOENT)
			continue;
		where = search_path(cli, dirs, ndirs);
		nearby = file_nearby(cli, dirs, ndirs, names[i]);
		near = nearby ? NULL : nearest_profile(cli, dirs, ndirs, names[i]);
		if (nearby)
			cli_err(cli,
				"%s: no such profile in the search path (%s); %s has that name: move it into %s, or "
				"name the file (--profile %s)",
				names[i], where ? where : "?", nearby, dirs[0], nearby);
		else if (near)
			cli_err(cli, "%s: no such profile in the search path (%s); did you mean '%s'?", names[i],
				where ? where : "?", near);
		else if (strlen(names[i]) > 5 && !strcmp(names[i] + strlen(names[i]) - 5, ".conf"))
			cli_err(cli, "%s: no such profile in the search path (%s) (for a file, write ./%s)", names[i],
				where ? where : "?", names[i]);
		else
			cli_err(cli, "%s: no such profile in the search path (%s)", names[i], where ? where : "?");
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

void cli_say_refusal(struct cli *cli, const char *object, const char *value, const struct wq_req_verdict *v)
{
	if (v->cond == WQ_COND_UNREADABLE || v->cond == WQ_COND_FORCE)
		cli_err(cli, "%s: %s", object, v->why);
	else
		cli_err(cli, "%s: invalid value '%s': %s", object, value, v->why);
}

int cli_report_settings(struct cli *cli, const struct wq_settings *s)
{
	const bool apply = cli->cmdname && !strcmp(cli->cmdname, "apply");
	int invalid = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct wq_setting *x = &s->v[i];
		/* a section that reached nothing is named by its pattern */
		const char *pre = x->wq || x->attr[0] ? "" : "[workqueue ", *post = x->wq || x->attr[0] ? "" : "]";

		switch (wq_conds[x->cond].severity) {
		case WQ_SEV_ERROR:
			if (x->cond == WQ_COND_UNREADABLE)
				cli_err(cli, "%s:%d: %s: %s", x->file, x->line, x->object, x->why);
			else
				cli_err(cli, "%s:%d: %s: invalid value '%s': %s", x->file, x->line, x->object, x->value,
					x->why);
			invalid++;
			break;
		case WQ_SEV_WARNING:
			/*
			 * Not in force here while the rest is: worth saying without -v;
			 * apply exits 1 for it, so there it is an error that --boot and
			 * -q do not silence (its last line points here).
			 */
			(apply ? cli_err : cli_warn)(cli, "%s:%d: %s%s%s: %sskipped: %s", x->file, x->line, pre,
						     x->object, post,
						     x->cond == WQ_COND_MACHINE ? "not on this machine, " : "", x->why);
			break;
		default:
			if (x->cond != WQ_COND_OK)
				cli_info(cli, "%s:%d: %s%s%s: %s: %s", x->file, x->line, pre, x->object, post,
					 wq_conds[x->cond].status, x->why);
			break;
		}
	}
	return invalid;
}
