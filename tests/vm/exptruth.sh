#!/bin/bash
# experiment against the kernel (tests/vm/guest.sh experiment_truth): the
# probe's workqueue with max_active 1 against 64, and fio's own reports.
#   exptruth.sh GUEST_LOG TAG N   prints TAP numbered from N+1
# Expected figures come from the workload, not from wqctl: 8 items of 300 ms
# queued at once from one CPU run one at a time under max_active 1 (at least
# 8 x 0.3 = 2.4 s, 7 of them activated later than queued) and all at once
# under 64 (0.3 s plus the workload's own start, nothing held back).
set -uo pipefail
log=$1 tag=$2 n=$3
ok() { n=$((n + 1)); echo "ok $n - $tag: $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $tag: $1"; shift; for l in "$@"; do echo "#   $l"; done; }
out() { awk -v c="$1" '$0 == "@@OUT " c { p = 1; next } /^@@OUT-END/ { p = 0 } p' "$log"; }
line() { grep "^@@EXP $1 " "$log" | head -1; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
pair() { # ROW KEY: a KEY="value" of a pairs line
	sed -n "s/.*\\b$2=\"\\([^\"]*\\)\".*/\\1/p" <<<"$1"
}

p=$(line probe)
probe=$(out experiment-probe)
if [ "$(field "$p" rc)" = 0 ]; then ok "experiment around the probe exits 0"
else notok "experiment around the probe exits 0" "$p" "$(echo "$probe" | tail -5)"; fi
[ "$(field "$p" before)" = 16 ] && [ "$(field "$p" after)" = 16 ] && [ "$(field "$p" journal)" = kept ] &&
	ok "wqprobe's max_active is 16 again afterwards; the journal holds what it held before (path, original)" ||
	notok "wqprobe's max_active is 16 again afterwards; the journal is as before" "$p"
[ "$(field "$p" saved)" = yes ] && ok "--save kept the result" || notok "--save kept the result" "$p"
[ "$(field "$p" queued)" = 64 ] && ok "the probe queued 8 runs x 8 items = 64" ||
	notok "the probe queued 8 runs x 8 items = 64" "$p"
# the probe's own peak concurrency per run: 1 in the four runs of max_active 1, all 8 in the others
peaks=$(field "$p" peaks | tr ',' '\n' | sort -n | paste -sd,)
[ "$peaks" = "1,1,1,1,8,8,8,8" ] && ok "the probe measured at most 1 at once in 4 runs and 8 in 4 runs" ||
	notok "the probe measured peaks 1,1,1,1,8,8,8,8" "$p"
r1=$(grep 'SETTING="wqprobe max_active=1"' <<<"$probe")
r64=$(grep 'SETTING="wqprobe max_active=64"' <<<"$probe")
m1=$(pair "$r1" MEDIAN) m64=$(pair "$r64" MEDIAN)
if awk -v a="$m1" 'BEGIN { exit !(a + 0 >= 2.4) }'; then
	ok "max_active=1: median wall time $m1 s >= 8 x 0.3 s (one at a time)"
else notok "max_active=1: median wall time >= 2.4 s" "$r1"; fi
if awk -v a="$m64" 'BEGIN { exit !(a + 0 >= 0.3 && a + 0 <= 1.2) }'; then
	ok "max_active=64: median wall time $m64 s within [0.3, 1.2] s (all at once)"
else notok "max_active=64: median wall time within [0.3, 1.2] s" "$r64"; fi
# every max_active=64 run (about 0.3 s) is faster than every max_active=1 run (2.4 s at least): the
# rank test's most extreme order of 4 and 4, p = 2/C(8,4) = 2/70 = 0.029, and a change far past 5%
note=$(pair "$r64" NOTE)
[[ $note == "better: -"*"p=0.029" ]] && ok "the table claims the difference: '$note'" ||
	notok "the table claims the difference, p = 2/70" "$r1" "$r64"
for x in "1 THROTTLED 7" "1 QUEUED 8" "64 THROTTLED 0" "64 QUEUED 8"; do
	read -r ma col want <<<"$x"
	row=$r1
	[ "$ma" = 64 ] && row=$r64
	got=$(pair "$row" "$col")
	[ "$got" = "$want" ] && ok "max_active=$ma: $col $got = the workload's $want" ||
		notok "max_active=$ma: $col ${got:-?} = the workload's $want" "$row"
done

# the default columns again: counted by our BPF programs where the kernel has BTF, else by the
# kernel where its tracefs files offer the hists and synthetic events and activate_work carries
# the function (6.10+), else streamed
p2=$(line probe2)
probe2=$(out experiment-probe2)
files=$(field "$p2" files) counters=$(field "$p2" counters)
want=stream
[ "$files" = yes ] && want=kernel
[ "$(field "$p2" btf)" = yes ] && want=bpf
if [ "$(field "$p2" rc)" = 0 ] && [ "$(field "$p2" after)" = 16 ]; then ok "experiment with the default columns exits 0; max_active is 16 again"
else notok "experiment with the default columns exits 0; max_active 16 again" "$p2" "$(echo "$probe2" | tail -5)"; fi
# with BPF the counts come from the kernel's own counters where it has them (6.3+, BTF, kcore, the symbol)
wantc=$want
[ "$want" = bpf ] && [ "$(field "$p2" expect_counts)" = counters ] && wantc=counters
[ "$counters" = "$wantc" ] && [ "$(field "$p2" times)" = "$want" ] &&
	ok "counts from the $counters, times from the $want (BTF: $(field "$p2" btf); tracefs offers hist+synthetic+function: $files)" ||
	notok "counts from the $wantc, times from the $want (BTF: $(field "$p2" btf); tracefs offers them: $files)" "$p2"
[ "$(field "$p2" left)" = 0 ] && ok "no wqctl trace instance is left" || notok "no wqctl trace instance is left" "$p2"
[ "$(field "$p2" queued)" = 48 ] && ok "the probe queued 6 runs x 8 items = 48 again" ||
	notok "the probe queued 48 again" "$p2"
r1=$(grep 'SETTING="wqprobe max_active=1"' <<<"$probe2")
r64=$(grep 'SETTING="wqprobe max_active=64"' <<<"$probe2")
for row in "$r1" "$r64"; do
	[ "$(pair "$row" QUEUED)" = 8 ] && ok "$(pair "$row" SETTING): QUEUED 8 = the workload's" ||
		notok "QUEUED 8 = the workload's" "$row"
done
grep -q 'THROTTLED=' <<<"$r1" && notok "the default columns leave THROTTLED out" "$r1" ||
	ok "the default columns leave THROTTLED out"
# the 8th item under max_active 1 waits for the 7 before it: at least 7 x 300 ms = 2,100,000 us,
# which is past 2^21 = 2,097,152: the kernel's log2 bucket is (2^21, 2^22], shown as its top
w1=$(pair "$r1" WAIT_P99) w64=$(pair "$r64" WAIT_P99)
if [ "$want" = bpf ]; then
	# in ns: 2.1 s lies in (2^30, 2^31] ns up to 2.147 s, past it in (2^31, 2^32]: shown as the top in us
	awk -v w="$w1" 'BEGIN { exit !(w + 0 > 2147482 && w + 0 < 2147485 || w + 0 > 4294966 && w + 0 < 4294969) }' &&
		ok "max_active=1: WAIT_P99 $w1 us = 2^31 or 2^32 ns, the top of the log2 bucket holding 2.1 s or more" ||
		notok "max_active=1: WAIT_P99 = 2^31 or 2^32 ns in us" "$r1"
elif [ "$want" = kernel ]; then
	[ "$w1" = 4194304 ] && ok "max_active=1: WAIT_P99 $w1 us = 2^22, the top of the bucket holding 2.1 s" ||
		notok "max_active=1: WAIT_P99 = 4194304 (2^22)" "$r1"
else
	awk -v w="$w1" 'BEGIN { exit !(w + 0 >= 2100000 && w + 0 < 3000000) }' &&
		ok "max_active=1: streamed WAIT_P99 $w1 us in [2.1, 3) s" || notok "max_active=1: WAIT_P99 in [2.1, 3) s" "$r1"
fi
# under 64 all 8 start at once: far below one item's 300 ms
awk -v w="$w64" 'BEGIN { exit !(w != "" && w + 0 < 300000) }' &&
	ok "max_active=64: WAIT_P99 $w64 us < 300,000 (nothing waits for an item)" ||
	notok "max_active=64: WAIT_P99 < 300,000" "$r64"

f=$(line fio)
fio=$(out experiment-fio)
if [ "$(field "$f" rc)" = 0 ]; then ok "experiment around fio on ext4 on virtio exits 0"
else notok "experiment around fio on ext4 on virtio exits 0" "$f" "$(echo "$fio" | tail -5)"; exit 0; fi
[ -n "$(field "$f" before)" ] && [ "$(field "$f" before)" = "$(field "$f" after)" ] && [ "$(field "$f" journal)" = kept ] &&
	ok "writeback's max_active is $(field "$f" before) again afterwards; the journal is as before" ||
	notok "writeback's max_active is restored and the journal is as before" "$f"
# wqctl's metric of run N (its "order") against the bandwidth fields of fio's report N, summed here
metrics=$(awk '/"order":/ { gsub(/[^0-9]/, "", $0); o = $0; next }
	o != "" && /"metric":/ { sub(/.*"metric": */, ""); sub(/,.*/, ""); print o, $0; o = "" }' <<<"$fio")
runs=0 agree=0
while read -r _ r k; do
	r=${r#run=} k=${k#kib=}
	runs=$((runs + 1))
	w=$(awk -v o="$r" '$1 == o { print $2 }' <<<"$metrics")
	if awk -v w="$w" -v k="$k" 'BEGIN { d = w - k / 1024; if (d < 0) d = -d; exit !(w != "" && k > 0 && d <= 1e-4 * k / 1024 + 0.005) }'; then
		agree=$((agree + 1))
	else
		notok "run $r: wqctl's fio bandwidth ${w:-?} MiB/s = fio's bw fields $k KiB/s / 1024"
	fi
done < <(grep '^@@FIOBW ' "$log")
[ "$runs" = 4 ] && [ "$agree" = 4 ] && ok "all 4 runs: wqctl's fio bandwidth = the sum of fio's own bw fields / 1024" ||
	notok "4 runs agree with fio's reports ($agree of $runs)" "$(echo "$metrics" | head -4)"
