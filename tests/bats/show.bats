#!/usr/bin/env bats
# show: every output mode, typed JSON, columns, patterns and exit codes.
load helpers

setup() { use_tree x86_64-dell_e4310 6.18.0; }

@test "show lists every workqueue of the tree, sorted, with the default columns" {
	run wq show
	assert_success
	assert_line --index 0 --regexp '^NAME +KIND +MAX_ACTIVE +MAX_INFLIGHT +CPUS +SCOPE +STRICT +NICE +OWNER$'
	# the fixture has 5 workqueues (mktree.sh, 6.18 era)
	assert_equal "${#lines[@]}" 6
	assert_line --index 1 --regexp '^blkcg_punt_bio +unbound +1024 '
	assert_line --index 5 --regexp '^writeback +unbound +1024 '
}

@test "show -J types numbers and booleans and uses lower-case keys" {
	run wq show -J writeback
	assert_success
	assert_output --partial '"workqueues": ['
	assert_output --partial '"name": "writeback"'
	assert_output --partial '"kind": "unbound"'
	assert_output --partial '"max_active": 1024,'
	assert_output --partial '"strict": false'
	assert_output --partial '"nice": 0'
	assert_output --partial '"owner": null'
	# dell: possible 0-7, online 0-3; the default mask is every possible CPU
	assert_output --partial '"cpus": "0-7"'
}

@test "show -J prints null for a per-cpu workqueue's cpumask" {
	run wq show -J ib-comp-wq
	assert_success
	assert_output --partial '"kind": "percpu"'
	assert_output --partial '"cpus": null'
}

@test "show -r prints raw rows" {
	run wq show -r -o NAME,MAX_ACTIVE writeback
	assert_success
	assert_output "NAME MAX_ACTIVE
writeback 1024"
}

@test "show -P prints KEY=value pairs" {
	run wq show -P -o NAME,KIND,MAX_ACTIVE writeback
	assert_success
	assert_output 'NAME="writeback" KIND="unbound" MAX_ACTIVE="1024"'
}

@test "show -n drops the heading" {
	run wq show -n -o NAME writeback
	assert_success
	assert_output "writeback"
}

@test "show -o +COLS appends to the defaults" {
	run wq show -o +PATH,EFFECTIVE_CPUS -P writeback
	assert_success
	assert_output --partial 'NAME="writeback"'
	assert_output --partial "PATH=\"$ROOT/sys/devices/virtual/workqueue/writeback\""
	# E = W & root mask = 0-7 & 0-7
	assert_output --partial 'EFFECTIVE_CPUS="0-7"'
}

@test "WQCTL_COLUMNS sets the default columns, -o wins over it" {
	WQCTL_COLUMNS=NAME,NICE run wq show -r -n writeback
	assert_output "writeback 0"
	WQCTL_COLUMNS=NAME,NICE run wq show -r -n -o NAME writeback
	assert_output "writeback"
}

@test "numbers in cells: a negative nice, the largest max_active, JSON numbers" {
	echo -20 >"$(WQDIR)/writeback/nice"
	echo 2147483647 >"$(WQDIR)/writeback/max_active"
	run wq show -r -n -o NAME,NICE,MAX_ACTIVE writeback
	assert_output "writeback -20 2147483647"
	run wq show -J -o NICE,MAX_ACTIVE writeback
	assert_output --partial '"nice": -20,'
	assert_output --partial '"max_active": 2147483647'
}

@test "show --list-columns names every column" {
	run wq show --list-columns
	assert_success
	for c in NAME KIND MAX_ACTIVE MAX_INFLIGHT CPUS SCOPE STRICT NICE OWNER EFFECTIVE_CPUS NUMA PATH; do
		assert_line --regexp "^$c "
	done
}

@test "show globs filter" {
	run wq show -n -o NAME 'kcryptd*'
	assert_success
	assert_output "kcryptd-253:0-1
kcryptd_io-253:0-1"
}

@test "show of an absent workqueue exits 32, of some absent 64" {
	run wq show nosuch
	assert_equal "$status" 32
	assert_output --partial "wqctl: nosuch: no such workqueue"
	run wq show -n -o NAME writeback nosuch
	assert_equal "$status" 64
	assert_line "writeback"
}

