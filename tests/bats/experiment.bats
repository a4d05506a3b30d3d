#!/usr/bin/env bats
# experiment: settings as axes, shuffled rounds, metrics from fio JSON, a
# regex or a JSON path, restoration on success, failure and signals,
# baselines and plots. The workload (workloads/fakefio.sh) prints fio's JSON
# with figures derived from the setting in force; every expected figure
# below is worked out by hand from that script's formulas.
load helpers

setup() {
	use_tree synth:2:4:1:2 6.18
	W=$ROOT/sys/devices/virtual/workqueue
	FIO="$TOP/tests/bats/workloads/fakefio.sh"
	LOG=$BATS_TEST_TMPDIR/runs.log
	PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD"
}

wqp() { wq --profile-dir "$PD" "$@"; }

# the tree's values before any test writes: writeback 1024 (6.18), nice 0
originals_back() {
	[ "$(cat "$W/writeback/max_active")" = 1024 ] || { echo "max_active $(cat "$W/writeback/max_active")"; return 1; }
	[ "$(cat "$W/writeback/nice")" = 0 ] || { echo "nice $(cat "$W/writeback/nice")"; return 1; }
	[ ! -s "$ROOT/run/wqctl/journal" ] || { echo "journal left:"; cat "$ROOT/run/wqctl/journal"; return 1; }
}

