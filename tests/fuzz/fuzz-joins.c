// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel backend's joins (lib/kjoin, lib/fnjoin) fed hist files as
 * monitor --backend kernel reads them. Input: a first byte choosing the
 * join (even: by work, four hists a read; odd: by function, four hists and
 * the wait and run time hists, six a read), then the hist files, each
 * ending at a NUL byte, read after read (at most four reads). A read whose
 * files do not parse, or lack the section keyed as khist asks, is skipped,
 * as khist fails that read. Oracle: every row (each read's and the whole
 * run's) has a name, finite non-negative rates, and percentiles that are
 * -1 or a bucket top (a power of two microseconds, in ns); the kernel
 * publishing an entry before its first hit (hitcount 0) divides nothing by
 * zero (issue 60 item 8). Seeds: the real 6.12 and 7.3 hist files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "obs/fnjoin.h"
#include "fuzz.h"
#include "obs/hist.h"
#include "obs/kjoin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const work_keys[4] = {"work,workqueue", "work", "work", "work"};
static const char *const fn_keys[6] = {"function.sym,workqueue", "function.sym",     "function.sym",
				       "function.sym",		 "fn.sym,wait.log2", "fn.sym,run.log2"};

static bool bucket_top(int64_t ns)
{
	int64_t us = ns / 1000;

	return ns == -1 || (ns > 0 && ns % 1000 == 0 && (us & (us - 1)) == 0);
}

static void check_rows(const struct wq_mon_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct wq_mon_row *r = &rows[i];

		if (!r->name || !isfinite(r->queued_ps) || !isfinite(r->started_ps) || r->queued_ps < 0 ||
		    r->started_ps < 0 || !isfinite(r->wait_sum) || !isfinite(r->run_sum))
			abort();
		if (!bucket_top(r->wait_p50) || !bucket_top(r->wait_p99) || !bucket_top(r->run_p50) ||
		    !bucket_top(r->run_p99))
			abort();
		if (i && strcmp(rows[i - 1].name, r->name) > 0)
			abort(); /* sorted by name */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool by_fn = size && (data[0] & 1);
	size_t per = by_fn ? 6 : 4, at = size ? 1 : 0;
	struct wq_kjoin *kj = by_fn ? NULL : wq_kjoin_new();
	struct wq_fnjoin *fj = by_fn ? wq_fnjoin_new() : NULL;
	const struct wq_mon_row *rows;
	size_t n;

	if (!kj && !fj)
		abort();
	for (int read = 0; read < 4 && at < size; read++) {
		struct wq_hist h[6] = {{0}};
		const struct wq_hist_sec *sec[6] = {0};
		unsigned long long dropped = 0;
		char why[200];
		bool ok = true;

		for (size_t f = 0; f < per; f++) {
			const uint8_t *end = at < size ? memchr(data + at, '\0', size - at) : NULL;
			size_t len = end ? (size_t)(end - (data + at)) : size - at;

			if (wq_hist_parse(fuzz_str(data + at, len), &h[f], why, sizeof(why)) < 0 ||
			    !(sec[f] = wq_hist_section(&h[f], by_fn ? fn_keys[f] : work_keys[f])))
				ok = false;
			at = end ? at + len + 1 : size;
		}
		if (ok) {
			int r = by_fn ? wq_fnjoin_feed(fj, sec, &dropped) : wq_kjoin_feed(kj, sec, &dropped);

			if (r == 0 && by_fn)
				r = wq_fnjoin_feed_lat(fj, sec[4], sec[5], &dropped);
			if (r != 0 && r != -EBADMSG && r != -ENOMEM)
				abort();
			if (r == 0 && (by_fn ? wq_fnjoin_rows(fj, false, 1.5, &rows, &n)
					     : wq_kjoin_rows(kj, false, 1.5, &rows, &n)) == 0)
				check_rows(rows, n);
		}
		for (size_t f = 0; f < per; f++)
			wq_hist_clear(&h[f]);
	}
	if ((by_fn ? wq_fnjoin_rows(fj, true, 6.0, &rows, &n) : wq_kjoin_rows(kj, true, 6.0, &rows, &n)) == 0)
		check_rows(rows, n);
	if (by_fn) {
		const char *fn;
		char buf[256];

		while (wq_fnjoin_next_shared(fj, &fn, buf, sizeof(buf)))
			if (!fn)
				abort();
	}
	wq_kjoin_free(kj);
	wq_fnjoin_free(fj);
	return 0;
}
