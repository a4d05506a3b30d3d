/* SPDX-License-Identifier: GPL-2.0-or-later */
/* experiment's grid from --set and --profile (src/cli/exp_grid.c). */
#ifndef WQCTL_EXP_GRID_H
#define WQCTL_EXP_GRID_H

#include <stddef.h>

#include "../lib/obs/experiment.h"
#include "cli.h"

/* Append a copy of s to *v, NULL-terminated, of *n strings. 0 or -ENOMEM. */
int exp_strv_push(char ***v, size_t *n, const char *s);
/* --set 'WQ ATTR=V1,V2,...' or 'MOUNTPOINT thread_pool=V1,...' as one axis of e. An EXIT_* code (after the error). */
int exp_axis_from_set(struct cli *cli, struct wq_exp *e, const char *spec);
/* --profile a,b,none as one axis of whole profiles ("none": only what was there before). An EXIT_* code. */
int exp_axis_from_profiles(struct cli *cli, struct wq_exp *e, const char *list);

#endif
