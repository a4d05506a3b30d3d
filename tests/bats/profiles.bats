#!/usr/bin/env bats
# Profiles: parsing, merge rules, apply/verify/revert/snapshot/dump, faults, concurrency.
load helpers

setup() {
	use_tree vmware_fpe 6.18.0
	PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD"
	BEFORE=$(tree_sum)
}

# prof NAME: profile text from stdin into the test profile dir
prof() { cat >"$PD/$1.conf"; }
wqp() { wq --profile-dir "$PD" "$@"; }
val() { cat "$(WQDIR)/$1"; }

# bad_profile LINE MESSAGE: the profile 'bad' is refused with FILE:LINE, exit 2, nothing written
bad_profile() {
	run wqp apply --profile bad
	assert_equal "$status" 2
	assert_output --partial "$PD/bad.conf:$1: $2"
	assert_output --partial "nothing applied"
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "round trip: snapshot --all, change, apply the snapshot, identical tree" {
	wq snapshot --all >"$PD/snap.conf"
	run wq set writeback max_active=64 cpumask=0-3 nice=5 affinity_strict=1
	assert_success
	run wq set --force blkcg_punt_bio max_active=7
	run wq knob watchdog_thresh=7 cpumask=0-7
	assert_success
	refute [ "$(tree_sum)" = "$BEFORE" ]
	run wqp apply --profile snap
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "snapshot is a valid profile that verifies ok against the state it came from" {
	wq snapshot >"$PD/snap.conf"
	run wqp verify --profile snap
	assert_success
	refute_output --partial drift
	# kcryptd-253:0-1 was created with 16 (mktree.sh): its own; writeback's 1024 is the kernel's default
	assert_line --regexp '^kcryptd-253:0-1/max_active +ok +16 +16 +-$'
	refute_output --partial writeback
}

@test "later profiles override earlier ones" {
	printf '[workqueue writeback]\nmax_active = 10\nnice = 1\n' | prof p1
	printf '[workqueue writeback]\nmax_active = 20\n' | prof p2
	run wqp apply --profile p1 --profile p2
	assert_success
	assert_equal "$(val writeback/max_active)" 20
	assert_equal "$(val writeback/nice)" 1
}

@test "a later section of the same file overrides an earlier one" {
	printf '[workqueue writeback]\nmax_active = 10\n[workqueue writeback]\nmax_active = 11\n' | prof p
	run wqp apply --profile p
	assert_equal "$(val writeback/max_active)" 11
}

@test "a section naming the workqueue exactly beats a glob, whatever the order" {
	printf '[workqueue writeback]\nmax_active = 30\n[workqueue writ*]\nmax_active = 40\nnice = 3\n' | prof p
	run wqp apply --profile p
	assert_success
	assert_equal "$(val writeback/max_active)" 30
	assert_equal "$(val writeback/nice)" 3
	printf '[workqueue *]\nmax_active = 50\n' | prof q
	run wqp apply --profile p --profile q
	assert_equal "$(val writeback/max_active)" 30
	assert_equal "$(val blkcg_punt_bio/max_active)" 50
}

@test "includes: parents first, optional '-name', each profile once" {
	printf '[workqueue writeback]\nnice = 1\nmax_active = 7\n' | prof base
	printf '[profile]\ninclude = base\n[workqueue writeback]\nmax_active = 9\n' | prof mid
	printf '[profile]\ninclude = base, mid, -not-there\n[workqueue writeback]\nnice = 2\n' | prof child
	run wqp apply --profile child
	assert_success
	assert_equal "$(val writeback/nice)" 2
	assert_equal "$(val writeback/max_active)" 9
	run wqp profile show child
	assert_success
	assert_line --index 0 --partial "# base: $PD/base.conf"
	assert_line --index 1 --partial "# mid: $PD/mid.conf"
	assert_line --index 2 --partial "# child: $PD/child.conf"
}

@test "search path: /etc beats /run beats the vendor directory; a /dev/null link masks" {
	etc=$ROOT/etc/wqctl/profiles run_=$ROOT/run/wqctl/profiles
	mkdir -p "$etc" "$run_"
	printf '[workqueue writeback]\nmax_active = 11\n' >"$run_/site.conf"
	run wq apply --profile site
	assert_success
	assert_equal "$(val writeback/max_active)" 11
	printf '[workqueue writeback]\nmax_active = 12\n' >"$etc/site.conf"
	run wq apply --profile site
	assert_equal "$(val writeback/max_active)" 12
	rm "$etc/site.conf"
	ln -s /dev/null "$etc/site.conf"
	run wq apply --profile site
	assert_equal "$status" 2
	assert_output --partial "site: profile is masked"
	run wq profile list -r -n -o NAME
	assert_success
	refute_output --partial site
}

@test "profile use persists the active set atomically; apply and verify use it" {
	printf '[profile]\ndescription = test one\n[workqueue writeback]\nmax_active = 21\n' | prof one
	run wqp profile use one
	assert_success
	assert_equal "$(grep -v '^#' "$ROOT/etc/wqctl/active-profiles")" "one"
	run wqp profile current
	assert_output "one"
	run wqp profile list -r -n -o NAME
	assert_line one
	run wqp verify
	assert_equal "$status" 3
	assert_line --regexp '^writeback/max_active +drift +21 +1024 +-$'
	run wqp apply
	assert_success
	assert_equal "$(val writeback/max_active)" 21
	run wqp verify
	assert_success
}

@test "profile use refuses an invalid profile and keeps the old active set" {
	printf '[workqueue writeback]\nmax_active = 21\n' | prof one
	printf '[workqueue writeback]\nmax_active = 0\n' | prof bad
	wqp profile use one
	run wqp profile use bad
	assert_equal "$status" 2
	assert_equal "$(grep -v '^#' "$ROOT/etc/wqctl/active-profiles")" "one"
}

@test "verify: absent patterns are never ok (exit 3), unsupported is not drift" {
	printf '[workqueue nvme-wq]\nmax_active = 4\n[workqueue ib-comp-wq]\nnice = 1\n' | prof p
	run wqp verify --profile p
	assert_equal "$status" 3
	assert_line --regexp '^nvme-wq +absent '
	assert_line --regexp '^ib-comp-wq/nice +unsupported '
}

@test "apply --dry-run prints the plan, root mask first, and writes nothing" {
	printf '[workqueue writeback]\ncpumask = node:1\n[global]\ncpumask = 0-7\n' | prof p
	run wqp apply --dry-run --profile p -r -n -o OBJECT,OLD,NEW
	assert_success
	assert_line --index 0 "cpumask 0-31 0-7"
	assert_line --index 1 "writeback/cpumask 0-31 4-7"
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "revert restores originals but leaves a foreign change alone" {
	printf '[workqueue writeback]\nmax_active = 64\nnice = 4\n' | prof p
	run wqp apply --profile p
	assert_success
	echo 32 >"$(WQDIR)/writeback/max_active"   # someone else
	run wq revert
	assert_success
	assert_output --partial "writeback/max_active: left alone: changed since wqctl wrote '64' (now '32')"
	assert_equal "$(val writeback/nice)" 0
	assert_equal "$(val writeback/max_active)" 32
	[ ! -e "$ROOT/run/wqctl/journal" ]
}

@test "revert keeps the first original across several applies" {
	printf '[workqueue writeback]\nmax_active = 64\n' | prof a
	printf '[workqueue writeback]\nmax_active = 65\n' | prof b
	wqp apply --profile a
	wqp apply --profile b
	run wq revert
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "apply --workqueue touches one workqueue and no globals" {
	printf '[global]\ncpumask = 0-7\n[workqueue *]\nnice = 2\n' | prof p
	run wqp apply --profile p --workqueue writeback
	assert_success
	assert_equal "$(val writeback/nice)" 2
	assert_equal "$(val blkcg_punt_bio/nice)" 0
	assert_equal "$(val cpumask)" ffffffff
}

@test "no active set: apply does nothing and succeeds" {
	run wqp apply
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "32 concurrent applies end in the profile's state with no torn values" {
	printf '[global]\ncpumask = 0-15\n[workqueue writeback]\nmax_active = 77\ncpumask = 0-3,8\nnice = -3\n[workqueue blkcg_punt_bio]\nmax_active = 5\n' | prof p
	pids=()
	for i in $(seq 32); do
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --profile p 2>>"$BATS_TEST_TMPDIR/err" &
		pids+=($!)
	done
	fails=0
	for p in "${pids[@]}"; do wait "$p" || fails=$((fails + 1)); done
	assert_equal "$fails" 0
	run wqp verify --profile p
	assert_success
	assert_equal "$(val writeback/max_active)" 77
	assert_equal "$(val writeback/cpumask)" 0000010f
	assert_equal "$(val cpumask)" 0000ffff
}

@test "fault injection: the N-th write fails (EINVAL EACCES EIO ENOENT), the tree is restored" {
	[ -n "${WQCTL_SHIM:-}" ] && [ -n "${WQCTL_PLAIN:-}" ] || skip "needs WQCTL_SHIM and WQCTL_PLAIN (make check)"
	# five changes: root mask, writeback max_active/cpumask/nice, blkcg_punt_bio max_active
	printf '[global]\ncpumask = 0-15\n[workqueue writeback]\nmax_active = 77\ncpumask = 0-3\nnice = -3\n[workqueue blkcg_punt_bio]\nmax_active = 5\n' | prof p
	for e in EINVAL EACCES EIO ENOENT; do
		for n in 1 2 3 4 5; do
			run env LD_PRELOAD="$WQCTL_SHIM" FAILWRITE_N=$n FAILWRITE_ERRNO=$e \
				"$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" apply --profile p
			assert_equal "$e/$n: $status" "$e/$n: 1"
			assert_output --partial "write failed"
			assert_equal "$e/$n: $(tree_sum)" "$e/$n: $BEFORE"
			[ ! -e "$ROOT/run/wqctl/journal" ] || fail "$e/$n: journal left behind"
		done
	done
	# the sixth write does not exist: the apply succeeds
	run env LD_PRELOAD="$WQCTL_SHIM" FAILWRITE_N=6 "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" apply --profile p
	assert_success
}

@test "fault injection: a failed apply leaves the journal it found, byte for byte" {
	[ -n "${WQCTL_SHIM:-}" ] && [ -n "${WQCTL_PLAIN:-}" ] || skip "needs WQCTL_SHIM and WQCTL_PLAIN (make check)"
	# an entry the failed apply updates (nice) and one it would add (max_active)
	run wq set writeback nice=3
	assert_success
	cp "$ROOT/run/wqctl/journal" "$BATS_TEST_TMPDIR/journal"
	AFTER_SET=$(tree_sum)
	printf '[workqueue writeback]\nmax_active = 77\nnice = -3\n[workqueue blkcg_punt_bio]\nmax_active = 5\n' | prof p
	for n in 1 2 3; do
		run env LD_PRELOAD="$WQCTL_SHIM" FAILWRITE_N=$n "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" apply --profile p
		assert_equal "$n: $status" "$n: 1"
		assert_output --partial "write failed"
		assert_equal "$n: $(tree_sum)" "$n: $AFTER_SET"
		cmp "$BATS_TEST_TMPDIR/journal" "$ROOT/run/wqctl/journal" || fail "write $n failed: the journal changed"
	done
	run wq revert
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "fault injection: a change whose rollback fails stays journaled, and revert undoes it" {
	[ -n "${WQCTL_SHIM:-}" ] && [ -n "${WQCTL_PLAIN:-}" ] || skip "needs WQCTL_SHIM and WQCTL_PLAIN (make check)"
	printf '[workqueue writeback]\nmax_active = 77\nnice = -3\n' | prof p
	# writes: 1 max_active=77, 2 nice=-3 (fails; nothing of it landed, so it is not restored),
	# 3 max_active restored (fails)
	run env LD_PRELOAD="$WQCTL_SHIM" FAILWRITE_N=2,3 "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" apply --profile p
	assert_equal "$status" 1
	assert_output --partial "writeback/nice: write failed"
	assert_output --partial "1 change could not be rolled back"
	assert_equal "$(val writeback/max_active)" 77
	assert_equal "$(val writeback/nice)" 0
	# the journal holds the one change left written, with its original
	run cat "$ROOT/run/wqctl/journal"
	assert_output "$(printf 'sys/devices/virtual/workqueue/writeback/max_active\t0\t1024\t77')"
	run wq revert
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
	[ ! -e "$ROOT/run/wqctl/journal" ]
}

@test "fault injection: a write that reads back different is rolled back, or journaled when that fails" {
	[ -n "${WQCTL_SHIM:-}" ] && [ -n "${WQCTL_PLAIN:-}" ] || skip "needs WQCTL_SHIM and WQCTL_PLAIN (make check)"
	printf '[workqueue writeback]\nmax_active = 77\nnice = -3\n' | prof p
	# write 1 lands as 770: the read-back differs, and write 2 restores 1024
	run env LD_PRELOAD="$WQCTL_SHIM" FAILWRITE_SKEW=1 "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" apply --profile p
	assert_equal "$status" 1
	assert_output --partial "writeback/max_active: read back '770' after writing '77'"
	refute_output --partial "could not be rolled back"
	assert_equal "$(tree_sum)" "$BEFORE"
	[ ! -e "$ROOT/run/wqctl/journal" ] || fail "journal left behind"
	# the same, and the restore fails too: 770 stays, and revert must know its original
	run env LD_PRELOAD="$WQCTL_SHIM" FAILWRITE_SKEW=1 FAILWRITE_N=2 "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" \
		apply --profile p
	assert_equal "$status" 1
	assert_output --partial "writeback/max_active: read back '770' after writing '77'"
	assert_output --partial "1 change could not be rolled back"
	assert_equal "$(val writeback/max_active)" 770
	run cat "$ROOT/run/wqctl/journal"
	assert_output "$(printf 'sys/devices/virtual/workqueue/writeback/max_active\t0\t1024\t770')"
	run wq revert
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
	[ ! -e "$ROOT/run/wqctl/journal" ]
}

@test "dump DIR reproduces show, explain and check elsewhere" {
	run wq dump "$BATS_TEST_TMPDIR/dump"
	assert_success
	for args in "show -o NAME,KIND,MAX_ACTIVE,MAX_INFLIGHT,CPUS,SCOPE,NICE,EFFECTIVE_CPUS" "explain writeback" "check" "topology -J" "knob -o NAME,VALUE"; do
		a=$(wq $args)
		b=$("$WQCTL" --sysroot "$BATS_TEST_TMPDIR/dump" $args)
		assert_equal "$b" "$a"
	done
}

@test "apply --udev: the event's workqueue only; foreign events exit 0" {
	printf '[global]\ncpumask = 0-7\n[workqueue *]\nnice = 2\n' | prof p
	run env ACTION=add SUBSYSTEM=workqueue DEVPATH=/devices/virtual/workqueue/writeback \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	assert_equal "$(val writeback/nice)" 2
	assert_equal "$(val blkcg_punt_bio/nice)" 0
	assert_equal "$(val cpumask)" ffffffff
	run env ACTION=remove SUBSYSTEM=workqueue DEVPATH=/devices/virtual/workqueue/blkcg_punt_bio \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	assert_equal "$(val blkcg_punt_bio/nice)" 0
	run env ACTION=add SUBSYSTEM=net DEVPATH=/devices/virtual/net/lo \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
}

@test "check --profile reports what a profile would do" {
	printf '[workqueue writeback]\nmax_active = 4\ncpumask = 0-3,16\n[workqueue ib-comp-wq]\ncpumask = 0\n[workqueue zz*]\nnice = 1\n' | prof p
	run wqp check --profile p -r -n -o SEVERITY,CODE,TARGET
	# zz* reaches nothing: a warning apply skips with exit 1, so check exits 3 without --strict
	assert_equal "$status" 3
	assert_line "warning min-active-lowered writeback"
	assert_line "info cpumask-offline writeback"
	assert_line "info percpu ib-comp-wq/cpumask"
	assert_line "warning absent zz*"
	# without it: the live finding min-active-lowered fails only --strict
	printf '[workqueue writeback]\nmax_active = 4\ncpumask = 0-3,16\n[workqueue ib-comp-wq]\ncpumask = 0\n' | prof p
	run wqp check --profile p
	assert_equal "$status" 0
	run wqp check --strict --profile p
	assert_equal "$status" 3
}

@test "shipped profiles are clean under check --strict --profile on every fixture and era" {
	for d in arm-A510-A710-A715-X3 ppc64-POWER7-64cpu s390-lpar vmware_fpe x86_64-64cpu x86_64-dell_e4310 loongarch-kvm_on_loongson_3c6000; do
		for k in 6.1.0 6.8.0 6.18.0; do
			use_tree "$d" "$k"
			for p in numa-local legacy-numa cpu-partitioning storage-sane-limits iscsi-nic-local; do
				# each profile's 'kernels' line: affinity scopes from 6.6, kcryptd in sysfs from 6.10;
				# outside it a profile is left out with an info (one set for a fleet), never a failure
				run wq --profile-dir "$TOP/profiles" check --strict --profile "$p"
				assert_equal "$d $k $p: $status" "$d $k $p: 0"
				case $p:$k in numa-local:6.1.0 | legacy-numa:6.1.0 | storage-sane-limits:6.[18].0)
					run wq --profile-dir "$TOP/profiles" check --profile "$p" -r -n -o SEVERITY,CODE
					assert_line "info profile-kernels"
					;;
				esac
			done
		done
	done
	run wq --profile-dir "$TOP/profiles" profile list -r -n -o NAME
	assert_output "cpu-partitioning
iscsi-nic-local
legacy-numa
numa-local
storage-sane-limits"
}

@test "apply --boot: quiet but for one summary line (the boot unit's journal line)" {
	printf '[workqueue writeback]\nmax_active = 64\nnice = 0\n' | prof p
	# the fixture's writeback has max_active 1024 and nice 0: one write, one already set
	run wqp apply --boot --profile p
	assert_success
	assert_output "wqctl: boot: profiles p: 2 settings, 1 written, 1 already set"
	run wqp apply --boot --profile p
	assert_output "wqctl: boot: profiles p: 2 settings, 0 written, 2 already set"
	run wq apply --boot
	assert_success
	assert_output "wqctl: boot: no active profiles, nothing to apply"
}

@test "apply --boot: the summary line says what was skipped, and whether a failure was rolled back" {
	# CPU 99 is not on the fixture: that setting is skipped, nice is written
	printf '[workqueue writeback]\nnice = 5\ncpumask = 99\n' | prof p
	run wqp apply --boot --profile p
	assert_equal "$status" 1
	# quiet, but the reason for exit 1 stays, and the line that points to it follows
	assert_line --index 0 --partial "p.conf:3: writeback/cpumask: not on this machine, skipped: CPU 99 does not exist"
	assert_line --index 1 --partial "apply: 1 setting skipped on this machine (see above)"
	assert_line --index 2 "wqctl: boot: profiles p: 1 setting, 1 written, 0 already set, 1 skipped on this machine"
	assert_equal "$(val writeback/nice)" 5
	run wq revert
	assert_success
	run wqp -q apply --profile p
	assert_equal "$status" 1
	assert_line --index 0 --partial "p.conf:3: writeback/cpumask: not on this machine, skipped"
	run wq revert
	assert_success
	# a journal that cannot be read stops the run before its first write
	mkdir -p "$ROOT/run/wqctl/journal"
	run wqp apply --boot --profile p
	assert_equal "$status" 1
	# the skipped setting is still counted when the rest failed
	assert_line "wqctl: boot: profiles p: 1 setting, 0 written, 0 already set, 1 skipped on this machine; failed, nothing written"
	rmdir "$ROOT/run/wqctl/journal"
	assert_equal "$(tree_sum)" "$BEFORE"
	[ -n "${WQCTL_SHIM:-}" ] && [ -n "${WQCTL_PLAIN:-}" ] || skip "needs WQCTL_SHIM and WQCTL_PLAIN (make check)"
	printf '[workqueue writeback]\nmax_active = 77\nnice = 5\n' | prof p
	run env LD_PRELOAD="$WQCTL_SHIM" FAILWRITE_N=2 "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" apply --boot --profile p
	assert_equal "$status" 1
	assert_line "wqctl: boot: profiles p: 2 settings, 0 written, 0 already set; failed, every write rolled back"
	assert_equal "$(tree_sum)" "$BEFORE"
	# write 1 reads back 770 and its restore (write 2) fails: one write stays
	run env LD_PRELOAD="$WQCTL_SHIM" FAILWRITE_SKEW=1 FAILWRITE_N=2 "$WQCTL_PLAIN" --sysroot "$ROOT" --profile-dir "$PD" \
		apply --boot --profile p
	assert_equal "$status" 1
	assert_line "wqctl: boot: profiles p: 2 settings, 1 written, 0 already set; failed, some writes not rolled back (see above)"
	run wq revert
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "kernels: outside the range every setting of that profile is unsupported, with the reason" {
	printf '[profile]\nkernels = 6.10-\n[global]\ndefault_affinity_scope = numa\n[workqueue writeback]\nnice = 3\n[workqueue zz*]\nnice = 1\n' | prof new
	printf '[profile]\ninclude = new\nkernels = -6.8\n[workqueue blkcg_punt_bio]\nnice = 2\n' | prof old
	use_tree vmware_fpe 6.8.4
	BEFORE=$(tree_sum)
	run wqp verify --profile new -P -o TARGET,STATUS,REASON
	assert_success
	r='REASON="profile new is for kernels 6.10-; this is 6.8.4"'
	assert_line "TARGET=\"default_affinity_scope\" STATUS=\"unsupported\" $r"
	assert_line "TARGET=\"writeback/nice\" STATUS=\"unsupported\" $r"
	# a section that would reach nothing is expected to outside its kernels: not 'absent'
	assert_line "TARGET=\"zz*\" STATUS=\"unsupported\" $r"
	run wqp apply --profile new
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
	# the range is the including profile's own: its include keeps its own range
	run wqp apply --profile old
	assert_success
	assert_equal "$(val blkcg_punt_bio/nice)" 2
	assert_equal "$(val writeback/nice)" 0
	run wqp check --profile old -r -n -o SEVERITY,CODE,TARGET
	assert_line "info profile-kernels $PD/new.conf"
	refute_line --partial "$PD/old.conf"
	# inside the range (6.18) the same profile applies; there its zz* reaches nothing: a warning, exit 1
	use_tree vmware_fpe 6.18.0
	run wqp apply --profile new
	assert_equal "$status" 1
	assert_line "wqctl: $PD/new.conf:7: [workqueue zz*]: skipped: no workqueue matches"
	assert_equal "$(val writeback/nice)" 3
	run wqp verify --profile old -r -n -o TARGET,STATUS
	assert_line "blkcg_punt_bio/nice unsupported"
	assert_line "writeback/nice ok"
}

@test "kernels: bounds as written (6.6-6.8 takes 6.8.12, not 6.9; a patch-level bound is exact)" {
	printf '[profile]\nkernels = 6.6-6.8\n[workqueue writeback]\nnice = 3\n' | prof b
	printf '[profile]\nkernels = 6.6.25-6.6.30\n[workqueue writeback]\nnice = 3\n' | prof c
	printf '[profile]\nkernels = 6.12\n[workqueue writeback]\nnice = 3\n' | prof d
	for k in 6.5.9:b:unsupported 6.6.0:b:ok 6.8.12:b:ok 6.9.0:b:unsupported \
		6.6.24:c:unsupported 6.6.25:c:ok 6.6.30:c:ok 6.6.31:c:unsupported \
		6.11.0:d:unsupported 6.12.95:d:ok 6.13.0:d:unsupported; do
		IFS=: read -r rel p want <<<"$k"
		run wqp --kernel "$rel" verify --profile "$p" -r -n -o STATUS
		case $want in ok) assert_equal "$rel $p: $output" "$rel $p: drift" ;; *) assert_equal "$rel $p: $output" "$rel $p: $want" ;; esac
	done
}

@test "--profile PATH: a file outside the search path, named by its base name; includes from the search path" {
	mkdir -p "$BATS_TEST_TMPDIR/elsewhere"
	printf '[workqueue blkcg_punt_bio]\nnice = 4\n' | prof base
	printf '[profile]\ninclude = base\n[workqueue writeback]\nnice = 3\n' >"$BATS_TEST_TMPDIR/elsewhere/mine.conf"
	run wqp apply --profile "$BATS_TEST_TMPDIR/elsewhere/mine.conf"
	assert_success
	assert_equal "$(val writeback/nice)" 3
	assert_equal "$(val blkcg_punt_bio/nice)" 4
	# relative to the working directory; verify names the file it read
	cd "$BATS_TEST_TMPDIR"
	run wqp verify --profile elsewhere/mine.conf -r -n -o TARGET,STATUS,SOURCE
	assert_success
	assert_line "writeback/nice ok elsewhere/mine.conf:4"
	# without a '/' it is a name in the search path, and the error says how to name a file
	run wqp apply --profile mine.conf
	assert_equal "$status" 2
	assert_output --partial "mine.conf: no such profile in the search path ($PD) (for a file, write ./mine.conf)"
	run wqp apply --profile ./nope.conf
	assert_equal "$status" 2
	assert_output --partial "./nope.conf: cannot open: No such file or directory"
}

@test "set and knob are journaled: revert undoes them, keeping the first original" {
	run wq set writeback max_active=64 nice=3
	assert_success
	run wq set writeback nice=5
	run wq knob watchdog_thresh=11
	assert_success
	# three entries, the originals as the fixture has them (1024, 0, 30)
	run cat "$ROOT/run/wqctl/journal"
	assert_line "$(printf 'sys/devices/virtual/workqueue/writeback/nice\t0\t0\t5')"
	assert_line "$(printf 'sys/devices/virtual/workqueue/writeback/max_active\t0\t1024\t64')"
	assert_line "$(printf 'sys/module/workqueue/parameters/watchdog_thresh\t0\t30\t11')"
	# each value written back, in the journal's order, as apply prints its changes
	run wq revert
	assert_success
	assert_output "writeback/max_active: 64 -> 1024
writeback/nice: 5 -> 0
watchdog_thresh: 11 -> 30"
	assert_equal "$(tree_sum)" "$BEFORE"
	# a dry run journals nothing
	run wq set --dry-run writeback nice=1
	[ ! -e "$ROOT/run/wqctl/journal" ]
}

@test "profile use names the next step; --now applies; revert says the set stays active; profile off ends it" {
	printf '[workqueue writeback]\nnice = 6\n' | prof p
	run wqp profile use p
	assert_success
	assert_output "wqctl: profile use: active from the next boot or hot-plug; 'wqctl apply' applies them now (or 'wqctl profile use --now', which does both)"
	assert_equal "$(val writeback/nice)" 0
	run wqp profile use --now p
	assert_success
	assert_equal "$(val writeback/nice)" 6
	run wqp revert
	assert_success
	assert_line "writeback/nice: 6 -> 0"
	assert_line "wqctl: revert: the active profiles (p) stay active: boot and hot-plug apply them again; 'wqctl profile off' turns them off"
	assert_equal "${#lines[@]}" 2
	assert_equal "$(val writeback/nice)" 0
	run wqp apply
	assert_equal "$(val writeback/nice)" 6
	run wqp profile off
	assert_success
	# what it wrote back, as revert says it
	assert_output "writeback/nice: 6 -> 0"
	assert_equal "$(tree_sum)" "$BEFORE"
	run wqp profile current
	assert_output "wqctl: no active profiles ('wqctl profile use NAME' sets them)"
	run wqp apply -v
	assert_success
	assert_output --partial "no active profiles"
	run wqp profile off --now
	assert_equal "$status" 2
}

@test "when: a section counts only where its conditions hold; earlier sections keep their values" {
	printf '[workqueue writeback]\nmax_active = 64\n[workqueue writeback]\nwhen = nodes >= 8\nmax_active = 256\n[workqueue writeback]\nwhen = kernel >= 6.9, cpus > 4\nnice = 1\n[workqueue blkcg*]\nwhen = kernel < 6.9\nnice = 3\n[workqueue zz*]\nwhen = nodes >= 99\nnice = 2\n' | prof c
	# vmware_fpe: 4 nodes, 16 online CPUs; 6.18
	run wqp apply --profile c
	assert_success
	assert_equal "$(val writeback/max_active)" 64
	assert_equal "$(val writeback/nice)" 1
	assert_equal "$(val blkcg_punt_bio/nice)" 0
	# the left-out sections are neither settings nor absent: verify is clean
	run wqp verify --profile c -r -n -o TARGET,STATUS
	assert_success
	assert_output "writeback/max_active ok
writeback/nice ok"
	run wqp check --profile c -r -n -o SEVERITY,CODE,TARGET
	assert_line "info when-false writeback"
	assert_line "info when-false blkcg*"
	assert_line "info when-false zz*"
	# on 6.8 with the same tree the kernel conditions turn around
	run wqp --kernel 6.8.4 apply --profile c
	assert_success
	assert_equal "$(val blkcg_punt_bio/nice)" 3
}

@test "apply says what it changed, or that there was nothing to change; -q silences it" {
	printf '[workqueue writeback]\nnice = 3\ncpumask = 0-3\n' | prof p
	run wqp apply --profile p
	assert_success
	# the fixture's writeback: nice 0, every one of the 32 possible CPUs
	assert_output "writeback/cpumask: 0-31 -> 0-3
writeback/nice: 0 -> 3"
	run wqp apply --profile p
	assert_output "nothing to change"
	run wqp -q apply --profile p
	assert_output ""
}

@test "an unknown profile name says the nearest one in the search path" {
	printf '[workqueue writeback]\nnice = 1\n' | prof storage-limits
	run wqp apply --profile storage-limts
	assert_equal "$status" 2
	assert_output "wqctl: storage-limts: no such profile in the search path ($PD); did you mean 'storage-limits'?"
	run wqp profile use storagelimits
	assert_output "wqctl: storagelimits: no such profile in the search path ($PD); did you mean 'storage-limits'?"
	assert_equal "$(tree_sum)" "$BEFORE"
	run wqp apply --profile zzzz
	assert_output "wqctl: zzzz: no such profile in the search path ($PD)"
	refute_output --partial "did you mean"
}

@test "a profile one directory too high is named, with where it goes; not a nearest other name (issue 61)" {
	printf '[workqueue writeback]\nnice = 1\n' | prof numa-local
	mkdir -p "$ROOT/etc/wqctl/profiles"
	printf '[workqueue writeback]\nnice = 2\n' >"$ROOT/etc/wqctl/numa-locals.conf"
	run wq profile use numa-locals
	assert_failure 2
	assert_output --regexp "^wqctl: numa-locals: no such profile in the search path \($ROOT/etc/wqctl/profiles, $ROOT/run/wqctl/profiles, [^)]*\); $ROOT/etc/wqctl/numa-locals.conf has that name: move it into $ROOT/etc/wqctl/profiles, or name the file \(--profile $ROOT/etc/wqctl/numa-locals.conf\)$"
	refute_output --partial "did you mean"
	[ ! -e "$ROOT/etc/wqctl/active-profiles" ]
	# in the working directory too
	(cd "$BATS_TEST_TMPDIR" && printf '[workqueue writeback]\nnice = 2\n' >here.conf && "$WQCTL" --sysroot "$ROOT" profile use here 2>&1) >"$BATS_TEST_TMPDIR/out" || true
	grep -q "here: no such profile in the search path (.*); ./here.conf has that name" "$BATS_TEST_TMPDIR/out"
}

@test "a key given twice in a section: the later value wins, with a warning naming both lines (issue 45)" {
	prof dup <<-'EOF2'
		[workqueue writeback]
		max_active = 8
		nice = 0
		max_active = 16
	EOF2
	run wqp apply --dry-run --profile dup
	assert_success
	assert_line "wqctl: $PD/dup.conf:4: max_active given twice in this section (line 2): '16' wins"
	assert_line --regexp 'writeback/max_active +1024 +16 '
	prof dupo <<-'EOF2'
		[workqueue kcryptd-*]
		owner.DM_NAME = a
		owner.DM_NAME = b
		nice = -1
	EOF2
	run wqp apply --dry-run --profile dupo
	assert_line "wqctl: $PD/dupo.conf:3: owner.DM_NAME given twice in this section (line 2): 'b' wins"
	# the same key in two sections is the merge rule, not a mistake: no warning
	prof two <<-'EOF2'
		[workqueue writeback]
		max_active = 8
		[workqueue write*]
		max_active = 16
	EOF2
	run wqp apply --dry-run --profile two
	assert_success
	refute_output --partial "given twice"
}

# --- what apply leaves out (issue 45 item 2) ------------------------------------

# the profile 'old': for kernels up to 6.5, its writeback setting on line 4
old_profile() { printf '[profile]\nkernels = -6.5\n[workqueue writeback]\nmax_active = 8\n' | prof old; }

@test "apply says what it skipped and why: a section reaching no workqueue, btrfs's outside sysfs, another kernel's profile" {
	# x86_64-dell_e4310: 4 online CPUs (lscpu), so btrfs's thread_pool defaults to min(4 + 2, 8) = 6
	use_tree x86_64-dell_e4310 6.18.0
	BEFORE=$(tree_sum)
	prof p1 <<-'EOF2'
		[workqueue btrfs-*]
		max_active = 8
		[workqueue nosuch]
		nice = 1
		[workqueue writeback]
		nice = 2
	EOF2
	old_profile
	# the other kernel's profile first: nothing written, and why
	run wqp apply --profile old
	assert_success
	assert_output "skipped: $PD/old.conf:4: max_active on writeback: profile old is for kernels -6.5; this is 6.18.0
nothing to change"
	assert_equal "$(tree_sum)" "$BEFORE"
	run wqp apply --dry-run --profile old
	assert_success
	assert_output "skipped: $PD/old.conf:4: max_active on writeback: profile old is for kernels -6.5; this is 6.18.0"
	# a dry run lists the skipped sections too, and writes nothing; a section that reaches nothing
	# is a warning (wqctl.profile(5) CONDITIONS: absent), btrfs's outside sysfs an info
	run wqp apply --dry-run --profile p1
	assert_equal "$status" 1
	assert_line "skipped: $PD/p1.conf:1: [workqueue btrfs-*]: not in sysfs on this kernel: the owner's own knob sets them"
	assert_line "  btrfs-*: not in sysfs: btrfs creates its workqueues without WQ_SYSFS, so they cannot be read or set"
	assert_line --partial "  btrfs-*: instead, the thread_pool=N mount option sets max_active of its workqueues"
	assert_output --partial "6 on this machine: mount -o remount,thread_pool=N MOUNTPOINT"
	assert_line "wqctl: $PD/p1.conf:3: [workqueue nosuch]: skipped: no workqueue matches"
	assert_line "wqctl: apply: 1 setting skipped on this machine (see above); the others are applied"
	assert_equal "$(tree_sum)" "$BEFORE"
	# the apply: the same lines, then what it wrote; the rest is applied
	run wqp apply --profile p1
	assert_equal "$status" 1
	assert_line "wqctl: $PD/p1.conf:3: [workqueue nosuch]: skipped: no workqueue matches"
	assert_line "writeback/nice: 0 -> 2"
	[ "$(val writeback/nice)" = 2 ]
	# -q: nothing on stdout; the warning stays on stderr
	run bash -c '"$@" 2>/dev/null' _ "$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" -q apply --profile p1
	assert_equal "$status" 1
	assert_output ""
	# without the section that reaches nothing: exit 0
	sed -i '/nosuch/,+1d' "$PD/p1.conf"
	run wqp apply --profile p1
	assert_success
}

@test "apply -J: what changed (or would) and what was skipped, in one document" {
	use_tree x86_64-dell_e4310 6.18.0
	prof p1 <<-'EOF2'
		[workqueue btrfs-*]
		max_active = 8
		[workqueue writeback]
		nice = 2
	EOF2
	old_profile
	wqp -J apply --dry-run --profile old >"$BATS_TEST_TMPDIR/dry.json"
	python3 - "$BATS_TEST_TMPDIR/dry.json" <<-'PY'
		import json, sys
		d = json.load(open(sys.argv[1]))
		assert d["plan"] == [], d
		s, = d["skipped"]
		assert (s["line"], s["attribute"], s["section"], s["status"], s["workqueues"]) == \
		    (4, "max_active", None, "unsupported", ["writeback"]), s
		assert s["why"] == "profile old is for kernels -6.5; this is 6.18.0", s
	PY
	wqp -J apply --dry-run --profile p1 >"$BATS_TEST_TMPDIR/dry1.json"
	python3 - "$BATS_TEST_TMPDIR/dry1.json" "$ROOT" <<-'PY'
		import json, sys
		d = json.load(open(sys.argv[1]))
		p, = d["plan"]
		assert p == {"object": "writeback/nice", "path": sys.argv[2] + "/sys/devices/virtual/workqueue/writeback/nice",
		             "old": "0", "new": "2", "effective": "2", "action": "write"}, p
		assert [s["section"] for s in d["skipped"]] == ["btrfs-*"], d
	PY
	wqp -J apply --profile p1 >"$BATS_TEST_TMPDIR/apply.json"
	python3 - "$BATS_TEST_TMPDIR/apply.json" <<-'PY'
		import json, sys
		d = json.load(open(sys.argv[1]))
		assert d["changes"] == [{"object": "writeback/nice", "old": "0", "new": "2"}], d
		s, = d["skipped"]
		assert (s["line"], s["section"], s["status"], s["condition"], s["severity"]) == \
		    (1, "btrfs-*", "outside", "outside-sysfs", "info"), s
		assert any("6 on this machine" in l for l in s["instead"]), s
	PY
	[ "$(val writeback/nice)" = 2 ]
}

@test "verify: a section for a device's workqueues with no such device is waiting, no failure; --strict demands it" {
	# the tree's one dm-crypt device is gone; an iSCSI host never was
	rm -rf "$(WQDIR)"/kcryptd*
	BEFORE=$(tree_sum)
	prof hot <<-'EOF2'
		[workqueue kcryptd-*]
		owner.DM_UUID = CRYPT-LUKS2-*
		cpumask = local
		[workqueue iscsi_q_*]
		nice = -5
		[workqueue writeback]
		nice = 0
	EOF2
	run wqp verify --profile hot
	assert_success
	assert_line --regexp '^kcryptd-\* +waiting .*no workqueue with a matching owner: waiting for its device'
	assert_line --regexp '^iscsi_q_\* +waiting .*no workqueue matches: waiting for its device'
	assert_line --regexp '^writeback/nice +ok '
	run wqp verify --strict --profile hot
	assert_equal "$status" 3
	# a section that is no device's stays absent, and fails without --strict
	printf '[workqueue nvme-wq]\nnice = 1\n' | prof plain
	run wqp verify --profile plain
	assert_equal "$status" 3
	assert_line --regexp '^nvme-wq +absent '
	# apply says why it left the device sections out
	run wqp apply --profile hot
	assert_success
	assert_line "skipped: $PD/hot.conf:1: [workqueue kcryptd-*]: no workqueue with a matching owner: waiting for its device (applied by the udev rule when it appears)"
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "revert after a set --force below min_active says min_active stays lowered (6.9+)" {
	run wq set --force writeback max_active=4
	assert_success
	assert_output --partial "writeback/max_active: 1024 -> 4"
	run wq revert
	assert_success
	assert_line "writeback/max_active: 4 -> 1024"
	# doc/kernel.md §4: a max_active below min_active lowers min_active until the workqueue is recreated
	assert_line "wqctl: writeback/max_active: min_active stays 4, as the earlier write below it left it, until the workqueue is recreated"
	[ "$(val writeback/max_active)" = 1024 ]
}

@test "profile show keeps each profile's comment block and its kernels = line (issue 45 item 7)" {
	printf '# mine: what it is for.\n#\n# Kernels: 6.6 and later.\n[profile]\ndescription = Mine\nkernels = 6.6-\n\n# not the header: a comment inside\n[workqueue writeback]\nnice = 1\n' | prof mine
	run wqp profile show mine
	assert_success
	assert_output "# mine: $PD/mine.conf -- Mine
# mine: what it is for.
#
# Kernels: 6.6 and later.
# kernels = 6.6-

[workqueue writeback]
nice = 1 ; $PD/mine.conf:10"
	# a shipped one: its purpose and evidence, and those of the profile it includes
	run wq --profile-dir "$TOP/profiles" profile show legacy-numa
	assert_success
	assert_line "# Purpose: reproduce what unbound workqueues did up to 6.5 (one worker pool"
	assert_line "# Purpose: unbound work (writeback, dm-crypt, block and filesystem"
	assert_line "# kernels = 6.6-"
}

@test "snapshot leaves out what the kernel gives every workqueue, so that it pins nothing of this machine; --all keeps it" {
	run wq set writeback cpumask=0-3 nice=-2
	assert_success
	run wq snapshot writeback blkcg_punt_bio
	assert_success
	# writeback: its own mask and nice; blkcg_punt_bio at the fixture's defaults, so no section; both
	# have max_active 1024, WQ_DFL_ACTIVE from 6.13 (doc/kernel.md §4: what a creator's 0 becomes)
	assert_output "[profile]
description = snapshot (kernel 6.18.0)

[workqueue writeback]
cpumask = 0-3
nice = -2

# 8 values at the kernel's defaults (masks of every CPU, default scope, not strict, nice 0,
# max_active at the kernel's default, knobs at their boot values) left out, so that this
# profile pins nothing of this machine or kernel; --all writes them"
	# the globals at their boot values (the fixture's: cache, N, 30, 0, 10000) and the root mask of
	# every possible CPU (0-31) are left out too: no [global] at all
	run bash -c "'$WQCTL' --sysroot '$ROOT' snapshot"
	refute_line "[global]"
	run wq knob watchdog_thresh=60 default_affinity_scope=numa
	assert_success
	run bash -c "'$WQCTL' --sysroot '$ROOT' snapshot | awk '/^\\[/ { g = (\$0 == \"[global]\") } g'"
	assert_output "[global]
default_affinity_scope = numa
watchdog_thresh = 60"
	run bash -c "'$WQCTL' --sysroot '$ROOT' snapshot --all | awk '/^\\[/ { g = (\$0 == \"[global]\") } g'"
	assert_line "cpumask = 0-31"
	assert_line "cpu_intensive_thresh_us = 10000"
	run wq snapshot --all writeback
	assert_line "max_active = 1024"
}

# issue 60 item 20: such a name written as a section applied as a glob to other workqueues
@test "snapshot leaves out a workqueue whose name is a glob, and says so" {
	W=$(WQDIR)
	cp -a "$W/writeback" "$W/eth*0"
	cp -a "$W/writeback" "$W/eth10"
	echo 3 >"$W/eth*0/nice"
	wq snapshot >"$PD/snap.conf"
	run cat "$PD/snap.conf"
	refute_output --partial "[workqueue eth*0]"
	assert_line "# workqueue 'eth*0': its name holds a glob character, a blank or a bracket, so no section"
	BEFORE=$(tree_sum)
	run wqp apply --profile snap
	assert_success
	# eth10 keeps its nice 0: nothing reached it through a glob
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "snapshot of a 6.12 tree leaves out max_active 256 and applies on 6.8 and 7.3 unchanged (issue 59 item 6)" {
	use_tree vmware_fpe 6.12.0
	run wq snapshot
	assert_success
	# WQ_DFL_ACTIVE is 256 up to 6.12 (doc/kernel.md §4); the fixture's writeback was created with 0
	refute_line "max_active = 256"
	wq snapshot >"$PD/snap.conf"
	for k in 6.8.0 7.3.0; do
		use_tree vmware_fpe "$k"
		BEFORE=$(tree_sum)
		run wqp apply --profile snap
		assert_success
		# nothing of 6.12's kernel is pinned: on 7.3 the default scope stays cache_shard
		assert_equal "$(tree_sum)" "$BEFORE"
	done
}

@test "profile install, cat and remove: validated, atomic, 0644; bad input writes nothing (issue 60)" {
	L=$ROOT/etc/wqctl/profiles
	printf '[workqueue writeback]\nnice = 3\n' >"$BATS_TEST_TMPDIR/st.conf"
	run wq profile install st "$BATS_TEST_TMPDIR/st.conf"
	assert_success
	cmp "$BATS_TEST_TMPDIR/st.conf" "$L/st.conf"
	assert_equal "$(stat -c %a "$L/st.conf")" 644
	run wq profile cat st
	assert_success
	assert_output "$(cat "$BATS_TEST_TMPDIR/st.conf")"
	# from standard input, replacing it; no temporary file is left beside it
	printf '[workqueue writeback]\nnice = 4\n' | wq profile install st -
	assert_equal "$(sed -n 2p "$L/st.conf")" "nice = 4"
	assert_equal "$(ls -A "$L")" st.conf
	# an invalid profile names the file as given and its line; the installed one stays
	printf '[workqueue writeback]\nnice = 99\n' >"$BATS_TEST_TMPDIR/bad.conf"
	run wq profile install st "$BATS_TEST_TMPDIR/bad.conf"
	assert_failure 2
	assert_output --partial "$BATS_TEST_TMPDIR/bad.conf:2: nice: invalid value '99'"
	assert_output --partial "profile install: st: nothing installed"
	run bash -c "printf '[workqueue writeback]\nnice = 99\n' | '$WQCTL' --sysroot '$ROOT' profile install st -"
	assert_failure 2
	assert_output --partial "(standard input):2: nice: invalid value '99'"
	assert_equal "$(sed -n 2p "$L/st.conf")" "nice = 4"
	run wq profile install ../x "$BATS_TEST_TMPDIR/st.conf"
	assert_failure 2
	assert_output --partial "'../x': a profile name is letters"
	run wq profile install st /nonexistent
	assert_failure 2
	assert_output --partial "/nonexistent: cannot read: No such file or directory"
	# an active profile is not removed; an absent one is exit 32 for cat and remove
	wq profile use st 2>/dev/null
	run wq profile remove st
	assert_failure 2
	assert_output --partial "st: in the active set"
	[ -f "$L/st.conf" ]
	wq profile off --keep
	run wq profile remove st
	assert_success
	[ ! -e "$L/st.conf" ]
	run wq profile cat st
	assert_failure 32
	assert_output "wqctl: st: not installed in /etc/wqctl/profiles"
	run wq profile remove st
	assert_failure 32
	# a mask is removed as a link, and cat says it is one
	ln -s /dev/null "$L/m.conf"
	run wq profile cat m
	assert_failure 32
	assert_output --partial "masked"
	run wq profile remove m
	assert_success
	[ ! -L "$L/m.conf" ] && [ -e /dev/null ]
}
