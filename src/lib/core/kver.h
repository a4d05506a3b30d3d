/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel releases and every version-dependent workqueue rule (doc/kernel.md
 * §3, §4): the one place that knows which kernel does what.
 */
#ifndef WQ_KVER_H
#define WQ_KVER_H

#include <stdbool.h>

struct wq_kver {
	bool known;
	int major, minor, patch;
	char release[80];
};

/* max_active eras of unbound workqueues (doc/kernel.md §4). */
enum wq_era {
	WQ_ERA_UNKNOWN = 0,
	WQ_ERA_A, /* <= 6.5: per NUMA-node pwq */
	WQ_ERA_B, /* 6.6-6.8 and reverted stable: per CPU */
	WQ_ERA_C, /* >= 6.9: system-wide, split across nodes */
};

/*
 * Parse "6.8.4", "6.1.0-27-amd64", "6.18.44-fc-v669". 0, or -EINVAL when the
 * string does not start with MAJOR.MINOR (kv->known is false then).
 */
int wq_kver_parse(const char *release, struct wq_kver *kv);
/* <0, 0, >0 as kv compares with major.minor.patch; unknown compares as 0. */
int wq_kver_cmp(const struct wq_kver *kv, int major, int minor, int patch);

/*
 * The era of kv. era_c_symbol tells whether /proc/kallsyms shows era-C code
 * (-1 unknown): it decides the 6.6.y-6.8.y stable releases whose era the
 * release number alone does not settle. *why gets a static reason when the
 * answer is WQ_ERA_UNKNOWN or a guess.
 */
enum wq_era wq_kver_era(const struct wq_kver *kv, int era_c_symbol, const char **why);
const char *wq_era_name(enum wq_era era);

/*
 * Upper bound the kernel accepts for max_active without clamping: 512 or
 * 2048, and on <= 6.5 unbound max(512, 4 * possible). 0 when unknown.
 */
int wq_kver_max_active(const struct wq_kver *kv, bool unbound, unsigned int nr_possible);
/*
 * Does nohz_full= remove CPUs from the boot root unbound cpumask? Up to 6.x
 * it does (HK_TYPE_WQ); from 7.0 HK_TYPE_WQ is an alias of the kernel-noise
 * type and only isolcpus= (HK_TYPE_DOMAIN) and workqueue.unbound_cpus= do.
 * An unknown release answers as the newest.
 */
bool wq_kver_nohz_restricts_root(const struct wq_kver *kv);
/*
 * How many workqueues carry this name on kv: from 6.17 system_percpu_wq and
 * system_wq are both "events", system_dfl_wq and system_unbound_wq both
 * "events_unbound" (the tracepoints name a queue, nothing more). *which
 * gets the kernel's names for them where there are two, else NULL.
 */
int wq_kver_name_sharers(const struct wq_kver *kv, const char *name, const char **which);
/* WQ_DFL_ACTIVE, the max_active of a workqueue created with 0: 256, 1024 from 6.13; 0 when unknown. */
int wq_kver_dfl_active(const struct wq_kver *kv);
/* WQ_DFL_MIN_ACTIVE on era C kernels (8), else 0. */
int wq_kver_dfl_min_active(const struct wq_kver *kv);

#endif