@test "show names the owner device of kcryptd workqueues" {
	run wq show -P -o NAME,OWNER 'kcryptd-*'
	assert_output 'NAME="kcryptd-253:0-1" OWNER="block:253:0"'
}

@test "show on a 6.1 tree has the legacy NUMA column and no scope" {
	use_tree vmware_fpe 6.1.0
	run wq show -P -o NAME,SCOPE,NUMA writeback
	assert_success
	assert_output 'NAME="writeback" SCOPE="" NUMA="1"'
	run wq show -J -o NAME,NUMA writeback
	assert_output --partial '"numa": true'
}

@test "WQCTL_SYSROOT is the same as --sysroot" {
	WQCTL_SYSROOT=$ROOT run "$WQCTL" show -n -o NAME writeback
	assert_success
	assert_output "writeback"
}

@test "show > /dev/full fails loudly" {
	run bash -c '"$0" --sysroot "$1" show > /dev/full' "$WQCTL" "$ROOT"
	assert_equal "$status" 1
	assert_output --partial "write error"
}

@test "an absolute symlink in a dump resolves inside the dump" {
	# a link to /sys/... must not reach the live /sys
	mkdir -p "$ROOT/sys/devices/virtual/workqueue/evil"
	ln -s /sys/devices/virtual/workqueue/writeback/max_active "$ROOT/sys/devices/virtual/workqueue/evil/max_active"
	echo 0 >"$ROOT/sys/devices/virtual/workqueue/evil/per_cpu"
	echo 77 >"$ROOT/sys/devices/virtual/workqueue/writeback/max_active"
	run wq get -n evil max_active
	assert_success
	assert_output "77"
}

@test "a workqueue directory that links elsewhere in a dump reads through the link" {
	# files below the workqueue directory are opened from it; a link in the way
	# (here one leading out of it, "..") takes the walk from the dump's root
	mkdir -p "$ROOT/srv/moved"
	echo 0 >"$ROOT/srv/moved/per_cpu"
	echo 33 >"$ROOT/srv/moved/max_active"
	ln -s ../../../../srv/moved "$ROOT/sys/devices/virtual/workqueue/moved"
	run wq get -n moved max_active
	assert_success
	assert_output "33"
	run wq get -n writeback max_active
	assert_success
	assert_output "$(cat "$ROOT/sys/devices/virtual/workqueue/writeback/max_active")"
}

@test "-J, -r and -P are mutually exclusive (exit 2), as lsblk has them; -O prints every column" {
	for pair in "-J -r" "-J -P" "-r -P" "-JP"; do
		# shellcheck disable=SC2086
		run wq show $pair
		assert_equal "$status" 2
		assert_output "wqctl: --json, --raw and --pairs: mutually exclusive arguments"
	done
	run wq show -O -n writeback
	assert_success
	cols=$(wq show --list-columns | awk 'NR > 1' | wc -l)
	# every column of --list-columns, one heading each
	run wq show -O writeback
	assert_equal "$(head -1 <<<"$output" | wc -w)" "$cols"
	run wq show -O -o NAME
	assert_equal "$status" 2
}

@test "a missing value is null in JSON, empty in -P, '-' in a table" {
	run wq show -P -o NAME,OWNER_NODE writeback
	assert_output 'NAME="writeback" OWNER_NODE=""'
	run wq show -r -n -o NAME,OWNER_NODE writeback
	assert_output "writeback -"
	run bash -c "'$WQCTL' --sysroot '$ROOT' show -J -o NAME,OWNER_NODE writeback | tr -d ' \n'"
	assert_output --partial '"owner_node":null'
}

@test "unknown names say the nearest existing one" {
	run wq shwo
	assert_equal "$status" 2
	assert_output "wqctl: shwo: unknown command; did you mean 'show'? (see wqctl --help)"
	run wq show writebak
	assert_equal "$status" 32
	assert_output "wqctl: writebak: no such workqueue; did you mean 'writeback'?"
	run wq get wrtieback
	assert_output "wqctl: wrtieback: no such workqueue; did you mean 'writeback'?"
	run wq show -o NAME,CPSU
	assert_output "wqctl: --output: CPSU: unknown column; did you mean 'CPUS'? (see --list-columns)"
	# nothing near: no guess
	run wq show zzzzzz
	assert_output "wqctl: zzzzzz: no such workqueue"
	run wq frobnicate
	assert_output "wqctl: frobnicate: unknown command (see wqctl --help)"
}

