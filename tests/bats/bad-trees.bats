#!/usr/bin/env bats
# Hostile trees (issue 11): dumps other people send, planted files, broken
# kernels' output. Each case: a clear error naming the object and the reason
# (or the right answer), never a crash or a hang, and nothing written.
load helpers

setup() {
	use_tree x86_64-64cpu 6.18.0 owners
	BEFORE=$(tree_sum)
}

# sane_status: no sanitizer report, no signal, no hang (timeout's 124)
sane_status() {
	refute_output --partial "Sanitizer"
	[ "$status" -lt 124 ]
}

# sane: that, and the tree unchanged
sane() {
	sane_status
	assert_equal "$(tree_sum)" "$BEFORE"
}

# --- #1: a long link target in the owner walk (stack overflow in normalize) ---

@test "a 511-byte link target under sys/dev/block does not overflow the owner walk" {
	# relative and without "..": normalized it stays longer than 511 characters
	local t="devices" i
	for i in $(seq 1 60); do t="$t/component"; done
	t="${t:0:511}"
	[ "${#t}" -eq 511 ]
	rm "$ROOT/sys/dev/block/253:0"
	ln -s "$t" "$ROOT/sys/dev/block/253:0"
	run wq show -o NAME,OWNER,OWNER_NODE kcryptd-253:0-1
	sane
	assert_success
	run wq set --dry-run kcryptd-253:0-1 max_active=8
	sane
}

@test "a long slaves/ link of a dm device does not overflow the owner walk" {
	local t="devices" i
	for i in $(seq 1 60); do t="$t/longcomponentname"; done
	ln -s "${t:0:511}" "$ROOT/sys/devices/virtual/block/dm-0/slaves/evil"
	run wq show -o NAME,OWNER_NODE kcryptd-253:0-1
	sane
	assert_success
}

@test "a link with more than 128 components is refused, not truncated" {
	local t="../.." i
	for i in $(seq 1 200); do t="$t/a"; done
	rm "$ROOT/sys/dev/block/253:0"
	ln -s "$t" "$ROOT/sys/dev/block/253:0"
	run wq show -o NAME,OWNER_NODE kcryptd-253:0-1
	sane
	assert_success
}

# --- #10: slaves/ links that form cycles with fan-out ------------------------

@test "slaves/ cycles with fan-out 8 are walked once per device" {
	local b=$ROOT/sys/devices/virtual/block i j
	for i in $(seq 2 9); do
		mkdir -p "$b/dm-$i/slaves"
		ln -s "../../dm-$i" "$b/dm-0/slaves/dm-$i"
	done
	for i in $(seq 2 9); do
		for j in $(seq 2 9); do ln -s "../../dm-$j" "$b/dm-$i/slaves/dm-$j"; done
		ln -s "../../dm-0" "$b/dm-$i/slaves/dm-0"
	done
	# without a visited set this is 8^8 walks (minutes); a hang guard, not a timing
	run timeout 60 "$WQCTL" --sysroot "$ROOT" show -o NAME,OWNER_NODE kcryptd-253:0-1
	sane
	assert_success
}

# --- #6: FIFOs in place of files wqctl reads ----------------------------------

fifo() { rm -f "$ROOT/$1" && mkfifo "$ROOT/$1"; BEFORE=$(tree_sum); }

@test "a FIFO as an attribute: show names it, no hang" {
	fifo sys/devices/virtual/workqueue/writeback/max_active
	run timeout 20 "$WQCTL" --sysroot "$ROOT" show
	sane
	assert_failure 1
	assert_output --partial "writeback/max_active: cannot read: not a regular file"
}

@test "a FIFO as possible: topology names it, no hang" {
	fifo sys/devices/system/cpu/possible
	run timeout 20 "$WQCTL" --sysroot "$ROOT" topology
	sane
	assert_failure 1
	assert_output --partial "sys/devices/system/cpu/possible: cannot read topology: not a regular file"
}

@test "a FIFO as osrelease: no hang" {
	fifo proc/sys/kernel/osrelease
	run timeout 20 "$WQCTL" --sysroot "$ROOT" explain writeback
	sane
}

@test "a FIFO as an attribute: set refuses to write into it, no hang" {
	fifo sys/devices/virtual/workqueue/writeback/nice
	run timeout 20 "$WQCTL" --sysroot "$ROOT" set writeback nice=5
	sane
	assert_failure
	assert_output --partial "not a regular file"
}



# --- #14: NUL bytes in values -------------------------------------------------

@test "a NUL byte in max_active is refused, not read as 16" {
	printf '16\0999\n' >"$(WQDIR)/writeback/max_active"
	BEFORE=$(tree_sum)
	run wq get writeback max_active
	sane
	assert_failure 1
	assert_output --partial "writeback/max_active: cannot read: contains a NUL byte"
}

