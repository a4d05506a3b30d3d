#!/bin/bash
# Cost of one udev event on the hook path: `wqctl apply --udev` for a
# workqueue whose profile has no owner rules (and nothing to change),
# against a floor measured in the same run: bench/floor (exec + read that
# workqueue's attribute files); /bin/true shows exec alone. bench/minhook is
# a second reference: the floor plus what any hook on the system inih must
# do (check the variables, parse the profile, match by name); its ratio
# shows how much of the distance to the floor is the dynamic loader and
# inih rather than wqctl. Target (issue 5): within 1.3x of the floor.
#   bench/hook.sh [WQCTL]      (default: build/wqctl, the plain build)
# shellcheck disable=SC2034 # cmd_* and label_* are read by bench_run/bench_print
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup
wqctl=${1:-$top/build/wqctl}
cc -O2 -o "$tmp/floor" "$top/bench/floor.c"
# shellcheck disable=SC2046
cc -O2 -o "$tmp/minhook" "$top/bench/minhook.c" $(pkg-config --cflags --libs inih)
"$top/tests/fixtures/mktree.sh" vmware_fpe 6.18.0 "$tmp/root" >/dev/null
mkdir -p "$tmp/profiles"
# rules for other workqueues and for writeback at its current values: nothing to write
printf '[workqueue writeback]\nmax_active = 1024\nnice = 0\n[workqueue kcryptd-*]\nnice = -1\n' >"$tmp/profiles/p.conf"
export ACTION=add SUBSYSTEM=workqueue DEVPATH=/devices/virtual/workqueue/writeback

cmd_floor=("$tmp/floor" "$tmp/root" writeback)
label_floor="floor (exec + read attributes)"
cmd_true=(/bin/true)
label_true="/bin/true (exec alone)"
cmd_min=("$tmp/minhook" "$tmp/root" "$tmp/profiles/p.conf")
label_min="minhook (floor + inih parse)"
cmd_hook=("$wqctl" --sysroot "$tmp/root" --profile-dir "$tmp/profiles" apply --udev --profile p)
label_hook="wqctl apply --udev"
"${cmd_hook[@]}" || { echo "hook: wqctl failed" >&2; exit 1; }
"${cmd_min[@]}" || { echo "hook: minhook failed" >&2; exit 1; }

bench_run floor true min hook
bench_print floor true min hook
