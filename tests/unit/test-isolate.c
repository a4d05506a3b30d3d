// SPDX-License-Identifier: GPL-2.0-or-later
/* The isolation audit's parsing and grouping; expected results worked out by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/ctx.h"
#include "lib/obs/isogroup.h"
#include "lib/core/isolate.h"
#include "lib/obs/monitor.h"
#include "tap.h"

static void list_is(const struct wq_cpuset *s, const char *want, const char *what)
{
	char *l = wq_cpuset_format_list(s);

	is_str(l ? l : "", want, "%s", what);
	free(l);
}

static void cmdline(void)
{
	struct wq_boot_isolation b;
	char why[200] = "";

	ok(wq_boot_isolation_parse("BOOT_IMAGE=/vmlinuz root=/dev/vda ro quiet", &b, why, sizeof(why)) == 0,
	   "a command line without isolation");
	ok(!b.has_isolcpus && !b.has_nohz_full && wq_cpuset_is_empty(b.domain), "nothing isolated");
	wq_boot_isolation_clear(&b);

	ok(wq_boot_isolation_parse("ro isolcpus=2-3,6 nohz_full=2-3 quiet", &b, why, sizeof(why)) == 0, "plain lists");
	list_is(b.domain, "2-3,6", "isolcpus without flags isolates from the domains");
	list_is(b.nohz_full, "2-3", "nohz_full=2-3");
	is_str(b.flags, "", "no flags");
	wq_boot_isolation_clear(&b);

	ok(wq_boot_isolation_parse("isolcpus=nohz,managed_irq,4-7", &b, why, sizeof(why)) == 0, "flags without domain");
	list_is(b.isolcpus, "4-7", "the CPUs after the flags");
	ok(wq_cpuset_is_empty(b.domain), "nohz,managed_irq alone does not isolate from the domains");
	is_str(b.flags, "nohz,managed_irq", "flags kept as given");
	wq_boot_isolation_clear(&b);

	ok(wq_boot_isolation_parse("isolcpus=1 isolcpus=managed_irq,domain,12-13", &b, why, sizeof(why)) == 0,
	   "the last isolcpus= wins");
	list_is(b.domain, "12-13", "domain among the flags");
	wq_boot_isolation_clear(&b);

	ok(wq_boot_isolation_parse("isolcpus=domain,x-y", &b, why, sizeof(why)) < 0 && strstr(why, "'x-y'"),
	   "a list the kernel refuses is named: %s", why);
	wq_boot_isolation_clear(&b);
}

static void workers(void)
{
	int cpu;

	ok(wq_worker_kind("kworker/u33:2-events_unbound", &cpu) == WQ_WORKER_UNBOUND && cpu == -1, "kworker/u33:2");
	ok(wq_worker_kind("kworker/12:1H-kblockd", &cpu) == WQ_WORKER_PERCPU && cpu == 12, "kworker/12:1H per-CPU 12");
	ok(wq_worker_kind("kworker/3:0", &cpu) == WQ_WORKER_PERCPU && cpu == 3, "kworker/3:0");
	ok(wq_worker_kind("kcryptd/253:0", &cpu) == WQ_WORKER_OTHER, "a rescuer or other thread");
	ok(wq_worker_kind("kworker/", &cpu) == WQ_WORKER_OTHER, "a bare prefix");
}

/* pids 100-199 unbound workers, 200-299 per-CPU, others not workers */
static enum wq_worker_kind kind_of(int pid, void *data)
{
	(void)data;
	return pid >= 200 && pid < 300	 ? WQ_WORKER_PERCPU
	       : pid >= 100 && pid < 200 ? WQ_WORKER_UNBOUND
					 : WQ_WORKER_OTHER;
}

static struct wq_trace_ev E(uint64_t ts, int ev, int cpu, int pid, uint64_t work, uint64_t fn, const char *wq) {
	struct wq_trace_ev e = {.ts = ts, .ev = ev, .cpu = cpu, .pid = pid, .work = work, .fn = fn};

	snprintf(e.wq, sizeof(e.wq), "%s", wq ? wq : "");
	return e;
}

