#!/bin/bash
# Cost on big machines and many devices (issue 15). On trees made by
# tests/fixtures/mkscale.sh — 1,250 and 10,000 workqueues (x8) on 64 CPUs
# (4 nodes), 1,024 CPUs (8 nodes) and 8,192 CPUs (32 nodes, x8), SMT 2, one
# last-level cache per node — each command's wall time and peak RSS as a
# ratio to a floor measured in the same run, on the same tree
# (bench/scalefloor: the topology files, then the files the command needs):
#   show, show -J, check        every workqueue's attributes
#   explain scale-7             that workqueue's attributes
#   verify, apply (no change)   the workqueues the 100-section profile names,
#                               the profile, their owner devices
#   apply (writes)              the same, then the same files rewritten
# Each wall ratio is the median, over the rounds, of the command's time over
# the floor's in that round. Then the growth of each when the workqueues or
# the CPUs are multiplied by 8, with the floor's growth beside it; growth
# over the floor's is the ratio to the floor on 8,192 CPUs over the one on
# 1,024. Targets: every wall ratio <= 1.5, x8 workqueues <= x9 time, x8
# CPUs no worse than the floor's growth.
#   bench/scale.sh [WQCTL]      (default: build/wqctl, the plain build)
# RUNS (default 21) timed rounds per tree; RSS_RUNS (3).
# shellcheck disable=SC2034 # cmd_* and label_* are read by bench_run
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-21}
export INSTRUCTIONS=0 RSS_RUNS=${RSS_RUNS:-3}
bench_setup
wqctl=${1:-$top/build/wqctl}
cc -O2 -o "$tmp/scalefloor" "$top/bench/scalefloor.c"

# Two 100-section profiles, the same but for max_active: applying one after
# the other writes the same files every time. Exact names, globs, owner.*.
profile() { # MAX_ACTIVE_OFFSET
	local o=$1 i n
	for ((i = 0; i < 60; i++)); do printf '[workqueue scale-%d]\nmax_active = %d\n' "$i" $((16 + o)); done
	for ((n = 0; n < 4; n++)); do printf '[workqueue scale-node%d-*]\naffinity_scope = numa\nmax_active = %d\n' "$n" $((16 + o)); done
	for ((i = 0; i < 10; i++)); do printf '[workqueue scale-percpu-%d]\nmax_active = %d\n' "$i" $((64 + o)); done
	for ((i = 0; i < 20; i++)); do
		printf '[workqueue kcryptd-253:%d-*]\nowner.DM_NAME = luks-vol%d\ncpumask = local\nmax_active = %d\n' "$i" "$i" $((32 + o))
	done
	printf '[workqueue kcryptd-*]\nowner.DM_UUID = CRYPT-LUKS2-*\naffinity_scope = numa\n'
	# by last digit: a glob on the first digit (scale-1*) matches a share that
	# grows with the count (111 of 1,000 names, 1,111 of 8,000), which made
	# the profile's work 9.4x for 8x the workqueues
	for ((i = 1; i <= 5; i++)); do printf '[workqueue scale-*%d]\nnice = -%d\n' "$i" "$i"; done
}
mkdir -p "$tmp/profiles"
profile 0 >"$tmp/profiles/big-a.conf"
profile 1 >"$tmp/profiles/big-b.conf"
[ "$(grep -c '^\[' "$tmp/profiles/big-a.conf")" = 100 ] || { echo "scale: the profile does not have 100 sections" >&2; exit 1; }

