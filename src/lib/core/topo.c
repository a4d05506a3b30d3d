// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU and NUMA topology read from sysfs, and the pods of each affinity scope
 * built from it the way workqueue_init_topology() builds them.
 */
#define _GNU_SOURCE
#include "topo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/dl.h"
#include "../util/macro.h"

static const char *const scope_names[WQ_SCOPE_NR] = {
    [WQ_SCOPE_CPU] = "cpu",	[WQ_SCOPE_SMT] = "smt",
    [WQ_SCOPE_CACHE] = "cache", [WQ_SCOPE_CACHE_SHARD] = "cache_shard",
    [WQ_SCOPE_NUMA] = "numa",	[WQ_SCOPE_SYSTEM] = "system",
};

const int16_t *wq_topo_pod_table(struct wq_topo *t, int s)
{
	struct wq_pods *p = &t->pods[s];

	if (p->cpu_pod || !t->pods_done[s])
		return p->cpu_pod;
	/*
	 * 16 KB at 8,192 CPUs, from the heap: a block of every scope's tables
	 * (160 KB of int) was mapped and unmapped on its own. Without
	 * fastbins (main.c) freeing the tables apart makes no
	 * malloc_consolidate sweep.
	 */
	if (!(p->cpu_pod = malloc(sizeof(int16_t) * t->nr_cpu_ids)))
		return NULL;
	/* -1: no pod, for the CPUs that are not possible; the pods hold every possible CPU */
	wq_cpuset_store_absent(t->possible, p->cpu_pod, t->nr_cpu_ids, -1);
	for (int i = 0; i < p->nr; i++)
		wq_cpuset_store(p->pod[i].cpus, p->cpu_pod, t->nr_cpu_ids, (int16_t)i);
	return p->cpu_pod;
}

const char *wq_scope_name(enum wq_scope s)
{
	return s < WQ_SCOPE_NR ? scope_names[s] : NULL;
}

int wq_scope_from_name(const char *name)
{
	for (int i = 0; i < WQ_SCOPE_NR; i++)
		if (streq(name, scope_names[i]))
			return i;
	return -1;
}

/*
 * A cpumask the kernel never allocated prints through %*pbl / %*pb as
 * "(null)", right-aligned in a field nr_cpu_ids wide: nohz_full on kernels
 * built with CONFIG_NO_HZ_FULL=y and CONFIG_CPUMASK_OFFSTACK=y when the
 * command line has no nohz_full= (Debian's 6.1 and 6.12). It means no CPUs.
 */
static bool is_null_mask(const char *s)
{
	s += strspn(s, " \t");
	if (strncmp(s, "(null)", 6))
		return false;
	s += 6;
	return s[strspn(s, " \t\n")] == '\0';
}

/* Paths of per-CPU and per-node files, without snprintf (str_put): hundreds at 8,192 CPUs. */
static size_t put_num(char *buf, size_t pos, size_t size, unsigned int v)
{
	char d[WQ_UDEC_MAX];

	return str_put(buf, pos, size, udec(d + sizeof(d) - 1, v));
}

/* WQ_P_CPU "/cpuN/" TAIL, or with index >= 0 WQ_P_CPU "/cpuN/cache/indexK/" TAIL (TAIL NULL: no slash) */
static void cpu_path(char *buf, size_t size, int cpu, int index, const char *tail)
{
	size_t n = put_num(buf, str_put(buf, 0, size, WQ_P_CPU "/cpu"), size, (unsigned int)cpu);

	if (index >= 0)
		n = put_num(buf, str_put(buf, n, size, "/cache/index"), size, (unsigned int)index);
	if (tail)
		str_put(buf, str_put(buf, n, size, "/"), size, tail);
}

/* WQ_P_NODE "/" NAME "/" TAIL (TAIL NULL: no slash) */
static void node_path(char *buf, size_t size, const char *name, const char *tail)
{
	size_t n = str_put(buf, str_put(buf, 0, size, WQ_P_NODE "/"), size, name);

	if (tail)
		str_put(buf, str_put(buf, n, size, "/"), size, tail);
}

/*
 * A CPU file's text in buf, or, past size, in *heap: at 8,192 CPUs the
 * topology reads a list for every node and cache, and a block from malloc
 * for each cost more than the list's parse.
 */
