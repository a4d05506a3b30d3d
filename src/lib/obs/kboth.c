// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Our BPF programs beside the kernel's counters, opened in one order for
 * every user (obs/kboth.h says the order and why).
 */
#include "kboth.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The counters started and read once; on failure freed, kwhy set. */
static int start_counters(struct wq_ctx *ctx, struct wq_kboth *b, char *kwhy, size_t kwhysz)
{
	int r = wq_kcount_start(ctx, b->kc, kwhy, kwhysz);

	if (r == 0)
		r = wq_kcount_read(b->kc, &b->kfirst, &b->nfirst, kwhy, kwhysz);
	if (r < 0) {
		wq_kcount_free(b->kc);
		b->kc = NULL;
	}
	return r;
}

int wq_kboth_open(struct wq_ctx *ctx, bool held, bool (*want)(const char *name, void *arg), void *arg,
		  struct wq_kboth *b, char *why, size_t whysz, char *kwhy, size_t kwhysz)
{
	int r;

	memset(b, 0, sizeof(*b));
	kwhy[0] = '\0';
	if (wq_kcount_prepare(ctx, &b->kc, kwhy, kwhysz) < 0)
		b->kc = NULL;
	else if (want)
		wq_kcount_filter(b->kc, want, arg);
	b->held = held || !b->kc;
	if ((r = wq_kbpf_open(ctx, b->held, &b->kb, why, whysz)) < 0) {
		wq_kcount_free(b->kc);
		b->kc = NULL;
		return r;
	}
	if (b->kc && start_counters(ctx, b, kwhy, kwhysz) < 0 && !b->held) {
		/* PENDING needs activate_work after all */
		wq_kbpf_free(b->kb);
		b->kb = NULL;
		b->held = true;
		if ((r = wq_kbpf_open(ctx, true, &b->kb, why, whysz)) < 0)
			return r;
	}
	return 0;
}