@test "a NUL byte in a CPU list file is refused" {
	printf '0-3\0-63\n' >"$ROOT/sys/devices/system/cpu/online"
	BEFORE=$(tree_sum)
	run wq topology
	sane
	assert_failure 1
	assert_output --partial "online: cannot read topology: contains a NUL byte"
}

# --- #11, #12: impossible CPU numbers, online outside possible ----------------

@test "possible CPUs beyond the kernel's 8192 are refused" {
	echo 0-65535 >"$ROOT/sys/devices/system/cpu/possible"
	BEFORE=$(tree_sum)
	run wq topology
	sane
	assert_failure 1
	assert_output --partial "sys/devices/system/cpu/possible: cannot read topology"
}

@test "online CPUs outside possible make a malformed tree" {
	echo 0-127 >"$ROOT/sys/devices/system/cpu/online"
	BEFORE=$(tree_sum)
	run wq explain writeback
	sane
	assert_failure 1
	assert_output --partial "sys/devices/system/cpu/online: cannot read topology: lists CPUs that are not possible"
}

# issue 60 item 15: the kernel lists possible CPUs only; these were taken as they were
@test "isolated or nohz_full CPUs outside possible make a malformed tree" {
	for f in isolated nohz_full; do
		use_tree vmware_fpe 6.18.0
		echo 0-2,40 >"$ROOT/sys/devices/system/cpu/$f"
		BEFORE=$(tree_sum)
		run wq explain writeback
		sane
		assert_failure 1
		assert_output --partial "sys/devices/system/cpu/$f: cannot read topology: lists CPUs that are not possible"
	done
}

@test "cpumask_isolated outside possible is said, not judged" {
	# vmware_fpe: possible 0-31 (its cpu/possible); the mask names 56-64
	use_tree vmware_fpe 6.18.0
	echo 1,ff000000,00000000 >"$(WQDIR)/cpumask_isolated"
	BEFORE=$(tree_sum)
	run wq check -r -n -o SEVERITY,CODE,TARGET
	sane
	assert_failure 3
	assert_line "error bad-file cpumask_isolated"
	refute_output --partial cpuset-isolated
	run wq check -n -o MESSAGE
	assert_output --partial "cpumask_isolated lists CPUs that are not possible (56-64; possible: 0-31): not judged"
}

@test "a CPU number above 8191 in a value is refused" {
	run wq set writeback cpumask=8192
	sane
	assert_failure 2
	assert_output --partial "too large"
}

# --- #13: strict CPU-set spelling --------------------------------------------

@test "cpumask spellings with empty terms or blanks are refused" {
	local v
	for v in '0++1' '0+' '+0' '0x 1' '0x' 'mask:' 'mask: ff' '0x1 '; do
		run wq set writeback "cpumask=$v"
		sane
		assert_failure 2
		assert_output --partial "writeback/cpumask: invalid value '$v'"
	done
	run wq set --dry-run writeback cpumask=0-1+2
	assert_success
}

# --- #16: --kernel is input ---------------------------------------------------

@test "an invalid --kernel exits 2 before anything is read" {
	local k
	for k in latest 6 '' 6.x '6.1;rm'; do
		run wq --kernel "$k" show
		sane
		assert_failure 2
		assert_output --partial "--kernel: '$k' is not a kernel release"
	done
}

# --- #2: a [global] knob that cannot be read ----------------------------------

prof() { mkdir -p "$BATS_TEST_TMPDIR/pd" && cat >"$BATS_TEST_TMPDIR/pd/$1.conf"; }
wqp() { wq --profile-dir "$BATS_TEST_TMPDIR/pd" "$@"; }

@test "a 17 MB watchdog_thresh: apply and verify say it cannot be read, nothing written" {
	head -c 17000000 /dev/zero | tr '\0' '1' >"$ROOT/sys/module/workqueue/parameters/watchdog_thresh"
	BEFORE=$(tree_sum)
	prof big <<-'P'
		[global]
		watchdog_thresh = 10
		[workqueue writeback]
		max_active = 64
	P
	run wqp apply --dry-run --profile big
	sane
	assert_failure 2
	assert_output --partial "watchdog_thresh"
	assert_output --partial "cannot read the current value: File too large"
	run wqp apply --profile big
	sane
	assert_failure 2
	run wqp verify --profile big
	sane
	assert_failure
	assert_output --partial "watchdog_thresh"
}

@test "a FIFO as a knob: knob NAME=VALUE says why it cannot be read, no hang" {
	fifo sys/module/workqueue/parameters/watchdog_thresh
	run timeout 20 "$WQCTL" --sysroot "$ROOT" knob watchdog_thresh=10
	sane
	assert_failure 2
	assert_output --partial "watchdog_thresh: cannot read the current value: not a regular file"
	prof f <<-'P'
		[global]
		watchdog_thresh = 10
	P
	run timeout 20 "$WQCTL" --sysroot "$ROOT" --profile-dir "$BATS_TEST_TMPDIR/pd" apply --profile f
	sane
	assert_failure 2
	assert_output --partial "not a regular file"
}