static int read_text(const struct wq_root *root, const char *rel, char *buf, size_t size, char **heap, const char **out)
{
	int r = wq_root_read_buf(root, rel, buf, size);

	if (r >= 0) {
		*out = buf;
		return 0;
	}
	if (r != -EOVERFLOW)
		return r;
	r = wq_root_read(root, rel, heap);
	if (r == 0)
		*out = *heap;
	return r;
}

/* Read a CPU list file, or its hex twin when only the map exists. */
static int read_cpus(const struct wq_root *root, const char *list, const char *map, struct wq_cpuset *out)
{
	_cleanup_free_ char *heap = NULL;
	char buf[4096];
	const char *s = "";
	int r;

	if (list) {
		r = read_text(root, list, buf, sizeof(buf), &heap, &s);
		if (r == 0) {
			if (is_null_mask(s)) {
				wq_cpuset_zero(out);
				return 0;
			}
			r = wq_cpuset_parse_list(out, s);
			return r == -EINVAL ? -WQ_EBADCPUS : r;
		}
		if (r != -ENOENT || !map)
			return r;
	}
	if (!map)
		return -ENOENT;
	r = read_text(root, map, buf, sizeof(buf), &heap, &s);
	if (r < 0)
		return r;
	if (is_null_mask(s)) {
		wq_cpuset_zero(out);
		return 0;
	}
	r = wq_cpuset_parse_hex(out, s);
	return r == -EINVAL ? -WQ_EBADCPUS : r;
}

/*
 * As read_cpus, for files with a fallback (a node's CPU links, a pod's
 * kernel default): a missing file (-ENOENT) leaves the caller to fall back;
 * any other failure names the file in why, so that a broken file is
 * reported instead of silently giving other nodes or pods.
 */
static int read_group(const struct wq_root *root, const char *list, const char *map, struct wq_cpuset *out, char *why,
		      size_t whysz)
{
	int r = read_cpus(root, list, map, out);
	struct stat st;

	if (r < 0 && r != -ENOENT)
		snprintf(why, whysz, "%s", wq_root_stat(root, list, &st) != -ENOENT ? list : map);
	return r;
}

static int read_cpu_file(const struct wq_root *root, const char *name, struct wq_cpuset *out, bool optional)
{
	char path[128];
	int r;

	snprintf(path, sizeof(path), WQ_P_CPU "/%s", name);
	r = read_cpus(root, path, NULL, out);
	if (r == -ENOENT && optional) {
		wq_cpuset_zero(out);
		return 0;
	}
	return r;
}

static int node_cmp(const void *a, const void *b)
{
	const struct wq_node *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int add_node(struct wq_topo *t, int id, struct wq_cpuset *cpus)
{
	int nr = t->nr_nodes;

	/* room for 4, then doubling at each power of two: 32 nodes, 4 reallocations */
	if (nr == 0 || (nr >= 4 && !(nr & (nr - 1)))) {
		struct wq_node *n = realloc(t->nodes, sizeof(*n) * (size_t)(nr ? 2 * nr : 4));

		if (!n)
			return -ENOMEM;
		t->nodes = n;
	}
	t->nodes[t->nr_nodes].id = id;
	t->nodes[t->nr_nodes].cpus = cpus;
	t->nr_nodes++;
	return 0;
}

static int nodes_from_tree(const struct wq_root *root, struct wq_topo *t, char *why, size_t whysz)
{
	_cleanup_closedir_ DIR *d = wq_root_opendir(root, WQ_P_NODE);
	struct dirent *de;
	int r;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		char list[320], map[320], *end;
		struct wq_cpuset *cpus;
		long id;

		if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		id = strtol(de->d_name + 4, &end, 10);
		if (*end || id > INT16_MAX) /* the int16_t CPU-to-node table; MAX_NUMNODES is at most 1,024 */
			continue;
		node_path(list, sizeof(list), de->d_name, "cpulist");
		node_path(map, sizeof(map), de->d_name, "cpumap");
		cpus = wq_cpuset_new();
		if (!cpus)
			return -ENOMEM;
		r = read_group(root, list, map, cpus, why, whysz);
		if (r == -ENOENT) {
			/* Neither file: fall back to the nodeN/cpuM links. */
			_cleanup_closedir_ DIR *nd = NULL;
			struct dirent *ce;
			char dir[320];

			node_path(dir, sizeof(dir), de->d_name, NULL);
			nd = wq_root_opendir(root, dir);
			r = nd ? 0 : -errno;
			while (nd && (ce = readdir(nd))) {
				if (!strncmp(ce->d_name, "cpu", 3) && isdigit((unsigned char)ce->d_name[3])) {
					r = wq_cpuset_set(cpus, (unsigned int)atoi(ce->d_name + 3));
					if (r < 0)
						break;
				}
			}
		}
		if (r < 0 || (r = add_node(t, (int)id, cpus)) < 0) {
			wq_cpuset_free(cpus);
			return r;
		}
	}
	return 0;
}

