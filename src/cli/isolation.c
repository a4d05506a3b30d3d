// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check --isolation printed: the audit of src/lib/obs/audit.c (which work items
 * ran on the isolated CPUs over a window, whether each can be moved and
 * how, and the unbound kworkers allowed there) as a table, JSON, or lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/obs/audit.h"
#include "../lib/util/macro.h"
#include "cli.h"
#include "isolation.h"
#include "json.h"

enum {
	COL_WORKQUEUE,
	COL_FUNCTION,
	COL_KIND,
	COL_CPUS,
	COL_COUNT,
	COL_RUNTIME,
	COL_QUEUED_FROM,
	COL_VERDICT,
	COL_FIX,
};

static const struct colinfo cols[] = {
    [COL_WORKQUEUE] = {"WORKQUEUE", 0.15, 0, SCOLS_JSON_STRING,
		       "as the tracepoint names it; ? when queued before the window"},
    [COL_FUNCTION] = {"FUNCTION", 0.15, 0, SCOLS_JSON_STRING, "the work function (kernel symbol)"},
    [COL_KIND] = {"KIND", 0.05, 0, SCOLS_JSON_STRING, "unbound or per-cpu (the workqueue, else its worker)"},
    [COL_CPUS] = {"CPUS", 0.08, 0, SCOLS_JSON_STRING, "isolated CPUs it ran on"},
    [COL_COUNT] = {"COUNT", 0.05, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER, "times it ran there"},
    [COL_RUNTIME] = {"RUNTIME_MS", 0.06, SCOLS_FL_RIGHT, SCOLS_JSON_NUMBER,
		     "its run time there, milliseconds (execute_start to execute_end)"},
    [COL_QUEUED_FROM] = {"QUEUED_FROM", 0.08, 0, SCOLS_JSON_STRING, "CPUs queue_work() was called on"},
    [COL_VERDICT] = {"VERDICT", 0.08, 0, SCOLS_JSON_STRING,
		     "cpumask, root-cpumask (movable), stale-worker, per-cpu, application (not movable), unknown"},
    [COL_FIX] = {"FIX", 0.3, SCOLS_FL_WRAP, SCOLS_JSON_STRING, "what moves it, or why nothing can"},
};

#define DEFAULT_COLS "WORKQUEUE,FUNCTION,KIND,CPUS,COUNT,RUNTIME_MS,QUEUED_FROM,VERDICT,FIX"

/*
 * Armed once and kept to the end of the run, as its handlers were: a signal
 * after the session (while the rest is printed or written) is noted, not fatal.
 */
static struct wq_cancel cancel;

/* The audit as one -J document: the work that ran on the isolated CPUs and the kworkers allowed there. */
static int json_audit(const struct wq_audit *a)
{
	json_object *doc = json_object_new_object(), *w = json_object_new_array(), *k = json_object_new_array();
	char b[32];

	json_object_object_add(doc, "isolated", json_object_new_string(a->isolated));
	snprintf(b, sizeof(b), "%.1f", a->seconds);
	json_object_object_add(doc, "seconds", json_object_new_double_s(a->seconds, b));
	json_object_object_add(doc, "lost", json_object_new_int64((int64_t)a->lost));
	json_object_object_add(doc, "isolated_ok", json_object_new_boolean(a->n == 0));
	for (size_t i = 0; i < a->n; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "workqueue", json_object_new_string(a->rows[i].r->wq));
		json_object_object_add(x, "queues", json_object_new_int(a->rows[i].queues));
		json_object_object_add(x, "function", json_object_new_string(a->rows[i].func));
		json_object_object_add(x, "kind", json_object_new_string(a->rows[i].kind));
		json_object_object_add(x, "cpus", json_object_new_string(a->rows[i].cpus));
		json_object_object_add(x, "count", json_object_new_int64((int64_t)a->rows[i].r->count));
		snprintf(b, sizeof(b), "%.3f", (double)a->rows[i].r->run_ns / 1e6);
		json_object_object_add(x, "runtime_ms",
				       json_object_new_double_s((double)a->rows[i].r->run_ns / 1e6, b));
		json_object_object_add(x, "queued_from", json_object_new_string(a->rows[i].from));
		json_object_object_add(x, "queued_here", json_object_new_int64((int64_t)a->rows[i].r->from_here));
		json_object_object_add(x, "movable", json_object_new_boolean(a->rows[i].movable));
		json_object_object_add(x, "verdict", json_object_new_string(wq_audit_verdict_name(a->rows[i].v)));
		json_object_object_add(x, "fix", json_object_new_string(a->rows[i].fix));
		json_object_array_add(w, x);
	}
	for (size_t i = 0; i < a->nkw; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "pid", json_object_new_int(a->kw[i].pid));
		json_object_object_add(x, "comm", json_object_new_string(a->kw[i].comm));
		json_object_object_add(x, "cpus_allowed", json_object_new_string(a->kw[i].allowed));
		json_object_object_add(x, "isolated", json_object_new_string(a->kw[i].iso ? a->kw[i].iso : ""));
		json_object_array_add(k, x);
	}
	json_object_object_add(doc, "work", w);
	json_object_object_add(doc, "kworkers", k);
	return json_print(doc);
}

