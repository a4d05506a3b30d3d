// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl profile: list, show, use, current and off for the profile set. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/util/macro.h"
#include "../lib/core/state.h"
#include "cli.h"
#include "plan_out.h"
#include "profiles.h"

enum { COL_NAME, COL_SOURCE, COL_DESCRIPTION };

static const struct colinfo cols[] = {
    [COL_NAME] = {"NAME", 0.2, 0, SCOLS_JSON_STRING, "profile name"},
    [COL_SOURCE] = {"SOURCE", 0.3, 0, SCOLS_JSON_STRING, "file that provides it (first in the search path)"},
    [COL_DESCRIPTION] = {"DESCRIPTION", 0.5, SCOLS_FL_TRUNC, SCOLS_JSON_STRING, "[profile] description"},
};

static int desc_handler(void *user, const char *section, const char *name, const char *value)
{
	char **desc = user;

	if (!strcmp(section, "profile") && !strcmp(name, "description") && !*desc)
		*desc = strdup(value);
	return 1;
}

static int strcmpp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list(struct cli *cli)
{
	char **dirs = NULL, **names = NULL;
	size_t ndirs = 0, n = 0;
	struct out o;
	int rc;

	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "NAME,SOURCE,DESCRIPTION", NULL, "profiles");
	if (rc)
		return rc;
	if (!cli_ctx(cli) || cli_profile_dirs(cli, &dirs, &ndirs) < 0) {
		out_free(&o);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < ndirs; i++)
		if (cli_dir_names(cli, dirs[i], ".conf", &names, &n) < 0)
			break;
	if (n)
		qsort(names, n, sizeof(*names), strcmpp);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = NULL;
		_cleanup_free_ char *desc = NULL;
		struct libscols_line *ln;

		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		if (wq_profile_find(cli->ctx, (const char *const *)dirs, ndirs, names[i], &path) < 0)
			continue; /* masked */
		{
			int fd = wq_root_open_path(cli->ctx->root, path, O_RDONLY);
			FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;

			if (f) {
				ini_parse_file(f, desc_handler, &desc);
				fclose(f);
			} else if (fd >= 0) {
				close(fd);
			}
		}
		ln = out_line(&o);
		out_set(&o, ln, COL_NAME, names[i]);
		out_set(&o, ln, COL_SOURCE, path);
		out_set(&o, ln, COL_DESCRIPTION, desc ? desc : "");
	}
	rc = out_print(&o);
	out_free(&o);
	cli_strv_free(names, n);
	cli_strv_free(dirs, ndirs);
	return rc;
}

/*
 * What a profile says of itself: its opening comment block (purpose,
 * evidence, kernels), each line as written, and the [profile] section's
 * kernels = line, which the merged view below does not carry.
 */
static void show_header(const char *file)
{
	_cleanup_fclose_ FILE *f = fopen(file, "re");
	char line[1024];
	bool head = true, in_profile = false;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " \t");

		line[strcspn(line, "\n")] = '\0';
		if (head && (*p == '#' || *p == ';')) {
			printf("%s\n", line);
			continue;
		}
		if (*p)
			head = false;
		if (*p == '[')
			in_profile = !strncmp(p, "[profile]", 9);
		else if (in_profile && !strncmp(p, "kernels", 7) && strchr(p, '='))
			printf("# %s\n", p);
	}
}

static int show(struct cli *cli, char **names, size_t n)
{
	struct wq_pset set;
	bool none;
	int rc = cli_load_profiles(cli, names, n, &set, &none);

	if (rc)
		return rc;
	if (none) {
		cli_err(cli, "profile show: no active profiles");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < set.n; i++) {
		printf("# %s: %s%s%s\n", set.names[i], set.files[i], set.descs[i][0] ? " -- " : "", set.descs[i]);
		show_header(set.files[i]);
	}
	for (size_t i = 0; i < set.ns; i++) {
		const struct wq_psect *s = &set.s[i];

		if (s->global)
			printf("\n[global]\n");
		else
			printf("\n[workqueue %s]\n", s->pattern);
		for (size_t k = 0; k < s->nowner; k++)
			printf("owner.%s = %s ; %s:%d\n", s->owner[k].key, s->owner[k].value, s->file,
			       s->owner[k].line);
		for (size_t k = 0; k < s->nkv; k++)
			printf("%s = %s ; %s:%d\n", s->kv[k].key, s->kv[k].value, s->file, s->kv[k].line);
	}
	wq_pset_free(&set);
	return EXIT_OK;
}

