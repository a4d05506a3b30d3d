// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BPF programs on the four workqueue tracepoints (BTF-typed, tp_btf):
 * per workqueue name, items queued, activated, started and done, and each
 * item's wait (queue_work to execute_start) and run (execute_start to
 * execute_end) time in log2 buckets of nanoseconds, in per-CPU maps that
 * obs/kbpf.c sums once an interval. An item queued is remembered by its
 * work pointer with its time and its workqueue's name until it starts; a
 * running item by its worker's thread until it ends. The kernel's private
 * structs (pool_workqueue, worker, kthread) are read by name through its
 * BTF (CO-RE): an item started before the programs saw it queued takes its
 * workqueue from the worker running it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kbpf_shared.h"

char LICENSE[] SEC("license") = "GPL";

/* The kernel's structs, the fields read and nothing else: libbpf finds them in the kernel's BTF. */
struct workqueue_struct {
	char name[KBPF_NAME_LEN];
} __attribute__((preserve_access_index));
struct pool_workqueue {
	struct workqueue_struct *wq;
} __attribute__((preserve_access_index));
struct worker {
	struct pool_workqueue *current_pwq;
} __attribute__((preserve_access_index));
struct kthread {
	void *data;
} __attribute__((preserve_access_index));
struct task_struct {
	unsigned int flags;
	void *worker_private;
} __attribute__((preserve_access_index));
struct work_struct;

struct item {
	__u64 ts;
	struct kbpf_key key;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, KBPF_NAMES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct kbpf_key);
	__type(value, struct kbpf_val);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, KBPF_SPILL);
	__type(key, struct kbpf_key);
	__type(value, struct kbpf_counts);
} spill SEC(".maps");

/*
 * queued, not started: by work pointer. A plain hash, preallocated: an LRU
 * hash evicts live entries before it is full when one CPU adds and another
 * deletes (7.3's flood lost a third of its starts so). A cancelled item's
 * entry stays until its work struct is queued again.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KBPF_ITEMS);
	__type(key, __u64);
	__type(value, struct item);
} queued SEC(".maps");

/* running: by the worker's thread id (a plain hash too) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KBPF_RUNNING);
	__type(key, __u32);
	__type(value, struct item);
} running SEC(".maps");

/*
 * the item this CPU queued last: an activation of that same item next on
 * this CPU happened inside its queue_work (__queue_work traces both with
 * interrupts off); any other was held back by max_active
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lastq SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KBPF_NLOST);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static const struct kbpf_val zero;
static const struct kbpf_counts zero_counts;
static const __u32 zero_key;

/* A failed update of the item maps (-EBUSY: its bucket is locked on this CPU) counted by its reason. */
static void count_failed(long err)
{
	__u32 what = err == -16 /* EBUSY */ ? KBPF_LOST_BUSY : KBPF_LOST_FULL;
	__u64 *v = bpf_map_lookup_elem(&lost, &what);

	if (v)
		__sync_fetch_and_add(v, 1);
}

/* A loss of another kind. Both add atomically: a program preempted on this CPU (7.x) may be adding too. */
static void count_lost(__u32 what)
{
	__u64 *v = bpf_map_lookup_elem(&lost, &what);

	if (v)
		__sync_fetch_and_add(v, 1);
}

/*
 * This CPU's counts for a name: in its row of the stats map (*v), made on
 * first use, or where that row cannot be made now in the spill map (*v
 * NULL: no times); NULL when neither has room.
 */
static struct kbpf_counts *counts_of(const struct kbpf_key *k, struct kbpf_val **v)
{
	struct kbpf_counts *c;

	*v = bpf_map_lookup_elem(&stats, k);
	if (!*v) {
		bpf_map_update_elem(&stats, k, &zero, BPF_NOEXIST);
		*v = bpf_map_lookup_elem(&stats, k); /* made here, or by another CPU meanwhile */
	}
	if (*v)
		return &(*v)->c;
	c = bpf_map_lookup_elem(&spill, k);
	if (!c) {
		bpf_map_update_elem(&spill, k, &zero_counts, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&spill, k);
	}
	if (!c)
		count_lost(KBPF_LOST_NAMES);
	return c;
}

/* One time into its log2 bucket of ns, the smallest K with t <= 2^K (at most 63: t is a u64), and its sum. */
static void add_time(__u64 *b, __u64 *count, __u64 *sum, __u64 t)
{
	__u64 x = t > 1 ? t - 1 : 0;
	__u32 k = 0;

	/* the bits of t - 1 (BPF has no count-leading-zeros): halves of 32, 16, 8, 4, 2, 1 */
	if (x >> 32) {
		k += 32;
		x >>= 32;
	}
	if (x >> 16) {
		k += 16;
		x >>= 16;
	}
	if (x >> 8) {
		k += 8;
		x >>= 8;
	}
	if (x >> 4) {
		k += 4;
		x >>= 4;
	}
	if (x >> 2) {
		k += 2;
		x >>= 2;
	}
	if (x >> 1) {
		k += 1;
		x >>= 1;
	}
	k += (__u32)x;
	b[k & (KBPF_BUCKETS - 1)]++; /* k <= 63 already: the mask is for the verifier */
	(*count)++;
	*sum += t;
}

