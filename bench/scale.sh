#!/bin/bash
# Cost on big machines and many devices (issue 15). On trees made by
# tests/fixtures/mkscale.sh — 1,250 and 10,000 workqueues (x8) on 64 CPUs
# (4 nodes), 1,024 CPUs (8 nodes) and 8,192 CPUs (32 nodes, x8), SMT 2, one
# last-level cache per node, 6 kernel threads per CPU under proc/ (49,000 on
# 8,192 CPUs, which plain show must not read) — each command's wall time and peak RSS as a
# ratio to a floor measured in the same run, on the same tree
# (bench/scalefloor: the topology files, then the files the command needs):
#   show, show -J, check        every workqueue's attributes
#   show --outside              kthreadd's children, every kernel thread's
#                               stat file
#   explain scale-7             that workqueue's attributes
#   verify, apply (no change)   the workqueues the 100-section profile names,
#                               the profile, their owner devices
#   apply (writes)              the same, then the same files rewritten
# Each wall ratio is the median, over the rounds, of the command's time over
# the floor's in that round. Then the growth of each when the workqueues or
# the CPUs are multiplied by 8, with the floor's growth beside it (the
# workqueues' from rounds that run the two trees in turn); growth
# over the floor's is the ratio to the floor on 8,192 CPUs over the one on
# 1,024, with its 95% interval (the rounds resampled), and the same growth
# in instructions (callgrind, 1,024 and 8,192 CPUs), which the
# machine's noise does not move. For show, show -J and check each tree is
# built twice and the growth pools both pairs of builds (a build's layout
# in memory moved it by up to 4%); beside it a null, the growth from each
# tree's first build to its second, which would read 1.00x if two builds
# of the same files measured alike. Targets: every wall ratio <= 1.5, x8
# workqueues <= x9 time, x8 CPUs no worse than the floor's growth.
#   bench/scale.sh [WQCTL]      (default: build/wqctl, the plain build)
# RUNS (default 21) timed rounds per tree, five times as many for explain
# (3 ms a run, where the machine's noise is larger) and for the growth with
# the CPUs on 1,250 workqueues (a growth of 0.5%); RSS_RUNS (3); INS=0: no
# callgrind. The trees go to SCALE_TREES, by default /dev/shm when it is a
# tmpfs with 4 GiB free: a file system in memory, as sysfs is. On ext4 the
# writing cells measured its journal and renames too (the floor's own time
# grew 9.02x for 8x the files written), and reads cost more than sysfs's.
# shellcheck disable=SC2034 # cmd_* and label_* are read by bench_run
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
RUNS=${RUNS:-21}
export INSTRUCTIONS=0 RSS_RUNS=${RSS_RUNS:-3}
bench_setup
wqctl=${1:-$top/build/wqctl}
if [ -z "${SCALE_TREES:-}" ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
	[ "$(df -P -k /dev/shm | awk 'NR == 2 { print $4 }')" -ge $((4 << 20)) ]; then
	SCALE_TREES=/dev/shm
fi
trees_in=$(mktemp -d -p "${SCALE_TREES:-$tmp}" wqctl-scale.XXXXXX)
trap 'rm -rf "$tmp" "$trees_in"' EXIT
echo "# trees in $trees_in ($(stat -f -c %T "$trees_in"))" >&2
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

res=$tmp/results # TREE NAME WALL_NS RSS_KB FLOOR_WALL_NS FLOOR_RSS_KB WALL_RATIO FAULTS FLOOR_FAULTS
: >"$res"
# WALL_RATIO: the median over rounds of the command's time over the floor's
# in the same round (they run back to back), which a slow spell of the
# machine moves less than the ratio of the two medians does. Each round's
# ratio is kept in round order (rr.TREE.NAME).
record() { # TREE SUFFIX FLOOR NAME...: the commands NAME_SUFFIX against FLOOR_SUFFIX
	local t=$1 c=$2 f=$3 n
	shift 3
	for n in "$@"; do
		paste "$tmp/t.${n}_$c" "$tmp/t.${f}_$c" | awk '{ print $1 / $2 }' >"$tmp/rr.$t.$n"
		echo "$t $n $(cat "$tmp/wall.${n}_$c") $(cat "$tmp/rss.${n}_$c") $(cat "$tmp/wall.${f}_$c")" \
			"$(cat "$tmp/rss.${f}_$c") $(sort -g "$tmp/rr.$t.$n" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')" \
			"$(cat "$tmp/flt.${n}_$c") $(cat "$tmp/flt.${f}_$c")" >>"$res"
	done
}
each() { # NAME...: NAME_TREE for each of trees, in order
	local c n
	for c in "${trees[@]}"; do for n in "$@"; do echo "${n}_$c"; done; done
}

# Instructions (callgrind: exact and repeatable) on the trees of 1,024 and
# 8,192 CPUs, where wall time cannot tell a growth of 1% from the machine's
# noise (half a minute a run for show with 10,000 workqueues). INS=0 skips them.
ins=$tmp/ins # TREE NAME INSTRUCTIONS
: >"$ins"
INS=${INS:-1}
if [ "$INS" = 1 ] && ! command -v valgrind >/dev/null; then
	echo "scale: no valgrind: the instruction counts are skipped" >&2
	INS=0
fi
count() { # TREE SUFFIX NAME...
	local t=$1 sfx=$2 n c
	shift 2
	for n in "$@"; do
		c="cmd_${n}_${sfx}[@]"
		echo "$t $n $(_instructions "${!c}")" >>"$ins"
	done
}

# the growth with the workqueues from paired rounds: a command's time on the
# 10,000-workqueue tree over its time on the 1,250 one in the same round,
# the median over the rounds (wg.CPUS.NAME)
wq_record() { # CPUS NAME...
	local c=$1 n
	shift
	for n in "$@"; do
		paste "$tmp/t.${n}_${c}x1250" "$tmp/t.${n}_${c}x10000" | awk '{ print $2 / $1 }' | sort -g |
			awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' >"$tmp/wg.$c.$n"
	done
}
floor_of() { # NAME: the floor it is measured against
	case $1 in show | json | check) echo fall ;; outside) echo fout ;; explain) echo fone ;; verify | noop) echo fprof ;; *) echo fwrite ;; esac
}