@test "a FIFO in the udev database: device-props names it, no hang" {
	fifo run/udev/data/b253:0
	run timeout 20 "$WQCTL" --sysroot "$ROOT" device-props /devices/virtual/block/dm-0
	sane
	refute_output --partial "DM_UUID"
}

# --- #3: state files stay inside --sysroot ------------------------------------

@test "run/wqctl linked out of the tree: journal and lock stay inside it" {
	local out="$BATS_TEST_TMPDIR/outside"
	mkdir -p "$out" "$ROOT/run"
	ln -s "$out" "$ROOT/run/wqctl"
	prof p <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	# the link names a directory the tree does not have: an error, nothing outside
	run wqp apply --profile p
	sane_status
	assert_failure 1
	assert_output --partial "run/wqctl/lock"
	assert_equal "$(ls -A "$out")" ""
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 1024
	mkdir -p "$ROOT/$out"
	run wqp apply --profile p
	sane_status
	assert_success
	# the absolute link resolves inside the tree, never in the real directory
	assert_equal "$(ls -A "$out")" ""
	[ -f "$ROOT/$out/journal" ] && [ -f "$ROOT/$out/lock" ]
	run wqp revert
	assert_success
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 1024
}

@test "etc/wqctl/active-profiles linked to /etc/passwd: no line of it is printed" {
	mkdir -p "$ROOT/etc/wqctl"
	ln -s /etc/passwd "$ROOT/etc/wqctl/active-profiles"
	run wq profile current
	sane_status
	refute_output --partial "root:"
	run wq apply
	sane_status
	refute_output --partial "root:"
}

@test "profile use with etc/wqctl linked out of the tree writes inside it" {
	local out="$BATS_TEST_TMPDIR/etc-out"
	mkdir -p "$out" "$ROOT/etc" "$ROOT/$out"
	ln -s "$out" "$ROOT/etc/wqctl"
	prof p <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	run wqp profile use p
	sane_status
	assert_success
	assert_equal "$(ls -A "$out")" ""
	grep -qx p "$ROOT/$out/active-profiles"
}

@test "a profile directory below the sysroot linked out of it is read inside it" {
	mkdir -p "$ROOT/etc/wqctl" "$BATS_TEST_TMPDIR/real-profiles"
	printf '[workqueue writeback]\nmax_active = 5\n' >"$BATS_TEST_TMPDIR/real-profiles/evil.conf"
	ln -s "$BATS_TEST_TMPDIR/real-profiles" "$ROOT/etc/wqctl/profiles"
	run wq apply --profile evil
	sane_status
	assert_failure 2
	assert_output --partial "evil: no such profile"
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 1024
}

@test "a mask link in a profile directory linked inside the sysroot is read inside it" {
	mkdir -p "$ROOT/etc/wqctl" "$ROOT/srv/profiles" "$ROOT/run/wqctl/profiles"
	# the directory link is absolute: it means $ROOT/srv/profiles, not the host's /srv
	ln -s /srv/profiles "$ROOT/etc/wqctl/profiles"
	ln -s /dev/null "$ROOT/srv/profiles/site.conf"
	printf '[workqueue writeback]\nmax_active = 5\n' >"$ROOT/run/wqctl/profiles/site.conf"
	run wq apply --profile site
	sane_status
	assert_failure 2
	assert_output --partial "site: profile is masked"
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 1024
}

@test "in a sysroot a symlink planted as an attribute is refused, not replaced" {
	# a link to a sibling reads fine; replacing it would turn the link into a file
	rm "$(WQDIR)/writeback/nice"
	ln -s max_active "$(WQDIR)/writeback/nice"
	BEFORE=$(tree_sum)
	run wq set writeback nice=5
	sane
	assert_failure
	assert_output --partial "writeback/nice"
	assert_output --partial "not a regular file"
	[ -L "$(WQDIR)/writeback/nice" ]
}

# --- #4: journal injection -----------------------------------------------------

@test "a current value with a newline never reaches the journal" {
	printf '1024\n* * * * * root x\n' >"$(WQDIR)/writeback/max_active"
	BEFORE=$(tree_sum)
	prof p <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	run wqp apply --profile p
	sane
	assert_failure 2
	assert_output --partial "writeback/max_active"
	[ ! -e "$ROOT/run/wqctl/journal" ]
}

@test "a journal with an injected line is refused by revert, nothing written" {
	mkdir -p "$ROOT/run/wqctl"
	printf 'sys/devices/virtual/workqueue/writeback/max_active\t0\t1024\t64\n* * * * * root x\n' \
		>"$ROOT/run/wqctl/journal"
	BEFORE=$(tree_sum)
	run wq revert
	sane
	assert_failure
	assert_output --partial "malformed journal line"
}

