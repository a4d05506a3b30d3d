#!/usr/bin/env bats
# get and set against fixture trees: values written are read back from the files.
load helpers

setup() { use_tree vmware_fpe 6.18.0; }

@test "get prints ATTR = VALUE lines with the mask as a CPU list" {
	run wq get writeback
	assert_success
	# vmware_fpe: possible 0-31
	assert_output "max_active = 1024
cpumask = 0-31
affinity_scope = default (cache)
affinity_strict = 0
nice = 0"
}

@test "get -n prints values only; --hex the kernel mask" {
	run wq get -n writeback max_active nice
	assert_output "1024
0"
	run wq get --hex -n writeback cpumask
	assert_output "ffffffff"
}

@test "get -J: one object keyed by attribute, typed values, the scope split from its default" {
	run bash -c "'$WQCTL' --sysroot '$ROOT' get -J writeback | tr -d ' \n'"
	assert_success
	# the fixture's writeback (6.18): 1024, every one of 32 CPUs, default scope (cache), not strict, nice 0
	assert_output '{"workqueue":"writeback","max_active":1024,"cpumask":"0-31","affinity_scope":"cache","affinity_scope_default":true,"affinity_strict":false,"nice":0}'
	run bash -c "'$WQCTL' --sysroot '$ROOT' get -J --hex writeback cpumask max_active | tr -d ' \n'"
	assert_output '{"workqueue":"writeback","cpumask":"ffffffff","max_active":1024}'
	wq set writeback affinity_scope=numa affinity_strict=1
	run bash -c "'$WQCTL' --sysroot '$ROOT' get -J writeback affinity_scope affinity_strict | tr -d ' \n'"
	assert_output '{"workqueue":"writeback","affinity_scope":"numa","affinity_scope_default":false,"affinity_strict":true}'
}

@test "set writes the kernel's formats and reads back" {
	run wq set writeback max_active=64 cpumask=0-3,8 affinity_scope=numa affinity_strict=yes nice=-5
	assert_success
	# what it wrote, as apply says it (the fixture's writeback: 1024, 0-31, default (cache), 0, 0)
	assert_output "writeback/max_active: 1024 -> 64
writeback/cpumask: 0-31 -> 0-3,8
writeback/affinity_scope: default (cache) -> numa
writeback/affinity_strict: 0 -> 1
writeback/nice: 0 -> -5"
	run wq set writeback nice=-5
	assert_output "nothing to change"
	# -q: written, not said
	run wq -q set writeback nice=-4
	assert_output ""
	run wq -q set writeback nice=-5
	assert_output ""
	d=$(WQDIR)/writeback
	assert_equal "$(cat "$d/max_active")" 64
	# CPUs 0-3 and 8 = bits 0x10f; nr_cpu_ids 32 -> one full chunk
	assert_equal "$(cat "$d/cpumask")" 0000010f
	assert_equal "$(cat "$d/affinity_scope")" numa
	assert_equal "$(cat "$d/affinity_strict")" 1
	assert_equal "$(cat "$d/nice")" -5
}

@test "set cpumask keywords: node:LIST, housekeeping, all, 0xMASK, mask:, terms joined with +" {
	d=$(WQDIR)/writeback
	wq set writeback cpumask=node:1
	assert_equal "$(cat "$d/cpumask")" 000000f0   # node1 = CPUs 4-7
	wq set writeback cpumask=node:0+node:3
	assert_equal "$(cat "$d/cpumask")" 0000f00f   # 0-3 and 12-15
	wq set writeback cpumask=housekeeping
	assert_equal "$(cat "$d/cpumask")" 0000ffff   # online 0-15, nothing isolated
	wq set writeback cpumask=0x30
	assert_equal "$(cat "$d/cpumask")" 00000030
	wq set writeback cpumask=mask:c0+1
	assert_equal "$(cat "$d/cpumask")" 000000c2
	wq set writeback cpumask=all
	assert_equal "$(cat "$d/cpumask")" ffffffff
	wq set writeback cpumask=1,2,3
	assert_equal "$(cat "$d/cpumask")" 0000000e
}

@test "set on a glob writes every match" {
	run wq set --force 'kcryptd*' max_active=2
	assert_success
	assert_equal "$(cat "$(WQDIR)/kcryptd-253:0-1/max_active")" 2
	assert_equal "$(cat "$(WQDIR)/kcryptd_io-253:0-1/max_active")" 2
}

@test "set --dry-run prints path, old, new and effective and writes nothing" {
	before=$(tree_sum)
	run wq set --dry-run writeback cpumask=4-7 affinity_scope=default max_active=1024
	assert_success
	assert_line --index 0 --regexp '^PATH +OLD +NEW +EFFECTIVE$'
	assert_line --regexp "writeback/cpumask +0-31 +4-7 +4-7$"
	assert_line --regexp "writeback/affinity_scope +default \(cache\) +default +default \(cache\)$"
	assert_equal "$(tree_sum)" "$before"
}

