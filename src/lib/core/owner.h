/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which device a workqueue belongs to, from its name (wqctl.profile(5) OWNERS, doc/kernel.md §6). */
#ifndef WQ_OWNER_H
#define WQ_OWNER_H

#include <stdbool.h>
#include <stddef.h>

enum wq_owner_kind {
	WQ_OWNER_NONE,
	WQ_OWNER_BLOCK, /* kcryptd-MAJ:MIN-ID, kcryptd_io-MAJ:MIN-ID */
	WQ_OWNER_SCSI_HOST, /* scsi_wq_N, scsi_tmf_N, iscsi_q_N */
	WQ_OWNER_ISCSI_SESSION, /* iscsi_ctrl_N:SID */
};

struct wq_owner {
	enum wq_owner_kind kind;
	char id[32]; /* "253:0", "host3", "session5" */
};

struct wq_owner_prop {
	char *key;
	char *value;
};

/* The owner device as found in sysfs and the udev database. */
struct wq_owner_info {
	struct wq_owner o;
	bool present; /* the device exists */
	char devpath[512]; /* root-relative device directory */
	char link[128]; /* root-relative link the device was found by (sys/dev/block/MAJ:MIN, ...) */
	char dbid[96]; /* its udev database id (bMAJ:MIN, +scsi_host:hostN, ...) */
	int node; /* NUMA node, -1 unknown */
	char node_why[400]; /* why node is -1 (several nodes, none reported) */
	struct wq_owner_prop *props;
	size_t nprops;
	char **steps; /* how the device and its node were found, one step a line */
	size_t nsteps;
};

struct wq_ctx;

/*
 * Resolve the owner device of a workqueue: its sysfs directory, its NUMA
 * node (block devices: the nodes of the physical devices under it via
 * slaves/; SCSI hosts: their parent device) and its properties (the udev
 * database: libudev live, DIR/run/udev/data in a sysroot; plus dm/name and
 * dm/uuid as DM_NAME, DM_UUID). 0 (also without an owner) or -ENOMEM.
 */
int wq_owner_resolve(struct wq_ctx *ctx, const char *wq, struct wq_owner_info *out);
void wq_owner_info_clear(struct wq_owner_info *oi);
/*
 * NUMA node of the physical network device(s) that carry traffic to addr:
 * route lookup through netlink (libnl), then down VLAN and bond/team/bridge
 * stacking to devices with a numa_node. -1 with why when none, several, or
 * not live; chain describes the path.
 */
int wq_net_node(struct wq_ctx *ctx, const char *addr, char *chain, size_t chainsz, char *why, size_t whysz);
/* Resolve a symlink below the root to a root-relative path ("../.." collapsed). 0 or -errno. */
int wq_owner_link_target(struct wq_ctx *ctx, const char *rel, char *out, size_t size);
/*
 * The udev database id of the device at devpath ("sys/devices/..."), as
 * sd-device spells it: bMAJ:MIN, cMAJ:MIN, nIFINDEX or +SUBSYSTEM:SYSNAME.
 * 0 or -ENODEV (no subsystem link: not a device).
 */
int wq_device_dbid(struct wq_ctx *ctx, const char *devpath, char *out, size_t size);
/*
 * Every property of the device at devpath, the way owner.* matching sees
 * them: libudev live; in a sysroot the same sources read directly (uevent,
 * subsystem link, DIR/run/udev/data). Fills oi->props. 0 or -errno.
 */
int wq_device_props(struct wq_ctx *ctx, const char *devpath, struct wq_owner_info *oi);
/* Property value, or NULL. */
const char *wq_owner_prop(const struct wq_owner_info *oi, const char *key);

/*
 * n decimal numbers as the kernel prints them in a device or workqueue name
 * (no sign, no leading zero, at most UINT_MAX), separated by seps[0],
 * seps[1]..., and nothing after: "2:0" with ":" and n 2. 0, -EINVAL, or
 * -ERANGE (host4294967298 is no host2).
 */
int wq_parse_ids(const char *s, const char *seps, unsigned int *v, size_t n);
/*
 * Whether a profile section's name or glob is for workqueues a device owns
 * (dm-crypt's kcryptd, SCSI hosts', iSCSI's): a name that maps to an owner, or
 * a glob whose fixed start begins one of those names and that matches it.
 */
bool wq_owner_pattern_is_device(const char *pattern);
/* Map a workqueue name to its owner; kind WQ_OWNER_NONE when it has none. */
void wq_owner_from_name(const char *name, struct wq_owner *o);
/* "block:253:0", "scsi_host:host3", "iscsi_session:session5", or NULL for none. */
const char *wq_owner_format(const struct wq_owner *o, char *buf, size_t size);

#endif