@test "experiment --help names the options; no axis or no command is a usage error" {
	run wq experiment --help
	assert_success
	assert_output --partial "--set 'WQ ATTR=V1,V2'"
	assert_output --partial "--compare NAME"
	assert_output --partial "--backend WHICH"
	run wq experiment --set 'writeback max_active=8,16'
	assert_failure 2
	assert_output --partial "no workload"
	run wq experiment --set 'writeback max_active=8' --save a --compare b -- true
	assert_failure 2
	assert_output --partial "exclude each other"
	run wq experiment --set 'writeback max_active=8' --save ../x -- true
	assert_failure 2
	run wq experiment --set 'writeback max_active=8' --runs 0 -- true
	assert_failure 2
	assert_output --partial "--runs '0'"
	# the columns are listed without an experiment (as -o completion asks)
	run wq experiment --list-columns
	assert_success
	assert_line --regexp '^THROTTLED +of those, held back by max_active'
	run wq experiment --set 'writeback max_active=8' -o SETTING,BOGUS -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "fio bandwidth per setting: medians, the difference to the first and the note" {
	run wq experiment --set 'writeback max_active=16,256' --runs 3 --seed 1 -- "$FIO" "$ROOT" "$LOG"
	assert_success
	# fakefio: read 16x1024 + write 16x512 + job b 1024 KiB/s = 25600 KiB/s = 25 MiB/s;
	# at 256: 262144 + 131072 + 1024 = 394240 KiB/s = 385 MiB/s; (385 - 25) / 25 = +1440%.
	# 3 runs a side: the rank test's smallest p is 2/C(6,3) = 0.1, and no 95% interval exists
	# (P(U = 0) = 1/20 > 0.025): inconclusive; with no noise the fewest runs that can tell, 4
	assert_line --regexp '^writeback max_active=16 +3 +25\.00 +25\.00 +25\.00 +- .* baseline$'
	assert_line --regexp '^writeback max_active=256 +3 +385\.0 +385\.0 +385\.0 +\+1440\.0% .* inconclusive: \+1440\.0% \(no 95% interval from 3 runs\); 4 runs a setting would tell 5% from this noise \(CV 0\.0%\)$'
	assert_output --partial "shuffled with --seed 1"
	assert_output --partial "metric: fio bandwidth, MiB/s, higher is better"
	run originals_back
	assert_success
}

@test "rounds are shuffled: each round runs every setting once, and the seed fixes the order" {
	wq experiment --set 'writeback max_active=16,32,64' --runs 4 --seed 7 -- "$FIO" "$ROOT" "$LOG" >/dev/null 2>&1
	mapfile -t a <"$LOG"
	[ "${#a[@]}" -eq 12 ]
	for r in 0 3 6 9; do
		round=$(printf '%s\n' "${a[@]:r:3}" | cut -d' ' -f1 | sort -n | tr '\n' ' ')
		[ "$round" = "16 32 64 " ] || { echo "round at $r: $round"; false; }
	done
	# not the same order in every round (a shuffle, not a fixed rotation)
	[ "$(printf '%s\n' "${a[@]}" | cut -d' ' -f1 | paste -sd' ' | awk '{ print ($1$2$3 != $4$5$6 || $1$2$3 != $7$8$9 || $1$2$3 != $10$11$12) }')" = 1 ]
	first=$(cut -d' ' -f1 "$LOG" | paste -sd' ')
	rm "$LOG"
	wq experiment --set 'writeback max_active=16,32,64' --runs 4 --seed 7 -- "$FIO" "$ROOT" "$LOG" >/dev/null 2>&1
	[ "$(cut -d' ' -f1 "$LOG" | paste -sd' ')" = "$first" ]
	rm "$LOG"
	wq experiment --set 'writeback max_active=16,32,64' --runs 4 --seed 8 -- "$FIO" "$ROOT" "$LOG" >/dev/null 2>&1
	[ "$(cut -d' ' -f1 "$LOG" | paste -sd' ')" != "$first" ]
}

@test "warm-up rounds run but are not measured" {
	run wq experiment --set 'writeback max_active=16,32' --runs 2 --warmup 1 --seed 3 -J -- "$FIO" "$ROOT" "$LOG"
	assert_success
	# 1 warm-up round + 2 measured rounds of 2 settings
	[ "$(wc -l <"$LOG")" -eq 6 ]
	[ "$(echo "$output" | grep -c '"round":')" -eq 4 ]
	assert_output --partial "after 1 warm-up round"
}

@test "fio fields: per-direction bandwidth, IOPS and the worst job's latency percentile" {
	# max_active 16. write.bw: 16x512 + 1024 = 9216 KiB/s = 9 MiB/s
	run wq experiment --set 'writeback max_active=16' --runs 1 --metric fio:write.bw -- "$FIO" "$ROOT" "$LOG"
	assert_line --regexp '^writeback max_active=16 +1 +9\.00 '
	# iops: read 4096.5 + write 2048 + job b 256 = 6400.5
	run wq experiment --set 'writeback max_active=16' --runs 1 --metric fio:iops -- "$FIO" "$ROOT" "$LOG"
	assert_line --regexp '^writeback max_active=16 +1 +6400 '
	# clat p99, worst of: a read 1e6/16 = 62500 ns, a write 8000, b write 9000 -> 62.5 us, lower is better
	run wq experiment --set 'writeback max_active=16' --runs 1 --metric fio:clat_p99 -- "$FIO" "$ROOT" "$LOG"
	assert_line --regexp '^writeback max_active=16 +1 +62\.50 '
	assert_output --partial "lower is better"
	# write.clat_p99: worst of 8000 and 9000 ns = 9 us
	run wq experiment --set 'writeback max_active=16' --runs 1 --metric fio:write.clat_p99 -- "$FIO" "$ROOT" "$LOG"
	assert_line --regexp '^writeback max_active=16 +1 +9\.00 '
	# p99.9 is reported for job a's reads only: 2e6/16 = 125000 ns
	run wq experiment --set 'writeback max_active=16' --runs 1 --metric fio:read.clat_p99.9 -- "$FIO" "$ROOT" "$LOG"
	assert_line --regexp '^writeback max_active=16 +1 +125\.0 '
	# p95 is not in the output: the error names it, nothing is left changed
	run wq experiment --set 'writeback max_active=16' --runs 1 --metric fio:clat_p95 -- "$FIO" "$ROOT" "$LOG"
	assert_failure 1
	assert_output --partial "percentile 95.000000"
	run originals_back
	assert_success
	run wq experiment --set 'writeback max_active=16' --metric fio:speed -- true
	assert_failure 2
	assert_output --partial "fio fields are bw, iops and clat_pN"
}

@test "-J keeps every run with its fio jobs" {
	run bash -c "'$WQCTL' --sysroot '$ROOT' experiment --set 'writeback max_active=32' --runs 2 --seed 5 -J -- '$FIO' '$ROOT' '$LOG' 2>/dev/null | tr -d ' \n'"
	assert_success
	assert_output --partial '"seed":"5"'
	# a sysroot has no tracepoints: nothing counted, and the document says so
	assert_output --partial '"counters":null,"times":null'
	assert_output --partial '"metric":{"name":"fio:bw","unit":"MiB/s","better":"higher"'
	assert_output --partial '"writes":[{"object":"writeback/max_active","value":"32","write":"32"}]'
	# 32x1024 + 32x512 + 1024 = 50176 KiB/s = 49 MiB/s; job a reads 32 MiB/s, p99 1e6/32 ns = 31.25 us
	assert_output --partial '"stats":{"median":49,"min":49,"max":49'
	assert_output --partial '{"jobname":"a","read":{"bw_mib_s":32.00,"iops":8192.5,"clat_p50_us":15.6,"clat_p99_us":31.2}'
	assert_output --partial '"restored":true'
	[ "$(echo "$output" | grep -o '"round":' | wc -l)" -eq 2 ]
}

@test "a number from the output by regular expression or JSON path; --better" {
	cat >"$BATS_TEST_TMPDIR/rate.sh" <<EOF
#!/bin/sh
echo "setup done"
echo "rate=\$((\$(cat $W/writeback/max_active) * 3)) ops/s"
EOF
	chmod +x "$BATS_TEST_TMPDIR/rate.sh"
	run wq experiment --set 'writeback max_active=10,20' --runs 4 --metric 're:rate=([0-9]+) ops' -- "$BATS_TEST_TMPDIR/rate.sh"
	assert_success
	# 10 x 3 = 30, 20 x 3 = 60: +100%, higher is better by default; 4 runs apart from 4:
	# p = 2/C(8,4) = 2/70 = 0.029, every difference 30 (the interval +100% to +100%)
	assert_line --regexp '^writeback max_active=10 +4 +30\.00 '
	assert_line --regexp '^writeback max_active=20 +4 +60\.00 +60\.00 +60\.00 +\+100\.0% .*better: \+100\.0% \(\+100\.0 to \+100\.0%\), p=0\.029$'
	run wq experiment --set 'writeback max_active=10,20' --runs 4 --better lower --metric 're:rate=([0-9]+)' -- "$BATS_TEST_TMPDIR/rate.sh"
	assert_line --regexp '^writeback max_active=20 .*worse: \+100\.0% \(\+100\.0 to \+100\.0%\), p=0\.029$'
	# json: the fakefio document, jobs.1.write.bw = 1024
	run wq experiment --set 'writeback max_active=10' --runs 1 --metric json:jobs.1.write.bw -- "$FIO" "$ROOT" "$LOG"
	assert_line --regexp '^writeback max_active=10 +1 +1024 '
	run wq experiment --set 'writeback max_active=10' --runs 1 --metric json:jobs.7.write.bw -- "$FIO" "$ROOT" "$LOG"
	assert_failure 1
	assert_output --partial "'7' is not an index of an array of 2"
	run wq experiment --set 'writeback max_active=10' --runs 1 --metric 're:nomatch=([0-9]+)' -- "$BATS_TEST_TMPDIR/rate.sh"
	assert_failure 1
	assert_output --partial "matches nothing in the output"
	run wq experiment --set 'writeback max_active=10' --metric 're:(' -- true
	assert_failure 2
	assert_output --partial "regular expression"
	run originals_back
	assert_success
}

@test "wall time is the metric when the output is not fio's" {
	run wq experiment --set 'writeback max_active=16,32' --runs 2 -- sh -c 'sleep 0.2'
	assert_success
	assert_output --partial "metric: wall time, s, lower is better"
	# every run sleeps 0.2 s: a median of at least 0.2 and well under 2
	assert_line --regexp '^writeback max_active=16 +2 +0\.(2|3|4|5|6|7|8|9)'
}

@test "grids: two --set multiply; the same file from two axes is refused" {
	run wq experiment --set 'writeback max_active=16,32' --set 'writeback nice=0,-5' --runs 1 --seed 2 -- "$FIO" "$ROOT" "$LOG"
	assert_success
	assert_line --regexp '^writeback max_active=16, writeback nice=0 '
	assert_line --regexp '^writeback max_active=16, writeback nice=-5 '
	assert_line --regexp '^writeback max_active=32, writeback nice=0 '
	assert_line --regexp '^writeback max_active=32, writeback nice=-5 '
	[ "$(sort "$LOG" | paste -sd,)" = "16 -5,16 0,32 -5,32 0" ]
	run originals_back
	assert_success
	run wq experiment --set 'writeback max_active=16' --set 'writeback max_active=32' -- true
	assert_failure 2
	assert_output --partial "writeback/max_active is set by two axes"
}

@test "--profile a,none compares whole profiles against the system as found" {
	printf '[workqueue writeback]\nmax_active = 64\nnice = -5\n' >"$PD/fast.conf"
	run wqp experiment --profile fast,none --runs 2 --seed 4 -- "$FIO" "$ROOT" "$LOG"
	assert_success
	# fast: 64x1024 + 64x512 + 1024 = 99328 KiB/s = 97 MiB/s; none (1024): 1048576 + 524288 + 1024 = 1536 MiB/s
	assert_line --regexp '^profile fast +2 +97\.00 .* baseline$'
	assert_line --regexp '^none +2 +1537 '
	[ "$(grep -c '^64 -5$' "$LOG")" -eq 2 ] && [ "$(grep -c '^1024 0$' "$LOG")" -eq 2 ]
	run originals_back
	assert_success
	run wqp experiment --profile nosuch -- true
	assert_failure 2
}

@test "invalid values, unknown workqueues and min_active lowering write nothing" {
	run wq experiment --set 'writeback max_active=16,0' -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	assert_output --partial "writeback/max_active: invalid value '0'"
	run wq experiment --set 'nosuch max_active=16' -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 32
	assert_output --partial "nosuch: no such workqueue"
	run wq experiment --set 'writeback max_active=2,16' -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	assert_output --partial "add --force"
	run wq experiment --set 'writeback bogus=1' -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	run wq experiment --set 'writeback' -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	assert_output --partial "expected 'WORKQUEUE ATTR=V1,V2,...'"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	run originals_back
	assert_success
	# with --force the write happens and is undone (min_active stays lowered: said at the write)
	run wq experiment --force --set 'writeback max_active=2' --runs 1 -- true
	assert_success
	assert_output --partial "min_active goes from 8 to 2"
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
}

@test "cpumask values are split by '|' (their lists hold commas)" {
	cat >"$BATS_TEST_TMPDIR/mask.sh" <<EOF
#!/bin/sh
cat $W/writeback/cpumask >>$LOG
EOF
	chmod +x "$BATS_TEST_TMPDIR/mask.sh"
	run wq experiment --set 'writeback cpumask=0-1,4|all' --runs 1 -- "$BATS_TEST_TMPDIR/mask.sh"
	assert_success
	assert_line --regexp '^writeback cpumask=0-1,4 '
	# CPUs 0, 1 and 4 = 0x13; all 8 CPUs = 0xff
	[ "$(sort "$LOG" | paste -sd,)" = "13,ff" ]
	[ "$(cat "$W/writeback/cpumask")" = ff ]
}

@test "a failing workload stops the experiment, names the run, and restores" {
	cat >"$BATS_TEST_TMPDIR/flaky.sh" <<EOF
#!/bin/sh
echo x >>$LOG
[ \$(wc -l <$LOG) -lt 3 ] || exit 7
EOF
	chmod +x "$BATS_TEST_TMPDIR/flaky.sh"
	run wq experiment --set 'writeback max_active=16,32' --runs 3 --seed 1 -- "$BATS_TEST_TMPDIR/flaky.sh"
	assert_failure 1
	assert_output --regexp "measured run 2 \(writeback max_active=(16|32)\): .*flaky.sh exited with status 7"
	run originals_back
	assert_success
	run wq experiment --set 'writeback max_active=16' -- /nonexistent/workload
	assert_failure 1
	assert_output --partial "/nonexistent/workload: cannot run"
	run originals_back
	assert_success
}

@test "SIGTERM and SIGINT restore and end by the signal; after SIGKILL, revert restores" {
	for sig in TERM INT; do
		rm -f "$LOG"
		"$WQCTL" --sysroot "$ROOT" experiment --set 'writeback max_active=16,32' --runs 3 \
			-- sh -c "echo started >>$LOG; sleep 30" 2>"$BATS_TEST_TMPDIR/err" &
		pid=$!
		for _ in $(seq 100); do [ -s "$LOG" ] && break; sleep 0.1; done
		[ "$(cat "$W/writeback/max_active")" != 1024 ]
		kill -$sig $pid
		rc=0
		wait $pid || rc=$?
		[ "$rc" -eq $((128 + $(kill -l $sig))) ] || { echo "$sig: exit $rc"; cat "$BATS_TEST_TMPDIR/err"; false; }
		grep -q "interrupted by .*every value is restored" "$BATS_TEST_TMPDIR/err"
		run originals_back
		assert_success
	done
	rm -f "$LOG"
	"$WQCTL" --sysroot "$ROOT" experiment --set 'writeback max_active=16' -- sh -c "echo started >>$LOG; sleep 30" 2>/dev/null &
	pid=$!
	for _ in $(seq 100); do [ -s "$LOG" ] && break; sleep 0.1; done
	kill -KILL $pid
	wait $pid || true
	pkill -f "echo started >>$LOG" || true
	[ "$(cat "$W/writeback/max_active")" = 16 ]
	run wq revert
	assert_success
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
}

@test "a file that vanishes mid-experiment: a clear error, the rest restored" {
	cat >"$BATS_TEST_TMPDIR/vanish.sh" <<EOF
#!/bin/sh
rm -f $W/writeback/nice
EOF
	chmod +x "$BATS_TEST_TMPDIR/vanish.sh"
	run wq experiment --set 'writeback max_active=16' --set 'writeback nice=-1' --runs 2 -- "$BATS_TEST_TMPDIR/vanish.sh"
	assert_failure 1
	assert_output --partial "writeback/nice: cannot read the current value: it vanished"
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
}

@test "--save keeps the result; --compare reruns it: one setting regressed (exit 3), every setting moved (the machine, exit 0; another kernel, exit 3)" {
	echo 4 >"$BATS_TEST_TMPDIR/factor"
	run wq experiment --set 'writeback max_active=16,32' --runs 4 --save base -- "$FIO" "$ROOT" "$LOG" "$BATS_TEST_TMPDIR/factor"
	assert_success
	f=$ROOT/var/lib/wqctl/experiments/base.json
	[ -f "$f" ]
	grep -q '"setting": "writeback max_active=16"' "$f"
	grep -q '"kernel": "6.18"' "$f"
	# the same behaviour: every run equal to every saved one, the change 0 (0 to 0): no change, exit 0
	run wq experiment --compare base
	assert_success
	# 16: (16x1024 + 16x512 + 1024) x 4 / 1024 = 100 MiB/s on both sides
	assert_line --regexp '^writeback max_active=16 +4 +100\.0 +100\.0 .* no change of 5%: \+0\.0% \(\+0\.0 to \+0\.0%\)$'
	# max_active 16 at a quarter (25 MiB/s), 32 as saved ((32x1024 + 32x512 + 1024) x 4 / 1024 = 196):
	# 16's 4 runs all below its 4 saved ones, p = 2/70: regressed, exit 3
	printf '16 1\n32 4\n' >"$BATS_TEST_TMPDIR/factor"
	run wq experiment --compare base
	assert_failure 3
	assert_line --regexp '^writeback max_active=16 +4 +100\.0 +25\.00 .* -75\.0% regressed: -75\.0% \(-75\.0 to -75\.0%\), p=0\.029$'
	assert_line --regexp '^writeback max_active=32 +4 +196\.0 +196\.0 .* no change of 5%'
	# both at a quarter: every setting -75%, their intervals meet: the machine changed (same kernel), exit 0
	echo 1 >"$BATS_TEST_TMPDIR/factor"
	run wq experiment --compare base
	assert_success
	assert_line --regexp '^writeback max_active=16 .* worse with every setting: -75\.0% \(-75\.0 to -75\.0%\)$'
	assert_line --regexp '^writeback max_active=32 .* worse with every setting: -75\.0% \(-75\.0 to -75\.0%\)$'
	assert_output --partial "wqctl: experiment: every setting moved together, -75.0% to -75.0% against the saved runs: the machine changed, not one setting; nothing is claimed about the settings (same kernel: exit 0)"
	# the same, saved on another kernel: a regression of this kernel, exit 3
	sed -i 's/"kernel": "6.18"/"kernel": "6.12.0"/' "$f"
	run wq experiment --compare base
	assert_failure 3
	assert_output --partial "against the saved runs: the kernel changed (or the machine), not one setting (a regression of this kernel: exit 3 when worse)"
	# more bandwidth everywhere is no regression
	echo 8 >"$BATS_TEST_TMPDIR/factor"
	run wq experiment --compare base
	assert_success
	assert_line --regexp '^writeback max_active=32 .* better with every setting: \+100\.0% '
	run wq experiment --compare nosuch
	assert_failure 2
	assert_output --partial "no such experiment"
	run wq experiment --compare base --runs 2
	assert_failure 2
	run originals_back
	assert_success
}

@test "--compare of a latency metric: higher is a regression" {
	echo 1 >"$BATS_TEST_TMPDIR/factor"
	wq experiment --set 'writeback max_active=16' --runs 2 --metric fio:read.clat_p99 --save lat -- "$FIO" "$ROOT" "$LOG" >/dev/null 2>&1
	run wq experiment --compare lat
	assert_success
	# 2 runs a side, all equal: no interval can exist (k = floor(2 - 1.96 sqrt(4 x 5 / 12)) < 1)
	assert_output --partial "inconclusive: +0.0% (no 95% interval from 2 runs); 4 runs a setting would tell 5% from this noise (CV 0.0%)"
	# a broken saved file is named as such
	echo '{"spec": 1' >"$ROOT/var/lib/wqctl/experiments/bad.json"
	run wq experiment --compare bad
	assert_failure 1
	assert_output --partial "bad.json: not a saved experiment"
}

@test "--plot draws an SVG box plot with gnuplot; without gnuplot nothing runs" {
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (make deps)"
	run wq experiment --set 'writeback max_active=16,64' --runs 3 --plot "$BATS_TEST_TMPDIR/p.svg" -- "$FIO" "$ROOT" "$LOG"
	assert_success
	head -c 300 "$BATS_TEST_TMPDIR/p.svg" | grep -q '<svg'
	grep -q 'writeback max_active=64' "$BATS_TEST_TMPDIR/p.svg"
	grep -q 'fio bandwidth, MiB/s, higher is better' "$BATS_TEST_TMPDIR/p.svg"
	rm -f "$LOG"
	run env PATH=/nonexistent "$WQCTL" --sysroot "$ROOT" experiment --set 'writeback max_active=16' --plot "$BATS_TEST_TMPDIR/q.svg" -- /bin/true
	assert_failure 1
	assert_output --partial "--plot needs gnuplot"
	[ ! -e "$BATS_TEST_TMPDIR/q.svg" ]
}

@test "an earlier wqctl change keeps its journal entry through an experiment" {
	wq set writeback max_active=512
	run wq experiment --set 'writeback max_active=16' --runs 1 -- true
	assert_success
	[ "$(cat "$W/writeback/max_active")" = 512 ]
	# revert still undoes the earlier set
	run wq revert
	assert_success
	[ "$(cat "$W/writeback/max_active")" = 1024 ]
}

@test "no --set or --profile: one setting, the system as found, a baseline to save (issue 45)" {
	run wq experiment --runs 1 -- true
	assert_success
	assert_line --regexp '^none +1 '
	originals_back
}

@test "--save NAME does not replace a saved experiment unless --force, and says so before the first run (issue 45)" {
	run wq experiment --runs 1 --save keep -- true
	assert_success
	local saved=$ROOT/var/lib/wqctl/experiments/keep.json
	local sum
	sum=$(md5sum <"$saved")
	run wq experiment --runs 1 --save keep -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 2
	assert_output "wqctl: experiment: --save keep: a saved experiment of that name exists; add --force to replace it"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	assert_equal "$(md5sum <"$saved")" "$sum"
	run wq experiment --runs 1 --save keep --force -- touch "$BATS_TEST_TMPDIR/ran"
	assert_success
	[ -e "$BATS_TEST_TMPDIR/ran" ]
	grep -q '"touch"' "$saved"
}

@test "--watch PATTERN: kept by --save and used again by --compare; refused with --no-monitor, empty, 17 times or beside --compare (issue 45); --backend checked" {
	# a metric that cannot vary (wall time could, and --compare would call it a regression)
	run wq experiment --runs 1 --watch 'btrfs-*' --watch kblockd --save w --metric 're:x=([0-9]+)' -- echo x=5
	assert_success
	tr -d ' \n' <"$ROOT/var/lib/wqctl/experiments/w.json" | grep -q '"watch":\["btrfs-\*","kblockd"\]'
	# --compare takes the spec from the file: the watch list comes back in its document
	run wq -J experiment --compare w
	assert_success
	echo "$output" | tr -d ' \n' | grep -q '"watch":\["btrfs-\*","kblockd"\]'
	run wq experiment --compare w --watch x
	assert_failure 2
	assert_output --partial "give no --set, --profile, --runs, --warmup, --metric, --better, --watch or command"
	run wq experiment --backend fast -- true
	assert_failure 2
	assert_output "wqctl: experiment: --backend 'fast': expected auto, bpf, kernel or stream"
	run wq experiment --no-monitor --backend stream -- true
	assert_failure 2
	assert_output "wqctl: experiment: --backend chooses how the workqueues are counted, which --no-monitor turns off"
	run wq experiment --no-monitor --watch kblockd -- true
	assert_failure 2
	assert_output "wqctl: experiment: --watch counts work through the tracepoints, which --no-monitor turns off"
	run wq experiment --watch '' -- true
	assert_failure 2
	assert_output --partial "--watch '': a workqueue name or glob of 1 to 63 characters"
	args=()
	for i in $(seq 17); do args+=(--watch "w$i"); done
	run wq experiment "${args[@]}" -- true
	assert_failure 2
	assert_output "wqctl: experiment: more than 16 --watch patterns"
	run originals_back
	assert_success
}

@test "a saved experiment whose spec.watch is not a list of strings is refused, naming the field" {
	run wq experiment --runs 1 --save w -- true
	assert_success
	f=$ROOT/var/lib/wqctl/experiments/w.json
	# the empty list as json-c prints it, over two lines
	sed -i '/"watch": \[$/{N;s/"watch": \[\n *\]/"watch": 5/}' "$f"
	grep -q '"watch": 5' "$f"
	run wq experiment --compare w
	assert_failure
	assert_output --partial "spec.watch is not an array of strings"
}

@test "experiment --list shows the saved experiments; --compare of a name not saved lists them, with the full path (issue 61)" {
	run wq experiment --list
	assert_success
	assert_output "wqctl: experiment: none is saved yet (experiment --save NAME keeps one)"
	run wq experiment --compare typo
	assert_failure 2
	assert_output "wqctl: $ROOT/var/lib/wqctl/experiments/typo.json: cannot read the baseline: no such experiment; none is saved yet (experiment --save NAME keeps one)"
	wq experiment --set 'writeback max_active=16,32' --runs 2 --save base -- "$FIO" "$ROOT" "$LOG" 2>/dev/null
	wq experiment --runs 1 --metric wall --save solo -- true 2>/dev/null
	run wq experiment --list -P
	assert_success
	assert_line "NAME=\"base\" SETTINGS=\"2\" RUNS=\"2\" METRIC=\"fio:bw\" COMMAND=\"$FIO $ROOT $LOG\""
	assert_line 'NAME="solo" SETTINGS="1" RUNS="1" METRIC="wall" COMMAND="true"'
	assert_equal "${#lines[@]}" 2
	run wq experiment --compare bse
	assert_failure 2
	assert_output "wqctl: $ROOT/var/lib/wqctl/experiments/bse.json: cannot read the baseline: no such experiment; saved: base, solo"
	run wq experiment --list --runs 2
	assert_failure 2
	assert_output "wqctl: experiment: --list takes nothing else"
}

@test "a run far from the others and runs that rise over the rounds are named (issue 62)" {
	# one setting, so the runs come in round order; the workload prints the next value of a list
	printf '%s\n' 100 101 99 100 300 100 >"$BATS_TEST_TMPDIR/values"
	cat >"$BATS_TEST_TMPDIR/next.sh" <<EOF
#!/bin/sh
n=\$(cat "$BATS_TEST_TMPDIR/n" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$BATS_TEST_TMPDIR/n"
echo "value \$(sed -n "\$((n + 1))p" "$BATS_TEST_TMPDIR/values")"
EOF
	chmod +x "$BATS_TEST_TMPDIR/next.sh"
	run wq experiment --runs 6 --metric 're:value ([0-9]+)' -- "$BATS_TEST_TMPDIR/next.sh"
	assert_success
	# median 100, deviations 0 1 1 0 200 0: MAD 0.5; 300 scores 0.6745 x 200 / 0.5 = 270 > 14; 101 scores 1.3
	assert_output --partial "wqctl: experiment: none: run 5 (300) lies far from the others (median 100): something else may have run then"
	assert_equal "$(grep -c 'lies far from the others' <<<"$output")" 1
	# 10, 20 ... 80: every pair rises, Kendall's tau 1, p = 0.00084 < 0.01
	rm "$BATS_TEST_TMPDIR/n"
	seq 10 10 80 >"$BATS_TEST_TMPDIR/values"
	run wq experiment --runs 8 --metric 're:value ([0-9]+)' -- "$BATS_TEST_TMPDIR/next.sh"
	assert_success
	assert_output --partial "wqctl: experiment: none: the runs go up over the rounds (Kendall's tau 1.00, p=0.00084): the machine drifted"
	# 6 runs in no order: nothing named
	rm "$BATS_TEST_TMPDIR/n"
	printf '%s\n' 100 104 98 102 99 101 >"$BATS_TEST_TMPDIR/values"
	run wq experiment --runs 6 --metric 're:value ([0-9]+)' -- "$BATS_TEST_TMPDIR/next.sh"
	refute_output --partial "far from the others"
	refute_output --partial "over the rounds"
}
