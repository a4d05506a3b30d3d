#!/usr/bin/env bats
# Bad input for wqctl's own files (issues 43, 60 and 61): profiles and the
# active set kept where others can write or grown without limit, the
# journal and revert (foreign lines, values set would refuse, a killed
# run's leftovers, 20,000 entries, remove events), the run lock, a full
# disk, json-c missing. Each case: a clear error naming the file and the
# reason, nothing written that should not be, no sanitizer report.
load helpers

setup() {
	use_tree synth:2:4:1:2 6.18
	W=$ROOT/sys/devices/virtual/workqueue
	PD=$BATS_TEST_TMPDIR/profiles
	EXP=$ROOT/var/lib/wqctl/experiments
	MARK=$BATS_TEST_TMPDIR/ran
	LOG=$BATS_TEST_TMPDIR/runs.log
	mkdir -p "$PD" "$EXP"
	BEFORE=$(tree_sum)
}

sane() {
	refute_output --partial "Sanitizer"
	[ "$status" -lt 124 ]
}

wqp() { wq --profile-dir "$PD" "$@"; }


@test "the permission rule holds through a symlink into a world-writable directory and for writable parents" {
	mkdir -p "$BATS_TEST_TMPDIR/open"
	printf '[workqueue writeback]\nnice = 1\n' >"$BATS_TEST_TMPDIR/open/p.conf"
	chmod 0777 "$BATS_TEST_TMPDIR/open"
	ln -s "$BATS_TEST_TMPDIR/open/p.conf" "$PD/p.conf"
	run wqp apply --profile p
	sane
	assert_failure 2
	assert_output --regexp "refusing to read: its directory [^ ]*/open is writable by anyone"
	# a world-writable directory above the profile directory
	mkdir -p "$BATS_TEST_TMPDIR/par/pd"
	printf '[workqueue writeback]\nnice = 1\n' >"$BATS_TEST_TMPDIR/par/pd/q.conf"
	chmod 0777 "$BATS_TEST_TMPDIR/par"
	run wq --profile-dir "$BATS_TEST_TMPDIR/par/pd" apply --profile q
	assert_failure 2
	assert_output --regexp "its directory [^ ]*/par is writable by anyone"
	assert_equal "$(tree_sum)" "$BEFORE"
	# sticky and root's (as /tmp): fine above, not as the profile's own directory
	chmod 1777 "$BATS_TEST_TMPDIR/par"
	run wq --profile-dir "$BATS_TEST_TMPDIR/par/pd" apply --profile q
	assert_success
	# as its own directory, the message says what such a directory is and where a profile goes (issue 61)
	cp "$BATS_TEST_TMPDIR/par/pd/q.conf" "$BATS_TEST_TMPDIR/par/q2.conf"
	run wq apply --dry-run --profile "$BATS_TEST_TMPDIR/par/q2.conf"
	assert_failure 2
	assert_output --regexp "q2.conf: refusing to read: its directory [^ ]*/par is a shared one anyone may write to \(sticky, as /tmp\): keep it in a directory only root may write to \(a profile: /etc/wqctl/profiles\)"
	refute_output --partial "chmod go-w"
}

@test "a profile or active set without newlines is refused after its limit, not read whole" {
	head -c 3000000 /dev/zero | tr '\0' x >"$PD/big.conf"
	run wqp profile show big
	sane
	assert_failure 2
	assert_output --partial "big.conf: refusing to read: larger than 1024 KiB (3000000 bytes)"
	{ printf '[workqueue writeback]\nnice = '; head -c 500000 /dev/zero | tr '\0' 1; } >"$PD/long.conf"
	run strace -e trace=read "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" profile show long
	assert_output --partial "long.conf:2: line is longer than"
	# stdio reads in 4 KiB blocks: a handful of reads, not 500 KB of them
	[ "$(grep -c '^read(' <<<"$output")" -lt 20 ]
	mkdir -p "$ROOT/etc/wqctl"
	head -c 2000000 /dev/zero | tr '\0' a >"$ROOT/etc/wqctl/active-profiles"
	run wq verify
	assert_failure
	assert_output --partial "active-profiles: refusing to read: larger than 1024 KiB"
}