@test "set --dry-run -J" {
	run wq set --dry-run -J writeback nice=3
	assert_success
	assert_output --partial '"plan": ['
	assert_output --partial '"new": "3"'
}

@test "set effective value falls back to the root mask when the wq mask misses it" {
	echo 0000000f >"$(WQDIR)/cpumask"
	run wq set --dry-run -P -o NEW,EFFECTIVE writeback cpumask=8-11
	assert_output 'NEW="8-11" EFFECTIVE="0-3"'
}

@test "--kernel decides the max_active limit" {
	# a 6.8 tree: limit 512; claiming 6.18 raises it to 2048 (doc/kernel.md §3)
	use_tree vmware_fpe 6.8.0
	run wq set writeback max_active=2000
	assert_equal "$status" 2
	run wq --kernel 6.18.0 set writeback max_active=2000
	assert_success
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 2000
}

@test "set -v says what it wrote and what was unchanged" {
	run wq -v set writeback max_active=1024 nice=1
	assert_success
	assert_output --partial "writeback/max_active: unchanged"
	assert_output --partial "writeback/nice: written"
}

@test "set on a 6.1 tree writes numa" {
	use_tree vmware_fpe 6.1.0
	run wq set writeback numa=0
	assert_success
	assert_equal "$(cat "$(WQDIR)/writeback/numa")" 0
}

@test "set max_active below min_active on 6.18 needs --force; the lowered floor is kept and reported" {
	run wq set writeback max_active=4
	assert_equal "$status" 2
	assert_output "wqctl: writeback/max_active: writing 4 lowers the hidden min_active from 8 to 4 until the workqueue is recreated (kernel >= 6.9); add --force to write it"
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 1024
	run wq set --force writeback max_active=4
	assert_success
	assert_line "wqctl: writeback/max_active: min_active goes from 8 to 4 until the workqueue is recreated"
	assert_line "writeback/max_active: 1024 -> 4"
	assert_equal "${#lines[@]}" 2
	# raised again, the floor stays 4: explain and check say so
	run wq set writeback max_active=64
	assert_success
	run wq explain -J writeback
	assert_output --partial '"min_active": 4'
	run wq check -r -n -o SEVERITY,CODE,TARGET
	assert_line "warning min-active-lowered writeback"
	# 6 is above the lowered floor: no --force; 2 is below it
	run wq set writeback max_active=6
	assert_success
	run wq set writeback max_active=2
	assert_equal "$status" 2
	assert_output --partial "lowers the hidden min_active from 4 to 2"
	# a recreated workqueue (a new sysfs directory) is a new instance: its floor is 8 again
	cp -a "$(WQDIR)/writeback" "$(WQDIR)/wb.new" && rm -rf "$(WQDIR)/writeback" && mv "$(WQDIR)/wb.new" "$(WQDIR)/writeback"
	run wq explain -J writeback
	assert_output --partial '"min_active": 6'
	run wq check -r -n -o SEVERITY,CODE,TARGET
	refute_line "warning min-active-lowered writeback"
}

@test "a profile's max_active below min_active is written without --force and recorded" {
	printf '[workqueue writeback]\nmax_active = 3\n' >"$BATS_TEST_TMPDIR/low.conf"
	run wq --profile-dir "$BATS_TEST_TMPDIR" apply --profile low
	assert_success
	assert_equal "$(cut -f1,3 "$ROOT/run/wqctl/min_active")" "$(printf 'writeback\t3')"
	# per-cpu workqueues have no min_active: nothing recorded for them
	run wq set --force kcryptd_io-253:0-1 max_active=2
	assert_success
	refute grep -q kcryptd_io "$ROOT/run/wqctl/min_active"
}

@test "set max_active of an implicitly ordered workqueue on 6.8 warns that ordering is lost" {
	use_tree vmware_fpe 6.8.0
	run wq set scsi_tmf_0 max_active=4
	assert_success
	assert_output --partial "scsi_tmf_0/max_active: this workqueue may be implicitly ordered"
}

@test "a glob in set that also reaches per-cpu workqueues skips their cpumask with a note; a named one is an error" {
	"$TOP/tests/fixtures/mkowners.sh" "$ROOT"
	run wq set 'kcryptd*' cpumask=0-3
	assert_success
	# the note, then what was written: the three unbound kcryptd workqueues (mkowners.sh), 0-31 before
	assert_output "wqctl: kcryptd_io-253:0-1/cpumask: skipped: per-cpu workqueues have no cpumask
kcryptd-253:0-1/cpumask: 0-31 -> 0-3
kcryptd-253:0-2/cpumask: 0-31 -> 0-3
kcryptd-253:1-1/cpumask: 0-31 -> 0-3"
	assert_equal "$(cat "$(WQDIR)/kcryptd-253:0-1/cpumask")" 0000000f
	run wq set kcryptd_io-253:0-1 cpumask=0-3
	assert_equal "$status" 2
	assert_output --partial "per-cpu workqueues have no cpumask"
}