@test "show -J splits affinity_scope into the scope and scope_default; the table keeps the kernel's text" {
	wq set blkcg_punt_bio affinity_scope=numa
	run bash -c "'$WQCTL' --sysroot '$ROOT' show -J -o NAME,SCOPE blkcg_punt_bio writeback | tr -d ' \n'"
	assert_output '{"workqueues":[{"name":"blkcg_punt_bio","scope":"numa","scope_default":false},{"name":"writeback","scope":"cache","scope_default":true}]}'
	run wq show -r -n -o NAME,SCOPE writeback
	assert_output 'writeback default\x20(cache)'
}

@test "options a command would ignore are errors: table options where there is no table" {
	for c in "snapshot -J" "snapshot --list-columns" "snapshot -o NAME" "revert -J" "revert -r" "dump -P $BATS_TEST_TMPDIR/d" "profile current -J" "profile use -n x" "owner -r writeback" "owner --list-columns writeback"; do
		# shellcheck disable=SC2086
		run wq $c
		assert_equal "$c: $status" "$c: 2"
		assert_output --regexp "^wqctl: [a-z]+: --[a-z-]+: the command prints no table, so the option does nothing here$"
	done
	[ ! -e "$BATS_TEST_TMPDIR/d" ]
	# where the option does something it is taken
	run wq -J owner writeback
	assert_success
	run wq profile list -r -n
	assert_success
}

@test "show -J: a boolean a workqueue does not have is null, not false (per-cpu strict, scope_default)" {
	use_tree vmware_fpe 6.18.0 owners
	run bash -c "'$WQCTL' --sysroot '$ROOT' show -J -o NAME,STRICT,SCOPE kcryptd_io-253:0-1 writeback | tr -d ' \n'"
	assert_output '{"workqueues":[{"name":"kcryptd_io-253:0-1","strict":null,"scope":null,"scope_default":null},{"name":"writeback","strict":false,"scope":"cache","scope_default":true}]}'
}

@test "show prints plain names as they are, and encodes a backslash before x as libsmartcols does" {
	# a name is printable ASCII (wq_name_is_valid), but may hold '\x': libsmartcols writes that
	# backslash as \x5c so that its own \xHH escapes stay unambiguous; the plain-text fast path
	# (no encoding pass) must not print it raw
	cp -a "$(WQDIR)/writeback" "$(WQDIR)/odd\\x41"
	run wq show -o NAME
	assert_success
	assert_line 'odd\x5cx41'
	refute_output --partial 'odd\x41'
	assert_line 'writeback'
	# without such a name nothing is encoded: the table is the kernel's names, byte for byte
	rm -rf "$(WQDIR)/odd\\x41"
	run wq show -o NAME -n
	assert_success
	assert_output "$(cd "$(WQDIR)" && for d in */; do [ -e "$d/max_active" ] && echo "${d%/}"; done | LC_ALL=C sort)"
}

@test "show with a mistyped option names it, as every other command does (issue 45)" {
	run wq show --jsn
	assert_failure 2
	assert_output "wqctl: show: --jsn: unknown option (see wqctl show --help)"
}

@test "every -J document indents by 3 per level, tables (libsmartcols) and documents (json-c) alike (issue 45)" {
	local c out
	for c in "show -J writeback" "explain -J writeback" "topology -J" "check -J" "get -J writeback" "knob -J" "owner -J writeback" "apply -J --dry-run --profile-dir $TOP/profiles --profile numa-local"; do
		out=$(wq $c)
		# each line's leading spaces: a multiple of 3, and the second line one level in
		bad=$(awk '{ match($0, /^ */); if (RLENGTH % 3) print NR": "$0 }' <<<"$out")
		[ -z "$bad" ] || fail "wqctl $c: indented other than by 3: $bad"
		[ "$(sed -n 2p <<<"$out" | sed 's/[^ ].*//' | wc -c)" = 4 ] || fail "wqctl $c: the second line is not 3 in"
	done
}
