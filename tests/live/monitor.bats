#!/usr/bin/env bats
# Live tier: monitor on the real tracepoints. Writeback work is made on a
# loop-mounted ext4 image; an independent tracefs instance of the test's
# own counts the same queue_work events as an oracle. Every instance, mount
# and loop device is removed, even when a test fails.
bats_require_minimum_version 1.5.0
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"
# shellcheck source=ready.bash
source "$BATS_TEST_DIRNAME/ready.bash"

T=/sys/kernel/tracing
# wqctl names its tracefs instances PID_NS (NS: the inode of the PID namespace)
NS=$(stat -L -c %i /proc/self/ns/pid)
WB=/sys/devices/virtual/workqueue/writeback

setup_file() {
	[ -d "$T/instances" ] || skip "tracefs is not mounted at $T"
	[ -w "$T/instances" ] || skip "not root"
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not installed"
	export ORACLE=$T/instances/wqctl-test-oracle-$$ MNT=$BATS_FILE_TMPDIR/mnt1
	export GLOBAL_ENABLE SAVED_MAX
	GLOBAL_ENABLE=$(cat $T/events/workqueue/workqueue_queue_work/enable)
	SAVED_MAX=$(cat "$WB/max_active")
	# three ext4 images, each its own backing device with its own writeback work
	for i in 1 2 3; do
		truncate -s 64M "$BATS_FILE_TMPDIR/img$i"
		mkfs.ext4 -q -F "$BATS_FILE_TMPDIR/img$i"
		mkdir -p "$BATS_FILE_TMPDIR/mnt$i"
		mount -o loop "$BATS_FILE_TMPDIR/img$i" "$BATS_FILE_TMPDIR/mnt$i"
	done
}

teardown_file() {
	[ -n "${SAVED_MAX:-}" ] && echo "$SAVED_MAX" >"$WB/max_active"
	[ -d "${ORACLE:-/nonexistent}" ] && rmdir "$ORACLE"
	for i in 1 2 3; do
		if mountpoint -q "$BATS_FILE_TMPDIR/mnt$i"; then umount "$BATS_FILE_TMPDIR/mnt$i"; fi
	done
	for d in "$T"/instances/wqctl-monitor-*; do if [ -d "$d" ]; then rmdir "$d"; fi; done
	true
}

# wait until monitor PID counts, whichever backend auto took (ready.bash)
ready() {
	counting "$1"
}

# wait until monitor PID (--backend stream) traces: its instance exists with the last of its events enabled
tracing() {
	local _
	for _ in $(seq 100); do
		[ "$(cat "$T/instances/wqctl-monitor-${1}_$NS/events/workqueue/workqueue_execute_end/enable" 2>/dev/null)" = 1 ] && return 0
		sleep 0.05
	done
	return 1
}

# dirty the image and write it back, several times
make_writeback() {
	for i in 1 2 3; do
		dd if=/dev/urandom of="$MNT/f$i" bs=1M count=4 conv=fsync status=none
		sync -f "$MNT/f$i"
	done
}

@test "monitor: writeback work made during the interval is counted, within what an oracle instance saw" {
	mkdir "$ORACLE"
	echo 1 >"$ORACLE/events/workqueue/workqueue_queue_work/enable"
	echo 1 >"$ORACLE/tracing_on"
	"$WQCTL" monitor -J -i 3 -c 1 -o NAME,QUEUED,QUEUED/S writeback >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	# start writing once the monitor counts (its interval starts then)
	ready "$pid"
	make_writeback
	wait "$pid"
	echo 0 >"$ORACLE/tracing_on"
	oracle=$(grep -c 'workqueue=writeback ' "$ORACLE/trace" || true)
	rmdir "$ORACLE"
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output ""
	run cat "$BATS_TEST_TMPDIR/out"
	assert_output --partial '"name":"writeback"'
	# only the named workqueue: once in the interval's line, once in the summary line
	assert_equal "$(grep -c '"name":' <<<"$output")" 2
	count=$(head -1 <<<"$output" | sed -n 's/.*"queued":\([0-9]*\).*/\1/p')
	rate=$(head -1 <<<"$output" | sed -n 's/.*"queued\/s":\([0-9.]*\).*/\1/p')
	echo "monitor: $count items ($rate/s); oracle: $oracle" >&3
	# three fsyncs of dirty data each queue writeback work: at least 1 item, and never more
	# than the oracle instance (enabled before monitor started, stopped after it ended) saw
	[ "$count" -ge 1 ]
	[ "$count" -le "$oracle" ]
	# the rate is the count over the 3 s interval (the measured length; within 5 %)
	awk -v c="$count" -v r="$rate" 'BEGIN { exit !(r >= c / 3 * 0.95 - 0.05 && r <= c / 3 * 1.05 + 0.05) }'
}

