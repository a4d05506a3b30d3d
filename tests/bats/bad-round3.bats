#!/usr/bin/env bats
# Bad-input catalogue, round three (issue 60): what an experiment does when
# others write the files it holds, and the other cases of that audit that
# need a whole tree. Each case failed before its fix; each expected value is
# the tree's own (writeback max_active 1024 on 6.18) or one the test wrote.
load helpers

setup() {
	use_tree synth:2:4:1:2 6.18
	W=$ROOT/sys/devices/virtual/workqueue
	LOG=$BATS_TEST_TMPDIR/runs.log
}

sane() {
	refute_output --partial "Sanitizer"
	[ "$status" -lt 124 ]
}

# a workload that runs a wqctl command (the arguments) on its Nth run, counting runs in $LOG
meddler() {
	local n=$1
	shift
	cat >"$BATS_TEST_TMPDIR/meddle.sh" <<EOF
#!/bin/sh
echo run >>$LOG
[ \$(wc -l <$LOG) -eq $n ] && "$WQCTL" --sysroot "$ROOT" $* >/dev/null 2>&1
exit 0
EOF
	chmod +x "$BATS_TEST_TMPDIR/meddle.sh"
}

@test "a set during an experiment stays: that run is dropped, the experiment stops, revert still has the set" {
	meddler 2 set writeback max_active=100
	run wq experiment --set 'writeback max_active=8,16' --runs 3 --seed 1 -- "$BATS_TEST_TMPDIR/meddle.sh"
	sane
	assert_failure 1
	assert_output --regexp "measured run 1 \(writeback max_active=(8|16)\): writeback/max_active changed under it \(reads '100', not '(8|16)'\)"
	assert_output --partial "writeback/max_active: left alone: changed since the experiment wrote it (was '1024')"
	# two runs, then nothing more was written or run
	[ "$(wc -l <"$LOG")" -eq 2 ]
	[ "$(cat "$W/writeback/max_active")" = 100 ]
	# the set's journal entry is kept: revert undoes it back to the original
	grep -q "writeback/max_active" "$ROOT/run/wqctl/journal"
	run wq revert
	assert_success
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
}

@test "a change to another file of the grid is kept, and the files still the experiment's are restored" {
	meddler 1 set writeback nice=5
	run wq experiment --set 'writeback max_active=8' --set 'writeback nice=-1' --runs 2 -- "$BATS_TEST_TMPDIR/meddle.sh"
	sane
	assert_failure 1
	assert_output --partial "writeback/nice changed under it (reads '5', not '-1')"
	[ "$(cat "$W/writeback/nice")" = 5 ]
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
	# only the nice entry is left (the set's), and revert takes it back
	run cat "$ROOT/run/wqctl/journal"
	assert_output --partial "writeback/nice"
	refute_output --partial "writeback/max_active"
	run wq revert
	assert_success
	[ "$(cat "$W/writeback/nice")" = 0 ]
}

@test "a revert under a run: the run measured the original, so it is dropped and nothing is reported as measured" {
	meddler 1 revert
	run wq experiment --set 'writeback max_active=8' --runs 3 -- "$BATS_TEST_TMPDIR/meddle.sh"
	sane
	assert_failure 1
	assert_output --partial "measured run 1 (writeback max_active=8): writeback/max_active changed under it (reads '1024', not '8')"
	refute_output --regexp '^writeback max_active=8 +[0-9]'
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
	[ ! -s "$ROOT/run/wqctl/journal" ]
}

@test "a change made with echo, not wqctl, is kept too" {
	printf '#!/bin/sh\necho 77 >%s/writeback/max_active\n' "$W" >"$BATS_TEST_TMPDIR/echo.sh"
	chmod +x "$BATS_TEST_TMPDIR/echo.sh"
	run wq experiment --set 'writeback max_active=8' --runs 2 -- "$BATS_TEST_TMPDIR/echo.sh"
	sane
	assert_failure 1
	assert_output --partial "changed under it (reads '77', not '8')"
	[ "$(cat "$W/writeback/max_active")" = 77 ]
	# the experiment's own entry stays: revert's "changed since" leaves the 77 too
	run wq revert
	assert_output --partial "changed since"
	[ "$(cat "$W/writeback/max_active")" = 77 ]
}

@test "a second experiment on a file another experiment holds is refused before it writes or runs anything" {
	"$WQCTL" --sysroot "$ROOT" experiment --set 'writeback max_active=8' --runs 1 \
		-- sh -c "echo started >>$LOG; sleep 30" 2>"$BATS_TEST_TMPDIR/first.err" &
	first=$!
	for _ in $(seq 100); do [ -s "$LOG" ] && break; sleep 0.1; done
	[ "$(cat "$W/writeback/max_active")" = 8 ]
	run wq experiment --set 'writeback max_active=16' --runs 1 -- touch "$BATS_TEST_TMPDIR/second-ran"
	sane
	assert_failure 1
	assert_output --partial "writeback/max_active: another experiment is running on it (pid $first)"
	[ ! -e "$BATS_TEST_TMPDIR/second-ran" ]
	[ "$(cat "$W/writeback/max_active")" = 8 ]
	# another file is free to another experiment
	run wq experiment --set 'writeback nice=3' --runs 1 -- true
	assert_success
	kill -TERM $first
	wait $first || true
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
	[ "$(cat "$W/writeback/nice")" = 0 ]
	# the hold ended with the first: the same file is free again
	run wq experiment --set 'writeback max_active=16' --runs 1 -- true
	assert_success
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
}

@test "experiment --plot replaces a planted symlink instead of writing through it" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (make deps)"
	d=$BATS_TEST_TMPDIR/shared
	mkdir -p "$d"
	chmod 0777 "$d" # world-writable, not sticky: anyone may plant a link there
	echo "root's secret" >"$BATS_TEST_TMPDIR/secret"
	chmod 0600 "$BATS_TEST_TMPDIR/secret"
	ln -s "$BATS_TEST_TMPDIR/secret" "$d/p.svg"
	run wq experiment --set 'writeback max_active=16' --runs 1 --plot "$d/p.svg" -- true
	sane
	assert_success
	[ "$(cat "$BATS_TEST_TMPDIR/secret")" = "root's secret" ]
	[ ! -L "$d/p.svg" ] && [ -f "$d/p.svg" ]
	grep -q '<svg' "$d/p.svg"
	[ "$(stat -c %a "$d/p.svg")" = 644 ]
	# no temporary file is left beside it
	[ "$(ls -A "$d")" = p.svg ]
	# a relative name lands in the working directory; a directory is refused before any run
	(cd "$d" && "$WQCTL" --sysroot "$ROOT" experiment --set 'writeback max_active=16' --runs 1 --plot rel.svg -- true 2>/dev/null)
	grep -q '<svg' "$d/rel.svg"
	run wq experiment --set 'writeback max_active=16' --runs 1 --plot "$d" -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	assert_output --partial "Is a directory"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
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
