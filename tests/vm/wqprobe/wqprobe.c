// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wqprobe: the ground truth for wqctl's VM tier.
 *
 * Creates an unbound WQ_SYSFS workqueue "wqprobe" and, on request, queues
 * work items from chosen CPUs and records how many ran at once (overall and
 * per node of the queuing CPU). Control files in /sys/kernel/wqprobe:
 *
 *   create      write "MAX_ACTIVE": destroy and re-create the workqueue
 *               (on >= 6.9 a max_active written below 8 lowers min_active
 *               for good, so each setting starts from a fresh workqueue)
 *   run         write "K CPULIST [SLEEP_MS [INTERVAL_US]]": queue K items
 *               from each CPU of CPULIST with queue_work() called on that
 *               CPU. SLEEP_MS 0 (default): items block at a gate until
 *               "release"; else each sleeps SLEEP_MS. INTERVAL_US spaces
 *               the queueing (a known rate for monitor).
 *   running     read: items running now
 *   stats       read: "queued Q started S done D peak P" and one
 *               "node N peak P" line per node that queued work
 *   release     write anything: open the gate, wait for every item
 *   destroy     write anything: destroy the workqueue
 *   pcpu        write "K CPULIST SLEEP_MS [BUSY_MS]": queue K items on each
 *               CPU of CPULIST to the per-CPU workqueue "wqprobe_pcpu" with
 *               queue_work_on() (they run there, whatever any cpumask
 *               says); each runs probe_pcpu_fn: it spins BUSY_MS (mdelay,
 *               never sleeping: the kernel's CPU-intensive case), then
 *               sleeps SLEEP_MS; read: "queued Q done D" (the isolation
 *               audit's ground truth, and the kernel's counters')
 *   flood       write "RATE MSECS [SPLIT]": queue short items (each only counts
 *               itself) to the unbound workqueue "wqflood" at RATE a
 *               second, 0 as fast as the writing CPU can, for MSECS, then
 *               wait for them all (the write returns then); read: "queued Q
 *               done D busy B msecs T", B the attempts that found their
 *               item still pending (not queued, not counted) and T the
 *               time spent queueing (monitor's cost benchmark); SPLIT 1
 *               sends every other item, same function, to "wqflood2",
 *               counted again as "queued2 Q2 done2 D2" at the end of the line
 *   mayday      write "K CPU HOGCPU SLEEP_MS HOG_MS": a FIFO kthread of ours
 *               spins on HOGCPU for HOG_MS (user space has pinned kthreadd
 *               there first: new workers cannot be made meanwhile), K items
 *               that each sleep SLEEP_MS are queued on CPU to the per-CPU
 *               WQ_MEM_RECLAIM workqueue "wqmayday", and the write returns
 *               when they have all run; read: "queued Q done D rescued R",
 *               R the items that ran in a thread named "kworker/R-..." (the
 *               rescuer's name on 6.7+): the kernel's RESCUED counter's truth
 *   repat       write "K CPU HOG_MS": a FIFO kthread of ours spins on CPU for
 *               HOG_MS while K items are queued one at a time with
 *               queue_work_on(CPU) to the unbound "wqrepat" (user space sets
 *               its affinity_scope to cpu, not strict, first: CPU is the
 *               pod, the workers may run anywhere), each waited for (a
 *               completion, not flush_work(), whose barrier is an item too)
 *               and 20 ms apart so that the worker that ran it is idle, and
 *               the first idle one, when the next is queued. Each item notes
 *               the CPU it runs on against its worker. The kernel counts one
 *               REPATRIATED when it wakes a worker whose wake CPU is outside
 *               the pod; what that wake CPU is depends on the scheduler:
 *               A, the CPU the worker last ran on (7.3's try_to_wake_up()
 *               sets it to the CPU it picks), or B, changed only when the
 *               worker moves (6.12: only set_task_cpu() sets it), so once
 *               put back in the pod it stays there until the worker runs
 *               on another CPU than before. read: "queued Q done D outside
 *               O a EA ua UA b EB ub UB": O items ran outside the pod; EA
 *               items whose worker had last run outside it, EB items whose
 *               worker had moved between its two items before; UA, UB the
 *               items whose worker was too new to the probe to tell
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#define PROBE_MAX_ITEMS 65536

struct probe_item {
	struct work_struct work;
	int node; /* node of the queuing CPU */
};

static struct workqueue_struct *probe_wq;
static struct probe_item *items;
static int nr_items;
static unsigned int sleep_ms;
static DEFINE_MUTEX(probe_lock);
static DECLARE_WAIT_QUEUE_HEAD(gate_wait);
static bool gate_open;
static atomic_t running, peak, queued, started, done;
static atomic_t node_running[MAX_NUMNODES], node_peak[MAX_NUMNODES];
static unsigned long node_used[BITS_TO_LONGS(MAX_NUMNODES)];
static struct kobject *probe_kobj;
/* the per-CPU side (pcpu) */
static struct workqueue_struct *pcpu_wq;
static struct work_struct *pcpu_items;
static unsigned int pcpu_sleep_ms, pcpu_busy_ms;
static atomic_t pcpu_queued, pcpu_done;
/* the rescuer's side (mayday) */
#define MAYDAY_MAX_ITEMS 64
static struct workqueue_struct *mayday_wq;
static struct work_struct mayday_items[MAYDAY_MAX_ITEMS];
static unsigned int mayday_sleep_ms, hog_ms;
static atomic_t mayday_queued, mayday_done, mayday_rescued;
/* the repatriation side (repat): items run one at a time, so plain counts */
#define REPAT_MAX_ITEMS 64
#define REPAT_WORKERS 32
static struct workqueue_struct *repat_wq;
static struct work_struct repat_items[REPAT_MAX_ITEMS];
static unsigned int repat_cpu;
static unsigned int repat_queued, repat_done, repat_outside, repat_ea, repat_ua, repat_eb, repat_ub;
static DECLARE_COMPLETION(repat_ran);
static struct {
	struct task_struct *task;
	int cpu; /* where its last item ran */
	int moved; /* its last item ran on another CPU than the one before: 1, 0; 2 not known */
} repat_seen[REPAT_WORKERS];

/* the flood side */
#define FLOOD_POOL 4096
static struct workqueue_struct *flood_wq;
static struct work_struct *flood_items;
static struct workqueue_struct *flood_wq2; /* split: every other item, same function */
static atomic_t flood_done, flood_done2;
static unsigned long flood_queued, flood_busy, flood_msecs, flood_queued2, flood_split;

static void raise_peak(atomic_t *cur, atomic_t *max)
{
	int now = atomic_inc_return(cur), old = atomic_read(max);

	while (now > old) {
		int seen = atomic_cmpxchg(max, old, now);

		if (seen == old)
			break;
		old = seen;
	}
}

static void probe_fn(struct work_struct *work)
{
	struct probe_item *it = container_of(work, struct probe_item, work);

	atomic_inc(&started);
	raise_peak(&running, &peak);
	raise_peak(&node_running[it->node], &node_peak[it->node]);
	if (sleep_ms)
		msleep(sleep_ms);
	else
		wait_event(gate_wait, READ_ONCE(gate_open));
	atomic_dec(&node_running[it->node]);
	atomic_dec(&running);
	atomic_inc(&done);
}

/* Runs on the queuing CPU (IPI), so queue_work() sees that CPU. */
static void queue_one(void *arg)
{
	struct probe_item *it = arg;

	it->node = cpu_to_node(smp_processor_id());
	if (queue_work(probe_wq, &it->work))
		atomic_inc(&queued);
}

static void reset_counts(void)
{
	int n;

	atomic_set(&running, 0);
	atomic_set(&peak, 0);
	atomic_set(&queued, 0);
	atomic_set(&started, 0);
	atomic_set(&done, 0);
	for (n = 0; n < MAX_NUMNODES; n++) {
		atomic_set(&node_running[n], 0);
		atomic_set(&node_peak[n], 0);
	}
	bitmap_zero(node_used, MAX_NUMNODES);
}

/* Wait for every queued item and free them; probe_lock held. */
static void drain(void)
{
	WRITE_ONCE(gate_open, true);
	wake_up_all(&gate_wait);
	if (probe_wq)
		flush_workqueue(probe_wq);
	vfree(items);
	items = NULL;
	nr_items = 0;
}

static ssize_t create_store(struct kobject *k, struct kobj_attribute *a, const char *buf, size_t len)
{
	int max_active, ret;

	ret = kstrtoint(buf, 10, &max_active);
	if (ret)
		return ret;
	if (max_active < 1)
		return -EINVAL;
	mutex_lock(&probe_lock);
	drain();
	if (probe_wq)
		destroy_workqueue(probe_wq);
	probe_wq = alloc_workqueue("wqprobe", WQ_UNBOUND | WQ_SYSFS, max_active);
	ret = probe_wq ? 0 : -ENOMEM;
	mutex_unlock(&probe_lock);
	return ret ? ret : len;
}

static ssize_t destroy_store(struct kobject *k, struct kobj_attribute *a, const char *buf, size_t len)
{
	mutex_lock(&probe_lock);
	drain();
	if (probe_wq)
		destroy_workqueue(probe_wq);
	probe_wq = NULL;
	mutex_unlock(&probe_lock);
	return len;
}

static ssize_t run_store(struct kobject *k, struct kobj_attribute *a, const char *buf, size_t len)
{
	unsigned int per_cpu, smsec = 0, interval_us = 0;
	char list[256];
	cpumask_var_t cpus;
	int cpu, i = 0, total, ret;

	if (sscanf(buf, "%u %255s %u %u", &per_cpu, list, &smsec, &interval_us) < 2)
		return -EINVAL;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	ret = cpulist_parse(list, cpus);
	if (ret)
		goto out;
	cpumask_and(cpus, cpus, cpu_online_mask);
	total = per_cpu * cpumask_weight(cpus);
	ret = -EINVAL;
	if (!total || total > PROBE_MAX_ITEMS)
		goto out;
	mutex_lock(&probe_lock);
	ret = -ENODEV;
	if (!probe_wq)
		goto unlock;
	drain();
	reset_counts();
	ret = -ENOMEM;
	items = vzalloc(sizeof(*items) * total);
	if (!items)
		goto unlock;
	nr_items = total;
	sleep_ms = smsec;
	WRITE_ONCE(gate_open, false);
	/* Round-robin over the CPUs so every counter fills at the same pace. */
	while (i < total) {
		for_each_cpu(cpu, cpus) {
			struct probe_item *it = &items[i++];

			INIT_WORK(&it->work, probe_fn);
			set_bit(cpu_to_node(cpu), node_used);
			smp_call_function_single(cpu, queue_one, it, 1);
			if (interval_us)
				usleep_range(interval_us, interval_us + interval_us / 8 + 1);
		}
	}
	ret = 0;
unlock:
	mutex_unlock(&probe_lock);
out:
	free_cpumask_var(cpus);
	return ret ? ret : len;
}

static void probe_pcpu_fn(struct work_struct *work)
{
	unsigned int busy = READ_ONCE(pcpu_busy_ms), sleep = READ_ONCE(pcpu_sleep_ms);

	while (busy--)
		mdelay(1);
	if (sleep)
		msleep(sleep);
	atomic_inc(&pcpu_done);
}

static ssize_t pcpu_store(struct kobject *k, struct kobj_attribute *a, const char *buf, size_t len)
{
	unsigned int per_cpu, smsec = 0, bmsec = 0;
	char list[256];
	cpumask_var_t cpus;
	int cpu, i = 0, total, ret;

	if (sscanf(buf, "%u %255s %u %u", &per_cpu, list, &smsec, &bmsec) < 2 || bmsec > 1000)
		return -EINVAL;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	ret = cpulist_parse(list, cpus);
	if (ret)
		goto out;
	cpumask_and(cpus, cpus, cpu_online_mask);
	total = per_cpu * cpumask_weight(cpus);
	ret = -EINVAL;
	if (!total || total > PROBE_MAX_ITEMS)
		goto out;
	mutex_lock(&probe_lock);
	if (pcpu_wq)
		flush_workqueue(pcpu_wq);
	vfree(pcpu_items);
	pcpu_items = vzalloc(sizeof(*pcpu_items) * total);
	ret = -ENOMEM;
	if (!pcpu_items)
		goto unlock;
	atomic_set(&pcpu_queued, 0);
	atomic_set(&pcpu_done, 0);
	WRITE_ONCE(pcpu_sleep_ms, smsec);
	WRITE_ONCE(pcpu_busy_ms, bmsec);
	while (i < total) {
		for_each_cpu(cpu, cpus) {
			INIT_WORK(&pcpu_items[i], probe_pcpu_fn);
			if (queue_work_on(cpu, pcpu_wq, &pcpu_items[i]))
				atomic_inc(&pcpu_queued);
			i++;
		}
	}
	ret = 0;
unlock:
	mutex_unlock(&probe_lock);
out:
	free_cpumask_var(cpus);
	return ret ? ret : len;
}

static ssize_t pcpu_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "queued %d done %d\n", atomic_read(&pcpu_queued), atomic_read(&pcpu_done));
}

static void mayday_fn(struct work_struct *work)
{
	if (!strncmp(current->comm, "kworker/R-", 10))
		atomic_inc(&mayday_rescued);
	msleep(READ_ONCE(mayday_sleep_ms));
	atomic_inc(&mayday_done);
}

static void repat_fn(struct work_struct *work)
{
	int cpu = raw_smp_processor_id(), i;

	for (i = 0; i < REPAT_WORKERS && repat_seen[i].task && repat_seen[i].task != current; i++)
		;
	if (i < REPAT_WORKERS && repat_seen[i].task == current) {
		repat_ea += repat_seen[i].cpu != (int)repat_cpu;
		repat_eb += repat_seen[i].moved == 1;
		repat_ub += repat_seen[i].moved == 2;
		repat_seen[i].moved = cpu != repat_seen[i].cpu;
	} else {
		repat_ua++;
		repat_ub++;
		if (i < REPAT_WORKERS) {
			repat_seen[i].task = current;
			repat_seen[i].moved = 2;
		}
	}
	if (i < REPAT_WORKERS)
		repat_seen[i].cpu = cpu;
	repat_outside += cpu != (int)repat_cpu;
	repat_done++;
	complete(&repat_ran);
}

/* Spin HOG_MS at FIFO priority, then wait to be stopped. */
static int hog_fn(void *arg)
{
	unsigned long end = jiffies + msecs_to_jiffies(READ_ONCE(hog_ms));

	while (time_before(jiffies, end) && !kthread_should_stop())
		cpu_relax();
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static struct task_struct *start_hog(unsigned int cpu, unsigned int msecs)
{
	struct task_struct *hog;

	WRITE_ONCE(hog_ms, msecs);
	hog = kthread_create(hog_fn, NULL, "wqprobe-hog");
	if (IS_ERR(hog))
		return hog;
	kthread_bind(hog, cpu);
	sched_set_fifo(hog);
	wake_up_process(hog);
	msleep(20); /* the hog on its CPU before the items are queued */
	return hog;
}

static ssize_t mayday_store(struct kobject *k, struct kobj_attribute *a, const char *buf, size_t len)
{
	unsigned int n, cpu, hcpu, smsec, hmsec, i;
	struct task_struct *hog;

	if (sscanf(buf, "%u %u %u %u %u", &n, &cpu, &hcpu, &smsec, &hmsec) != 5 || !n || n > MAYDAY_MAX_ITEMS ||
	    cpu == hcpu || cpu >= nr_cpu_ids || hcpu >= nr_cpu_ids || !cpu_online(cpu) || !cpu_online(hcpu) ||
	    smsec > 1000 || hmsec > 5000)
		return -EINVAL;
	mutex_lock(&probe_lock);
	flush_workqueue(mayday_wq);
	atomic_set(&mayday_queued, 0);
	atomic_set(&mayday_done, 0);
	atomic_set(&mayday_rescued, 0);
	WRITE_ONCE(mayday_sleep_ms, smsec);
	hog = start_hog(hcpu, hmsec);
	if (IS_ERR(hog)) {
		mutex_unlock(&probe_lock);
		return PTR_ERR(hog);
	}
	for (i = 0; i < n; i++) {
		INIT_WORK(&mayday_items[i], mayday_fn);
		if (queue_work_on(cpu, mayday_wq, &mayday_items[i]))
			atomic_inc(&mayday_queued);
	}
	flush_workqueue(mayday_wq);
	kthread_stop(hog);
	mutex_unlock(&probe_lock);
	return len;
}

static ssize_t repat_store(struct kobject *k, struct kobj_attribute *a, const char *buf, size_t len)
{
	unsigned int n, cpu, hmsec, i;
	struct task_struct *hog;

	if (sscanf(buf, "%u %u %u", &n, &cpu, &hmsec) != 3 || !n || n > REPAT_MAX_ITEMS || cpu >= nr_cpu_ids ||
	    !cpu_online(cpu) || hmsec > 5000)
		return -EINVAL;
	mutex_lock(&probe_lock);
	flush_workqueue(repat_wq);
	repat_queued = repat_done = repat_outside = repat_ea = repat_ua = repat_eb = repat_ub = 0;
	memset(repat_seen, 0, sizeof(repat_seen));
	repat_cpu = cpu;
	hog = start_hog(cpu, hmsec);
	if (IS_ERR(hog)) {
		mutex_unlock(&probe_lock);
		return PTR_ERR(hog);
	}
	for (i = 0; i < n; i++) {
		INIT_WORK(&repat_items[i], repat_fn);
		reinit_completion(&repat_ran);
		if (queue_work_on(cpu, repat_wq, &repat_items[i])) {
			repat_queued++;
			wait_for_completion(&repat_ran);
		}
		msleep(20);
	}
	kthread_stop(hog);
	mutex_unlock(&probe_lock);
	return len;
}

static ssize_t repat_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "queued %u done %u outside %u a %u ua %u b %u ub %u\n", repat_queued, repat_done,
			  repat_outside, repat_ea, repat_ua, repat_eb, repat_ub);
}

static ssize_t mayday_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "queued %d done %d rescued %d\n", atomic_read(&mayday_queued),
			  atomic_read(&mayday_done), atomic_read(&mayday_rescued));
}