static void
grouping(void)
{
	/*
	 * Isolated CPUs 2-3. Work A (fn 0xa) of "probe" queued on CPU 2 by pid 7,
	 * run there by unbound worker 101 for 5 ns; queued again from CPU 0 and
	 * run on CPU 3 for 10 ns. Work B (fn 0xb) of "pcpu" queued from CPU 0,
	 * run on CPU 3 by per-CPU worker 203 for 7 ns; run on CPU 1 (not isolated)
	 * once. Work C started on CPU 2 without a queue event in the window.
	 */
	struct wq_trace_ev ev[] = {
	    E(1, WQ_EV_QUEUE, 2, 7, 0x1000, 0xa, "probe"), E(2, WQ_EV_START, 2, 101, 0x1000, 0xa, NULL),
	    E(7, WQ_EV_END, 2, 101, 0x1000, 0xa, NULL),	   E(8, WQ_EV_QUEUE, 0, 8, 0x2000, 0xb, "pcpu"),
	    E(9, WQ_EV_START, 3, 203, 0x2000, 0xb, NULL),  E(10, WQ_EV_QUEUE, 0, 9, 0x1000, 0xa, "probe"),
	    E(11, WQ_EV_START, 3, 102, 0x1000, 0xa, NULL), E(16, WQ_EV_END, 3, 203, 0x2000, 0xb, NULL),
	    E(21, WQ_EV_END, 3, 102, 0x1000, 0xa, NULL),   E(22, WQ_EV_QUEUE, 1, 9, 0x3000, 0xb, "pcpu"),
	    E(23, WQ_EV_START, 1, 201, 0x3000, 0xb, NULL), E(24, WQ_EV_END, 1, 201, 0x3000, 0xb, NULL),
	    E(30, WQ_EV_START, 2, 150, 0x4000, 0xc, NULL),
	};
	struct wq_cpuset *iso = wq_cpuset_new();
	struct wq_iso_rows rows;
	const struct wq_iso_row *a = NULL, *b = NULL, *c = NULL;

	wq_cpuset_parse_list(iso, "2-3");
	ok(wq_iso_group(ev, sizeof(ev) / sizeof(ev[0]), iso, kind_of, NULL, &rows) == 0, "group");
	ok(rows.n == 3, "three rows (A, B, C): %zu", rows.n);
	for (size_t i = 0; i < rows.n; i++) {
		if (rows.v[i].fn == 0xa)
			a = &rows.v[i];
		else if (rows.v[i].fn == 0xb)
			b = &rows.v[i];
		else if (rows.v[i].fn == 0xc)
			c = &rows.v[i];
	}
	ok(a && !strcmp(a->wq, "probe") && a->count == 2 && a->run_ns == 15 && a->kind == WQ_WORKER_UNBOUND,
	   "A: probe, twice, 5 + 10 ns, unbound worker");
	if (a) {
		list_is(a->cpus, "2-3", "A ran on CPUs 2 and 3");
		list_is(a->from, "0,2", "A was queued from CPUs 0 and 2");
		ok(a->from_here == 1 && a->queuer_pid == 7 && a->worker_pid == 101, "once queued on the CPU it ran on");
	}
	ok(b && !strcmp(b->wq, "pcpu") && b->count == 1 && b->run_ns == 7 && b->kind == WQ_WORKER_PERCPU,
	   "B: pcpu, once on an isolated CPU (its CPU 1 run is not counted), 7 ns, per-CPU worker");
	if (b)
		list_is(b->cpus, "3", "B ran on CPU 3");
	ok(c && !strcmp(c->wq, "?") && c->count == 1 && c->run_ns == 0 && c->queuer_pid == -1,
	   "C: queued before the window, not ended in it");
	wq_iso_rows_free(&rows);
	wq_cpuset_free(iso);
}

static void put(const char *dir, const char *rel, const char *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
}

/* proc/PID/cmdline as the kernel writes it: each argument ends in a NUL. */
static void user_tasks(void)
{
	char dir[] = "/tmp/test-isolate.XXXXXX", path[600];
	static const char *const pids[] = {"100", "101", "102", "103"};
	struct wq_ctx *ctx = NULL;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/proc/%s", dir, pids[i]);
		mkdir(path, 0755);
	}
	put(dir, "proc/100/cmdline", "sh\0", 3);
	put(dir, "proc/101/cmdline", "", 0);
	put(dir, "proc/102/cmdline", "/usr/bin/fio\0--name=a\0", 22);
	put(dir, "proc/103/cmdline", "ls", 2);
	ok(wq_ctx_new(dir, "6.18.0", &ctx) == 0, "a context on the tree");
	ok(ctx && wq_task_is_user(ctx, 100), "\"sh\\0\": a user task (the NUL ends its argument)");
	ok(ctx && !wq_task_is_user(ctx, 101), "an empty command line: a kernel thread");
	ok(ctx && wq_task_is_user(ctx, 102), "a command line longer than the read: a user task");
	ok(ctx && wq_task_is_user(ctx, 103), "one without a NUL (after prctl PR_SET_MM): a user task");
	ok(ctx && !wq_task_is_user(ctx, 104), "a task that is gone: not one");
	ok(ctx && !wq_task_is_user(ctx, 0), "pid 0: not one");
	wq_ctx_free(ctx);
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/proc/%s/cmdline", dir, pids[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/proc/%s", dir, pids[i]);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	cmdline();
	workers();
	grouping();
	user_tasks();
	return tap_done();
}