# the per-round ratios of the paired rounds (growth with the CPUs), a file
# per tree of trees (pr.CPUS.WQS.NAME; CPUS 1024n and 8192n for the second builds)
pair_record() { # WQS FLOOR NAME...
	local w=$1 f=$2 n c
	shift 2
	for n in "$@"; do
		for c in "${trees[@]%x*}"; do
			paste "$tmp/t.${n}_${c}x$w" "$tmp/t.${f}_${c}x$w" | awk '{ print $1 / $2 }' >"$tmp/pr.$c.$w.$n"
		done
	done
}

declare -A nodes_of=([64]=4 [1024]=8 [8192]=32)
# Build tree NAME (CPUS, WQS workqueues), apply profile A to it and define its
# commands cmd_*_NAME; sets r (its root) and W (wqctl on it).
build_tree() { # NAME CPUS WQS
	local t=$1
	r=$trees_in/tree.$t
	rm -rf "$r"
	"$top/tests/fixtures/mkscale.sh" -c "$2" -n "${nodes_of[$2]}" -t 2 -l 1 -w "$3" "$r"
	W=("$wqctl" --sysroot "$r" --profile-dir "$tmp/profiles")
	ok 0 "${W[@]}" apply --profile big-a
	writes "$r" >"$tmp/list.$t"
	# the tree's files written back before any round: a run measured the
	# first tree's show at 1.50x its floor while the kernel flushed them
	# (1.20x with the tree on disk)
	sync

	declare -ga "cmd_fall_$t=(\"\$tmp/scalefloor\" \"\$r\")"
	declare -ga "cmd_show_$t=(\"\${W[@]}\" show)"
	declare -ga "cmd_json_$t=(\"\${W[@]}\" show -J)"
	declare -ga "cmd_check_$t=(\"\${W[@]}\" check)"
	declare -ga "cmd_fout_$t=(\"\$tmp/scalefloor\" \"\$r\" -k)"
	declare -ga "cmd_outside_$t=(\"\${W[@]}\" show --outside)"
	declare -ga "cmd_fone_$t=(\"\$tmp/scalefloor\" \"\$r\" -w scale-7)"
	declare -ga "cmd_explain_$t=(\"\${W[@]}\" explain scale-7)"
	declare -ga "cmd_fprof_$t=(\"\$tmp/scalefloor\" \"\$r\" -p \"\$tmp/profiles/big-a.conf\" -o)"
	declare -ga "cmd_verify_$t=(\"\${W[@]}\" verify --profile big-a)"
	declare -ga "cmd_noop_$t=(\"\${W[@]}\" apply --profile big-a)"
	declare -ga "cmd_fwrite_$t=(\"\$tmp/scalefloor\" \"\$r\" -p \"\$tmp/profiles/big-a.conf\" -o -W \"\$tmp/list.\$t\")"
	declare -ga "cmd_applya_$t=(\"\${W[@]}\" apply --profile big-a)"
	declare -ga "cmd_applyb_$t=(\"\${W[@]}\" apply --profile big-b)"
}
for cpus in 64 1024 8192; do
	for wqs in 1250 10000; do
		t=${cpus}x$wqs
		build_tree "$t" "$cpus" "$wqs"
		ok 0 "${W[@]}" show
		ok 0 "${W[@]}" show -J
		ok 0 "${W[@]}" show --outside
		ok "0 3" "${W[@]}" check
		ok 0 "${W[@]}" explain scale-7
		ok 0 "${W[@]}" verify --profile big-a

		# this tree on its own
		trees=("$t")
		# shellcheck disable=SC2046 # one word a name
		{
			bench_run $(each fall show json check)
			record "$t" "$t" fall show json check
			bench_run $(each fout outside)
			record "$t" "$t" fout outside
			runs=$((RUNS * 5)) bench_run $(each fone explain)
			record "$t" "$t" fone explain
			bench_run $(each fprof verify noop)
			record "$t" "$t" fprof verify noop
			if [ "$INS" = 1 ] && [ "$cpus" != 64 ]; then
				count "$t" "$t" fall show json check fone explain fprof verify noop
			fi
			# every round: the floor writes B's values, apply A writes A's, apply B writes B's
			bench_run $(each fwrite applya applyb)
			record "$t" "$t" fwrite applya applyb
		}
		ok 0 "${W[@]}" verify --profile big-b
		echo "# $t: $cpus CPUs, ${nodes_of[$cpus]} nodes, $wqs workqueues: measured" >&2
		# The growth with the workqueues, from rounds that run the 1,250- and
		# the 10,000-workqueue trees in turn: timed minutes apart, a slow
		# spell of the machine on one tree had read as growth (the floor's
		# own 10.35x on 8,192 CPUs in one run).
		if [ "$wqs" = 10000 ] && [ "$cpus" != 1024 ]; then
			trees=("${cpus}x1250" "${cpus}x10000")
			# shellcheck disable=SC2046 # one word a name
			{
				RSS_RUNS=0 bench_run $(each fall show json check)
				wq_record "$cpus" fall show json check
				runs=$((RUNS * 5)) RSS_RUNS=0 bench_run $(each fone explain)
				wq_record "$cpus" fone explain
				RSS_RUNS=0 bench_run $(each fprof verify noop)
				wq_record "$cpus" fprof verify noop
				RSS_RUNS=0 bench_run $(each fwrite applya applyb)
				wq_record "$cpus" fwrite applya applyb
			}
			rm -rf "$trees_in/tree.${cpus}x1250"
			echo "# ${cpus}x1250 and ${cpus}x10000: measured in turn" >&2
		fi
		[ "$cpus" = 64 ] && [ "$wqs" = 10000 ] && rm -rf "$r"
		[ "$cpus" = 8192 ] || continue
		# The growth with the CPUs, from rounds that run the 1,024- and the
		# 8,192-CPU trees in turn (the 1,024-CPU tree is kept until now): a
		# slow spell of the machine, which can move a command's ratio to its
		# floor between runs minutes apart, falls on both trees alike.
		# On the 1,250-workqueue trees five times the rounds: a round's growth
		# spreads +-2.5% (the interquartile range) while wqctl's own work adds
		# some 0.5% to it, so 21 rounds cannot tell 1.00x from 1.01x; a round
		# there costs 0.5 s, against 4 s with 10,000.
		pr_runs=$RUNS
		[ "$wqs" = 1250 ] && pr_runs=$((RUNS * 5))
		# Each tree built a second time (1024n, 8192n), after the first two,
		# and run in the same rounds: the growth pools the two pairs of
		# builds, and the null (each tree's first build to its second) should
		# read 1.00x. A pinned A/B read 1.038x for show between two builds of
		# one 10,000-workqueue tree, and repeated runs on four pairs of
		# builds read show's growth over the floor's from 0.986x to 1.018x.
		for c in 1024 8192; do
			build_tree "${c}nx$wqs" "$c" "$wqs"
			# the values the first trees were left with: their rounds ended with apply B
			ok 0 "${W[@]}" apply --profile big-b
		done
		trees=("1024x$wqs" "8192x$wqs" "1024nx$wqs" "8192nx$wqs")
		# shellcheck disable=SC2046 # one word a name
		{
			runs=$pr_runs RSS_RUNS=0 bench_run $(each fall show json check)
			pair_record "$wqs" fall show json check
			rm -rf "$trees_in/tree.1024nx$wqs" "$trees_in/tree.8192nx$wqs"
			trees=("1024x$wqs" "8192x$wqs")
			runs=$((RUNS * 5)) RSS_RUNS=0 bench_run $(each fone explain)
			pair_record "$wqs" fone explain
			runs=$pr_runs RSS_RUNS=0 bench_run $(each fprof verify noop)
			pair_record "$wqs" fprof verify noop
			runs=$pr_runs RSS_RUNS=0 bench_run $(each fwrite applya applyb)
			pair_record "$wqs" fwrite applya applyb
		}
		# the 8,192-CPU tree with 1,250 workqueues stays for the growth with the workqueues
		rm -rf "$trees_in/tree.1024x$wqs"
		[ "$wqs" = 10000 ] && rm -rf "$trees_in/tree.8192x$wqs"
		echo "# 1024x$wqs and 8192x$wqs: measured in turn" >&2
	done