# the max_active files profile B writes after A, from the tree's names (not wqctl)
writes() { # ROOT
	local w=$1/sys/devices/virtual/workqueue n
	for n in "$w"/*/; do
		n=${n%/} n=${n##*/}
		case $n in
		scale-[0-9] | scale-[1-5][0-9]) printf 'sys/devices/virtual/workqueue/%s/max_active\t17\n' "$n" ;;
		scale-node*) printf 'sys/devices/virtual/workqueue/%s/max_active\t17\n' "$n" ;;
		scale-percpu-[0-9]) printf 'sys/devices/virtual/workqueue/%s/max_active\t65\n' "$n" ;;
		kcryptd-253:[0-9]-* | kcryptd-253:1[0-9]-*) printf 'sys/devices/virtual/workqueue/%s/max_active\t33\n' "$n" ;;
		esac
	done
}

ok() { # RC_ALLOWED COMMAND...: run once, fail the benchmark unless it exits so
	local want=$1 rc=0
	shift
	"$@" >/dev/null 2>"$tmp/err" || rc=$?
	[[ " $want " == *" $rc "* ]] || { echo "scale: '$*' exited $rc: $(head -c 300 "$tmp/err")" >&2; exit 1; }
}

res=$tmp/results # TREE NAME WALL_NS RSS_KB FLOOR_WALL_NS FLOOR_RSS_KB WALL_RATIO
: >"$res"
# WALL_RATIO: the median over rounds of the command's time over the floor's
# in the same round (they run back to back), which a slow spell of the
# machine moves less than the ratio of the two medians does.
record() { # TREE FLOOR NAME...
	local t=$1 f=$2 n
	shift 2
	for n in "$@"; do
		echo "$t $n $(cat "$tmp/wall.$n") $(cat "$tmp/rss.$n") $(cat "$tmp/wall.$f") $(cat "$tmp/rss.$f")" \
			"$(paste "$tmp/t.$n" "$tmp/t.$f" | awk '{ print $1 / $2 }' | sort -g |
				awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')" >>"$res"
	done
}

for spec in 64:4 1024:8 8192:32; do
	cpus=${spec%:*} nodes=${spec#*:}
	for wqs in 1250 10000; do
		t=${cpus}x$wqs r=$tmp/tree
		rm -rf "$r"
		"$top/tests/fixtures/mkscale.sh" -c "$cpus" -n "$nodes" -t 2 -l 1 -w "$wqs" "$r"
		W=("$wqctl" --sysroot "$r" --profile-dir "$tmp/profiles")
		ok 0 "${W[@]}" apply --profile big-a
		writes "$r" >"$tmp/list"

		cmd_fall=("$tmp/scalefloor" "$r")
		cmd_show=("${W[@]}" show)
		cmd_json=("${W[@]}" show -J)
		cmd_check=("${W[@]}" check)
		cmd_fone=("$tmp/scalefloor" "$r" -w scale-7)
		cmd_explain=("${W[@]}" explain scale-7)
		cmd_fprof=("$tmp/scalefloor" "$r" -p "$tmp/profiles/big-a.conf" -o)
		cmd_verify=("${W[@]}" verify --profile big-a)
		cmd_noop=("${W[@]}" apply --profile big-a)
		cmd_fwrite=("$tmp/scalefloor" "$r" -p "$tmp/profiles/big-a.conf" -o -W "$tmp/list")
		cmd_applya=("${W[@]}" apply --profile big-a)
		cmd_applyb=("${W[@]}" apply --profile big-b)
		ok 0 "${cmd_show[@]}"
		ok 0 "${cmd_json[@]}"
		ok "0 3" "${cmd_check[@]}"
		ok 0 "${cmd_explain[@]}"
		ok 0 "${cmd_verify[@]}"
		ok 0 "${cmd_noop[@]}"

		bench_run fall show json check
		record "$t" fall show json check
		bench_run fone explain
		record "$t" fone explain
		bench_run fprof verify noop
		record "$t" fprof verify noop
		# every round: the floor writes B's values, apply A writes A's, apply B writes B's
		bench_run fwrite applya applyb
		record "$t" fwrite applya applyb
		ok 0 "${W[@]}" verify --profile big-b
		echo "# $t: $cpus CPUs, $nodes nodes, $wqs workqueues: measured" >&2
		rm -rf "$r"
	done
done
cp "$res" "${SCALE_RESULTS:-/dev/null}"

label() {
	case $1 in
	show) echo "show" ;; json) echo "show -J" ;; check) echo "check" ;; explain) echo "explain WQ" ;;
	verify) echo "verify (100 sections)" ;; noop) echo "apply, nothing to change" ;;
	applya) echo "apply, writes" ;; applyb) echo "apply, writes (other)" ;;
	esac
}
echo "Wall time and peak RSS as ratios to the floor (same tree, same run); wall: the median of $RUNS rounds' ratios"
printf '%-26s' command
for spec in 64 1024 8192; do for w in 1250 10000; do printf ' %14s' "${spec}cpu/${w}wq"; done; done
echo
for n in show json check explain verify noop applya applyb; do
	printf '%-26s' "$(label $n)"
	for spec in 64 1024 8192; do
		for w in 1250 10000; do
			awk -v t="${spec}x$w" -v n="$n" '$1 == t && $2 == n { printf " %6.2fx %5.2fx", $7, $4 / $6 }' "$res"
		done
	done
	echo