@test "revert writes back only workqueue attributes and knobs, from a journal root alone can change" {
	mkdir -p "$ROOT/run/wqctl" "$ROOT/sys/devices/system/cpu"
	echo 0-7 >"$ROOT/sys/devices/system/cpu/online"
	printf 'sys/devices/system/cpu/online\t5\t0\t0-7\n' >"$ROOT/run/wqctl/journal"
	run wq revert
	sane
	assert_failure 1
	assert_output --partial "run/wqctl/journal:1: /sys/devices/system/cpu/online is neither a workqueue attribute, a workqueue knob nor a mount option"
	[ "$(cat "$ROOT/sys/devices/system/cpu/online")" = 0-7 ]
	printf 'sys/devices/virtual/workqueue/writeback/max_active\t0\t1024\t16\n' >"$ROOT/run/wqctl/journal"
	echo 16 >"$W/writeback/max_active"
	chown nobody "$ROOT/run/wqctl/journal"
	run wq revert
	assert_failure 1
	assert_output --partial "refusing to use the journal: it is owned by uid $(id -u nobody)"
	[ "$(cat "$W/writeback/max_active")" = 16 ]
	chown root "$ROOT/run/wqctl/journal"
	run wq revert
	assert_success
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
}

# issue 60 item 17: the journal's originals were written as they stood
@test "revert writes only originals set or knob would write: not a max_active out of range, not a boot-only knob" {
	mkdir -p "$ROOT/run/wqctl"
	echo 16 >"$W/writeback/max_active"
	printf 'sys/devices/virtual/workqueue/writeback/max_active	0	99999999	16
' >"$ROOT/run/wqctl/journal"
	run wq revert
	sane
	assert_failure 1
	# synth 6.18: unbound workqueues take 1 to 2048 (doc/kernel.md §4)
	assert_output --partial "writeback/max_active: not restored: the journal's '99999999' is not a value to write: must be between 1 and 2048"
	[ "$(cat "$W/writeback/max_active")" = 16 ]
	# a 7.3 tree: cache_shard_size is boot-only (0444)
	use_tree synth:2:4:1:2 7.3.0
	mkdir -p "$ROOT/run/wqctl"
	p=sys/module/workqueue/parameters/cache_shard_size
	before=$(cat "$ROOT/$p")
	printf '%s	0	3	%s
' "$p" "$before" >"$ROOT/run/wqctl/journal"
	run wq revert
	sane
	assert_failure 1
	assert_output --partial "cache_shard_size: not restored: the journal's '3' is not a value to write: boot-only"
	[ "$(cat "$ROOT/$p")" = "$before" ]
	# a good original still goes back
	printf 'sys/devices/virtual/workqueue/writeback/nice	0	0	5
' >"$ROOT/run/wqctl/journal"
	echo 5 >"$ROOT/sys/devices/virtual/workqueue/writeback/nice"
	run wq revert
	assert_success
	[ "$(cat "$ROOT/sys/devices/virtual/workqueue/writeback/nice")" = 0 ]
}

@test "a write that never landed is not 'restored'; revert removes a killed run's temporary file" {
	# a directory where the temporary file for nice goes: that write cannot be made (max_active is written first)
	mkdir -p "$W/writeback/.nice.wqctl-new/x"
	printf '[workqueue writeback]\nnice = 3\nmax_active = 64\n' >"$PD/p.conf"
	run wqp apply --profile p
	sane
	assert_failure 1
	assert_output --partial "writeback/nice: write failed: the temporary file beside it (.NAME.wqctl-new) cannot be made"
	assert_output --partial "rolled back 1 change"
	refute_output --partial "restore failed"
	[ "$(cat "$W/writeback/nice")" = 0 ]
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
	rm -r "$W/writeback/.nice.wqctl-new"
	# SIGKILL between writing the temporary file and renaming it: the journal names the file
	run wq set writeback nice=2
	assert_success
	echo 5 >"$W/writeback/.nice.wqctl-new"
	run wq revert
	assert_success
	assert_output --partial "removed the temporary file a killed run left beside it"
	[ ! -e "$W/writeback/.nice.wqctl-new" ]
	[ "$(cat "$W/writeback/nice")" = 0 ]
}


