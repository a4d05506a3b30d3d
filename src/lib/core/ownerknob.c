// SPDX-License-Identifier: GPL-2.0-or-later
/* Owners whose workqueues live outside sysfs and the knob each offers for them. */
#include "ownerknob.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "kver.h"
#include "../util/macro.h"
#include "rescuer.h"
#include "root.h"
#include "topo.h"
#include "wq.h"

/*
 * btrfs's workqueues as a 6.18 kernel names them (the rescuer threads
 * kworker/R-NAME of a mounted btrfs; fs/btrfs/disk-io.c
 * btrfs_init_workqueues()), each mount its own set.
 */
static const char *const btrfs_names[] = {
    "btrfs-cache",	    "btrfs-compressed-write",
    "btrfs-delalloc",	    "btrfs-delayed-meta",
    "btrfs-endio",	    "btrfs-endio-meta",
    "btrfs-endio-write",    "btrfs-fixup",
    "btrfs-flush_delalloc", "btrfs-freespace-write",
    "btrfs-qgroup-rescan",  "btrfs-rmw",
    "btrfs-worker",	    NULL,
};

static const struct wq_owner_knob knobs[] = {
    {
	.pattern = "btrfs-*",
	.example = "btrfs-endio-write",
	.owner = "btrfs",
	.brief = "mount option thread_pool=N",
	.knob = "the thread_pool=N mount option sets max_active of its workqueues (default min(online CPUs + 2, "
		"8))",
	.how = "mount -o remount,thread_pool=N MOUNTPOINT (thread_pool=N among its options in /etc/fstab keeps it "
	       "after a reboot)",
	.source = "fs/btrfs/super.c btrfs_init_fs_context() (default), btrfs_ctx_to_info() and "
		  "btrfs_resize_thread_pool() (remount); fs/btrfs/disk-io.c btrfs_init_workqueues()",
	.names = btrfs_names,
    },
    {
	/* 6.10+ in sysfs as kcryptd-MAJ:MIN-ID; before, in the tracepoints as kcryptd/MAJ:MIN */
	.pattern = "kcryptd*",
	.example = "kcryptd-253:0-1",
	.owner = "dm-crypt",
	.brief = "table options same_cpu_crypt, no_read_workqueue, no_write_workqueue",
	.knob = "table options same_cpu_crypt (one per-CPU workqueue, max_active 1), submit_from_crypt_cpus, "
		"no_read_workqueue, no_write_workqueue (bypass kcryptd)",
	.how = "cryptsetup refresh --perf-same_cpu_crypt, --perf-no_read_workqueue, --perf-no_write_workqueue "
	       "NAME (or dmsetup reload with the options)",
	.source = "drivers/md/dm-crypt.c crypt_ctr_optional() and crypt_ctr() (alloc_workqueue of kcryptd)",
	/* WQ_SYSFS and the MAJ:MIN-ID name from 6.10 (doc/kernel.md §6) */
	.sysfs_from = {6, 10},
    },
    {
	.pattern = "dmz_*",
	.example = "dmz_cwq_dmz-0",
	.owner = "dm-zoned",
	.brief = "none",
	.none = "it sizes its workqueues itself",
	.how = NULL,
	.source = "drivers/md/dm-zoned-target.c dmz_ctr()",
    },
};

bool wq_owner_knob_known(struct wq_ctx *ctx, const struct wq_owner_knob *k, const char *name)
{
	struct wq_rescuer *v = NULL;
	bool found = false;
	size_t n = 0;

	if (!k->names)
		return true;
	for (size_t i = 0; k->names[i]; i++)
		if (!strcmp(name, k->names[i]))
			return true;
	/* another kernel's name, seen running */
	if (wq_root_is_live(ctx->root) && wq_rescuers(ctx, &v, &n) == 0)
		for (size_t i = 0; i < n && !found; i++)
			found = wq_rescuer_is(&v[i], name) && !v[i].truncated;
	free(v);
	return found;
}

const struct wq_owner_knob *wq_owner_knob_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
		if (fnmatch(knobs[i].pattern, name, 0) == 0)
			return &knobs[i];
	return NULL;
}

