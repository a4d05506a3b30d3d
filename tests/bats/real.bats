#!/usr/bin/env bats
# Trees captured from Debian's own kernels booted under QEMU by the VM tier
# (make check-vm): `wqctl dump` run inside the guest, copied byte for byte
# into tests/fixtures/real/ by tests/vm/save-fixtures.sh. The layouts are the
# ones QEMU was given (tests/vm/run.sh):
#   even    4 nodes x 4 CPUs: {0-3} {4-7} {8-11} {12-15}, one L3 per node
#   uneven  one socket, nodes {0,4} {1,5} {2,6,8,10} {3,7,9,11-15}
# so every expected figure below comes from those layouts and doc/kernel.md,
# not from wqctl; the probe rows of the VM tier measured the same figures
# on the running kernels.
load helpers

REAL="$TOP/tests/fixtures/real"

use_real() { # NAME: $ROOT is a fresh copy of the captured tree
	ROOT="$BATS_TEST_TMPDIR/root"
	rm -rf "$ROOT" && mkdir -p "$ROOT"
	# each archive holds one directory named as itself
	tar -xzf "$REAL/$1.tar.gz" -C "$ROOT" --strip-components=1
}

cpus_of() { # JSON topology, row name -> its "cpus"
	tr -d ' \n' | sed -n "s/.*\"$1\":{\"cpus\":\"\\([^\"]*\\)\".*/\\1/p"
}

# --- nohz_full: "(null)" right-aligned in a field nr_cpu_ids wide ------------

@test "Debian 6.12: nohz_full is the kernel's padded (null), byte for byte" {
	use_real debian-6.12-even
	# 16 possible CPUs: "(null)" right-aligned in 16 columns, then a newline
	run cat "$ROOT/sys/devices/system/cpu/nohz_full"
	assert_output "          (null)"
	assert_equal "$(wc -c <"$ROOT/sys/devices/system/cpu/nohz_full")" 17
}

@test "Debian 6.12: topology reads nohz_full (null) as no CPUs" {
	use_real debian-6.12-even
	run wq topology -r
	assert_success
	assert_line --regexp '^nohz_full +0$'
	assert_line --regexp '^housekeeping +0-15 16$'
}

@test "Debian 6.1: topology, explain, check and set cpumask work with nohz_full (null)" {
	use_real debian-6.1-even
	assert_equal "$(wc -c <"$ROOT/sys/devices/system/cpu/nohz_full")" 17
	run wq topology
	assert_success
	run wq explain writeback
	assert_success
	run wq check
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ]
	refute_output --partial "Invalid argument"
	run wq set writeback cpumask=4-7
	assert_success
	# 4-7 as the kernel's hex mask for 16 CPUs
	assert_equal "$(cat "$ROOT/sys/devices/virtual/workqueue/writeback/cpumask")" 00f0
}

@test "Debian 6.12 uneven: nodes and cache pods are the layout QEMU was given" {
	use_real debian-6.12-uneven
	run wq topology --scope numa -r
	assert_success
	assert_line 'numa 0 0 0,4 2'
	assert_line 'numa 1 1 1,5 2'
	assert_line 'numa 2 2 2,6,8,10 4'
	assert_line 'numa 3 3 3,7,9,11-15 8'
	# one socket: the L3 spans every CPU, so a cache pod is the L3 within a node
	run wq topology --scope cache -r
	assert_line 'cache 0 0 0,4 2'
	assert_line 'cache 3 3 3,7,9,11-15 8'
}

# --- era A: ordering belongs to workqueues created with max_active 1 ---------

@test "Debian 6.1: created with 16, set to 1: numa reads 1, one per node pool (4)" {
	use_real debian-6.1-even-set1
	assert_equal "$(cat "$(WQDIR)/wqprobe/max_active")" 1
	assert_equal "$(cat "$(WQDIR)/wqprobe/numa")" 1
	# doc/kernel.md §4.1: not ordered; E = all CPUs, 4 nodes with their own pwq -> 1 x 4
	run wq explain -J wqprobe
	assert_success
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '"max_inflight":4'
	assert_output --partial '"ordered":false'
}