@test "a full disk says 'No space left on device', not 'Input/output error' (a short write is retried)" {
	use_tree x86_64-64cpu 6.18.0 owners
	# a textfile of about 6 KB (64 CPUs' workqueues) into one free 4 KiB page: the first write is short
	[ "$(wq metrics | wc -c)" -gt 4096 ] || fail "the metrics are too small to test a short write"
	mkdir -p "$BATS_TEST_TMPDIR/tf"
	mount -t tmpfs -o size=8k,mode=0755 wqctl-test "$BATS_TEST_TMPDIR/tf" || skip "cannot mount a tmpfs here"
	dd if=/dev/zero of="$BATS_TEST_TMPDIR/tf/fill" bs=4096 count=1 2>/dev/null
	run wq metrics --textfile "$BATS_TEST_TMPDIR/tf"
	umount "$BATS_TEST_TMPDIR/tf"
	sane
	assert_failure 1
	assert_output --partial "tf/wqctl.prom: cannot write: No space left on device"
	refute_output --partial "Input/output error"
}

@test "uid 0 refused the run lock is told the file and the reason, not 'run as root'" {
	command -v unshare >/dev/null && command -v setpriv >/dev/null || skip "unshare and setpriv (util-linux) are needed"
	# root of a user namespace made by nobody: uid 0 there, no right over root's files
	setpriv --reuid=65534 --regid=65534 --clear-groups unshare -U -r true 2>/dev/null || skip "no user namespaces here"
	# nobody may read the tree (bats makes its directories 0700)
	chmod -R o+rX "$ROOT" 2>/dev/null || true
	d=$ROOT
	while [ "$d" != "$BATS_RUN_TMPDIR" ] && [ "$d" != / ]; do
		d=${d%/*}
		chmod o+x "$d"
	done
	# nor run wqctl from wherever the checkout is (a fresh clone in a 0700 directory: CI's)
	cp "$WQCTL" "$BATS_TEST_TMPDIR/wqctl"
	chmod 0755 "$BATS_TEST_TMPDIR/wqctl"
	WQCTL=$BATS_TEST_TMPDIR/wqctl
	run setpriv --reuid=65534 --regid=65534 --clear-groups unshare -U -r "$WQCTL" --sysroot "$ROOT" set writeback nice=1
	sane
	assert_failure 1
	assert_output --partial "writeback/nice: run/wqctl/lock: cannot take the lock: "
	refute_output --partial "run as root"
	[ "$(cat "$W/writeback/nice")" = 0 ]
	# a user who is not root is told to be
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$WQCTL" --sysroot "$ROOT" set writeback nice=1
	assert_failure 1
	assert_output --partial "writeback/nice: permission denied: run as root"
	# profile use and off too, not a tale of temporary files (issue 61)
	mkdir -p "$ROOT/etc/wqctl/profiles"
	printf '[workqueue writeback]\nnice = 1\n' >"$ROOT/etc/wqctl/profiles/p.conf"
	chmod -R o+rX "$ROOT/etc"
	for sub in "use p" "off --keep"; do
		run setpriv --reuid=65534 --regid=65534 --clear-groups "$WQCTL" --sysroot "$ROOT" profile $sub
		assert_failure 1
		assert_output --regexp "etc/wqctl/active-profiles: permission denied: run as root$"
		refute_output --partial "temporary"
	done
	[ ! -e "$ROOT/etc/wqctl/active-profiles" ]
}

# issue 60 item 16: revert dropped the journal's entries one by one, each drop moving the rest
# (200,000 lines took 21-34 s). Counted in instructions (callgrind: the same for the same input),
# not timed: ten times the entries must cost about ten times, not a hundred (before: 87 times).
@test "revert is linear in the journal's length: 20,000 entries cost about ten times 2,000" {
	command -v valgrind >/dev/null || skip "valgrind is not installed (make deps)"
	[ -n "${WQCTL_PLAIN:-}" ] || skip "needs the plain build (make check)"
	mkdir -p "$ROOT/run/wqctl"
	for n in 2000 20000; do
		awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "sys/devices/virtual/workqueue/gone%d/nice\t0\t0\t1\n", i }' \
			>"$ROOT/run/wqctl/journal"
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$WQCTL_PLAIN" --sysroot "$ROOT" revert \
			>/dev/null 2>"$BATS_TEST_TMPDIR/cg.$n" || true
		# every entry names a workqueue that is gone: all left alone, the journal emptied
		[ ! -s "$ROOT/run/wqctl/journal" ]
	done
	a=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$BATS_TEST_TMPDIR/cg.2000" | tr -d ,)
	b=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$BATS_TEST_TMPDIR/cg.20000" | tr -d ,)
	[ -n "$a" ] && [ -n "$b" ] || fail "no instruction counts"
	ratio=$((b / a))
	[ "$ratio" -lt 20 ] || fail "20,000 entries cost $ratio times 2,000 ($b against $a instructions)"
}

# the library once exited the process itself when json-c could not be loaded (lib/util/dl.c); the
# command line now asks before the command runs and says why, and a command without JSON runs
@test "json-c that cannot be loaded: a command that needs JSON says so and exits 1, others run" {
	[ -n "${WQCTL_SHIM:-}" ] && [ -n "${WQCTL_PLAIN:-}" ] || skip "needs WQCTL_SHIM and WQCTL_PLAIN (make check)"
	run env LD_PRELOAD="$WQCTL_SHIM" FAILDLOPEN_MATCH=libjson-c "$WQCTL_PLAIN" --sysroot "$ROOT" -J get writeback
	sane
	assert_failure 1
	assert_output --partial "wqctl: libjson-c.so.5: cannot load"
	run env LD_PRELOAD="$WQCTL_SHIM" FAILDLOPEN_MATCH=libjson-c "$WQCTL_PLAIN" --sysroot "$ROOT" experiment --runs 1 --set 'writeback nice=1' -- true
	assert_failure 1
	assert_output --partial "libjson-c.so.5: cannot load"
	[ "$(cat "$W/writeback/nice")" = 0 ]
	run env LD_PRELOAD="$WQCTL_SHIM" FAILDLOPEN_MATCH=libjson-c "$WQCTL_PLAIN" --sysroot "$ROOT" get writeback nice
	assert_success
	assert_output "nice = 0"
}

@test "a udev remove event for a workqueue that is still there keeps its journal entries" {
	wq set writeback nice=4
	j=$ROOT/run/wqctl/journal
	assert_equal "$(grep -c 'writeback/nice' "$j")" 1
	# udevadm trigger --action=remove, or a remove handled after the add of a new instance
	run env -i ACTION=remove SUBSYSTEM=workqueue DEVPATH=/devices/virtual/workqueue/writeback \
		"$WQCTL" --sysroot "$ROOT" -v apply --udev
	sane
	assert_success
	assert_output --partial "writeback: a remove event, but the workqueue is there; its journal entries are kept"
	assert_equal "$(grep -c 'writeback/nice' "$j")" 1
	run wq revert
	assert_success
	assert_equal "$(cat "$W/writeback/nice")" 0
	# once it is really gone, the event drops them
	wq set writeback nice=4
	rm -rf "$W/writeback"
	run env -i ACTION=remove SUBSYSTEM=workqueue DEVPATH=/devices/virtual/workqueue/writeback \
		"$WQCTL" --sysroot "$ROOT" -v apply --udev
	assert_success
	assert_output --partial "writeback: removed; 1 journal entries dropped"
	[ ! -e "$j" ]
}
