// SPDX-License-Identifier: GPL-2.0-or-later
/* Workqueue name to owner device: sysfs, the udev database, device properties, NIC nodes. */
#define _GNU_SOURCE
#include "owner.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "../util/dl.h"
#include "../util/macro.h"

/* One row per naming rule: prefix, owner kind, and how the id is spelled. */
static const struct {
	const char *prefix;
	enum wq_owner_kind kind;
} rules[] = {
    {"kcryptd_io-", WQ_OWNER_BLOCK},   {"kcryptd-", WQ_OWNER_BLOCK},	 {"scsi_wq_", WQ_OWNER_SCSI_HOST},
    {"scsi_tmf_", WQ_OWNER_SCSI_HOST}, {"iscsi_q_", WQ_OWNER_SCSI_HOST}, {"iscsi_ctrl_", WQ_OWNER_ISCSI_SESSION},
};

int wq_parse_ids(const char *s, const char *seps, unsigned int *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned long long x = 0;
		const char *start = s;

		/* decimal as the kernel prints it: digits only, no sign, no leading zero, within 32 bits */
		while (*s >= '0' && *s <= '9') {
			x = x * 10 + (unsigned long long)(*s++ - '0');
			if (x > UINT_MAX)
				return -ERANGE;
		}
		if (s == start || (*start == '0' && s - start > 1))
			return -EINVAL;
		v[i] = (unsigned int)x;
		if (i + 1 < n) {
			if (*s != seps[i])
				return -EINVAL;
			s++;
		}
	}
	return *s ? -EINVAL : 0;
}

bool wq_owner_pattern_is_device(const char *pattern)
{
	/* a name of each kind, as the kernel makes them */
	static const char *const examples[] = {"kcryptd_io-253:0-1", "kcryptd-253:0-1", "scsi_wq_0",
					       "scsi_tmf_0",	     "iscsi_q_0",	"iscsi_ctrl_0:1"};
	const size_t lit = strcspn(pattern, "*?[\\");
	struct wq_owner o;

	wq_owner_from_name(pattern, &o);
	if (o.kind != WQ_OWNER_NONE)
		return true;
	for (size_t i = 0; lit && i < ARRAY_SIZE(examples); i++) {
		const size_t plen = strlen(rules[i].prefix);

		if (!strncmp(pattern, rules[i].prefix, lit < plen ? lit : plen) &&
		    fnmatch(pattern, examples[i], 0) == 0)
			return true;
	}
	return false;
}

