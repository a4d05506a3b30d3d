// SPDX-License-Identifier: GPL-2.0-or-later
/* experiment's metrics: fio's JSON, a regex or a JSON path over a workload's output, or wall time. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/jsonc.h"
#include "../util/macro.h"
#include "metric.h"

static const char *const dir_names[] = {"read", "write"};

static void apply_default_direction(struct metric *m)
{
	if (m->better_given)
		return;
	switch (m->kind) {
	case METRIC_WALL: m->higher_is_better = false; break;
	case METRIC_FIO: m->higher_is_better = m->what != FIO_CLAT; break;
	default: m->higher_is_better = true; break;
	}
}

static int parse_fio(struct metric *m, const char *f, char *why, size_t whysz)
{
	char *end;

	m->kind = METRIC_FIO;
	m->dir = -1;
	if (!strncmp(f, "read.", 5) || !strncmp(f, "write.", 6)) {
		m->dir = f[0] == 'w';
		f += m->dir ? 6 : 5;
	}
	if (!strcmp(f, "bw")) {
		m->what = FIO_BW;
		m->unit = "MiB/s";
	} else if (!strcmp(f, "iops")) {
		m->what = FIO_IOPS;
		m->unit = "IOPS";
	} else if (!strncmp(f, "clat_p", 6)) {
		m->what = FIO_CLAT;
		m->unit = "us";
		errno = 0;
		m->pct = strtod(f + 6, &end);
		if (errno || end == f + 6 || *end || !(m->pct > 0 && m->pct <= 100)) {
			snprintf(why, whysz, "'%s': expected a percentile after clat_p, as in clat_p99 or clat_p99.9",
				 f);
			return -EINVAL;
		}
	} else {
		snprintf(why, whysz, "'%s': fio fields are bw, iops and clat_pN, each optionally after read. or write.",
			 f);
		return -EINVAL;
	}
	return 0;
}

/*
 * glibc's regcomp() copies the tree of a repeated atom for each repetition
 * ('x+' is 'xx*', 'x{3}' is 'xxx'), so nested or stacked repetitions grow
 * exponentially: 're:a++++++++++++++++++++++++++' asks for gigabytes. An
 * upper bound of the copies is worked out first, and a pattern above
 * MAX_RE_NODES is refused, and so is a repetition of a repetition ('x+*').
 * A bounded repetition 'x{M,N}' is M copies and N-M nested optional ones,
 * which regcomp works through in about (N-M)^2 / 2 steps: 'x{,19000}' took
 * 2.85 GB and 4.3 s (issue 60), so that term counts too. True when it is
 * small enough.
 */
#define MAX_RE_NODES 20000.0
static bool regex_small(const char *re)
{
	double total[33] = {0}, last[33] = {0};
	bool after_rep = false;
	int depth = 0;

	for (const char *p = re; *p; p++) {
		double mult = 0, atom = 1;
		bool rep = *p == '*' || *p == '+' || *p == '?' ||
			   (*p == '{' && ((p[1] >= '0' && p[1] <= '9') || (p[1] == ',' && p[2] >= '0' && p[2] <= '9')));

		/* 'x++', 'x?*', 'x{2}+': undefined in POSIX, and each one multiplies glibc's work */
		if (rep && after_rep)
			return false;
		after_rep = rep;

		switch (*p) {
		case '\\':
			if (p[1])
				p++;
			break;
		case '[':
			/* a bracket expression: ']' first (or after '^') is a member, [:class:] is one */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p && *p != ']') {
				if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
					const char *e = strchr(p + 2, p[1]);

					p = e && e[1] == ']' ? e + 1 : p;
				}
				p++;
			}
			if (!*p)
				return true; /* regcomp says what is wrong */
			break;
		case '(':
			if (depth == 32)
				return false;
			depth++;
			total[depth] = last[depth] = 0;
			continue;
		case ')':
			if (depth == 0)
				break;
			atom = total[depth] + 1;
			depth--;
			break;
		case '|': after_rep = false; continue;
		case '*':
		case '?': continue;
		case '+': mult = 2; break;
		case '{': {
			char *end;
			long a = strtol(p + 1, &end, 10), b = a;

			if (*end == ',')
				b = end[1] == '}' ? a : strtol(end + 1, &end, 10);
			mult = (double)(a > b ? a : b) + 1;
			/* the nested optional copies of 'x{M,N}': about (N-M)^2 / 2 steps of regcomp */
			if (b > a)
				mult += (double)(b - a) * (double)(b - a) / 2;
			if ((end = strchr(p, '}')))
				p = end;
			break;
		}
		default: break;
		}
		if (mult) {
			total[depth] += last[depth] * (mult - 1);
			last[depth] *= mult;
		} else {
			total[depth] += atom;
			last[depth] = atom;
		}
		if (total[depth] > MAX_RE_NODES)
			return false;
	}
	return true;
}

