/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Our BPF programs with their counts from the kernel's own counters: the
 * one opener `auto` (sampler) and `experiment` share. The counters are
 * prepared first (the slow scan of kallsyms), the programs attached, then
 * /proc/kcore opened and read once, so the programs run no longer than they
 * must before the first read. Where the counters give the counts, PENDING
 * needs no activate_work program: it is attached only where the held-back
 * count is wanted or the counters cannot be had.
 */
#ifndef WQ_KBOTH_H
#define WQ_KBOTH_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/ctx.h"
#include "kbpf.h"
#include "kcount.h"

struct wq_kboth {
	struct wq_kbpf *kb; /* always set after a successful open */
	struct wq_kcount *kc; /* NULL: the counts from BPF too (kwhy says why) */
	struct wq_kcount_row *kfirst; /* the counters' first read (malloc'ed; the caller's) */
	size_t nfirst;
	bool held; /* activate_work attached: THROTTLED and PENDING from BPF can be had */
};

/*
 * Open both (held: the held-back count is wanted from BPF; want and arg,
 * where want is not NULL, the counters' filter: wq_kcount_filter). 0 with b filled
 * (kc NULL and kwhy set where the counters cannot be had), or -errno with
 * why when BPF cannot be had (nothing left open).
 */
int wq_kboth_open(struct wq_ctx *ctx, bool held, bool (*want)(const char *name, void *arg), void *arg,
		  struct wq_kboth *b, char *why, size_t whysz, char *kwhy, size_t kwhysz);

#endif
