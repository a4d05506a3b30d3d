#!/usr/bin/env bats
# Meta-test: every command answers --help, appears in wqctl(8), and is
# offered by the bash, zsh and fish completions (as git's t0012 does for help).
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"

setup_file() {
	: "${WQCTL:?}"
	export TOP=${TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	export BIN=$BATS_FILE_TMPDIR/bin
	mkdir -p "$BIN"
	ln -sf "$WQCTL" "$BIN/wqctl"
	export PATH=$BIN:$PATH
	export MAN8=${MANDIR_BUILD:-$TOP/build/man}/wqctl.8
}

commands() { wqctl __complete commands; }

@test "the command list is not empty and has every command of wqctl(8)" {
	run commands
	assert_success
	for c in show get set knob topology explain check profile apply verify revert snapshot dump monitor; do
		assert_line "$c"
	done
}

@test "every command answers --help with its usage" {
	for c in $(commands); do
		run wqctl "$c" --help
		assert_equal "$c: $status" "$c: 0"
		assert_line --index 0 --partial "Usage: wqctl $c"
	done
}

@test "every command is documented in wqctl(8)" {
	[ -s "$MAN8" ]
	text=$(MANWIDTH=200 man -l "$MAN8" 2>/dev/null)
	for c in $(commands); do
		grep -qE "^ {7}$c( |$)" <<<"$text" || fail "$c is not documented in wqctl(8)"
	done
}

@test "every global and command option is documented in wqctl(8)" {
	text=$(MANWIDTH=200 man -l "$MAN8" 2>/dev/null)
	for c in "" $(commands); do
		for o in $(wqctl __complete options $c); do
			grep -q -- "$o" <<<"$text" || fail "${c:-global}: $o is not in wqctl(8)"
		done
	done
}

# comp WORD...: what _wqctl offers after the words (the last one is being completed)
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	_wqctl
}

@test "bash completes every command (compgen)" {
	[ -f /usr/share/bash-completion/bash_completion ] || skip "bash-completion is not installed"
	source /usr/share/bash-completion/bash_completion
	source "$TOP/completions/wqctl.bash"
	comp wqctl ""
	for c in $(commands); do
		[[ " ${COMPREPLY[*]} " == *" $c "* ]] || fail "bash does not offer $c"
	done
	comp wqctl get writeback ""
	[[ " ${COMPREPLY[*]} " == *" max_active "* ]] || fail "bash does not offer attributes"
	comp wqctl show -o ""
	[[ " ${COMPREPLY[*]} " == *" MAX_INFLIGHT "* ]] || fail "bash does not offer columns"
}

# Under zsh (and fish), LeakSanitizer's exit-time stop-the-world sometimes
# never returns: its tracer waits in waitpid() on the ptrace-stopped wqctl,
# which spins (4 in 40 runs here; google/sanitizers#777). Leaks are checked
# by every other ASan run and by valgrind; the shells run wqctl without LSan.
@test "zsh completes every command" {
	command -v zsh >/dev/null || skip "zsh not installed"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	run timeout 60 zsh -c 'compadd() { local a; for a in "$@"; do [[ $a == -* ]] && continue; print -r -- $a; done }
		_files() { :; }; words=(wqctl ""); CURRENT=2; PREFIX=""; source "$TOP/completions/_wqctl"'
	assert_success
	for c in $(commands); do assert_line "$c"; done
}

@test "fish completes every command" {
	command -v fish >/dev/null || skip "fish not installed"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	run timeout 60 fish -c "source $TOP/completions/wqctl.fish; complete -C 'wqctl '"
	assert_success
	for c in $(commands); do assert_line --regexp "^$c(\s|$)"; done
	run timeout 60 fish -c "source $TOP/completions/wqctl.fish; complete -C 'wqctl get writeback '"
	assert_line --regexp '^max_active'
}

@test "wqctl.profile(5) documents every section and workqueue key" {
	text=$(MANWIDTH=200 man -l "$(dirname "$MAN8")/wqctl.profile.5" 2>/dev/null)
	for k in '\[profile\]' '\[global\]' '\[workqueue' description include $(wqctl __complete attributes) owner.; do
		grep -q -- "$k" <<<"$text" || fail "$k is not in wqctl.profile(5)"
	done
}

