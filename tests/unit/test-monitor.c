// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitor's bookkeeping on hand-written event sequences; every figure is worked out in the comments. */
#include <stdio.h>
#include <stdlib.h>

#include "lib/obs/monitor.h"
#include "monrow.h"
#include "tap.h"

#define US 1000ULL /* ns */

int main(void)
{
	struct wq_mon *m = wq_mon_new();
	const struct wq_mon_row *r, *a, *b;
	int64_t v[100];
	size_t n;

	/* Nearest rank: of 1..100, p50 is the 50th value, p99 the 99th; of one value, that value. */
	for (int i = 0; i < 100; i++)
		v[i] = 100 - i;
	ok(wq_mon_percentile(v, 100, 50) == 50, "p50 of 1..100 is 50");
	ok(wq_mon_percentile(v, 100, 99) == 99, "p99 of 1..100 is 99");
	ok(wq_mon_percentile(v, 100, 100) == 100, "p100 of 1..100 is 100");
	v[0] = 7;
	ok(wq_mon_percentile(v, 1, 50) == 7 && wq_mon_percentile(v, 1, 99) == 7, "one sample is every percentile");
	/* of 3, 1, 2: p50 = ceil(1.5) = 2nd = 2; p99 = ceil(2.97) = 3rd = 3 */
	v[0] = 3, v[1] = 1, v[2] = 2;
	ok(wq_mon_percentile(v, 3, 50) == 2, "p50 of {3,1,2} is 2");
	v[0] = 3, v[1] = 1, v[2] = 2;
	ok(wq_mon_percentile(v, 3, 99) == 3, "p99 of {3,1,2} is 3");
	ok(wq_mon_percentile(v, 0, 50) == -1, "no samples: -1");

	/*
	 * Interval 1 (2 s):
	 *   A: w1 queued at 0, activated at 0, started at 10 us, ended at 50 us  -> wait 10 us, run 40 us
	 *   A: w2 queued at 5 us, activated at 5 us, started at 35 us (still running) -> wait 30 us
	 *   A: w3 queued at 6 us, not activated (held back by max_active)        -> pending 1
	 *   B: w4 queued at 1 us, activated, started at 2 us, ended at 3 us      -> wait 1 us, run 1 us
	 *   w9 starts and ends without a queue_work seen: ignored.
	 * A: queued 3 (1.5/s), started 2 (1/s), done 1, pending 1, in flight 1,
	 *    waits {10, 30} us -> p50 = 1st = 10, p99 = 2nd = 30; runs {40} -> 40.
	 * B: queued 1 (0.5/s), started 1, done 1, wait 1 us, run 1 us.
	 */
	wq_mon_event(m, WQ_EV_QUEUE, 0, 0x1, "A");
	wq_mon_event(m, WQ_EV_ACTIVATE, 0, 0x1, NULL);
	wq_mon_event(m, WQ_EV_QUEUE, 1 * US, 0x4, "B");
	wq_mon_event(m, WQ_EV_ACTIVATE, 1 * US, 0x4, NULL);
	wq_mon_event(m, WQ_EV_START, 2 * US, 0x4, NULL);
	wq_mon_event(m, WQ_EV_END, 3 * US, 0x4, NULL);
	wq_mon_event(m, WQ_EV_QUEUE, 5 * US, 0x2, "A");
	wq_mon_event(m, WQ_EV_ACTIVATE, 5 * US, 0x2, NULL);
	wq_mon_event(m, WQ_EV_QUEUE, 6 * US, 0x3, "A");
	wq_mon_event(m, WQ_EV_START, 10 * US, 0x1, NULL);
	wq_mon_event(m, WQ_EV_START, 20 * US, 0x9, NULL);
	wq_mon_event(m, WQ_EV_START, 35 * US, 0x2, NULL);
	wq_mon_event(m, WQ_EV_END, 50 * US, 0x1, NULL);
	wq_mon_event(m, WQ_EV_END, 60 * US, 0x9, NULL);
	ok(wq_mon_interval(m, 2.0, &r, &n) == 0 && n == 2, "interval 1: two workqueues");
	a = row(r, n, "A");
	b = row(r, n, "B");
	ok(a && b && r[0].name[0] == 'A', "rows sorted by name");
	ok(a && a->queued == 3 && a->started == 2 && a->done == 1, "A: 3 queued, 2 started, 1 done");
	ok(a && a->queued_ps == 1.5 && a->started_ps == 1.0, "A: 1.5 queued/s, 1 started/s over 2 s");
	ok(a && a->pending == 1 && a->inflight == 1, "A: w3 pending (not activated), w2 in flight");
	ok(a && a->wait_p50 == 10 * US && a->wait_p99 == 30 * US, "A: wait p50 10 us, p99 30 us");
	ok(a && a->run_p50 == 40 * US && a->run_p99 == 40 * US, "A: run 40 us");
	ok(a && a->wait_count == 2 && a->wait_sum == 40 * US && a->run_count == 1 && a->run_sum == 40 * US,
	   "A: waits 10 + 30 = 40 us over 2, one run of 40 us (the summary's sum and count)");
	ok(a && a->throttled == 0 && b && b->throttled == 0, "interval 1: every activation came with its queue_work");
	ok(b && b->queued == 1 && b->pending == 0 && b->inflight == 0 && b->wait_p50 == 1 * US && b->run_p50 == 1 * US,
	   "B: one item, wait 1 us, run 1 us, nothing left");

	/*
	 * Interval 2 (1 s): w3 is activated and starts at 100 us (wait 94 us), and
	 * w2 queues itself again while it runs (at 110 us), then ends at 135 us
	 * (run 100 us), then its second instance starts at 140 us (wait 30 us) and
	 * ends at 150 us (run 10 us). B is idle: no row.
	 * A: queued 1, started 2, done 2, waits {94, 30} -> p50 30, p99 94;
	 *    runs {100, 10} -> p50 10, p99 100; w3 still running: in flight 1, pending 0.
	 */
	wq_mon_event(m, WQ_EV_ACTIVATE, 100 * US, 0x3, NULL);
	wq_mon_event(m, WQ_EV_START, 100 * US, 0x3, NULL);
	wq_mon_event(m, WQ_EV_QUEUE, 110 * US, 0x2, "A");
	wq_mon_event(m, WQ_EV_ACTIVATE, 110 * US, 0x2, NULL);
	wq_mon_event(m, WQ_EV_END, 135 * US, 0x2, NULL);
	wq_mon_event(m, WQ_EV_START, 140 * US, 0x2, NULL);
	wq_mon_event(m, WQ_EV_END, 150 * US, 0x2, NULL);
	ok(wq_mon_interval(m, 1.0, &r, &n) == 0 && n == 1, "interval 2: only A has activity");
	a = row(r, n, "A");
	ok(a && a->queued == 1 && a->started == 2 && a->done == 2, "A: 1 queued, 2 started, 2 done");
	ok(a && a->wait_p50 == 30 * US && a->wait_p99 == 94 * US, "A: wait p50 30 us, p99 94 us");
	ok(a && a->run_p50 == 10 * US && a->run_p99 == 100 * US, "A: re-queued while running: runs 100 and 10 us");
	ok(a && a->wait_count == 2 && a->wait_sum == 124 * US && a->run_count == 2 && a->run_sum == 110 * US,
	   "A: interval 2 alone: waits 94 + 30, runs 100 + 10");
	ok(a && a->pending == 0 && a->inflight == 1, "A: w3 in flight, nothing pending");
	/* w3's activation came long after its queue_work (other events between): throttled; w2's came with it */
	ok(a && a->throttled == 1, "A: one throttled activation (w3)");

	/* Interval 3: w3 ends; A shows once more (a run sample), then nothing is left. */
	wq_mon_event(m, WQ_EV_END, 200 * US, 0x3, NULL);
	ok(wq_mon_interval(m, 1.0, &r, &n) == 0 && n == 1 && r[0].done == 1 && r[0].run_p50 == 100 * US &&
	       r[0].wait_p50 == -1 && r[0].inflight == 0,
	   "interval 3: A ends w3 (run 100 us), no wait sample");
	ok(wq_mon_interval(m, 1.0, &r, &n) == 0 && n == 0, "interval 4: nothing to show");

	/*
	 * Per CPU: CPU 0 queues x1 and activates it at once while CPU 1 queues x2
	 * in between (interleaved by time): x1 still came with its queue_work.
	 * x2 is activated on CPU 1 after CPU 1 ran x1's start: throttled.
	 */
	wq_mon_event_cpu(m, WQ_EV_QUEUE, 300 * US, 0x100, "C", 0);
	wq_mon_event_cpu(m, WQ_EV_QUEUE, 300 * US + 1, 0x200, "C", 1);
	wq_mon_event_cpu(m, WQ_EV_ACTIVATE, 300 * US + 2, 0x100, NULL, 0);
	wq_mon_event_cpu(m, WQ_EV_START, 301 * US, 0x100, NULL, 1);
	wq_mon_event_cpu(m, WQ_EV_ACTIVATE, 302 * US, 0x200, NULL, 1);
	ok(wq_mon_interval(m, 1.0, &r, &n) == 0 && n == 1 && r[0].queued == 2 && r[0].throttled == 1,
	   "per CPU: x1 activated with its queue_work, x2 throttled");
	wq_mon_event_cpu(m, WQ_EV_START, 303 * US, 0x200, NULL, 1);
	wq_mon_event_cpu(m, WQ_EV_END, 304 * US, 0x200, NULL, 1);
	wq_mon_event_cpu(m, WQ_EV_END, 305 * US, 0x100, NULL, 1);
	ok(wq_mon_interval(m, 1.0, &r, &n) == 0 && n == 1 && r[0].done == 2 && r[0].inflight == 0, "C: both done");

	/* Many items: the table grows and keeps every one (10000 queued and pending). */
	for (uint64_t w = 1; w <= 10000; w++)
		wq_mon_event(m, WQ_EV_QUEUE, 1000 * US + w, w * 64, "big");
	ok(wq_mon_interval(m, 1.0, &r, &n) == 0 && n == 1 && r[0].queued == 10000 && r[0].pending == 10000,
	   "10000 pending items tracked");
	for (uint64_t w = 1; w <= 10000; w++) {
		wq_mon_event(m, WQ_EV_ACTIVATE, 2000 * US, w * 64, NULL);
		wq_mon_event(m, WQ_EV_START, 2000 * US + 2 * w, w * 64, NULL);
		wq_mon_event(m, WQ_EV_END, 2000 * US + 2 * w + 5, w * 64, NULL);
	}
	/* waits: (2000 us + 2w) - (1000 us + w) = 1000 us + w ns for w = 1..10000:
	 * p50 = 5000th = 1000 us + 5000 ns; every run is 5 ns */
	ok(wq_mon_interval(m, 1.0, &r, &n) == 0 && n == 1 && r[0].started == 10000 && r[0].pending == 0 &&
	       r[0].wait_p50 == (int64_t)(1000 * US + 5000) && r[0].run_p99 == 5,
	   "all started: wait p50 1005 us, run 5 ns");
	wq_mon_free(m);

	/*
	 * The counters' counts with BPF's times: rows a..d (the counters'),
	 * times for b and d and for x, which the counters have no row of (both
	 * sorted by name, as their readers give them).
	 */
	{
		struct wq_mon_row cnt[4] = {{.name = "a", .done = 1, .throttled = 9, .wait_p50 = 5},
					    {.name = "b", .done = 2},
					    {.name = "c", .done = 3},
					    {.name = "d", .done = 4}};
		const struct wq_mon_row tm[3] = {
		    {.name = "b",
		     .done = 99,
		     .throttled = 7,
		     .wait_p50 = 1024,
		     .wait_p99 = 2048,
		     .run_p50 = 8,
		     .run_p99 = 16,
		     .wait_sum = 3000,
		     .run_sum = 30,
		     .wait_count = 2,
		     .run_count = 2},
		    {.name = "d", .throttled = 1, .wait_p50 = 4, .wait_p99 = 4, .run_p50 = -1, .run_p99 = -1},
		    {.name = "x", .done = 5, .wait_p50 = 64}};

		wq_mon_times_into(cnt, 4, tm, 3);
		ok(cnt[1].done == 2 && cnt[1].throttled == 7 && cnt[1].wait_p50 == 1024 && cnt[1].wait_p99 == 2048 &&
		       cnt[1].run_p50 == 8 && cnt[1].run_p99 == 16 && cnt[1].wait_sum == 3000 && cnt[1].run_sum == 30 &&
		       cnt[1].wait_count == 2 && cnt[1].run_count == 2,
		   "times into counts: b keeps its count (2, not BPF's 99) and takes all its times and THROTTLED 7");
		ok(cnt[3].done == 4 && cnt[3].throttled == 1 && cnt[3].wait_p50 == 4 && cnt[3].run_p50 == -1,
		   "times into counts: d, the last row, takes its times (run none: -1)");
		ok(cnt[0].done == 1 && cnt[0].throttled == 0 && cnt[0].wait_p50 == -1 && cnt[0].run_p99 == -1 &&
		       cnt[2].done == 3 && cnt[2].wait_p99 == -1 && cnt[2].wait_count == 0,
		   "times into counts: a and c, which BPF did not time, have no times and THROTTLED 0");
		ok(row(cnt, 4, "x") == NULL, "times into counts: x, which the counters have no row of, adds none");
	}
	/* A read's element by name: names sorted, the first member a char array */
	{
		struct named {
			char name[8];
			int v;
		} el[4] = {{"ab", 1}, {"b", 2}, {"ba", 3}, {"c", 4}};
		const struct named *f = wq_mon_by_name(el, 4, sizeof(el[0]), "ba"),
				   *g = wq_mon_by_name(el, 4, sizeof(el[0]), "c");

		ok(f && f->v == 3 && g && g->v == 4, "by name: ba is the third, c the last");
		ok(!wq_mon_by_name(el, 4, sizeof(el[0]), "bb") && !wq_mon_by_name(el, 4, sizeof(el[0]), "a") &&
		       !wq_mon_by_name(NULL, 0, sizeof(el[0]), "a"),
		   "by name: bb and a are not there; nothing in none");
		ok(wq_mon_grown(10, 3) == 7 && wq_mon_grown(3, 10) == 0, "grown: 10 from 3 is 7; a fall is none");
	}
	return tap_done();
}