static int nodes_from_libnuma(struct wq_topo *t)
{
	const struct wq_libnuma *N = wq_libnuma();
	struct bitmask *bm;
	int max, r = 0;

	if (!N)
		return -ELIBACC; /* the caller reads the tree instead */
	if (N->numa_available() < 0)
		return 0; /* no NUMA: the caller makes one node */
	max = N->numa_max_node();
	bm = N->numa_allocate_cpumask();
	if (!bm)
		return -ENOMEM;
	for (int n = 0; n <= max && r == 0; n++) {
		struct wq_cpuset *cpus;

		if (!N->numa_bitmask_isbitset(*N->numa_all_nodes_ptr, (unsigned int)n) &&
		    !N->numa_bitmask_isbitset(*N->numa_nodes_ptr, (unsigned int)n))
			continue;
		if (N->numa_node_to_cpus(n, bm) < 0)
			continue;
		cpus = wq_cpuset_new();
		if (!cpus) {
			r = -ENOMEM;
			break;
		}
		for (unsigned int c = 0; c < bm->size && r == 0; c++)
			if (N->numa_bitmask_isbitset(bm, c))
				r = wq_cpuset_set(cpus, c);
		if (r == 0)
			r = add_node(t, n, cpus);
		if (r < 0)
			wq_cpuset_free(cpus);
	}
	N->numa_free_cpumask(bm);
	t->numa_from_libnuma = true;
	return r;
}

int wq_topo_read(const struct wq_root *root, bool use_libnuma, struct wq_topo **out, char *why, int whysz)
{
	struct wq_topo *t = calloc(1, sizeof(*t));
	int r, last;

	if (!t) {
		free(t);
		return -ENOMEM;
	}
	t->possible = wq_cpuset_new();
	t->online = wq_cpuset_new();
	t->isolated = wq_cpuset_new();
	t->nohz_full = wq_cpuset_new();
	if (!t->possible || !t->online || !t->isolated || !t->nohz_full) {
		r = -ENOMEM;
		goto fail;
	}
	snprintf(why, (size_t)whysz, WQ_P_CPU "/possible");
	r = read_cpu_file(root, "possible", t->possible, false);
	if (r == 0 && wq_cpuset_is_empty(t->possible))
		r = -ENODATA;
	if (r < 0)
		goto fail;
	snprintf(why, (size_t)whysz, WQ_P_CPU "/online");
	r = read_cpu_file(root, "online", t->online, true);
	if (r < 0)
		goto fail;
	if (!wq_root_exists(root, WQ_P_CPU "/online"))
		wq_cpuset_copy(t->online, t->possible);
	if (!wq_cpuset_subset(t->online, t->possible)) {
		/* The kernel's online mask is within possible; a tree that says otherwise is broken. */
		snprintf(why, (size_t)whysz, WQ_P_CPU "/online");
		r = -WQ_ENOTPOSSIBLE;
		goto fail;
	}
	/* the kernel's isolated and nohz_full CPUs are possible ones too (issue 60 item 15) */
	snprintf(why, (size_t)whysz, WQ_P_CPU "/isolated");
	r = read_cpu_file(root, "isolated", t->isolated, true);
	if (r == 0 && !wq_cpuset_subset(t->isolated, t->possible))
		r = -WQ_ENOTPOSSIBLE;
	if (r < 0)
		goto fail;
	snprintf(why, (size_t)whysz, WQ_P_CPU "/nohz_full");
	r = read_cpu_file(root, "nohz_full", t->nohz_full, true);
	if (r == 0 && !wq_cpuset_subset(t->nohz_full, t->possible))
		r = -WQ_ENOTPOSSIBLE;
	if (r < 0)
		goto fail;
	last = wq_cpuset_last(t->possible);
	t->nr_cpu_ids = (unsigned int)last + 1;

	snprintf(why, (size_t)whysz, WQ_P_NODE);
	r = use_libnuma ? nodes_from_libnuma(t) : -ELIBACC;
	if (r == -ELIBACC)
		r = nodes_from_tree(root, t, why, (size_t)whysz);
	if (r < 0)
		goto fail;
	if (t->nr_nodes == 0) {
		/* No node directory (or no NUMA): one node 0 holds every CPU. */
		struct wq_cpuset *all = wq_cpuset_dup(t->possible);

		if (!all || add_node(t, 0, all) < 0) {
			wq_cpuset_free(all);
			r = -ENOMEM;
			goto fail;
		}
	}
	qsort(t->nodes, (size_t)t->nr_nodes, sizeof(*t->nodes), node_cmp);
	why[0] = '\0';
	*out = t;
	return 0;
fail:
	wq_topo_free(t);
	return r;
}

