/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU and NUMA topology, and the affinity-scope pods derived from it
 * (doc/kernel.md §5). Read from the tree (any sysroot) or, live, nodes from libnuma.
 */
#ifndef WQ_TOPO_H
#define WQ_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include "cpuset.h"
#include "root.h"

/* Affinity scopes in the kernel's enum order, without "default". */
enum wq_scope {
	WQ_SCOPE_CPU,
	WQ_SCOPE_SMT,
	WQ_SCOPE_CACHE,
	WQ_SCOPE_CACHE_SHARD, /* 7.1+: parameters/cache_shard_size announces it */
	WQ_SCOPE_NUMA,
	WQ_SCOPE_SYSTEM,
	WQ_SCOPE_NR,
};

struct wq_node {
	int id;
	struct wq_cpuset *cpus;
};

struct wq_pod {
	struct wq_cpuset *cpus;
	int node; /* -1: spans nodes (NUMA_NO_NODE) */
};

struct wq_pods {
	int nr;
	struct wq_pod *pod;
	int16_t *cpu_pod; /* pod index of each possible CPU (nr_cpu_ids entries; -1 for others): wq_topo_pod_table() */
};

struct wq_topo {
	struct wq_cpuset *possible, *online, *isolated, *nohz_full;
	unsigned int nr_cpu_ids; /* highest possible CPU + 1 */
	int nr_nodes;
	struct wq_node *nodes; /* sorted by id; CPU-less nodes included */
	/*
	 * Node id of each possible CPU (nr_cpu_ids entries; -1: none). The
	 * per-CPU tables are int16_t: node ids stay below the kernel's
	 * MAX_NUMNODES (1 << NODES_SHIFT, at most 1,024) and pod indexes below
	 * the 8,192 CPUs, and at 8,192 CPUs a table is 4 pages, not 8. Built
	 * when asked (wq_topo_node_table()): a model that looks a CPU up per
	 * node or pod tests the 32 nodes' sets instead of faulting 4 pages in.
	 */
	int16_t *cpu_node;
	bool numa_from_libnuma;
	struct wq_pods pods[WQ_SCOPE_NR]; /* filled by wq_topo_pods() */
	bool pods_done[WQ_SCOPE_NR];
	signed char scope_same[WQ_SCOPE_NR]; /* check.c: 0 not yet, 1 same pods as its coarser scope, 2 not */
	/*
	 * parameters/cache_shard_size, read with the cache_shard pods or by
	 * wq_topo_has_cache_shard(): 0 not read yet, -1 absent (a kernel
	 * without the scope: its pods are modelled with the kernel's default
	 * 8), else the most cores per shard (a 0 the kernel forced to 1).
	 */
	long long cache_shard_size;
};

/*
 * Read the topology below root. use_libnuma takes the nodes from libnuma
 * (live only). Returns 0 or -errno; *why names the file that failed.
 */
int wq_topo_read(const struct wq_root *root, bool use_libnuma, struct wq_topo **out, char *why, int whysz);
void wq_topo_free(struct wq_topo *t);
/* Node of a CPU, or -1: from the table once built, else a test per node. */
int wq_topo_cpu_node(const struct wq_topo *t, unsigned int cpu);
/* The CPU-to-node table, for loops over every CPU (left out when memory is short: lookups test the nodes). */
void wq_topo_node_table(struct wq_topo *t);
/* The node with this id, or NULL. */
const struct wq_node *wq_topo_node(const struct wq_topo *t, int id);
/* Online CPUs that are not isolated (isolcpus=) nor nohz_full. 0 or -ENOMEM. */
int wq_topo_housekeeping(const struct wq_topo *t, struct wq_cpuset *out);
/*
 * Build the pods of one scope, or of every scope for -1, once each (needs
 * root for SMT and cache files). 0 or -errno; why names a file that cannot
 * be read (a missing one is not an error: the kernel's fallbacks apply).
 */
int wq_topo_pods(const struct wq_root *root, struct wq_topo *t, int scope, char *why, size_t whysz);
/* Scope s's CPU-to-pod table, built on the first call after its pods; NULL: no pods yet, or out of memory. */
const int16_t *wq_topo_pod_table(struct wq_topo *t, int s);
/* Why a kernel without parameters/cache_shard_size refuses the scope. */
#define WQ_NO_CACHE_SHARD                                                                                              \
	"this kernel has no such affinity scope: cache_shard exists from Linux 7.1 on (and in vendor kernels "         \
	"that carry it), where /sys/module/workqueue/parameters/cache_shard_size is present"

/*
 * Does this kernel have the cache_shard scope (parameters/cache_shard_size
 * exists)? Reads the size once; a value that is not a number counts as present.
 */
bool wq_topo_has_cache_shard(const struct wq_root *root, struct wq_topo *t);
/* The cores per cache_shard pod in force: the parameter, or the kernel's default 8 where it is absent. */
unsigned int wq_topo_cache_shard_size(const struct wq_topo *t);
const char *wq_scope_name(enum wq_scope s);
/* Scope by name, or -1. */
int wq_scope_from_name(const char *name);

#endif