# dirty all three file systems, then one sync: the kernel queues the three
# writeback works at once (wakeup_flusher_threads)
sync_three() {
	for i in 1 2 3; do
		dd if=/dev/urandom of="$BATS_FILE_TMPDIR/mnt$i/g" bs=1M count=16 status=none
	done
	sync
}

# monitor writeback for 3 s around sync_three; prints QUEUED THROTTLED
throttle_run() {
	"$WQCTL" monitor -r -n -i 3 -c 1 -o QUEUED,THROTTLED writeback >"$BATS_TEST_TMPDIR/th" &
	local pid=$!
	ready "$pid"
	sync_three
	wait "$pid"
	cat "$BATS_TEST_TMPDIR/th"
}

@test "monitor: THROTTLED counts work held back by max_active (none at 1024, some at 1)" {
	# doc/kernel.md §8: activate_work fires at queue time when a max_active slot is free,
	# else when one frees. With 1024 slots none waits; with 1, of three works queued
	# together at least the second and third wait for the first.
	echo 1024 >"$WB/max_active"
	read -r queued throttled < <(throttle_run)
	echo "max_active 1024: queued $queued, throttled $throttled" >&3
	[ "$queued" -ge 3 ]
	assert_equal "$throttled" 0
	echo 1 >"$WB/max_active"
	read -r queued throttled < <(throttle_run)
	echo "$SAVED_MAX" >"$WB/max_active"
	echo "max_active 1: queued $queued, throttled $throttled" >&3
	[ "$queued" -ge 3 ]
	[ "$throttled" -ge 2 ]
}

@test "monitor: its own tracing instance exists while it runs, clocked 'global', and is gone after SIGINT" {
	top_clock=$(grep -o '\[[a-z0-9-]*\]' "$T/trace_clock")
	"$WQCTL" monitor --backend stream -i 0.2 >/dev/null 2>&1 &
	pid=$!
	inst=$T/instances/wqctl-monitor-${pid}_$NS
	# set up in order: the instance, then its four events
	tracing "$pid"
	for e in queue_work activate_work execute_start execute_end; do
		assert_equal "$(cat "$inst/events/workqueue/workqueue_$e/enable")" 1
	done
	# stamped with the clock ordered across CPUs (the file brackets the one in use)
	run grep -o '\[[a-z0-9-]*\]' "$inst/trace_clock"
	assert_output "[global]"
	assert_equal "$(grep -o '\[[a-z0-9-]*\]' "$T/trace_clock")" "$top_clock"
	kill -INT "$pid"
	wait "$pid"
	assert_equal "$?" 0
	assert [ ! -e "$inst" ]
}

@test "monitor: SIGTERM cleans up too; the system's own trace events are left as they were" {
	"$WQCTL" monitor --backend stream -i 0.2 >/dev/null 2>&1 &
	pid=$!
	tracing "$pid"
	kill -TERM "$pid"
	wait "$pid" || true
	assert [ ! -e "$T/instances/wqctl-monitor-${pid}_$NS" ]
	assert_equal "$(cat $T/events/workqueue/workqueue_queue_work/enable)" "$GLOBAL_ENABLE"
}

@test "monitor: an instance left by a killed monitor is removed by the next one" {
	"$WQCTL" monitor --backend stream -i 0.2 >/dev/null 2>&1 &
	pid=$!
	tracing "$pid"
	kill -KILL "$pid"
	wait "$pid" || true
	assert [ -d "$T/instances/wqctl-monitor-${pid}_$NS" ]
	run "$WQCTL" -v monitor -i 0.1 -c 1 no-such-workqueue
	assert_success
	assert_output --partial "wqctl-monitor-${pid}_$NS: removed the instance of a monitor that is gone"
	assert [ ! -e "$T/instances/wqctl-monitor-${pid}_$NS" ]
}

