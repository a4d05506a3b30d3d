#!/usr/bin/env bats
# One verdict for a setting in every command (issue 59): for each condition of
# the library's table (wqctl __complete conditions, printed in wqctl.profile(5)
# CONDITIONS) a profile that meets it, written by hand with the condition it
# must meet; then check --profile, apply --dry-run (text and -J), apply, verify
# and metrics must give that condition with the table's severity, status and
# exit status, and every other setting ("rest") must be applied unless the
# table says the set is refused. The Ansible modules run the same scenarios in
# check and real mode (the last test).
load helpers

setup_file() {
	# the table: code -> "severity status exit-check exit-apply exit-verify"
	"$WQCTL" __complete conditions >"$BATS_FILE_TMPDIR/table"
}

setup() {
	PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD"
	printf '[workqueue blkcg_punt_bio]\nnice = 4\n' >"$PD/rest.conf"
}

teardown() { drop_tree; }

wqp() { wq --profile-dir "$PD" "$@"; }

# row CODE: sets SEV STATUS XCHECK XAPPLY XVERIFY from the table
row() {
	local line
	line=$(awk -F '\t' -v c="$1" '$1 == c' "$BATS_FILE_TMPDIR/table")
	[ -n "$line" ] || fail "condition $1 is not in the table"
	IFS=$'\t' read -r _ SEV STATUS _ XCHECK XAPPLY XVERIFY _ <<<"$line"
}

# The scenarios: NAME CODE TREE KERNEL TARGET (check's and verify's; '-' none) and the profile text.
# Each code is what the scenario must meet, by the rules of wqctl.profile(5), not by running wqctl.
scenario() {
	case $1 in
	ok) set -- ok plain 6.18.0 writeback/nice '[workqueue writeback]\nnice = 3\n' ;;
	kernels) set -- profile-kernels plain 6.18.0 writeback/affinity_scope '[profile]\nkernels = 7.1-\n[workqueue writeback]\naffinity_scope = cache_shard\n' ;;
	when) set -- when-false plain 6.18.0 writeback '[workqueue writeback]\nwhen = kernel >= 7.1\naffinity_scope = cache_shard\n' ;;
	era-value) set -- unsupported plain 6.18.0 writeback/affinity_scope '[workqueue writeback]\naffinity_scope = cache_shard\n' ;;
	era-attr) set -- unsupported plain 6.18.0 writeback/numa '[workqueue writeback]\nnuma = 1\n' ;;
	# 6.6-6.12 take max_active up to 512, 6.13+ 2048 (doc/kernel.md §4)
	era-limit) set -- unsupported plain 6.8.0 writeback/max_active '[workqueue writeback]\nmax_active = 1024\n' ;;
	percpu) set -- percpu plain 6.18.0 ib-comp-wq/cpumask '[workqueue ib-comp-wq]\ncpumask = 0-3\n' ;;
	outside) set -- outside-sysfs plain 6.18.0 'dmz_*' '[workqueue dmz_*]\nmax_active = 4\n' ;;
	waiting) set -- waiting plain 6.18.0 'iscsi_q_*' '[workqueue iscsi_q_*]\nnice = 1\n' ;;
	node) set -- machine-lacks plain 6.18.0 writeback/cpumask '[workqueue writeback]\ncpumask = node:7\n' ;;
	local-none) set -- local-no-owner owners 6.18.0 writeback/cpumask '[workqueue writeback]\ncpumask = local\n' ;;
	local-spans) set -- local-no-owner owners 6.18.0 kcryptd-253:1-1/cpumask '[workqueue kcryptd-253:1-1]\ncpumask = local\n' ;;
	local-offline) set -- local-no-owner offline 6.18.0 kcryptd-253:0-1/cpumask '[workqueue kcryptd-253:0-1]\ncpumask = local\n' ;;
	absent) set -- absent plain 6.18.0 nosuch '[workqueue nosuch]\nnice = 1\n' ;;
	invalid) set -- invalid-value plain 6.18.0 writeback/max_active '[workqueue writeback]\nmax_active = 0\n' ;;
	unreadable) set -- unreadable ctrl 6.18.0 writeback/nice '[workqueue writeback]\nnice = 3\n' ;;
	drift) set -- drift plain 6.18.0 writeback/nice '[workqueue writeback]\nnice = 3\n' ;;
	foreign) set -- foreign plain 6.18.0 writeback/nice '[workqueue writeback]\nnice = 3\n' ;;
	*) fail "no scenario $1" ;;
	esac
	CODE=$1 TREE=$2 KERNEL=$3 TARGET=$4 TEXT=$5
	row "$CODE"
}