@test "Debian 6.1: created with 1: numa reads 0, implicitly ordered (1)" {
	use_real debian-6.1-even-created1
	assert_equal "$(cat "$(WQDIR)/wqprobe/numa")" 0
	run wq explain wqprobe
	assert_success
	assert_line "max_inflight: 1"
	assert_output --partial "implicitly ordered"
	# a max_active write loses the ordering: set warns
	run wq set wqprobe max_active=4
	assert_success
	assert_output --partial "implicitly ordered"
	# numa stays 0: one pool for the whole workqueue -> M, not 4 x M
	run wq explain -J wqprobe
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '"max_inflight":4'
}

@test "Debian 6.1: created with 16, set to 1, then set back: no ordering warning" {
	use_real debian-6.1-even-set1
	run wq set wqprobe max_active=16
	assert_success
	refute_output --partial "implicitly ordered"
}

@test "Debian 6.12: created with 16, set to 1: split across 4 nodes, 1 each (4)" {
	use_real debian-6.12-even-set1
	# doc/kernel.md §4.3: M = 1 lowers min_active to 1; node_max = clamp(ceil(1*4/16), 1, 1) = 1 per node
	run wq explain -J wqprobe
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '"max_inflight":4'
}

# --- the quirk sweep: every file class wqctl reads, as real kernels print it --

@test "quirk: isolated and offline are a bare newline (Debian 6.1 and 6.12, no isolcpus=)" {
	for k in 6.1 6.12; do
		use_real "debian-$k-even"
		assert_equal "$(od -An -c "$ROOT/sys/devices/system/cpu/isolated" | tr -d ' ')" '\n'
		run wq topology -r
		assert_success
		assert_line --regexp '^isolated +0$'
	done
}

@test "quirk: cpumask_isolated is zero-padded hex, not empty (Debian 6.12)" {
	use_real debian-6.12-even
	assert_equal "$(cat "$(WQDIR)/cpumask_isolated")" 0000
	run wq knob -r -n -o VALUE cpumask_isolated
	assert_success
	assert_output ""
}

@test "quirk: writeback/uevent is empty (Debian 6.1 and 6.12)" {
	use_real debian-6.12-even
	[ -f "$(WQDIR)/writeback/uevent" ] && [ ! -s "$(WQDIR)/writeback/uevent" ]
	run wq show writeback
	assert_success
}

@test "quirk: files without a trailing newline (hand-made dumps; no kernel prints them) read the same" {
	use_real debian-6.12-uneven
	before=$(wq show -J && wq topology -J && wq explain -J writeback)
	find "$ROOT/sys" "$ROOT/proc" -type f -size +0 | while read -r f; do
		printf '%s' "$(cat "$f")" >"$f.tmp" && mv "$f.tmp" "$f"
	done
	[ "$(tail -c1 "$ROOT/sys/devices/system/cpu/possible" | od -An -c | tr -d ' ')" != '\n' ]
	after=$(wq show -J && wq topology -J && wq explain -J writeback)
	assert_equal "$after" "$before"
}

@test "quirk: nohz_full (null) without padding (fewer than 6 possible CPUs) reads as no CPUs" {
	use_real debian-6.12-even
	# %*pbl pads to nr_cpu_ids columns; with 2 CPUs "(null)" is wider than that
	printf '(null)\n' >"$ROOT/sys/devices/system/cpu/nohz_full"
	run wq topology -r
	assert_success
	assert_line --regexp '^nohz_full +0$'
}

@test "quirk: a garbled nohz_full is still an error naming the file" {
	use_real debian-6.12-even
	printf '  (nul\n' >"$ROOT/sys/devices/system/cpu/nohz_full"
	run wq topology
	assert_failure
	assert_output --partial "nohz_full"
}

@test "each real dump unpacks into one directory named as its archive, spilling nothing beside it (issue 45)" {
	local f n tops
	for f in "$REAL"/*.tar.gz; do
		n=$(basename "$f" .tar.gz)
		tops=$(tar -tzf "$f" | cut -d/ -f1 | sort -u)
		assert_equal "$n: $tops" "$n: $n"
	done
}

# --- the workqueues outside sysfs: their rescuer threads ----------------------
# host-6.18-btrfs is this project's development machine (Debian 12, kernel
# 6.18, 2 CPUs) with a btrfs mounted from a loop device: `wqctl dump`, then
# every kernel thread's /proc/PID/stat and kthreadd's children file copied as
# the kernel printed them. At the capture `ps -e -o comm= | grep -c
# '^kworker/R-'` printed 33 and sysfs listed blkcg_punt_bio and writeback, so
# 31 workqueues with a rescuer are outside sysfs.

# the rescuers' workqueues in the tree, found by grep and sed: kworker/R-NAME lines
rescuer_names() {
	grep -ho '^[0-9]* (kworker/R-.*) [A-Z] ' "$ROOT"/proc/*/stat | sed 's/^[0-9]* (kworker\/R-\(.*\)) [A-Z] $/\1/' | LC_ALL=C sort
}