# --- #5: dump never writes through links ---------------------------------------

@test "dump into a DIR whose proc/cmdline links to a 0600 file leaves that file alone" {
	local secret="$BATS_TEST_TMPDIR/secret" out="$BATS_TEST_TMPDIR/dump"
	printf 'top secret\n' >"$secret"
	chmod 0600 "$secret"
	mkdir -p "$out/proc"
	ln -s "$secret" "$out/proc/cmdline"
	run wq dump --force "$out"
	sane_status
	assert_success
	assert_equal "$(cat "$secret")" "top secret"
	assert_equal "$(stat -c %a "$secret")" 600
	[ ! -L "$out/proc/cmdline" ] && [ -f "$out/proc/cmdline" ]
}

@test "dump of a tree with absolute links writes nothing outside DIR" {
	local out="$BATS_TEST_TMPDIR/dump" victim="$BATS_TEST_TMPDIR/victim"
	mkdir -p "$victim"
	# a hostile source tree: dm-0's subsystem link is absolute and names a real
	# directory; a slave link leads through it to a numa_node that dump copies
	local dm=$ROOT/sys/devices/virtual/block/dm-0
	rm "$dm/subsystem"
	ln -s "$victim" "$dm/subsystem"
	mkdir -p "$ROOT/$victim/x"
	echo 3 >"$ROOT/$victim/x/numa_node"
	ln -s ../subsystem/x "$dm/slaves/evil"
	run wq dump --force "$out"
	sane_status
	# the recreated link is written into inside DIR, never followed to the host
	assert_equal "$(ls -A "$victim")" ""
}

@test "dump into a DIR holding a FIFO where a file goes: no hang, the FIFO is replaced" {
	local out="$BATS_TEST_TMPDIR/dump"
	mkdir -p "$out/proc/sys/kernel"
	mkfifo "$out/proc/sys/kernel/osrelease"
	run timeout 20 "$WQCTL" --sysroot "$ROOT" dump --force "$out"
	sane_status
	assert_success
	[ -f "$out/proc/sys/kernel/osrelease" ]
}

@test "dump refuses a DIR that is not empty without --force, and says where it wrote" {
	local out="$BATS_TEST_TMPDIR/dump"
	mkdir -p "$out"
	echo mine >"$out/notes"
	run wq dump "$out"
	assert_equal "$status" 2
	assert_output "wqctl: $out: exists and is not empty (or cannot be read): dump writes into a new or empty directory; --force writes into it, replacing what it copies"
	assert_equal "$(ls -A "$out")" notes
	# an empty one is taken; the line counts the files it holds, as find does
	rm "$out/notes"
	run wq dump "$out"
	assert_success
	assert_output "dump: $(find "$out" -type f | wc -l) files in $out; read them with 'wqctl --sysroot $out'"
	run wq -q dump --force "$out"
	assert_success
	assert_output ""
}

# --- #15: a write killed half-way ------------------------------------------------

@test "a leftover temporary of a killed journal write is replaced, not accumulated" {
	mkdir -p "$ROOT/run/wqctl"
	echo junk >"$ROOT/run/wqctl/.journal.wqctl-new"
	prof p <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	run wqp apply --profile p
	assert_success
	assert_equal "$(ls -A "$ROOT/run/wqctl" | sort | tr '\n' ' ')" "journal lock "
}

@test "in a sysroot a value is replaced whole (no O_TRUNC window), mode kept" {
	chmod 0640 "$(WQDIR)/writeback/nice"
	ino=$(stat -c %i "$(WQDIR)/writeback/nice")
	run strace -f -e trace=openat,openat2 "$WQCTL_PLAIN" --sysroot "$ROOT" set writeback nice=5
	assert_success
	refute_output --regexp 'writeback/nice.*O_TRUNC'
	assert_equal "$(cat "$(WQDIR)/writeback/nice")" 5
	assert_equal "$(stat -c %a "$(WQDIR)/writeback/nice")" 640
	[ "$(stat -c %i "$(WQDIR)/writeback/nice")" != "$ino" ]
}

@test "a tree without the workqueue directory: it is looked for once, not for each file" {
	rm -r "$(WQDIR)"
	run strace -f -e trace=openat,openat2 "$WQCTL_PLAIN" --sysroot "$ROOT" explain writeback
	assert_failure
	assert_output --partial "writeback: no such workqueue in sysfs"
	# explain reads per_cpu, then max_active: both below the directory
	assert_equal "$(grep -c 'writeback/per_cpu"' <<<"$output")" 1
	assert_equal "$(grep -c 'writeback/max_active"' <<<"$output")" 1
	assert_equal "$(grep -c '"sys/devices/virtual/workqueue",.*O_PATH' <<<"$output")" 1
}

