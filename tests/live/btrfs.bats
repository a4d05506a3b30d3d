#!/usr/bin/env bats
# A real btrfs on a loop device (issue 45 items 1 and 4): its workqueues are
# outside sysfs; monitor sees them and gives the LIMIT explain computes,
# set/get say what to change instead. Unmounted and detached whatever happens.
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"

T=/sys/kernel/tracing

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
	mountpoint -q "${MNT:-/nonexistent}" && umount "$MNT"
	for d in "$T"/instances/wqctl-monitor-*; do [ -d "$d" ] && rmdir "$d"; done
	true
}

@test "btrfs live: monitor shows btrfs-endio-write with explain's LIMIT; set says thread_pool= is the setting" {
	want=$("$WQCTL" explain -J btrfs-endio-write | sed -n 's/.*"max_inflight": \([0-9]*\).*/\1/p')
	[ -n "$want" ] && [ "$want" -gt 0 ]
	"$WQCTL" monitor -J -i 3 -c 1 -o NAME,QUEUED,MAX_ACTIVE,LIMIT 'btrfs-endio-write' >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		[ "$(cat "$T/instances/wqctl-monitor-$pid/events/workqueue/workqueue_execute_end/enable" 2>/dev/null)" = 1 ] && break
		sleep 0.05
	done
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

@test "btrfs live: show counts, and --outside lists, the rescuer threads' workqueues that ps sees outside sysfs" {
	# procps's view: every kworker/R-NAME thread (6.9+) less the workqueues sysfs lists
	want=$(ps -e -o comm= | sed -n 's/^kworker\/R-//p' | grep -vxF -f <(ls /sys/devices/virtual/workqueue) | LC_ALL=C sort)
	echo "$want" | grep -qx btrfs-endio-write
	run "$WQCTL" show --outside -r -n -o NAME
	assert_success
	assert_equal "$(echo "$output" | LC_ALL=C sort)" "$want"
	run "$WQCTL" show
	assert_success
	assert_output --partial "wqctl: the kernel has $(echo "$want" | wc -l) more workqueues with a rescuer thread outside sysfs"
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