done
echo "(each cell: wall ratio, then peak RSS ratio)"
echo
echo "Growth: time(x8) / time, wqctl and its floor"
printf '%-26s %22s %22s %22s %22s\n' command "x8 wq @64cpu" "x8 wq @8192cpu" "x8 cpu @1250wq" "x8 cpu @10000wq"
for n in show json check explain verify noop applya applyb; do
	printf '%-26s' "$(label $n)"
	for pair in 64x1250:64x10000 8192x1250:8192x10000 1024x1250:8192x1250 1024x10000:8192x10000; do
		awk -v a="${pair%:*}" -v b="${pair#*:}" -v n="$n" '
			$1 == a && $2 == n { wa = $3; fa = $5 }
			$1 == b && $2 == n { wb = $3; fb = $5 }
			END { printf " %9.2fx (floor %5.2fx)", wb / wa, fb / fa }' "$res"
	done
	echo
done
awk '
	{ r = $7; if (r > worst) { worst = r; at = $1 " " $2 } }
	END { printf "\nworst wall ratio: %.2fx (%s); target <= 1.5x\n", worst, at }' "$res"
# the growth targets, each as its worst cell: x8 workqueues, and x8 CPUs against the floor's growth
awk '
	{ w[$1 " " $2] = $3; f[$1 " " $2] = $5; r[$1 " " $2] = $7; names[$2] = 1 }
	END {
		for (n in names) {
			for (c = 1; c <= 2; c++) {
				cpu = c == 1 ? 64 : 8192
				g = w[cpu "x10000 " n] / w[cpu "x1250 " n]
				if (g > gw) { gw = g; atw = n " @" cpu "cpu"; fw = f[cpu "x10000 " n] / f[cpu "x1250 " n] }
				g = r[cpu "x10000 " n] / r[cpu "x1250 " n]
				if (g > gr) { gr = g; atr = n " @" cpu "cpu" }
			}
			for (c = 1; c <= 2; c++) {
				wq = c == 1 ? 1250 : 10000
				# growth over the floor: the ratio to the floor at 8,192 CPUs over the one at 1,024
				g = r["8192x" wq " " n] / r["1024x" wq " " n]
				if (g > gc) { gc = g; atc = n " @" wq "wq" }
			}
		}
		printf "worst growth for x8 workqueues: %.2fx (%s; its floor %.2fx); target <= 9x\n", gw, atw, fw
		printf "worst growth for x8 workqueues over the floor'"'"'s (wall ratio at 10000 / at 1250): %.2fx (%s)\n", gr, atr
		printf "worst growth for x8 CPUs over the floor'"'"'s (wall ratio at 8192 CPUs / at 1024): %.2fx (%s); target <= 1.00x\n", gc, atc
	}' "$res"
