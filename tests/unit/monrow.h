/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit tests' look at monitor rows (lib/monitor.h): one by name, and its counts in one test. */
#ifndef WQ_TEST_MONROW_H
#define WQ_TEST_MONROW_H

#include <string.h>

#include "lib/obs/monitor.h"

static inline const struct wq_mon_row *row(const struct wq_mon_row *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

/* r exists with these queued, started, done, pending and in-flight figures */
#define COUNTS(r, q, s, d, p, f)                                                                                       \
	((r) && (r)->queued == (q) && (r)->started == (s) && (r)->done == (d) && (r)->pending == (p) &&                \
	 (r)->inflight == (f))

#endif
