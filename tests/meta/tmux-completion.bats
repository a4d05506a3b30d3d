#!/usr/bin/env bats
# bash completion as a person meets it: a real interactive bash in tmux with
# bash-completion loaded, keys sent with send-keys, the screen read with
# capture-pane (issue 14 item 1). Every case types a partial line, presses
# Tab (twice to list), and for a completed word one more key, X, so that a
# trailing space shows on screen.
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"

setup_file() {
	: "${WQCTL:?}"
	export TOP=${TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	command -v tmux >/dev/null || skip "tmux is not installed"
	[ -f /usr/share/bash-completion/bash_completion ] || skip "bash-completion is not installed"
	export BIN=$BATS_FILE_TMPDIR/bin R=$BATS_FILE_TMPDIR/root R612=$BATS_FILE_TMPDIR/r612
	mkdir -p "$BIN" "$R612"
	ln -sf "$WQCTL" "$BIN/wqctl"
	# a 4-node tree with dm-crypt and SCSI owners (names with ':'), and Debian 6.12's own dump
	"$TOP/tests/fixtures/mktree.sh" vmware_fpe 6.18.0 "$R" >/dev/null
	"$TOP/tests/fixtures/mkowners.sh" "$R"
	tar -C "$R612" -xzf "$TOP/tests/fixtures/real/debian-6.12-even.tar.gz" --strip-components=1
	# a tmux server of this file's own (its socket), killed at the end whatever happened; it
	# must not hold bats' output descriptors, or bats waits for it
	export S=wqctl-bats-$$ SOCK=wqctl-bats-$$
	# LeakSanitizer under a terminal's process tree can hang at exit (google/sanitizers#777)
	tmux -L "$SOCK" new-session -d -s "$S" -x 230 -y 50 \
		"env -i HOME=$BATS_FILE_TMPDIR TERM=xterm ASAN_OPTIONS=detect_leaks=0 PATH=$BIN:/usr/bin:/bin bash --norc --noprofile" \
		3>&- </dev/null >/dev/null 2>&1
	sleep 0.5
	tmux -L "$SOCK" send-keys -t "$S" "source /usr/share/bash-completion/bash_completion; source $TOP/completions/wqctl.bash; PS1='$ '" Enter
	prompt "$S" '$'
}

# prompt SESSION PS1: wait (10 s at most) until the shell shows PS1 alone on its last line, so
# that its set-up line has run: a fixed sleep let a loaded machine type the first case into a
# zsh still in compinit, at its own prompt
prompt() {
	local i
	for ((i = 0; i < 50; i++)); do
		[ "$(tmux -L "$SOCK" capture-pane -t "$1" -p | grep -v '^$' | tail -n 1)" = "$2" ] && return 0
		sleep 0.2
	done
	echo "# $1: no '$2' prompt after 10 s" >&3
}

teardown_file() {
	tmux -L "$SOCK" kill-server 2>/dev/null || true
}

# settle: wait until the screen holds still for 0.15 s (three equal captures 0.05 s
# apart; 10 s at most), so a completion that runs wqctl (slower under ASan) has drawn all of it
settle() {
	local prev cur same=0 i
	prev=$(tmux -L "$SOCK" capture-pane -t "$S" -p)
	for ((i = 0; i < 200 && same < 3; i++)); do
		sleep 0.05
		cur=$(tmux -L "$SOCK" capture-pane -t "$S" -p)
		if [ "$cur" = "$prev" ]; then same=$((same + 1)); else same=0 prev=$cur; fi
	done
}

# last: the screen's last non-empty line
last() {
	tmux -L "$SOCK" capture-pane -t "$S" -p | grep -v '^$' | tail -n 1
}

# fresh: an empty screen with the prompt alone ('$' bash, '%' zsh) on it. C-c
# first, and only once the shell has drawn a new prompt the clear: a C-c that
# came while a completion still ran wqctl (slow under ASan, on a loaded
# machine) once left the old line in place, 'clear' was typed onto its end and
# the next line's first key was lost (CI of 8de84c5). Tried 5 times.
fresh() {
	local try i
	for ((try = 0; try < 5; try++)); do
		tmux -L "$SOCK" send-keys -t "$S" C-c
		for ((i = 0; i < 40; i++)); do
			case $(last) in '$' | '%') break ;; esac
			sleep 0.05
		done
		case $(last) in '$' | '%') ;; *) continue ;; esac
		tmux -L "$SOCK" send-keys -t "$S" clear Enter
		for ((i = 0; i < 100; i++)); do
			case $(tmux -L "$SOCK" capture-pane -t "$S" -p | grep -v '^$') in '$' | '%') return 0 ;; esac
			sleep 0.05
		done
	done
	echo "# $S: the screen never came back to a bare prompt:" >&3
	tmux -L "$SOCK" capture-pane -t "$S" -p | grep -v '^$' | sed 's/^/# /' >&3
	return 1
}