@test "6.18 host: show points to the workqueues beyond sysfs after the table, without reading the threads (issue 45, 61)" {
	use_real host-6.18-btrfs
	assert_equal "$(rescuer_names | wc -l)" 33
	run wq show
	assert_success
	assert_line --index 0 --regexp '^NAME +KIND'
	assert_line --index 3 "wqctl: the kernel has more workqueues than sysfs lists: 'wqctl show --outside' lists those with a rescuer thread, 'wqctl monitor' every one doing work"
	# a pattern, -q or JSON on stdout: the pointer is not asked for there
	run wq show writeback
	refute_output --partial "more workqueues"
	run wq -q show
	refute_output --partial "more workqueues"
	# the pointer reads no thread's stat file: each one a FIFO, which a read would wait on for ever
	for f in "$ROOT"/proc/*/stat; do rm "$f" && mkfifo "$f"; done
	run timeout 20 "$WQCTL" --sysroot "$ROOT" show
	assert_success
	assert_line --index 3 "wqctl: the kernel has more workqueues than sysfs lists: 'wqctl show --outside' lists those with a rescuer thread, 'wqctl monitor' every one doing work"
}

@test "6.18 host: show --outside lists every rescuer's workqueue but the two in sysfs; btrfs's with thread_pool= (issue 45)" {
	use_real host-6.18-btrfs
	want=$(rescuer_names | grep -vx -e writeback -e blkcg_punt_bio)
	run wq show --outside -r -n -o NAME
	assert_success
	assert_equal "$(echo "$output" | LC_ALL=C sort)" "$want"
	assert_equal "${#lines[@]}" 31
	run wq show --outside -P -o NAME,RESCUER_PID,OWNER,SETTING 'btrfs-endio-w*'
	assert_success
	pid=$(grep -l '(kworker/R-btrfs-endio-write)' "$ROOT"/proc/*/stat | sed 's|.*/proc/\([0-9]*\)/stat$|\1|')
	# the dump's one btrfs, /tmp/bm, without thread_pool=: the default min(2 online CPUs + 2, 8) = 4
	assert_output "NAME=\"btrfs-endio-write\" RESCUER_PID=\"$pid\" OWNER=\"btrfs\" SETTING=\"mount option thread_pool=N: 4 on /tmp/bm (the default)\""
	run wq show --outside -J -o NAME kblockd
	assert_success
	assert_output --partial '"name": "kblockd",'
	assert_output --partial '"truncated": false'
	# kworker/R-netns fills 15 characters, but kworker/R-kvfree_rcu_reclaim is longer: names are whole here
	grep -q '(kworker/R-netns)' "$ROOT"/proc/*/stat
	run wq show --outside -r -n -o NAME,TRUNCATED netns
	assert_output 'netns 0'
	# without the long ones, a 15-character name may have been cut
	grep -l '(kworker/R-.\{6,\})' "$ROOT"/proc/*/stat | xargs rm
	run wq show --outside -r -n -o NAME,TRUNCATED netns
	assert_output 'netns 1'
}

@test "show --outside without kthreadd's children file reads every process: the same list" {
	use_real host-6.18-btrfs
	before=$(wq show --outside -r -n -o NAME)
	rm "$ROOT/proc/2/task/2/children"
	run wq show --outside -r -n -o NAME
	assert_success
	assert_equal "$output" "$before"
}

