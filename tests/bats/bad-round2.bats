#!/usr/bin/env bats
# Bad-input catalogue, round two (issue 43): the surfaces added after the
# first audit — experiment and its saved baselines, check --isolation,
# profile conditions, the journal, listings below a sysroot, udev numbers.
# Each case: a clear error naming the object and the reason (or the right
# answer), nothing written that should not be, and no sanitizer report.
load helpers

setup() {
	use_tree synth:2:4:1:2 6.18
	W=$ROOT/sys/devices/virtual/workqueue
	PD=$BATS_TEST_TMPDIR/profiles
	EXP=$ROOT/var/lib/wqctl/experiments
	MARK=$BATS_TEST_TMPDIR/ran
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

# --- names from outside the sysroot ---------------------------------------------

@test "a symlink in the sysroot to a host directory lists nothing of the host: did-you-mean, completion, profile list" {
	local out=$BATS_TEST_TMPDIR/outside
	mkdir -p "$out/profiles" "$ROOT/etc"
	printf '[workqueue writeback]\nnice = 1\n' >"$out/profiles/secretname.conf"
	: >"$out/secretexp.json"
	ln -s "$out" "$ROOT/etc/wqctl"
	rmdir "$EXP"
	ln -s "$out" "$EXP"
	run wq profile use secretnam
	sane
	assert_failure 2
	assert_output --partial "secretnam: no such profile"
	refute_output --partial secretname
	run wq __complete profiles
	refute_output --partial secretname
	run wq __complete experiments
	refute_output --partial secretexp
	run wq profile list -n -o NAME
	refute_output --partial secretname
	# the same names inside the tree are listed
	rm "$ROOT/etc/wqctl"
	mkdir -p "$ROOT/etc/wqctl/profiles"
	cp "$out/profiles/secretname.conf" "$ROOT/etc/wqctl/profiles/"
	run wq __complete profiles
	assert_line secretname
	run wq profile use secretnam
	assert_output --partial "did you mean 'secretname'?"
}

# --- saved experiments ------------------------------------------------------------

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

# --- check ---------------------------------------------------------------------------

@test "check --isolation --cpus names only CPUs that exist; -i goes with --isolation only" {
	# synth:2:4: 8 CPUs, 0-7
	run wq check --isolation --cpus 5000
	sane
	assert_failure 2
	assert_output --partial "--cpus '5000': CPU 5000 does not exist here (possible CPUs: 0-7)"
	run wq check --isolation --cpus 6-9
	assert_failure 2
	assert_output --partial "CPUs 8-9 do not exist here"
	run wq check -i 5
	assert_failure 2
	assert_output --partial "--cpus and --interval go with --isolation"
}

@test "check reads btrfs mounts whose path is longer than 255 bytes, and undoes the octal escapes" {
	use_tree x86_64-64cpu 6.8.0
	mkdir -p "$ROOT/proc/self"
	long=/srv/$(printf 'd%.0s' $(seq 300))
	printf '/dev/sda1 / ext4 rw 0 0\n/dev/sdb %s btrfs rw,relatime,thread_pool=4 0 0\n/dev/sdc /my\\040data btrfs rw,nothread_pool=9 0 0\n' \
		"$long" >"$ROOT/proc/self/mounts"
	run wq check -P -o CODE,TARGET
	assert_line "CODE=\"btrfs-max-active-per-cpu\" TARGET=\"$long\""
	assert_line "CODE=\"btrfs-max-active-per-cpu\" TARGET=\"/my data\""
	run wq check -P -o TARGET,MESSAGE
	# thread_pool=4 on 64 CPUs: 256; nothread_pool= is no thread_pool=: the default 8, 512
	assert_output --partial "thread_pool 4 is max_active of its workqueues, which 6.6-6.8 apply per CPU: up to 4 x 64 = 256"
	assert_output --partial "btrfs (/dev/sdc): thread_pool 8 (the default)"
}

# --- profiles ------------------------------------------------------------------------

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

@test "'when' conditions: junk, '=>', '!>=' and empty elements are refused" {
	for w in 'cpus xyz >= 2' 'cpus => 2' 'cpus !>= 2' 'cpus >= 2 x' 'cpus >= 2,' 'kernel >= 6.1,,nodes < 9'; do
		printf '[workqueue writeback]\nwhen = %s\nnice = 1\n' "$w" >"$PD/w.conf"
		run wqp profile show w
		sane
		assert_failure 2
		assert_output --partial "w.conf:2: when: "
	done
	printf '[workqueue writeback]\nwhen = kernel>=6.1 , nodes<9,cpus == 8\nnice = 1\n' >"$PD/w.conf"
	run wqp apply --profile w
	assert_success
	[ "$(cat "$W/writeback/nice")" = 1 ]
}

# --- the journal --------------------------------------------------------------------

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

# --- udev ------------------------------------------------------------------------------

@test "udev: a SCSI host number beyond 32 bits is no other host (host4294967298 is not host2)" {
	"$TOP/tests/fixtures/mkowners.sh" "$ROOT"
	printf '[workqueue scsi_tmf_*]\nnice = 2\n' >"$PD/p.conf"
	local pci0=devices/pci0000:00/0000:00:10.0 h=host4294967298
	mkdir -p "$ROOT/sys/$pci0/$h/scsi_host/$h"
	BEFORE=$(tree_sum)
	run env -i ACTION=add SUBSYSTEM=scsi_host "DEVPATH=/$pci0/$h/scsi_host/$h" \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	sane
	assert_failure 2
	assert_output --partial "does not name a scsi_host device"
	assert_equal "$(tree_sum)" "$BEFORE"
	# host2 itself is still its own
	run env -i ACTION=add SUBSYSTEM=scsi_host "DEVPATH=/$pci0/host2/scsi_host/host2" \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	[ "$(cat "$W/scsi_tmf_2/nice")" = 2 ]
}

# --- round three (issue 60 item 21): messages that sent people the wrong way ---

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

# the library once exited the process itself when json-c could not be loaded (lib/dl.c); the
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
