/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the BPF programs (obs/kbpf.bpf.c) and their reader (obs/kbpf.c)
 * share: the maps' names, keys and values. Kernel types only (linux/types.h),
 * for both sides.
 */
#ifndef WQ_KBPF_SHARED_H
#define WQ_KBPF_SHARED_H

#include <linux/types.h>

#define KBPF_NAME_LEN 32 /* WQ_NAME_LEN (24 before 6.9) and then some */
#define KBPF_BUCKETS 64 /* a power of 2: an index masked with KBPF_BUCKETS - 1 is in bounds for any verifier */
#define KBPF_NAMES 2048
#define KBPF_ITEMS 65536
#define KBPF_RUNNING 8192 /* items running at once: one a worker */
#define KBPF_SPILL 64 /* names whose counts went to the spill map */

/* the stats map: per CPU, by workqueue name (NUL-padded) */
struct kbpf_key {
	char name[KBPF_NAME_LEN];
};

struct kbpf_counts {
	__u64 queued, activated, started, done;
	__u64 throttled; /* activated later than queued: held back by max_active */
};

struct kbpf_val {
	struct kbpf_counts c;
	__u64 wait_count, run_count, wait_sum, run_sum;
	__u64 wait[KBPF_BUCKETS], run[KBPF_BUCKETS];
};

/*
 * the spill map (per CPU, preallocated, by name): the counts of a name
 * whose row in the stats map could not be made when it was first seen (a
 * new per-CPU row of a map that is not preallocated comes from a small
 * cache the kernel refills later: a burst of new names on one CPU finds it
 * empty); their times are not kept
 */

/*
 * the lost map (per-CPU array): items not kept because a map was full, or
 * busy (its bucket locked on this CPU by a program an interrupt cut into),
 * events of a name neither the stats map nor the spill map had room for, and starts and ends of
 * items whose queueing was not seen and whose worker could not be read
 */
enum { KBPF_LOST_FULL, KBPF_LOST_BUSY, KBPF_LOST_NAMES, KBPF_LOST_UNSEEN, KBPF_NLOST };

#endif
