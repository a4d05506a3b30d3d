# shellcheck shell=bash
# Shared by the benchmarks. A command under test is an array cmd_NAME with a
# label in label_NAME; bench_run measures every NAME and bench_print prints a
# row each and its ratios to the first (the floor), all from the same run:
#   wall time: the median of 15 batch means (RUNS runs in all, timed per batch
#     so the timer's own cost does not count; the batches of the commands
#     interleaved, so a slow spell of the machine falls on all alike);
#   instructions: callgrind, the whole process (exact and repeatable);
#   peak RSS: ru_maxrss of one run (bench/rss.c).

bench_setup() { # sets top, runs, tmp; builds bench/rss
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	runs=${RUNS:-300}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cc -O2 -o "$tmp/rss" "$top/bench/rss.c"
}

_batch_ns() { # command...: mean wall time per run of one batch, in ns
	local i t0 t1 per=$((runs / 15 + 1))
	t0=$(date +%s%N)
	for ((i = 0; i < per; i++)); do "$@" >/dev/null 2>&1; done
	t1=$(date +%s%N)
	echo $(((t1 - t0) / per))
}

_instructions() { # command...
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >/dev/null 2>&1 || true
	awk '/^summary:/ { print $2 }' "$tmp/cg.out"
}

bench_run() { # NAME...
	local b n c
	for ((b = 0; b < 15; b++)); do
		for n in "$@"; do
			c="cmd_${n}[@]"
			_batch_ns "${!c}" >>"$tmp/t.$n"
		done
	done
	for n in "$@"; do
		c="cmd_${n}[@]"
		sort -n "$tmp/t.$n" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }' >"$tmp/wall.$n"
		_instructions "${!c}" >"$tmp/ins.$n"
		"$tmp/rss" "${!c}" >"$tmp/rss.$n"
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
