// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A profile section's 'when' condition against a 16-CPU, 4-node 6.12 tree.
 * Oracle: the answer is 1, 0 or -EINVAL, a refusal says why, and a
 * condition that holds still holds with blanks added around every part.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>

#include "fuzz.h"
#include "core/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct wq_ctx *ctx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, why[512] = "", *spaced;
	size_t n = 0;
	int r;

	if (!ctx && !(ctx = fuzz_ctx(fuzz_tree())))
		abort();
	s = fuzz_str(data, size);
	r = wq_profile_when_eval(ctx, s, why, sizeof(why));
	if (r != 1 && r != 0 && r != -EINVAL)
		abort();
	if (r != 1 && !why[0])
		abort();
	if (r == 1) {
		/* " a >= 6 , b < 2 ": blanks before and after every comma and operator */
		spaced = malloc(strlen(s) * 3 + 3);
		if (!spaced)
			abort();
		for (const char *p = s; *p; p++) {
			bool op = strchr("<>=!,", *p) != NULL;

			if (op && (p == s || !strchr("<>=!", p[-1])))
				spaced[n++] = ' ';
			spaced[n++] = *p;
			if (op && !strchr("<>=", p[1]))
				spaced[n++] = ' ';
		}
		spaced[n] = '\0';
		if (wq_profile_when_eval(ctx, spaced, why, sizeof(why)) != 1)
			abort();
		free(spaced);
	}
	free(s);
	return 0;
}
