#!/bin/bash
# Cost of one udev event on the hook path: `wqctl apply --udev` for a
# workqueue whose profile has no owner rules (and nothing to change),
# against a floor measured in the same run: bench/floor (exec + read that
# workqueue's attribute files) and /bin/true (exec alone). bench/minhook is
# a second reference: the floor plus what any hook on the system inih must
# do (check the variables, parse the profile, match by name); its ratio
# shows how much of the distance to the floor is the dynamic loader and
# inih rather than wqctl.
# Prints the median of 15 batch means of wall time (RUNS runs in all, timed
# per batch so the timer's own cost does not count; the commands' batches
# interleaved) and instruction counts (callgrind, exact and repeatable),
# each as a ratio to the floor.
#   bench/hook.sh [WQCTL]      (default: build/wqctl, the plain build)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
wqctl=${1:-$top/build/wqctl}
runs=${RUNS:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/floor" "$top/bench/floor.c"
# shellcheck disable=SC2046
cc -O2 -o "$tmp/minhook" "$top/bench/minhook.c" $(pkg-config --cflags --libs inih)
"$top/tests/fixtures/mktree.sh" vmware_fpe 6.18.0 "$tmp/root" >/dev/null
mkdir -p "$tmp/profiles"
# rules for other workqueues and for writeback at its current values: nothing to write
printf '[workqueue writeback]\nmax_active = 1024\nnice = 0\n[workqueue kcryptd-*]\nnice = -1\n' >"$tmp/profiles/p.conf"
export ACTION=add SUBSYSTEM=workqueue DEVPATH=/devices/virtual/workqueue/writeback
hook=("$wqctl" --sysroot "$tmp/root" --profile-dir "$tmp/profiles" apply --udev --profile p)
floor=("$tmp/floor" "$tmp/root" writeback)
minhook=("$tmp/minhook" "$tmp/root" "$tmp/profiles/p.conf")
"${hook[@]}" || { echo "hook: wqctl failed" >&2; exit 1; }
"${minhook[@]}" || { echo "hook: minhook failed" >&2; exit 1; }

# One batch: the mean wall time per run of a command, in ns.
batch_ns() {
	local i t0 t1 per=$((runs / 15 + 1))
	t0=$(date +%s%N)
	for ((i = 0; i < per; i++)); do "$@" >/dev/null 2>&1; done
	t1=$(date +%s%N)
	echo $(((t1 - t0) / per))
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# 15 rounds, each timing one batch of every command in turn, so that a slow
# spell of the machine falls on all of them alike; then each one's median.
for ((b = 0; b < 15; b++)); do
	batch_ns /bin/true >>"$tmp/t.true"
	batch_ns "${floor[@]}" >>"$tmp/t.floor"
	batch_ns "${minhook[@]}" >>"$tmp/t.min"
	batch_ns "${hook[@]}" >>"$tmp/t.hook"
done
instructions() { # command...: instructions executed (callgrind, whole process)
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >/dev/null 2>&1 || true
	awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}

t_true=$(median <"$tmp/t.true")
t_floor=$(median <"$tmp/t.floor")
t_min=$(median <"$tmp/t.min")
t_hook=$(median <"$tmp/t.hook")
i_true=$(instructions /bin/true)
i_floor=$(instructions "${floor[@]}")
i_min=$(instructions "${minhook[@]}")
i_hook=$(instructions "${hook[@]}")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
printf '%-34s %12s %14s\n' "command" "median_us" "instructions"
printf '%-34s %12.1f %14d\n' "/bin/true (exec cost)" "$(awk -v t="$t_true" 'BEGIN{print t/1000}')" "$i_true"
printf '%-34s %12.1f %14d\n' "floor (exec + read attributes)" "$(awk -v t="$t_floor" 'BEGIN{print t/1000}')" "$i_floor"
printf '%-34s %12.1f %14d\n' "minhook (floor + inih parse)" "$(awk -v t="$t_min" 'BEGIN{print t/1000}')" "$i_min"
printf '%-34s %12.1f %14d\n' "wqctl apply --udev" "$(awk -v t="$t_hook" 'BEGIN{print t/1000}')" "$i_hook"
echo "minhook to floor: wall $(ratio "$t_min" "$t_floor")x, instructions $(ratio "$i_min" "$i_floor")x"
echo "ratio to floor: wall $(ratio "$t_hook" "$t_floor")x, instructions $(ratio "$i_hook" "$i_floor")x (target: 1.3x)"
