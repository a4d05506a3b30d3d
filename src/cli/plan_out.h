/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing a plan (--dry-run), what a commit wrote and what a revert restored; shared by set, knob, apply, revert and profile off. */
#ifndef WQCTL_PLAN_OUT_H
#define WQCTL_PLAN_OUT_H

#include "../lib/core/commit.h"
#include "../lib/core/plan.h"
#include "cli.h"

int plan_print(struct cli *cli, const struct wq_plan *plan);
int plan_list_columns(struct cli *cli);
/* What the kernel will use of a change's new value (the EFFECTIVE column); malloc'ed. */
char *plan_effective(struct cli *cli, const struct wq_change *c);
#define PLAN_LOCK_WAIT_MS WQ_LOCK_WAIT_MS
/* "OBJECT: OLD -> NEW" for every value a committed plan wrote, or "nothing to change" (apply, set, knob). */
void plan_report_changes(const struct wq_plan *plan);
/* wq_plan_commit() as an exit code. */
int plan_transact(struct cli *cli, struct wq_plan *plan, int wait_ms, int taken);
/* revert: restore every original in the journal where wqctl's value is still there. An EXIT_* code. */
int cli_revert(struct cli *cli);

#endif
