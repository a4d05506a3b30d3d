// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Live per-workqueue activity from the workqueue tracepoints: every
 * workqueue (not only the sysfs ones), one table per interval.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/macro.h"
#include "../lib/monitor.h"
#include "../lib/trace.h"
#include "cli.h"

enum {
	COL_NAME,
	COL_QUEUED_PS,
	COL_STARTED_PS,
	COL_PENDING,
	COL_INFLIGHT,
	COL_WAIT_P50,
	COL_WAIT_P99,
	COL_RUN_P50,
	COL_RUN_P99,
	COL_QUEUED,
	COL_STARTED,
	COL_DONE,
	COL_THROTTLED,
};

static const struct colinfo cols[] = {
    [COL_NAME] = {"NAME", 0.2, 0, SCOLS_JSON_STRING, "workqueue name as the tracepoint carries it ('/' not '!')"},
    [COL_QUEUED_PS] = {"QUEUED/S", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "work items queued per second"},
    [COL_STARTED_PS] = {"STARTED/S", 0.1, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "work items started per second"},
    [COL_PENDING] = {"PENDING", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		     "queued but not yet active: held back by max_active"},
    [COL_INFLIGHT] = {"INFLIGHT", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "started and not yet finished"},
    [COL_WAIT_P50] = {"WAIT_P50", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "queue-to-start time, median, in microseconds"},
    [COL_WAIT_P99] = {"WAIT_P99", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		      "queue-to-start time, 99th percentile, in microseconds"},
    [COL_RUN_P50] = {"RUN_P50", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		     "run time (wall clock), median, in microseconds"},
    [COL_RUN_P99] = {"RUN_P99", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		     "run time (wall clock), 99th percentile, in microseconds"},
    [COL_QUEUED] = {"QUEUED", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "work items queued in the interval"},
    [COL_STARTED] = {"STARTED", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "work items started in the interval"},
    [COL_DONE] = {"DONE", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "work items finished in the interval"},
    [COL_THROTTLED] = {"THROTTLED", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		       "work items activated later than queued in the interval: held back by max_active"},
};

#define DEFAULT_COLS "NAME,QUEUED/S,STARTED/S,PENDING,INFLIGHT,WAIT_P50,WAIT_P99,RUN_P50,RUN_P99"
#define MAX_INTERVAL 3600.0

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* A name matches a pattern in its tracepoint form or its sysfs form ('/' -> '!'). */
static bool wanted(char **pats, size_t npats, const char *name)
{
	char sysfs[64];

	if (npats == 0)
		return true;
	snprintf(sysfs, sizeof(sysfs), "%s", name);
	for (char *p = sysfs; *p; p++)
		if (*p == '/')
			*p = '!';
	for (size_t i = 0; i < npats; i++)
		if (!fnmatch(pats[i], name, 0) || !fnmatch(pats[i], sysfs, 0))
			return true;
	return false;
}

static void set_us(struct out *o, struct libscols_line *ln, int id, int64_t ns)
{
	if (ns < 0)
		out_set(o, ln, id, NULL);
	else
		out_setf(o, ln, id, "%.1f", (double)ns / 1000.0);
}

/*
 * One interval: a JSON document always (an idle interval is an empty list);
 * a table only when it has rows, separated from the previous one by a blank line.
 */
static int print_interval(struct cli *cli, const struct wq_mon_row *rows, size_t n, char **pats, size_t npats,
			  unsigned long *tables)
{
	bool table = !cli->json && !cli->pairs && !cli->raw;
	size_t shown = 0;
	struct out o;
	int rc;

	for (size_t i = 0; i < n; i++)
		shown += wanted(pats, npats, rows[i].name);
	if (shown == 0 && !cli->json)
		return EXIT_OK;
	if (table && (*tables)++ > 0)
		putchar('\n');
	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), DEFAULT_COLS, "WQCTL_MONITOR_COLUMNS", "workqueues");
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		const struct wq_mon_row *r = &rows[i];
		struct libscols_line *ln;

		if (!wanted(pats, npats, r->name))
			continue;
		ln = out_line(&o);
		if (!ln) {
			out_free(&o);
			return EXIT_FAIL;
		}
		out_set(&o, ln, COL_NAME, r->name);
		out_setf(&o, ln, COL_QUEUED_PS, "%.1f", r->queued_ps);
		out_setf(&o, ln, COL_STARTED_PS, "%.1f", r->started_ps);
		out_setf(&o, ln, COL_PENDING, "%ld", r->pending);
		out_setf(&o, ln, COL_INFLIGHT, "%ld", r->inflight);
		set_us(&o, ln, COL_WAIT_P50, r->wait_p50);
		set_us(&o, ln, COL_WAIT_P99, r->wait_p99);
		set_us(&o, ln, COL_RUN_P50, r->run_p50);
		set_us(&o, ln, COL_RUN_P99, r->run_p99);
		out_setf(&o, ln, COL_QUEUED, "%lu", r->queued);
		out_setf(&o, ln, COL_STARTED, "%lu", r->started);
		out_setf(&o, ln, COL_DONE, "%lu", r->done);
		out_setf(&o, ln, COL_THROTTLED, "%lu", r->throttled);
	}
	rc = out_print(&o);
	out_free(&o);
	fflush(stdout);
	return rc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep until deadline or a signal. */