# screen LINE KEYS...: type LINE, press the keys, print the screen's last lines once it has
# changed (10 s at most) and then holds still.
screen() {
	local line=$1 before after i
	shift
	fresh || return 1
	tmux -L "$SOCK" send-keys -t "$S" -l "$line"
	settle
	# the keys go in one burst, as fast typing does: readline takes them in order,
	# each completion done before the next key is read (a first Tab that only
	# rings the bell changes nothing on screen, so waiting per key cost 10 s)
	before=$(tmux -L "$SOCK" capture-pane -t "$S" -p)
	tmux -L "$SOCK" send-keys -t "$S" "$@"
	for ((i = 0; i < 200; i++)); do
		sleep 0.05
		after=$(tmux -L "$SOCK" capture-pane -t "$S" -p)
		[ "$after" != "$before" ] && break
	done
	settle
	tmux -L "$SOCK" capture-pane -t "$S" -p | grep -v '^$'
}

@test "tmux bash: -o NAME,C<TAB> completes after the last comma and keeps NAME," {
	run screen "wqctl --sysroot $R show -o NAME,C" Tab
	assert_line "$ wqctl --sysroot $R show -o NAME,CPUS"
	run screen "wqctl --sysroot $R show -o +EF" Tab
	assert_line "$ wqctl --sysroot $R show -o +EFFECTIVE_CPUS"
}

@test "tmux bash: ATTR= values: affinity_scope=, affinity_strict=, knob default_affinity_scope=" {
	run screen "wqctl --sysroot $R set writeback affinity_scope=ca" Tab X
	assert_line "$ wqctl --sysroot $R set writeback affinity_scope=cache X"
	run screen "wqctl --sysroot $R set writeback affinity_strict=" Tab Tab
	assert_line --regexp '^0 +1$'
	run screen "wqctl --sysroot $R knob default_affinity_scope=n" Tab X
	assert_line "$ wqctl --sysroot $R knob default_affinity_scope=numa X"
	# an attribute name ends in '=', with no space: the value follows
	run screen "wqctl --sysroot $R set writeback cpum" Tab X
	assert_line "$ wqctl --sysroot $R set writeback cpumask=X"
	# 6.18 has no numa attribute (up to 6.5 only): 'n' is nice= alone
	run screen "wqctl --sysroot $R set writeback n" Tab X
	assert_line "$ wqctl --sysroot $R set writeback nice=X"
	# cpumask=local needs an owner device: offered for kcryptd, not for writeback (issue 45)
	run screen "wqctl --sysroot $R set kcryptd-253:0-1 cpumask=lo" Tab X
	assert_line "$ wqctl --sysroot $R set kcryptd-253:0-1 cpumask=local X"
	run screen "wqctl --sysroot $R set writeback cpumask=" Tab Tab
	assert_output --partial "housekeeping"
	refute_output --partial "local"
}

@test "tmux bash: a workqueue name gets its trailing space, ':' in a name included; monitor offers names" {
	run screen "wqctl --sysroot $R show writeb" Tab X
	assert_line "$ wqctl --sysroot $R show writeback X"
	run screen "wqctl --sysroot $R show kcryptd-253:1" Tab X
	assert_line "$ wqctl --sysroot $R show kcryptd-253:1-1 X"
	run screen "wqctl --sysroot $R monitor writeb" Tab X
	assert_line "$ wqctl --sysroot $R monitor writeback X"
}