/* The audit as a table, then the kworkers and the one-line answer (not with -r or -P). */
static int table_audit(struct cli *cli, const struct wq_audit *a)
{
	struct out o;
	int rc;

	rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), DEFAULT_COLS, NULL, "work");
	if (rc)
		return rc;
	for (size_t i = 0; i < a->n; i++) {
		struct libscols_line *ln = out_line(&o);

		out_set(&o, ln, COL_WORKQUEUE, a->rows[i].r->wq);
		out_set(&o, ln, COL_FUNCTION, a->rows[i].func);
		out_set(&o, ln, COL_KIND, a->rows[i].kind);
		out_set(&o, ln, COL_CPUS, a->rows[i].cpus);
		out_setf(&o, ln, COL_COUNT, "%lu", a->rows[i].r->count);
		out_setf(&o, ln, COL_RUNTIME, "%.3f", (double)a->rows[i].r->run_ns / 1e6);
		out_set(&o, ln, COL_QUEUED_FROM, a->rows[i].from);
		out_set(&o, ln, COL_VERDICT, wq_audit_verdict_name(a->rows[i].v));
		out_set(&o, ln, COL_FIX, a->rows[i].fix);
	}
	if (a->n)
		rc = out_print(&o);
	out_free(&o);
	if (!cli->raw && !cli->pairs) {
		for (size_t i = 0; i < a->nkw; i++)
			printf("unbound worker %s (pid %d) may run on isolated CPUs %s (allowed %s)\n", a->kw[i].comm,
			       a->kw[i].pid, a->kw[i].iso ? a->kw[i].iso : "?", a->kw[i].allowed);
		if (a->n)
			printf("isolation: no: %zu work function%s ran %lu time%s on isolated CPUs %s in %.1f s; "
			       "%zu movable, %zu not\n",
			       a->n, a->n == 1 ? "" : "s", a->total, a->total == 1 ? "" : "s", a->isolated, a->seconds,
			       a->movable, a->n - a->movable);
		else
			printf("isolation: yes: no workqueue work ran on isolated CPUs %s in %.1f s\n", a->isolated,
			       a->seconds);
	}
	return rc;
}

int cli_isolation_audit(struct cli *cli, double seconds, const char *cpus)
{
	_cleanup_cpuset_ struct wq_cpuset *iso = wq_cpuset_new();
	struct wq_audit a = {0};
	const struct wq_audit_row *jv;
	struct out o;
	char why[300];
	unsigned int shared_said = 0;
	int rc, r;

	if (cli->list_columns)
		return out_list_columns(cli, cols, ARRAY_SIZE(cols));
	if (!cli->json) {
		rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), DEFAULT_COLS, NULL, "work");
		if (rc)
			return rc;
		out_free(&o);
	}
	if (!iso || !cli_ctx(cli))
		return EXIT_FAIL;
	r = wq_audit_cpus(cli->ctx, cpus, iso, why, sizeof(why));
	if (r < 0) {
		if (r != -EIO)
			cli_err(cli, "check: --cpus '%s': %s", cpus, why);
		return r == -EIO ? EXIT_FAIL : EXIT_USAGE;
	}
	if (wq_cpuset_is_empty(iso)) {
		cli_notice(cli, "check --isolation: no isolated or nohz_full CPUs here (isolcpus=, nohz_full=); "
				"--cpus LIST audits chosen CPUs");
		return EXIT_OK;
	}
	wq_cancel_arm(&cancel); /* SIGHUP too: a closed terminal; the trace instance is removed */
	r = wq_audit_open(cli->ctx, iso, &a, why, sizeof(why));
	if (r < 0) {
		cli_err(cli, "check --isolation: %s", why);
		wq_audit_free(&a);
		return r == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
	}
	if (!cli->quiet)
		fprintf(stderr, "wqctl: check --isolation: sampling %.1f s on isolated CPUs %s\n", seconds, a.isolated);
	if (wq_audit_sample(&a, seconds, &cancel) < 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	jv = a.rows;
	for (size_t i = 0; i < a.n; i++)
		cli_note_shared_name(cli, jv[i].r->wq, &shared_said);

	rc = cli->json ? json_audit(&a) : table_audit(cli, &a);
	if (rc == EXIT_OK && a.n)
		rc = EXIT_FINDINGS;
out:
	wq_audit_free(&a);
	return rc;
}
