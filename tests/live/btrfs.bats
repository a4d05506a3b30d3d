#!/usr/bin/env bats
# A real btrfs on a loop device (issue 45 items 1 and 4): its workqueues are
# outside sysfs; monitor sees them and gives the LIMIT explain computes,
# set/get say what to change instead. Unmounted and detached whatever happens.
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"
# shellcheck source=ready.bash
source "$BATS_TEST_DIRNAME/ready.bash"

T=/sys/kernel/tracing
# wqctl names its tracefs instances PID_NS (NS: the inode of the PID namespace)
NS=$(stat -L -c %i /proc/self/ns/pid)

setup_file() {
	: "${WQCTL:?}"
	[ "$(id -u)" = 0 ] || skip "not root"
	[ -d "$T/instances" ] || skip "tracefs is not mounted at $T"
	command -v mkfs.btrfs >/dev/null || skip "mkfs.btrfs is not installed (make deps)"
	export MNT=$BATS_FILE_TMPDIR/mnt IMG=$BATS_FILE_TMPDIR/btrfs.img
	truncate -s 300M "$IMG"
	mkfs.btrfs -q -f "$IMG" >/dev/null
	mkdir -p "$MNT"
	mount -o loop "$IMG" "$MNT" || skip "cannot mount btrfs (no btrfs in this kernel)"
}

teardown_file() {
	# a test that failed between an experiment's write and its restore: the journal puts thread_pool back
	[ -s /run/wqctl/journal ] && "$WQCTL" revert >/dev/null 2>&1
	mountpoint -q "${MNT:-/nonexistent}" && umount "$MNT"
	for d in "$T"/instances/wqctl-monitor-*; do if [ -d "$d" ]; then rmdir "$d"; fi; done
	true
}

@test "btrfs live: monitor shows btrfs-endio-write with explain's LIMIT; set says thread_pool= is the setting" {
	want=$("$WQCTL" explain -J btrfs-endio-write | sed -n 's/.*"max_inflight": \([0-9]*\).*/\1/p')
	[ -n "$want" ] && [ "$want" -gt 0 ]
	"$WQCTL" monitor -J -i 3 -c 1 -o NAME,QUEUED,MAX_ACTIVE,LIMIT 'btrfs-endio-write' >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	# counting, whichever backend auto took
	counting "$pid" || true
	# data writes end in btrfs-endio-write work
	for i in 1 2 3; do dd if=/dev/urandom of="$MNT/f$i" bs=1M count=8 conv=fsync status=none; done
	wait "$pid"
	run cat "$BATS_TEST_TMPDIR/out"
	assert_output --partial '"name":"btrfs-endio-write"'
	# the thread_pool default here: min(online CPUs + 2, 8), as explain assumes it
	online=$(nproc)
	tp=$((online + 2 < 8 ? online + 2 : 8))
	assert_output --partial "\"max_active\":$tp,\"limit\":$want"
	# the workqueue the tracepoints show is not in sysfs, and set says what to change instead
	[ ! -e /sys/devices/virtual/workqueue/btrfs-endio-write ]
	run "$WQCTL" set btrfs-endio-write max_active=8
	assert_equal "$status" 32
	assert_output --partial "btrfs-endio-write: instead, the thread_pool=N mount option"
}

@test "btrfs live: show --outside lists the rescuer threads' workqueues that ps sees outside sysfs; show points to it" {
	# procps's view: every kworker/R-NAME thread (6.9+) less the workqueues sysfs lists
	want=$(ps -e -o comm= | sed -n 's/^kworker\/R-//p' | grep -vxF -f <(ls /sys/devices/virtual/workqueue) | LC_ALL=C sort)
	echo "$want" | grep -qx btrfs-endio-write
	run "$WQCTL" show --outside -r -n -o NAME
	assert_success
	assert_equal "$(echo "$output" | LC_ALL=C sort)" "$want"
	run "$WQCTL" show
	assert_success
	assert_output --partial "wqctl: the kernel has more workqueues than sysfs lists: 'wqctl show --outside' lists those with a rescuer thread"
}

@test "btrfs live: experiment --watch counts btrfs-endio-write's work while it varies writeback; writeback restored" {
	before=$(cat /sys/devices/virtual/workqueue/writeback/max_active)
	run "$WQCTL" experiment --set "writeback max_active=64" --runs 1 --watch btrfs-endio-write --watch 'no-such-wq' -J \
		-- dd if=/dev/urandom of="$MNT/w" bs=1M count=8 conv=fsync status=none
	assert_success
	assert_equal "$(cat /sys/devices/virtual/workqueue/writeback/max_active)" "$before"
	doc=$(echo "$output" | sed -n '/^{/,$p')
	# the watched workqueue did work (data writes end in it); a watched name that did none is there with 0
	q=$(echo "$doc" | tr -d ' \n' | grep -o '"name":"btrfs-endio-write","watched":true,"queued":[0-9]*' | sed 's/.*://')
	[ -n "$q" ] && [ "$q" -gt 0 ]
	echo "$doc" | tr -d ' \n' | grep -q '"name":"no-such-wq","watched":true,"queued":0,'
	echo "$doc" | tr -d ' \n' | grep -q '"watch":\["btrfs-endio-write","no-such-wq"\]'
}