void wq_owner_from_name(const char *name, struct wq_owner *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const char *rest = name + strlen(rules[i].prefix);
		unsigned int v[3];

		if (strncmp(name, rules[i].prefix, strlen(rules[i].prefix)))
			continue;
		switch (rules[i].kind) {
		case WQ_OWNER_BLOCK:
			if (wq_parse_ids(rest, ":-", v, 3) < 0)
				return;
			snprintf(o->id, sizeof(o->id), "%u:%u", v[0], v[1]);
			break;
		case WQ_OWNER_SCSI_HOST:
			if (wq_parse_ids(rest, "", v, 1) < 0)
				return;
			snprintf(o->id, sizeof(o->id), "host%u", v[0]);
			break;
		case WQ_OWNER_ISCSI_SESSION:
			if (wq_parse_ids(rest, ":", v, 2) < 0)
				return;
			snprintf(o->id, sizeof(o->id), "session%u", v[1]);
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

static int resolve_link(struct wq_ctx *ctx, const char *rel, char *out, size_t size);

int wq_owner_link_target(struct wq_ctx *ctx, const char *rel, char *out, size_t size)
{
	return resolve_link(ctx, rel, out, size);
}

/*
 * The canonical form of a root-relative directory: every component that is a
 * symlink replaced by what it points to, as the kernel resolves it. A link's
 * relative target is relative to the directory that really holds the link:
 * sys/class/net/eth0 is a link, so eth0/device (../../../0000:61:00.0) must be
 * read from sys/devices/.../net/eth0, not from sys/class/net/eth0. 0 or -errno.
 */
static int canonical_dir(struct wq_ctx *ctx, const char *rel, char *out, size_t size)
{
	char rest[1700], cur[1700] = "", target[512], tmp[1700];
	int hops = 0;

	/* a path that exists: the kernel resolves it in one open (thousands of volumes) */
	if (wq_root_canonical(ctx->root, rel, out, size) == 0)
		return 0;
	if (snprintf(rest, sizeof(rest), "%s", rel) >= (int)sizeof(rest))
		return -ENAMETOOLONG;
	for (char *p = rest; *p;) {
		char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		int r;

		if (len == 0 || (len == 1 && p[0] == '.')) {
			p += len + (slash ? 1 : 0);
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			/* cur is canonical: its parent is one component less (never above the root) */
			char *up = strrchr(cur, '/');

			if (up)
				*up = '\0';
			else
				cur[0] = '\0';
			p += len + (slash ? 1 : 0);
			continue;
		}
		if ((r = snprintf(tmp, sizeof(tmp), "%s%s%.*s", cur, *cur ? "/" : "", (int)len, p)) < 0 ||
		    (size_t)r >= sizeof(cur))
			return -ENAMETOOLONG;
		p += len + (slash ? 1 : 0);
		if (wq_root_readlink(ctx->root, tmp, target, sizeof(target)) < 0) {
			snprintf(cur, sizeof(cur), "%s", tmp);
			continue;
		}
		if (++hops > 40)
			return -ELOOP;
		/* the link's target, then whatever is left of the path */
		r = target[0] == '/' ? snprintf(tmp, sizeof(tmp), "%s/%s", target + 1, p)
				     : snprintf(tmp, sizeof(tmp), "%s%s%s/%s", cur, *cur ? "/" : "", target, p);
		if (r < 0 || (size_t)r >= sizeof(rest))
			return -ENAMETOOLONG;
		snprintf(rest, sizeof(rest), "%s", tmp);
		cur[0] = '\0';
		p = rest;
	}
	if (strlen(cur) >= size)
		return -ENAMETOOLONG;
	snprintf(out, size, "%s", cur);
	return 0;
}

/* Resolve a symlink below the root to a canonical root-relative path. 0 or -errno. */
static int resolve_link(struct wq_ctx *ctx, const char *rel, char *out, size_t size)
{
	char target[512], parent[1100], tmp[1700];
	const char *slash = strrchr(rel, '/');
	int r = wq_root_readlink(ctx->root, rel, target, sizeof(target));

	if (r < 0)
		return r;
	if (slash && (r = snprintf(tmp, sizeof(tmp), "%.*s", (int)(slash - rel), rel)) >= 0 &&
	    (size_t)r < sizeof(parent)) {
		r = canonical_dir(ctx, tmp, parent, sizeof(parent));
		if (r < 0)
			return r;
	} else {
		parent[0] = '\0';
	}
	if (target[0] == '/')
		r = snprintf(tmp, sizeof(tmp), "%s", target + 1);
	else
		r = snprintf(tmp, sizeof(tmp), "%s%s%s", parent, *parent ? "/" : "", target);
	if (r < 0 || (size_t)r >= sizeof(tmp))
		return -ENAMETOOLONG;
	/* the target itself may go through links (sys/dev/block/M:m -> ../../devices/...) */
	r = canonical_dir(ctx, tmp, out, size);
	return r;
}

/* Add a line to the trail of how the owner and its node were found (best effort). */
static void step(struct wq_owner_info *oi, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void step(struct wq_owner_info *oi, const char *fmt, ...)
{
	char **n;
	va_list ap;

	if (!oi || !(n = realloc(oi->steps, sizeof(*n) * (oi->nsteps + 1))))
		return;
	oi->steps = n;
	va_start(ap, fmt);
	if (vasprintf(&n[oi->nsteps], fmt, ap) >= 0)
		oi->nsteps++;
	va_end(ap);
}

/*
 * The NUMA node of a device: the first numa_node file walking up from dir
 * (its path in from, when given). -1 when none says.
 */
static int walk_node(struct wq_ctx *ctx, const char *dir, char *from, size_t fromsz)
{
	char path[600], buf[32];

	snprintf(path, sizeof(path), "%s", dir);
	while (strncmp(path, "sys/devices/", 12) == 0) {
		char f[640];
		char *slash;

		snprintf(f, sizeof(f), "%s/numa_node", path);
		if (wq_root_read_buf(ctx->root, f, buf, sizeof(buf)) > 0) {
			if (from)
				snprintf(from, fromsz, "%s", f);
			return atoi(buf);
		}
		slash = strrchr(path, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return -1;
}

/* Devices already walked: stacked slaves/ links may form a diamond or a cycle. */
struct walk_seen {
	char *dev[64];
	int n;
};

static bool walk_seen_add(struct walk_seen *w, const char *dev)
{
	for (int i = 0; i < w->n; i++)
		if (streq(w->dev[i], dev))
			return false;
	if (w->n == (int)ARRAY_SIZE(w->dev))
		return false; /* enough: a real stack is a few devices deep */
	w->dev[w->n] = strdup(dev);
	return w->dev[w->n] && ++w->n;
}

/*
 * Nodes of the physical devices under a block device (through stacked
 * slaves/), each device walked once. Bitmask of nodes < 64.
 */
static void block_nodes_walk(struct wq_ctx *ctx, const char *dir, int depth, struct walk_seen *seen,
			     unsigned long long *nodes, bool *unknown, struct wq_owner_info *oi)
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
			step(oi, "/%s -> /%s", link, target);
			if (walk_seen_add(seen, target))
				block_nodes_walk(ctx, target, depth + 1, seen, nodes, unknown, oi);
		}
	}
	if (!any) {
		char from[640];
		int n = walk_node(ctx, dir, from, sizeof(from));

		if (n >= 0 && n < 64) {
			*nodes |= 1ULL << n;
			step(oi, "/%s: NUMA node %d (/%s)", dir, n, from);
		} else {
			*unknown = true;
			step(oi, "/%s: no numa_node from it up to /sys/devices", dir);
		}
	}
}

static void block_nodes(struct wq_ctx *ctx, const char *dir, int depth, unsigned long long *nodes, bool *unknown,
			struct wq_owner_info *oi)
{
	struct walk_seen seen = {.n = 0};

	walk_seen_add(&seen, dir);
	block_nodes_walk(ctx, dir, depth, &seen, nodes, unknown, oi);
	for (int i = 0; i < seen.n; i++)
		free(seen.dev[i]);
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
	for (size_t i = 0; i < oi->nsteps; i++)
		free(oi->steps[i]);
	free(oi->steps);
	memset(oi, 0, sizeof(*oi));
	oi->node = -1;
}

static const char *last_component(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Join a list property the way sd-device does: DEVLINKS with spaces, TAGS as :a:b:. */
static int list_append(char **list, const char *prefix, const char *item, char sep)
{
	size_t old = *list ? strlen(*list) : 0, add = strlen(prefix) + strlen(item) + 2;
	char *n = realloc(*list, old + add + 1);

	if (!n)
		return -ENOMEM;
	if (sep == ':')
		snprintf(n + old, add + 1, "%s%s%s:", old ? "" : ":", prefix, item);
	else
		snprintf(n + old, add + 1, "%s%s%s", old ? " " : "", prefix, item);
	*list = n;
	return 0;
}

/*
 * Without libudev (a sysroot): what sd-device reports, from the same files —
 * DEVPATH, SUBSYSTEM (the subsystem link), the uevent file (DEVNAME below
 * /dev), and the database: E: properties, S: links (DEVLINKS), G:/Q: tags
 * (TAGS, CURRENT_TAGS), I: (USEC_INITIALIZED).
 */
static int file_props(struct wq_ctx *ctx, struct wq_owner_info *oi, const char *dbid)
{
	_cleanup_free_ char *db = NULL, *uevent = NULL, *links = NULL, *tags = NULL, *cur = NULL;
	char path[700], target[512], *save = NULL, *line;
	const char *base;
	int r = 0;

	if (!strncmp(oi->devpath, "sys/", 4) && (r = add_prop(oi, "DEVPATH", oi->devpath + 3)) < 0)
		return r;
	snprintf(path, sizeof(path), "%s/subsystem", oi->devpath);
	if (wq_root_readlink(ctx->root, path, target, sizeof(target)) > 0) {
		base = last_component(target);
		if (base[0] && (r = add_prop(oi, "SUBSYSTEM", base)) < 0)
			return r;
	}
	snprintf(path, sizeof(path), "%s/uevent", oi->devpath);
	if (wq_root_read(ctx->root, path, &uevent) == 0) {
		for (line = strtok_r(uevent, "\n", &save); line && r == 0; line = strtok_r(NULL, "\n", &save)) {
			char *eq = strchr(line, '='), dev[300];

			if (!eq || eq == line)
				continue;
			*eq = '\0';
			if (!strcmp(line, "DEVNAME") && eq[1] != '/') {
				snprintf(dev, sizeof(dev), "/dev/%s", eq + 1);
				r = add_prop(oi, line, dev);
			} else {
				r = add_prop(oi, line, eq + 1);
			}
		}
		if (r < 0)
			return r;
	}
	snprintf(path, sizeof(path), WQ_P_UDEV_DATA "/%s", dbid);
	if (wq_root_read(ctx->root, path, &db) < 0)
		return 0;
	save = NULL;
	for (line = strtok_r(db, "\n", &save); line && r == 0; line = strtok_r(NULL, "\n", &save)) {
		char *eq;

		if (line[0] == '\0' || line[1] != ':')
			continue;
		switch (line[0]) {
		case 'E':
			if ((eq = strchr(line, '=')) && eq > line + 2) {
				*eq = '\0';
				r = add_prop(oi, line + 2, eq + 1);
			}
			break;
		case 'S': r = list_append(&links, "/dev/", line + 2, ' '); break;
		case 'G': r = list_append(&tags, "", line + 2, ':'); break;
		case 'Q': r = list_append(&cur, "", line + 2, ':'); break;
		case 'I': r = add_prop(oi, "USEC_INITIALIZED", line + 2); break;
		default: break;
		}
	}
	if (r == 0 && links)
		r = add_prop(oi, "DEVLINKS", links);
	if (r == 0 && tags)
		r = add_prop(oi, "TAGS", tags);
	if (r == 0 && cur)
		r = add_prop(oi, "CURRENT_TAGS", cur);
	return r;
}

/* Properties from the udev database: libudev live, the same files read directly in a dump. */
static int udev_props(struct wq_ctx *ctx, struct wq_owner_info *oi, const char *dbid)
{
	const struct wq_libudev *U = wq_root_is_live(ctx->root) ? wq_libudev() : NULL;
	struct udev *u = U ? U->udev_new() : NULL;
	struct udev_device *dev;
	struct udev_list_entry *e;
	char syspath[600];
	int r = 0;

	if (!u)
		return file_props(ctx, oi, dbid);
	snprintf(syspath, sizeof(syspath), "/%s", oi->devpath);
	dev = U->udev_device_new_from_syspath(u, syspath);
	for (e = dev ? U->udev_device_get_properties_list_entry(dev) : NULL; e && r == 0;
	     e = U->udev_list_entry_get_next(e))
		r = add_prop(oi, U->udev_list_entry_get_name(e), U->udev_list_entry_get_value(e));
	if (dev)
		U->udev_device_unref(dev);
	U->udev_unref(u);
	return r;
}

int wq_device_dbid(struct wq_ctx *ctx, const char *devpath, char *out, size_t size)
{
	char path[700], target[512], buf[64];
	const char *subsys = "";

	snprintf(path, sizeof(path), "%s/subsystem", devpath);
	if (wq_root_readlink(ctx->root, path, target, sizeof(target)) > 0)
		subsys = last_component(target);
	if (!subsys[0])
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/dev", devpath);
	if (wq_root_read_buf(ctx->root, path, buf, sizeof(buf)) > 0) {
		snprintf(out, size, "%c%s", !strcmp(subsys, "block") ? 'b' : 'c', buf);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/ifindex", devpath);
	if (!strcmp(subsys, "net") && wq_root_read_buf(ctx->root, path, buf, sizeof(buf)) > 0) {
		snprintf(out, size, "n%s", buf);
		return 0;
	}
	snprintf(out, size, "+%s:%s", subsys, last_component(devpath));
	return 0;
}

int wq_device_props(struct wq_ctx *ctx, const char *devpath, struct wq_owner_info *oi)
{
	char dbid[300];
	int r;

	memset(oi, 0, sizeof(*oi));
	oi->node = -1;
	if (strlen(devpath) >= sizeof(oi->devpath))
		return -ENAMETOOLONG;
	snprintf(oi->devpath, sizeof(oi->devpath), "%s", devpath);
	r = wq_device_dbid(ctx, devpath, dbid, sizeof(dbid));
	if (r < 0)
		return r;
	oi->present = true;
	return udev_props(ctx, oi, dbid);
}

static int sysfs_prop(struct wq_ctx *ctx, struct wq_owner_info *oi, const char *attr, const char *key)
{
	char path[700], buf[256];

	snprintf(path, sizeof(path), "%s/%s", oi->devpath, attr);
	if (wq_root_read_buf(ctx->root, path, buf, sizeof(buf)) < 0)
		return 0;
	return add_prop(oi, key, buf);
}

static int iscsi_peer(struct wq_ctx *ctx, const struct wq_owner_info *oi, char *addr, size_t size, char *conn,
		      size_t connsz);

int wq_owner_resolve(struct wq_ctx *ctx, const char *wq, struct wq_owner_info *oi)
{
	unsigned long long nodes = 0;
	bool unknown = false;
	char *link, *dbid;
	int r = 0;

	memset(oi, 0, sizeof(*oi));
	oi->node = -1;
	link = oi->link;
	dbid = oi->dbid;
	wq_owner_from_name(wq, &oi->o);
	switch (oi->o.kind) {
	case WQ_OWNER_BLOCK:
		snprintf(link, sizeof(oi->link), "sys/dev/block/%s", oi->o.id);
		snprintf(dbid, sizeof(oi->dbid), "b%s", oi->o.id);
		break;
	case WQ_OWNER_SCSI_HOST:
		snprintf(link, sizeof(oi->link), "sys/class/scsi_host/%s", oi->o.id);
		snprintf(dbid, sizeof(oi->dbid), "+scsi_host:%s", oi->o.id);
		break;
	case WQ_OWNER_ISCSI_SESSION:
		snprintf(link, sizeof(oi->link), "sys/class/iscsi_session/%s", oi->o.id);
		snprintf(dbid, sizeof(oi->dbid), "+iscsi_session:%s", oi->o.id);
		break;
	default: return 0;
	}
	if (resolve_link(ctx, link, oi->devpath, sizeof(oi->devpath)) < 0) {
		snprintf(oi->node_why, sizeof(oi->node_why), "owner device %s is not present", oi->o.id);
		step(oi, "/%s: not present", link);
		return 0;
	}
	oi->present = true;
	step(oi, "/%s -> /%s", link, oi->devpath);
	if (oi->o.kind == WQ_OWNER_BLOCK) {
		block_nodes(ctx, oi->devpath, 0, &nodes, &unknown, oi);
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
		char addr[64], conn[64], chain[1024], why[400], from[640];

		oi->node = walk_node(ctx, oi->devpath, from, sizeof(from));
		if (oi->node >= 0)
			step(oi, "/%s: NUMA node %d (/%s)", oi->devpath, oi->node, from);
		else
			step(oi, "/%s: no numa_node from it up to /sys/devices", oi->devpath);
		/* iSCSI: the node of the network device that carries the connection (netlink, live only). */
		if (oi->node < 0 && iscsi_peer(ctx, oi, addr, sizeof(addr), conn, sizeof(conn)) == 0) {
			unsigned int sid = 0, cid = 0;

			sscanf(conn, "connection%u:%u", &sid, &cid);
			step(oi, "iSCSI session%u, %s to %s", sid, conn, addr);
			oi->node = wq_net_node(ctx, addr, chain, sizeof(chain), why, sizeof(why));
			if (chain[0])
				step(oi, "route to %s: %s", addr, chain);
			if (oi->node < 0)
				snprintf(oi->node_why, sizeof(oi->node_why), "%s", why);
		} else if (oi->node < 0) {
			snprintf(oi->node_why, sizeof(oi->node_why), "%s reports no NUMA node", oi->o.id);
		}
		r = udev_props(ctx, oi, dbid);
	}
	return r;
}

/* --- network locality (iSCSI): route -> stacked links -> physical devices -> numa_node --- */

struct netwalk {
	const struct wq_libnl *L;
	struct wq_ctx *ctx;
	struct nl_cache *links;
	unsigned long long nodes;
	bool unknown;
	char chain[1024];
	char leaves[256]; /* the devices at the bottom, for the one-line reason */
	int nleaves;
};

static void chain_add(struct netwalk *w, const char *s)
{
	size_t len = strlen(w->chain);

	snprintf(w->chain + len, sizeof(w->chain) - len, "%s%s", len ? " " : "", s);
}

static bool is_stacked(const char *type)
{
	static const char *const t[] = {"vlan", "macvlan", "macvtap", "ipvlan", "ipvtap"};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(type, t[i]))
			return true;
	return false;
}

static void net_dev_nodes(struct netwalk *w, int ifindex, int depth)
{
	const struct wq_libnl *L = w->L;
	struct rtnl_link *l = L->rtnl_link_get(w->links, ifindex);
	const char *name, *type;
	bool lower = false;
	char buf[800], dev[600];
	struct nl_object *obj;

	if (!l || depth > 8) {
		w->unknown = true;
		if (l)
			L->rtnl_link_put(l);
		return;
	}
	name = L->rtnl_link_get_name(l);
	type = L->rtnl_link_get_type(l);
	/* A bond, team or bridge: the devices enslaved to it. */
	for (obj = L->nl_cache_get_first(w->links); obj; obj = L->nl_cache_get_next(obj)) {
		struct rtnl_link *s = (struct rtnl_link *)obj;

		if (L->rtnl_link_get_master(s) == ifindex) {
			if (!lower) {
				snprintf(buf, sizeof(buf), "%s(%s)->", name, type ? type : "master");
				chain_add(w, buf);
			}
			lower = true;
			net_dev_nodes(w, L->rtnl_link_get_ifindex(s), depth + 1);
		}
	}
	/* A VLAN (or macvlan/ipvlan) on top of another link; a veth's link is its peer, not a lower device. */
	if (!lower && type && is_stacked(type) && L->rtnl_link_get_link(l) > 0 && L->rtnl_link_get_link(l) != ifindex) {
		snprintf(buf, sizeof(buf), "%s(%s)->", name, type ? type : "stacked");
		chain_add(w, buf);
		lower = true;
		net_dev_nodes(w, L->rtnl_link_get_link(l), depth + 1);
	}
	if (!lower) {
		char link[200];

		snprintf(link, sizeof(link), "sys/class/net/%s/device", name);
		if (resolve_link(w->ctx, link, dev, sizeof(dev)) == 0) {
			char from[640] = "";
			int n = walk_node(w->ctx, dev, from, sizeof(from));

			/* which file said so: the PCI function's numa_node, above the virtio or USB device */
			if (from[0])
				snprintf(buf, sizeof(buf), "%s(node %d from /%s)", name, n, from);
			else
				snprintf(buf, sizeof(buf), "%s(node %d: no numa_node above /%s)", name, n, dev);
			if (n >= 0 && n < 64)
				w->nodes |= 1ULL << n;
			else
				w->unknown = true;
			snprintf(dev, sizeof(dev), n >= 0 ? "%s (node %d)" : "%s", name, n);
		} else {
			snprintf(buf, sizeof(buf), "%s(virtual)", name);
			w->unknown = true;
			snprintf(dev, sizeof(dev), "%s (virtual)", name);
		}
		chain_add(w, buf);
		{
			size_t len = strlen(w->leaves);

			snprintf(w->leaves + len, sizeof(w->leaves) - len, "%s%s", len ? ", " : "", dev);
			w->nleaves++;
		}
	}
	L->rtnl_link_put(l);
}

/* A line's fields as text a message may carry: printable, no tab inside. */
static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/*
 * Below a sysroot, no route can be looked up: a dump records, for each
 * iSCSI connection's address, what the live lookup found (WQ_P_ROUTES,
 * lines ADDR <tab> NODE <tab> CHAIN <tab> WHY, NODE -1 when none).
 */
static int recorded_net_node(struct wq_ctx *ctx, const char *addr, char *chain, size_t chainsz, char *why, size_t whysz)
{
	_cleanup_free_ char *text = NULL;
	int r = wq_root_read(ctx->root, WQ_P_ROUTES, &text);

	if (r < 0) {
		snprintf(why, whysz,
			 "a route lookup needs the live system, and this tree records none (%s: made by wqctl dump "
			 "on the machine itself)",
			 WQ_P_ROUTES);
		return -1;
	}
	for (char *line = text, *next; line && *line; line = next) {
		char *f[4] = {line, NULL, NULL, NULL}, *end;
		long node;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (int i = 1; i < 4 && f[i - 1]; i++) {
			f[i] = strchr(f[i - 1], '\t');
			if (f[i])
				*f[i]++ = '\0';
		}
		if (!f[3] || strcmp(f[0], addr))
			continue;
		errno = 0;
		node = strtol(f[1], &end, 10);
		if (errno || *end || end == f[1] || node < -1 || node >= 1024 || !printable(f[2]) || !printable(f[3])) {
			snprintf(why, whysz, "%s: the line for %s is malformed", WQ_P_ROUTES, addr);
			return -1;
		}
		snprintf(chain, chainsz, "%s", f[2]);
		if (node < 0)
			snprintf(why, whysz, "%s (as recorded by wqctl dump)", f[3][0] ? f[3] : "no NUMA node");
		return (int)node;
	}
	snprintf(why, whysz, "%s records no route to %s", WQ_P_ROUTES, addr);
	return -1;
}

int wq_net_node(struct wq_ctx *ctx, const char *addr, char *chain, size_t chainsz, char *why, size_t whysz)
{
	struct netwalk w = {.ctx = ctx, .L = wq_libnl()};
	const struct wq_libnl *L = w.L;
	struct nl_sock *sk = NULL;
	struct nl_addr *dst = NULL;
	struct rtnl_route *route = NULL;
	int node = -1, r;

	chain[0] = '\0';
	if (!wq_root_is_live(ctx->root))
		return recorded_net_node(ctx, addr, chain, chainsz, why, whysz);
	if (!L) {
		snprintf(why, whysz, "libnl-route cannot be loaded");
		return -1;
	}
	if (L->nl_addr_parse(addr, AF_UNSPEC, &dst) < 0) {
		snprintf(why, whysz, "'%s' is not an IP address", addr);
		return -1;
	}
	sk = L->nl_socket_alloc();
	if (!sk || L->nl_connect(sk, NETLINK_ROUTE) < 0 || L->rtnl_link_alloc_cache(sk, AF_UNSPEC, &w.links) < 0) {
		snprintf(why, whysz, "netlink is not available");
		goto out;
	}
	r = L->rtnl_route_lookup(sk, dst, &route);
	if (r < 0 || !route || L->rtnl_route_get_nnexthops(route) < 1) {
		snprintf(why, whysz, "no route to %s", addr);
		goto out;
	}
	for (int i = 0; i < L->rtnl_route_get_nnexthops(route); i++)
		net_dev_nodes(&w, L->rtnl_route_nh_get_ifindex(L->rtnl_route_nexthop_n(route, i)), 0);
	snprintf(chain, chainsz, "%s", w.chain);
	if (__builtin_popcountll(w.nodes) == 1 && !w.unknown)
		node = __builtin_ctzll(w.nodes);
	else if (__builtin_popcountll(w.nodes) > 1)
		snprintf(why, whysz, "%s is reached through devices on several NUMA nodes: %s", addr, w.leaves);
	else if (w.nleaves == 1)
		snprintf(why, whysz, "the route to %s goes through %s, which reports no NUMA node", addr, w.leaves);
	else
		snprintf(why, whysz, "no device on the way to %s reports a NUMA node: %s", addr, w.leaves);
out:
	if (route)
		L->rtnl_route_put(route);
	if (w.links)
		L->nl_cache_free(w.links);
	L->nl_addr_put(dst);
	if (sk)
		L->nl_socket_free(sk);
	return node;
}

/* The peer address of an iSCSI session's first connection, or of a host's first session; conn gets its name. */
static int iscsi_peer(struct wq_ctx *ctx, const struct wq_owner_info *oi, char *addr, size_t size, char *conn,
		      size_t connsz)
{
	_cleanup_closedir_ DIR *d = wq_root_opendir(ctx->root, "sys/class/iscsi_connection");
	struct dirent *de;
	char host_dir[600] = "";
	unsigned int sid = 0;

	if (oi->o.kind == WQ_OWNER_ISCSI_SESSION)
		sscanf(oi->o.id, "session%u", &sid);
	else /* the host's device directory, e.g. sys/devices/platform/host5 */
		snprintf(
		    host_dir, sizeof(host_dir), "%.*s",
		    (int)(strstr(oi->devpath, "/scsi_host/") ? strstr(oi->devpath, "/scsi_host/") - oi->devpath : 0),
		    oi->devpath);
	while (d && (de = readdir(d))) {
		char link[300], target[512], path[700];
		unsigned int sc[2], s;

		if (strncmp(de->d_name, "connection", 10) || wq_parse_ids(de->d_name + 10, ":", sc, 2) < 0)
			continue;
		s = sc[0];
		snprintf(link, sizeof(link), "sys/class/iscsi_connection/%s", de->d_name);
		if (oi->o.kind == WQ_OWNER_ISCSI_SESSION
			? s != sid
			: (!host_dir[0] || resolve_link(ctx, link, target, sizeof(target)) < 0 ||
			   strncmp(target, host_dir, strlen(host_dir))))
			continue;
		snprintf(path, sizeof(path), "%s/address", link);
		if (wq_root_read_buf(ctx->root, path, addr, size) > 0) {
			snprintf(conn, connsz, "connection%u:%u", s, sc[1]);
			return 0;
		}
	}
	return -ENOENT;
}