# --- #9: what apply journals is read under the lock --------------------------------

@test "apply waiting for the lock journals the value that is there when it writes" {
	mkdir -p "$ROOT/run/wqctl"
	prof p <<-'P'
		[workqueue writeback]
		max_active = 5
	P
	# another wqctl holds the lock; apply reads (1024), then waits for it
	exec 9>"$ROOT/run/wqctl/lock"
	flock -x 9
	"$WQCTL" --sysroot "$ROOT" --profile-dir "$BATS_TEST_TMPDIR/pd" apply --profile p 2>"$BATS_TEST_TMPDIR/err" 9>&- &
	pid=$!
	# apply opens the lock after reading, then polls flock every 10 ms
	for i in $(seq 1 200); do
		ls -l /proc/$pid/fd 2>/dev/null | grep -q 'run/wqctl/lock' && break
		sleep 0.05
	done
	# meanwhile the holder changes the value (as a revert of an earlier apply would)
	echo 77 >"$(WQDIR)/writeback/max_active"
	flock -u 9
	exec 9>&-
	wait $pid || fail "apply failed: $(cat "$BATS_TEST_TMPDIR/err")"
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 5
	# the original in the journal is 77, not the stale 1024
	run cut -f3 "$ROOT/run/wqctl/journal"
	assert_output 77
	run wq revert
	assert_success
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 77
}

@test "apply with nothing to change does not wait for a lock another wqctl holds" {
	mkdir -p "$ROOT/run/wqctl"
	prof same <<-P
		[workqueue writeback]
		max_active = $(cat "$(WQDIR)/writeback/max_active")
	P
	exec 9>"$ROOT/run/wqctl/lock"
	flock -x 9
	run strace -f -e trace=flock "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$BATS_TEST_TMPDIR/pd" \
		apply --profile same 9>&-
	flock -u 9
	exec 9>&-
	assert_success
	# one try, not a wait of 10 ms a try
	assert_equal "$(grep -c '^flock(' <<<"$output")" 1
	sane
}

@test "apply reads under the lock once: each file it sets is read, written and read back" {
	prof p <<-'P'
		[workqueue writeback]
		max_active = 5
		nice = 0
	P
	run strace -f -e trace=openat,openat2 "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$BATS_TEST_TMPDIR/pd" \
		apply --profile p
	assert_success
	# the lock comes before the first read of the workqueue
	lock=$(grep -n 'run/wqctl/lock' <<<"$output" | head -1 | cut -d: -f1)
	first=$(grep -n 'writeback/max_active' <<<"$output" | head -1 | cut -d: -f1)
	[ -n "$lock" ] && [ -n "$first" ] && [ "$lock" -lt "$first" ]
	# max_active: the plan's read and the read-back (no second read under the lock); nice, unchanged: one read
	assert_equal "$(grep -c 'writeback/max_active".*O_RDONLY' <<<"$output")" 2
	assert_equal "$(grep -c 'writeback/nice".*O_RDONLY' <<<"$output")" 1
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 5
}

@test "an apply that cannot take the lock still reports nothing to change, and refuses to write" {
	# run/wqctl is a file: the lock cannot be made there
	mkdir -p "$ROOT/run"
	: >"$ROOT/run/wqctl"
	BEFORE=$(tree_sum)
	prof same <<-P
		[workqueue writeback]
		max_active = $(cat "$(WQDIR)/writeback/max_active")
	P
	run wqp apply --profile same
	sane
	assert_success
	prof p <<-'P'
		[workqueue writeback]
		max_active = 5
	P
	run wqp apply --profile p
	sane
	assert_failure 1
	assert_output --partial "run/wqctl/lock:"
}

# --- #7: the profile reader and inih agree on leading whitespace --------------

@test "a line starting with a form feed after a key is refused, not a continuation" {
	printf '[workqueue writeback]\nmax_active = 5\n\f999\n' | prof ff
	run wqp apply --profile ff
	sane
	assert_failure 2
	assert_output --partial "indented line"
}

@test "a section header after a form feed cannot turn a workqueue key into the root cpumask" {
	printf '[global]\n\f[workqueue writeback]\ncpumask = 1\n' | prof ff
	run wqp apply --profile ff
	sane
	assert_failure 2
	assert_output --partial "indented line"
	local c
	for c in '\v' '\r'; do
		printf "[global]\n${c}[workqueue writeback]\ncpumask = 1\n" | prof vv
		run wqp apply --profile vv
		sane
		assert_failure 2
	done
}

@test "CRLF line endings still read as blank lines and keys" {
	printf '[workqueue writeback]\r\n\r\nmax_active = 64\r\n' | prof crlf
	run wqp apply --profile crlf
	sane_status
	assert_success
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 64
}

# --- #8: what root applies must be root's alone --------------------------------