static void pods_free(struct wq_pods *p)
{
	for (int i = 0; i < p->nr; i++)
		wq_cpuset_free(p->pod[i].cpus);
	free(p->pod);
	free(p->cpu_pod);
	p->pod = NULL;
	p->cpu_pod = NULL;
	p->nr = 0;
}

void wq_topo_free(struct wq_topo *t)
{
	if (!t)
		return;
	wq_cpuset_free(t->possible);
	wq_cpuset_free(t->online);
	wq_cpuset_free(t->isolated);
	wq_cpuset_free(t->nohz_full);
	for (int i = 0; i < t->nr_nodes; i++)
		wq_cpuset_free(t->nodes[i].cpus);
	free(t->nodes);
	free(t->cpu_node);
	for (int i = 0; i < WQ_SCOPE_NR; i++)
		pods_free(&t->pods[i]);
	free(t);
}

void wq_topo_node_table(struct wq_topo *t)
{
	_cleanup_cpuset_ struct wq_cpuset *in_node = wq_cpuset_new(); /* CPUs of some node */

	if (t->cpu_node || !in_node || !(t->cpu_node = malloc(sizeof(*t->cpu_node) * t->nr_cpu_ids)))
		return;
	/* from the highest node down: a CPU a broken tree puts in two nodes stays in the lower one, as in the loop */
	for (int i = t->nr_nodes - 1; i >= 0; i--) {
		wq_cpuset_store(t->nodes[i].cpus, t->cpu_node, t->nr_cpu_ids, (int16_t)t->nodes[i].id);
		if (wq_cpuset_or(in_node, t->nodes[i].cpus) < 0) {
			free(t->cpu_node);
			t->cpu_node = NULL;
			return;
		}
	}
	/* -1: in no node (the table's other entries, not all 8,192 set first) */
	wq_cpuset_store_absent(in_node, t->cpu_node, t->nr_cpu_ids, -1);
}

int wq_topo_cpu_node(const struct wq_topo *t, unsigned int cpu)
{
	if (t->cpu_node && cpu < t->nr_cpu_ids)
		return t->cpu_node[cpu];
	for (int i = 0; i < t->nr_nodes; i++)
		if (wq_cpuset_test(t->nodes[i].cpus, cpu))
			return t->nodes[i].id;
	return -1;
}

const struct wq_node *wq_topo_node(const struct wq_topo *t, int id)
{
	/* sorted by id: without gaps in the ids, node id is at index id */
	if (id >= 0 && id < t->nr_nodes && t->nodes[id].id == id)
		return &t->nodes[id];
	for (int i = 0; i < t->nr_nodes; i++)
		if (t->nodes[i].id == id)
			return &t->nodes[i];
	return NULL;
}

int wq_topo_housekeeping(const struct wq_topo *t, struct wq_cpuset *out)
{
	int r = wq_cpuset_copy(out, t->online);

	if (r < 0)
		return r;
	wq_cpuset_andnot(out, t->isolated);
	wq_cpuset_andnot(out, t->nohz_full);
	return 0;
}