@test "wqctl.profile(5) CONDITIONS is the library's table of verdicts, row for row (issue 59)" {
	want=$(wqctl __complete conditions | awk -f "$TOP/tests/meta/conditions.awk")
	got=$(sed -n '/^; conditions: generated/,/^; conditions: end/p' "$TOP/man/wqctl.profile.5.scd" | sed '1d;$d')
	[ "$(wqctl __complete conditions | wc -l)" -ge 14 ] || fail "the table has fewer rows than the issue's conditions"
	assert_equal "$got" "$want"
	# and the page renders every code
	text=$(MANWIDTH=200 man -l "$(dirname "$MAN8")/wqctl.profile.5" 2>/dev/null)
	for c in $(wqctl __complete conditions | cut -f1); do
		grep -qw -- "$c" <<<"$text" || fail "$c is not in the rendered wqctl.profile(5)"
	done
}

# The pages as a reader sees them: scdoc markup that did not parse shows up as
# literal underscores or asterisks in the rendered text (issue 14 item 6).
@test "every man page's rendered text has no markup left over, and the tricky names read right" {
	for m in "$MAN8" "$(dirname "$MAN8")/wqctl.profile.5"; do
		text=$(MANWIDTH=100 man -l "$m" 2>/dev/null | col -b)
		[ -n "$text" ] || fail "$m renders empty"
		# "0x_MASK_", "scsi_tmf__N_": an underscore pair left by a failed emphasis
		bad=$(grep -nE '[a-z0-9]_[A-Z]+_($|[^A-Z])|[a-z]__|(^|[ (/])\*[a-zA-Z]' <<<"$text" | grep -v 'CRYPT-LUKS2-\*' || true)
		[ -z "$bad" ] || fail "$(basename "$m"): markup left in the text: $bad"
	done
	text=$(MANWIDTH=100 man -l "$(dirname "$MAN8")/wqctl.profile.5" 2>/dev/null | col -b)
	for w in scsi_tmf_N iscsi_q_N 0xMASK owner.PROPERTY kcryptd-MAJ:MIN-ID; do
		grep -qF -- "$w" <<<"$text" || fail "wqctl.profile(5) does not read '$w'"
	done
	# a key prefix that lost its placeholder reads as a stray full stop (issue 45)
	! grep -nE 'owner\. ' <<<"$text" || fail "wqctl.profile(5) has 'owner.' with nothing after it"
	text=$(MANWIDTH=100 man -l "$MAN8" 2>/dev/null | col -b)
	for w in scsi_tmf_N iscsi_ctrl_N:SID 0xMASK owner.KEY; do
		grep -qF -- "$w" <<<"$text" || fail "wqctl(8) does not read '$w'"
	done
}

@test "the repository stands alone: no file points at the brief's documents outside it (issue 45)" {
	local outside=sha${NOPE:-}red # spelled apart, so that this file does not name it either
	cd "$TOP"
	[ -d .git ] || skip "not a git checkout"
	run git grep -nI -e "\\.\\./$outside" -e 'KERNEL\.md' -e 'SPEC\.md' -e 'SPEC §' -- . ':!tests/meta/meta.bats'
	assert_failure 1
	assert_output ""
}

@test "every 'doc/kernel.md §N' a file cites is a section of doc/kernel.md" {
	cd "$TOP"
	[ -d .git ] || skip "not a git checkout"
	local sec cited=0
	while read -r sec; do
		cited=$((cited + 1))
		grep -q "^##* §${sec}[ .]" doc/kernel.md || grep -q "^##* §${sec}\$" doc/kernel.md ||
			{ echo "doc/kernel.md has no §$sec"; return 1; }
	done < <(git grep -hoIE 'doc/kernel\.md §[0-9]+(\.[0-9]+)?' | sed 's/.*§//' | sort -u)
	[ "$cited" -ge 8 ]
}