static void flood_fn(struct work_struct *work)
{
	atomic_inc(&flood_done);
	/* split: the odd items went to wqflood2 */
	if (READ_ONCE(flood_split) && ((work - flood_items) & 1))
		atomic_inc(&flood_done2);
}

static ssize_t flood_store(struct kobject *k, struct kobj_attribute *a, const char *buf, size_t len)
{
	unsigned long rate, msecs, split = 0, tries = 0, i = 0;
	struct workqueue_struct *wq;
	ktime_t t0, now;
	s64 us;

	if (sscanf(buf, "%lu %lu %lu", &rate, &msecs, &split) < 2 || !msecs || msecs > 600000 || split > 1)
		return -EINVAL;
	mutex_lock(&probe_lock);
	flush_workqueue(flood_wq);
	flush_workqueue(flood_wq2);
	WRITE_ONCE(flood_split, split);
	atomic_set(&flood_done, 0);
	atomic_set(&flood_done2, 0);
	flood_queued = flood_busy = flood_queued2 = 0;
	t0 = ktime_get();
	for (;;) {
		now = ktime_get();
		us = ktime_us_delta(now, t0);
		if (us >= (s64)msecs * 1000)
			break;
		/* paced: as many attempts as the rate allows by now, then a short sleep */
		if (rate && tries >= (unsigned long)div_u64((u64)us * rate, 1000000)) {
			usleep_range(100, 200);
			continue;
		}
		tries++;
		wq = split && (i & 1) ? flood_wq2 : flood_wq;
		if (queue_work(wq, &flood_items[i])) {
			flood_queued++;
			flood_queued2 += wq == flood_wq2;
		} else {
			flood_busy++;
		}
		i = (i + 1) % FLOOD_POOL;
		if (!(tries % 64))
			cond_resched();
	}
	flood_msecs = ktime_ms_delta(now, t0);
	flush_workqueue(flood_wq);
	flush_workqueue(flood_wq2);
	mutex_unlock(&probe_lock);
	return len;
}