@test "a world-writable profile is refused, nothing written" {
	prof p <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	chmod 0666 "$BATS_TEST_TMPDIR/pd/p.conf"
	run wqp apply --profile p
	sane
	assert_failure 2
	assert_output --partial "p.conf: refusing to read: it is writable by anyone (chmod go-w)"
}

@test "a group-writable profile and a profile owned by another user are refused" {
	prof p <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	chmod 0664 "$BATS_TEST_TMPDIR/pd/p.conf"
	run wqp apply --profile p
	sane
	assert_failure 2
	assert_output --partial "writable by its group"
	chmod 0644 "$BATS_TEST_TMPDIR/pd/p.conf"
	chown 1234 "$BATS_TEST_TMPDIR/pd/p.conf"
	run wqp apply --profile p
	sane
	assert_failure 2
	assert_output --partial "owned by uid 1234, not root"
}

@test "a profile in a world-writable directory is refused" {
	prof p <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	chmod 0777 "$BATS_TEST_TMPDIR/pd"
	run wqp apply --profile p
	sane
	assert_failure 2
	assert_output --regexp "its directory [^ ]*/pd is writable by anyone"
	chmod 1777 "$BATS_TEST_TMPDIR/pd"
	run wqp apply --profile p
	sane
	assert_failure 2
}

@test "a 0666 active set is refused" {
	prof p <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	run wqp profile use p
	assert_success
	BEFORE=$(tree_sum)
	chmod 0666 "$ROOT/etc/wqctl/active-profiles"
	run wqp apply
	sane
	assert_failure 2
	assert_output --partial "etc/wqctl/active-profiles: refusing to read: it is writable by anyone"
	run wqp profile current
	assert_failure 2
}

@test "an included profile is held to the same rule" {
	prof base <<-'P'
		[workqueue writeback]
		max_active = 64
	P
	prof top <<-'P'
		[profile]
		include = base
	P
	chmod 0666 "$BATS_TEST_TMPDIR/pd/base.conf"
	run wqp apply --profile top
	sane
	assert_failure 2
	assert_output --partial "base.conf: refusing to read"
}

# --- found by fuzz-sysfs: an empty max_active ------------------------------------

@test "an empty max_active: explain names the file instead of computing with -1" {
	: >"$(WQDIR)/writeback/max_active"
	BEFORE=$(tree_sum)
	run wq explain writeback
	sane
	assert_failure 1
	assert_output --partial "writeback/max_active: malformed value ''"
	refute_output --partial -- "-1"
	# with a what-if value the model still answers
	run wq explain writeback --max-active 16
	sane
	assert_success
	run wq show writeback
	sane
	refute_output --partial -- "-1"
}

# --- broken files, one per case: what wqctl reads and the reason it names -------
# break_file KIND PATH: a FIFO, a directory, a symlink loop, a NUL byte, 17 MB,
# or text that is not the file's format, in place of PATH (below $ROOT)
break_file() {
	local p=$ROOT/$2
	case $1 in
	fifo) rm -rf "$p" && mkfifo "$p" ;;
	dir) rm -rf "$p" && mkdir "$p" ;;
	loop) rm -rf "$p" && ln -s "${p##*/}" "$p" ;;
	nul) printf '1\0002\n' >"$p" ;;
	huge) head -c 17000000 /dev/zero | tr '\0' 1 >"$p" ;;
	garbage) echo 'x-y' >"$p" ;;
	esac
	BEFORE=$(tree_sum)
}
# broken KIND PATH STATUS MESSAGE ARGS...: wqctl ARGS on that tree
broken() {
	local st=$3 msg=$4
	break_file "$1" "$2"
	shift 4
	run timeout 20 "$WQCTL" --sysroot "$ROOT" "$@"
	sane
	assert_equal "$status" "$st"
	assert_output --partial "$msg"
}
A=sys/devices/virtual/workqueue/writeback
C=sys/devices/system/cpu
N=sys/devices/system/node
NOTREG="not a regular file" NUL="contains a NUL byte" BIG="File too large" LOOP="Too many levels of symbolic links"