@test "a CLI test file that defines its own teardown unmounts its overlay tree (drop_tree)" {
	# helpers.bash's teardown unmounts the test's copy-on-write tree; a file's own
	# teardown replaces it, and a forgotten drop_tree leaves a mount per test
	local f n=0
	for f in "$TOP"/tests/bats/*.bats; do
		grep -q '^teardown()' "$f" || continue
		n=$((n + 1))
		sed -n '/^teardown()/,/^}/p' "$f" | grep -q drop_tree || { echo "$f: teardown without drop_tree"; return 1; }
	done
	grep -q '^teardown() { drop_tree; }' "$TOP/tests/bats/helpers.bash"
	echo "# $n files with their own teardown" >&3
}

# The README's sessions on models, typed by tests/meta/readme-session.sh
# (every "$ " line of the section's console blocks run, its output compared
# line for line); the figures in them derived here by hand.
readme() { "$TOP/tests/meta/readme-session.sh" "$TOP/README.md" "$1" "$WQCTL" "$BATS_TEST_TMPDIR"; }

@test "the README session typer finds a changed figure, and a section without commands" {
	sed 's/^max_inflight: 512$/max_inflight: 511/' "$TOP/README.md" >"$TOP/.readme-test.md"
	run "$TOP/tests/meta/readme-session.sh" "$TOP/.readme-test.md" "Modelling another machine" "$WQCTL" "$BATS_TEST_TMPDIR"
	rm -f "$TOP/.readme-test.md"
	assert_failure 1
	assert_line "  want: max_inflight: 511"
	assert_line "  got:  max_inflight: 512"
	run "$TOP/tests/meta/readme-session.sh" "$TOP/README.md" "Install" "$WQCTL" "$BATS_TEST_TMPDIR"
	assert_failure 2
}

@test "the README's machine-modelling example, typed as written, prints what it says (issue 45)" {
	run readme "Modelling another machine"
	assert_success
	# 6.8 applies max_active per CPU (doc/kernel.md §4): 8 x 4 nodes x 16 CPUs
	grep -qxF "max_inflight: $((8 * 4 * 16))" "$TOP/README.md"
	grep -qF 'tests/fixtures/mktree.sh synth:4:16:2:2 6.8.0 /tmp/big' "$TOP/README.md"
}

@test "the README's btrfs task, typed as written, finds the regression and confirms the fix (issue 61)" {
	run readme "A btrfs regression after a kernel upgrade"
	assert_success
	# thread_pool's default min(96 + 2, 8) = 8, per CPU on 6.8: 8 x 96 = 768; on 6.12 split over
	# 2 nodes, each at least min_active 8: 16; after thread_pool=1, 1 x 96 (doc/kernel.md §4)
	grep -qxF "max_inflight: $((8 * 96))" "$TOP/README.md"
	grep -qxF "max_inflight: $((8 + 8))" "$TOP/README.md"
	grep -qxF "max_inflight: $((1 * 96))" "$TOP/README.md"
	grep -qF "up to 8 x 96 = 768 work items in flight each" "$TOP/README.md"
	grep -qF "up to 96 work items in flight each, the fewest this kernel allows" "$TOP/README.md"
	# the mount line as a 6.18 kernel printed a btrfs mounted with thread_pool=1 (tests/live/btrfs.bats)
	grep -qF "rw,relatime,space_cache=v2,subvolid=5,subvol=/" "$TOP/README.md"
}

@test "the README's profile task, typed as written on a tree, installs, applies, verifies and reverts" {
	local d=$BATS_TEST_TMPDIR/t
	"$TOP/tests/fixtures/mktree.sh" synth:1:4:1:1 6.18.0 "$d" >/dev/null
	grep -qF "printf '[workqueue writeback]\\nmax_active = 64\\n' | wqctl profile install storage -" "$TOP/README.md"
	printf '[workqueue writeback]\nmax_active = 64\n' | "$WQCTL" --sysroot "$d" profile install storage -
	run "$WQCTL" --sysroot "$d" profile use --now storage
	assert_success
	assert_equal "$(cat "$d/sys/devices/virtual/workqueue/writeback/max_active")" 64
	run "$WQCTL" --sysroot "$d" verify
	assert_success
	run "$WQCTL" --sysroot "$d" revert
	assert_success
	assert_equal "$(cat "$d/sys/devices/virtual/workqueue/writeback/max_active")" 1024
}

@test "the README's per-device task, typed as written, installs a profile and gives dm-0's workqueues node 1's CPUs" {
	run readme "Per-device settings: dm-crypt and iSCSI on their device's NUMA node"
	assert_success
	# dm-0 sits on sda, whose PCI device is on node 1: CPUs 4-7 in lscpu's oracle for vmware_fpe
	grep -qx 'NUMA node1 CPU(s): *4-7' "$TOP/tests/fixtures/topology/vmware_fpe.lscpu-expected.txt"
	grep -qF "kcryptd-253:0-1/cpumask 0-31 4-7 4-7" "$TOP/README.md"
	grep -qF "the devices under 253:1 sit on several NUMA nodes" "$TOP/README.md"
}
