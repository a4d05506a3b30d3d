/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A saved experiment read back: the file `experiment --save NAME` writes
 * under /var/lib/wqctl/experiments, as `--compare NAME` needs it (what to
 * run again, and each setting's measured runs). Every field is checked for
 * its type and range; anything else is "not a saved experiment".
 */
#ifndef WQ_EXPFILE_H
#define WQ_EXPFILE_H

#include <stdbool.h>
#include <stddef.h>

#define WQ_EXP_MAX_RUNS 1000
#define WQ_EXP_MAX_WARMUP 100
#define WQ_EXP_MAX_AXES 16
#define WQ_EXP_MAX_WATCH 16 /* --watch patterns */
#define WQ_EXP_MAX_CELLS 256
#define WQ_EXP_MAX_ARGS 4096

struct wq_saved_setting {
	char *label; /* "writeback max_active=16", or a profile name */
	double *metric; /* the measured runs' metric, each finite */
	size_t n;
};

struct wq_saved_exp {
	char **sets; /* the --set specs */
	size_t nsets;
	char *profiles; /* --profile's list, or NULL */
	long runs, warmup;
	char **cmd; /* the workload's argv, NULL-terminated */
	size_t ncmd;
	char *cwd; /* where it ran, or NULL (saved before wqctl kept it) */
	char **watch; /* --watch patterns, NULL-terminated (none: NULL) */
	size_t nwatch;
	char *metric; /* the metric's spec */
	char *kernel; /* the kernel release it ran on, or NULL (not recorded) */
	bool higher_is_better;
	struct wq_saved_setting *settings;
	size_t nsettings;
};

/*
 * Parse the text of a saved experiment (len bytes, NUL-terminated or not).
 * 0 with *out filled (free with wq_saved_exp_free), or -EINVAL with why
 * naming the field, or -ENOMEM.
 */
int wq_saved_exp_parse(const char *text, size_t len, struct wq_saved_exp *out, char *why, size_t whysz);
void wq_saved_exp_free(struct wq_saved_exp *x);

#endif
