/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing a plan (--dry-run) and reporting a failed apply; shared by set, knob and apply. */
#ifndef WQCTL_PLAN_OUT_H
#define WQCTL_PLAN_OUT_H

#include "../lib/plan.h"
#include "cli.h"

int plan_print(struct cli *cli, const struct wq_plan *plan);
int plan_list_columns(struct cli *cli);
/* "OBJECT: write failed: REASON" plus what was rolled back. */
void plan_report_failure(struct cli *cli, const struct wq_plan *plan, size_t failed);
/* The reason a person needs for a failed sysfs write. */
const char *plan_write_reason(int err);

#endif
