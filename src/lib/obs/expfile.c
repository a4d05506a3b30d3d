// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The saved-experiment reader: a JSON document written by `experiment
 * --save`, read back with every field's type, length and range checked, so
 * that a damaged or hand-made file is refused with the field it gets wrong
 * and never reaches json-c's asserts or a NULL string.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expfile.h"
#include "../util/jsonc.h"

struct rd {
	char *why;
	size_t whysz;
};

__attribute__((format(printf, 2, 3))) static int bad(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, r->whysz, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static json_object *field(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static bool is(json_object *o, json_type t)
{
	return o && json_object_get_type(o) == t;
}

/* A string without NUL bytes, copied; -EINVAL naming what. */
static int string(struct rd *r, json_object *o, const char *what, bool empty_ok, char **out)
{
	const char *s;

	if (!is(o, json_type_string))
		return bad(r, "%s is not a string", what);
	s = json_object_get_string(o);
	if (!s || strlen(s) != (size_t)json_object_get_string_len(o))
		return bad(r, "%s holds a NUL byte", what);
	if (!empty_ok && !*s)
		return bad(r, "%s is empty", what);
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

/* An array of strings (at most max, at least min), NULL-terminated. */
static int strings(struct rd *r, json_object *o, const char *what, size_t min, size_t max, char ***out, size_t *n)
{
	size_t len;
	int e;

	if (!is(o, json_type_array))
		return bad(r, "%s is not an array of strings", what);
	len = json_object_array_length(o);
	if (len < min || len > max)
		return bad(r, "%s has %zu entries (%zu to %zu)", what, len, min, max);
	*out = calloc(len + 1, sizeof(char *));
	if (!*out)
		return -ENOMEM;
	for (*n = 0; *n < len; (*n)++) {
		char name[64];

		snprintf(name, sizeof(name), "%s[%zu]", what, *n);
		e = string(r, json_object_array_get_idx(o, *n), name, false, &(*out)[*n]);
		if (e < 0)
			return e;
	}
	return 0;
}

/* An integer in [lo, hi]. */
static int integer(struct rd *r, json_object *o, const char *what, long lo, long hi, long *out)
{
	int64_t v;

	if (!is(o, json_type_int))
		return bad(r, "%s is not an integer", what);
	v = json_object_get_int64(o);
	if (v < lo || v > hi)
		return bad(r, "%s is %lld, not %ld to %ld", what, (long long)v, lo, hi);
	*out = (long)v;
	return 0;
}

static int settings(struct rd *r, json_object *arr, struct wq_saved_exp *x)
{
	size_t n;

	if (!is(arr, json_type_array))
		return bad(r, "settings is not an array");
	n = json_object_array_length(arr);
	if (n > WQ_EXP_MAX_CELLS)
		return bad(r, "settings has %zu entries (at most %d)", n, WQ_EXP_MAX_CELLS);
	x->settings = calloc(n + 1, sizeof(*x->settings));
	if (!x->settings)
		return -ENOMEM;
	for (; x->nsettings < n; x->nsettings++) {
		struct wq_saved_setting *s = &x->settings[x->nsettings];
		json_object *o = json_object_array_get_idx(arr, x->nsettings), *runs;
		size_t i = x->nsettings, nr;
		char name[64];
		int e;

		if (!is(o, json_type_object))
			return bad(r, "settings[%zu] is not an object", i);
		snprintf(name, sizeof(name), "settings[%zu].setting", i);
		if ((e = string(r, field(o, "setting"), name, false, &s->label)) < 0)
			return e;
		runs = field(o, "runs");
		if (!is(runs, json_type_array))
			return bad(r, "settings[%zu].runs is not an array", i);
		nr = json_object_array_length(runs);
		if (nr > WQ_EXP_MAX_RUNS)
			return bad(r, "settings[%zu].runs has %zu entries (at most %d)", i, nr, WQ_EXP_MAX_RUNS);
		s->metric = calloc(nr + 1, sizeof(double));
		if (!s->metric)
			return -ENOMEM;
		for (size_t k = 0; k < nr; k++) {
			json_object *m = field(json_object_array_get_idx(runs, k), "metric");
			double v;

			if (!is(m, json_type_double) && !is(m, json_type_int))
				return bad(r, "settings[%zu].runs[%zu].metric is not a number", i, k);
			v = json_object_get_double(m);
			if (!isfinite(v))
				return bad(r, "settings[%zu].runs[%zu].metric is not finite", i, k);
			s->metric[s->n++] = v;
		}
	}
	return 0;
}

static int parse(struct rd *r, json_object *doc, struct wq_saved_exp *x)
{
	json_object *spec = field(doc, "spec"), *metric = field(doc, "metric"), *v;
	char *better = NULL;
	int e;

	if (!is(doc, json_type_object))
		return bad(r, "the document is not a JSON object");
	if (!is(spec, json_type_object))
		return bad(r, "spec is missing or not an object");
	if (!is(metric, json_type_object))
		return bad(r, "metric is missing or not an object");
	if ((v = field(spec, "set")) &&
	    (e = strings(r, v, "spec.set", 0, WQ_EXP_MAX_AXES - 1, &x->sets, &x->nsets)) < 0)
		return e;
	if (!x->sets && !(x->sets = calloc(1, sizeof(char *))))
		return -ENOMEM;
	if ((v = field(spec, "profile")) && !is(v, json_type_null) &&
	    (e = string(r, v, "spec.profile", false, &x->profiles)) < 0)
		return e;
	if (!x->nsets && !x->profiles)
		return bad(r, "spec has neither set nor profile");
	if ((e = integer(r, field(spec, "runs"), "spec.runs", 1, WQ_EXP_MAX_RUNS, &x->runs)) < 0)
		return e;
	if ((v = field(spec, "warmup")) && (e = integer(r, v, "spec.warmup", 0, WQ_EXP_MAX_WARMUP, &x->warmup)) < 0)
		return e;
	if ((e = strings(r, field(spec, "command"), "spec.command", 1, WQ_EXP_MAX_ARGS, &x->cmd, &x->ncmd)) < 0)
		return e;
	if ((v = field(spec, "cwd")) && !is(v, json_type_null) && (e = string(r, v, "spec.cwd", false, &x->cwd)) < 0)
		return e;
	if (x->cwd && x->cwd[0] != '/')
		return bad(r, "spec.cwd is not an absolute path");
	if ((v = field(spec, "watch")) &&
	    (e = strings(r, v, "spec.watch", 0, WQ_EXP_MAX_WATCH, &x->watch, &x->nwatch)) < 0)
		return e;
	if ((e = string(r, field(metric, "name"), "metric.name", false, &x->metric)) < 0)
		return e;
	if ((v = field(doc, "kernel")) && !is(v, json_type_null) && (e = string(r, v, "kernel", false, &x->kernel)) < 0)
		return e;
	x->higher_is_better = true;
	if ((v = field(metric, "better"))) {
		if ((e = string(r, v, "metric.better", false, &better)) < 0)
			return e;
		x->higher_is_better = !strcmp(better, "higher");
		if (!x->higher_is_better && strcmp(better, "lower")) {
			free(better);
			return bad(r, "metric.better is neither \"higher\" nor \"lower\"");
		}
		free(better);
	}
	return settings(r, field(doc, "settings"), x);
}

int wq_saved_exp_parse(const char *text, size_t len, struct wq_saved_exp *out, char *why, size_t whysz)
{
	struct rd r = {why, whysz};
	json_tokener *tok;
	json_object *doc;
	int e;

	memset(out, 0, sizeof(*out));
	if (len > INT32_MAX)
		return bad(&r, "the file is too large");
	if (memchr(text, '\0', len))
		return bad(&r, "the file holds a NUL byte");
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	doc = json_tokener_parse_ex(tok, text, (int)len);
	if (!doc) {
		e = bad(&r, "%s", json_tokener_error_desc(json_tokener_get_error(tok)));
		json_tokener_free(tok);
		return e;
	}
	/* one document, nothing after it but blanks */
	for (size_t i = (size_t)json_tokener_get_parse_end(tok); i < len; i++)
		if (!strchr(" \t\r\n", text[i])) {
			json_tokener_free(tok);
			json_object_put(doc);
			return bad(&r, "text after the JSON document");
		}
	json_tokener_free(tok);
	e = parse(&r, doc, out);
	json_object_put(doc);
	if (e < 0)
		wq_saved_exp_free(out);
	return e;
}

void wq_saved_exp_free(struct wq_saved_exp *x)
{
	for (size_t i = 0; x->sets && x->sets[i]; i++)
		free(x->sets[i]);
	free(x->sets);
	for (size_t i = 0; x->cmd && x->cmd[i]; i++)
		free(x->cmd[i]);
	free(x->cmd);
	/* one past nsettings too: the entry a refusal left half filled (the array is zeroed, n + 1 long) */
	for (size_t i = 0; x->settings && i <= x->nsettings; i++) {
		free(x->settings[i].label);
		free(x->settings[i].metric);
	}
	free(x->settings);
	for (size_t i = 0; x->watch && x->watch[i]; i++)
		free(x->watch[i]);
	free(x->watch);
	free(x->profiles);
	free(x->cwd);
	free(x->metric);
	free(x->kernel);
	memset(x, 0, sizeof(*x));
}
