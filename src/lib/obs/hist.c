// SPDX-License-Identifier: GPL-2.0-or-later
/* A tracefs hist file's text read into sections of entries and totals. */
#include "hist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIGGER_INFO "# trigger info: "

/* Cut the spaces at the end of [s, end) and end the string there. */
static void trim_at(char *s, char *end)
{
	while (end > s && end[-1] == ' ')
		end--;
	*end = '\0';
}

/* The key names of "hist:keys=A.mod,B:...", cut out of trigger (a copy). */
static int key_names(struct wq_hist_sec *sec, char *trigger)
{
	char *p = strstr(trigger, "hist:keys=");
	char *end, *tok, *save = NULL;

	if (!p)
		return -1;
	p += strlen("hist:keys=");
	end = strchr(p, ':');
	if (end)
		*end = '\0';
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dot = strchr(tok, '.');

		if (sec->nkeys == WQ_HIST_KEYS)
			return -1;
		if (dot)
			*dot = '\0';
		sec->name[sec->nkeys++] = tok;
	}
	return sec->nkeys ? 0 : -1;
}

/* "{ K0: V0, K1: V1 } hitcount: N ..." with the section's key names. */
static int entry(const struct wq_hist_sec *sec, char *line, struct wq_hist_entry *e)
{
	char *p = line + 2, *close = NULL, *q, *end;

	for (q = strstr(line, "} hitcount:"); q; q = strstr(q + 1, "} hitcount:"))
		close = q;
	if (strncmp(line, "{ ", 2) || !close)
		return -1;
	q = close + strlen("} hitcount:");
	errno = 0;
	e->hitcount = strtoull(q, &end, 10);
	if (errno || end == q)
		return -1;
	/* "  NAME: SUM" after it when the trigger has vals beyond hitcount */
	q = end + strspn(end, " ");
	if (*q && (q = strstr(q, ": "))) {
		e->val = strtoull(q + 2, &end, 10);
		if (errno || end == q + 2)
			return -1;
	}
	for (size_t i = 0; i < sec->nkeys; i++) {
		size_t len = strlen(sec->name[i]);
		char *stop;

		if (strncmp(p, sec->name[i], len) || strncmp(p + len, ": ", 2))
			return -1;
		p += len + 2;
		if (i + 1 < sec->nkeys) {
			char sep[64];

			snprintf(sep, sizeof(sep), ", %s: ", sec->name[i + 1]);
			stop = strstr(p, sep);
			if (!stop || stop > close)
				return -1;
		} else {
			stop = close;
		}
		e->key[i] = p;
		p = stop + 2;
		trim_at((char *)e->key[i], stop);
	}
	return 0;
}

static int total(const char *line, const char *name, unsigned long long *v)
{
	size_t len = strlen(name);

	line += strspn(line, " ");
	if (strncmp(line, name, len) || line[len] != ':')
		return 0;
	*v = strtoull(line + len + 1, NULL, 10);
	return 1;
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	void *nv;

	if (n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 16;
	nv = realloc(*p, *cap * size);
	if (!nv)
		return -ENOMEM;
	*p = nv;
	return 0;
}

int wq_hist_parse(char *text, struct wq_hist *h, char *why, size_t whysz)
{
	struct wq_hist_sec *sec = NULL;
	size_t cap = 0, ecap = 0, lineno = 0;
	char *line, *next;

	memset(h, 0, sizeof(*h));
	h->text = text;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!strncmp(line, TRIGGER_INFO, strlen(TRIGGER_INFO))) {
			char *t = line + strlen(TRIGGER_INFO), *bracket = strstr(t, " [");
			char *names;

			if (grow((void **)&h->sec, &cap, h->nsec, sizeof(*h->sec)) < 0)
				goto nomem;
			sec = &h->sec[h->nsec++];
			memset(sec, 0, sizeof(*sec));
			ecap = 0;
			if (bracket)
				*bracket = '\0';
			sec->trigger = t;
			/* the names are cut from a copy of the trigger, freed with the section */
			names = sec->names_ = strdup(t);
			if (!names)
				goto nomem;
			if (key_names(sec, names) < 0) {
				snprintf(why, whysz, "line %zu: no keys in the trigger \"%s\"", lineno, t);
				goto bad;
			}
			continue;
		}
		if (line[0] == '{') {
			struct wq_hist_entry e = {0};

			if (!sec || entry(sec, line, &e) < 0) {
				snprintf(why, whysz, "line %zu: not an entry of %s: \"%.80s\"", lineno,
					 sec ? "its section's keys" : "a section", line);
				goto bad;
			}
			if (grow((void **)&sec->ent, &ecap, sec->n, sizeof(*sec->ent)) < 0)
				goto nomem;
			sec->ent[sec->n++] = e;
			continue;
		}
		if (sec && (total(line, "Hits", &sec->hits) || total(line, "Entries", &sec->entries) ||
			    total(line, "Dropped", &sec->dropped)))
			continue;
	}
	return 0;
nomem:
	snprintf(why, whysz, "out of memory");
	wq_hist_clear(h);
	return -ENOMEM;
bad:
	wq_hist_clear(h);
	return -EBADMSG;
}

void wq_hist_clear(struct wq_hist *h)
{
	for (size_t i = 0; i < h->nsec; i++) {
		free(h->sec[i].names_);
		free(h->sec[i].ent);
	}
	free(h->sec);
	free(h->text);
	memset(h, 0, sizeof(*h));
}

const struct wq_hist_sec *wq_hist_section(const struct wq_hist *h, const char *keys)
{
	size_t len = strlen(keys);

	for (size_t i = 0; i < h->nsec; i++) {
		const char *t = h->sec[i].trigger;

		if (!strncmp(t, "hist:keys=", 10) && !strncmp(t + 10, keys, len) && t[10 + len] == ':')
			return &h->sec[i];
	}
	return NULL;
}

int wq_hist_log2(const char *v)
{
	char *end;
	long k;

	if (strncmp(v, "~ 2^", 4))
		return -1;
	errno = 0;
	k = strtol(v + 4, &end, 10);
	if (errno || end == v + 4 || *end || k < 0 || k > 64)
		return -1;
	return (int)k;
}

int wq_hist_u64(const char *v, uint64_t *out)
{
	char *end;

	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

int wq_hist_sym(const char *v, uint64_t *addr, const char **sym)
{
	char *end;

	if (*v != '[' || !isxdigit((unsigned char)v[1]))
		return -EINVAL;
	errno = 0;
	*addr = strtoull(v + 1, &end, 16);
	if (errno || *end != ']' || end[1] != ' ' || !end[2])
		return -EINVAL;
	*sym = end + 2;
	return 0;
}
