// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * experiment --plot: a box plot per setting (quartiles, whiskers to min and
 * max, the median as a bar) with every run as a dot, drawn by gnuplot's svg
 * terminal from a data file and a script in a private temporary directory.
 */
#define _GNU_SOURCE
#include "exp_plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/util/macro.h"
#include "../lib/core/root.h"

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	_cleanup_free_ char *copy = strdup(path ? path : "/usr/bin:/bin");
	char *save = NULL;

	if (!copy)
		return false;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char f[4096];

		snprintf(f, sizeof(f), "%s/%s", *d ? d : ".", prog);
		if (access(f, X_OK) == 0)
			return true;
	}
	return false;
}

/*
 * A gnuplot string that is only text: single-quoted, where gnuplot expands
 * neither backquotes (a command) nor @macros nor backslashes; a quote is
 * doubled, a control character (which would end the line) shown as '?'.
 */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	}
	fputc('\'', f);
}

/*
 * Can --plot's file be written? Checked before the first run, so that no
 * result is lost to a typo: its directory must take a new file (the plot
 * is renamed into place), and the name must not be a directory.
 */
static int plot_writable(struct cli *cli, const char *path)
{
	_cleanup_free_ char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	struct stat st;

	if (!dir)
		return EXIT_FAIL;
	if (slash == dir) /* "/x.svg" */
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	if (access(slash ? dir : ".", W_OK | X_OK) < 0) {
		cli_err(cli, "experiment: --plot %s: cannot write there: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		cli_err(cli, "experiment: --plot %s: cannot write: %s", path, strerror(EISDIR));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The plot gnuplot drew in the private directory, renamed into place at path. */
static int plot_install(struct cli *cli, const char *drawn, const char *path)
{
	_cleanup_free_ char *buf = NULL;
	int fd = open(drawn, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), r;
	size_t len = 0;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
		if (fd >= 0)
			close(fd);
		cli_err(cli, "%s: gnuplot drew no plot", path);
		return EXIT_FAIL;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!buf || len != (size_t)st.st_size) {
		cli_err(cli, "%s: cannot read the plot gnuplot drew", path);
		return EXIT_FAIL;
	}
	r = wq_file_replace(path, 0644, buf, len);
	if (r < 0) {
		cli_err(cli, "experiment: --plot %s: cannot write: %s", path, wq_strerror(-r));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * Box plot per setting (quartiles and whiskers to min and max, the median
 * as a bar) with every run as a dot, drawn by gnuplot's svg terminal.
 */
int exp_plot(struct cli *cli, const struct wq_exp *e, const char *path)
{
	char dir[] = "/tmp/wqctl-plot.XXXXXX", data[64], script[64], drawn[64];
	char desc[300];
	FILE *f = NULL;
	int rc = EXIT_FAIL, status;
	pid_t pid;

	if (!mkdtemp(dir)) {
		cli_err(cli, "experiment: --plot: temporary directory: %s", strerror(errno));
		return EXIT_FAIL;
	}
	snprintf(data, sizeof(data), "%s/runs", dir);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	snprintf(drawn, sizeof(drawn), "%s/plot.svg", dir);
	f = fopen(data, "w");
	if (!f)
		goto out;
	/* block 0: one line per setting (x q1 min max q3 median); block 1: every run (x value) */
	for (size_t i = 0; i < e->ncells; i++)
		fprintf(f, "%zu %.9g %.9g %.9g %.9g %.9g\n", i, e->cells[i].st.q1, e->cells[i].st.min,
			e->cells[i].st.max, e->cells[i].st.q3, e->cells[i].st.median);
	fprintf(f, "\n\n");
	for (size_t i = 0; i < e->ncells; i++)
		for (size_t r = 0; r < e->cells[i].n; r++)
			fprintf(f, "%zu %.9g\n", i, e->cells[i].val[r]);
	fprintf(f, "\n\n");
	for (size_t i = 0; i < e->ncells; i++)
		if (e->cells[i].has_base)
			fprintf(f, "%zu %.9g\n", i, e->cells[i].base_st.median);
	fprintf(f, "%s", "\n");
	if (fclose(f))
		goto out;
	f = fopen(script, "w");
	if (!f)
		goto out;
	metric_describe(&e->metric, desc, sizeof(desc));
	fprintf(f, "set terminal svg size %zu,480 dynamic noenhanced font 'sans,11'\nset output ",
		e->ncells * 140 + 260 < 640 ? 640 : e->ncells * 140 + 260);
	/* gnuplot draws in the private directory; the file is renamed into place after */
	gp_string(f, drawn);
	fprintf(f, "\nset ylabel ");
	gp_string(f, desc);
	fprintf(f, "\nset title ");
	gp_string(f, e->loaded ? "wqctl experiment --compare (x: saved baseline median)" : "wqctl experiment");
	fprintf(f,
		"\nset xrange [-0.6:%zu.6]\nset boxwidth 0.5\nset style fill empty\nset key off\n"
		"set grid ytics\nset xtics (",
		e->ncells - 1);
	for (size_t i = 0; i < e->ncells; i++) {
		if (i)
			fputs(", ", f);
		gp_string(f, e->cells[i].label);
		fprintf(f, " %zu", i);
	}
	fprintf(f, ") rotate by -20\n");
	fprintf(f,
		"plot '%s' index 0 using 1:2:3:4:5 with candlesticks whiskerbars lc rgb '#1f5fa8' lw 1.5, \\\n"
		"  '' index 0 using 1:6:6:6:6 with candlesticks lc rgb '#1f5fa8' lw 3, \\\n"
		"  '' index 1 using 1:2 with points pt 7 ps 0.6 lc rgb '#d2691e'",
		data);
	if (e->loaded)
		fprintf(f, ", \\\n  '' index 2 using 1:2 with points pt 2 ps 1.5 lc rgb '#555555'");
	fputc('\n', f);
	if (fclose(f))
		goto out;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		rc = plot_install(cli, drawn, path);
		if (rc == EXIT_OK)
			cli_info(cli, "experiment: plot written to %s", path);
	} else {
		cli_err(cli, "%s: gnuplot could not draw the plot", path);
	}
out:
	if (rc && f == NULL)
		cli_err(cli, "experiment: --plot: %s: %s", dir, strerror(errno));
	unlink(data);
	unlink(script);
	unlink(drawn);
	rmdir(dir);
	return rc;
}

int exp_plot_check(struct cli *cli, const char *path)
{
	if (!in_path("gnuplot")) {
		cli_err(cli, "experiment: --plot needs gnuplot (Debian: apt install gnuplot-nox)");
		return EXIT_FAIL;
	}
	return plot_writable(cli, path);
}
