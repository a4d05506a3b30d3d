/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Minimal TAP producer for the C unit tests. */
#ifndef WQ_TAP_H
#define WQ_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...)                                                                                                  \
	do {                                                                                                           \
		int ok_ = !!(cond);                                                                                    \
		tap_n++;                                                                                               \
		if (!ok_)                                                                                              \
			tap_failed++;                                                                                  \
		printf("%sok %d - ", ok_ ? "" : "not ", tap_n);                                                        \
		printf(__VA_ARGS__);                                                                                   \
		printf("\n");                                                                                          \
		if (!ok_)                                                                                              \
			printf("#   failed at %s:%d\n", __FILE__, __LINE__);                                           \
	} while (0)

#define is_str(got, want, ...)                                                                                         \
	do {                                                                                                           \
		const char *g_ = (got), *w_ = (want);                                                                  \
		int same_ = g_ && w_ && strcmp(g_, w_) == 0;                                                           \
		ok(same_, __VA_ARGS__);                                                                                \
		if (!same_)                                                                                            \
			printf("#   got '%s'\n#   want '%s'\n", g_ ? g_ : "(null)", w_);                               \
	} while (0)

/* A fixture file's whole text (malloc'ed), or NULL; path below tests/fixtures (WQ_FIXTURES). */
#ifdef WQ_FIXTURES
#include <stdlib.h>
static inline char *tap_fixture(const char *rel)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", WQ_FIXTURES, rel);
	f = fopen(path, "r");
	if (!f) {
		printf("# %s: cannot open\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}
#endif

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
