// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wqctl monitor printed: live per-workqueue activity of every workqueue
 * (not only the sysfs ones) as lib/sampler.c measures it, one table or JSON
 * line per interval and a summary of the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/util/macro.h"
#include "../lib/obs/sampler.h"
#include "../lib/obs/trace.h"
#include "cli.h"
#include "json.h"

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
	COL_MAX_ACTIVE,
	COL_LIMIT,
	COL_CPU_MS,
	COL_CPU_INTENSIVE,
	COL_CM_WAKEUP,
	COL_REPATRIATED,
	COL_MAYDAY,
	COL_RESCUED,
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
    [COL_MAX_ACTIVE] = {"MAX_ACTIVE", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			"the workqueue's max_active in sysfs (- outside sysfs)"},
    [COL_LIMIT] = {"LIMIT", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		   "most work items in flight its settings allow here (explain's max_inflight; - outside sysfs)"},
    [COL_CPU_MS] = {"CPU_MS", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		    "CPU time its work took in the interval, ms, sampled at the tick (--backend counters)"},
    [COL_CPU_INTENSIVE] = {"CPU_INTENSIVE", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			   "items that ran past cpu_intensive_thresh_us (per-cpu workqueues; --backend counters)"},
    [COL_CM_WAKEUP] = {"CM_WAKEUP", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		       "concurrency-managed wake-ups (per-cpu workqueues; --backend counters)"},
    [COL_REPATRIATED] = {"REPATRIATED", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
			 "workers moved back into their pod (unbound, 6.6+; --backend counters)"},
    [COL_MAYDAY] = {"MAYDAY", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		    "rescuer requests (WQ_MEM_RECLAIM workqueues; --backend counters)"},
    [COL_RESCUED] = {"RESCUED", 0.08, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		     "items the rescuer ran (WQ_MEM_RECLAIM workqueues; --backend counters)"},
};

/* The kernel's own counters a column shows, in the sampler's terms. */
static bool counter_col(int id, enum wq_kstat *s)
{
	static const int map[][2] = {{COL_CPU_MS, WQ_KS_CPU_TIME},     {COL_CPU_INTENSIVE, WQ_KS_CPU_INTENSIVE},
				     {COL_CM_WAKEUP, WQ_KS_CM_WAKEUP}, {COL_REPATRIATED, WQ_KS_REPATRIATED},
				     {COL_MAYDAY, WQ_KS_MAYDAY},       {COL_RESCUED, WQ_KS_RESCUED}};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (map[i][0] == id) {
			*s = (enum wq_kstat)map[i][1];
			return true;
		}
	return false;
}

/* A counter's value in the interval's row. */
static uint64_t counter_of(const struct wq_mon_row *r, enum wq_kstat s)
{
	switch (s) {
	case WQ_KS_CPU_TIME: return r->cpu_us;
	case WQ_KS_CPU_INTENSIVE: return r->cpu_intensive;
	case WQ_KS_CM_WAKEUP: return r->cm_wakeup;
	case WQ_KS_REPATRIATED: return r->repatriated;
	case WQ_KS_MAYDAY: return r->mayday;
	case WQ_KS_RESCUED: return r->rescued;
	default: return 0;
	}
}

#define DEFAULT_COLS "NAME,QUEUED/S,STARTED/S,PENDING,INFLIGHT,LIMIT,WAIT_P50,WAIT_P99,RUN_P50,RUN_P99"
/* --backend counters: what the kernel counts, no times */
#define COUNTER_COLS "NAME,QUEUED/S,STARTED/S,PENDING,INFLIGHT,LIMIT,CPU_MS"
#define MAX_INTERVAL 3600.0

static void set_us(struct out *o, struct libscols_line *ln, int id, int64_t ns)
{
	if (ns < 0)
		out_set(o, ln, id, NULL);
	else
		out_setf(o, ln, id, "%.1f", (double)ns / 1000.0);
}

/* Microseconds to the nanosecond in JSON (a log2 bucket of ns, 2^K, is exact there); the table rounds to 0.1. */
static json_object *json_us(int64_t ns)
{
	char b[32];

	if (ns < 0)
		return NULL;
	snprintf(b, sizeof(b), "%.3f", (double)ns / 1000.0);
	return json_object_new_double_s((double)ns / 1000.0, b);
}

