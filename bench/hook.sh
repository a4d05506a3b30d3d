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

# At scale (issue 15): a dm-crypt volume's workqueue appears among 2,000
# owner workqueues (1,000 volumes), and among 10 (5 volumes). The profile
# matches by owner (owner.DM_UUID) and places by it (cpumask = local): the
# event must cost the same in both, as it looks up its own workqueue and
# owner only. Floor: bench/floor reading that workqueue's attributes.
"$top/tests/fixtures/mkscale.sh" -c 64 -n 4 -w 110 -d 5 "$tmp/r10"
"$top/tests/fixtures/mkscale.sh" -c 64 -n 4 -w 2100 -d 1000 "$tmp/r2000"
printf '[workqueue kcryptd-*]\nowner.DM_UUID = CRYPT-LUKS2-*\ncpumask = local\nmax_active = 16\n' >"$tmp/profiles/own.conf"
export DEVPATH=/devices/virtual/workqueue/kcryptd-253:3-1
for n in r10 r2000; do
	"$wqctl" --sysroot "$tmp/$n" --profile-dir "$tmp/profiles" apply --udev --profile own ||
		{ echo "hook: wqctl failed on $n" >&2; exit 1; }
done
cmd_floor10=("$tmp/floor" "$tmp/r10" kcryptd-253:3-1)
label_floor10="floor, 10 owner workqueues"
cmd_hook10=("$wqctl" --sysroot "$tmp/r10" --profile-dir "$tmp/profiles" apply --udev --profile own)
label_hook10="apply --udev, 10 owner workqueues"
cmd_floor2000=("$tmp/floor" "$tmp/r2000" kcryptd-253:3-1)
label_floor2000="floor, 2,000 owner workqueues"
cmd_hook2000=("$wqctl" --sysroot "$tmp/r2000" --profile-dir "$tmp/profiles" apply --udev --profile own)
label_hook2000="apply --udev, 2,000 owner workqueues"
bench_run floor10 hook10 floor2000 hook2000
echo
bench_print floor10 hook10
bench_print floor2000 hook2000
paste "$tmp/wall.hook2000" "$tmp/wall.hook10" "$tmp/ins.hook2000" "$tmp/ins.hook10" |
	awk '{ printf "2,000 owner workqueues to 10: wall %.2fx, instructions %.2fx (target: 1.00x, within noise)\n", $1 / $2, $3 / $4 }'