# prepare ROOT: the scenario's changes to a fresh tree
prepare() {
	# node 1 (CPUs 4-7, dm-0's node) offline
	if [ "$TREE" = offline ]; then
		echo 0-3,8-15 >"$1/sys/devices/system/cpu/online"
		for c in 4 5 6 7; do echo 0 >"$1/sys/devices/system/cpu/cpu$c/online"; done
	fi
	# a current value the journal cannot hold
	[ "$TREE" != ctrl ] || printf '0\001\n' >"$1/sys/devices/virtual/workqueue/writeback/nice"
}

# owners: the tree with mkowners.sh's devices
owners() { case $TREE in owners | offline) echo owners ;; esac; }

# The commands against the table, for scenario $1.
consistent() {
	scenario "$1"
	use_tree vmware_fpe "$KERNEL" "$(owners)"
	prepare "$ROOT"
	# shellcheck disable=SC2059
	printf "$TEXT" >"$PD/p.conf"
	local before rest_want xfind
	before=$(tree_sum)
	# check --profile: the finding (severity, code, target) and the exit status
	run wqp check --profile p --profile rest -r -n -o SEVERITY,CODE,TARGET
	assert_equal "check $1: $status" "check $1: $XCHECK"
	case $CODE in
	ok | drift | foreign) refute_output --partial "$TARGET" ;;
	invalid-value) assert_output --partial "p.conf:2: max_active: invalid value '0'" ;;
	profile-kernels) assert_line "$SEV $CODE $PD/p.conf" ;;
	*) assert_line "$SEV $CODE $TARGET" ;;
	esac
	# apply --dry-run: the same exit status, nothing written
	run wqp apply --dry-run --profile p --profile rest
	assert_equal "apply --dry-run $1: $status" "apply --dry-run $1: $XAPPLY"
	assert_equal "$(tree_sum)" "$before"
	# -J: a setting left out carries its condition and severity
	case $SEV:$CODE in
	error:* | *:ok | *:when-false | *:drift | *:foreign) ;;
	*)
		wqp -J apply --dry-run --profile p --profile rest >"$BATS_TEST_TMPDIR/dry.json" || true
		python3 - "$BATS_TEST_TMPDIR/dry.json" "$CODE" "$SEV" "$STATUS" <<-'PY'
			import json, sys
			d = json.load(open(sys.argv[1]))
			hits = [s for s in d["skipped"] if s["condition"] == sys.argv[2]]
			assert hits and all((s["severity"], s["status"]) == tuple(sys.argv[3:5]) for s in hits), d["skipped"]
		PY
		;;
	esac
	# a foreign change: wqctl wrote the profile's value, someone else changed it since
	if [ "$CODE" = foreign ]; then
		wqp apply --profile p --profile rest
		echo 5 >"$(WQDIR)/writeback/nice"
	fi
	# drift: the live value differs and wqctl never wrote it (verify before any apply)
	if [ "$CODE" != drift ] && [ "$CODE" != foreign ]; then
		run wqp apply --profile p --profile rest
		assert_equal "apply $1: $status" "apply $1: $XAPPLY"
		# the rest applies unless the set is refused
		rest_want=4
		[ "$SEV" != error ] || rest_want=0
		assert_equal "$1: blkcg_punt_bio/nice $(cat "$(WQDIR)/blkcg_punt_bio/nice")" "$1: blkcg_punt_bio/nice $rest_want"
	fi
	[ "$CODE" != ok ] || assert_equal "$(cat "$(WQDIR)/writeback/nice")" 3
	# verify: STATUS and CONDITION of the target's row, and the exit status
	run wqp verify --profile p --profile rest -r -n -o TARGET,STATUS,CONDITION
	assert_equal "verify $1: $status" "verify $1: $XVERIFY"
	case $CODE in
	when-false) refute_output --partial "$TARGET" ;;
	invalid-value) assert_output --partial "invalid value '0'" ;;
	*) assert_line "$TARGET $STATUS $CODE" ;;
	esac
	# metrics: the active set's settings by condition
	[ "$CODE" != invalid-value ] || return 0
	wqp profile use p rest 2>/dev/null
	run wqp metrics
	if [ "$CODE" = when-false ]; then
		refute_output --partial 'condition="when-false"'
	else
		assert_line "wqctl_profile_conditions{profile=\"p\",condition=\"$CODE\",severity=\"$SEV\"} $(grep -c . <<<"$TARGET")"
	fi
	# a profile whose only section is left out has no settings to count
	if [ "$CODE" = when-false ]; then
		refute_output --partial 'profile="p"'
		return 0
	fi
	# drift counts what verify exits non-zero for
	xfind=0
	[ "$XVERIFY" = 0 ] || xfind=1
	assert_line "wqctl_profile_drift{profile=\"p\"} $xfind"
}