@test "monitor: JSON Lines, one object per interval with its timestamp (idle ones too), then the summary" {
	t0=$(date +%s)
	run --separate-stderr "$WQCTL" monitor -J -i 0.3 -c 3 no-such-workqueue-*
	t1=$(date +%s)
	assert_success
	# patterns that caught nothing are said once, on stderr
	assert_equal "$stderr" "wqctl: monitor: no workqueue matching the patterns queued work in the first interval (names as the tracepoints carry them; 'wqctl monitor' alone shows every one)"
	assert_equal "$(wc -l <<<"$output")" 4
	# every line one object with the same keys; idle: an empty list
	assert_equal "$(grep -c '^{"timestamp":[0-9]*\.[0-9]\{3\},"seconds":0\.[0-9]\{3\},"lost":0,"workqueues":\[\]}$' <<<"$output")" 3
	assert_equal "$(tail -1 <<<"$output" | grep -c '^{"summary":true,"timestamp":[0-9.]*,"seconds":[0-9.]*,"intervals":3,"lost":0,"workqueues":\[\]}$')" 1
	# the timestamps are wall-clock seconds of this run, one interval apart
	read -r a b c <<<"$(sed -n 's/^{"timestamp":\([0-9.]*\),.*/\1/p' <<<"$output" | tr '\n' ' ')"
	awk -v a="$a" -v b="$b" -v c="$c" -v t0="$t0" -v t1="$t1" \
		'BEGIN { exit !(a >= t0 && c <= t1 + 1 && b - a > 0.25 && b - a < 0.6 && c - b > 0.25 && c - b < 0.6) }'
	refute_output --partial '"name"'
}

@test "monitor: LIMIT beside INFLIGHT is explain's max_inflight for sysfs workqueues; --buffer-size is applied" {
	want=$("$WQCTL" explain -J writeback | sed -n 's/.*"max_inflight": \([0-9]*\).*/\1/p')
	[ -n "$want" ]
	"$WQCTL" monitor --backend stream -J -b 64 -i 2 -c 1 -o NAME,INFLIGHT,MAX_ACTIVE,LIMIT writeback >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	tracing "$pid"
	# the instance's per-CPU buffer is what was asked for (the kernel rounds up to whole pages)
	kb=$(cat "$T/instances/wqctl-monitor-${pid}_$NS/buffer_size_kb")
	[ "$kb" -ge 64 ] && [ "$kb" -lt 128 ]
	make_writeback
	wait "$pid"
	run head -1 "$BATS_TEST_TMPDIR/out"
	assert_output --partial "\"name\":\"writeback\",\"inflight\":"
	assert_output --partial "\"max_active\":$(cat "$WB/max_active"),\"limit\":$want,\"queues\":1}"
}

@test "monitor: tables carry a header each, a blank line between them" {
	make_writeback &
	run "$WQCTL" monitor -i 1 -c 2 -o NAME,QUEUED,DONE
	wait
	assert_success
	headers=$(grep -c '^NAME  *QUEUED  *DONE$' <<<"$output" || true)
	blanks=$(grep -c '^$' <<<"$output" || true)
	# an idle interval prints nothing; every printed table after the first is preceded by a blank
	# line, the summary too: its title, then the columns asked for and the run's totals
	[ "$headers" -ge 1 ]
	assert_equal "$blanks" "$headers"
	assert_equal "$(grep -c '^summary: 2 intervals, [0-9.]* s, 0 events lost$' <<<"$output")" 1
	assert_equal "$(grep -c '^NAME  *QUEUED  *DONE  *STARTED  *THROTTLED$' <<<"$output")" 1
}

@test "monitor: without root, a clear error and nothing created" {
	command -v runuser >/dev/null || skip "runuser is not installed"
	d=$(mktemp -d /tmp/wqctl-nobody.XXXXXX)
	chmod 755 "$d"
	cp "$WQCTL" "$d/wqctl"
	before=$(ls "$T/instances")
	run runuser -u nobody -- "$d/wqctl" monitor -c 1
	rm -rf "$d"
	assert_failure 1
	assert_output "wqctl: monitor: $T: Permission denied (monitor needs root)"
	assert_equal "$(ls "$T/instances")" "$before"
}

