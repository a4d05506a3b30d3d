// SPDX-License-Identifier: GPL-2.0-or-later
#include "owner.h"

#include <errno.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "macro.h"

/* One row per naming rule: prefix, owner kind, and how the id is spelled. */
static const struct {
	const char *prefix;
	enum wq_owner_kind kind;
} rules[] = {
    {"kcryptd_io-", WQ_OWNER_BLOCK},   {"kcryptd-", WQ_OWNER_BLOCK},	 {"scsi_wq_", WQ_OWNER_SCSI_HOST},
    {"scsi_tmf_", WQ_OWNER_SCSI_HOST}, {"iscsi_q_", WQ_OWNER_SCSI_HOST}, {"iscsi_ctrl_", WQ_OWNER_ISCSI_SESSION},
};

void wq_owner_from_name(const char *name, struct wq_owner *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const char *rest = name + strlen(rules[i].prefix);
		unsigned int a, b, c;
		char tail;

		if (strncmp(name, rules[i].prefix, strlen(rules[i].prefix)))
			continue;
		switch (rules[i].kind) {
		case WQ_OWNER_BLOCK:
			if (sscanf(rest, "%u:%u-%u%c", &a, &b, &c, &tail) != 3)
				return;
			snprintf(o->id, sizeof(o->id), "%u:%u", a, b);
			break;
		case WQ_OWNER_SCSI_HOST:
			if (sscanf(rest, "%u%c", &a, &tail) != 1)
				return;
			snprintf(o->id, sizeof(o->id), "host%u", a);
			break;
		case WQ_OWNER_ISCSI_SESSION:
			if (sscanf(rest, "%u:%u%c", &a, &b, &tail) != 2)
				return;
			snprintf(o->id, sizeof(o->id), "session%u", b);
			break;
		default: return;
		}
		o->kind = rules[i].kind;
		return;
	}
}

const char *wq_owner_format(const struct wq_owner *o, char *buf, size_t size)
{
	static const char *const kinds[] = {
	    [WQ_OWNER_BLOCK] = "block",
	    [WQ_OWNER_SCSI_HOST] = "scsi_host",
	    [WQ_OWNER_ISCSI_SESSION] = "iscsi_session",
	};

	if (o->kind == WQ_OWNER_NONE)
		return NULL;
	snprintf(buf, size, "%s:%s", kinds[o->kind], o->id);
	return buf;
}

/* --- owner devices in sysfs and the udev database --- */

/* Collapse "a/b/../c" and "./" in a root-relative path, in place. */
static void normalize(char *path)
{
	char *parts[128], *save = NULL, *tok, out[512] = "";
	int n = 0;

	for (tok = strtok_r(path, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			if (n)
				n--;
			continue;
		}
		if (n < 128)
			parts[n++] = tok;
	}
	for (int i = 0; i < n; i++) {
		strncat(out, parts[i], sizeof(out) - strlen(out) - 2);
		if (i + 1 < n)
			strcat(out, "/");
	}
	strcpy(path, out);
}

/* Resolve a symlink below the root to a root-relative path. 0 or -errno. */
static int resolve_link(struct wq_ctx *ctx, const char *rel, char *out, size_t size)
{
	char target[512], tmp[1100];
	const char *slash;
	int r = wq_root_readlink(ctx->root, rel, target, sizeof(target));

	if (r < 0)
		return r;
	if (target[0] == '/') {
		snprintf(tmp, sizeof(tmp), "%s", target + 1);
	} else {
		slash = strrchr(rel, '/');
		snprintf(tmp, sizeof(tmp), "%.*s/%s", slash ? (int)(slash - rel) : 0, rel, target);
	}
	normalize(tmp);
	if (strlen(tmp) >= size)
		return -ENAMETOOLONG;
	snprintf(out, size, "%s", tmp);
	return 0;
}

