// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-function hist counts joined into per-workqueue counts, on the hist
 * files of monitor --backend kernel's own instance in Debian's 6.12, with
 * the probe's flood function queued on two workqueues (every other item to
 * wqflood2; tests/fixtures/real/hist/debian-6.12/by-function). The first
 * read is those files; later reads are the same lines with counts the test
 * adds. Every expected figure was worked out by hand from the lines: a
 * function's counts go to the one workqueue queue_work's file pairs it
 * with, or are shared in proportion to what each queued (doc/kernel.md
 * §8.1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/obs/fnjoin.h"
#include "monrow.h"
#include "tap.h"

static const char *const files[WQ_KJ_NEV] = {"workqueue_queue_work.hist", "workqueue_activate_work.hist",
					     "workqueue_execute_start.hist", "workqueue_execute_end.hist"};
static const char *const keys[WQ_KJ_NEV] = {"function.sym,workqueue", "function.sym", "function.sym", "function.sym"};

/* A later read: a copy of a section whose entries have room for one more. */
static struct wq_hist_sec *copy(const struct wq_hist_sec *s)
{
	struct wq_hist_sec *c = malloc(sizeof(*c));

	*c = *s;
	c->ent = calloc(s->n + 1, sizeof(*c->ent));
	memcpy(c->ent, s->ent, s->n * sizeof(*c->ent));
	return c;
}

/* Add to the count of the line whose function (and workqueue) is as given; a new line if none is. */
static void add(struct wq_hist_sec *s, const char *fn, const char *wq, unsigned long long n)
{
	for (size_t i = 0; i < s->n; i++)
		if (strstr(s->ent[i].key[0], fn) && (!wq || !strcmp(s->ent[i].key[1], wq))) {
			s->ent[i].hitcount += n;
			return;
		}
	s->ent[s->n].key[0] = fn;
	s->ent[s->n].key[1] = wq;
	s->ent[s->n++].hitcount = n;
}

/* A kernel's four files parsed, each with its section keyed by function; false if one is not. */
static bool load(const char *kernel, struct wq_hist h[WQ_KJ_NEV], const struct wq_hist_sec *sec[WQ_KJ_NEV])
{
	char why[200];

	memset(h, 0, WQ_KJ_NEV * sizeof(*h));
	for (int i = 0; i < WQ_KJ_NEV; i++) {
		char rel[256], *t;

		snprintf(rel, sizeof(rel), "real/hist/debian-%s/%s", kernel, files[i]);
		t = tap_fixture(rel);
		if (!t || wq_hist_parse(t, &h[i], why, sizeof(why)) < 0 ||
		    !(sec[i] = wq_hist_section(&h[i], keys[i]))) {
			printf("# %s %s: %s\n", kernel, files[i], t ? why : "not read");
			return false;
		}
	}
	return true;
}

/*
 * 7.3's files, one read. They were copied queue_work first (wqctl reads
 * execute_end first): a vmstat_update queued before the triggers was
 * activated, started and ended after them (57 queued, 58 of the rest), and
 * delayed_vfree_work ran twice between the copies of execute_start's file
 * and execute_end's (5 started, 7 ended).
 */
static void seven_three(void)
{
	struct wq_hist h[WQ_KJ_NEV];
	const struct wq_hist_sec *sec[WQ_KJ_NEV];
	struct wq_fnjoin *j = wq_fnjoin_new();
	const struct wq_mon_row *rows;
	unsigned long long dropped = 1, q = 0, d = 0;
	size_t n = 0;
	bool parsed = load("7.3/by-function", h, sec);

	ok(parsed && wq_fnjoin_feed(j, sec, &dropped) == 0 && wq_fnjoin_rows(j, false, 1.0, &rows, &n) == 0 && n == 9,
	   "7.3: parsed and joined; nine workqueues have rows");
	if (!parsed)
		return;
	ok(COUNTS(row(rows, n, "wqflood"), 249994, 249994, 249994, 0, 0) &&
	       COUNTS(row(rows, n, "wqflood2"), 249993, 249993, 249993, 0, 0),
	   "7.3: flood_fn's 499987 starts and ends shared 249994:249993, as each queued");
	ok(COUNTS(row(rows, n, "mm_percpu_wq"), 57, 58, 58, 0, 0),
	   "7.3: mm_percpu_wq 57 queued, 58 started and ended; none pending (not -1)");
	ok(COUNTS(row(rows, n, "events"), 15, 14, 16, 0, 0),
	   "7.3: events 4 + 5 + 6 queued, 4 + 5 + 5 started, 4 + 5 + 7 ended; none in flight (not -2)");
	ok(COUNTS(row(rows, n, "events_highpri"), 1, 1, 1, 0, 0), "7.3: events_highpri: fill_page_cache_func once");
	for (size_t i = 0; i < n; i++) {
		q += rows[i].queued;
		d += rows[i].done;
	}
	ok(q == 500069 && d == 500071, "7.3: queued and done over the rows are the files' Hits, 500069 and 500071");
	for (int i = 0; i < WQ_KJ_NEV; i++)
		wq_hist_clear(&h[i]);
	wq_fnjoin_free(j);
}

/*
 * A function whose queue_work lines read hitcount 0 (the kernel publishes
 * an entry before its first hit, so a read can race one; issue 60 item 8)
 * while its other events have counts: 7.3's files with zero_fn added on
 * wqz1 and wqz2 at 0, and 3 activations, starts and ends. The 3 are shared
 * as if each had queued alike: floors 1 and 1, the one left to the first.
 * Before, the share divided by the weights' sum, 0: SIGFPE.
 */
static void zero_hits(void)
{
	struct wq_hist h[WQ_KJ_NEV];
	const struct wq_hist_sec *sec[WQ_KJ_NEV];
	struct wq_hist_sec *next[WQ_KJ_NEV];
	struct wq_fnjoin *j = wq_fnjoin_new();
	const struct wq_mon_row *rows;
	unsigned long long dropped = 0;
	size_t n = 0;
	bool parsed = load("7.3/by-function", h, sec);

	if (!parsed) {
		ok(false, "7.3: parsed for the hitcount 0 case");
		return;
	}
	for (int i = 0; i < WQ_KJ_NEV; i++) {
		next[i] = copy(sec[i]);
		next[i]->ent = realloc(next[i]->ent, (next[i]->n + 2) * sizeof(*next[i]->ent));
		sec[i] = next[i];
	}
	add(next[0], "[ffffffffa3000010] zero_fn", "wqz1", 0);
	add(next[0], "[ffffffffa3000010] zero_fn", "wqz2", 0);
	for (int i = 1; i < WQ_KJ_NEV; i++)
		add(next[i], "[ffffffffa3000010] zero_fn", NULL, 3);
	ok(wq_fnjoin_feed(j, sec, &dropped) == 0 && wq_fnjoin_rows(j, false, 1.0, &rows, &n) == 0,
	   "7.3 with queue_work lines at hitcount 0: joined, no division by zero");
	ok(COUNTS(row(rows, n, "wqz1"), 0, 2, 2, 0, 0) && COUNTS(row(rows, n, "wqz2"), 0, 1, 1, 0, 0),
	   "7.3: zero_fn's 3 starts and ends shared 2:1 between its two workqueues, as if they had queued alike");
	for (int i = 0; i < WQ_KJ_NEV; i++) {
		free(next[i]->ent);
		free(next[i]);
		wq_hist_clear(&h[i]);
	}
	wq_fnjoin_free(j);
}

/* An entry of a wait or run time section: a function as a fixture names it, a bucket, a count, a sum. */
static struct wq_hist_entry lat(const struct wq_hist_sec *q, const char *fn, const char *bucket, unsigned long long n,
				unsigned long long sum)
{
	struct wq_hist_entry e = {.hitcount = n, .val = sum};

	for (size_t i = 0; i < q->n; i++)
		if (strstr(q->ent[i].key[0], fn))
			e.key[0] = q->ent[i].key[0];
	e.key[1] = bucket;
	return e;
}

/*
 * Wait and run times (lib/klat's two hists, keyed fn.sym and the time's
 * log2 in us) on 6.12's counts, made in memory with its functions' keys:
 * shared as the counts are, percentiles as their bucket's top.
 */
static void times(void)
{
	struct wq_hist h[WQ_KJ_NEV];
	const struct wq_hist_sec *sec[WQ_KJ_NEV];
	struct wq_fnjoin *j = wq_fnjoin_new();
	const struct wq_mon_row *rows, *r;
	struct wq_hist_entry we[3], re[2];
	struct wq_hist_sec ws = {.ent = we, .n = 3}, rs = {.ent = re, .n = 2};
	unsigned long long dropped;
	size_t n = 0;

	if (!load("6.12/by-function", h, sec) || wq_fnjoin_feed(j, sec, &dropped) < 0) {
		ok(0, "times: 6.12's counts fed");
		return;
	}
	we[0] = lat(sec[WQ_KJ_QUEUE], "flood_fn", "~ 2^3", 100, 700);
	we[1] = lat(sec[WQ_KJ_QUEUE], "flood_fn", "~ 2^5", 2, 60);
	we[2] = lat(sec[WQ_KJ_QUEUE], "vmstat_update", "~ 2^10", 69, 48300);
	re[0] = lat(sec[WQ_KJ_QUEUE], "flood_fn", "~ 2^2", 102, 306);
	re[1] = lat(sec[WQ_KJ_QUEUE], "vmstat_update", "~ 2^4", 69, 690);
	dropped = 1;
	ok(wq_fnjoin_feed_lat(j, &ws, &rs, &dropped) == 0 && wq_fnjoin_rows(j, false, 1.0, &rows, &n) == 0 &&
	       dropped == 0,
	   "times: fed; no time dropped");
	/* flood_fn's 100 waits in 2^3 and 2 in 2^5, run 102 in 2^2, shared 1:1: 50 + 1 and 51 */
	r = row(rows, n, "wqflood");
	ok(r && r->wait_count == 51 && r->wait_p50 == 8000 && r->wait_p99 == 32000 && r->wait_sum == 380e3,
	   "times: wqflood waits 51: p50 rank 26 in 2^3 (8 us), p99 rank 51 in 2^5 (32 us); sum 350 + 30 us");
	ok(r && r->run_count == 51 && r->run_p50 == 4000 && r->run_p99 == 4000 && r->run_sum == 153e3,
	   "times: wqflood runs 51 in 2^2: p50 and p99 4 us; sum 153 us");
	r = row(rows, n, "wqflood2");
	ok(r && r->wait_count == 51 && r->wait_p99 == 32000 && r->run_count == 51, "times: wqflood2 the other half");
	r = row(rows, n, "mm_percpu_wq");
	ok(r && r->wait_count == 69 && r->wait_p50 == 1024000 && r->wait_p99 == 1024000 && r->wait_sum == 48300e3 &&
	       r->run_p50 == 16000,
	   "times: mm_percpu_wq (vmstat_update alone): waits in 2^10 (1024 us), runs in 2^4 (16 us)");
	r = row(rows, n, "events");
	ok(r && r->wait_p50 == -1 && r->wait_count == 0, "times: events had none: -1");
	/* the same counts again: no new times in this interval, but the run holds them; the maps were full for 5 + 2 */
	ws.dropped = 5;
	rs.dropped = 2;
	ok(wq_fnjoin_feed(j, sec, &dropped) == 0 && wq_fnjoin_feed_lat(j, &ws, &rs, &dropped) == 0 && dropped == 7 &&
	       wq_fnjoin_rows(j, true, 2.0, &rows, &n) == 0,
	   "times: a second read of the same; the times' Dropped 5 + 2 since the first read");
	ok(wq_fnjoin_feed_lat(j, &ws, &rs, &dropped) == 0 && dropped == 0,
	   "times: a third read with the same Dropped: none new");
	r = row(rows, n, "wqflood");
	ok(r && r->wait_count == 51 && r->wait_p99 == 32000, "times: over the run, wqflood still 51 waits, p99 32 us");
	we[2].key[1] = "2^10";
	ok(wq_fnjoin_feed_lat(j, &ws, &rs, &dropped) == -EBADMSG, "times: a bucket not as \"~ 2^K\": -EBADMSG");
	for (int i = 0; i < WQ_KJ_NEV; i++)
		wq_hist_clear(&h[i]);
	wq_fnjoin_free(j);
}

/*
 * 6.12's wait and run times and counts from the same two instances of
 * monitor (tests/fixtures/real/hist/debian-6.12/times), flood_fn split
 * 117771:117771 between wqflood and wqflood2, each bucket shared 1:1 (an
 * odd one's extra to wqflood, first in queue_work's file). Worked by hand
 * from the files' flood_fn lines; one wait line is a negative time the
 * kernel wrapped (1 hit, sum 18446744073709539642 in 2^0): not a time.
 */
static void real_times(void)
{
	struct wq_hist h[WQ_KJ_NEV], w = {0}, r = {0};
	const struct wq_hist_sec *sec[WQ_KJ_NEV], *ws, *rs;
	struct wq_fnjoin *j = wq_fnjoin_new();
	const struct wq_mon_row *rows, *row1;
	char *tw = tap_fixture("real/hist/debian-6.12/times/wqctl_w.hist");
	char *tr = tap_fixture("real/hist/debian-6.12/times/wqctl_r.hist");
	unsigned long long dropped;
	char why[200];
	size_t n = 0;

	if (!load("6.12/times", h, sec) || !tw || !tr || wq_hist_parse(tw, &w, why, sizeof(why)) < 0 ||
	    wq_hist_parse(tr, &r, why, sizeof(why)) < 0 || !(ws = wq_hist_section(&w, "fn.sym,wait.log2")) ||
	    !(rs = wq_hist_section(&r, "fn.sym,run.log2"))) {
		ok(0, "6.12 times: the six files parsed");
		return;
	}
	ok(ws->n > 11 && ws->ent[0].val > 0, "6.12 times: sections with sums (vals=hitcount,wait)");
	ok(wq_fnjoin_feed(j, sec, &dropped) == 0 && wq_fnjoin_feed_lat(j, ws, rs, &dropped) == 0 &&
	       wq_fnjoin_rows(j, false, 1.0, &rows, &n) == 0,
	   "6.12 times: joined");
	row1 = row(rows, n, "wqflood");
	ok(row1 && row1->wait_count == 117773 && row1->wait_p50 == 32768000 && row1->wait_p99 == 65536000,
	   "6.12 times: wqflood 117773 of the 235540 waits (the wrapped one left out): p50 rank 58887 in 2^15, p99 "
	   "rank 116596 in 2^16");
	ok(row1 && row1->run_count == 117775 && row1->run_p50 == 8000 && row1->run_p99 == 16000,
	   "6.12 times: wqflood 117775 of the 235541 runs: p50 in 2^3 (8 us), p99 rank 116598 in 2^4 (16 us)");
	row1 = row(rows, n, "wqflood2");
	ok(row1 && row1->wait_count == 117767 && row1->run_count == 117766, "6.12 times: wqflood2 the rest");
	for (int i = 0; i < WQ_KJ_NEV; i++)
		wq_hist_clear(&h[i]);
	wq_hist_clear(&w);
	wq_hist_clear(&r);
	wq_fnjoin_free(j);
}

int main(void)
{
	struct wq_hist h[WQ_KJ_NEV];
	const struct wq_hist_sec *sec[WQ_KJ_NEV];
	struct wq_hist_sec *next[WQ_KJ_NEV];
	struct wq_fnjoin *j = wq_fnjoin_new();
	const struct wq_mon_row *rows, *r;
	unsigned long long dropped = 1, q = 0, d = 0;
	const char *fn = NULL;
	char wqs[200];
	size_t n = 0;
	bool parsed = load("6.12/by-function", h, sec);

	ok(parsed, "the four hist files of 6.12 parsed, each with its section keyed by function");
	if (!parsed)
		return tap_done();

	ok(wq_fnjoin_feed(j, sec, &dropped) == 0 && dropped == 0, "first read joined; nothing dropped");
	ok(wq_fnjoin_rows(j, false, 2.0, &rows, &n) == 0 && n == 8, "eight workqueues have rows");
	r = row(rows, n, "wqflood");
	ok(COUNTS(r, 249998, 249998, 249998, 0, 0) && r->shared,
	   "wqflood: queued 249998 of flood_fn's; its 499996 starts and ends shared 1:1 with wqflood2; marked shared");
	ok(r && r->queued_ps == 124999.0, "wqflood: 249998 over 2 s is 124999/s");
	r = row(rows, n, "wqflood2");
	ok(COUNTS(r, 249998, 249998, 249998, 0, 0) && r->shared, "wqflood2: the other half, marked shared");
	r = row(rows, n, "events");
	ok(COUNTS(r, 9, 9, 8, 0, 1) && !r->shared,
	   "events: vmstat_shepherd, psi_avgs_work (3 each) and delayed_vfree_work (3 queued, 2 ended): 1 in flight");
	r = row(rows, n, "mm_percpu_wq");
	ok(COUNTS(r, 69, 69, 69, 0, 0), "mm_percpu_wq: vmstat_update, 69 of each");
	r = row(rows, n, "events_power_efficient");
	ok(COUNTS(r, 3, 3, 3, 0, 0), "events_power_efficient: neigh_periodic_work 1 and neigh_managed_work 2");
	ok(COUNTS(row(rows, n, "events_unbound"), 1, 1, 1, 0, 0) && COUNTS(row(rows, n, "pm"), 2, 2, 2, 0, 0) &&
	       COUNTS(row(rows, n, "kvfree_rcu_reclaim"), 3, 3, 3, 0, 0),
	   "events_unbound 1, pm 2, kvfree_rcu_reclaim 3 of each");
	for (size_t i = 0; i < n; i++) {
		q += rows[i].queued;
		d += rows[i].done;
	}
	ok(q == sec[WQ_KJ_QUEUE]->hits && d == sec[WQ_KJ_END]->hits,
	   "queued and done summed over the rows are the files' Hits: %llu and %llu", q, d);
	ok(wq_fnjoin_next_shared(j, &fn, wqs, sizeof(wqs)) && !strcmp(fn, "flood_fn [wqprobe]") &&
	       !strcmp(wqs, "wqflood, wqflood2"),
	   "told: flood_fn [wqprobe] on wqflood, wqflood2");
	ok(!wq_fnjoin_next_shared(j, &fn, wqs, sizeof(wqs)), "told once");

	/*
	 * Second read: wqflood queued 300 more and wqflood2 100; flood_fn was
	 * activated and started 400 more and ended 397 more (3 running); the
	 * running delayed_vfree_work ended; a function never queued while we
	 * counted started and ended 5 times.
	 */
	for (int i = 0; i < WQ_KJ_NEV; i++)
		next[i] = copy(sec[i]);
	add(next[WQ_KJ_QUEUE], "flood_fn", "wqflood", 300);
	add(next[WQ_KJ_QUEUE], "flood_fn", "wqflood2", 100);
	add(next[WQ_KJ_ACTIVATE], "flood_fn", NULL, 400);
	add(next[WQ_KJ_START], "flood_fn", NULL, 400);
	add(next[WQ_KJ_END], "flood_fn", NULL, 397);
	add(next[WQ_KJ_END], "delayed_vfree_work", NULL, 1);
	add(next[WQ_KJ_START], "[ffffffffa8000000] never_queued", NULL, 5);
	add(next[WQ_KJ_END], "[ffffffffa8000000] never_queued", NULL, 5);
	ok(wq_fnjoin_feed(j, (const struct wq_hist_sec *const *)next, &dropped) == 0, "second read joined");
	ok(wq_fnjoin_rows(j, false, 1.0, &rows, &n) == 0 && n == 3, "three rows: the two floods and events");
	/* 3:1 by this read's queueing: starts 300/100; ends 297.75/99.25 -> 297/99 and the 1 left to the larger
	 * remainder; running 3 -> 2.25/0.75 -> 2/0 and the 1 left to wqflood2 */
	r = row(rows, n, "wqflood");
	ok(COUNTS(r, 300, 300, 298, 0, 2) && r->shared, "wqflood: 300 queued and started, 298 ended, 2 in flight");
	r = row(rows, n, "wqflood2");
	ok(COUNTS(r, 100, 100, 99, 0, 1) && r->shared, "wqflood2: 100 queued and started, 99 ended, 1 in flight");
	r = row(rows, n, "events");
	ok(COUNTS(r, 0, 0, 1, 0, 0) && !r->shared, "events: delayed_vfree_work ended, none in flight");

	/* Third read: flood_fn queued none and ended its 3: shared by the run's queueing (250298:250098) */
	add(next[WQ_KJ_END], "flood_fn", NULL, 3);
	ok(wq_fnjoin_feed(j, (const struct wq_hist_sec *const *)next, &dropped) == 0, "third read joined");
	ok(wq_fnjoin_rows(j, false, 1.0, &rows, &n) == 0 && n == 2, "two rows");
	ok(COUNTS(row(rows, n, "wqflood"), 0, 0, 2, 0, 0) && COUNTS(row(rows, n, "wqflood2"), 0, 0, 1, 0, 0),
	   "3 ends by 250298:250098 -> 1.5006/1.4994 -> 1/1 and the 1 left to wqflood; none in flight");

	ok(wq_fnjoin_rows(j, true, 4.0, &rows, &n) == 0 && n == 8, "the whole run: eight rows");
	r = row(rows, n, "wqflood");
	ok(COUNTS(r, 250298, 250298, 250298, 0, 0) && r->shared, "wqflood over the run: 250298 of each");
	r = row(rows, n, "wqflood2");
	ok(COUNTS(r, 250098, 250098, 250098, 0, 0), "wqflood2 over the run: 250098 of each");
	r = row(rows, n, "events");
	ok(COUNTS(r, 9, 9, 9, 0, 0) && !r->shared, "events over the run: 9 of each");

	/*
	 * Fourth read: a vmstat_update queued before the first read was
	 * activated, started and ended (queued - activated went below 0 by
	 * that one); fifth: one more queued and not yet activated.
	 */
	add(next[WQ_KJ_ACTIVATE], "vmstat_update", NULL, 1);
	add(next[WQ_KJ_START], "vmstat_update", NULL, 1);
	add(next[WQ_KJ_END], "vmstat_update", NULL, 1);
	ok(wq_fnjoin_feed(j, (const struct wq_hist_sec *const *)next, &dropped) == 0 &&
	       wq_fnjoin_rows(j, false, 1.0, &rows, &n) == 0 && COUNTS(row(rows, n, "mm_percpu_wq"), 0, 1, 1, 0, 0),
	   "mm_percpu_wq: an item queued before we counted started and ended; none pending (not -1)");
	add(next[WQ_KJ_QUEUE], "vmstat_update", "mm_percpu_wq", 1);
	ok(wq_fnjoin_feed(j, (const struct wq_hist_sec *const *)next, &dropped) == 0 &&
	       wq_fnjoin_rows(j, false, 1.0, &rows, &n) == 0 && COUNTS(row(rows, n, "mm_percpu_wq"), 1, 0, 0, 1, 0),
	   "mm_percpu_wq: then one queued, not activated: 1 pending (queued = activated over the run, less the one "
	   "from before)");

	/* a key that is not "[ADDR] SYMBOL" */
	next[WQ_KJ_END]->ent[0].key[0] = "18446744072100000000";
	ok(wq_fnjoin_feed(j, (const struct wq_hist_sec *const *)next, &dropped) == -EBADMSG,
	   "a function key printed without .sym: -EBADMSG");

	for (int i = 0; i < WQ_KJ_NEV; i++) {
		free(next[i]->ent);
		free(next[i]);
		wq_hist_clear(&h[i]);
	}
	wq_fnjoin_free(j);
	seven_three();
	zero_hits();
	times();
	real_times();
	return tap_done();
}
