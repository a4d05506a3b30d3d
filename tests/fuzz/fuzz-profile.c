// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The profile reader, with the system inih as the oracle: when wqctl accepts
 * a file, inih must parse it without an error line, and every key = value
 * inih reports in a [global] or [workqueue ...] section must be the one
 * wqctl took, in the same section (the disagreement behind issue 11 #7).
 */
#define _GNU_SOURCE
#include <ini.h>
#include <stdint.h>

#include "fuzz.h"
#include "core/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct wq_ctx *ctx;
static char pd[512];

struct seen {
	char **v;
	size_t n;
};

static void add(struct seen *s, const char *sect, const char *k, const char *v)
{
	char *x = NULL;

	if (asprintf(&x, "%s\x1f%s\x1f%s", sect, k, v) < 0)
		abort();
	s->v = realloc(s->v, sizeof(*s->v) * (s->n + 1));
	if (!s->v)
		abort();
	s->v[s->n++] = x;
}

static int oracle(void *user, const char *section, const char *name, const char *value)
{
	struct seen *s = user;

	if (!strcmp(section, "global"))
		add(s, "", name, value);
	else if (!strncmp(section, "workqueue", 9) && section[9] == ' ')
		add(s, section + 10, name, value);
	return 1;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *const names[] = {"f"};
	const char *dirs[] = {pd};
	struct seen want = {0}, got = {0};
	struct wq_pset set;
	char *s;

	if (!ctx) {
		const char *root = fuzz_tree();

		if (!(ctx = fuzz_ctx(root)))
			abort();
		snprintf(pd, sizeof(pd), "%s/profiles", root);
		mkdir(pd, 0755);
	}
	fuzz_put(pd, "f.conf", (const char *)data, size);
	/* the caller frees the set whatever wq_pset_load returns */
	if (wq_pset_load(ctx, dirs, 1, names, 1, &set) != 0) {
		wq_pset_free(&set);
	} else {
		s = fuzz_str(data, size);
		if (ini_parse_string(s, oracle, &want) != 0)
			abort();
		for (size_t i = 0; i < set.ns; i++) {
			const struct wq_psect *x = &set.s[i];
			char sect[300];

			/* the section as written: the pattern after "[workqueue " */
			snprintf(sect, sizeof(sect), "%s", x->global ? "" : x->pattern);
			for (size_t j = 0; j < x->nkv; j++)
				add(&got, sect, x->kv[j].key, x->kv[j].value);
			for (size_t j = 0; j < x->nowner; j++) {
				char k[300];

				snprintf(k, sizeof(k), "owner.%s", x->owner[j].key);
				add(&got, sect, k, x->owner[j].value);
			}
		}
		if (want.n > 1)
			qsort(want.v, want.n, sizeof(*want.v), cmp);
		if (got.n > 1)
			qsort(got.v, got.n, sizeof(*got.v), cmp);
		if (want.n != got.n)
			abort();
		for (size_t i = 0; i < want.n; i++)
			if (strcmp(want.v[i], got.v[i]))
				abort();
		for (size_t i = 0; i < want.n; i++)
			free(want.v[i]);
		for (size_t i = 0; i < got.n; i++)
			free(got.v[i]);
		free(want.v);
		free(got.v);
		free(s);
		wq_pset_free(&set);
	}
	return 0;
}
