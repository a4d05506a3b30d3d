# shellcheck shell=bash
# Shared by the benchmarks. A command under test is an array cmd_NAME with a
# label in label_NAME; bench_run measures every NAME and bench_print prints a
# row each and its ratios to the first (the floor), all from the same run:
#   wall time: the median of RUNS runs, the commands run in turn, each
#   started with posix_spawn and timed from there to its end (bench/spawn.c),
#   all on one CPU (BENCH_CPU, by default the first this shell may use);
#   instructions: callgrind, the whole process (exact and repeatable);
#   peak RSS and page faults: the medians of ru_maxrss and ru_minflt of 7
#   runs (bench/rss.c).
# INSTRUCTIONS=0 skips callgrind (too slow on the scale trees), RSS_RUNS
# changes the 7.

bench_setup() { # sets top, runs, tmp; builds bench/rss and bench/spawn
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	runs=${RUNS:-300}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cc -O2 -o "$tmp/rss" "$top/bench/rss.c"
	cc -O2 -o "$tmp/spawn" "$top/bench/spawn.c"
	# every timed run on one CPU, the floor's and the commands' alike (bench/spawn.c
	# says why); by default the first this shell may use, BENCH_CPU= for any
	if [ -z "${BENCH_CPU+set}" ]; then
		BENCH_CPU=$(awk '/^Cpus_allowed_list:/ { sub(/[-,].*/, "", $2); print $2 }' /proc/self/status)
	fi
	export BENCH_CPU
	echo "# timed runs on CPU ${BENCH_CPU:-any}" >&2
}

_instructions() { # command...
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >/dev/null 2>&1 || true
	awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}

bench_run() { # NAME...
	local i n c args=()
	# Round robin, one run of each command in turn, each timed on its own
	# by bench/spawn (t.NAME: nanoseconds, a line a run): a slow spell of
	# the machine falls on all commands alike, and the median drops
	# outliers. Not bash's own clock around a command: bash forks itself
	# for it, 2.6 ms a run, on every command alike.
	for n in "$@"; do
		c="cmd_${n}[@]"
		printf '%s\0' "${!c}" >"$tmp/argv.$n"
		args+=("$tmp/argv.$n" "$tmp/t.$n")
	done
	"$tmp/spawn" "$runs" "${args[@]}"
	for n in "$@"; do
		c="cmd_${n}[@]"
		sort -n "$tmp/t.$n" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' >"$tmp/wall.$n"
		if [ "${INSTRUCTIONS:-1}" = 1 ]; then _instructions "${!c}" >"$tmp/ins.$n"; else echo 0 >"$tmp/ins.$n"; fi
		for ((i = 0; i < ${RSS_RUNS:-7}; i++)); do "$tmp/rss" "${!c}"; done >"$tmp/ru.$n"
		sort -n "$tmp/ru.$n" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' >"$tmp/rss.$n"
		sort -n -k2 "$tmp/ru.$n" | awk '{ a[NR] = $2 } END { print a[int((NR + 1) / 2)] }' >"$tmp/flt.$n"
	done
}

bench_print() { # FLOOR NAME...: a row per command, then each one's ratios to FLOOR
	local floor=$1 n l
	printf '%-40s %10s %13s %10s\n' command median_us instructions max_rss_kb
	for n in "$@"; do
		l="label_$n"
		printf '%-40s %10.1f %13d %10d\n' "${!l}" "$(awk '{ print $1 / 1000 }' "$tmp/wall.$n")" \
			"$(cat "$tmp/ins.$n")" "$(cat "$tmp/rss.$n")"
	done
	shift
	for n in "$@"; do
		l="label_$n"
		paste "$tmp/wall.$n" "$tmp/wall.$floor" "$tmp/ins.$n" "$tmp/ins.$floor" "$tmp/rss.$n" "$tmp/rss.$floor" |
			awk -v l="${!l}" '{ printf "%s to floor: wall %.2fx, instructions %.2fx, peak RSS %.2fx\n", l, $1 / $2, $3 / $4, $5 / $6 }'
	done
}
