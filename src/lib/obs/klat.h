/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Wait and run times kept by the kernel (doc/kernel.md §8.1): in a trace
 * instance of our own, hist variables keyed by the work pointer hold each
 * item's queue_work and execute_start times; execute_start and
 * execute_end fire two synthetic events of ours (global, named with our
 * tag, wq_trace_tag()) with the item's function and its wait or run time in microseconds,
 * and a hist on each counts them (and sums them) per function and log2
 * bucket. Only those
 * two hists are read: the variables' maps never are. Removed on close, a
 * killed run's at the next open.
 */
#ifndef WQ_KLAT_H
#define WQ_KLAT_H

#include <stdbool.h>
#include <stddef.h>

#include "hist.h"

struct wq_ctx;
struct wq_klat;

/* Keys of the two readable hists (function and bucket), and of the variables' maps (work items). */
#define WQ_KLAT_MAP_SIZE 8192
#define WQ_KLAT_VAR_MAP_SIZE 16384

/* Whether the live kernel has hist triggers and synthetic events. */
bool wq_klat_available(struct wq_ctx *ctx);
/* Remove what runs killed with SIGKILL left: their instances, then their synthetic events. */
void wq_klat_remove_stale(struct wq_ctx *ctx);
/* Create the synthetic events, the instance and its triggers (removing a killed run's first). 0, or -errno with why. */
int wq_klat_open(struct wq_ctx *ctx, struct wq_klat **out, char *why, size_t whysz);
/*
 * Read the two hists into wait and run (cleared by the caller with
 * wq_hist_clear); *ws and *rs: their sections keyed by fn.sym and the
 * time's log2. 0, or -errno with why.
 */
int wq_klat_read(struct wq_klat *k, struct wq_hist *wait, struct wq_hist *run, const struct wq_hist_sec **ws,
		 const struct wq_hist_sec **rs, char *why, size_t whysz);
/* Remove the triggers, the instance and the synthetic events. */
void wq_klat_close(struct wq_klat *k);

#endif