done
cp "$res" "${SCALE_RESULTS:-/dev/null}"

label() {
	case $1 in
	show) echo "show" ;; json) echo "show -J" ;; outside) echo "show --outside" ;; check) echo "check" ;; explain) echo "explain WQ" ;;
	verify) echo "verify (100 sections)" ;; noop) echo "apply, nothing to change" ;;
	applya) echo "apply, writes" ;; applyb) echo "apply, writes (other)" ;;
	esac
}
echo "Wall time and peak RSS as ratios to the floor (same tree, same run); wall: the median of $RUNS rounds' ratios" \
	"($((RUNS * 5)) for explain)"
printf '%-26s' command
for spec in 64 1024 8192; do for w in 1250 10000; do printf ' %14s' "${spec}cpu/${w}wq"; done; done
echo
for n in show json outside check explain verify noop applya applyb; do
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
: >"$tmp/wgrowths"
echo "Growth: time(x8) / time, wqctl and its floor (x8 wq: the median of $RUNS rounds that run the two trees in"
echo "turn, $((RUNS * 5)) for explain; x8 cpu: the medians of the trees timed on their own)"
printf '%-26s %22s %22s %22s %22s\n' command "x8 wq @64cpu" "x8 wq @8192cpu" "x8 cpu @1250wq" "x8 cpu @10000wq"
for n in show json check explain verify noop applya applyb; do
	printf '%-26s' "$(label $n)"
	f=$(floor_of "$n")
	for c in 64 8192; do
		printf ' %9.2fx (floor %5.2fx)' "$(cat "$tmp/wg.$c.$n")" "$(cat "$tmp/wg.$c.$f")"
		echo "$n $c $(cat "$tmp/wg.$c.$n") $(cat "$tmp/wg.$c.$f")" >>"$tmp/wgrowths"
	done
	for pair in 1024x1250:8192x1250 1024x10000:8192x10000; do
		awk -v a="${pair%:*}" -v b="${pair#*:}" -v n="$n" '
			$1 == a && $2 == n { wa = $3; fa = $5 }
			$1 == b && $2 == n { wb = $3; fb = $5 }
			END { printf " %9.2fx (floor %5.2fx)", wb / wa, fb / fa }' "$res"
	done
	echo