@test "every condition of the table has a scenario here (needs-force: set, knob, experiment below)" {
	codes=$(cut -f1 "$BATS_FILE_TMPDIR/table" | sort)
	covered=$(sed -n 's/^\t[a-z-]*) set -- \([a-z-]*\) .*/\1/p' "$BATS_TEST_FILENAME" | sort -u)
	assert_equal "$(comm -23 <(echo "$codes") <(echo "$covered"))" "needs-force"
}

@test "conditions: ok" { consistent ok; }
@test "conditions: guarded by kernels = (profile-kernels)" { consistent kernels; }
@test "conditions: guarded by when (when-false)" { consistent when; }
@test "conditions: another era's value, unguarded (unsupported: cache_shard on 6.18)" { consistent era-value; }
@test "conditions: another era's attribute (unsupported: numa on 6.18)" { consistent era-attr; }
@test "conditions: another era's limit (unsupported: max_active 1024 on 6.8)" { consistent era-limit; }
@test "conditions: a per-CPU workqueue given a cpumask (percpu)" { consistent percpu; }
@test "conditions: never in sysfs (outside-sysfs: dmz_*)" { consistent outside; }
@test "conditions: a hot-plug device not present (waiting)" { consistent waiting; }
@test "conditions: a node this machine lacks (machine-lacks)" { consistent node; }
@test "conditions: local without an owner (local-no-owner)" { consistent local-none; }
@test "conditions: local on an owner across nodes (local-no-owner)" { consistent local-spans; }
@test "conditions: local on an offline node (local-no-owner)" { consistent local-offline; }
@test "conditions: a section reaching nothing (absent)" { consistent absent; }
@test "conditions: a value no kernel takes (invalid-value)" { consistent invalid; }
@test "conditions: a current value with a control character (unreadable)" { consistent unreadable; }
@test "conditions: drift" { consistent drift; }
@test "conditions: a foreign change (foreign)" { consistent foreign; }

@test "conditions: needs-force is set's, knob's and experiment's verdict without --force; profiles are forced" {
	use_tree vmware_fpe 6.18.0
	row needs-force
	# writeback was created with max_active 256 > 8: min_active 8; 4 lowers it (doc/kernel.md §4.5)
	run wq set writeback max_active=4
	assert_equal "$status" "$XAPPLY"
	assert_output --partial "writeback/max_active: writing 4 lowers the hidden min_active from 8 to 4"
	run wq experiment --runs 1 --set 'writeback max_active=4,8' -- true
	assert_equal "$status" "$XAPPLY"
	assert_output --partial "add --force"
	run wq set --force writeback max_active=4
	assert_success
	printf '[workqueue writeback]\nmax_active = 3\n' >"$PD/p.conf"
	run wqp apply --profile p
	assert_success
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 3
}