# workqueue attributes (show reads them all)
@test "broken: max_active as a directory" { broken dir $A/max_active 1 "writeback/max_active: cannot read: $NOTREG" show; }
@test "broken: max_active of 17 MB" { broken huge $A/max_active 1 "writeback/max_active: cannot read: $BIG" show; }
@test "broken: max_active as a symlink loop still lists the workqueue" { broken loop $A/max_active 1 "writeback/max_active: cannot read: $LOOP" show; }
@test "broken: cpumask as a FIFO" { broken fifo $A/cpumask 1 "writeback/cpumask: cannot read: $NOTREG" show; }
@test "broken: cpumask as a directory" { broken dir $A/cpumask 1 "writeback/cpumask: cannot read: $NOTREG" show; }
@test "broken: cpumask with a NUL byte" { broken nul $A/cpumask 1 "writeback/cpumask: cannot read: $NUL" show; }
@test "broken: cpumask of 17 MB" { broken huge $A/cpumask 1 "writeback/cpumask: cannot read: $BIG" show; }
@test "broken: cpumask as a symlink loop" { broken loop $A/cpumask 1 "writeback/cpumask: cannot read: $LOOP" show; }
@test "broken: nice as a FIFO" { broken fifo $A/nice 1 "writeback/nice: cannot read: $NOTREG" show; }
@test "broken: nice with a NUL byte" { broken nul $A/nice 1 "writeback/nice: cannot read: $NUL" show; }
@test "broken: nice of 17 MB" { broken huge $A/nice 1 "writeback/nice: cannot read: $BIG" show; }
@test "broken: nice as a symlink loop" { broken loop $A/nice 1 "writeback/nice: cannot read: $LOOP" show; }
@test "broken: affinity_scope as a FIFO" { broken fifo $A/affinity_scope 1 "writeback/affinity_scope: cannot read: $NOTREG" show; }
@test "broken: affinity_scope as a directory" { broken dir $A/affinity_scope 1 "writeback/affinity_scope: cannot read: $NOTREG" show; }
@test "broken: affinity_scope with a NUL byte" { broken nul $A/affinity_scope 1 "writeback/affinity_scope: cannot read: $NUL" show; }
@test "broken: affinity_scope as a symlink loop" { broken loop $A/affinity_scope 1 "writeback/affinity_scope: cannot read: $LOOP" show; }
@test "broken: affinity_strict as a FIFO" { broken fifo $A/affinity_strict 1 "writeback/affinity_strict: cannot read: $NOTREG" show; }
@test "broken: affinity_strict with a NUL byte" { broken nul $A/affinity_strict 1 "writeback/affinity_strict: cannot read: $NUL" show; }
@test "broken: affinity_strict of 17 MB" { broken huge $A/affinity_strict 1 "writeback/affinity_strict: cannot read: $BIG" show; }
@test "broken: get names the attribute it cannot read" { broken loop $A/max_active 1 "writeback/max_active: cannot read: $LOOP" get writeback; }
@test "broken: set reads the current value first and writes nothing" { broken loop $A/max_active 2 "writeback/max_active: cannot read the current value: $LOOP" set writeback max_active=5; }

# the topology files
@test "broken: possible with a NUL byte" { broken nul $C/possible 1 "$C/possible: cannot read topology: $NUL" topology; }
@test "broken: possible of 17 MB" { broken huge $C/possible 1 "$C/possible: cannot read topology: $BIG" topology; }
@test "broken: possible as a directory" { broken dir $C/possible 1 "$C/possible: cannot read topology: $NOTREG" topology; }
@test "broken: possible as a symlink loop" { broken loop $C/possible 1 "$C/possible: cannot read topology: $LOOP" topology; }
@test "broken: possible is not a CPU list" { broken garbage $C/possible 1 "$C/possible: cannot read topology: not a CPU list or mask" topology; }
@test "broken: online as a FIFO" { broken fifo $C/online 1 "$C/online: cannot read topology: $NOTREG" topology; }
@test "broken: online of 17 MB" { broken huge $C/online 1 "$C/online: cannot read topology: $BIG" topology; }
@test "broken: online is not a CPU list" { broken garbage $C/online 1 "$C/online: cannot read topology: not a CPU list or mask" explain writeback; }
@test "broken: isolated as a FIFO" { broken fifo $C/isolated 1 "$C/isolated: cannot read topology: $NOTREG" topology; }
@test "broken: isolated with a NUL byte" { broken nul $C/isolated 1 "$C/isolated: cannot read topology: $NUL" topology; }
@test "broken: isolated is not a CPU list" { broken garbage $C/isolated 1 "$C/isolated: cannot read topology: not a CPU list or mask" check; }
@test "broken: a node's cpumap is not a mask" { broken garbage $N/node2/cpumap 1 "$N/node2/cpumap: cannot read topology: not a CPU list or mask" topology; }
@test "broken: a node's cpumap as a FIFO" { broken fifo $N/node2/cpumap 1 "$N/node2/cpumap: cannot read topology: $NOTREG" topology; }
@test "broken: a node's cpumap with a NUL byte" { broken nul $N/node2/cpumap 1 "$N/node2/cpumap: cannot read topology: $NUL" show; }