int metric_parse(struct metric *m, const char *spec, char *why, size_t whysz)
{
	bool given = m->better_given, higher = m->higher_is_better;
	int r;

	memset(m, 0, sizeof(*m));
	m->better_given = given;
	m->higher_is_better = higher;
	if (!spec || !strcmp(spec, "auto")) {
		m->kind = METRIC_AUTO;
		snprintf(m->spec, sizeof(m->spec), "auto");
		return 0;
	}
	if (strlen(spec) >= sizeof(m->spec)) {
		snprintf(why, whysz, "longer than %zu characters", sizeof(m->spec) - 1);
		return -EINVAL;
	}
	snprintf(m->spec, sizeof(m->spec), "%s", spec);
	if (!strcmp(spec, "wall")) {
		m->kind = METRIC_WALL;
		m->unit = "s";
	} else if (!strncmp(spec, "fio:", 4)) {
		if ((r = parse_fio(m, spec + 4, why, whysz)) < 0)
			return r;
	} else if (!strncmp(spec, "re:", 3)) {
		m->kind = METRIC_REGEX;
		m->unit = "";
		if (!regex_small(spec + 3)) {
			snprintf(why, whysz,
				 "regular expression '%s': stacked or deeply nested repetitions "
				 "(they would take more memory and time than a metric should)",
				 spec + 3);
			return -EINVAL;
		}
		r = regcomp(&m->re, spec + 3, REG_EXTENDED | REG_NEWLINE);
		if (r) {
			char e[160];

			regerror(r, &m->re, e, sizeof(e));
			snprintf(why, whysz, "regular expression '%s': %s", spec + 3, e);
			return -EINVAL;
		}
		m->re_ok = true;
	} else if (!strncmp(spec, "json:", 5) && spec[5]) {
		m->kind = METRIC_JSON;
		m->unit = "";
		snprintf(m->path, sizeof(m->path), "%s", spec + 5);
	} else {
		snprintf(why, whysz, "expected wall, fio:FIELD, re:REGEX or json:PATH");
		return -EINVAL;
	}
	apply_default_direction(m);
	return 0;
}

int metric_set_better(struct metric *m, const char *word)
{
	if (strcmp(word, "higher") && strcmp(word, "lower"))
		return -EINVAL;
	m->better_given = true;
	m->higher_is_better = !strcmp(word, "higher");
	return 0;
}

void metric_free(struct metric *m)
{
	if (m->re_ok)
		regfree(&m->re);
	m->re_ok = false;
}

void metric_describe(const struct metric *m, char *buf, size_t size)
{
	const char *dir = m->higher_is_better ? "higher is better" : "lower is better";

	switch (m->kind) {
	case METRIC_AUTO: snprintf(buf, size, "fio bandwidth if the output is fio JSON, else wall time"); break;
	case METRIC_WALL: snprintf(buf, size, "wall time, s, %s", dir); break;
	case METRIC_FIO:
		snprintf(buf, size, "fio %s%s%s, %s, %s", m->dir < 0 ? "" : dir_names[m->dir], m->dir < 0 ? "" : " ",
			 m->what == FIO_BW     ? "bandwidth"
			 : m->what == FIO_IOPS ? "IOPS"
					       : "completion latency",
			 m->unit, dir);
		if (m->what == FIO_CLAT)
			snprintf(buf, size, "fio %s%scompletion latency p%g (worst job), us, %s",
				 m->dir < 0 ? "" : dir_names[m->dir], m->dir < 0 ? "" : " ", m->pct, dir);
		break;
	case METRIC_REGEX: snprintf(buf, size, "the number matched by /%s/, %s", m->spec + 3, dir); break;
	case METRIC_JSON: snprintf(buf, size, "the number at %s in the output's JSON, %s", m->path, dir); break;
	}
}

/* The first JSON object of the output (fio may print notes before it); NULL with why. */
static json_object *parse_json(const char *out, size_t len, char *why, size_t whysz)
{
	const char *p = out, *end = out + len;
	json_tokener *tok;
	json_object *o;

	/* an object opening a line */
	while (p < end && !(*p == '{' && (p == out || p[-1] == '\n')))
		p++;
	if (p >= end) {
		snprintf(why, whysz, "the output holds no JSON object");
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		snprintf(why, whysz, "out of memory");
		return NULL;
	}
	o = json_tokener_parse_ex(tok, p, (int)(end - p > 0x7fffffff ? 0x7fffffff : end - p));
	if (!o)
		snprintf(why, whysz, "the output's JSON does not parse: %s",
			 json_tokener_get_error(tok) == json_tokener_continue
			     ? "it ends early"
			     : json_tokener_error_desc(json_tokener_get_error(tok)));
	json_tokener_free(tok);
	return o;
}

