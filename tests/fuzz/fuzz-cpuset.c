// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU-list and kernel hex mask parsers. Oracles: format then parse gives the
 * same set, and the hex parser (eight digits a word) accepts what a plain
 * digit-at-a-time reading below accepts, with the same CPUs.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The hex form as cpuset.h states it, one digit at a time: blanks trimmed;
 * with commas, chunks of 1-8 digits, the last one bits 0-31; without, one
 * number. Refused: a bad digit, a CPU from 8,192 on, and a digit placed at
 * bit 8,224 or beyond even if zero (the parser's bound for zero chunks).
 */
static bool ref_hex(const char *str, struct wq_cpuset *out)
{
	const char *b = str, *e;
	bool grouped = strchr(str, ',') != NULL;
	unsigned int bit = 0;

	wq_cpuset_zero(out);
	while (*b == ' ' || *b == '\t')
		b++;
	e = b + strlen(b);
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		e--;
	if (e == b)
		return false;
	for (const char *p = e; p > b;) {
		const char *q = p;
		unsigned int len;

		while (q > b && q[-1] != ',')
			q--;
		len = (unsigned int)(p - q);
		if (!len || (grouped && len > 8))
			return false;
		for (unsigned int i = 0; i < len; i++) {
			int d = digit(p[-1 - (int)i]);

			if (d < 0)
				return false;
			for (int k = 0; k < 4; k++)
				if (d >> k & 1) {
					if (bit + 4 * i + (unsigned int)k >= WQ_CPUSET_MAX_CPUS)
						return false;
					wq_cpuset_set_grow(out, bit + 4 * i + (unsigned int)k);
				}
		}
		if (bit + 4 * len >= WQ_CPUSET_MAX_CPUS + 32)
			return false;
		if (q == b)
			return true;
		if (q - 1 == b)
			return false; /* a leading comma */
		p = q - 1;
		bit += 32;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct wq_cpuset *a = wq_cpuset_new(), *b = wq_cpuset_new();

	if (!a || !b)
		abort();
	if (wq_cpuset_parse_list(a, s) == 0) {
		char *l = wq_cpuset_format_list(a);

		if (!l || wq_cpuset_parse_list(b, l) != 0 || !wq_cpuset_equal(a, b))
			abort();
		free(l);
	}
	{
		struct wq_cpuset *r = wq_cpuset_new();
		bool got = wq_cpuset_parse_hex(a, s) == 0, want = r && ref_hex(s, r);

		if (!r || got != want || (got && !wq_cpuset_equal(a, r)))
			abort();
		wq_cpuset_free(r);
	}
	if (wq_cpuset_parse_hex(a, s) == 0) {
		int last = wq_cpuset_last(a);
		char *h = wq_cpuset_format_hex(a, last < 0 ? 1 : (unsigned int)last + 1);

		if (!h || wq_cpuset_parse_hex(b, h) != 0 || !wq_cpuset_equal(a, b))
			abort();
		free(h);
	}
	wq_cpuset_free(a);
	wq_cpuset_free(b);
	free(s);
	return 0;
}