/* A cache level file: 1 to 9, or -1. */
static int level_of(const char *s)
{
	return s[0] >= '1' && s[0] <= '9' && !s[1] ? s[0] - '0' : -1;
}

/* indexK of a cache directory: bit K of *data (a leaf may be missing: cacheinfo's disable_sysfs) */
static void add_leaf(const char *name, void *data)
{
	char *end;
	long k;

	if (strncmp(name, "index", 5))
		return;
	k = strtol(name + 5, &end, 10);
	if (end != name + 5 && !*end && k >= 0 && k < 64)
		*(unsigned long long *)data |= 1ULL << k;
}

/*
 * The level of each of leaves (-1: none), or -EAGAIN when the leaves are
 * another CPU's (!own) and do not fit this one: one of them is missing, or
 * it has the index past them.
 */
static int leaf_levels(const struct wq_root *root, int cpu, unsigned long long leaves, bool own, signed char levels[64],
		       char *why, size_t whysz)
{
	char path[128], buf[32];

	for (int k = 0; k < 64; k++) {
		int level, r;

		levels[k] = -1;
		if (!(leaves & (1ULL << k)))
			continue;
		cpu_path(path, sizeof(path), cpu, k, "level");
		r = wq_root_read_buf(root, path, buf, sizeof(buf));
		if (r == -ENOENT && !own)
			return -EAGAIN;
		if (r == -ENOENT)
			continue;
		if (r < 0 || (level = level_of(buf)) < 0) {
			snprintf(why, whysz, "%s", path);
			return r < 0 ? r : -EINVAL;
		}
		levels[k] = (signed char)level; /* level_of(): one digit */
	}
	if (own)
		return 0;
	/*
	 * This CPU may have a leaf the other left out: the index past them,
	 * and any index in a gap between them (cacheinfo skips a leaf whose
	 * sysfs is disabled), which costs a failed open only where there is a
	 * gap.
	 */
	for (int k = 0; k < 64; k++) {
		if (leaves & (1ULL << k))
			continue;
		if (k > 0 && !(leaves >> k) && !(leaves & (1ULL << (k - 1))))
			break; /* past the index after the last leaf */
		cpu_path(path, sizeof(path), cpu, k, "level");
		if (wq_root_read_buf(root, path, buf, sizeof(buf)) != -ENOENT)
			return -EAGAIN;
	}
	return 0;
}

/*
 * The last-level cache siblings of a CPU: the highest cache level it has.
 * *tmpl holds the leaves of the first CPU, from a listing of its cache
 * directory (cacheinfo may leave an index out). Every CPU of the machines
 * seen has the same ones, so another CPU's are read without a listing,
 * and the index past them is tried: a failed open where a listing costs
 * four system calls a node. If they do not fit, its own directory is
 * listed after all.
 */
static int llc_siblings(const struct wq_root *root, int cpu, unsigned long long *tmpl, struct wq_cpuset *out, char *why,
			size_t whysz)
{
	signed char levels[64];
	int r = *tmpl ? leaf_levels(root, cpu, *tmpl, false, levels, why, whysz) : -EAGAIN;

	wq_cpuset_zero(out);
	if (r == -EAGAIN) {
		unsigned long long leaves = 0;
		char path[128];

		cpu_path(path, sizeof(path), cpu, -1, "cache");
		wq_root_each_name(root, path, add_leaf, &leaves);
		if (!*tmpl)
			*tmpl = leaves;
		r = leaf_levels(root, cpu, leaves, true, levels, why, whysz);
	}
	if (r < 0)
		return r;
	/* from the highest level down, the first leaf whose CPU list can be read */
	for (;;) {
		char list[128], map[128];
		int k = -1;

		for (int i = 0; i < 64; i++)
			if (levels[i] >= 0 && (k < 0 || levels[i] > levels[k]))
				k = i;
		if (k < 0)
			break;
		cpu_path(list, sizeof(list), cpu, k, "shared_cpu_list");
		cpu_path(map, sizeof(map), cpu, k, "shared_cpu_map");
		r = read_group(root, list, map, out, why, whysz);
		if (r == 0)
			return 0;
		if (r != -ENOENT)
			return r;
		levels[k] = -1;
	}
	return -ENOENT;
}

