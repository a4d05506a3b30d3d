// SPDX-License-Identifier: GPL-2.0-or-later
/* What a value's path names: the one place that tells a mount option, a knob, a parameter and an attribute apart. */
#define _GNU_SOURCE
#include "target.h"

#include <string.h>

#include "../util/macro.h"
#include "knob.h"
#include "mountopt.h"
#include "root.h"

enum wq_target wq_target_of(const char *path)
{
	static const char wqdir[] = WQ_P_WQ "/", params[] = WQ_P_PARAMS "/";

	if (wq_mountopt_is(path))
		return WQ_T_MOUNT;
	for (unsigned int i = 0; i < wq_knob_ndescs; i++)
		if (wq_knob_descs[i].path && streq(path, wq_knob_descs[i].path))
			return WQ_T_KNOB;
	if (!strncmp(path, params, sizeof(params) - 1))
		return WQ_T_PARAM;
	if (!strncmp(path, wqdir, sizeof(wqdir) - 1))
		return WQ_T_ATTR;
	return WQ_T_OTHER;
}
