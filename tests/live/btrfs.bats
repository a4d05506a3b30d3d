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