static int group_of(const struct wq_root *root, const struct wq_topo *t, enum wq_scope scope, int cpu,
		    unsigned long long *leaves, struct wq_cpuset *g, char *why, size_t whysz)
{
	char list[128], map[128];
	const struct wq_node *n;
	int r;

	wq_cpuset_zero(g);
	switch (scope) {
	case WQ_SCOPE_CPU: return wq_cpuset_set(g, (unsigned int)cpu);
	case WQ_SCOPE_SMT:
		cpu_path(list, sizeof(list), cpu, -1, "topology/thread_siblings_list");
		cpu_path(map, sizeof(map), cpu, -1, "topology/thread_siblings");
		r = read_group(root, list, map, g, why, whysz);
		if (r < 0 && r != -ENOENT)
			return r;
		if (r < 0 || wq_cpuset_is_empty(g))
			return wq_cpuset_set(g, (unsigned int)cpu);
		return 0;
	case WQ_SCOPE_CACHE:
		n = wq_topo_node(t, wq_topo_cpu_node(t, (unsigned int)cpu));
		r = llc_siblings(root, cpu, leaves, g, why, whysz);
		if (r < 0 && r != -ENOENT)
			return r;
		if (r < 0) {
			/* No cache files: the package if it stays in the node, else the node. */
			cpu_path(list, sizeof(list), cpu, -1, "topology/core_siblings_list");
			cpu_path(map, sizeof(map), cpu, -1, "topology/core_siblings");
			r = read_group(root, list, map, g, why, whysz);
			if (r < 0 && r != -ENOENT)
				return r;
			if ((r < 0 || (n && !wq_cpuset_subset(g, n->cpus))) && n)
				return wq_cpuset_copy(g, n->cpus);
		} else if (n) {
			/* The LLC sched domain never crosses a node. */
			wq_cpuset_and(g, n->cpus);
		}
		if (wq_cpuset_is_empty(g))
			return wq_cpuset_set(g, (unsigned int)cpu);
		return 0;
	case WQ_SCOPE_NUMA:
		n = wq_topo_node(t, wq_topo_cpu_node(t, (unsigned int)cpu));
		if (n)
			return wq_cpuset_copy(g, n->cpus);
		return wq_cpuset_set(g, (unsigned int)cpu);
	case WQ_SCOPE_SYSTEM:
	default: return wq_cpuset_copy(g, t->possible);
	}
}

/* The kernel's default cores per cache_shard pod (wq_cache_shard_size). */
#define CACHE_SHARD_SIZE_DFL 8U

/* parameters/cache_shard_size into t->cache_shard_size, once. 0, or -errno (-EINVAL: not a number). */
static int read_cache_shard_size(const struct wq_root *root, struct wq_topo *t)
{
	char buf[32], *end;
	unsigned long v;
	int r;

	if (t->cache_shard_size)
		return 0;
	r = wq_root_read_buf(root, WQ_P_PARAMS "/cache_shard_size", buf, sizeof(buf));
	if (r == -ENOENT) {
		t->cache_shard_size = -1;
		return 0;
	}
	if (r < 0)
		return r;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (end == buf || *end || errno || v > UINT_MAX || buf[0] == '-')
		return -EINVAL;
	/* workqueue_init_topology() turns a 0 given at boot into 1, and the file then reads 1 */
	t->cache_shard_size = v ? (long long)v : 1;
	return 0;
}

bool wq_topo_has_cache_shard(const struct wq_root *root, struct wq_topo *t)
{
	int r = read_cache_shard_size(root, t);

	return r == -EINVAL || (r == 0 && t->cache_shard_size > 0);
}

unsigned int wq_topo_cache_shard_size(const struct wq_topo *t)
{
	return t->cache_shard_size > 0 ? (unsigned int)t->cache_shard_size : CACHE_SHARD_SIZE_DFL;
}

/*
 * The shard of each CPU inside its cache pod (precompute_cache_shard_ids(),
 * 7.1+): a pod's cores are its CPUs that come first in their smt pod; they
 * are dealt, in CPU order, into max(1, round(cores / size)) shards, the first
 * cores % shards of them one core larger; a CPU that is not the first of its
 * smt pod takes the shard of the one that is.
 */
