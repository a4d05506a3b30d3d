// SPDX-License-Identifier: GPL-2.0-or-later
/* wqctl's entry: global options, the command table, diagnostics. */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "../lib/core/kver.h"
#include "../lib/util/dl.h"
#include "../lib/util/macro.h"
#include "../lib/core/ownerknob.h"
#include "../lib/core/wq.h"
#include "cli.h"

#ifndef WQCTL_VERSION
#define WQCTL_VERSION "0.0"
#endif

static const struct cmd *const commands[] = {
    &cmd_show,	  &cmd_get,	&cmd_set,	&cmd_knob,     &cmd_topology,	&cmd_explain, &cmd_check,
    &cmd_profile, &cmd_apply,	&cmd_verify,	&cmd_revert,   &cmd_snapshot,	&cmd_dump,    &cmd_monitor,
    &cmd_owner,	  &cmd_netnode, &cmd_kcounters, &cmd_devprops, &cmd_experiment, &cmd_metrics, &cmd_complete,
};

/* Edit distance with adjacent transpositions ("shwo" is one step from "show"). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[65][65];

	if (la > 64 || lb > 64)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), del = d[i - 1][j] + 1,
			       ins = d[i][j - 1] + 1, m = sub < del ? sub : del;

			m = m < ins ? m : ins;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < m)
				m = d[i - 2][j - 2] + 1;
			d[i][j] = m;
		}
	}
	return d[la][lb];
}

const char *cli_nearest(const char *word, const char *const *cands, size_t n)
{
	size_t best = (size_t)-1, limit = strlen(word) / 3 > 1 ? strlen(word) / 3 : 1;
	const char *pick = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, cands[i]);

		if (d < best) {
			best = d;
			pick = cands[i];
		}
	}
	return best <= limit ? pick : NULL;
}

const struct cmd *const *cli_commands(size_t *n)
{
	*n = ARRAY_SIZE(commands);
	return commands;
}

void cli_rename_file(struct cli *cli, const char *from, const char *to)
{
	cli->rename_from = from;
	cli->rename_to = to;
}

static void vmsg(struct cli *cli, int prio, const char *fmt, va_list ap)
{
	_cleanup_free_ char *m = NULL;
	const char *hit;

	/* what is printed comes before what is said about it, in a file too (>log 2>&1) */
	fflush(stdout);
	if (cli && cli->rename_from) {
		size_t at;

		if (vasprintf(&m, fmt, ap) < 0)
			return;
		/* the staged copy's name, once, as the file it stands for */
		hit = strstr(m, cli->rename_from);
		at = hit ? (size_t)(hit - m) : strlen(m);
		if (cli->use_syslog)
			syslog(prio, "%.*s%s%s", (int)at, m, hit ? cli->rename_to : "",
			       hit ? hit + strlen(cli->rename_from) : "");
		else
			fprintf(stderr, "wqctl: %.*s%s%s\n", (int)at, m, hit ? cli->rename_to : "",
				hit ? hit + strlen(cli->rename_from) : "");
		return;
	}
	if (cli && cli->use_syslog) {
		vsyslog(prio, fmt, ap);
		return;
	}
	fputs("wqctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_err(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, LOG_ERR, fmt, ap);
	va_end(ap);
}

void cli_note_shared_name(struct cli *cli, const char *name, unsigned int *said)
{
	const char *which;
	unsigned int bit;

	if (cli->quiet || !cli->ctx || wq_kver_name_sharers(&cli->ctx->kver, name, &which) < 2)
		return;
	bit = name[6] ? 2U : 1U; /* events_unbound, events */
	if (*said & bit)
		return;
	*said |= bit;
	cli_notice(cli,
		   "%s: %s: two workqueues have this name on 6.17 and later (%s); the tracepoints carry only the "
		   "name, so their work is counted as one",
		   cli->cmdname, name, which);
}

