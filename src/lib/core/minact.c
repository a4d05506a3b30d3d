// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The warnings a max_active write needs (kernel >= 6.9: it lowers the
 * hidden min_active, recorded by state.c; <= 6.8: it may end ordering).
 */
#define _GNU_SOURCE
#include "minact.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/macro.h"

/*
 * Warnings about what a valid write does that a user may not expect
 * (doc/kernel.md §11); -EPERM (after an error) for a write that
 * needs force.
 */
int wq_minact_check_write(struct wq_ctx *ctx, const struct wq_info *wi, int attr, const char *newv, bool force,
			  char *why, size_t whysz)
{
	const char *era_why;
	enum wq_era era = wq_ctx_era(ctx, &era_why);
	int v = atoi(newv), m = wq_kver_dfl_min_active(&ctx->kver), low;

	if (attr != WQ_A_MAX_ACTIVE || !wi->unbound)
		return 0;
	/* min_active = min(8, max_active at creation, every smaller max_active written) (doc/kernel.md §4.5) */
	if (m > wi->max_active)
		m = wi->max_active;
	low = wq_minact_get(ctx, wi->name);
	if (low > 0 && low < m)
		m = low;
	if (era == WQ_ERA_C && v < m) {
		if (!force) {
			snprintf(why, whysz,
				 "writing %d lowers the hidden min_active from %d to %d until the workqueue is "
				 "recreated (kernel >= 6.9); add --force to write it",
				 v, m, v);
			return -EPERM;
		}
		wq_log(ctx, WQ_LOG_WARNING,
		       "%s/max_active: min_active goes from %d to %d until the workqueue is recreated", wi->name, m, v);
	}
	if ((era == WQ_ERA_A || era == WQ_ERA_B) && wq_is_implicitly_ordered(wi) && v != 1)
		wq_log(ctx, WQ_LOG_WARNING,
		       "%s/max_active: this workqueue may be implicitly ordered; on kernels up to 6.8 the "
		       "write removes its ordering",
		       wi->name);
	return 0;
}