static void shard_ids(struct wq_topo *t, const int16_t *smt_pod, const int *smt_first, unsigned int size, int *id)
{
	const struct wq_pods *cache = &t->pods[WQ_SCOPE_CACHE];

	for (int i = 0; i < cache->nr; i++) {
		const struct wq_cpuset *pc = cache->pod[i].cpus;
		unsigned int cores = 0, shards, base, large, in_shard = 0, shard = 0;

		wq_cpuset_for_each (cpu, pc)
			cores += smt_first[smt_pod[cpu]] == cpu;
		/* DIV_ROUND_CLOSEST() of an int by an unsigned int: unsigned arithmetic */
		shards = (cores + size / 2) / size;
		if (shards < 1)
			shards = 1;
		base = cores / shards;
		large = cores % shards;
		wq_cpuset_for_each (cpu, pc) {
			int first = smt_first[smt_pod[cpu]];

			if (first != cpu) {
				id[cpu] =
				    id[first]; /* a leader in a later pod has not been dealt yet: 0, as in the kernel */
				continue;
			}
			if (in_shard == (shard < large ? base + 1 : base)) {
				shard++;
				in_shard = 0;
			}
			in_shard++;
			id[cpu] = (int)shard;
		}
	}
}

/*
 * The cache_shard pods: init_pod_type() with cpus_share_cache_shard(), two
 * CPUs in one pod when they share the cache pod and the shard. Pods are
 * numbered by their first CPU, as for every scope.
 */
static int build_cache_shard(const struct wq_root *root, struct wq_topo *t, char *why, size_t whysz)
{
	struct wq_pods *p = &t->pods[WQ_SCOPE_CACHE_SHARD];
	const struct wq_pods *smt = &t->pods[WQ_SCOPE_SMT], *cache = &t->pods[WQ_SCOPE_CACHE];
	_cleanup_free_ int *smt_first = NULL, *id = NULL, *base = NULL, *key_pod = NULL;
	const int16_t *smt_pod, *cache_pod;
	int r, nkeys = 0;

	if ((r = wq_topo_pods(root, t, WQ_SCOPE_SMT, why, whysz)) < 0 ||
	    (r = wq_topo_pods(root, t, WQ_SCOPE_CACHE, why, whysz)) < 0)
		return r;
	if ((r = read_cache_shard_size(root, t)) < 0) {
		snprintf(why, whysz, "%s", WQ_P_PARAMS "/cache_shard_size");
		return r;
	}
	if (!(smt_pod = wq_topo_pod_table(t, WQ_SCOPE_SMT)) || !(cache_pod = wq_topo_pod_table(t, WQ_SCOPE_CACHE)))
		return -ENOMEM;
	smt_first = malloc(sizeof(int) * (size_t)(smt->nr ? smt->nr : 1));
	id = calloc(t->nr_cpu_ids ? t->nr_cpu_ids : 1, sizeof(int));
	base = malloc(sizeof(int) * (size_t)(cache->nr + 1));
	if (!smt_first || !id || !base)
		return -ENOMEM;
	for (int i = 0; i < smt->nr; i++)
		smt_first[i] = wq_cpuset_next(smt->pod[i].cpus, 0);
	shard_ids(t, smt_pod, smt_first, wq_topo_cache_shard_size(t), id);
	/* a key per (cache pod, shard): each cache pod's keys run up to its highest shard id */
	for (int i = 0; i < cache->nr; i++) {
		int top = 0;

		wq_cpuset_for_each (cpu, cache->pod[i].cpus)
			if (id[cpu] > top)
				top = id[cpu];
		base[i] = nkeys;
		nkeys += top + 1;
	}
	if (!(key_pod = malloc(sizeof(int) * (size_t)(nkeys ? nkeys : 1))))
		return -ENOMEM;
	for (int k = 0; k < nkeys; k++)
		key_pod[k] = -1;
	wq_cpuset_for_each (cpu, t->possible) {
		int cp = cache_pod[cpu], *pod;

		if (cp < 0)
			continue; /* every possible CPU has a cache pod */
		pod = &key_pod[base[cp] + id[cpu]];
		if (*pod < 0) {
			struct wq_pod *np = realloc(p->pod, sizeof(*np) * (size_t)(p->nr + 1));

			if (!np)
				return -ENOMEM;
			p->pod = np;
			p->pod[p->nr].node = -2;
			if (!(p->pod[p->nr].cpus = wq_cpuset_new()))
				return -ENOMEM;
			*pod = p->nr++;
		}
		if ((r = wq_cpuset_set(p->pod[*pod].cpus, (unsigned int)cpu)) < 0)
			return r;
	}
	return 0;
}

