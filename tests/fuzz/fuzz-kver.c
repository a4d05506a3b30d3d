// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel release parsing; oracle: the numbers read back from their own spelling. */
#define _GNU_SOURCE
#include <stdint.h>

#include "fuzz.h"
#include "core/kver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), again[64];
	struct wq_kver kv, kv2;
	const char *why;

	if (wq_kver_parse(s, &kv) == 0) {
		if (kv.major < 0 || kv.minor < 0 || kv.patch < 0)
			abort();
		snprintf(again, sizeof(again), "%d.%d.%d", kv.major, kv.minor, kv.patch);
		if (wq_kver_parse(again, &kv2) != 0 || kv2.major != kv.major || kv2.minor != kv.minor ||
		    kv2.patch != kv.patch)
			abort();
		if (wq_kver_cmp(&kv, kv.major, kv.minor, kv.patch) != 0)
			abort();
		(void)wq_kver_era(&kv, -1, &why);
		(void)wq_kver_max_active(&kv, true, 16);
		(void)wq_kver_dfl_min_active(&kv);
	}
	free(s);
	return 0;
}