@test "show --outside: a pattern outside sysfs that matches nothing exits 32; a tree without processes says so (exit 1)" {
	use_real host-6.18-btrfs
	run wq show --outside 'nosuch*'
	assert_equal "$status" 32
	assert_output --partial "no workqueue outside sysfs matches nosuch* (only those with a rescuer thread are known)"
	use_real debian-6.12-even
	run wq show --outside
	assert_equal "$status" 1
	assert_output --partial "proc: cannot list the rescuer threads: no processes there"
	# and plain show has nothing to add there
	run wq show
	assert_success
	refute_output --partial "more workqueues"
}

@test "Debian 6.1: rescuers carry the workqueue's name cut at 15 characters; show --outside says which may be cut (issue 45)" {
	use_real debian-6.1-uneven
	# fs/quota/dquot.c's quota_events_unbound (20 characters) is quota_events_un in the thread's name;
	# block/blk-core.c's kblockd fits; writeback and blkcg_punt_bio are in sysfs
	run wq show --outside -r -n -o NAME,TRUNCATED
	assert_success
	assert_line 'quota_events_un 1'
	assert_line 'kblockd 0'
	refute_line --regexp '^(writeback|blkcg_punt_bio) '
	# the guest had 20 rescuer threads (the VM tier's stat lines); 2 are sysfs's
	assert_equal "${#lines[@]}" 18
	# the dump holds only its rescuers' stat files (no kthreadd): show still finds processes there
	[ ! -e "$ROOT/proc/2/stat" ]
	run wq show
	assert_line "wqctl: the kernel has more workqueues than sysfs lists: 'wqctl show --outside' lists those with a rescuer thread, 'wqctl monitor' every one doing work"
}

# --- btrfs's thread_pool as a setting (experiment; revert) -------------------
# host-6.18-btrfs mounts a btrfs at /tmp/bm without thread_pool= among its
# options: btrfs's default there, min(2 online CPUs + 2, 8) = 4.

@test "6.18 host: experiment --set 'MOUNTPOINT thread_pool=...' checks everything, then refuses a tree (only a live mount can be reconfigured)" {
	use_real host-6.18-btrfs
	run wq experiment --set '/tmp/bm thread_pool=2,3' -- true
	assert_failure 2
	assert_output "wqctl: experiment: --set '/tmp/bm thread_pool=2,3': thread_pool changes by reconfiguring the mount, which only the live system can"
	run wq experiment --set '/tmp/bm/ thread_pool=0' -- true
	assert_failure 2
	assert_output "wqctl: /tmp/bm thread_pool: invalid value '0': expected a whole number of 1 or more"
	run wq experiment --set '/ thread_pool=2' -- true
	assert_failure 2
	assert_output "wqctl: experiment: --set '/ thread_pool=2': /: not a btrfs (thread_pool= is btrfs's mount option)"
	run wq experiment --set '/tmp thread_pool=2' -- true
	assert_failure 32
	assert_output "wqctl: experiment: --set '/tmp thread_pool=2': /tmp: no btrfs is mounted there"
	run wq experiment --set '/tmp/bm thread_pool' -- true
	assert_failure 2
}

@test "revert of a thread_pool journal line: left alone when the mount changed since, never written below a tree, refused when malformed" {
	use_real host-6.18-btrfs
	mkdir -p "$ROOT/run/wqctl"
	# wqctl wrote 3 where 4 was; the mount shows the default 4 now: someone changed it since
	printf 'mount:/tmp/bm thread_pool\t0\t4\t3\n' >"$ROOT/run/wqctl/journal"
	run wq revert
	assert_success
	assert_output --partial "mount:/tmp/bm thread_pool: left alone: changed since wqctl wrote '3' (now '4')"
	# as wqctl left it (4): revert would write, which a tree cannot take
	printf 'mount:/tmp/bm thread_pool\t0\t6\t4\n' >"$ROOT/run/wqctl/journal"
	run wq revert
	assert_failure 1
	assert_output --partial "mount:/tmp/bm thread_pool: restore failed: Operation not supported"
	# a line that no experiment writes is not trusted at all
	printf 'mount:/tmp/bm/../etc thread_pool\t0\t6\t4\n' >"$ROOT/run/wqctl/journal"
	run wq revert
	assert_failure
	assert_output --partial "malformed journal line"
	printf 'mount:/tmp/bm nice\t0\t6\t4\n' >"$ROOT/run/wqctl/journal"
	run wq revert
	assert_failure
	assert_output --partial "is neither a workqueue attribute, a workqueue knob nor a mount option"
}