# pods: the SMT and cache files (before: silently other pods)
@test "broken: an LLC shared_cpu_list as a FIFO" { broken fifo $C/cpu0/cache/index3/shared_cpu_list 1 "$C/cpu0/cache/index3/shared_cpu_list: cannot build affinity pods: $NOTREG" topology --scope cache; }
@test "broken: an LLC shared_cpu_list with a NUL byte" { broken nul $C/cpu0/cache/index3/shared_cpu_list 1 "$C/cpu0/cache/index3/shared_cpu_list: cannot build affinity pods: $NUL" topology --scope cache; }
@test "broken: an LLC shared_cpu_list as a symlink loop" { broken loop $C/cpu0/cache/index3/shared_cpu_list 1 "$C/cpu0/cache/index3/shared_cpu_list: cannot build affinity pods: $LOOP" topology --scope cache; }
@test "broken: an LLC shared_cpu_list is not a CPU list" { broken garbage $C/cpu0/cache/index3/shared_cpu_list 1 "$C/cpu0/cache/index3/shared_cpu_list: cannot build affinity pods: not a CPU list or mask" topology --scope cache; }
@test "broken: a cache level as a FIFO" { broken fifo $C/cpu0/cache/index3/level 1 "$C/cpu0/cache/index3/level: cannot build affinity pods: $NOTREG" topology --scope cache; }
@test "broken: a cache level that is not a number" { broken garbage $C/cpu0/cache/index3/level 1 "$C/cpu0/cache/index3/level: cannot build affinity pods" topology --scope cache; }
@test "broken: thread_siblings_list as a FIFO" { broken fifo $C/cpu0/topology/thread_siblings_list 1 "$C/cpu0/topology/thread_siblings_list: cannot build affinity pods: $NOTREG" topology --scope smt; }
@test "broken: thread_siblings_list is not a CPU list" { broken garbage $C/cpu0/topology/thread_siblings_list 1 "$C/cpu0/topology/thread_siblings_list: cannot build affinity pods: not a CPU list or mask" topology --scope smt; }
@test "broken: explain says which pod file it cannot read" { broken nul $C/cpu0/cache/index3/shared_cpu_list 1 "$C/cpu0/cache/index3/shared_cpu_list: cannot build affinity pods: $NUL" explain writeback; }

# global knobs, the root cpumask, the kernel release
@test "broken: a knob with a NUL byte: knob lists it as - and says why" { broken nul sys/module/workqueue/parameters/default_affinity_scope 1 "sys/module/workqueue/parameters/default_affinity_scope: cannot read: $NUL" knob; }
@test "broken: a knob as a FIFO, asked for by name" { broken fifo sys/module/workqueue/parameters/watchdog_thresh 1 "sys/module/workqueue/parameters/watchdog_thresh: cannot read: $NOTREG" knob watchdog_thresh; }
@test "broken: a knob of 17 MB" { broken huge sys/module/workqueue/parameters/cpu_intensive_thresh_us 1 "cpu_intensive_thresh_us: cannot read: $BIG" knob; }
@test "broken: the root cpumask as a FIFO: explain names it" { broken fifo sys/devices/virtual/workqueue/cpumask 1 "sys/devices/virtual/workqueue/cpumask: cannot read the root cpumask: $NOTREG" explain writeback; }
@test "broken: the root cpumask is not a mask: show names it" { broken garbage sys/devices/virtual/workqueue/cpumask 1 "sys/devices/virtual/workqueue/cpumask: cannot read the root cpumask: not a CPU list or mask" show; }
@test "broken: osrelease as a FIFO: the kernel is unknown, and why" { broken fifo proc/sys/kernel/osrelease 0 "proc/sys/kernel/osrelease: cannot read the kernel release: $NOTREG (kernel unknown; give --kernel)" explain writeback; }
@test "broken: osrelease that is not a release" { broken garbage proc/sys/kernel/osrelease 0 "proc/sys/kernel/osrelease: cannot read the kernel release: not a kernel release" show; }
@test "broken: osrelease with a NUL byte" { broken nul proc/sys/kernel/osrelease 0 "proc/sys/kernel/osrelease: cannot read the kernel release: $NUL" show; }

@test "a symlink in the sysroot to a host directory lists nothing of the host: did-you-mean, completion, profile list" {
	# the tree these cases were written for: synth 2 nodes x 4 CPUs on 6.18
	use_tree synth:2:4:1:2 6.18
	local W=$ROOT/sys/devices/virtual/workqueue EXP=$ROOT/var/lib/wqctl/experiments PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD" "$EXP"
	BEFORE=$(tree_sum)
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

@test "check --isolation --cpus names only CPUs that exist; -i goes with --isolation only" {
	# the tree these cases were written for: synth 2 nodes x 4 CPUs on 6.18
	use_tree synth:2:4:1:2 6.18
	local W=$ROOT/sys/devices/virtual/workqueue EXP=$ROOT/var/lib/wqctl/experiments PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD" "$EXP"
	BEFORE=$(tree_sum)
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
	# the tree these cases were written for: synth 2 nodes x 4 CPUs on 6.18
	use_tree synth:2:4:1:2 6.18
	local W=$ROOT/sys/devices/virtual/workqueue EXP=$ROOT/var/lib/wqctl/experiments PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD" "$EXP"
	BEFORE=$(tree_sum)
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
