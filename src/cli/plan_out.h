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

#define PLAN_LOCK_WAIT_MS 10000
/*
 * Write a plan as apply, set and knob do: take the lock (wait_ms at most),
 * re-read what the plan replaces, save the originals in the journal (the
 * first one is kept, so revert undoes every wqctl change), write, and on a
 * failed write restore both the system and the journal. Writes nothing and
 * takes no lock when every change is a no-op. taken: the lock, taken before
 * the plan was read (no re-read then; released here), or -1. An EXIT_* code.
 */
int plan_transact(struct cli *cli, struct wq_plan *plan, int wait_ms, int taken);
/* revert: restore every original in the journal where wqctl's value is still there. An EXIT_* code. */
int cli_revert(struct cli *cli);

/*
 * Warnings about what a valid write of attr does that a user may not
 * expect (KERNEL.md §11); -1 (after an error) for a write that needs --force.
 */
int cli_warn_effects(struct cli *cli, const struct wq_info *wi, int attr, const char *newv, bool force);

#endif