static json_object *json_fix(double v, int decimals)
{
	char b[48];

	snprintf(b, sizeof(b), "%.*f", decimals, v);
	return json_object_new_double_s(v, b);
}

/* One row as an object keyed by the selected columns (lower case, as libsmartcols -J names them). */
static json_object *json_row(struct cli *cli, const struct out *o, struct wq_sampler *sm, const struct wq_mon_row *r,
			     const struct wq_sample *rep)
{
	const struct wq_sampler_limit *l = wq_sampler_limit(sm, r->name);
	bool kernel = rep->kernel;
	enum wq_kstat ks;
	json_object *row = json_object_new_object();
	const char *which;

	for (size_t c = 0; c < o->nmap; c++) {
		int id = o->map[c];
		char key[32];
		json_object *v = NULL;

		snprintf(key, sizeof(key), "%s", cols[id].name);
		for (char *p = key; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
		switch (id) {
		case COL_NAME: v = json_object_new_string(r->name); break;
		case COL_QUEUED_PS: v = json_fix(r->queued_ps, 1); break;
		case COL_STARTED_PS: v = json_fix(r->started_ps, 1); break;
		case COL_PENDING: v = json_object_new_int64(r->pending); break;
		case COL_INFLIGHT: v = json_object_new_int64(r->inflight); break;
		case COL_WAIT_P50: v = json_us(r->wait_p50); break;
		case COL_WAIT_P99: v = json_us(r->wait_p99); break;
		case COL_RUN_P50: v = json_us(r->run_p50); break;
		case COL_RUN_P99: v = json_us(r->run_p99); break;
		case COL_QUEUED: v = json_object_new_int64((int64_t)r->queued); break;
		case COL_STARTED: v = json_object_new_int64((int64_t)r->started); break;
		case COL_DONE: v = json_object_new_int64((int64_t)r->done); break;
		case COL_THROTTLED: v = kernel ? NULL : json_object_new_int64((int64_t)r->throttled); break;
		case COL_MAX_ACTIVE: v = l && l->max_active >= 0 ? json_object_new_int(l->max_active) : NULL; break;
		case COL_LIMIT: v = l && l->limit >= 0 ? json_object_new_int64(l->limit) : NULL; break;
		default:
			if (counter_col(id, &ks) && rep->counters && wq_sampler_counter(sm, ks))
				v = ks == WQ_KS_CPU_TIME ? json_fix((double)r->cpu_us / 1000.0, 1)
							 : json_object_new_int64((int64_t)counter_of(r, ks));
			break;
		}
		json_object_object_add(row, key, v);
	}
	/* 2 where the tracepoints merge two workqueues of this name (events, events_unbound on 6.17+) */
	json_object_object_add(
	    row, "queues", json_object_new_int(cli->ctx ? wq_kver_name_sharers(&cli->ctx->kver, r->name, &which) : 1));
	/* the kernel's counts: true where a function queued on several workqueues was shared out */
	if (kernel)
		json_object_object_add(row, "shared", json_object_new_boolean(r->shared));
	return row;
}

/* One workqueue's line of the table (kernel: the kernel's hists counted it, which see no throttling). -1 on ENOMEM. */
static int set_row(struct out *o, struct wq_sampler *sm, const struct wq_mon_row *r, const struct wq_sample *rep)
{
	const struct wq_sampler_limit *l;
	bool kernel = rep->kernel;
	struct libscols_line *ln = out_line(o);

	if (!ln)
		return -1;
	out_set(o, ln, COL_NAME, r->name);
	out_setf(o, ln, COL_QUEUED_PS, "%.1f", r->queued_ps);
	out_setf(o, ln, COL_STARTED_PS, "%.1f", r->started_ps);
	out_setn(o, ln, COL_PENDING, r->pending);
	out_setn(o, ln, COL_INFLIGHT, r->inflight);
	set_us(o, ln, COL_WAIT_P50, r->wait_p50);
	set_us(o, ln, COL_WAIT_P99, r->wait_p99);
	set_us(o, ln, COL_RUN_P50, r->run_p50);
	set_us(o, ln, COL_RUN_P99, r->run_p99);
	out_setf(o, ln, COL_QUEUED, "%lu", r->queued);
	out_setf(o, ln, COL_STARTED, "%lu", r->started);
	out_setf(o, ln, COL_DONE, "%lu", r->done);
	if (kernel)
		out_set(o, ln, COL_THROTTLED, NULL); /* not measured by the kernel's hists */
	else
		out_setf(o, ln, COL_THROTTLED, "%lu", r->throttled);
	if ((out_has(o, COL_MAX_ACTIVE) || out_has(o, COL_LIMIT)) && (l = wq_sampler_limit(sm, r->name))) {
		if (l->max_active >= 0)
			out_setn(o, ln, COL_MAX_ACTIVE, l->max_active);
		else
			out_set(o, ln, COL_MAX_ACTIVE, NULL);
		if (l->limit >= 0)
			out_setn(o, ln, COL_LIMIT, l->limit);
		else
			out_set(o, ln, COL_LIMIT, NULL);
	} else {
		out_set(o, ln, COL_MAX_ACTIVE, NULL);
		out_set(o, ln, COL_LIMIT, NULL);
	}
	for (int id = COL_CPU_MS; id <= COL_RESCUED; id++) {
		enum wq_kstat ks;

		if (!counter_col(id, &ks) || !rep->counters || !wq_sampler_counter(sm, ks))
			out_set(o, ln, id, NULL);
		else if (ks == WQ_KS_CPU_TIME)
			out_setf(o, ln, id, "%.1f", (double)r->cpu_us / 1000.0);
		else
			out_setf(o, ln, id, "%llu", (unsigned long long)counter_of(r, ks));
	}
	return 0;
}

/*
 * One interval: a JSON line always (an idle interval has an empty list), a
 * table only when it has rows, separated from the previous one by a blank
 * line. The summary: a last JSON line, or a titled table (not in -r/-P,
 * whose readers take every row for an interval).
 */
static int print_rows(struct cli *cli, struct wq_sampler *sm, const struct wq_sample *rep, bool summary,
		      unsigned long *tables)
{
	const struct wq_mon_row *rows = rep->rows;
	size_t n = rep->n;
	bool table = !cli->json && !cli->pairs && !cli->raw;
	size_t shown = 0;
	struct out o;
	int rc;

	static unsigned int shared_said;

	for (size_t i = 0; i < n; i++) {
		if (!wq_sampler_wanted(sm, rows[i].name))
			continue;
		shown++;
		cli_note_shared_name(cli, rows[i].name, &shared_said);
	}
	if (summary && !cli->json && !table)
		return EXIT_OK;
	if (shown == 0 && !cli->json)
		return EXIT_OK;
	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), DEFAULT_COLS, "WQCTL_MONITOR_COLUMNS", "workqueues");
	/* the run's totals beside its rates and percentiles */
	for (int id = COL_QUEUED; rc == 0 && summary && id <= COL_THROTTLED; id++)
		rc = out_add_column(&o, id);
	if (rc) {
		out_free(&o);
		return rc;
	}
	if (cli->json) {
		/* JSON Lines: one object per interval, keys that never change */
		json_object *doc = json_object_new_object(), *list = json_object_new_array();

		if (summary)
			json_object_object_add(doc, "summary", json_object_new_boolean(1));
		json_object_object_add(doc, "timestamp", json_fix(rep->timestamp, 3));
		json_object_object_add(doc, "seconds", json_fix(rep->seconds, 3));
		if (summary)
			json_object_object_add(doc, "intervals", json_object_new_int64(rep->intervals));
		json_object_object_add(doc, "lost", json_object_new_int64((int64_t)rep->lost));
		for (size_t i = 0; i < n; i++)
			if (wq_sampler_wanted(sm, rows[i].name))
				json_object_array_add(list, json_row(cli, &o, sm, &rows[i], rep));
		json_object_object_add(doc, "workqueues", list);
		{
			const char *txt = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
										  JSON_C_TO_STRING_NOSLASHESCAPE);

			rc = txt && puts(txt) >= 0 ? EXIT_OK : EXIT_FAIL;
		}
		json_object_put(doc);
		out_free(&o);
		fflush(stdout);
		return rc;
	}
	if (table && (*tables)++ > 0)
		putchar('\n');
	if (summary)
		printf("summary: %ld interval%s, %.1f s, %llu events lost\n", rep->intervals,
		       rep->intervals == 1 ? "" : "s", rep->seconds, rep->lost);
	for (size_t i = 0; i < n; i++) {
		if (!wq_sampler_wanted(sm, rows[i].name))
			continue;
		if (set_row(&o, sm, &rows[i], rep) < 0) {
			out_free(&o);
			return EXIT_FAIL;
		}
	}
	rc = out_print(&o);
	out_free(&o);
	fflush(stdout);
	return rc;
}

