/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU isolation: the boot parameters that isolate CPUs (isolcpus=,
 * nohz_full=, workqueue.unbound_cpus=), the root mask the kernel's boot
 * rule gives, and what a worker's name says about its pool
 * (doc/kernel.md §8). The audit's grouping is isogroup.h.
 */
#ifndef WQ_ISOLATE_H
#define WQ_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuset.h"
#include "ctx.h"
#include "kver.h"
#include "topo.h"

struct wq_boot_isolation {
	bool has_isolcpus, has_nohz_full, has_unbound_cpus;
	struct wq_cpuset *domain; /* isolcpus= CPUs isolated from the scheduler domains (no flags, or "domain") */
	struct wq_cpuset *isolcpus; /* every isolcpus= CPU, whatever its flags */
	struct wq_cpuset *nohz_full;
	struct wq_cpuset *unbound_cpus; /* workqueue.unbound_cpus= (6.6+; a list the kernel cannot parse is ignored) */
	char flags[64]; /* isolcpus= flags as given ("" for none) */
};

/*
 * Parse isolcpus= and nohz_full= from a kernel command line (the last of
 * each wins, as the kernel's __setup handlers overwrite). 0, or -EINVAL
 * with why for a list the kernel would refuse.
 */
int wq_boot_isolation_parse(const char *cmdline, struct wq_boot_isolation *b, char *why, size_t whysz);
/* The same from the root's proc/cmdline. */
int wq_boot_isolation_read(struct wq_ctx *ctx, struct wq_boot_isolation *b, char *why, size_t whysz);
void wq_boot_isolation_clear(struct wq_boot_isolation *b);
/*
 * The root unbound cpumask the kernel sets at boot (workqueue_init_early()),
 * into out: the possible CPUs, less the nohz_full= ones before 7.0
 * (HK_TYPE_WQ, where the kernel runs them tickless: t->nohz_full not
 * empty), less the ones isolated from the scheduler domains (HK_TYPE_DOMAIN,
 * which cpu/isolated reports), within workqueue.unbound_cpus= (6.6+). From
 * 6.7 a step that would leave no CPU is skipped. 0 or -ENOMEM.
 */
int wq_boot_root_mask(const struct wq_kver *kv, const struct wq_topo *t, const struct wq_boot_isolation *b,
		      struct wq_cpuset *out);
/*
 * True for a user task: a non-empty proc/PID/cmdline (NUL-separated
 * arguments). A kernel thread's is empty; a task that is gone has none.
 */
bool wq_task_is_user(struct wq_ctx *ctx, int pid);

/* What a worker's name says about its pool (kworker/uN:M, kworker/N:M[H]). */
enum wq_worker_kind { WQ_WORKER_OTHER, WQ_WORKER_UNBOUND, WQ_WORKER_PERCPU };
/* From a task's comm ("kworker/3:1H-kblockd" is per-CPU for CPU 3; *cpu gets 3). */
enum wq_worker_kind wq_worker_kind(const char *comm, int *cpu);

#endif