/*
 * The pods of one scope, as init_pod_type(): a CPU joins the pod of the
 * first lower possible CPU it shares with, else opens a new pod.
 */
static int build_scope(const struct wq_root *root, struct wq_topo *t, int s, struct wq_cpuset *todo,
		       struct wq_cpuset *g, char *why, size_t whysz)
{
	struct wq_pods *p = &t->pods[s];
	unsigned long long leaves = 0; /* the cache leaves of the first CPU (llc_siblings) */
	int r, cpu;

	if ((r = wq_cpuset_copy(todo, t->possible)) < 0)
		return r;
	for (cpu = wq_cpuset_next(todo, 0); cpu >= 0; cpu = wq_cpuset_next(todo, (unsigned int)cpu + 1)) {
		struct wq_pod *pod;
		int first, i;

		if ((r = group_of(root, t, (enum wq_scope)s, cpu, &leaves, g, why, whysz)) < 0)
			return r;
		wq_cpuset_and(g, t->possible);
		first = wq_cpuset_next(g, 0);
		/*
		 * A lower CPU of the group already has its pod: only where
		 * sibling lists disagree (a group is symmetric, so its CPUs
		 * join together below). Its pod is found from the last one
		 * down, as the pods have no CPU table yet.
		 */
		i = -1;
		if (first >= 0 && first < cpu) {
			i = p->nr - 1;
			while (i >= 0 && !wq_cpuset_test(p->pod[i].cpus, (unsigned int)first))
				i--;
		}
		if (i < 0) {
			struct wq_pod *np = realloc(p->pod, sizeof(*np) * (size_t)(p->nr + 1));

			if (!np)
				return -ENOMEM;
			p->pod = np;
			p->pod[p->nr].cpus = wq_cpuset_new();
			p->pod[p->nr].node = -2;
			if (!p->pod[p->nr].cpus)
				return -ENOMEM;
			i = p->nr++;
		}
		/*
		 * Sharing a pod is symmetric (siblings lists, LLC ids): the
		 * unplaced CPUs of this group join it without reading files.
		 */
		pod = &p->pod[i];
		wq_cpuset_and(g, todo);
		if ((r = wq_cpuset_set(g, (unsigned int)cpu)) < 0 || (r = wq_cpuset_or(pod->cpus, g)) < 0)
			return r;
		wq_cpuset_andnot(todo, g);
	}
	return 0;
}

/* A pod lies in one node when it is a subset of its first CPU's node. */
static void pods_nodes(struct wq_topo *t, int s)
{
	struct wq_pods *p = &t->pods[s];

	for (int i = 0; i < p->nr; i++) {
		int cn = wq_topo_cpu_node(t, (unsigned int)wq_cpuset_next(p->pod[i].cpus, 0));
		const struct wq_node *n = wq_topo_node(t, cn);

		p->pod[i].node = s != WQ_SCOPE_SYSTEM && n && wq_cpuset_subset(p->pod[i].cpus, n->cpus) ? cn : -1;
	}
}

int wq_topo_pods(const struct wq_root *root, struct wq_topo *t, int scope, char *why, size_t whysz)
{
	_cleanup_cpuset_ struct wq_cpuset *todo = NULL;
	_cleanup_cpuset_ struct wq_cpuset *g = NULL;

	for (int s = 0; s < WQ_SCOPE_NR; s++) {
		int r;

		if ((scope >= 0 && s != scope) || t->pods_done[s])
			continue;
		/* the scratch sets only for a scope not built yet: most calls find theirs built */
		if (!todo && (!(todo = wq_cpuset_new()) || !(g = wq_cpuset_new())))
			return -ENOMEM;
		r = s == WQ_SCOPE_CACHE_SHARD ? build_cache_shard(root, t, why, whysz)
					      : build_scope(root, t, s, todo, g, why, whysz);
		if (r < 0) {
			pods_free(&t->pods[s]);
			return r;
		}
		pods_nodes(t, s);
		t->pods_done[s] = true;
	}
	return 0;
}
