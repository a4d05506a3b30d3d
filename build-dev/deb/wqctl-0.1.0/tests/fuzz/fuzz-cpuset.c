// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU-list and kernel hex mask parsers; oracle: format then parse gives the same set. */
#define _GNU_SOURCE
#include <stdint.h>

#include "cpuset.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
