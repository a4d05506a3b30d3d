// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-work hist counts joined into per-workqueue counts, on the hist files
 * Debian's 7.3 wrote in make bench-monitor (tests/fixtures/real/hist: the
 * first 12 and last 3 entries of each hist kept). The expected figures were
 * worked out by hand from those lines: each work pointer of queue_work's
 * lines looked up in the other three files (doc/kernel.md §8.1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/obs/kjoin.h"
#include "monrow.h"
#include "tap.h"

static const char *const files[WQ_KJ_NEV] = {"workqueue_queue_work.hist", "workqueue_activate_work.hist",
					     "workqueue_execute_start.hist", "workqueue_execute_end.hist"};

static char *slurp(const char *name)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "real/hist/debian-7.3/%s", name);
	return tap_fixture(rel);
}

int main(void)
{
	struct wq_hist h[WQ_KJ_NEV];
	const struct wq_hist_sec *sec[WQ_KJ_NEV];
	struct wq_kjoin *j = wq_kjoin_new();
	const struct wq_mon_row *rows, *r;
	unsigned long long dropped = 1;
	char why[200];
	size_t n = 0;
	int parsed = 1;

	for (int i = 0; i < WQ_KJ_NEV; i++) {
		char *t = slurp(files[i]);

		parsed = parsed && t && wq_hist_parse(t, &h[i], why, sizeof(why)) == 0;
		sec[i] = parsed ? wq_hist_section(&h[i], i == WQ_KJ_QUEUE ? "work,workqueue" : "work") : NULL;
		parsed = parsed && sec[i];
	}
	ok(parsed, "the four hist files of 7.3 parsed, each with its counting section");
	if (!parsed)
		return tap_done();

	ok(wq_kjoin_feed(j, sec, &dropped) == 0 && dropped == 0, "first read joined; nothing dropped");
	ok(wq_kjoin_rows(j, false, 2.0, &rows, &n) == 0 && n == 6, "six workqueues have rows");
	for (size_t i = 1; i < n; i++)
		ok(strcmp(rows[i - 1].name, rows[i].name) < 0, "rows sorted by name: %s < %s", rows[i - 1].name,
		   rows[i].name);
	r = row(rows, n, "wqflood");
	ok(COUNTS(r, 180, 180, 180, 0, 0), "wqflood: 3 works x 60 queued, started and done; none pending or running");
	ok(r && r->queued_ps == 90.0 && r->started_ps == 90.0, "wqflood: 180 over 2 s is 90/s");
	ok(r && r->wait_p50 == -1 && r->run_p99 == -1, "wait and run times are not measured (-1)");
	r = row(rows, n, "events");
	ok(COUNTS(r, 3, 3, 2, 0, 1), "events: 3 queued and started, 2 done (...538024 has no end line): 1 in flight");
	r = row(rows, n, "events_power_efficient");
	ok(COUNTS(r, 3, 3, 3, 1, 0), "events_power_efficient: ...492664 has no activate line: 1 pending");
	r = row(rows, n, "kvfree_rcu_reclaim");
	ok(COUNTS(r, 4, 4, 4, 0, 0), "kvfree_rcu_reclaim: 4 works, each through all four events");
	r = row(rows, n, "mm_percpu_wq");
	ok(COUNTS(r, 1, 0, 1, 0, 0), "mm_percpu_wq: an end without a start line is done, not -1 in flight");
	r = row(rows, n, "events_highpri");
	ok(COUNTS(r, 1, 1, 1, 0, 0), "events_highpri: 1 of each");
	{
		unsigned long long done = 0, lines = 0;

		for (size_t i = 0; i < n; i++)
			done += rows[i].done;
		for (size_t i = 0; i < sec[WQ_KJ_END]->n; i++)
			lines += sec[WQ_KJ_END]->ent[i].hitcount;
		ok(done == 191 && lines == 193,
		   "done summed over the rows is 191 of the end lines' 193: ...142824 (2), never queued, is not "
		   "attributed");
	}

	/* the same counts again: nothing happened in between */
	ok(wq_kjoin_feed(j, sec, &dropped) == 0 && dropped == 0, "second read of the same counts");
	ok(wq_kjoin_rows(j, false, 1.0, &rows, &n) == 0 && n == 2, "only the rows with items pending or in flight");
	r = row(rows, n, "events");
	ok(COUNTS(r, 0, 0, 0, 0, 1), "events: no new counts, still 1 in flight");
	r = row(rows, n, "events_power_efficient");
	ok(COUNTS(r, 0, 0, 0, 1, 0), "events_power_efficient: still 1 pending");
	ok(wq_kjoin_rows(j, true, 3.0, &rows, &n) == 0 && n == 6, "the whole run: six rows");
	r = row(rows, n, "wqflood");
	ok(COUNTS(r, 180, 180, 180, 0, 0) && r->queued_ps == 60.0, "wqflood over the run: 180, 60/s over 3 s");

	for (int i = 0; i < WQ_KJ_NEV; i++)
		wq_hist_clear(&h[i]);
	wq_kjoin_free(j);
	return tap_done();
}
