/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Global workqueue knobs: the root unbound cpumask and module parameters (doc/kernel.md §2). */
#ifndef WQ_KNOB_H
#define WQ_KNOB_H

#include <stdbool.h>

#include "ctx.h"
#include "wq.h"

struct wq_knob_desc {
	const char *name;
	const char *path; /* root-relative file, NULL for boot-only parameters without one */
	enum wq_vtype type;
	long lo, hi;
	bool read_only; /* 0444 in the kernel */
	bool boot_only; /* settable only on the kernel command line */
	const char *since;
	const char *desc;
};

/* One knob as found on this system. */
struct wq_knob {
	const struct wq_knob_desc *desc; /* NULL for an unknown parameter */
	char name[64];
	char path[160];
	char *value; /* as read; NULL when unreadable or without a file */
	int err; /* -errno when the file exists but cannot be read */
	bool present; /* the file exists */
	bool writable; /* runtime-writable */
	bool boot_only;
};

extern const struct wq_knob_desc wq_knob_descs[];
extern const unsigned int wq_knob_ndescs;

/*
 * All knobs present (plus boot-only ones without a file that this kernel
 * has), known ones first in table order, then unknown parameters sorted.
 * 0 or -errno; free with wq_knobs_free().
 */
int wq_knobs_list(struct wq_ctx *ctx, struct wq_knob **out, size_t *n);
void wq_knobs_free(struct wq_knob *k, size_t n);
/* Look one knob up by name (known or an unknown parameter file). 0 or -ENOENT. */
int wq_knob_get(struct wq_ctx *ctx, const char *name, struct wq_knob *out);
void wq_knob_clear(struct wq_knob *k);
/* The kernel command-line fragment that sets a boot-only knob. malloc'ed. */
char *wq_knob_cmdline(const struct wq_knob *k, const char *value);
/*
 * Validate NAME=VALUE for a knob; *out is the text to write.
 * 0, or -EINVAL/-EROFS/-EPERM (boot-only) with why.
 */
int wq_knob_parse(struct wq_ctx *ctx, const struct wq_knob *k, const char *text, char **out, char *why, size_t whysz);
/*
 * The value the kernel boots with when nothing sets the knob (doc/kernel.md
 * §2): default_affinity_scope cache, cache_shard where the kernel has it
 * (7.1+); watchdog_thresh 30; cpu_intensive_thresh_us 10000 (a machine under
 * 4000 BogoMIPS boots with more); the others 0 or N. NULL: none known (the
 * root masks, boot-only and unknown parameters).
 */
const char *wq_knob_default(struct wq_ctx *ctx, const struct wq_knob_desc *d);
/* Type for comparisons of a knob's values. */
enum wq_vtype wq_knob_type(const struct wq_knob *k);

#endif
