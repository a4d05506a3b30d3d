// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * obs/kbpf's rows: what two reads of the BPF programs' maps say as
 * monitor's rows (the interval's growth, pending and in flight since the
 * attach, percentiles as the top of their log2 bucket of ns), with the
 * figures worked out by hand; and the reasons it gives where the programs
 * cannot be loaded (under --sysroot).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/core/ctx.h"
#include "lib/obs/kbpf.h"
#include "monrow.h"
#include "tap.h"

static char tree[] = "/tmp/wqctl-kbpf-XXXXXX";

int main(void)
{
	/* two names, sorted as wq_kbpf_read gives them */
	struct wq_kbpf_row base[2] = {{.name = "events"}, {.name = "writeback"}}, cur[3];
	struct wq_mon_row *rows;
	const struct wq_mon_row *wb, *ev, *nw;
	struct wq_ctx *ctx;
	struct wq_kbpf *k = NULL;
	char why[300];
	size_t n;
	int r;

	base[1].queued = 10;
	base[1].activated = 10;
	base[1].started = 10;
	base[1].done = 10;
	base[1].wait[3] = 10;
	base[1].wait_count = 10;
	memcpy(cur, base, sizeof(base));
	memset(&cur[2], 0, sizeof(cur[2]));
	strcpy(cur[2].name, "zz-new");
	/* writeback, over 2 s: 100 queued, 96 activated (4 still held back), 3 of them later than queued; 94 started, 90 done */
	cur[1].queued = 110;
	cur[1].activated = 106;
	cur[1].throttled = 3;
	cur[1].started = 104;
	cur[1].done = 100;
	/* 94 new waits: 50 in bucket 10 (513..1024 ns), 43 in 12, 1 in 20: p50 is the 47th (bucket 10), p99 the 94th (20) */
	cur[1].wait[10] = 50;
	cur[1].wait[12] = 43;
	cur[1].wait[20] = 1;
	cur[1].wait_count = 10 + 94;
	cur[1].wait_sum = 123456;
	/* 90 runs, all in bucket 39 (275 to 550 s) */
	cur[1].run[39] = 90;
	cur[1].run_count = 90;
	/* zz-new appears between the reads: all its counts are new; events did nothing */
	cur[2].queued = cur[2].activated = cur[2].started = 1;

	r = wq_kbpf_rows(base, 2, cur, 3, 2.0, &rows, &n);
	ok(r == 0 && n == 2, "two rows: writeback and the new name; events did nothing (%zu rows)", n);
	wb = row(rows, n, "writeback");
	ev = row(rows, n, "events");
	nw = row(rows, n, "zz-new");
	ok(wb && wb->queued == 100 && wb->started == 94 && wb->done == 90 && wb->throttled == 3,
	   "writeback: QUEUED 100, STARTED 94, DONE 90, THROTTLED 3");
	ok(wb && wb->queued_ps == 50.0 && wb->started_ps == 47.0, "writeback: 50 queued and 47 started a second");
	ok(wb && wb->pending == 4 && wb->inflight == 4, "writeback: PENDING 110-106 = 4, INFLIGHT 104-100 = 4");
	ok(wb && wb->wait_p50 == 1024 && wb->wait_p99 == 1048576,
	   "writeback: WAIT p50 the 47th of 94 in bucket 10 (1024 ns), p99 the 94th in bucket 20 (%lld, %lld)",
	   wb ? (long long)wb->wait_p50 : -2, wb ? (long long)wb->wait_p99 : -2);
	ok(wb && wb->wait_count == 94 && wb->wait_sum == 123456.0 && wb->run_count == 90,
	   "writeback: 94 waits of 123456 ns, 90 runs");
	ok(wb && wb->run_p50 == (int64_t)1 << 39 && wb->run_p99 == (int64_t)1 << 39,
	   "writeback: runs in bucket 39 read as its top, 2^39 ns");
	ok(!ev, "events, unchanged and holding nothing, has no row");
	ok(nw && nw->queued == 1 && nw->started == 1 && nw->done == 0 && nw->inflight == 1 && nw->pending == 0 &&
	       nw->wait_p50 == -1,
	   "a name new since the base: its counts whole, INFLIGHT 1, no wait time");
	free(rows);

	/* the summary's case: no base at all */
	r = wq_kbpf_rows(NULL, 0, cur, 3, 10.0, &rows, &n);
	wb = r == 0 ? row(rows, n, "writeback") : NULL;
	ok(wb && wb->queued == 110 && wb->wait_p50 == 1024 && wb->wait_count == 104,
	   "no base: since the attach, writeback's 110 queued, 104 waits, p50 the 52nd: after bucket 3's 10, "
	   "in bucket 10, 1024 ns");
	free(rows);

	/* the last bucket (2^62, 2^64): its top does not fit an int64_t, the largest one stands for it */
	cur[2].run[63] = 1;
	cur[2].run_count = 1;
	r = wq_kbpf_rows(base, 2, cur, 3, 1.0, &rows, &n);
	nw = r == 0 ? row(rows, n, "zz-new") : NULL;
	ok(nw && nw->run_p50 == INT64_MAX, "a run in bucket 63 reads as INT64_MAX ns, not an overflow");
	free(rows);

	/* a counter that went down (never in one map; a base of another run): no growth, not a wrap */
	cur[1].done = 5;
	r = wq_kbpf_rows(base, 2, cur, 3, 1.0, &rows, &n);
	wb = r == 0 ? row(rows, n, "writeback") : NULL;
	ok(wb && wb->done == 0, "a counter below its base gives 0, not a wrapped number");
	free(rows);

	/* not on the live system: said, nothing loaded */
	if (mkdtemp(tree) && wq_ctx_new(tree, "6.12.0", &ctx) == 0) {
		r = wq_kbpf_open(ctx, true, &k, why, sizeof(why));
		ok(r == -ENOTSUP && !k && strstr(why, "live kernel only"), "under --sysroot: %s", why);
		wq_ctx_free(ctx);
		rmdir(tree);
	} else
		ok(0, "a context on an empty tree");
	return tap_done();
}