/* The active set could not be written: "run as root" to a user who is not (as every writing command says). */
static void active_write_failed(struct cli *cli, int r)
{
	_cleanup_free_ char *p = wq_active_path(cli->ctx);

	if (geteuid() != 0 && (r == -EACCES || r == -EPERM || r == -WQ_ETMPFILE || r == -EROFS))
		cli_err(cli, "%s: permission denied: run as root", p ? p : "active-profiles");
	else
		cli_err(cli, "%s: cannot write: %s", p ? p : "active-profiles", wq_strerror(-r));
}

static int use(struct cli *cli, char **names, size_t n, bool now)
{
	struct wq_pset set;
	bool none;
	int rc, r;

	if (n == 0) {
		cli_err(cli, "profile use: name at least one profile");
		return EXIT_USAGE;
	}
	rc = cli_load_profiles(cli, names, n, &set, &none);
	if (rc)
		return rc;
	wq_pset_free(&set);
	r = wq_active_write(cli->ctx, names, n);
	if (r < 0) {
		active_write_failed(cli, r);
		return EXIT_FAIL;
	}
	if (now) {
		/* the same as 'wqctl apply' right after (getopt starts over for it) */
		char *argv[] = {(char *)"apply", NULL};

		optind = 0;
		return cmd_apply.run(cli, 1, argv);
	}
	cli_warn(cli, "profile use: active from the next boot or hot-plug; 'wqctl apply' applies them now (or 'wqctl "
		      "profile use --now', which does both)");
	return EXIT_OK;
}

/* Deactivate the active set and restore what wqctl changed (as tuned-adm off); keep: the values stay. */
static int off(struct cli *cli, bool keep)
{
	int r;

	if (!cli_ctx(cli))
		return EXIT_FAIL;
	{
		char **names = NULL;
		size_t n = 0;

		if (wq_active_read(cli->ctx, &names, &n) == -ENOENT || n == 0)
			cli_warn(cli, "profile off: no profile was active%s",
				 keep ? "" : "; what wqctl changed is reverted all the same");
		cli_strv_free(names, n);
	}
	r = wq_active_write(cli->ctx, NULL, 0);
	if (r < 0) {
		active_write_failed(cli, r);
		return EXIT_FAIL;
	}
	return keep ? EXIT_OK : cli_revert(cli);
}

static int current(struct cli *cli)
{
	char **names = NULL;
	size_t n = 0;
	int r;

	if (!cli_ctx(cli))
		return EXIT_FAIL;
	r = wq_active_read(cli->ctx, &names, &n);
	if (r < 0 && r != -EINVAL && r != -ENOENT)
		cli_err(cli, "etc/wqctl/active-profiles: cannot read: %s", wq_strerror(-r));
	if (r < 0 && r != -ENOENT)
		return r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	if (n == 0)
		cli_warn(cli, "no active profiles ('wqctl profile use NAME' sets them)");
	for (size_t i = 0; i < n; i++)
		printf("%s\n", names[i]);
	cli_strv_free(names, n);
	return EXIT_OK;
}

/* A profile's text from FILE ("-": standard input), at most the size any profile may have. */
static int read_text(struct cli *cli, const char *file, char **text, size_t *len)
{
	FILE *f = strcmp(file, "-") ? NULL : stdin;
	size_t cap = 0;
	int fd = -1;

	*text = NULL;
	*len = 0;
	if (!f) {
		fd = wq_file_open(file, O_RDONLY, 0);
		f = fd >= 0 ? fdopen(fd, "re") : NULL;
		if (!f) {
			cli_err(cli, "%s: cannot read: %s", file, wq_strerror(fd < 0 ? -fd : errno));
			if (fd >= 0)
				close(fd);
			return EXIT_USAGE;
		}
	}
	for (;;) {
		size_t n;

		if (*len + 4096 + 1 > cap) {
			char *nt = realloc(*text, cap = cap ? 2 * cap : 8192);

			if (!nt) {
				if (f != stdin)
					fclose(f);
				return EXIT_FAIL;
			}
			*text = nt;
		}
		n = fread(*text + *len, 1, 4096, f);
		*len += n;
		if (*len > WQ_PROFILE_MAX_SIZE) {
			cli_err(cli, "%s: refusing to install: larger than %d KiB", file, WQ_PROFILE_MAX_SIZE >> 10);
			if (f != stdin)
				fclose(f);
			return EXIT_USAGE;
		}
		if (n < 4096)
			break;
	}
	(*text)[*len] = '\0';
	if (ferror(f)) {
		cli_err(cli, "%s: cannot read: %s", file, strerror(errno));
		if (f != stdin)
			fclose(f);
		return EXIT_FAIL;
	}
	if (f != stdin)
		fclose(f);
	return EXIT_OK;
}