# The Ansible module profile on every scenario but drift and foreign (states made outside it): in check
# mode it fails exactly where apply would exit non-zero, for real where apply or verify would; a failed
# task leaves the profile file and the active set as it found them (issue 59 item 5).
@test "conditions: the Ansible profile module in check and real mode agrees with the table" {
	command -v ansible-playbook >/dev/null || skip "ansible-core is not installed (make deps)"
	COLL=$BATS_TEST_TMPDIR/collections
	(cd "$TOP/ansible" && ansible-galaxy collection build --force --output-path "$BATS_TEST_TMPDIR" >/dev/null)
	ansible-galaxy collection install --force -p "$COLL" "$BATS_TEST_TMPDIR/wqctl-wqctl-0.1.0.tar.gz" >/dev/null 2>&1
	names="ok kernels when era-value era-attr era-limit percpu outside waiting node local-none local-spans local-offline absent invalid unreadable"
	cases=$BATS_TEST_TMPDIR/cases.json
	echo '{"cases": [' >"$cases"
	for n in $names; do
		scenario "$n"
		pristine vmware_fpe "$KERNEL" "$(owners)"
		r=$BATS_TEST_TMPDIR/trees/$n
		mkdir -p "${r%/*}"
		cp -a "$PRISTINE" "$r"
		prepare "$r"
		mkdir -p "$r/etc/wqctl/profiles"
		cp "$PD/rest.conf" "$r/etc/wqctl/profiles/"
		"$WQCTL" --sysroot "$r" profile use rest 2>/dev/null
		# shellcheck disable=SC2059
		python3 -c 'import json, sys; print(json.dumps(dict(name=sys.argv[1], root=sys.argv[2], text=sys.argv[3])) + ",")' \
			"$n" "$r" "$(printf "$TEXT")" >>"$cases"
	done
	# a write that fails in the real apply (the failwrite shim, make check): the task fails after it
	# wrote the file and the active set, and puts both back
	fw=
	if [ -n "${WQCTL_SHIM:-}" ] && [ -n "${WQCTL_PLAIN:-}" ]; then
		fw=$BATS_TEST_TMPDIR/failwrite-wqctl
		printf '#!/bin/sh\ncase " $* " in *" apply "*) case " $* " in *" --dry-run "*) ;; *) export LD_PRELOAD=%s FAILWRITE_N=1 FAILWRITE_ERRNO=EIO ;; esac ;; esac\nexec %s "$@"\n' \
			"$WQCTL_SHIM" "$WQCTL_PLAIN" >"$fw"
		chmod +x "$fw"
		pristine vmware_fpe 6.18.0
		cp -a "$PRISTINE" "$BATS_TEST_TMPDIR/trees/failwrite"
		mkdir -p "$BATS_TEST_TMPDIR/trees/failwrite/etc/wqctl/profiles"
		cp "$PD/rest.conf" "$BATS_TEST_TMPDIR/trees/failwrite/etc/wqctl/profiles/"
		"$WQCTL" --sysroot "$BATS_TEST_TMPDIR/trees/failwrite" profile use rest 2>/dev/null
		python3 -c 'import json, sys; print(json.dumps(dict(name="failwrite", root=sys.argv[1], text="[workqueue writeback]\nnice = 3\n", exe=sys.argv[2])))' \
			"$BATS_TEST_TMPDIR/trees/failwrite" "$fw" >>"$cases"
	fi
	sed -i '$ s/,$//' "$cases"
	echo ']}' >>"$cases"
	run env ANSIBLE_COLLECTIONS_PATH="$COLL" ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0 \
		ansible-playbook -i localhost, -c local -e ansible_python_interpreter=/usr/bin/python3 \
		-e "@$cases" -e wqctl="$WQCTL" -e out="$BATS_TEST_TMPDIR/out.json" "$TOP/tests/ansible/conditions.yml"
	assert_success
	for n in $names; do
		scenario "$n"
		r=$BATS_TEST_TMPDIR/trees/$n
		want_check=false want_real=false
		[ "$XAPPLY" = 0 ] || want_check=true
		[ "$XAPPLY" = 0 ] && [ "$XVERIFY" = 0 ] || want_real=true
		got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))[sys.argv[2]]; print(str(d["check"]).lower(), str(d["real"]).lower())' "$BATS_TEST_TMPDIR/out.json" "$n")
		assert_equal "$n: $got" "$n: $want_check $want_real"
		if [ "$want_real" = true ]; then
			[ ! -e "$r/etc/wqctl/profiles/p.conf" ] || fail "$n: the failed task left p.conf"
			assert_equal "$n: $(cat "$r/etc/wqctl/active-profiles" | grep -v '^#')" "$n: rest"
		else
			[ -e "$r/etc/wqctl/profiles/p.conf" ] || fail "$n: p.conf was not installed"
			assert_equal "$n: $(grep -v '^#' "$r/etc/wqctl/active-profiles" | tr '\n' ' ')" "$n: rest p "
		fi
	done
	[ -n "$fw" ] || return 0
	r=$BATS_TEST_TMPDIR/trees/failwrite
	got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["failwrite"]; print(d["check"], d["real"], d["msg"])' "$BATS_TEST_TMPDIR/out.json")
	assert_equal "${got%% wqctl:*}" "False True"
	[[ $got == *"Input/output error"* ]] || fail "failwrite: not wqctl's reason: $got"
	[ ! -e "$r/etc/wqctl/profiles/p.conf" ] || fail "failwrite: the failed task left p.conf"
	assert_equal "$(grep -v '^#' "$r/etc/wqctl/active-profiles")" "rest"
}
