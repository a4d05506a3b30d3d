#!/usr/bin/env bats
# Bad input for experiment (issues 43 and 60): saved baselines that are
# malformed or not root's alone, workloads that misbehave (ignore signals,
# leave processes, print no finite metric), grids too large, plots through
# planted links, and other writers changing the files an experiment holds.
# Each case: a clear error naming the object and the reason, the values
# restored or left as their other writer left them, no sanitizer report.
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

# a saved experiment as --save writes it, with the given spec and settings JSON
saved() {
	local name=$1 spec=$2 settings=${3:-[]}
	printf '{ "kernel": "6.18.0", "seed": "1", "spec": %s, "metric": { "name": "wall", "better": "lower" }, "settings": %s }\n' \
		"$spec" "$settings" >"$EXP/$name.json"
	chmod 0644 "$EXP/$name.json"
}

GOOD_SPEC='{ "set": [ "writeback max_active=16" ], "runs": 1, "warmup": 0, "command": [ "touch", "MARK" ] }'

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


@test "malformed saved experiments are 'not a saved experiment', naming the field; nothing runs" {
	local bad
	while IFS='|' read -r name spec settings why; do
		saved "$name" "${spec//MARK/$MARK}" "$settings"
		run wq experiment --compare "$name"
		sane
		assert_failure 1
		assert_output --partial "$name.json: not a saved experiment: $why"
		[ ! -e "$MARK" ] || fail "$name: the command ran"
	done <<-'CASES'
		cmdnull|{ "set": [ "writeback max_active=16" ], "runs": 1, "command": [ null ] }|[]|spec.command[0] is not a string
		setnull|{ "set": [ null ], "runs": 1, "command": [ "touch", "MARK" ] }|[]|spec.set[0] is not a string
		setstr|{ "set": "writeback max_active=16", "runs": 1, "command": [ "touch", "MARK" ] }|[]|spec.set is not an array of strings
		cmdobj|{ "set": [ "writeback max_active=16" ], "runs": 1, "command": { "a": 1 } }|[]|spec.command is not an array of strings
		cmdempty|{ "set": [ "writeback max_active=16" ], "runs": 1, "command": [ ] }|[]|spec.command has 0 entries
		runsstr|{ "set": [ "writeback max_active=16" ], "runs": "5", "command": [ "touch", "MARK" ] }|[]|spec.runs is not an integer
		runsbig|{ "set": [ "writeback max_active=16" ], "runs": 100000, "command": [ "touch", "MARK" ] }|[]|spec.runs is 100000, not 1 to 1000
		settingsnum|{ "set": [ "writeback max_active=16" ], "runs": 1, "command": [ "touch", "MARK" ] }|5|settings is not an array
		runsobj|{ "set": [ "writeback max_active=16" ], "runs": 1, "command": [ "touch", "MARK" ] }|[ { "setting": "x", "runs": 7 } ]|settings[0].runs is not an array
		metricstr|{ "set": [ "writeback max_active=16" ], "runs": 1, "command": [ "touch", "MARK" ] }|[ { "setting": "x", "runs": [ { "metric": "fast" } ] } ]|settings[0].runs[0].metric is not a number
		nul|{ "set": [ "writeback max_active=16" ], "runs": 1, "command": [ "touch\u0000x" ] }|[]|spec.command[0] holds a NUL byte
		noaxis|{ "runs": 1, "command": [ "touch", "MARK" ] }|[]|spec has neither set nor profile
	CASES
	printf '[1, 2' >"$EXP/cut.json"
	run wq experiment --compare cut
	sane
	assert_failure 1
	assert_output --partial "cut.json: not a saved experiment"
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "a saved experiment's command runs only from a file root alone can change" {
	saved ok "${GOOD_SPEC//MARK/$MARK}"
	chown nobody "$EXP/ok.json"
	run wq experiment --compare ok
	assert_failure 1
	assert_output --partial "ok.json: refusing to run its command: it is owned by uid $(id -u nobody), not root"
	chown root "$EXP/ok.json"
	chmod 0666 "$EXP/ok.json"
	run wq experiment --compare ok
	assert_failure 1
	assert_output --partial "it is writable by anyone"
	chmod 0644 "$EXP/ok.json"
	chmod 0777 "$EXP"
	run wq experiment --compare ok
	assert_failure 1
	assert_output --regexp "its directory [^ ]*/experiments is writable by anyone"
	[ ! -e "$MARK" ]
	chmod 0755 "$EXP"
	run wq experiment --compare ok
	assert_success
	[ -e "$MARK" ]
}

@test "--save keeps the working directory; --compare runs the workload there from anywhere" {
	mkdir -p "$BATS_TEST_TMPDIR/work"
	echo 'echo 5' >"$BATS_TEST_TMPDIR/work/job.sh"
	cd "$BATS_TEST_TMPDIR/work"
	run wq experiment --set 'writeback max_active=16,32' --runs 1 --metric 're:([0-9]+)' --save here -- sh job.sh
	assert_success
	grep -qF "\"cwd\": \"$BATS_TEST_TMPDIR/work\"" "$EXP/here.json"
	cd /
	run wq experiment --compare here
	assert_success
	mv "$BATS_TEST_TMPDIR/work" "$BATS_TEST_TMPDIR/moved"
	run wq experiment --compare here
	assert_failure 1
	assert_output --partial "here ran in $BATS_TEST_TMPDIR/work: No such file or directory"
}

# --- experiment runs --------------------------------------------------------------

@test "a run's wall time is the workload's own: 'sleep 0.02' measures under 0.09 s" {
	run wq -J experiment --set 'writeback max_active=16' --runs 3 --metric wall -- sleep 0.02
	assert_success
	# before: a 100 ms sleep between the pipe's end and waitpid() made it ~0.12 s
	walls=$(grep -o '"wall_s": *[0-9.e-]*' <<<"$output" | cut -d: -f2)
	[ "$(wc -l <<<"$walls")" -eq 3 ]
	for w in $walls; do
		awk -v w="$w" 'BEGIN { exit !(w >= 0.02 && w < 0.09) }' || fail "wall $w"
	done
}

@test "SIGTERM restores at once even when the workload ignores it; the workload is then ended" {
	"$WQCTL" --sysroot "$ROOT" experiment --set 'writeback max_active=16,32' --runs 3 -- \
		sh -c "trap '' TERM; echo started >>$MARK; sleep 29.3" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	for _ in $(seq 100); do [ -s "$MARK" ] && break; sleep 0.1; done
	[ "$(cat "$W/writeback/max_active")" != 1024 ]
	kill -TERM $pid
	# restored within 2 s (before: only after the workload's 29 s)
	for i in $(seq 200); do [ "$(cat "$W/writeback/max_active")" = 1024 ] && break; sleep 0.01; done
	pkill -f "sleep 29.3" || true
	[ "$(cat "$W/writeback/max_active")" = 1024 ] || fail "not restored within 2 s"
	rc=0
	wait $pid || rc=$?
	assert_equal "$rc" 143
	grep -q "did not end 3 s after the signal; killed" "$BATS_TEST_TMPDIR/err"
	grep -q "every value is restored" "$BATS_TEST_TMPDIR/err"
}

@test "a workload that leaves a background process: the run ends when the workload exits, and says so" {
	start=$(date +%s)
	run wq experiment --set 'writeback max_active=16,32' --runs 1 --metric 're:([0-9]+)' -- sh -c 'sleep 14.3 2>/dev/null & echo 5'
	took=$(($(date +%s) - start))
	pkill -f "sleep 14.3" || true
	assert_success
	assert_output --partial "sh left a process holding its output; each run ends when sh itself exits"
	[ "$took" -lt 10 ] || fail "took $took s: the runs waited for the background process"
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
}

@test "65 values all run (none silently dropped); more than the grid holds is refused" {
	vals=$(seq -s, 8 72)
	run wq experiment --set "writeback max_active=$vals" --runs 1 --metric wall -n -o SETTING -- true
	assert_success
	assert_equal "$(grep -c '^writeback max_active=' <<<"$output")" 65
	assert_line "writeback max_active=72"
	vals=$(seq -s, 1 257)
	run wq experiment --set "writeback max_active=$vals" --runs 1 -- touch "$MARK"
	assert_failure 2
	assert_output --partial "more than 256 values"
	[ ! -e "$MARK" ]
	names=$(for i in $(seq 257); do printf 'p%d,' "$i"; done)
	run wqp experiment --profile "${names%,}" --runs 1 -- touch "$MARK"
	assert_failure 2
	assert_output --partial "more than 256 profiles"
	[ ! -e "$MARK" ]
}

@test "a metric that is not finite is refused at the run that gives it; long json: paths are read whole" {
	for v in 1e999 NaN -Infinity; do
		run wq experiment --set 'writeback max_active=16,32' --runs 3 --metric json:a -- echo "{\"a\":$v}"
		sane
		assert_failure 1
		assert_output --regexp "run 1 \(writeback max_active=(16|32)\): metric json:a: .*is not a finite number"
		[ "$(cat "$W/writeback/max_active")" = 1024 ]
	done
	# found by fuzz-metric: glibc copies a repeated atom per repetition, so stacked ones explode
	# and a bounded repetition's optional copies cost about (N-M)^2 / 2 (issue 60 item 11: 2.85 GB, 4.3 s)
	for re in 'a++++++++++++++++++++++++' '((a{100}){100}){100}' 'x+?y' 'x{,19000}' 'x{1,19000}' 'x{,5}+'; do
		run wq experiment --set 'writeback max_active=16' --runs 1 --metric "re:$re" -- touch "$MARK"
		assert_failure 2
		assert_output --partial "stacked or deeply nested repetitions"
		[ ! -e "$MARK" ]
	done
	# a bounded repetition of a few hundred is still taken
	run wq experiment --set 'writeback max_active=16' --runs 1 --metric 're:x{0,150}([0-9]+)' -- echo x42
	assert_success
	key=$(printf 'k%.0s' $(seq 240))
	run wq -J experiment --set 'writeback max_active=16' --runs 1 --metric "json:$key" -- echo "{\"$key\":7,\"${key:0:194}\":1}"
	assert_success
	assert_output --regexp '"metric": ?7'
}

@test "--plot: labels are text to gnuplot (no command runs); a path that cannot be written is refused before any run" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (make deps)"
	local pw=$BATS_TEST_TMPDIR/pwned
	# a glob that names writeback, with a gnuplot command substitution in it
	run wq experiment --set "writebac[k\`touch\${IFS}$pw\`] max_active=8,16" --runs 1 --metric wall \
		--plot "$BATS_TEST_TMPDIR/p.svg" -- true
	assert_success
	[ ! -e "$pw" ] || fail "gnuplot ran the label"
	grep -q "touch" "$BATS_TEST_TMPDIR/p.svg"
	run wq experiment --set 'writeback max_active=8' --metric 're:(`touch '"$pw"'`)?([0-9])' --runs 1 \
		--plot "$BATS_TEST_TMPDIR/q.svg" -- echo 3
	assert_success
	[ ! -e "$pw" ]
	run wq experiment --set 'writeback max_active=8,16' --runs 1 --plot /nonexistent/p.svg -- touch "$MARK"
	assert_failure 2
	assert_output --partial "--plot /nonexistent/p.svg: cannot write there: No such file or directory"
	[ ! -e "$MARK" ]
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
