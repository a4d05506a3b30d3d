/* SPDX-License-Identifier: GPL-2.0-or-later */
/* experiment --list (src/cli/exp_saved.c). */
#ifndef WQCTL_EXP_SAVED_H
#define WQCTL_EXP_SAVED_H

#include "cli.h"

/* The saved experiments as a table (-J, -o too). An EXIT_* code. */
int exp_list_saved(struct cli *cli);

#endif
