#!/bin/bash
# Run libFuzzer harnesses; TAP out.
#   FUZZDIR=build/fuzz FUZZ_SECONDS=N tests/fuzz/run.sh TARGET...
# Each target: first every input under tests/fuzz/regress/TARGET (crashes
# found once, kept so they stay fixed) and the seeds, then FUZZ_SECONDS of
# fuzzing from tests/fuzz/seeds/TARGET. A finding is copied to
# $FUZZDIR/findings/ and the line is "not ok". With FUZZ_SECONDS=0 and
# FUZZ_RUNS=N (make check), the fuzzing is a smoke run instead: N inputs
# from a fixed seed, the same every time, from the seeds only.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${FUZZDIR:?set FUZZDIR}
secs=${FUZZ_SECONDS:-5}
n=0
for t in "$@"; do
	bin=$dir/fuzz-$t
	corpus=$dir/corpus-$t
	mkdir -p "$corpus" "$dir/findings"
	n=$((n + 1))
	inputs=$(find -L "$here/regress/$t" "$here/seeds/$t" -type f 2>/dev/null)
	if [ -n "$inputs" ] && ! out=$(cd "$dir/findings" && "$bin" -runs=0 $inputs 2>&1); then
		echo "not ok $n - fuzz-$t: regression and seed inputs"
		echo "$out" | grep -E 'ERROR|SUMMARY|Running' | head -10 | sed 's/^/#   /'
		continue
	fi
	echo "ok $n - fuzz-$t: $(echo "$inputs" | grep -c .) regression and seed inputs"
	if [ "$secs" -eq 0 ]; then
		runs=${FUZZ_RUNS:-0}
		[ "$runs" -gt 0 ] || continue
		n=$((n + 1))
		smoke=$(mktemp -d)
		if out=$(cd "$dir/findings" && "$bin" -seed=1 -runs="$runs" -rss_limit_mb=2048 -timeout=20 \
			"$smoke" "$here/seeds/$t" 2>&1); then
			echo "ok $n - fuzz-$t: smoke run, $runs inputs from seed 1, no finding"
		else
			echo "not ok $n - fuzz-$t: finding in the $runs-input smoke run (inputs in $dir/findings)"
			echo "$out" | grep -E 'ERROR|SUMMARY|artifact' | head -10 | sed 's/^/#   /'
		fi
		rm -rf "$smoke"
		continue
	fi
	n=$((n + 1))
	if out=$(cd "$dir/findings" && "$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=20 \
		"$corpus" "$here/seeds/$t" 2>&1); then
		execs=$(echo "$out" | sed -n 's/^Done \([0-9]*\) runs.*/\1/p' | tail -1)
		echo "ok $n - fuzz-$t: ${secs} s, ${execs:-?} executions, no finding"
	else
		echo "not ok $n - fuzz-$t: finding within ${secs} s (inputs in $dir/findings)"
		echo "$out" | grep -E 'ERROR|SUMMARY|artifact' | head -10 | sed 's/^/#   /'
	fi
done