done
# A growth over the floor's, round by round: the ratio to the floor on 8,192
# CPUs over the one on 1,024 in the same round; the median over the rounds
# and its 95% interval (the rounds drawn again with replacement, a fixed
# seed, so a run repeats its intervals).
growth() { # RATIOS_1024 RATIOS_8192: "MEDIAN LOW HIGH"
	paste "$1" "$2" | awk -v seed=15 '
		function med(x, n, draw,   i, j, v, s) {
			for (i = 1; i <= n; i++) s[i] = draw ? x[int(rand() * n) + 1] : x[i]
			for (i = 2; i <= n; i++) { v = s[i]; for (j = i - 1; j >= 1 && s[j] > v; j--) s[j + 1] = s[j]; s[j + 1] = v }
			return s[int((n + 1) / 2)]
		}
		{ g[++n] = $2 / $1 }
		END {
			srand(seed)
			for (k = 1; k <= 2000; k++) d[k] = med(g, n, 1)
			m = med(g, n, 0)
			# the 2.5th and 97.5th of the 2,000 draws
			for (k = 2; k <= 2000; k++) { v = d[k]; for (j = k - 1; j >= 1 && d[j] > v; j--) d[j + 1] = d[j]; d[j + 1] = v }
			printf "%.3f %.3f %.3f\n", m, d[51], d[1950]
		}'
}
echo
echo "x8 CPUs (1,024 to 8,192), growth over the floor's: wall (the ratio to the floor on 8,192 CPUs over the"
echo "one on 1,024 in the same round: the median of the rounds and its 95% interval; $((RUNS * 5)) rounds with"
echo "1,250 workqueues, $RUNS with 10,000; show, show -J and check pool the rounds of two builds of each tree),"
echo "then instructions (wqctl's growth over the floor's)"
printf '%-26s %24s %24s %34s %34s\n' command "wall @1250wq" "wall @10000wq" "instructions @1250wq" "instructions @10000wq"
# the two wall cells of NAME, the growth from A to B pooled over the pairs
# A:B whose rounds were run, each also kept in OUT as "NAME WQS MEDIAN LOW HIGH"
wall_cells() { # NAME OUT A:B...
	local n=$1 out=$2 g lo hi w p
	shift 2
	for w in 1250 10000; do
		: >"$tmp/from" && : >"$tmp/to"
		for p in "$@"; do
			[ -e "$tmp/pr.${p#*:}.$w.$n" ] || continue
			cat "$tmp/pr.${p%:*}.$w.$n" >>"$tmp/from"
			cat "$tmp/pr.${p#*:}.$w.$n" >>"$tmp/to"
		done
		read -r g lo hi < <(growth "$tmp/from" "$tmp/to")
		printf ' %24s' "${g}x ($lo-${hi}x)"
		echo "$n $w $g $lo $hi" >>"$out"
	done
}
: >"$tmp/growths"
for n in show json check explain verify noop applya applyb; do
	printf '%-26s' "$(label $n)"
	wall_cells "$n" "$tmp/growths" 1024:8192 1024n:8192n
	# apply with writes changes the tree between the counts: not counted
	case $n in applya | applyb) f= ;; *) f=$(floor_of "$n") ;; esac
	for w in 1250 10000; do
		if [ -n "$f" ] && [ -s "$ins" ]; then
			awk -v n="$n" -v f="$f" -v a1="1024x$w" -v b1="8192x$w" '
				$1 == a1 && $2 == n { a = $3 } $1 == b1 && $2 == n { b = $3 }
				$1 == a1 && $2 == f { fa = $3 } $1 == b1 && $2 == f { fb = $3 }
				END { printf " %9.4fx (%5.2f%% vs %5.2f%%)", (b / a) / (fb / fa), 100 * (b - a) / a, 100 * (fb - fa) / fa }' "$ins"
		else
			printf ' %34s' "-"
		fi
	done
	echo
