// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cache_shard pods (Linux 7.1+) built from small sysfs trees written
 * here. Every expected pod is worked out by hand from the kernel's rule
 * (kernel/workqueue.c, precompute_cache_shard_ids(), 7.1 on): per
 * last-level-cache pod, the cores (the first CPU of each SMT group) are dealt
 * in CPU order into max(1, round(cores / size)) shards, the first
 * cores % shards of them one core larger; SMT siblings follow their core.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/root.h"
#include "lib/core/topo.h"
#include "tap.h"

static char dir[64];

/* Write TEXT to dir/REL, making the directories on the way. */
static void put(const char *rel, const char *fmt, ...)
{
	char path[512], *slash;
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

/*
 * A machine: POSSIBLE and ONLINE CPU lists, NODES as "id:list" words
 * ("" for none), and for each online CPU its SMT siblings and L3 siblings
 * from smt_of()/llc_of(). SIZE: cache_shard_size, or NULL for a kernel
 * without the scope.
 */
struct machine {
	const char *possible, *online, *nodes[4], *size;
	/* the sibling lists of a CPU (online ones only: offline CPUs have no topology files) */
	const char *(*smt_of)(int cpu, char *buf, size_t n);
	const char *(*llc_of)(int cpu, char *buf, size_t n);
	int nr_online;
	const int *online_cpus;
};

static void build(const struct machine *m)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		exit(2);
	mkdir(dir, 0755);
	put("sys/devices/system/cpu/possible", "%s", m->possible);
	put("sys/devices/system/cpu/online", "%s", m->online);
	for (int i = 0; i < 4 && m->nodes[i]; i++) {
		int id = atoi(m->nodes[i]);
		char rel[96];

		snprintf(rel, sizeof(rel), "sys/devices/system/node/node%d/cpulist", id);
		put(rel, "%s", strchr(m->nodes[i], ':') + 1);
	}
	for (int i = 0; i < m->nr_online; i++) {
		int c = m->online_cpus[i];
		char rel[128], buf[64];

		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", c);
		put(rel, "%s", m->smt_of(c, buf, sizeof(buf)));
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index3/level", c);
		put(rel, "3");
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", c);
		put(rel, "%s", m->llc_of(c, buf, sizeof(buf)));
	}
	if (m->size)
		put("sys/module/workqueue/parameters/cache_shard_size", "%s", m->size);
}

/* The pods of the built tree as "list/node list/node ...", or an error text. */
static char *pods(int scope)
{
	static char out[1024];
	struct wq_root *root = NULL;
	struct wq_topo *t = NULL;
	char why[256] = "";
	size_t len = 0;
	int r;

	out[0] = '\0';
	if ((r = wq_root_new(dir, &root)) < 0 || (r = wq_topo_read(root, false, &t, why, sizeof(why))) < 0 ||
	    (r = wq_topo_pods(root, t, scope, why, sizeof(why))) < 0) {
		snprintf(out, sizeof(out), "error %d %s", r, why);
		goto done;
	}
	for (int i = 0; i < t->pods[scope].nr; i++) {
		char *l = wq_cpuset_format_list(t->pods[scope].pod[i].cpus);

		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s/%d", i ? " " : "", l ? l : "?",
					t->pods[scope].pod[i].node);
		free(l);
	}
done:
	wq_topo_free(t);
	wq_root_free(root);
	return out;
}

static int all[64];

static const char *alone(int cpu, char *buf, size_t n)
{
	snprintf(buf, n, "%d", cpu);
	return buf;
}

static const char *llc_0_9(int cpu, char *buf, size_t n)
{
	(void)cpu;
	snprintf(buf, n, "0-9");
	return buf;
}

static const char *llc_0_11(int cpu, char *buf, size_t n)
{
	(void)cpu;
	snprintf(buf, n, "0-11");
	return buf;
}

/* 8 cores, each with a sibling 8 CPUs up (x86 numbering): core k = CPUs k and k+8 */
static const char *smt_far(int cpu, char *buf, size_t n)
{
	snprintf(buf, n, "%d,%d", cpu % 8, cpu % 8 + 8);
	return buf;
}

static const char *llc_0_15(int cpu, char *buf, size_t n)
{
	(void)cpu;
	snprintf(buf, n, "0-15");
	return buf;
}

/* two LLCs of 6 CPUs: 0-5 and 6-11 */
static const char *llc_halves(int cpu, char *buf, size_t n)
{
	snprintf(buf, n, cpu < 6 ? "0-5" : "6-11");
	return buf;
}

/* CPUs 0-5 online in one LLC; 6-7 possible but offline */
static const char *llc_0_5(int cpu, char *buf, size_t n)
{
	(void)cpu;
	snprintf(buf, n, "0-5");
	return buf;
}