/* The NUMA node of a device: the first numa_node file walking up from dir. -1 when none says. */
static int walk_node(struct wq_ctx *ctx, const char *dir)
{
	char path[600], buf[32];

	snprintf(path, sizeof(path), "%s", dir);
	while (strncmp(path, "sys/devices/", 12) == 0) {
		char f[640];
		char *slash;

		snprintf(f, sizeof(f), "%s/numa_node", path);
		if (wq_root_read_buf(ctx->root, f, buf, sizeof(buf)) > 0)
			return atoi(buf);
		slash = strrchr(path, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return -1;
}

/* Nodes of the physical devices under a block device (through stacked slaves/). Bitmask of nodes < 64. */
static void block_nodes(struct wq_ctx *ctx, const char *dir, int depth, unsigned long long *nodes, bool *unknown)
{
	_cleanup_closedir_ DIR *d = NULL;
	struct dirent *de;
	char sl[600];
	bool any = false;

	snprintf(sl, sizeof(sl), "%s/slaves", dir);
	d = depth < 8 ? wq_root_opendir(ctx->root, sl) : NULL;
	while (d && (de = readdir(d))) {
		char link[900], target[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", sl, de->d_name);
		if (resolve_link(ctx, link, target, sizeof(target)) == 0) {
			any = true;
			block_nodes(ctx, target, depth + 1, nodes, unknown);
		}
	}
	if (!any) {
		int n = walk_node(ctx, dir);

		if (n >= 0 && n < 64)
			*nodes |= 1ULL << n;
		else
			*unknown = true;
	}
}

static int add_prop(struct wq_owner_info *oi, const char *key, const char *value)
{
	struct wq_owner_prop *np;

	if (wq_owner_prop(oi, key))
		return 0;
	np = realloc(oi->props, sizeof(*np) * (oi->nprops + 1));
	if (!np)
		return -ENOMEM;
	oi->props = np;
	np[oi->nprops].key = strdup(key);
	np[oi->nprops].value = strdup(value);
	if (!np[oi->nprops].key || !np[oi->nprops].value) {
		free(np[oi->nprops].key);
		free(np[oi->nprops].value);
		return -ENOMEM;
	}
	oi->nprops++;
	return 0;
}

const char *wq_owner_prop(const struct wq_owner_info *oi, const char *key)
{
	for (size_t i = 0; i < oi->nprops; i++)
		if (!strcmp(oi->props[i].key, key))
			return oi->props[i].value;
	return NULL;
}

void wq_owner_info_clear(struct wq_owner_info *oi)
{
	for (size_t i = 0; i < oi->nprops; i++) {
		free(oi->props[i].key);
		free(oi->props[i].value);
	}
	free(oi->props);
	memset(oi, 0, sizeof(*oi));
	oi->node = -1;
}

/* Properties from the udev database: libudev live, the db file in a dump. */
static int udev_props(struct wq_ctx *ctx, struct wq_owner_info *oi, const char *dbid)
{
	if (wq_root_is_live(ctx->root)) {
		struct udev *u = udev_new();
		struct udev_device *dev;
		struct udev_list_entry *e;
		char syspath[600];
		int r = 0;

		if (!u)
			return 0;
		snprintf(syspath, sizeof(syspath), "/%s", oi->devpath);
		dev = udev_device_new_from_syspath(u, syspath);
		udev_list_entry_foreach(e, dev ? udev_device_get_properties_list_entry(dev) : NULL)
		{
			if (r == 0)
				r = add_prop(oi, udev_list_entry_get_name(e), udev_list_entry_get_value(e));
		}
		udev_device_unref(dev);
		udev_unref(u);
		return r;
	} else {
		_cleanup_free_ char *db = NULL;
		char path[128];
		char *save = NULL, *line;

		snprintf(path, sizeof(path), WQ_P_UDEV_DATA "/%s", dbid);
		if (wq_root_read(ctx->root, path, &db) < 0)
			return 0;
		for (line = strtok_r(db, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *eq;

			if (strncmp(line, "E:", 2) || !(eq = strchr(line, '=')))
				continue;
			*eq = '\0';
			if (add_prop(oi, line + 2, eq + 1) < 0)
				return -ENOMEM;
		}
		return 0;
	}
}

static int sysfs_prop(struct wq_ctx *ctx, struct wq_owner_info *oi, const char *attr, const char *key)
{
	char path[700], buf[256];

	snprintf(path, sizeof(path), "%s/%s", oi->devpath, attr);
	if (wq_root_read_buf(ctx->root, path, buf, sizeof(buf)) < 0)
		return 0;
	return add_prop(oi, key, buf);
}

int wq_owner_resolve(struct wq_ctx *ctx, const char *wq, struct wq_owner_info *oi)
{
	char link[128], dbid[96];
	unsigned long long nodes = 0;
	bool unknown = false;
	int r = 0;

	memset(oi, 0, sizeof(*oi));
	oi->node = -1;
	wq_owner_from_name(wq, &oi->o);
	switch (oi->o.kind) {
	case WQ_OWNER_BLOCK:
		snprintf(link, sizeof(link), "sys/dev/block/%s", oi->o.id);
		snprintf(dbid, sizeof(dbid), "b%s", oi->o.id);
		break;
	case WQ_OWNER_SCSI_HOST:
		snprintf(link, sizeof(link), "sys/class/scsi_host/%s", oi->o.id);
		snprintf(dbid, sizeof(dbid), "+scsi_host:%s", oi->o.id);
		break;
	case WQ_OWNER_ISCSI_SESSION:
		snprintf(link, sizeof(link), "sys/class/iscsi_session/%s", oi->o.id);
		snprintf(dbid, sizeof(dbid), "+iscsi_session:%s", oi->o.id);
		break;
	default: return 0;
	}
	if (resolve_link(ctx, link, oi->devpath, sizeof(oi->devpath)) < 0) {
		snprintf(oi->node_why, sizeof(oi->node_why), "owner device %s is not present", oi->o.id);
		return 0;
	}
	oi->present = true;
	if (oi->o.kind == WQ_OWNER_BLOCK) {
		block_nodes(ctx, oi->devpath, 0, &nodes, &unknown);
		if (__builtin_popcountll(nodes) == 1 && !unknown)
			oi->node = __builtin_ctzll(nodes);
		else if (nodes && __builtin_popcountll(nodes) > 1)
			snprintf(oi->node_why, sizeof(oi->node_why), "the devices under %s sit on several NUMA nodes",
				 oi->o.id);
		else
			snprintf(oi->node_why, sizeof(oi->node_why), "no device under %s reports a NUMA node",
				 oi->o.id);
		r = udev_props(ctx, oi, dbid);
		if (r == 0)
			r = sysfs_prop(ctx, oi, "dm/name", "DM_NAME");
		if (r == 0)
			r = sysfs_prop(ctx, oi, "dm/uuid", "DM_UUID");
	} else {
		oi->node = walk_node(ctx, oi->devpath);
		if (oi->node < 0)
			snprintf(oi->node_why, sizeof(oi->node_why), "%s reports no NUMA node", oi->o.id);
		r = udev_props(ctx, oi, dbid);
	}
	return r;
}