done
echo "(instructions: the growth of wqctl's count over the floor's, then each one's growth; apply with writes"
echo " changes the tree, so it is not counted)"
echo
echo "The null: each tree built twice (the second builds after the first two), in the same rounds; the growth"
echo "over the floor's from each tree's first build to its second, pooled as above (1.00x if two builds of the"
echo "same files measured alike)"
printf '%-26s %24s %24s\n' command "wall @1250wq" "wall @10000wq"
: >"$tmp/nulls"
for n in show json check; do
	printf '%-26s' "$(label $n)"
	wall_cells "$n" "$tmp/nulls" 1024:1024n 8192:8192n
	echo
done
# Page faults: exact and repeatable like the instructions, and on this
# project's VMs 11 us each (a first touch of a heap page), so that a command
# whose heap grows with the CPUs grows in wall time past its floor.
echo
echo "Page faults (ru_minflt, the median of $RSS_RUNS runs): wqctl and its floor, 1,024 and 8,192 CPUs; the faults"
echo "x8 CPUs add to each"
printf '%-26s %24s %24s %24s\n' command "1024cpu/1250wq" "8192cpu/1250wq" "x8 CPUs: wqctl (floor)"
for n in show json check explain verify noop applya applyb; do
	printf '%-26s' "$(label $n)"
	awk -v n="$n" '
		$1 == "1024x1250" && $2 == n { a = $8; fa = $9 } $1 == "8192x1250" && $2 == n { b = $8; fb = $9 }
		END { printf " %12d (%5d)     %12d (%5d)     %+12d (%+5d)\n", a, fa, b, fb, b - a, fb - fa }' "$res"
