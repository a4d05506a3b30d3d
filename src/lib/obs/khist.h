/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workqueue counts kept by the kernel (doc/kernel.md §8.1): hist triggers
 * in a trace instance of our own count queue_work per function and
 * workqueue, and activate_work, execute_start and execute_end per function
 * (lib/fnjoin); on kernels before 6.10, whose activate_work has no
 * function, per work item instead (lib/kjoin). Reading the hist files and
 * joining them gives each workqueue's counts at any rate, with nothing
 * streamed to user space. Wait and run times and the held-back count are
 * not measured here.
 */
#ifndef WQ_KHIST_H
#define WQ_KHIST_H

#include <stdbool.h>
#include <stddef.h>

#include "monitor.h"

struct wq_ctx;
struct wq_khist;

/*
 * Keys each hist's map holds, by function and by work pointer; what does
 * not fit is counted in its Dropped. Every read of a hist file walks twice
 * as many slots, used or not: the size is the floor of a read's cost.
 */
#define WQ_KHIST_FN_MAP_SIZE 2048
#define WQ_KHIST_MAP_SIZE 16384

/* Whether the live kernel has hist triggers (a hist file beside queue_work's trigger). */
bool wq_khist_available(struct wq_ctx *ctx);
/* Whether it can also keep wait and run times (lib/klat): keyed by function (6.10+), with synthetic events. */
bool wq_khist_times_available(struct wq_ctx *ctx);
/* The hist triggers and time hists of killed runs removed, as wq_khist_open does first (wq_trace_tidy's kind). */
void wq_khist_tidy(struct wq_ctx *ctx);
/*
 * Create the instance and set the triggers (removing those a killed run
 * left); times: also wait and run times where wq_khist_times_available().
 * 0, or -errno with why.
 */
int wq_khist_open(struct wq_ctx *ctx, bool times, struct wq_khist **out, char *why, size_t whysz);
/*
 * Read the hists: rows for every workqueue with counts since the last read
 * or items pending or in flight now (sorted by name; valid until the next
 * call); *dropped counts events the maps had no room for since the last
 * read. 0 or -errno with why.
 */
int wq_khist_read(struct wq_khist *k, double seconds, const struct wq_mon_row **rows, size_t *n,
		  unsigned long long *dropped, char *why, size_t whysz);
/* The whole run: totals and rates over seconds; pending and in flight as of the last read. */
int wq_khist_summary(struct wq_khist *k, double seconds, const struct wq_mon_row **rows, size_t *n);
/*
 * The wait and run times the last read found the time hists had no room
 * for (WQ_KLAT_MAP_SIZE keys of function and bucket each): the counts are
 * whole, the percentiles are of the other times. 0 without times.
 */
unsigned long long wq_khist_times_dropped(const struct wq_khist *k);
/* Whether the counts are keyed by function (lib/fnjoin), not by work pointer (lib/kjoin). */
bool wq_khist_by_function(const struct wq_khist *k);
/* The next function found on several workqueues, as wq_fnjoin_next_shared() tells it. */
bool wq_khist_next_shared(struct wq_khist *k, const char **fn, char *buf, size_t bufsz);
/* The instance's name below tracefs instances/. */
const char *wq_khist_instance(const struct wq_khist *k);
/* Remove the triggers and the instance. */
void wq_khist_close(struct wq_khist *k);

#endif
