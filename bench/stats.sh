#!/bin/bash
# The error rates of experiment's verdicts (issue 62), measured through the
# real path: `wqctl experiment --save`, then `--compare`, on a fixture tree,
# with bench/simwork as the workload (a metric drawn from a seeded
# distribution, better higher). For each distribution and run count:
#   A/A   nothing changes between --save and --compare: every "regressed"
#         (exit 3) is a false alarm;
#   A/B   the metric is 10% lower at --compare: every "regressed" is found.
#   drift two settings (writeback max_active=8,64), both 20% lower at
#         --compare, as when the machine changed between the two: a
#         "regressed" blames the settings for it;
#   one   the same two settings, only max_active=8 10% lower: a
#         "regressed" finds it (the cost of telling the machine apart).
# TRIALS (default 200) seeded comparisons each; the seeds are 1..TRIALS, so a
# run repeats exactly. Prints one table: each cell the share of comparisons
# that said "regressed". DISTS and RUNS_LIST choose the cells (see below);
# LABEL names the build in the header (default: the commit).
#   bench/stats.sh [WQCTL]      (default: build/wqctl)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
wqctl=${1:-$top/build/wqctl}
TRIALS=${TRIALS:-200}
RUNS_LIST=${RUNS_LIST:-"3 5 10 30"}
DISTS=${DISTS:-"normal:0.03 normal:0.10 lognormal:0.10 bimodal:0.05 outlier:0.03"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/simwork" "$top/bench/simwork.c" -lm

# one job: DIST CV RUNS KIND -> "DIST CV RUNS KIND REGRESSED TRIALS" in $tmp/res.*
job() {
	local dist=$1 cv=$2 runs=$3 kind=$4 t rc n=0 root=$tmp/tree.$1.$2.$3.$4 s shift only=
	local -a axis=()
	"$top/tests/fixtures/mktree.sh" synth:1:2:1:1 6.18.0 "$root"
	s=$root/sim
	mkdir -p "$s"
	shift=1
	case $kind in
	ab) shift=0.9 ;;
	drift) shift=0.8 axis=(--set 'writeback max_active=8,64') ;;
	one) shift=0.9 only=8 axis=(--set 'writeback max_active=8,64') ;;
	esac
	for ((t = 1; t <= TRIALS; t++)); do
		rm -f "$s/count"
		echo "$dist $cv $t 1" >"$s/params"
		"$wqctl" --sysroot "$root" -q experiment "${axis[@]}" --runs "$runs" --seed "$t" \
			--metric 're:value: ([0-9.]+)' --save "t$t" -- "$tmp/simwork" "$s" \
			"$root/sys/devices/virtual/workqueue/writeback/max_active" >/dev/null 2>&1 ||
			{ echo "stats: $dist $cv $runs $kind: --save of trial $t failed" >&2; exit 1; }
		echo "$dist $cv $t $shift $only" >"$s/params"
		rc=0
		"$wqctl" --sysroot "$root" -q experiment --compare "t$t" --seed "$((t + 100000))" >/dev/null 2>&1 || rc=$?
		case $rc in 0) ;; 3) n=$((n + 1)) ;; *) echo "stats: $dist $cv $runs $kind: --compare of trial $t exited $rc" >&2; exit 1 ;; esac
	done
	echo "$dist $cv $runs $kind $n $TRIALS" >"$tmp/res.$dist.$cv.$runs.$kind"
	rm -rf "$root"
}
export -f job
export top wqctl tmp TRIALS

for d in $DISTS; do
	for r in $RUNS_LIST; do
		for k in aa ab drift one; do echo "${d%:*} ${d#*:} $r $k"; done
	done
done | xargs -P "$(nproc)" -L 1 bash -c 'job "$@"' _

echo "Share of --compare verdicts 'regressed' (exit 3), $TRIALS seeded comparisons a cell, ${LABEL:-$(git -C "$top" rev-parse --short HEAD 2>/dev/null)}"
echo "A/A: no change (false alarms; at most 5% wanted); A/B: 10% lower (found; at least 90% wanted at the documented"
echo "run count); drift: two settings both 20% lower (blamed on the settings); one: of two settings one 10% lower (found)"
printf '%-16s %5s %8s %8s %8s %8s\n' distribution runs "A/A" "A/B" drift one
for d in $DISTS; do
	for r in $RUNS_LIST; do
		printf '%-16s %5s' "${d%:*} ${d#*:}" "$r"
		for k in aa ab drift one; do
			awk '{ printf " %7.1f%%", 100 * $5 / $6 }' "$tmp/res.${d%:*}.${d#*:}.$r.$k"
		done
		echo
	done
done