done
awk '
	$2 == "outside" { if ($7 > wo) { wo = $7; ato = $1 } next }
	{ r = $7; if (r > worst) { worst = r; at = $1 " " $2 } }
	END {
		printf "\nworst wall ratio: %.2fx (%s); target <= 1.5x\n", worst, at
		printf "show --outside, worst wall ratio to its own floor: %.2fx (%s); no target (it reads every thread)\n", wo, ato
	}' "$res"
# the growth targets, each as its worst cell: x8 workqueues, and x8 CPUs against the floor's growth
awk '$3 > gw { gw = $3; atw = $1 " @" $2 "cpu"; fw = $4 }
	END { printf "worst growth for x8 workqueues (paired rounds): %.2fx (%s; its floor %.2fx); target <= 9x\n", gw, atw, fw }' \
	"$tmp/wgrowths"
awk '
	{ r[$1 " " $2] = $7; names[$2] = 1 }
	END {
		for (n in names) {
			for (c = 1; c <= 2; c++) {
				cpu = c == 1 ? 64 : 8192
				g = r[cpu "x10000 " n] / r[cpu "x1250 " n]
				if (g > gr) { gr = g; atr = n " @" cpu "cpu" }
			}
		}
		printf "worst growth for x8 workqueues over the floor'"'"'s (wall ratio at 10000 / at 1250): %.2fx (%s)\n", gr, atr
	}' "$res"
awk '$3 > worst || !at { worst = $3; at = $1 " @" $2 "wq"; lo = $4; hi = $5 }
	END { printf "worst growth for x8 CPUs over the floor'"'"'s (round by round, wall): %.3fx (%s; 95%%: %.3f-%.3fx); target <= 1.00x\n", worst, at, lo, hi }' "$tmp/growths"
echo "wall cells of x8 CPUs whose 95% interval lies above 1.00x: $(awk '$4 > 1.00' "$tmp/growths" | wc -l) of 16"
awk 'function d(x) { return x < 1 ? 1 / x : x }
	d($3) > worst || !at { worst = d($3); g = $3; at = $1 " @" $2 "wq"; lo = $4; hi = $5 }
	END { printf "furthest null from 1.00x (the same tree built twice): %.3fx (%s; 95%%: %.3f-%.3fx)\n", g, at, lo, hi }' "$tmp/nulls"
if [ -s "$ins" ]; then
	awk '
		{ c[$1 " " $2] = $3 }
		END {
			split("show:fall json:fall check:fall explain:fone verify:fprof noop:fprof", p, " ")
			for (i in p) for (w = 1250; w <= 10000; w *= 8) {
				split(p[i], q, ":")
				g = (c["8192x" w " " q[1]] / c["1024x" w " " q[1]]) / (c["8192x" w " " q[2]] / c["1024x" w " " q[2]])
				if (g > worst) { worst = g; at = q[1] " @" w "wq" }
			}
			printf "worst growth for x8 CPUs over the floor'"'"'s in instructions: %.4fx (%s); target <= 1.00x\n", worst, at
		}' "$ins"
fi
