/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workqueue tracepoints through libtracefs: a tracing instance of our
 * own (so the system's trace buffer and other users are left alone) with
 * the workqueue events enabled, drained into a wq_mon.
 */
#ifndef WQ_TRACE_H
#define WQ_TRACE_H

#include <stddef.h>

#include "monitor.h"

struct wq_ctx;
struct wq_trace;

/* The per-CPU buffer of the instance unless the caller asks for another, in KiB. */
#define WQ_TRACE_BUFFER_KB 4096
/*
 * Create the instance with per-CPU buffers of buffer_kb KiB and start
 * tracing. Live system only. 0, or -errno with why (tracefs missing, not
 * root, events missing, library missing, buffer refused).
 */
int wq_trace_open(struct wq_ctx *ctx, unsigned int buffer_kb, struct wq_trace **out, char *why, size_t whysz);
/* Feed every event recorded since the last call to m; *lost counts events the buffer dropped. 0 or -errno. */
int wq_trace_read(struct wq_trace *t, struct wq_mon *m, unsigned long long *lost);
/*
 * wq_trace_read holds back the newest events of a drain to put events of
 * different CPUs in time order; this reads once more and feeds everything
 * (the last interval). 0 or -errno.
 */
int wq_trace_flush(struct wq_trace *t, struct wq_mon *m);
/* The instance's name below tracefs instances/ (for messages and tests). */
const char *wq_trace_instance(const struct wq_trace *t);
/* Stop tracing and remove the instance. */
void wq_trace_close(struct wq_trace *t);

#endif
