#!/bin/bash
# Cost of listing: `wqctl show` (default columns, and -J) against a floor
# measured in the same run: bench/showfloor (exec + read every workqueue's
# attribute files, one line each). On the live system and on the largest
# fixture (x86_64-64cpu with the owner devices of tests/fixtures/mkowners.sh).
# show does more than the floor: the topology behind MAX_INFLIGHT and the
# owner devices; the ratios are what that costs.
#   bench/show.sh [WQCTL]      (default: build/wqctl, the plain build)
# shellcheck disable=SC2034 # cmd_* and label_* are read by bench_run/bench_print
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup
wqctl=${1:-$top/build/wqctl}
cc -O2 -o "$tmp/showfloor" "$top/bench/showfloor.c"
"$top/tests/fixtures/mktree.sh" x86_64-64cpu 6.18.0 "$tmp/root" >/dev/null
"$top/tests/fixtures/mkowners.sh" "$tmp/root"

cmd_lfloor=("$tmp/showfloor" "")
label_lfloor="live: floor ($("${cmd_lfloor[@]}" | wc -l) workqueues)"
cmd_lshow=("$wqctl" show)
label_lshow="live: wqctl show"
cmd_ljson=("$wqctl" show -J)
label_ljson="live: wqctl show -J"
cmd_ffloor=("$tmp/showfloor" "$tmp/root")
label_ffloor="fixture: floor ($("${cmd_ffloor[@]}" | wc -l) workqueues)"
cmd_fshow=("$wqctl" --sysroot "$tmp/root" show)
label_fshow="fixture: wqctl show"
cmd_fjson=("$wqctl" --sysroot "$tmp/root" show -J)
label_fjson="fixture: wqctl show -J"
"${cmd_fshow[@]}" >/dev/null || { echo "show: wqctl failed" >&2; exit 1; }

bench_run lfloor lshow ljson ffloor fshow fjson
bench_print lfloor lshow ljson
echo
bench_print ffloor fshow fjson
