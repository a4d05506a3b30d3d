// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Value parsing for every value type and the CPU-set syntax, against a 16-CPU
 * sysroot. Oracle: an accepted CPU set is non-empty and within the possible
 * CPUs, and what is to be written for a cpumask reads back as the same set.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "core/cpuset.h"
#include "fuzz.h"
#include "core/wq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct wq_ctx *ctx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum wq_vtype types[] = {WQ_V_INT, WQ_V_BOOL, WQ_V_YN, WQ_V_SCOPE, WQ_V_CPUMASK, WQ_V_STRING};
	struct wq_cpuset *set, *back;
	char *s, *out = NULL, why[512];
	enum wq_vtype type;

	if (!ctx && !(ctx = fuzz_ctx(fuzz_tree())))
		abort();
	if (size < 1)
		return 0;
	type = types[data[0] % 6];
	s = fuzz_str(data + 1, size - 1);
	set = wq_cpuset_new();
	back = wq_cpuset_new();
	if (wq_value_parse(ctx, type, -20, 19, data[0] & 0x80 ? 1 : -1, data[0] & 0x40, s, &out, why, sizeof(why)) ==
	    0) {
		if (!out)
			abort();
		if (type == WQ_V_CPUMASK && strcmp(out, "default") && wq_cpuset_parse_hex(back, out) != 0)
			abort();
		free(out);
	}
	if (wq_cpuspec_parse(ctx, s, data[0] & 0x80 ? 1 : -1, set, why, sizeof(why)) == 0) {
		if (wq_cpuset_is_empty(set) || !wq_cpuset_subset(set, wq_ctx_topo(ctx)->possible))
			abort();
	}
	wq_cpuset_free(set);
	wq_cpuset_free(back);
	free(s);
	return 0;
}