void cli_notice(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(cli, LOG_NOTICE, fmt, ap);
	va_end(ap);
}

void cli_warn(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	if (cli->quiet)
		return;
	va_start(ap, fmt);
	vmsg(cli, LOG_WARNING, fmt, ap);
	va_end(ap);
}

void cli_info(struct cli *cli, const char *fmt, ...)
{
	va_list ap;

	if (!cli->verbose)
		return;
	va_start(ap, fmt);
	vmsg(cli, LOG_INFO, fmt, ap);
	va_end(ap);
}

static void lib_log(void *data, int level, const char *fmt, va_list ap)
{
	struct cli *cli = data;

	if (level >= WQ_LOG_INFO && !cli->verbose)
		return;
	if (level == WQ_LOG_WARNING && cli->quiet)
		return;
	vmsg(cli, level, fmt, ap);
}

struct wq_ctx *cli_ctx(struct cli *cli)
{
	int r;

	if (cli->ctx)
		return cli->ctx;
	r = wq_ctx_new(cli->sysroot, cli->kernel, &cli->ctx);
	if (r == -EINVAL && cli->kernel) {
		cli_err(cli, "--kernel: '%s' is not a kernel release (expected e.g. 6.8.4)", cli->kernel);
		return NULL;
	}
	if (r < 0) {
		cli_err(cli, "%s: cannot open: %s", cli->sysroot ? cli->sysroot : "/", wq_strerror(-r));
		return NULL;
	}
	wq_ctx_set_log(cli->ctx, lib_log, cli);
	if (cli->ctx->kver_err)
		cli_warn(cli, "%s: cannot read the kernel release: %s (kernel unknown; give --kernel)", WQ_P_OSRELEASE,
			 cli->ctx->kver_err == -EINVAL ? "not a kernel release" : wq_strerror(-cli->ctx->kver_err));
	if (cli->verbose && !wq_root_exists(cli->ctx->root, WQ_P_WQ))
		cli_info(cli, "%s: no workqueue tree below %s", WQ_P_WQ, wq_root_path(cli->ctx->root));
	return cli->ctx;
}

void cli_err_lines(struct cli *cli, const char *object, const char *text)
{
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");

		cli_err(cli, "%s: %.*s", object, (int)n, l);
		l += n + (l[n] == '\n');
	}
}