static ssize_t flood_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "queued %lu done %d busy %lu msecs %lu queued2 %lu done2 %d\n", flood_queued,
			  atomic_read(&flood_done), flood_busy, flood_msecs, flood_queued2, atomic_read(&flood_done2));
}

static ssize_t release_store(struct kobject *k, struct kobj_attribute *a, const char *buf, size_t len)
{
	mutex_lock(&probe_lock);
	drain();
	mutex_unlock(&probe_lock);
	return len;
}

static ssize_t running_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&running));
}

static ssize_t stats_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	int n, len;

	len = sysfs_emit(buf, "queued %d started %d done %d peak %d\n", atomic_read(&queued),
			 atomic_read(&started), atomic_read(&done), atomic_read(&peak));
	for_each_set_bit(n, node_used, MAX_NUMNODES)
		len += sysfs_emit_at(buf, len, "node %d peak %d\n", n, atomic_read(&node_peak[n]));
	return len;
}

static struct kobj_attribute create_attr = __ATTR_WO(create);
static struct kobj_attribute destroy_attr = __ATTR_WO(destroy);
static struct kobj_attribute run_attr = __ATTR_WO(run);
static struct kobj_attribute release_attr = __ATTR_WO(release);
static struct kobj_attribute running_attr = __ATTR_RO(running);
static struct kobj_attribute stats_attr = __ATTR_RO(stats);
static struct kobj_attribute pcpu_attr = __ATTR_RW(pcpu);
static struct kobj_attribute flood_attr = __ATTR_RW(flood);
static struct kobj_attribute mayday_attr = __ATTR_RW(mayday);
static struct kobj_attribute repat_attr = __ATTR_RW(repat);