# the thread_pool= a run sees in force on $MNT, as the kernel lists the mount
tp_now() { awk -v m="$MNT" '$2 == m { n = split($4, o, ","); v = "default"; for (i = 1; i <= n; i++) if (o[i] ~ /^thread_pool=/) v = substr(o[i], 13); print v }' /proc/self/mounts | tail -1; }

@test "btrfs live: experiment varies thread_pool by reconfiguring the mount; each run sees its value; restored (issue 45)" {
	before=$(tp_now)
	cat >"$BATS_TEST_TMPDIR/tp.sh" <<EOF
#!/bin/sh
dd if=/dev/urandom of="$MNT/tp" bs=1M count=4 conv=fsync status=none
awk -v m="$MNT" '\$2 == m' /proc/self/mounts | tail -1
EOF
	chmod +x "$BATS_TEST_TMPDIR/tp.sh"
	run "$WQCTL" experiment --set "$MNT thread_pool=2,3" --runs 2 --metric 're:thread_pool=([0-9]+)' -J -- "$BATS_TEST_TMPDIR/tp.sh"
	assert_success
	doc=$(echo "$output" | sed -n '/^{/,$p' | tr -d ' \n')
	# the kernel's own mount line, read inside each run, has the value of its setting
	echo "$doc" | grep -q "\"setting\":\"${MNT}thread_pool=2\",.*\"median\":2,"
	echo "$doc" | grep -q "\"setting\":\"${MNT}thread_pool=3\",.*\"median\":3,"
	# btrfs's workqueues were watched by themselves, and did the data writes' work
	echo "$doc" | grep -q '"watch":\["btrfs-\*"\]'
	echo "$doc" | grep -q '"name":"btrfs-endio-write","watched":true,"queued":[1-9]'
	assert_equal "$(tp_now)" "$before"
	[ ! -s /run/wqctl/journal ]
}

@test "btrfs live: an experiment killed with SIGKILL mid-run leaves thread_pool to revert, which restores it" {
	before=$(tp_now)
	"$WQCTL" experiment --set "$MNT thread_pool=3" --runs 1 -- sleep 61 >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do [ "$(tp_now)" = 3 ] && break; sleep 0.05; done
	assert_equal "$(tp_now)" 3
	kill -9 "$pid"
	wait "$pid" || true
	pkill -f '^sleep 61$' || true
	run "$WQCTL" revert
	assert_success
	assert_output "$MNT thread_pool: 3 -> $(awk -v n="$(nproc)" 'BEGIN { print (n + 2 < 8 ? n + 2 : 8) }')"
	assert_equal "$(tp_now)" "$before"
}

@test "btrfs live: thread_pool values, mount points and options that cannot be set are refused before any run" {
	run "$WQCTL" experiment --set "$MNT thread_pool=0" -- true
	assert_failure 2
	assert_output --partial "$MNT thread_pool: invalid value '0': expected a whole number of 1 or more"
	run "$WQCTL" experiment --set "$MNT thread_pool=4096" -- true
	assert_failure 2
	assert_output --partial "invalid value '4096': above 2048, the most max_active the kernel gives a workqueue"
	run "$WQCTL" experiment --set "$MNT nice=1" -- true
	assert_failure 2
	assert_output --partial "a mount point takes thread_pool= (btrfs's), not nice="
	run "$WQCTL" experiment --set "$MNT/./ thread_pool=2" -- true
	assert_failure 2
	assert_output --partial "not a mount point as the kernel names it"
	run "$WQCTL" experiment --set "$BATS_FILE_TMPDIR thread_pool=2" -- true
	assert_failure 32
	assert_output --partial "no btrfs is mounted there"
}

@test "btrfs live: explain names the mount and its thread_pool as the kernel lists it, after a remount too (issue 61)" {
	mount -o remount,thread_pool=3 "$MNT"
	# the value the kernel shows among the mount's options
	[ "$(tp_now)" = 3 ]
	run "$WQCTL" explain btrfs-endio-write
	assert_success
	assert_line --partial "note: btrfs-endio-write on $MNT ("
	assert_line --partial "): thread_pool 3 (its mount option): up to "
	# a typo is refused, naming the real one
	run "$WQCTL" explain btrfs-endio-writ
	assert_failure 32
	assert_output "wqctl: btrfs-endio-writ: no such btrfs workqueue; did you mean 'btrfs-endio-write'?"
	mount -o remount,thread_pool="$(awk -v n="$(nproc)" 'BEGIN { print (n + 2 < 8 ? n + 2 : 8) }')" "$MNT"
}