const struct wq_owner_knob *wq_owner_knob_for(const char *name_or_glob)
{
	const struct wq_owner_knob *k = wq_owner_knob_find(name_or_glob);

	for (size_t i = 0; !k && i < ARRAY_SIZE(knobs); i++)
		if (fnmatch(name_or_glob, knobs[i].example, 0) == 0)
			k = &knobs[i];
	return k;
}

bool wq_owner_knob_in_sysfs(struct wq_ctx *ctx, const struct wq_owner_knob *k)
{
	return k->sysfs_from[0] && ctx->kver.known &&
	       wq_kver_cmp(&ctx->kver, k->sysfs_from[0], k->sysfs_from[1], 0) >= 0;
}

int wq_owner_knob_absent(struct wq_ctx *ctx, const char *name, char *buf, size_t len)
{
	const struct wq_owner_knob *k = wq_owner_knob_for(name);
	const char *ex = strpbrk(name, "*?[") ? NULL : name;
	char dflt[64] = "";

	if (!k)
		return -ENOENT;
	if (wq_owner_knob_in_sysfs(ctx, k)) {
		snprintf(buf, len,
			 "no such workqueue: %s's are in sysfs from %d.%d on, as %s, while the device that owns "
			 "one exists; none does now",
			 k->owner, k->sysfs_from[0], k->sysfs_from[1], k->example);
		return 0;
	}
	if (!strcmp(k->owner, "btrfs") && wq_btrfs_thread_pool_default(ctx) > 0)
		snprintf(dflt, sizeof(dflt), "; %d on this machine", wq_btrfs_thread_pool_default(ctx));
	if (k->knob)
		snprintf(buf, len,
			 "not in sysfs: %s creates its workqueues without WQ_SYSFS, so they cannot be read or set\n"
			 "instead, %s%s%s%s\n"
			 "'wqctl explain %s' says what a value means here; 'wqctl monitor' shows their work",
			 k->owner, k->knob, dflt, k->how ? ": " : "", k->how ? k->how : "", ex ? ex : k->example);
	else
		snprintf(buf, len,
			 "not in sysfs: %s creates its workqueues without WQ_SYSFS and offers no setting for them "
			 "(%s)\n"
			 "'wqctl explain %s' says what their limits mean here; 'wqctl monitor' shows their work",
			 k->owner, k->none, ex ? ex : k->example);
	return 0;
}

/*
 * A workqueue that sysfs does not show, as the kernel would create an
 * unbound one: every possible CPU, the default scope, NUMA affinity on
 * (<= 6.5), max_active from --max-active or the owner's default.
 */
int wq_owner_knob_model(struct wq_ctx *ctx, const char *name, const struct wq_owner_knob *knob, struct wq_info *info)
{
	struct wq_topo *t = wq_ctx_topo(ctx);

	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", name);
	info->unbound = true;
	info->strict = 0;
	info->nice = 0;
	info->numa = -1;
	if (!t || !(info->cpumask = wq_cpuset_dup(t->possible)))
		return -ENOMEM;
	info->has = 1U << WQ_A_MAX_ACTIVE | 1U << WQ_A_CPUMASK;
	if (wq_has_scopes(ctx)) {
		info->has |= 1U << WQ_A_AFFINITY_SCOPE;
		snprintf(info->scope, sizeof(info->scope), "default");
		wq_default_scope(ctx, info->scope_eff, sizeof(info->scope_eff));
	} else {
		info->has |= 1U << WQ_A_NUMA;
		info->numa = 1;
	}
	/* btrfs: its default thread_pool; dm-crypt: online CPUs; else the kernel's default for 0 */
	if (knob && !strcmp(knob->owner, "btrfs"))
		info->max_active = wq_btrfs_thread_pool_default(ctx);
	else if (knob && !strcmp(knob->owner, "dm-crypt"))
		info->max_active = (int)wq_cpuset_count(t->online);
	if (info->max_active <= 0)
		info->max_active = wq_max_active_limit(ctx, true) / 2;
	if (info->max_active <= 0)
		info->max_active = 256;
	return 0;
}

int wq_btrfs_thread_pool_default(struct wq_ctx *ctx)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	unsigned int n;

	if (!t)
		return 0;
	n = wq_cpuset_count(t->online) + 2;
	return n < 8 ? (int)n : 8;
}