static struct attribute *probe_attrs[] = {
	&create_attr.attr,  &destroy_attr.attr, &run_attr.attr,
	&release_attr.attr, &running_attr.attr, &stats_attr.attr,
	&pcpu_attr.attr,    &flood_attr.attr,   &mayday_attr.attr, &repat_attr.attr, NULL,
};

static const struct attribute_group probe_group = {.attrs = probe_attrs};

static int __init wqprobe_init(void)
{
	int ret;

	int i;

	flood_items = vzalloc(sizeof(*flood_items) * FLOOD_POOL);
	if (!flood_items)
		return -ENOMEM;
	for (i = 0; i < FLOOD_POOL; i++)
		INIT_WORK(&flood_items[i], flood_fn);
	flood_wq = alloc_workqueue("wqflood", WQ_UNBOUND | WQ_SYSFS, 0);
	flood_wq2 = alloc_workqueue("wqflood2", WQ_UNBOUND | WQ_SYSFS, 0);
	pcpu_wq = alloc_workqueue("wqprobe_pcpu", WQ_SYSFS, 0);
	mayday_wq = alloc_workqueue("wqmayday", WQ_MEM_RECLAIM, 0);
	repat_wq = alloc_workqueue("wqrepat", WQ_UNBOUND | WQ_SYSFS, 0);
	if (!pcpu_wq || !flood_wq || !flood_wq2 || !mayday_wq || !repat_wq)
		goto nomem;
	probe_kobj = kobject_create_and_add("wqprobe", kernel_kobj);
	if (!probe_kobj)
		goto nomem;
	ret = sysfs_create_group(probe_kobj, &probe_group);
	if (ret) {
		kobject_put(probe_kobj);
		goto fail;
	}
	return 0;
nomem:
	ret = -ENOMEM;
fail:
	if (pcpu_wq)
		destroy_workqueue(pcpu_wq);
	if (mayday_wq)
		destroy_workqueue(mayday_wq);
	if (repat_wq)
		destroy_workqueue(repat_wq);
	if (flood_wq)
		destroy_workqueue(flood_wq);
	if (flood_wq2)
		destroy_workqueue(flood_wq2);
	vfree(flood_items);
	return ret;
}

static void __exit wqprobe_exit(void)
{
	sysfs_remove_group(probe_kobj, &probe_group);
	kobject_put(probe_kobj);
	mutex_lock(&probe_lock);
	drain();
	if (probe_wq)
		destroy_workqueue(probe_wq);
	destroy_workqueue(pcpu_wq);
	vfree(pcpu_items);
	destroy_workqueue(mayday_wq);
	destroy_workqueue(repat_wq);
	destroy_workqueue(flood_wq);
	destroy_workqueue(flood_wq2);
	vfree(flood_items);
	mutex_unlock(&probe_lock);
}

module_init(wqprobe_init);
module_exit(wqprobe_exit);
MODULE_DESCRIPTION("wqctl test probe: measured workqueue concurrency");
MODULE_LICENSE("GPL");