@test "unknown attributes and knobs name the nearest one" {
	run wq get writeback max_actvie
	assert_equal "$status" 2
	assert_output "wqctl: writeback/max_actvie: unknown attribute; did you mean 'max_active'?"
	run wq set writeback maxactive=3
	assert_output "wqctl: maxactive: unknown attribute; did you mean 'max_active'?"
	run wq knob watchdog_thres
	assert_equal "$status" 2
	assert_output "wqctl: watchdog_thres: no such knob on this kernel; did you mean 'watchdog_thresh'?"
	run wq knob defualt_affinity_scope=numa
	assert_output "wqctl: defualt_affinity_scope: no such knob on this kernel; did you mean 'default_affinity_scope'?"
}

@test "check and verify of an invalid profile do not say 'nothing applied'; apply does" {
	mkdir -p "$BATS_TEST_TMPDIR/p" && printf '[bogus]\n' >"$BATS_TEST_TMPDIR/p/bad.conf"
	for c in check verify; do
		run wq --profile-dir "$BATS_TEST_TMPDIR/p" $c --profile bad
		assert_equal "$status" 2
		assert_line "wqctl: profiles: invalid"
	done
	run wq --profile-dir "$BATS_TEST_TMPDIR/p" apply --profile bad
	assert_line "wqctl: profiles: invalid, nothing applied"
}

# --- workqueues their owners keep out of sysfs (issue 45 item 1) ---------------

@test "set, get and show of a btrfs workqueue say it is outside sysfs and that thread_pool= is the setting" {
	# x86_64-dell_e4310: 4 online CPUs (lscpu), so thread_pool defaults to min(4 + 2, 8) = 6
	use_tree x86_64-dell_e4310 6.18.0
	before=$(tree_sum)
	run wq set btrfs-endio-write max_active=8
	assert_equal "$status" 32
	assert_line "wqctl: btrfs-endio-write: not in sysfs: btrfs creates its workqueues without WQ_SYSFS, so they cannot be read or set"
	assert_line --partial "btrfs-endio-write: instead, the thread_pool=N mount option sets max_active"
	assert_output --partial "6 on this machine: mount -o remount,thread_pool=N MOUNTPOINT (thread_pool=N among its options in /etc/fstab keeps it after a reboot)"
	refute_output --partial "no such workqueue"
	assert_equal "$(tree_sum)" "$before"
	run wq get btrfs-endio-write
	assert_equal "$status" 32
	assert_output --partial "btrfs-endio-write: not in sysfs: btrfs creates"
	# a pattern that only btrfs's names match: the same, with an example name to explain
	run wq show 'btrfs*'
	assert_equal "$status" 32
	assert_output --partial "btrfs*: not in sysfs: btrfs creates"
	assert_output --partial "'wqctl explain btrfs-endio-write' says what a value means here"
	# a pattern that matches nothing known stays as it was
	run wq show 'nosuch*'
	assert_equal "$status" 32
	assert_output "wqctl: nosuch*: no workqueue matches"
}

@test "dm-zoned's workqueues: outside sysfs with no setting; kcryptd: absent device on 6.10+, dm-crypt's options before" {
	run wq get dmz_cwq_dmz-0
	assert_equal "$status" 32
	assert_output --partial "dmz_cwq_dmz-0: not in sysfs: dm-zoned creates its workqueues without WQ_SYSFS and offers no setting for them"
	refute_output --partial "none:"
	# 6.18: kcryptd-MAJ:MIN-ID is in sysfs while its device exists; here the tree's one device is gone
	rm -rf "$(WQDIR)"/kcryptd*
	run wq set kcryptd-253:7-1 max_active=4
	assert_equal "$status" 32
	assert_output --partial "kcryptd-253:7-1: no such workqueue: dm-crypt's are in sysfs from 6.10 on"
	refute_output --partial "WQ_SYSFS"
	# 6.8: not in sysfs at all; the table options are the setting
	use_tree vmware_fpe 6.8.0
	run wq get kcryptd-253:7-1
	assert_equal "$status" 32
	assert_output --partial "not in sysfs: dm-crypt creates its workqueues without WQ_SYSFS"
	assert_output --partial "cryptsetup refresh"
}

@test "a typo of a kcryptd workqueue that exists is still answered with its name" {
	# vmware_fpe 6.18 has kcryptd-253:0-1 (mktree.sh's base set)
	run wq get kcryptd-253:0-7
	assert_equal "$status" 32
	assert_output "wqctl: kcryptd-253:0-7: no such workqueue; did you mean 'kcryptd-253:0-1'?"
}