bool cli_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * NAME (or a glob) names no workqueue in sysfs: one owned outside sysfs says
 * so and what to change instead (unless a near name exists on a kernel that
 * puts the owner's workqueues in sysfs: a typo), else the nearest name.
 */
static void say_missing(struct cli *cli, const char *name, const char *near)
{
	const struct wq_owner_knob *k = cli->ctx ? wq_owner_knob_for(name) : NULL;
	char why[768];

	if (k && !(near && wq_owner_knob_in_sysfs(cli->ctx, k)) &&
	    wq_owner_knob_absent(cli->ctx, name, why, sizeof(why)) == 0)
		cli_err_lines(cli, name, why);
	else if (near)
		cli_err(cli, "%s: no such workqueue; did you mean '%s'?", name, near);
	else
		cli_err(cli, "%s: %s", name, cli_is_glob(name) ? "no workqueue matches" : "no such workqueue");
}

int cli_resolve_targets(struct cli *cli, char **args, size_t nargs, char ***names, size_t *n, bool report_missing)
{
	struct wq_ctx *ctx = cli_ctx(cli);
	char **all = NULL, **res = NULL;
	size_t nall = 0, nres = 0, missing = 0;
	int r;

	*names = NULL;
	*n = 0;
	if (!ctx)
		return EXIT_FAIL;
	r = wq_list(ctx, &all, &nall);
	if (r < 0) {
		cli_err(cli, "%s: cannot list workqueues: %s", WQ_P_WQ, wq_strerror(-r));
		return EXIT_FAIL;
	}
	res = calloc(nall + 1, sizeof(*res));
	if (!res) {
		wq_names_free(all, nall);
		return EXIT_FAIL;
	}
	for (size_t a = 0; a < nargs; a++) {
		bool hit = false;

		for (size_t i = 0; i < nall && !hit; i++)
			hit = fnmatch(args[a], all[i], 0) == 0;
		if (!hit) {
			/* a typo of an existing name is said with the name */
			const char *near =
			    cli_is_glob(args[a]) ? NULL : cli_nearest(args[a], (const char *const *)all, nall);

			missing++;
			if (report_missing)
				say_missing(cli, args[a], near);
		}
	}
	for (size_t i = 0; i < nall; i++) {
		bool match = nargs == 0;

		for (size_t a = 0; a < nargs && !match; a++)
			match = fnmatch(args[a], all[i], 0) == 0;
		if (match)
			res[nres++] = all[i];
		else
			free(all[i]);
	}
	free(all);
	/* in wq_list's order: sorted */
	*names = res;
	*n = nres;
	if (!missing)
		return EXIT_OK;
	return missing == nargs ? EXIT_NONE_EXIST : EXIT_SOME_EXIST;
}

const char *cli_nearest_attr(const char *word)
{
	const char *names[WQ_A_NR];

	for (int a = 0; a < WQ_A_NR; a++)
		names[a] = wq_attr_descs[a].name;
	return cli_nearest(word, names, WQ_A_NR);
}

int cli_no_table(struct cli *cli, const char *cmd, bool json_ok)
{
	const char *opt = cli->list_columns	  ? "--list-columns"
			  : cli->output		  ? "--output"
			  : cli->output_all	  ? "--output-all"
			  : cli->raw		  ? "--raw"
			  : cli->pairs		  ? "--pairs"
			  : cli->noheadings	  ? "--noheadings"
			  : cli->json && !json_ok ? "--json"
						  : NULL;

	if (!opt)
		return 0;
	cli_err(cli, "%s: %s: the command prints no table, so the option does nothing here", cmd, opt);
	return EXIT_USAGE;
}

void cli_no_such_wq(struct cli *cli, const char *name)
{
	char **all = NULL;
	size_t nall = 0;
	const char *near = NULL;

	if (cli->ctx && wq_list(cli->ctx, &all, &nall) == 0)
		near = cli_nearest(name, (const char *const *)all, nall);
	say_missing(cli, name, near);
	wq_names_free(all, nall);
}

void cli_cmd_help(const struct cmd *c)
{
	printf("Usage: wqctl %s %s\n\n%s.\n", c->name, c->usage, c->summary);
	if (c->options)
		printf("\nOptions:\n%s", c->options);
	printf("\nGlobal options (see wqctl --help) are accepted before or after the command.\n");
}

static void usage(FILE *f)
{
	fputs("Usage: wqctl [GLOBAL OPTIONS] COMMAND [ARGS]\n\n"
	      "Inspect and tune Linux kernel workqueues.\n\nCommands:\n",
	      f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!commands[i]->hidden)
			fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nGlobal options:\n"
	      "      --sysroot DIR      read and write DIR/sys, DIR/proc instead of the live system\n"
	      "      --kernel RELEASE   assume this kernel release for version-dependent rules\n"
	      "      --profile-dir DIR  profile search path (repeatable; replaces the default)\n"
	      "  -J, --json             JSON output\n"
	      "  -r, --raw              raw output\n"
	      "  -P, --pairs            KEY=\"value\" output\n"
	      "  -n, --noheadings       no column headings (get: values only)\n"
	      "  -o, --output LIST      columns to print (+LIST appends to the defaults)\n"
	      "  -O, --output-all       every column\n"
	      "      --list-columns     list the columns of the command\n"
	      "  -q, --quiet            no warnings\n"
	      "  -v, --verbose          say more\n"
	      "      --syslog           send diagnostics to syslog\n"
	      "  -h, --help             this help (wqctl COMMAND --help for a command)\n"
	      "  -V, --version          print the version\n\n"
	      "Exit status: 0 ok, 1 failure, 2 invalid input, 3 check/verify findings,\n"
	      "32 no named workqueue exists, 64 some named workqueues do not exist.\n"
	      "See wqctl(8).\n",
	      f);
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (streq(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static int close_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (errno != EPIPE) {
			fprintf(stderr, "wqctl: stdout: write error: %s\n", wq_strerror(errno ? errno : EIO));
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

/* Global option with an argument: "--name ARG", "--name=ARG", "-xARG" or "-x ARG". */
static int take_arg(int argc, char **argv, int *i, const char *lng, char shrt, const char **val)
{
	const char *a = argv[*i];
	size_t l = strlen(lng);

	if (!strncmp(a, lng, l) && (a[l] == '=' || a[l] == '\0')) {
		if (a[l] == '=') {
			*val = a + l + 1;
			return 1;
		}
	} else if (shrt && a[0] == '-' && a[1] == shrt) {
		if (a[2]) {
			*val = a + 2;
			return 1;
		}
	} else {
		return 0;
	}
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

/* A global option without an argument, long or a bundle of short ones ("-Jq"): true when a is one. */
static bool flag(struct cli *cli, const char *a, bool *help, bool *version)
{
	if (streq(a, "--json"))
		cli->json = true;
	else if (streq(a, "--raw"))
		cli->raw = true;
	else if (streq(a, "--pairs"))
		cli->pairs = true;
	else if (streq(a, "--output-all"))
		cli->output_all = true;
	else if (streq(a, "--noheadings"))
		cli->noheadings = true;
	else if (streq(a, "--list-columns"))
		cli->list_columns = true;
	else if (streq(a, "--quiet"))
		cli->quiet = true;
	else if (streq(a, "--verbose"))
		cli->verbose++;
	else if (streq(a, "--syslog"))
		cli->use_syslog = true;
	else if (streq(a, "--help"))
		*help = true;
	else if (streq(a, "--version"))
		*version = true;
	else if (a[1] != '-' && strspn(a + 1, "JrPnqvhVO") == strlen(a + 1)) {
		for (const char *p = a + 1; *p; p++) {
			switch (*p) {
			case 'J': cli->json = true; break;
			case 'r': cli->raw = true; break;
			case 'P': cli->pairs = true; break;
			case 'n': cli->noheadings = true; break;
			case 'q': cli->quiet = true; break;
			case 'v': cli->verbose++; break;
			case 'h': *help = true; break;
			case 'V': *version = true; break;
			case 'O': cli->output_all = true; break;
			}
		}
	} else
		return false;
	return true;
}

/* Pull the global options out of argv wherever they are; the rest is the command's. */
static int parse_globals(struct cli *cli, int argc, char **argv, int *nargc, char **nargv, bool *help, bool *version)
{
	int n = 0;
	bool after_dashdash = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val;
		int t;

		if (after_dashdash || a[0] != '-' || streq(a, "-")) {
			nargv[n++] = argv[i];
			continue;
		}
		if (streq(a, "--")) {
			after_dashdash = true;
			nargv[n++] = argv[i];
			continue;
		}
		if ((t = take_arg(argc, argv, &i, "--sysroot", 0, &val))) {
			if (t < 0)
				goto missing;
			cli->sysroot = val;
		} else if ((t = take_arg(argc, argv, &i, "--kernel", 0, &val))) {
			struct wq_kver kv;

			if (t < 0)
				goto missing;
			/* invalid input: exit 2 before anything is read (wqctl(8), EXIT STATUS) */
			if (wq_kver_parse(val, &kv) < 0) {
				cli_err(cli, "--kernel: '%s' is not a kernel release (expected e.g. 6.8.4)", val);
				return -1;
			}
			cli->kernel = val;
		} else if ((t = take_arg(argc, argv, &i, "--profile-dir", 0, &val))) {
			const char **nd;

			if (t < 0)
				goto missing;
			nd = realloc(cli->profile_dirs, sizeof(*nd) * (cli->nprofile_dirs + 1));
			if (!nd)
				return -1;
			cli->profile_dirs = nd;
			cli->profile_dirs[cli->nprofile_dirs++] = val;
		} else if ((t = take_arg(argc, argv, &i, "--output", 'o', &val))) {
			if (t < 0)
				goto missing;
			cli->output = val;
		} else if (flag(cli, a, help, version)) {
			continue;
		} else {
			nargv[n++] = argv[i]; /* the command's own option */
		}
		continue;
	missing:
		cli_err(cli, "%s: option requires an argument", a);
		return -1;
	}
	nargv[n] = NULL;
	*nargc = n;
	/* one output mode at a time, as lsblk has it */
	if (cli->json + cli->raw + cli->pairs > 1) {
		cli_err(cli, "--json, --raw and --pairs: mutually exclusive arguments");
		return -1;
	}
	if (cli->output_all && cli->output) {
		cli_err(cli, "--output and --output-all: mutually exclusive arguments");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cli cli = {0};
	char **nargv = calloc((size_t)argc + 1, sizeof(char *));
	const struct cmd *c;
	bool help = false, version = false;
	int nargc = 0, rc;

	/*
	 * No fastbins: a table of thousands of workqueues frees as many small
	 * blocks, and with fastbins glibc sweeps all of them again each time
	 * a free joins a free region of 64 KB (malloc_consolidate), which
	 * happens or not with the layout of the heap: up to 0.7M instructions
	 * that came and went with unrelated changes. tcache still serves the
	 * small blocks; the time is the same (show of 10,000 workqueues).
	 */
	mallopt(M_MXFAST, 0);
	if (!nargv)
		return EXIT_FAIL;
	opterr = 0; /* commands word their own option errors */
	if (parse_globals(&cli, argc, argv, &nargc, nargv, &help, &version) < 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (!cli.sysroot) {
		const char *env = secure_getenv("WQCTL_SYSROOT");

		if (env && *env)
			cli.sysroot = env;
	}
	if (cli.use_syslog)
		openlog("wqctl", LOG_PID, LOG_DAEMON);
	if (version) {
		printf("wqctl %s\n", WQCTL_VERSION);
		rc = close_stdout();
		goto out;
	}
	if (nargc == 0) {
		if (help) {
			usage(stdout);
			rc = close_stdout();
		} else {
			usage(stderr);
			rc = EXIT_USAGE;
		}
		goto out;
	}
	c = find_cmd(nargv[0]);
	if (!c) {
		const char *names[ARRAY_SIZE(commands)], *near;
		size_t nn = 0;

		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			if (commands[i]->summary)
				names[nn++] = commands[i]->name;
		near = cli_nearest(nargv[0], names, nn);
		if (near)
			cli_err(&cli, "%s: unknown command; did you mean '%s'? (see wqctl --help)", nargv[0], near);
		else
			cli_err(&cli, "%s: unknown command (see wqctl --help)", nargv[0]);
		rc = EXIT_USAGE;
		goto out;
	}
	if (help) {
		cli_cmd_help(c);
		rc = close_stdout();
		goto out;
	}
	cli.cmdname = c->name;
	/* the library's JSON calls assume json-c (lib/util/dl.c): loaded here, where a failure may end the run */
	if ((c->json || cli.json) && !wq_libjson()) {
		cli_err(&cli, "%s", wq_libjson_why());
		rc = EXIT_FAIL;
		goto out;
	}
	rc = c->run(&cli, nargc, nargv);
	if (close_stdout() != EXIT_OK && rc == EXIT_OK)
		rc = EXIT_FAIL;
out:
	wq_ctx_free(cli.ctx);
	free(cli.profile_dirs);
	free(nargv);
	return rc;
}