static void shards(void)
{
	struct machine m = {.possible = "0-9",
			    .online = "0-9",
			    .nodes = {"0:0-9"},
			    .size = "4",
			    .smt_of = alone,
			    .llc_of = llc_0_9,
			    .nr_online = 10,
			    .online_cpus = all};

	/* 10 cores, size 4: round(10/4) = 3 shards, 10/3 = 3 cores each, the first 10%3 = 1 of them 4 */
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-3/0 4-6/0 7-9/0", "10 cores, size 4: 4+3+3");

	/* 12 cores, size 8: round(12/8) = 2 shards of 6 */
	m.possible = m.online = "0-11";
	m.nodes[0] = "0:0-11";
	m.size = "8";
	m.llc_of = llc_0_11;
	m.nr_online = 12;
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-5/0 6-11/0", "12 cores, size 8: 6+6");

	/* the same machine, size 5: round(12/5) = 2 (12 + 2) / 5 = 2 shards of 6 */
	m.size = "5";
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-5/0 6-11/0", "12 cores, size 5: 6+6 (2.4 rounds to 2)");

	/* size 1: a shard per core */
	m.size = "1";
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0/0 1/0 2/0 3/0 4/0 5/0 6/0 7/0 8/0 9/0 10/0 11/0",
	       "size 1: one core each");

	/* 0 given at boot: the kernel makes it 1 (the file then reads 1; a tree may hold the 0) */
	m.size = "0";
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0/0 1/0 2/0 3/0 4/0 5/0 6/0 7/0 8/0 9/0 10/0 11/0", "size 0 is 1");

	/* larger than the cache: one shard, the cache pod itself */
	m.size = "4294967295";
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-11/0", "size UINT_MAX: one shard");

	m.size = "eight";
	build(&m);
	ok(strstr(pods(WQ_SCOPE_CACHE_SHARD), "cache_shard_size") != NULL,
	   "a size that is no number names the file: %s", pods(WQ_SCOPE_CACHE_SHARD));

	/* no parameter (a kernel before 7.1): modelled with the kernel's default 8 */
	m.size = NULL;
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-5/0 6-11/0", "no parameter: size 8");
}

static void smt_siblings_far(void)
{
	struct machine m = {.possible = "0-15",
			    .online = "0-15",
			    .nodes = {"0:0-15"},
			    .size = "3",
			    .smt_of = smt_far,
			    .llc_of = llc_0_15,
			    .nr_online = 16,
			    .online_cpus = all};

	/*
	 * 8 cores (leaders 0-7), size 3: round(8/3) = 3 shards, 8/3 = 2 cores,
	 * the first 8%3 = 2 shards 3: cores 0-2, 3-5, 6-7; the siblings 8-15
	 * follow their core.
	 */
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-2,8-10/0 3-5,11-13/0 6-7,14-15/0",
	       "siblings numbered 8 up follow their core");
	m.size = "8";
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-15/0", "8 cores, size 8: one shard of 16 CPUs");
	/* 8 cores, size 6: round(8/6) = 1 */
	m.size = "6";
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-15/0", "8 cores, size 6: 1.33 rounds to one shard");
	/* size 2: 4 shards of 2 cores */
	m.size = "2";
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-1,8-9/0 2-3,10-11/0 4-5,12-13/0 6-7,14-15/0",
	       "size 2: 4 shards of 2 cores");
}

static void nodes(void)
{
	struct machine m = {.possible = "0-11",
			    .online = "0-11",
			    .nodes = {"0:0-5", "1:", "2:6-11"},
			    .size = "4",
			    .smt_of = alone,
			    .llc_of = llc_halves,
			    .nr_online = 12,
			    .online_cpus = all};

	/* two LLCs of 6 cores on nodes 0 and 2, a CPU-less node 1: round(6/4) = 2 shards of 3 each */
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-2/0 3-5/0 6-8/2 9-11/2", "a CPU-less node between two LLCs");
	is_str(pods(WQ_SCOPE_CACHE), "0-5/0 6-11/2", "their cache pods");
}

static void offline(void)
{
	struct machine m = {.possible = "0-7",
			    .online = "0-5",
			    .nodes = {"0:0-7"},
			    .size = "3",
			    .smt_of = alone,
			    .llc_of = llc_0_5,
			    .nr_online = 6,
			    .online_cpus = all};

	/*
	 * CPUs 6-7 offline: no topology files, so each is its own core, and
	 * the cache pod they join is their node's (0-7, as the cache scope
	 * models them): 8 cores, size 3: 3+3+2.
	 */
	build(&m);
	is_str(pods(WQ_SCOPE_CACHE), "0-7/0", "offline CPUs in their node's cache pod");
	is_str(pods(WQ_SCOPE_CACHE_SHARD), "0-2/0 3-5/0 6-7/0", "offline CPUs count as cores of their own");
}

int main(void)
{
	for (int i = 0; i < 64; i++)
		all[i] = i;
	snprintf(dir, sizeof(dir), "/tmp/wqctl-test-topo.%d", (int)getpid());
	shards();
	smt_siblings_far();
	nodes();
	offline();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			return 2;
	}
	return tap_done();
}
