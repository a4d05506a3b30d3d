/* SPDX-License-Identifier: GPL-2.0-or-later */
/* experiment --plot: the box plot gnuplot draws of an experiment's runs (src/cli/exp_plot.c). */
#ifndef WQCTL_EXP_PLOT_H
#define WQCTL_EXP_PLOT_H

#include "../lib/obs/experiment.h"
#include "cli.h"

/* Before the first run: gnuplot is there and path can be written. An EXIT_* code (after the error). */
int exp_plot_check(struct cli *cli, const char *path);
/* Draw e's cells into path. An EXIT_* code (after the error). */
int exp_plot(struct cli *cli, const struct wq_exp *e, const char *path);

#endif
