// SPDX-License-Identifier: GPL-2.0-or-later
/* Owners whose workqueues live outside sysfs and the knob each offers for them. */
#include "ownerknob.h"

#include <fnmatch.h>

#include "macro.h"
#include "topo.h"

static const struct wq_owner_knob knobs[] = {
    {
	.pattern = "btrfs-*",
	.owner = "btrfs",
	.knob = "the thread_pool=N mount option sets max_active of its workqueues (default min(online CPUs + 2, "
		"8))",
	.how = "mount -o remount,thread_pool=N MOUNTPOINT",
	.source = "fs/btrfs/super.c btrfs_init_fs_context() (default), btrfs_ctx_to_info() and "
		  "btrfs_resize_thread_pool() (remount); fs/btrfs/disk-io.c btrfs_init_workqueues()",
    },
    {
	/* 6.10+ in sysfs as kcryptd-MAJ:MIN-ID; before, in the tracepoints as kcryptd/MAJ:MIN */
	.pattern = "kcryptd*",
	.owner = "dm-crypt",
	.knob = "table options same_cpu_crypt (one per-CPU workqueue, max_active 1), submit_from_crypt_cpus, "
		"no_read_workqueue, no_write_workqueue (bypass kcryptd)",
	.how = "cryptsetup refresh --perf-same_cpu_crypt, --perf-no_read_workqueue, --perf-no_write_workqueue "
	       "NAME (or dmsetup reload with the options)",
	.source = "drivers/md/dm-crypt.c crypt_ctr_optional() and crypt_ctr() (alloc_workqueue of kcryptd)",
    },
    {
	.pattern = "dmz_*",
	.owner = "dm-zoned",
	.knob = "none: dm-zoned sizes its workqueues itself",
	.how = NULL,
	.source = "drivers/md/dm-zoned-target.c dmz_ctr()",
    },
};

const struct wq_owner_knob *wq_owner_knob_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
		if (fnmatch(knobs[i].pattern, name, 0) == 0)
			return &knobs[i];
	return NULL;
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
