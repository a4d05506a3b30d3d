/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check --isolation (src/cli/cmd_isolation.c). */
#ifndef WQCTL_ISOLATION_H
#define WQCTL_ISOLATION_H

#include "cli.h"

/*
 * Sample the workqueue tracepoints for seconds and report the work that ran
 * on the isolated CPUs (cpus: a CPU list to audit instead of the kernel's
 * isolated and nohz_full CPUs). EXIT_FINDINGS when any ran there.
 */
int cli_isolation_audit(struct cli *cli, double seconds, const char *cpus);

#endif