#define MAX_BUFFER_KB (1024 * 1024)

static int parse_args(struct cli *cli, int argc, char **argv, double *interval, long *count, unsigned int *buffer_kb,
		      enum wq_sampler_backend *backend, bool *chosen)
{
	enum { OPT_BACKEND = 256 };
	static const struct option opts[] = {
	    {"interval", required_argument, NULL, 'i'},
	    {"count", required_argument, NULL, 'c'},
	    {"buffer-size", required_argument, NULL, 'b'},
	    {"backend", required_argument, NULL, OPT_BACKEND},
	    {NULL, 0, NULL, 0},
	};
	int c;

	while ((c = getopt_long(argc, argv, "i:c:b:", opts, NULL)) != -1) {
		char *end = NULL;
		long kb;

		switch (c) {
		case OPT_BACKEND:
			*chosen = !streq(optarg, "auto");
			if (streq(optarg, "kernel"))
				*backend = WQ_SAMPLER_KERNEL;
			else if (streq(optarg, "stream"))
				*backend = WQ_SAMPLER_STREAM;
			else if (streq(optarg, "counters"))
				*backend = WQ_SAMPLER_COUNTERS;
			else if (streq(optarg, "bpf"))
				*backend = WQ_SAMPLER_BPF;
			else if (*chosen) {
				cli_err(cli, "monitor: --backend '%s': expected auto, bpf, counters, kernel or stream",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'b':
			errno = 0;
			kb = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || kb < 4 || kb > MAX_BUFFER_KB) {
				cli_err(cli, "monitor: --buffer-size '%s': expected KiB per CPU from 4 to %d", optarg,
					MAX_BUFFER_KB);
				return EXIT_USAGE;
			}
			*buffer_kb = (unsigned int)kb;
			break;
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

/*
 * Armed once and kept to the end of the run, as its handlers were: a signal
 * after the session (while the rest is printed or written) is noted, not fatal.
 */
static struct wq_cancel cancel;

/*
 * The kernel's own counters have no wait or run times and no held-back
 * count, and only they have CPU time and the rest: the columns asked for
 * and --backend must agree. Their columns alone choose the counters when
 * no backend is named. EXIT_OK or EXIT_USAGE (said).
 */
static int counters_fit(struct cli *cli, bool chosen, enum wq_sampler_backend *backend, bool counters, bool needs_times,
			bool throttled)
{
	if (counters && chosen && *backend != WQ_SAMPLER_COUNTERS) {
		cli_err(cli, "monitor: CPU_MS, CPU_INTENSIVE, CM_WAKEUP, REPATRIATED, MAYDAY and RESCUED are the "
			     "kernel's own counters: --backend counters (or auto)");
		return EXIT_USAGE;
	}
	if (counters)
		*backend = WQ_SAMPLER_COUNTERS;
	if (*backend == WQ_SAMPLER_COUNTERS && (needs_times || throttled)) {
		cli_err(cli,
			"monitor: the kernel's counters have no %s: leave those columns out (-o), or --backend "
			"bpf, kernel or stream",
			needs_times ? "wait or run times (WAIT_P50, WAIT_P99, RUN_P50, RUN_P99)"
				    : "held-back count (THROTTLED)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int run(struct cli *cli, int argc, char **argv)
{
	struct wq_sampler *sm = NULL;
	struct wq_sample rep;
	struct out o;
	double interval = 1.0;
	unsigned long tables = 0;
	unsigned int buffer_kb = WQ_TRACE_BUFFER_KB;
	long count = -1;
	enum wq_sampler_backend backend = WQ_SAMPLER_STREAM;
	bool chosen = false, needs_times, throttled, counters = false;
	char why[300];
	int rc, r;

	rc = parse_args(cli, argc, argv, &interval, &count, &buffer_kb, &backend, &chosen);
	if (rc)
		return rc;
	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	/* Columns are checked before tracing starts. */
	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols),
		      chosen && backend == WQ_SAMPLER_COUNTERS ? COUNTER_COLS : DEFAULT_COLS, "WQCTL_MONITOR_COLUMNS",
		      "workqueues");
	if (rc)
		return rc;
	needs_times = out_has(&o, COL_WAIT_P50) || out_has(&o, COL_WAIT_P99) || out_has(&o, COL_RUN_P50) ||
		      out_has(&o, COL_RUN_P99);
	throttled = out_has(&o, COL_THROTTLED);
	for (int id = COL_CPU_MS; id <= COL_RESCUED; id++)
		counters |= out_has(&o, id);
	out_free(&o);
	if ((rc = counters_fit(cli, chosen, &backend, counters, needs_times, throttled)))
		return rc;
	if (!cli_ctx(cli))
		return EXIT_FAIL;
	if (!chosen && !counters)
		backend = wq_sampler_auto(cli->ctx, needs_times, throttled);
	else if (backend == WQ_SAMPLER_KERNEL)
		backend = wq_sampler_kernel(cli->ctx, needs_times); /* it times the items too where it can */
	/* Handlers first: a signal must not leave our tracing instance behind. */
	wq_cancel_arm(&cancel);
	r = wq_sampler_open(cli->ctx, &cancel, backend, buffer_kb, interval, argv + optind, (size_t)(argc - optind),
			    &sm, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "monitor: %s", why);
		if (backend == WQ_SAMPLER_COUNTERS)
			cli_err(cli, "monitor: --backend bpf, kernel or stream count through the tracepoints instead");
		else if (r == -ENOTSUP && backend != WQ_SAMPLER_STREAM)
			cli_err(cli,
				"monitor: --backend stream reads every event instead (--backend auto, the default, "
				"chooses it where the kernel cannot count)");
		return r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	for (long i = 0; count < 0 || i < count; i++) {
		/* the last interval of -c N takes the events held back for ordering too */
		r = wq_sampler_next(sm, count > 0 && i == count - 1, &rep);
		if (r <= 0) {
			rc = r < 0 ? EXIT_FAIL : EXIT_OK;
			break;
		}
		rc = print_rows(cli, sm, &rep, false, &tables);
		/* patterns that caught nothing in the first interval: say so once (a typo, or idle) */
		if (i == 0 && optind < argc) {
			bool any = false;

			for (size_t k = 0; k < rep.n && !any; k++)
				any = wq_sampler_wanted(sm, rep.rows[k].name);
			if (!any)
				cli_warn(
				    cli,
				    "monitor: no workqueue matching the patterns queued work in the first interval "
				    "(names as the tracepoints carry them; 'wqctl monitor' alone shows every one)");
		}
		if (rc)
			break;
	}
	/* the whole run, also after Ctrl-C: totals and percentiles over every interval */
	if (rc == EXIT_OK && wq_sampler_summary(sm, &rep) > 0)
		rc = print_rows(cli, sm, &rep, true, &tables);
	wq_sampler_free(sm);
	return rc;
}

const struct cmd cmd_monitor = {
    .name = "monitor",
    .run = run,
    .summary = "show live per-workqueue activity from the workqueue tracepoints",
    .usage = "[--interval SECONDS] [--count N] [--buffer-size KIB] [--backend auto|bpf|counters|kernel|stream] "
	     "[PATTERN...]",
    .options = "  -i, --interval SECONDS  length of one interval (default 1, from 0.1 to 3600)\n"
	       "  -c, --count N           stop after N intervals (default: until interrupted)\n"
	       "  -b, --buffer-size KIB   trace buffer per CPU (default 4096); more when events are lost\n"
	       "      --backend WHICH     kernel: counts kept by the kernel's hist triggers at any rate,\n"
	       "                          wait/run times too on 6.10+ with synthetic events (log2\n"
	       "                          buckets), no THROTTLED; stream: every event read here;\n"
	       "                          counters: the kernel's own per-workqueue counters (6.3+, from\n"
	       "                          /proc/kcore with BTF): no tracing at all, CPU_MS and the other\n"
	       "                          counter columns, no WAIT/RUN nor THROTTLED;\n"
	       "                          bpf: BPF programs of ours on the tracepoints (root, BTF), every\n"
	       "                          column but the counters', times in log2 buckets of ns;\n"
	       "                          auto (default): the cheapest that gives every column asked:\n"
	       "                          counters, then bpf, then kernel, then stream (-v says why)\n"
	       "  (-J prints one JSON object per line and interval, and a last one with \"summary\": true)\n",
};