@test "monitor: from 6.17 the rows of 'events' and 'events_unbound' count two workqueues each, and say so once" {
	run --separate-stderr "$WQCTL" monitor -J -i 1 -c 3 'events' 'events_unbound'
	assert_success
	grep -q '"name":"events' <<<"$output" || skip "no work on events or events_unbound in 3 s"
	# uname: this machine's kernel (6.18) allocates system_percpu_wq and system_dfl_wq under those names
	refute_output --regexp '"name":"events(_unbound)?"[^}]*"queues":1'
	assert_output --regexp '"name":"events(_unbound)?"[^}]*"queues":2'
	for n in events events_unbound; do
		if grep -q "\"name\":\"$n\"" <<<"$output"; then
			assert_equal "$(grep -c "^wqctl: monitor: $n: two workqueues have this name on 6.17 and later" <<<"$stderr")" 1
		fi
	done
	# a kernel before 6.17 had one of each: no note, one queue a row
	run --separate-stderr "$WQCTL" --kernel 6.16.0 monitor -J -i 1 -c 2 'events' 'events_unbound'
	assert_success
	refute_output --partial '"queues":2'
	run grep -c "two workqueues have this name" <<<"$stderr"
	assert_output 0
}

@test "monitor --backend kernel: where the kernel has no hist triggers, a clear error and nothing created" {
	[ ! -e "$T/events/workqueue/workqueue_queue_work/hist" ] || skip "this kernel has hist triggers (the VM tier tests them)"
	before=$(ls "$T/instances")
	run "$WQCTL" monitor --backend kernel -c 1
	assert_failure 1
	assert_line "wqctl: monitor: $T/events/workqueue/workqueue_queue_work/hist: missing (a kernel without CONFIG_HIST_TRIGGERS)"
	# and where to go instead (issue 61)
	assert_line "wqctl: monitor: --backend stream reads every event instead (--backend auto, the default, chooses it where the kernel cannot count)"
	assert_equal "${#lines[@]}" 2
	assert_equal "$(ls "$T/instances")" "$before"
	# auto takes the counters or BPF where it can, else streams: no instance is left either way
	run --separate-stderr "$WQCTL" monitor --backend auto -o NAME,QUEUED -i 0.5 -c 1
	assert_success
	assert_equal "$(ls "$T/instances")" "$before"
}

@test "monitor in another PID namespace sharing tracefs: its own name, and it leaves the host's running monitor alone" {
	command -v unshare >/dev/null || skip "unshare is not installed"
	"$WQCTL" monitor --backend stream -i 0.2 >/dev/null 2>&1 &
	pid=$!
	tracing "$pid"
	# PID 1 of a new namespace: the host's pid does not run there, which proved nothing
	run unshare --pid --fork --mount-proc sh -c "'$WQCTL' -v monitor --backend stream -i 0.1 -c 3 no-such-workqueue & sleep 0.15; ls $T/instances; wait"
	assert_success
	refute_output --partial "wqctl-monitor-${pid}_$NS: removed"
	# its instance was named for pid 2 of its own namespace, not ours
	assert_output --regexp "wqctl-monitor-2_[0-9]+"
	refute_output --partial "wqctl-monitor-2_$NS"
	assert [ -d "$T/instances/wqctl-monitor-${pid}_$NS" ]
	assert_equal "$(cat "$T/instances/wqctl-monitor-${pid}_$NS/events/workqueue/workqueue_execute_end/enable")" 1
	kill -INT "$pid"
	wait "$pid"
	# and a host monitor killed by SIGKILL is still cleaned up by the next host run only
	"$WQCTL" monitor --backend stream -i 0.2 >/dev/null 2>&1 &
	pid=$!
	tracing "$pid"
	kill -KILL "$pid"
	wait "$pid" || true
	run unshare --pid --fork --mount-proc "$WQCTL" -v monitor --backend stream -i 0.1 -c 1 no-such-workqueue
	assert_success
	assert [ -d "$T/instances/wqctl-monitor-${pid}_$NS" ]
	run "$WQCTL" -v monitor -i 0.1 -c 1 no-such-workqueue
	assert_output --partial "wqctl-monitor-${pid}_$NS: removed the instance of a monitor that is gone"
	assert [ ! -e "$T/instances/wqctl-monitor-${pid}_$NS" ]
}