@test "tmux bash: show --<TAB><TAB> lists each option once" {
	run screen "wqctl --sysroot $R show --" Tab Tab
	# the listing, not the typed line
	list=$(grep -v '^\$ ' <<<"$output")
	assert_equal "$(grep -o -- '--output ' <<<"$list" | wc -l)" 1
	assert_equal "$(grep -o -- '--sysroot ' <<<"$list" | wc -l)" 1
	assert_output --partial "--output-all"
}

@test "tmux bash: knob offers only the knobs this kernel has (Debian 6.12: no watchdog_thresh)" {
	run screen "wqctl --sysroot $R612 knob " Tab Tab
	assert_output --partial "default_affinity_scope="
	refute_output --partial "watchdog_thresh"
	refute_output --partial "panic_on_stall"
	# read-only knobs print, but take no '='
	assert_output --partial "cpumask_requested"
	refute_output --partial "cpumask_requested="
}

@test "tmux zsh: the same -o, ATTR= and workqueue-name completions" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	local zs=$S-zsh zf=$BATS_FILE_TMPDIR/zfunc
	mkdir -p "$zf" && cp "$TOP/completions/_wqctl" "$zf/"
	tmux -L "$SOCK" new-session -d -s "$zs" -x 230 -y 50 \
		"env -i HOME=$BATS_FILE_TMPDIR TERM=xterm ASAN_OPTIONS=detect_leaks=0 PATH=$BIN:/usr/bin:/bin zsh -f" \
		3>&- </dev/null >/dev/null 2>&1
	sleep 0.5
	tmux -L "$SOCK" send-keys -t "$zs" "fpath=($zf \$fpath); autoload -Uz compinit; compinit -u; PS1='%% '" Enter
	prompt "$zs" '%'
	S=$zs run screen "wqctl --sysroot $R show -o NAME,C" Tab
	assert_line "% wqctl --sysroot $R show -o NAME,CPUS"
	S=$zs run screen "wqctl --sysroot $R set writeback affinity_scope=ca" Tab X
	assert_line "% wqctl --sysroot $R set writeback affinity_scope=cache X"
	S=$zs run screen "wqctl --sysroot $R monitor writeb" Tab X
	assert_line "% wqctl --sysroot $R monitor writeback X"
	tmux -L "$SOCK" kill-session -t "$zs"
}

@test "fish: the same -o, ATTR= and workqueue-name completions (complete -C)" {
	command -v fish >/dev/null || skip "fish is not installed"
	export ASAN_OPTIONS=detect_leaks=0
	run env PATH="$BIN:$PATH" fish -c "source $TOP/completions/wqctl.fish
		complete -C 'wqctl --sysroot $R show -o NAME,C'
		complete -C 'wqctl --sysroot $R set writeback affinity_scope=ca'
		complete -C 'wqctl --sysroot $R monitor writeb'"
	assert_line --regexp '^NAME,CPUS'
	assert_line --regexp '^affinity_scope=cache'
	assert_line --regexp '^writeback'
}

@test "tmux bash: experiment completes its options, metrics, profiles and, after --, the workload" {
	run screen "wqctl --sysroot $R experiment --metric fio:write.c" Tab X
	assert_line "$ wqctl --sysroot $R experiment --metric fio:write.clat_p99 X"
	run screen "wqctl --sysroot $R experiment --better l" Tab X
	assert_line "$ wqctl --sysroot $R experiment --better lower X"
	run screen "wqctl --sysroot $R experiment --profile cpu-partitioning,no" Tab X
	assert_line "$ wqctl --sysroot $R experiment --profile cpu-partitioning,noneX"
	run screen "wqctl --sysroot $R experiment --set 'writeback max_active=8,64' --ru" Tab X
	assert_line "$ wqctl --sysroot $R experiment --set 'writeback max_active=8,64' --runs X"
	# after --, bash's own completion of the workload: a command name, then its files
	run screen "wqctl --sysroot $R experiment --set 'writeback max_active=8,64' -- wqct" Tab X
	assert_line "$ wqctl --sysroot $R experiment --set 'writeback max_active=8,64' -- wqctl X"
}