/* The workqueue of the item current runs: current's worker's pwq's (PF_WQ_WORKER threads only). */
static int current_wq(struct kbpf_key *k)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct kthread *kt;
	struct worker *w;
	struct pool_workqueue *pwq;
	struct workqueue_struct *wq;

	if (!(BPF_CORE_READ(t, flags) & 0x00000020)) /* PF_WQ_WORKER */
		return -1;
	kt = BPF_CORE_READ(t, worker_private);
	w = kt ? BPF_CORE_READ(kt, data) : NULL;
	pwq = w ? BPF_CORE_READ(w, current_pwq) : NULL;
	wq = pwq ? BPF_CORE_READ(pwq, wq) : NULL;
	if (!wq || bpf_probe_read_kernel_str(k->name, sizeof(k->name), &wq->name) <= 0)
		return -1;
	return 0;
}

SEC("tp_btf/workqueue_queue_work")
int BPF_PROG(wq_queue, int req_cpu, struct pool_workqueue *pwq, struct work_struct *work)
{
	struct item it = {.ts = bpf_ktime_get_ns()};
	__u64 w = (__u64)work;
	struct kbpf_val *v;
	struct kbpf_counts *c;
	struct workqueue_struct *wq = BPF_CORE_READ(pwq, wq);
	__u64 *last;
	long err;

	if (bpf_probe_read_kernel_str(it.key.name, sizeof(it.key.name), &wq->name) <= 0)
		return 0;
	if ((last = bpf_map_lookup_elem(&lastq, &zero_key)))
		*last = w;
	/* an item not kept is not counted: QUEUED short by what is said lost, PENDING whole */
	if ((err = bpf_map_update_elem(&queued, &w, &it, BPF_ANY))) {
		count_failed(err);
		return 0;
	}
	if ((c = counts_of(&it.key, &v)))
		c->queued++;
	return 0;
}

SEC("tp_btf/workqueue_activate_work")
int BPF_PROG(wq_activate, struct work_struct *work)
{
	__u64 w = (__u64)work;
	struct item *it = bpf_map_lookup_elem(&queued, &w);
	__u64 *last = bpf_map_lookup_elem(&lastq, &zero_key);
	struct kbpf_val *v;
	struct kbpf_counts *c;
	int now = last && *last == w;

	if (last)
		*last = 0;
	if (it && (c = counts_of(&it->key, &v))) {
		c->activated++;
		if (!now)
			c->throttled++;
	}
	return 0;
}

SEC("tp_btf/workqueue_execute_start")
int BPF_PROG(wq_start, struct work_struct *work)
{
	__u64 w = (__u64)work, now = bpf_ktime_get_ns();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct item *q = bpf_map_lookup_elem(&queued, &w), run = {.ts = now};
	struct kbpf_val *v;
	struct kbpf_counts *c;
	__u64 wait = 0;
	int timed = 0;
	long err;

	if (q) {
		run.key = q->key;
		wait = now - q->ts;
		timed = 1;
		bpf_map_delete_elem(&queued, &w);
	} else if (current_wq(&run.key)) {
		count_lost(KBPF_LOST_UNSEEN);
		return 0;
	}
	if ((c = counts_of(&run.key, &v))) {
		c->started++;
		if (timed && v)
			add_time(v->wait, &v->wait_count, &v->wait_sum, wait);
	}
	if ((err = bpf_map_update_elem(&running, &tid, &run, BPF_ANY)))
		count_failed(err); /* its end is counted (by its worker), not timed */
	return 0;
}

SEC("tp_btf/workqueue_execute_end")
int BPF_PROG(wq_end, struct work_struct *work)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct item *r = bpf_map_lookup_elem(&running, &tid);
	struct kbpf_key key = {}; /* a key is all its bytes: the name's tail is zeros */
	struct kbpf_val *v;
	struct kbpf_counts *c;
	__u64 t;

	if (r) {
		t = bpf_ktime_get_ns() - r->ts;
		key = r->key;
		bpf_map_delete_elem(&running, &tid);
		if ((c = counts_of(&key, &v))) {
			c->done++;
			if (v)
				add_time(v->run, &v->run_count, &v->run_sum, t);
		}
	} else if (current_wq(&key) == 0) {
		if ((c = counts_of(&key, &v)))
			c->done++;
	} else
		count_lost(KBPF_LOST_UNSEEN);
	return 0;
}