/* The text as a file of a private directory: what the loader validates (and names in its messages). */
static int stage(struct cli *cli, const char *name, const char *text, size_t len, char *dir, char *path, size_t size)
{
	FILE *f;

	if (!mkdtemp(dir)) {
		cli_err(cli, "profile install: temporary directory: %s", strerror(errno));
		return EXIT_FAIL;
	}
	snprintf(path, size, "%s/%s.conf", dir, name);
	f = fopen(path, "wxe");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		cli_err(cli, "profile install: %s: %s", path, strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* install NAME FILE: validated as a profile (its includes found in the search path), then written into place. */
static int install(struct cli *cli, char **args, size_t n)
{
	char dir[] = "/tmp/wqctl-install.XXXXXX", staged[sizeof(dir) + WQ_NAME_MAX + 16] = "";
	_cleanup_free_ char *text = NULL;
	struct wq_pset set;
	size_t len;
	bool none;
	int rc, r;

	if (n != 2) {
		cli_err(cli, "profile install: NAME and FILE ('-': standard input)");
		return EXIT_USAGE;
	}
	if (!wq_profile_name_is_valid(args[0]) || strlen(args[0]) >= WQ_NAME_MAX) {
		cli_err(cli, "profile install: '%s': a profile name is letters, digits, '.', '_' and '-'", args[0]);
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	rc = read_text(cli, args[1], &text, &len);
	if (rc)
		return rc;
	if (memchr(text, '\0', len)) {
		cli_err(cli, "%s: refusing to install: binary data (NUL byte)", args[1]);
		return EXIT_USAGE;
	}
	/*
	 * Validated as the very bytes that are installed: a copy in a private
	 * directory, which the messages name as FILE.
	 */
	rc = stage(cli, args[0], text, len, dir, staged, sizeof(staged));
	if (rc == EXIT_OK) {
		char *one[] = {staged};

		cli_rename_file(cli, staged, strcmp(args[1], "-") ? args[1] : "(standard input)");
		rc = cli_load_profiles(cli, one, 1, &set, &none);
		cli_rename_file(cli, NULL, NULL);
		wq_pset_free(&set);
	}
	if (staged[0])
		unlink(staged);
	rmdir(dir);
	if (rc) {
		cli_err(cli, "profile install: %s: nothing installed", args[0]);
		return rc;
	}
	r = wq_profile_install(cli->ctx, args[0], text, len);
	if (r < 0) {
		cli_err(cli, "etc/wqctl/profiles/%s.conf: cannot write: %s", args[0], wq_strerror(-r));
		return EXIT_FAIL;
	}
	cli_info(cli, "%s: installed in /etc/wqctl/profiles", args[0]);
	return EXIT_OK;
}

/* Is name in the active set? (An unreadable set names none.) */
static bool is_active(struct cli *cli, const char *name)
{
	char **names = NULL;
	size_t n = 0;
	bool found = false;

	if (wq_active_read(cli->ctx, &names, &n) < 0)
		return false;
	for (size_t i = 0; i < n; i++)
		found |= !strcmp(names[i], name);
	cli_strv_free(names, n);
	return found;
}

static int uninstall(struct cli *cli, char **args, size_t n)
{
	int r;

	if (n != 1 || !wq_profile_name_is_valid(args[0])) {
		cli_err(cli, "profile remove: name one profile");
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (is_active(cli, args[0])) {
		cli_err(cli, "%s: in the active set; 'wqctl profile use' the others first (or 'profile off')", args[0]);
		return EXIT_USAGE;
	}
	r = wq_profile_uninstall(cli->ctx, args[0]);
	if (r == -ENOENT) {
		cli_err(cli, "%s: not installed in /etc/wqctl/profiles", args[0]);
		return EXIT_NONE_EXIST;
	}
	if (r < 0) {
		cli_err(cli, "etc/wqctl/profiles/%s.conf: cannot remove: %s", args[0], wq_strerror(-r));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int cat(struct cli *cli, char **args, size_t n)
{
	_cleanup_free_ char *text = NULL;
	int r;

	if (n != 1 || !wq_profile_name_is_valid(args[0])) {
		cli_err(cli, "profile cat: name one profile");
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	r = wq_profile_read_installed(cli->ctx, args[0], &text);
	if (r == -ENOENT || r == -ENXIO) {
		cli_err(cli, "%s: %s in /etc/wqctl/profiles", args[0],
			r == -ENOENT ? "not installed" : "masked (a link to /dev/null)");
		return EXIT_NONE_EXIST;
	}
	if (r < 0) {
		cli_err(cli, "etc/wqctl/profiles/%s.conf: not printed: %s", args[0],
			r == -EACCES ? "others may not read it (a profile is 0644)" : wq_strerror(-r));
		return EXIT_FAIL;
	}
	printf("%s\n", text);
	return EXIT_OK;
}

static int run(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
	    {"now", no_argument, NULL, 'n'}, {"keep", no_argument, NULL, 'k'}, {NULL, 0, NULL, 0}};
	const char *sub;
	bool now = false, keep = false;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'n' || c == 'k') {
			now |= c == 'n';
			keep |= c == 'k';
			continue;
		}
		cli_err(cli, "profile: %s: unknown option", argv[optind - 1]);
		return EXIT_USAGE;
	}
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (optind >= argc) {
		cli_err(cli, "profile: need list, show, use, current, off, install, remove or cat");
		return EXIT_USAGE;
	}
	sub = argv[optind++];
	if (now && strcmp(sub, "use")) {
		cli_err(cli, "profile %s: --now goes with 'use' only", sub);
		return EXIT_USAGE;
	}
	if (keep && strcmp(sub, "off")) {
		cli_err(cli, "profile %s: --keep goes with 'off' only", sub);
		return EXIT_USAGE;
	}
	/* only 'list' prints a table */
	if (strcmp(sub, "list") && cli_no_table(cli, "profile", false))
		return EXIT_USAGE;
	if (!strcmp(sub, "off") && optind == argc)
		return off(cli, keep);
	if (!strcmp(sub, "list") && optind == argc)
		return list(cli);
	if (!strcmp(sub, "current") && optind == argc)
		return current(cli);
	if (!strcmp(sub, "show"))
		return show(cli, argv + optind, (size_t)(argc - optind));
	if (!strcmp(sub, "use"))
		return use(cli, argv + optind, (size_t)(argc - optind), now);
	if (!strcmp(sub, "install"))
		return install(cli, argv + optind, (size_t)(argc - optind));
	if (!strcmp(sub, "remove"))
		return uninstall(cli, argv + optind, (size_t)(argc - optind));
	if (!strcmp(sub, "cat"))
		return cat(cli, argv + optind, (size_t)(argc - optind));
	cli_err(cli,
		"profile: %s: unknown subcommand or unexpected argument (list, show, use, current, off, install, "
		"remove, cat)",
		sub);
	return EXIT_USAGE;
}

const struct cmd cmd_profile = {
    .name = "profile",
    .run = run,
    .summary = "list, show, activate, install and remove profiles",
    .usage = "list | show [NAME...] | use [--now] NAME... | current | off [--keep]\n"
	     "       install NAME FILE | remove NAME | cat NAME",
    .options = "  list         available profiles (NAME, SOURCE, DESCRIPTION)\n"
	       "  show NAME    the merged sections of a profile and its includes, with their sources\n"
	       "  use NAME...  validate and persist the active set (atomically)\n"
	       "  current      print the active set\n"
	       "  off          deactivate the active set and restore what wqctl changed (revert)\n"
	       "  install NAME FILE  validate FILE ('-': standard input) and install it as\n"
	       "               /etc/wqctl/profiles/NAME.conf (atomically, 0644)\n"
	       "  remove NAME  remove /etc/wqctl/profiles/NAME.conf (not while it is active)\n"
	       "  cat NAME     print /etc/wqctl/profiles/NAME.conf as installed (exit 32: not there)\n"
	       "  --now        with use: apply the new set at once\n"
	       "  --keep       with off: leave the values as they are (no revert)\n",
};
