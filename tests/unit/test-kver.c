// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel release parsing and the version rules (eras, limits, shared names); expected values from the kernel's history. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/core/kver.h"
#include "lib/core/owner.h"
#include "lib/core/root.h"
#include "lib/core/wq.h"
#include "tap.h"

static enum wq_era era(const char *rel, int sym)
{
	struct wq_kver kv;
	const char *why;

	wq_kver_parse(rel, &kv);
	return wq_kver_era(&kv, sym, &why);
}

static int dfl(const char *rel)
{
	struct wq_kver kv;

	wq_kver_parse(rel, &kv);
	return wq_kver_dfl_active(&kv);
}

static int limit(const char *rel, int unbound, unsigned int possible)
{
	struct wq_kver kv;

	wq_kver_parse(rel, &kv);
	return wq_kver_max_active(&kv, unbound, possible);
}

int main(void)
{
	struct wq_kver kv;
	struct wq_owner o;
	char buf[64];

	ok(wq_kver_parse("6.1.0-27-amd64", &kv) == 0 && kv.major == 6 && kv.minor == 1 && kv.patch == 0,
	   "Debian release string");
	ok(wq_kver_parse("6.18.44-fc-v669", &kv) == 0 && kv.minor == 18 && kv.patch == 44, "6.18.44-fc-v669");
	ok(wq_kver_parse("6.9", &kv) == 0 && kv.minor == 9 && kv.patch == 0, "two-part release");
	ok(wq_kver_parse("6.10-rc3", &kv) == 0 && kv.minor == 10, "rc release");
	ok(wq_kver_parse("banana", &kv) < 0 && !kv.known, "garbage rejected");
	ok(wq_kver_parse("6", &kv) < 0, "major only rejected");
	ok(wq_kver_parse("6.x", &kv) < 0, "non-numeric minor rejected");
	ok(wq_kver_parse("6.8.4x", &kv) < 0, "junk after patch rejected");

	/* eras, doc/kernel.md §4 */
	ok(era("3.10.0", -1) == WQ_ERA_A, "3.10 is era A");
	ok(era("6.5.13", -1) == WQ_ERA_A, "6.5 is era A");
	ok(era("6.6.0", -1) == WQ_ERA_B, "6.6.0 is era B");
	ok(era("6.6.25", 1) == WQ_ERA_B, "6.6.25 reverted: era B whatever kallsyms says");
	ok(era("6.8.4", -1) == WQ_ERA_B, "6.8.4 reverted: era B");
	ok(era("6.8.3", -1) == WQ_ERA_C, "6.8.3 carried the backport: era C");
	ok(era("6.6.20", 1) == WQ_ERA_C, "6.6.20 with era-C symbol: C");
	ok(era("6.6.20", 0) == WQ_ERA_B, "6.6.20 without the symbol: B");
	ok(era("6.9.0", -1) == WQ_ERA_C, "6.9 is era C");
	ok(era("6.18.44", -1) == WQ_ERA_C, "6.18 is era C");
	{
		struct wq_kver u = {0};
		const char *why = NULL;

		ok(wq_kver_era(&u, -1, &why) == WQ_ERA_UNKNOWN && why, "unknown kernel: unknown era with a reason");
		ok(wq_kver_max_active(&u, 1, 8) == 0, "unknown kernel: unknown limit");
	}

	/* limits, doc/kernel.md §3 */
	ok(limit("6.1.0", 1, 96) == 512, "6.1 unbound, 96 CPUs: max(512, 384) = 512");
	ok(limit("6.1.0", 1, 256) == 1024, "6.1 unbound, 256 CPUs: 4 x 256 = 1024");
	ok(limit("6.1.0", 0, 256) == 512, "6.1 per-cpu: 512");
	ok(limit("6.8.0", 1, 256) == 512, "6.8 unbound: 512");
	ok(limit("6.12.117", 1, 2) == 512, "6.12.y: 512");
	ok(limit("6.13.0", 1, 2) == 2048, "6.13: 2048");
	ok(limit("6.18.0", 0, 2) == 2048, "6.18 per-cpu: 2048");
	ok(dfl("6.1.0") == 256 && dfl("6.12.117") == 256, "WQ_DFL_ACTIVE up to 6.12: 256");
	ok(dfl("6.13.0") == 1024 && dfl("7.3.4") == 1024, "WQ_DFL_ACTIVE from 6.13: 1024");

	/* owners, wqctl.profile(5) OWNERS */
	wq_owner_from_name("kcryptd-253:0-1", &o);
	is_str(wq_owner_format(&o, buf, sizeof(buf)), "block:253:0", "kcryptd owner");
	wq_owner_from_name("kcryptd_io-8:16-12", &o);
	is_str(wq_owner_format(&o, buf, sizeof(buf)), "block:8:16", "kcryptd_io owner");
	wq_owner_from_name("scsi_tmf_3", &o);
	is_str(wq_owner_format(&o, buf, sizeof(buf)), "scsi_host:host3", "scsi_tmf owner");
	wq_owner_from_name("iscsi_ctrl_2:7", &o);
	is_str(wq_owner_format(&o, buf, sizeof(buf)), "iscsi_session:session7", "iscsi_ctrl owner");
	wq_owner_from_name("writeback", &o);
	ok(wq_owner_format(&o, buf, sizeof(buf)) == NULL, "writeback has no owner");
	wq_owner_from_name("scsi_tmf_x", &o);
	ok(o.kind == WQ_OWNER_NONE, "scsi_tmf_x is not an owner name");
	wq_owner_from_name("kcryptd-253:0", &o);
	ok(o.kind == WQ_OWNER_NONE, "kcryptd without id is not matched");

	/* hot-plug sections: a device's name, or a glob whose fixed start begins one */
	ok(wq_owner_pattern_is_device("kcryptd-253:0-1"), "a kcryptd name is a device's");
	ok(wq_owner_pattern_is_device("kcryptd-*"), "kcryptd-* is a device's glob");
	ok(wq_owner_pattern_is_device("kcryptd*"), "kcryptd* (kcryptd_io too) is a device's glob");
	ok(wq_owner_pattern_is_device("scsi_*"), "scsi_* reaches SCSI hosts' workqueues");
	ok(wq_owner_pattern_is_device("iscsi_q_*"), "iscsi_q_* is a device's glob");
	ok(!wq_owner_pattern_is_device("*"), "* has no fixed start: not a device's");
	ok(!wq_owner_pattern_is_device("writeback"), "writeback is no device's");
	ok(!wq_owner_pattern_is_device("nvme-*"), "nvme-* has no owner rule");
	ok(!wq_owner_pattern_is_device("kcryptd-253:0"), "a kcryptd name without its id matches nothing");
	ok(!wq_owner_pattern_is_device("kcryptd-x*"), "kcryptd-x* cannot match a kcryptd name");

	/* attribute values read from sysfs */
	ok(wq_value_equal(WQ_V_SCOPE, "default (cache)", "default"), "'default (cache)' means 'default'");
	ok(!wq_value_equal(WQ_V_SCOPE, "default (cache)", "cache"), "'default (cache)' is not 'cache'");
	ok(wq_value_equal(WQ_V_SCOPE, "numa", "numa"), "numa equals numa");
	ok(wq_value_equal(WQ_V_CPUMASK, "0000,00000003", "3"), "masks compare as bitmaps");
	ok(!wq_value_equal(WQ_V_CPUMASK, "3", "1"), "different masks differ");
	ok(wq_value_equal(WQ_V_INT, "0064", "64"), "numbers compare as numbers");
	ok(!wq_value_equal(WQ_V_INT, "16abc", "16"), "trailing junk is not a number");
	ok(wq_value_equal(WQ_V_YN, "Y", "1"), "Y is true");
	ok(wq_value_equal(WQ_V_BOOL, "0", "off"), "off is 0");
	ok(wq_name_is_valid("xfs-buf!sda1"), "xfs-buf!sda1 is a valid name");
	ok(!wq_name_is_valid("../etc"), "../etc is not a name");
	ok(!wq_name_is_valid(".."), ".. is not a name");
	ok(!wq_name_is_valid(""), "empty is not a name");
	ok(!wq_name_is_valid("a b"), "blank in a name");
	ok(wq_attr_from_name("max_active") == WQ_A_MAX_ACTIVE && wq_attr_from_name("per_cpu") < 0, "attribute names");
	/* device paths as users and udev write them */
	ok(wq_root_devpath("/sys/devices/virtual/block/dm-0", buf, sizeof(buf)) == 0 &&
	       !strcmp(buf, "sys/devices/virtual/block/dm-0"),
	   "devpath: /sys/devices/... -> sys/devices/...");
	ok(wq_root_devpath("/devices/virtual/block/dm-0//", buf, sizeof(buf)) == -EINVAL, "devpath: '//' refused");
	ok(wq_root_devpath("/devices/virtual/block/dm-0/", buf, sizeof(buf)) == 0 &&
	       !strcmp(buf, "sys/devices/virtual/block/dm-0"),
	   "devpath: a udev DEVPATH, trailing slash dropped");
	ok(wq_root_devpath("/devices/../etc", buf, sizeof(buf)) == -EINVAL, "devpath: '..' refused");
	ok(wq_root_devpath("/devices/virtual/..", buf, sizeof(buf)) == -EINVAL, "devpath: trailing '..' refused");
	ok(wq_root_devpath("/devices/./x", buf, sizeof(buf)) == -EINVAL, "devpath: '.' refused");
	ok(wq_root_devpath("/sys/class/block/sda", buf, sizeof(buf)) == -EINVAL, "devpath: not below /devices");
	ok(wq_root_devpath("devices/x", buf, sizeof(buf)) == -EINVAL, "devpath: relative refused");
	ok(wq_root_devpath("/devices/virtual/block/dm-0", buf, 16) == -ENAMETOOLONG,
	   "devpath: too long for the buffer");
	/* the boot root mask and nohz_full= (KERNEL rule: HK_TYPE_WQ up to 6.x, an alias of kernel noise from 7.0) */
	{
		struct wq_kver k6, k7, ku;
		const char *which;

		wq_kver_parse("6.12.117+deb12-amd64", &k6);
		wq_kver_parse("7.0.0", &k7);
		memset(&ku, 0, sizeof(ku));
		ok(wq_kver_nohz_restricts_root(&k6), "6.12: nohz_full= removes CPUs from the boot root mask");
		ok(!wq_kver_nohz_restricts_root(&k7), "7.0: it no longer does");
		ok(!wq_kver_nohz_restricts_root(&ku), "unknown release: as the newest");
		ok(wq_kver_name_sharers(&k6, "events", &which) == 1 && !which, "6.12: one 'events'");
		wq_kver_parse("6.17.0", &k6);
		ok(wq_kver_name_sharers(&k6, "events", &which) == 2 && which && strstr(which, "system_percpu_wq"),
		   "6.17: two 'events' (%s)", which ? which : "");
		ok(wq_kver_name_sharers(&k7, "events_unbound", &which) == 2 && strstr(which, "system_dfl_wq"),
		   "7.0: two 'events_unbound'");
		ok(wq_kver_name_sharers(&k7, "events_freezable", &which) == 1, "7.0: one 'events_freezable'");
		ok(wq_kver_name_sharers(&ku, "events", &which) == 1, "unknown release: no claim");
	}
	return tap_done();
}
