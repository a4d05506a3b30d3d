/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings about settings: what the kernel will silently do with them (wqctl(8), check). */
#ifndef WQ_CHECK_H
#define WQ_CHECK_H

#include <limits.h>

#include "ctx.h"
#include "explain.h"
#include "verdict.h"
#include "wq.h"

struct wq_finding {
	enum wq_severity severity;
	const char *code; /* stable kebab-case identifier */
	char target[PATH_MAX]; /* a mount point may be as long as a path */
	char message[640 + 2 * PATH_MAX]; /* and be named twice in the message */
};

typedef void (*wq_finding_fn)(void *data, const struct wq_finding *f);

/*
 * Check one workqueue's settings; wi (may be NULL) holds values about to be
 * written (max_active, cpus, scope), otherwise the live ones are checked.
 * Every finding goes to fn. 0 or -errno.
 */
int wq_check_wq(struct wq_ctx *ctx, const struct wq_info *wq, const struct wq_whatif *wi, wq_finding_fn fn, void *data);
/* Check the global knobs (root cpumask against isolation). 0 or -errno. */
int wq_check_globals(struct wq_ctx *ctx, const struct wq_cpuset *root_override, wq_finding_fn fn, void *data);

#endif
