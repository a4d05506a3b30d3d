// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The saved-experiment reader (experiment --compare). Oracle: an accepted
 * file has a non-empty command of non-empty strings, runs and warm-up in
 * range, a set or a profile, and only finite metrics; a refused one says
 * why. Nothing may crash json-c or reach a NULL string.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "obs/expfile.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wq_saved_exp x;
	char why[256] = "";
	int r = wq_saved_exp_parse((const char *)data, size, &x, why, sizeof(why));

	if (r == -EINVAL && !why[0])
		abort();
	if (r == 0) {
		if (!x.cmd || x.ncmd < 1 || !x.cmd[0] || x.cmd[x.ncmd] || !x.metric || !x.sets)
			abort();
		for (size_t i = 0; i < x.ncmd; i++)
			if (!x.cmd[i][0])
				abort();
		if (x.runs < 1 || x.runs > WQ_EXP_MAX_RUNS || x.warmup < 0 || x.warmup > WQ_EXP_MAX_WARMUP)
			abort();
		if (!x.nsets && !x.profiles)
			abort();
		if (x.cwd && x.cwd[0] != '/')
			abort();
		for (size_t i = 0; i < x.nsettings; i++) {
			if (!x.settings[i].label)
				abort();
			for (size_t k = 0; k < x.settings[i].n; k++)
				if (!isfinite(x.settings[i].metric[k]))
					abort();
		}
		wq_saved_exp_free(&x);
	}
	return 0;
}