static bool is_fio(json_object *root)
{
	json_object *v;

	return json_object_get_type(root) == json_type_object && json_object_object_get_ex(root, "fio version", &v) &&
	       json_object_object_get_ex(root, "jobs", &v) && json_object_get_type(v) == json_type_array;
}

static bool number(json_object *o, const char *key, double *v)
{
	json_object *x;

	if (!json_object_object_get_ex(o, key, &x))
		return false;
	if (json_object_get_type(x) != json_type_int && json_object_get_type(x) != json_type_double)
		return false;
	*v = json_object_get_double(x);
	return isfinite(*v);
}

/* clat_ns.percentile["99.000000"] of one direction, in microseconds; false when fio did not report it. */
static bool percentile_us(json_object *d, double pct, double *us)
{
	json_object *c, *p;
	char key[32];

	if (!json_object_object_get_ex(d, "clat_ns", &c) || !json_object_object_get_ex(c, "percentile", &p))
		return false;
	snprintf(key, sizeof(key), "%f", pct);
	if (!number(p, key, us))
		return false;
	*us /= 1000.0;
	return true;
}

static json_object *fixed(double v, int decimals)
{
	char b[48];

	snprintf(b, sizeof(b), "%.*f", decimals, v);
	return json_object_new_double_s(v, b);
}

/* Sum (bw, iops) or worst (clat) over jobs and directions; the per-job figures into *jobs. */
static int fio_value(const struct metric *m, json_object *root, double *value, json_object **jobs, char *why,
		     size_t whysz)
{
	json_object *arr, *list = json_object_new_array();
	size_t n;
	double total = 0, worst = -1;
	bool any = false;

	if (!list) {
		snprintf(why, whysz, "out of memory");
		return -ENOMEM;
	}
	json_object_object_get_ex(root, "jobs", &arr);
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		json_object *job = json_object_array_get_idx(arr, i), *name, *jo = json_object_new_object();

		if (!jo)
			continue;
		json_object_array_add(list, jo);
		if (json_object_object_get_ex(job, "jobname", &name))
			json_object_object_add(jo, "jobname", json_object_new_string(json_object_get_string(name)));
		for (int d = 0; d < 2; d++) {
			json_object *dir, *dj;
			double bw, iops, bytes, p50, p99, lat;

			if (!json_object_object_get_ex(job, dir_names[d], &dir) || !number(dir, "io_bytes", &bytes) ||
			    bytes <= 0)
				continue;
			if (!number(dir, "bw", &bw) || !number(dir, "iops", &iops)) {
				snprintf(why, whysz, "fio job %zu has no %s bw or iops", i, dir_names[d]);
				json_object_put(list);
				return -EINVAL;
			}
			dj = json_object_new_object();
			json_object_object_add(jo, dir_names[d], dj);
			/* fio's bw is KiB/s */
			json_object_object_add(dj, "bw_mib_s", fixed(bw / 1024.0, 2));
			json_object_object_add(dj, "iops", fixed(iops, 1));
			if (percentile_us(dir, 50, &p50))
				json_object_object_add(dj, "clat_p50_us", fixed(p50, 1));
			if (percentile_us(dir, 99, &p99))
				json_object_object_add(dj, "clat_p99_us", fixed(p99, 1));
			if (m->dir >= 0 && m->dir != d)
				continue;
			any = true;
			if (m->what == FIO_BW) {
				total += bw / 1024.0;
			} else if (m->what == FIO_IOPS) {
				total += iops;
			} else {
				if (!percentile_us(dir, m->pct, &lat)) {
					snprintf(why, whysz,
						 "fio job %zu reports no %s completion latency percentile %f "
						 "(clat_percentiles or percentile_list in the job file)",
						 i, dir_names[d], m->pct);
					json_object_put(list);
					return -EINVAL;
				}
				if (lat > worst)
					worst = lat;
			}
		}
	}
	if (!any) {
		snprintf(why, whysz, "fio reports no %s I/O in any job",
			 m->dir < 0 ? "read or write" : dir_names[m->dir]);
		json_object_put(list);
		return -EINVAL;
	}
	*value = m->what == FIO_CLAT ? worst : total;
	*jobs = list;
	return 0;
}

