// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump: a copy of everything wqctl reads (workqueue attributes, module
 * parameters, CPU and node topology, the release, the command line, mounts,
 * owner devices with their links, node walks and udev records) into a
 * directory that --sysroot reads elsewhere, links kept relative.
 */
#define _GNU_SOURCE
#include "dump.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/macro.h"
#include "owner.h"
#include "rescuer.h"
#include "root.h"
#include "wq.h"

struct dump {
	struct wq_ctx *ctx;
	const char *out;
	struct wq_root *outroot; /* DIR as a root: links already in it resolve inside it */
	int files, errors;
	/*
	 * each file written, by its path in DIR: a file reached by two paths (a
	 * link) or written twice counts once, by its inode at the end
	 */
	char **rels;
	size_t nrels, cap;
};

static int cmp_ino(const void *a, const void *b)
{
	const ino_t x = *(const ino_t *)a, y = *(const ino_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct files written: their inodes now, sorted, equal ones counted once; -1 without memory. */
static int distinct_files(struct dump *d)
{
	ino_t *v = calloc(d->nrels + 1, sizeof(*v));
	size_t n = 0, k = 0;
	struct stat st;

	if (!v)
		return -1;
	for (size_t i = 0; i < d->nrels; i++)
		if (wq_root_stat(d->outroot, d->rels[i], &st) == 0)
			v[k++] = st.st_ino;
	qsort(v, k, sizeof(*v), cmp_ino);
	for (size_t i = 0; i < k; i++)
		n += !i || v[i] != v[i - 1];
	free(v);
	return (int)n;
}

static void fill_data(FILE *f, const void *data)
{
	fprintf(f, "%s\n", (const char *)data);
}

/* mkdir -p of rel's directory inside DIR. 0 or -errno. */
static int out_parent(struct dump *d, const char *rel)
{
	_cleanup_free_ char *dir = strdup(rel);
	char *slash = dir ? strrchr(dir, '/') : NULL;

	if (!dir)
		return -ENOMEM;
	if (!slash)
		return 0;
	*slash = '\0';
	return wq_root_mkdirs(d->outroot, dir);
}

/* Copy one file below the root into the dump, keeping its permission bits. */
/* A file written into DIR: counted, and its path kept (a file reached by two paths counts once). */
static void written(struct dump *d, const char *rel)
{
	d->files++;
	if (d->nrels == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 1024;
		char **v = realloc(d->rels, cap * sizeof(*v));

		if (!v)
			return;
		d->rels = v;
		d->cap = cap;
	}
	if ((d->rels[d->nrels] = strdup(rel)))
		d->nrels++;
}

static void copy_file(struct dump *d, const char *rel)
{
	struct wq_root *root = d->ctx->root;
	_cleanup_free_ char *data = NULL;
	_cleanup_free_ char *dst = NULL;
	struct stat st;
	int r;

	if (wq_root_stat(root, rel, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	/* Unreadable noise (power/..., write-only files) is skipped, not fatal. */
	if (wq_root_read(root, rel, &data) < 0)
		return;
	/* replaced by rename, never written through a link or into a FIFO already in DIR */
	r = out_parent(d, rel);
	if (r == 0)
		r = wq_root_replace(d->outroot, rel, st.st_mode & 0777, fill_data, data);
	if (r == 0) {
		written(d, rel);
		return;
	}
	if (asprintf(&dst, "%s/%s", d->out, rel) < 0)
		dst = NULL;
	wq_log(d->ctx, WQ_LOG_ERR, "%s: cannot write: %s", dst ? dst : rel, wq_strerror(-r));
	d->errors++;
}

/* Copy the regular files of a directory; recurse into subdirectories that keep() accepts. */
static void copy_dir(struct dump *d, const char *rel, bool (*keep)(const char *rel, const char *name, bool dir))
{
	_cleanup_closedir_ DIR *dir = wq_root_opendir(d->ctx->root, rel);
	struct dirent *de;

	while (dir && (de = readdir(dir))) {
		_cleanup_free_ char *sub = NULL;
		struct stat st;

		if (de->d_name[0] == '.' || asprintf(&sub, "%s/%s", rel, de->d_name) < 0)
			continue;
		if (wq_root_stat(d->ctx->root, sub, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && de->d_type == DT_DIR) {
			if (keep(rel, de->d_name, true))
				copy_dir(d, sub, keep);
		} else if (S_ISREG(st.st_mode) && keep(rel, de->d_name, false)) {
			copy_file(d, sub);
		}
	}
}

static bool keep_wq(const char *rel, const char *name, bool dir)
{
	(void)rel;
	return dir ? strcmp(name, "power") != 0 : strcmp(name, "uevent") != 0;
}

static bool keep_all(const char *rel, const char *name, bool dir)
{
	(void)rel;
	(void)name;
	return !dir;
}

static bool is_numbered(const char *name, const char *prefix)
{
	size_t l = strlen(prefix);

	return !strncmp(name, prefix, l) && isdigit((unsigned char)name[l]);
}

static bool keep_cpu(const char *rel, const char *name, bool dir)
{
	static const char *const top[] = {"possible", "online",	   "present",	"offline",
					  "isolated", "nohz_full", "kernel_max"};
	const char *last = strrchr(rel, '/') + 1;

	if (!strcmp(rel, WQ_P_CPU)) {
		if (dir)
			return is_numbered(name, "cpu");
		for (size_t i = 0; i < ARRAY_SIZE(top); i++)
			if (!strcmp(name, top[i]))
				return true;
		return false;
	}
	if (is_numbered(last, "cpu"))
		return dir && (!strcmp(name, "topology") || !strcmp(name, "cache"));
	if (!strcmp(last, "cache"))
		return dir && is_numbered(name, "index");
	return !dir; /* files of topology/ and cache/indexN/ */
}

static bool keep_node(const char *rel, const char *name, bool dir)
{
	if (!strcmp(rel, WQ_P_NODE))
		return dir ? is_numbered(name, "node") : !strcmp(name, "online") || !strcmp(name, "possible");
	return !dir && (!strcmp(name, "cpulist") || !strcmp(name, "cpumap"));
}

/* Recreate a symlink of the tree in the dump, with the same (relative) target. */
static void copy_link(struct dump *d, const char *rel)
{
	_cleanup_free_ char *dst = NULL;
	char target[512];
	int r;

	if (wq_root_readlink(d->ctx->root, rel, target, sizeof(target)) < 0)
		return;
	r = out_parent(d, rel);
	if (r == 0)
		r = wq_root_symlink(d->outroot, target, rel);
	if (r < 0) {
		if (asprintf(&dst, "%s/%s", d->out, rel) < 0)
			dst = NULL;
		wq_log(d->ctx, WQ_LOG_ERR, "%s: cannot create link: %s", dst ? dst : rel, wq_strerror(-r));
		d->errors++;
	}
}

/* The numa_node files from a device directory up to sys/devices: what the owner's node is read from. */
static void copy_node_walk(struct dump *d, const char *dir)
{
	char path[600];

	snprintf(path, sizeof(path), "%s", dir);
	while (!strncmp(path, "sys/devices/", 12)) {
		char f[640];
		char *slash;

		snprintf(f, sizeof(f), "%s/numa_node", path);
		copy_file(d, f);
		slash = strrchr(path, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
}

/* Links below rel (a directory) and the numa_node walks of their targets. */
static void copy_links_in(struct dump *d, const char *rel, const char *prefix)
{
	_cleanup_closedir_ DIR *dir = wq_root_opendir(d->ctx->root, rel);
	struct dirent *de;

	while (dir && (de = readdir(dir))) {
		_cleanup_free_ char *sub = NULL;
		struct wq_owner_info tmp;

		if (de->d_name[0] == '.' || (prefix && strncmp(de->d_name, prefix, strlen(prefix))) ||
		    asprintf(&sub, "%s/%s", rel, de->d_name) < 0)
			continue;
		copy_link(d, sub);
		memset(&tmp, 0, sizeof(tmp));
		if (wq_owner_link_target(d->ctx, sub, tmp.devpath, sizeof(tmp.devpath)) < 0)
			continue;
		copy_node_walk(d, tmp.devpath);
		if (prefix && !strcmp(prefix, "connection")) {
			char f[600];

			snprintf(f, sizeof(f), "%.500s/address", tmp.devpath);
			copy_file(d, f);
		}
	}
}

/*
 * Owner devices of the workqueues present: their links, the attributes and
 * numa_node files owner resolution reads, and their udev database files.
 */
static void copy_owners(struct dump *d)
{
	char **names = NULL;
	size_t n = 0;

	if (wq_list(d->ctx, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		struct wq_owner_info oi;
		char rel[700];

		wq_owner_resolve(d->ctx, names[i], &oi);
		if (!oi.present) {
			wq_owner_info_clear(&oi);
			continue;
		}
		copy_link(d, oi.link);
		/* What the sysroot property reader takes the place of libudev with. */
		snprintf(rel, sizeof(rel), "%s/uevent", oi.devpath);
		copy_file(d, rel);
		snprintf(rel, sizeof(rel), "%s/subsystem", oi.devpath);
		copy_link(d, rel);
		if (oi.o.kind == WQ_OWNER_BLOCK) {
			static const char *const attrs[] = {"dev", "dm/name", "dm/uuid"};

			for (size_t k = 0; k < ARRAY_SIZE(attrs); k++) {
				snprintf(rel, sizeof(rel), "%s/%s", oi.devpath, attrs[k]);
				copy_file(d, rel);
			}
			snprintf(rel, sizeof(rel), "%s/slaves", oi.devpath);
			copy_links_in(d, rel, NULL);
		} else {
			/* SCSI hosts and iSCSI sessions: the node walk, and the connections' addresses */
			copy_node_walk(d, oi.devpath);
			copy_links_in(d, "sys/class/iscsi_connection", "connection");
		}
		snprintf(rel, sizeof(rel), WQ_P_UDEV_DATA "/%s", oi.dbid);
		copy_file(d, rel);
		wq_owner_info_clear(&oi);
	}
	wq_names_free(names, n);
}

/* Is there a line for addr already (its first field, whole)? */
static bool recorded(const char *text, const char *addr)
{
	size_t len = strlen(addr);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, addr, len) && l[len] == '\t')
			return true;
	return false;
}

/*
 * What a route lookup cannot do below a sysroot: for each iSCSI
 * connection, the node of the NIC that carries it, found now (WQ_P_ROUTES),
 * so that 'local' resolves from the dump elsewhere.
 */
static void record_routes(struct dump *d)
{
	_cleanup_closedir_ DIR *dir = wq_root_opendir(d->ctx->root, "sys/class/iscsi_connection");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct dirent *de;
	int r;

	if (!f)
		return;
	while (dir && (de = readdir(dir))) {
		char rel[320], addr[64], chain[1024], why[400];
		int node;

		if (strncmp(de->d_name, "connection", 10))
			continue;
		snprintf(rel, sizeof(rel), "sys/class/iscsi_connection/%s/address", de->d_name);
		if (wq_root_read_buf(d->ctx->root, rel, addr, sizeof(addr)) <= 0 || strchr(addr, '\t') ||
		    recorded(text, addr))
			continue;
		why[0] = '\0';
		node = wq_net_node(d->ctx, addr, chain, sizeof(chain), why, sizeof(why));
		for (char *p = chain; *p; p++)
			if (*p == '\t' || *p == '\n')
				*p = ' ';
		for (char *p = why; *p; p++)
			if (*p == '\t' || *p == '\n')
				*p = ' ';
		fprintf(f, "%s\t%d\t%s\t%s\n", addr, node, chain, node < 0 ? why : "");
		fflush(f);
	}
	if (fclose(f) != 0 || !len) {
		free(text);
		return;
	}
	text[len - 1] = '\0'; /* fill_data() ends the file with its newline */
	r = wq_root_mkdirs(d->outroot, "wqctl-dump");
	if (r == 0)
		r = wq_root_replace(d->outroot, WQ_P_ROUTES, 0644, fill_data, text);
	if (r < 0) {
		wq_log(d->ctx, WQ_LOG_ERR, "%s/%s: cannot write: %s", d->out, WQ_P_ROUTES, wq_strerror(-r));
		d->errors++;
	} else {
		written(d, WQ_P_ROUTES);
	}
	free(text);
}

/* The stat files of the rescuer threads: the workqueues with WQ_MEM_RECLAIM, sysfs or not (show). */
static void copy_rescuers(struct dump *d)
{
	struct wq_rescuer *v = NULL;
	size_t n = 0;

	if (wq_rescuers(d->ctx, &v, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		copy_file(d, v[i].rel);
	free(v);
}

int wq_dump(struct wq_ctx *ctx, const char *dir, int *files)
{
	struct dump d = {.ctx = ctx, .out = dir};
	int r;

	*files = -1; /* nothing copied: the directory cannot be used */
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		r = -errno;
		wq_log(ctx, WQ_LOG_ERR, "%s: cannot create: %s", dir, wq_strerror(-r));
		return r;
	}
	r = wq_root_new(dir, &d.outroot);
	if (r < 0) {
		wq_log(ctx, WQ_LOG_ERR, "%s: cannot open: %s", dir, wq_strerror(-r));
		return r;
	}
	copy_dir(&d, WQ_P_WQ, keep_wq);
	copy_dir(&d, WQ_P_PARAMS, keep_all);
	copy_dir(&d, WQ_P_CPU, keep_cpu);
	copy_dir(&d, WQ_P_NODE, keep_node);
	copy_file(&d, WQ_P_OSRELEASE);
	copy_file(&d, WQ_P_CMDLINE);
	copy_file(&d, WQ_P_MOUNTS); /* btrfs mounts and their thread_pool (check) */
	copy_owners(&d);
	record_routes(&d);
	copy_rescuers(&d);
	*files = d.nrels == (size_t)d.files ? distinct_files(&d) : -1;
	if (*files < 0)
		*files = d.files;
	wq_root_free(d.outroot);
	for (size_t i = 0; i < d.nrels; i++)
		free(d.rels[i]);
	free(d.rels);
	return d.errors ? -EIO : 0;
}
