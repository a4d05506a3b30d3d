// SPDX-License-Identifier: GPL-2.0-or-later
/* Tables, raw, pairs and JSON output through libsmartcols, with -o column selection. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../lib/util/macro.h"
#include "cli.h"

const struct wq_libscols *cli_scols(void)
{
	const struct wq_libscols *l = wq_libscols();

	/* the command line's choice: nothing can be printed without it */
	if (!l) {
		fprintf(stderr, "wqctl: %s\n", wq_libscols_why());
		exit(1);
	}
	return l;
}

static int col_by_name(const struct colinfo *cols, size_t ncols, const char *name, size_t len)
{
	for (size_t i = 0; i < ncols; i++)
		if (strlen(cols[i].name) == len && !strncasecmp(cols[i].name, name, len))
			return (int)i;
	return -1;
}

static int add_cols(struct out *o, const char *list)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		int id = col_by_name(o->cols, o->ncols, p, len);

		if (len == 0) {
			p++;
			continue;
		}
		if (id < 0) {
			const char *names[64], *near;
			char word[64];
			size_t nn = 0;

			for (size_t i = 0; i < o->ncols && nn < ARRAY_SIZE(names); i++)
				names[nn++] = o->cols[i].name;
			snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), p);
			for (char *c = word; *c; c++)
				*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
			near = cli_nearest(word, names, nn);
			if (near)
				cli_err(o->cli,
					"--output: %.*s: unknown column; did you mean '%s'? (see --list-columns)",
					(int)len, p, near);
			else
				cli_err(o->cli, "--output: %.*s: unknown column (see --list-columns)", (int)len, p);
			return EXIT_USAGE;
		}
		if (o->nmap >= ARRAY_SIZE(o->map)) {
			cli_err(o->cli, "--output: too many columns");
			return EXIT_USAGE;
		}
		o->map[o->nmap++] = id;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

int out_init(struct out *o, struct cli *cli, const struct colinfo *cols, size_t ncols, const char *defaults,
	     const char *envvar, const char *json_name)
{
	const char *sel = cli->output;
	int r;

	memset(o, 0, sizeof(*o));
	o->cli = cli;
	o->cols = cols;
	o->ncols = ncols;
	if (!sel && envvar) {
		const char *e = getenv(envvar);

		if (e && *e)
			sel = e;
	}
	if (cli->output_all) {
		for (size_t i = 0; i < ncols && o->nmap < ARRAY_SIZE(o->map); i++)
			o->map[o->nmap++] = (int)i;
		r = 0;
	} else if (!sel || sel[0] == '+') {
		r = add_cols(o, defaults);
		if (r == 0 && sel)
			r = add_cols(o, sel + 1);
	} else {
		r = add_cols(o, sel);
	}
	if (r)
		return r;
	if (o->nmap == 0) {
		cli_err(cli, "--output: no columns selected");
		return EXIT_USAGE;
	}
	o->tb = scols_new_table();
	if (!o->tb)
		return EXIT_FAIL;
	scols_table_set_name(o->tb, json_name);
	scols_table_enable_json(o->tb, cli->json);
	scols_table_enable_raw(o->tb, cli->raw);
	scols_table_enable_export(o->tb, cli->pairs);
	scols_table_enable_noheadings(o->tb, cli->noheadings);
	for (size_t i = 0; i < o->nmap; i++) {
		const struct colinfo *ci = &cols[o->map[i]];
		struct libscols_column *cl = scols_table_new_column(o->tb, ci->name, ci->whint, ci->flags);

		if (!cl)
			return EXIT_FAIL;
		scols_column_set_json_type(cl, ci->json_type);
	}
	return 0;
}

int out_add_column(struct out *o, int id)
{
	const struct colinfo *ci = &o->cols[id];
	struct libscols_column *cl;

	if (out_has(o, id))
		return 0;
	if (o->nmap >= ARRAY_SIZE(o->map) || !(cl = scols_table_new_column(o->tb, ci->name, ci->whint, ci->flags)))
		return EXIT_FAIL;
	scols_column_set_json_type(cl, ci->json_type);
	o->map[o->nmap++] = id;
	return 0;
}

struct libscols_line *out_line(struct out *o)
{
	return scols_table_new_line(o->tb, NULL);
}

bool out_has(const struct out *o, int id)
{
	for (size_t i = 0; i < o->nmap; i++)
		if (o->map[i] == id)
			return true;
	return false;
}

/*
 * Printable ASCII without "\x": what libsmartcols's encoding (control and
 * non-printable bytes, and a backslash before 'x', as \xHH) leaves as it is.
 */
static bool plain_text(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p > 0x7e || (*p == '\\' && p[1] == 'x'))
			return false;
	return true;
}

void out_set(struct out *o, struct libscols_line *ln, int id, const char *value)
{
	for (size_t i = 0; i < o->nmap; i++) {
		if (o->map[i] != id)
			continue;
		/* Unknown values: "-" for people, null in JSON, empty in KEY="value" pairs. */
		if (!value && o->cli->json)
			continue;
		if (value && !o->encode && !plain_text(value))
			o->encode = true;
		scols_line_set_data(ln, i, value ? value : o->cli->pairs ? "" : "-");
	}
}

/* A number, without printf: five a row of a listing of thousands of workqueues. */
void out_setn(struct out *o, struct libscols_line *ln, int id, long v)
{
	char buf[WQ_UDEC_MAX + 1], *p;

	if (!out_has(o, id))
		return;
	p = udec(buf + sizeof(buf) - 1, v < 0 ? 0UL - (unsigned long)v : (unsigned long)v);
	if (v < 0)
		*--p = '-';
	out_set(o, ln, id, p);
}

void out_setf(struct out *o, struct libscols_line *ln, int id, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;

	if (!out_has(o, id))
		return; /* a column not shown: nothing to format */
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	out_set(o, ln, id, s);
	free(s);
}

int out_print(struct out *o)
{
	/*
	 * Cells of plain text print the same either way: libsmartcols then
	 * skips a pass over every character (mbrtowc each, in any locale).
	 */
	scols_table_enable_noencoding(o->tb, !o->encode);
	return scols_print_table(o->tb) == 0 ? EXIT_OK : EXIT_FAIL;
}

void out_free(struct out *o)
{
	scols_unref_table(o->tb);
	o->tb = NULL;
}

int out_list_columns(struct cli *cli, const struct colinfo *cols, size_t ncols)
{
	static const struct colinfo lc[] = {
	    {"NAME", 0, 0, SCOLS_JSON_STRING, "column name"},
	    {"DESCRIPTION", 0, 0, SCOLS_JSON_STRING, "what it shows"},
	};
	struct cli sub = *cli;
	struct out o;
	int r;

	sub.output = NULL;
	r = out_init(&o, &sub, lc, ARRAY_SIZE(lc), "NAME,DESCRIPTION", NULL, "columns");
	if (r)
		return r;
	for (size_t i = 0; i < ncols; i++) {
		struct libscols_line *ln = out_line(&o);

		out_set(&o, ln, 0, cols[i].name);
		out_set(&o, ln, 1, cols[i].help);
	}
	r = out_print(&o);
	out_free(&o);
	return r;
}
