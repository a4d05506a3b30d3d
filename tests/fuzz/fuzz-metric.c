// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Metric extraction from a workload's output: the first line of the input is
 * the --metric spec (wall, fio:FIELD, re:REGEX, json:PATH, auto), the rest
 * the workload's standard output. Oracle: an accepted spec keeps its text;
 * an extracted value is finite; fio's per-job figures come only with a
 * value or for the wall metric.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>

#include "fuzz.h"
#include "util/jsonc.h"
#include "obs/metric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t speclen = nl ? (size_t)(nl - data) : size;
	char *spec = fuzz_str(data, speclen), *out, why[512] = "";
	size_t outlen = nl ? size - speclen - 1 : 0;
	struct metric m = {0};
	json_object *fio = NULL;
	double v = -1;

	out = malloc(outlen + 1);
	if (!out)
		abort();
	memcpy(out, nl ? nl + 1 : data, outlen);
	out[outlen] = '\0';
	if (metric_parse(&m, spec, why, sizeof(why)) == 0) {
		if (!m.spec[0])
			abort();
		/* twice: an auto metric is settled by the first output, then reused */
		for (int i = 0; i < 2; i++) {
			fio = NULL;
			if (metric_extract(&m, out, strlen(out), 1.5, &v, &fio, why, sizeof(why)) == 0 && !isfinite(v))
				abort();
			if (fio)
				json_object_put(fio);
		}
		metric_free(&m);
	}
	free(spec);
	free(out);
	return 0;
}
