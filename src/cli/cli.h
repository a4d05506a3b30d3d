/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command-line layer's shared state and helpers: struct cli, the command table, diagnostics,
 * output columns.
 */
#ifndef WQCTL_CLI_H
#define WQCTL_CLI_H

#include <libsmartcols.h>

#include "lazy.h"
#include <stdbool.h>
#include <stddef.h>

#include "../lib/core/ctx.h"

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_FINDINGS = 3,
	EXIT_NONE_EXIST = 32,
	EXIT_SOME_EXIST = 64,
};

struct cli {
	struct wq_ctx *ctx;
	const char *sysroot;
	const char *kernel;
	const char **profile_dirs;
	size_t nprofile_dirs;
	bool json, raw, pairs, noheadings, list_columns;
	const char *output;
	bool output_all; /* -O: every column */
	const char *cmdname; /* the command being run */
	int verbose;
	bool quiet, use_syslog;
	/* cli_rename_file(): a file diagnostics name as another (a staged copy as the file it copies) */
	const char *rename_from, *rename_to;
};

struct cmd {
	const char *name;
	int (*run)(struct cli *cli, int argc, char **argv);
	const char *summary;
	const char *usage; /* options and arguments after "wqctl NAME" */
	const char *options; /* help text for command options, or NULL */
	bool hidden;
	bool json; /* reads or writes JSON without -J too (json-c loaded before it runs) */
};

/*
 * From now on diagnostics that name the file from name it as to (from
 * NULL: stop). For a private copy validated in place of the user's file.
 */
void cli_rename_file(struct cli *cli, const char *from, const char *to);
/* Diagnostics: "wqctl: " + message, to stderr or syslog. */
void cli_err(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_warn(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line that --quiet does not silence (apply --boot's summary for the journal). */
void cli_notice(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_info(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Once a run, for a name that two workqueues share on this kernel (6.17+:
 * events, events_unbound): a notice that the tracepoints merge them. The
 * bits of *said remember which names were told.
 */
void cli_note_shared_name(struct cli *cli, const char *name, unsigned int *said);
/* Print "wqctl NAME" usage and option help of a command to stdout. */
void cli_cmd_help(const struct cmd *c);
/* The candidate closest to word (edit distance, at most a third of its length), or NULL. */
const char *cli_nearest(const char *word, const char *const *cands, size_t n);
/*
 * Commands that print no table refuse the table options rather than ignore
 * them (--list-columns, -o, -O, -r, -P, -n, and -J unless json_ok).
 * 0, or EXIT_USAGE after saying which option.
 */
int cli_no_table(struct cli *cli, const char *cmd, bool json_ok);
/* The workqueue attribute nearest to word, or NULL. */
const char *cli_nearest_attr(const char *word);
/* "NAME: no such workqueue", with the nearest existing name when there is one. */
void cli_no_such_wq(struct cli *cli, const char *name);
/* Open the library context on first use; NULL after an error was printed. */
struct wq_ctx *cli_ctx(struct cli *cli);
/* True if s has glob characters. */
bool cli_is_glob(const char *s);
/* Each line of text as its own "OBJECT: line" error. */
void cli_err_lines(struct cli *cli, const char *object, const char *text);
/*
 * Resolve name/glob arguments to sorted, unique workqueue names. Every
 * argument that matches nothing is reported. Returns EXIT_OK, EXIT_SOME_EXIST
 * (some matched nothing), EXIT_NONE_EXIST or EXIT_FAIL.
 */
int cli_resolve_targets(struct cli *cli, char **args, size_t nargs, char ***names, size_t *n, bool report_missing);

/* Output columns through libsmartcols. */
struct colinfo {
	const char *name;
	double whint;
	int flags;
	int json_type;
	const char *help;
};

struct out {
	struct cli *cli;
	struct libscols_table *tb;
	const struct colinfo *cols;
	size_t ncols;
	int map[64]; /* visible column -> colinfo index */
	size_t nmap;
	bool encode; /* a cell holds a byte libsmartcols would encode */
};

/*
 * Set up a table: columns from -o (or env, or defaults), modes from the
 * global options. Returns 0, or EXIT_USAGE after printing an error.
 */
int out_init(struct out *o, struct cli *cli, const struct colinfo *cols, size_t ncols, const char *defaults,
	     const char *envvar, const char *json_name);
/* Add column id after the selected ones (before the first line), unless shown already. 0 or EXIT_FAIL. */
int out_add_column(struct out *o, int id);
struct libscols_line *out_line(struct out *o);
/* Set column id (index into colinfo) of a line; NULL value = "-" (JSON null). */
void out_set(struct out *o, struct libscols_line *ln, int id, const char *value);
void out_setn(struct out *o, struct libscols_line *ln, int id, long v);
void out_setf(struct out *o, struct libscols_line *ln, int id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool out_has(const struct out *o, int id);
int out_print(struct out *o);
void out_free(struct out *o);
/* --list-columns: NAME and DESCRIPTION of every column. */
int out_list_columns(struct cli *cli, const struct colinfo *cols, size_t ncols);

extern const struct cmd cmd_show, cmd_get, cmd_set, cmd_knob, cmd_topology, cmd_explain, cmd_check, cmd_profile,
    cmd_apply, cmd_verify, cmd_revert, cmd_snapshot, cmd_dump, cmd_monitor, cmd_owner, cmd_netnode, cmd_kcounters,
    cmd_devprops, cmd_complete, cmd_experiment, cmd_metrics;
/* The command table (for help and completion). */
const struct cmd *const *cli_commands(size_t *n);

#endif