static void wait_until(double deadline)
{
	double left;

	while (!stop && (left = deadline - now_s()) > 0) {
		struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};

		nanosleep(&ts, NULL);
	}
}

static int parse_args(struct cli *cli, int argc, char **argv, double *interval, long *count)
{
	static const struct option opts[] = {
	    {"interval", required_argument, NULL, 'i'},
	    {"count", required_argument, NULL, 'c'},
	    {NULL, 0, NULL, 0},
	};
	int c;

	while ((c = getopt_long(argc, argv, "i:c:", opts, NULL)) != -1) {
		char *end = NULL;

		switch (c) {
		case 'i':
			errno = 0;
			*interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(*interval >= 0.1 && *interval <= MAX_INTERVAL)) {
				cli_err(cli, "monitor: --interval '%s': expected seconds from 0.1 to %.0f", optarg,
					MAX_INTERVAL);
				return EXIT_USAGE;
			}
			break;
		case 'c':
			errno = 0;
			*count = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || *count < 1) {
				cli_err(cli, "monitor: --count '%s': expected a positive number of intervals", optarg);
				return EXIT_USAGE;
			}
			break;
		default:
			cli_err(cli, "monitor: %s: unknown option or missing argument", argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int run(struct cli *cli, int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_signal};
	struct wq_trace *t = NULL;
	struct wq_mon *m = NULL;
	struct out o;
	double interval = 1.0, start;
	unsigned long tables = 0;
	long count = -1;
	char why[300];
	int rc, r;

	rc = parse_args(cli, argc, argv, &interval, &count);
	if (rc)
		return rc;
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	/* Columns are checked before tracing starts. */
	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), DEFAULT_COLS, "WQCTL_MONITOR_COLUMNS", "workqueues");
	if (rc)
		return rc;
	out_free(&o);
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	m = wq_mon_new();
	if (!m)
		return EXIT_FAIL;
	/* Handlers first: a signal must not leave our tracing instance behind. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	r = wq_trace_open(cli->ctx, &t, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "monitor: %s", why);
		wq_mon_free(m);
		return r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	start = now_s();
	for (long i = 0; !stop && (count < 0 || i < count); i++) {
		double began = start + (double)i * interval, took;
		unsigned long long lost = 0;
		const struct wq_mon_row *rows;
		size_t n;

		wait_until(began + interval);
		if (stop)
			break;
		took = now_s() - began;
		/* the last interval of -c N takes the events held back for ordering too */
		r = count > 0 && i == count - 1 ? wq_trace_flush(t, m) : wq_trace_read(t, m, &lost);
		if (r < 0 || wq_mon_interval(m, took, &rows, &n) < 0) {
			cli_err(cli, "monitor: instances/%s: cannot read events: %s", wq_trace_instance(t),
				wq_strerror(r < 0 ? -r : ENOMEM));
			rc = EXIT_FAIL;
			break;
		}
		if (lost)
			cli_warn(cli, "monitor: %llu events lost (trace buffer full); PENDING and INFLIGHT may be off",
				 lost);
		rc = print_interval(cli, rows, n, argv + optind, (size_t)(argc - optind), &tables);
		if (rc)
			break;
	}
	wq_trace_close(t);
	wq_mon_free(m);
	return rc;
}

const struct cmd cmd_monitor = {
    .name = "monitor",
    .run = run,
    .summary = "show live per-workqueue activity from the workqueue tracepoints",
    .usage = "[--interval SECONDS] [--count N] [PATTERN...]",
    .options = "  -i, --interval SECONDS  length of one interval (default 1, from 0.1 to 3600)\n"
	       "  -c, --count N           stop after N intervals (default: until interrupted)\n",
};
