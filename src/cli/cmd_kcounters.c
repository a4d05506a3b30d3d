// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hidden diagnostic: the kernel's own per-workqueue counters (obs/kcount.c)
 * in one read, as wq_monitor.py -i 0 shows them; or why they cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../lib/obs/kcount.h"
#include "../lib/util/macro.h"
#include "cli.h"

enum {
	COL_NAME,
	COL_STARTED,
	COL_COMPLETED,
	COL_CPU_TIME,
	COL_CPU_INTENSIVE,
	COL_CM_WAKEUP,
	COL_REPATRIATED,
	COL_MAYDAY,
	COL_RESCUED,
	COL_NR_ACTIVE,
	COL_IN_FLIGHT,
	COL_PWQS
};

static const struct colinfo cols[] = {
    [COL_NAME] = {"WORKQUEUE", 0.3, 0, SCOLS_JSON_STRING, "workqueue name as the kernel keeps it"},
    [COL_STARTED] = {"STARTED", 8, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "work items started (PWQ_STAT_STARTED)"},
    [COL_COMPLETED] = {"COMPLETED", 8, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "work items completed"},
    [COL_CPU_TIME] = {"CPU_US", 8, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "CPU time in microseconds (tick-sampled)"},
    [COL_CPU_INTENSIVE] = {"CPU_INTENSIVE", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "items over cpu_intensive_thresh_us"},
    [COL_CM_WAKEUP] = {"CM_WAKEUP", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "concurrency-managed wake-ups"},
    [COL_REPATRIATED] = {"REPATRIATED", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			 "workers moved back into their pod (6.6+)"},
    [COL_MAYDAY] = {"MAYDAY", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "rescuer requests"},
    [COL_RESCUED] = {"RESCUED", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "items the rescuer ran"},
    [COL_NR_ACTIVE] = {"NR_ACTIVE", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "items counted against max_active now"},
    [COL_IN_FLIGHT] = {"IN_FLIGHT", 6, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "items queued and not yet finished"},
    [COL_PWQS] = {"PWQS", 4, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "pool_workqueues summed"},
};

static int run(struct cli *cli, int argc, char **argv)
{
	struct wq_kcount_row *rows = NULL;
	struct wq_kcount *k = NULL;
	struct out o;
	char why[300];
	size_t n = 0;
	int rc;

	(void)argv;
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (argc != 1) {
		cli_err(cli, "kcounters: takes no arguments");
		return EXIT_USAGE;
	}
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (wq_kcount_open(cli->ctx, &k, why, sizeof(why)) < 0 || wq_kcount_read(k, &rows, &n, why, sizeof(why)) < 0) {
		cli_err(cli, "kernel counters: %s", why);
		wq_kcount_free(k);
		return EXIT_FAIL;
	}
	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols),
		      "WORKQUEUE,STARTED,COMPLETED,CPU_US,CPU_INTENSIVE,CM_WAKEUP,REPATRIATED,MAYDAY,RESCUED,NR_ACTIVE,"
		      "IN_FLIGHT,PWQS",
		      NULL, "workqueues");
	for (size_t i = 0; rc == EXIT_OK && i < n; i++) {
		struct libscols_line *ln = out_line(&o);

		out_set(&o, ln, COL_NAME, rows[i].name);
		for (int s = 0; s < WQ_KS_NR; s++) {
			if (wq_kcount_has(k, (enum wq_kstat)s))
				out_setf(&o, ln, COL_STARTED + s, "%llu", (unsigned long long)rows[i].stat[s]);
			else
				out_set(&o, ln, COL_STARTED + s, NULL);
		}
		out_setn(&o, ln, COL_NR_ACTIVE, rows[i].nr_active);
		out_setn(&o, ln, COL_IN_FLIGHT, rows[i].nr_in_flight);
		out_setn(&o, ln, COL_PWQS, (long)rows[i].npwqs);
	}
	if (rc == EXIT_OK) {
		rc = out_print(&o);
		out_free(&o);
	}
	free(rows);
	wq_kcount_free(k);
	return rc;
}

const struct cmd cmd_kcounters = {
    .name = "kcounters",
    .run = run,
    .summary = "show the kernel's own per-workqueue counters (from /proc/kcore)",
    .usage = "",
    .options = NULL,
    .hidden = true,
};