static int json_path_value(const char *path, json_object *root, double *value, char *why, size_t whysz)
{
	_cleanup_free_ char *buf = strdup(path);
	char *save = NULL;
	json_object *o = root;

	if (!buf)
		return -ENOMEM;
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		json_object *next = NULL;

		if (json_object_get_type(o) == json_type_array) {
			char *end;
			long i = strtol(k, &end, 10);

			if (*end || i < 0 || (size_t)i >= json_object_array_length(o)) {
				snprintf(why, whysz, "json:%s: '%s' is not an index of an array of %zu", path, k,
					 json_object_array_length(o));
				return -EINVAL;
			}
			next = json_object_array_get_idx(o, (size_t)i);
		} else if (json_object_get_type(o) != json_type_object || !json_object_object_get_ex(o, k, &next)) {
			snprintf(why, whysz, "json:%s: no member '%s'", path, k);
			return -EINVAL;
		}
		o = next;
	}
	if (json_object_get_type(o) != json_type_int && json_object_get_type(o) != json_type_double) {
		snprintf(why, whysz, "json:%s: not a number", path);
		return -EINVAL;
	}
	*value = json_object_get_double(o);
	if (!isfinite(*value)) {
		snprintf(why, whysz, "json:%s: %s is not a finite number", path, json_object_get_string(o));
		return -EINVAL;
	}
	return 0;
}

static int regex_value(const struct metric *m, const char *out, double *value, char *why, size_t whysz)
{
	regmatch_t mt[2];
	char num[64], *end;
	int g;
	size_t l;

	if (regexec(&m->re, out, 2, mt, 0)) {
		snprintf(why, whysz, "/%s/ matches nothing in the output", m->spec + 3);
		return -EINVAL;
	}
	g = mt[1].rm_so >= 0 ? 1 : 0;
	l = (size_t)(mt[g].rm_eo - mt[g].rm_so);
	if (l == 0 || l >= sizeof(num)) {
		snprintf(why, whysz, "/%s/: the match is not a number", m->spec + 3);
		return -EINVAL;
	}
	memcpy(num, out + mt[g].rm_so, l);
	num[l] = '\0';
	errno = 0;
	*value = strtod(num, &end);
	if (errno || end == num || *end || !isfinite(*value)) {
		snprintf(why, whysz, "/%s/: '%s' is not a number", m->spec + 3, num);
		return -EINVAL;
	}
	return 0;
}

int metric_extract(struct metric *m, const char *out, size_t len, double wall_s, double *value, json_object **fio,
		   char *why, size_t whysz)
{
	json_object *root = NULL;
	char ignore[8];
	int r = 0;

	*fio = NULL;
	/* fio figures are kept whatever the metric (for -J); parsing is cheap next to a run */
	if (memchr(out, '{', len))
		root = parse_json(out, len, m->kind == METRIC_JSON ? why : ignore,
				  m->kind == METRIC_JSON ? whysz : sizeof(ignore));
	if (m->kind == METRIC_AUTO) {
		if (root && is_fio(root)) {
			m->kind = METRIC_FIO;
			m->what = FIO_BW;
			m->dir = -1;
			m->unit = "MiB/s";
			snprintf(m->spec, sizeof(m->spec), "fio:bw");
		} else {
			m->kind = METRIC_WALL;
			m->unit = "s";
			snprintf(m->spec, sizeof(m->spec), "wall");
		}
		apply_default_direction(m);
	}
	switch (m->kind) {
	case METRIC_WALL:
		*value = wall_s;
		if (root && is_fio(root)) {
			struct metric bw = {.kind = METRIC_FIO, .what = FIO_BW, .dir = -1};
			double ignored;

			fio_value(&bw, root, &ignored, fio, ignore, sizeof(ignore));
		}
		break;
	case METRIC_FIO:
		if (!root || !is_fio(root)) {
			snprintf(why, whysz, "the output is not fio's JSON (run fio with --output-format=json)");
			r = -EINVAL;
			break;
		}
		r = fio_value(m, root, value, fio, why, whysz);
		break;
	case METRIC_REGEX: r = regex_value(m, out, value, why, whysz); break;
	case METRIC_JSON:
		r = root ? json_path_value(m->path, root, value, why, whysz) : -EINVAL;
		if (!root && !strstr(why, "JSON"))
			snprintf(why, whysz, "the output holds no JSON object");
		break;
	default: r = -EINVAL; break;
	}
	if (r == 0 && !isfinite(*value)) {
		/* the statistics have no place for it: refused at the run that gave it */
		snprintf(why, whysz, "the value is not a finite number");
		r = -EINVAL;
	}
	if (root)
		json_object_put(root);
	return r;
}
