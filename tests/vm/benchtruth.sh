#!/bin/bash
# monitor's cost on a real kernel (issue 47, tests/vm/guest.sh bench_monitor):
# wqctl monitor ran while the probe queued short items to wqflood at 1k,
# 10k and 100k a second and as fast as one CPU could, 5 s each, and once
# with no flood (the floor). Its CPU time comes from the guest's
# /proc/PID/task/*/schedstat (the scheduler's run time in ns) from its
# first interval's line to 2 s after the flood; its counts from the summary line of its JSON; the truth
# from the probe's own counters. Each run is a test: monitor counted
# exactly what the probe queued and ran, or said it lost events; the
# figures go to a Markdown table (one row per rate) whatever they are.
#   benchtruth.sh GUEST_LOG TAG N KREL TABLE   prints TAP numbered from N+1
set -uo pipefail
log=$1 tag=$2 n=$3 krel=$4 table=$5
ok() { n=$((n + 1)); echo "ok $n - $tag: $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $tag: $1"; shift; for l in "$@"; do echo "#   $l"; done; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }
# a value of the probe's flood line as the guest passes it: "queued,Q,done,D,busy,B,msecs,T"
pval() { tr , '\n' <<<"$1" | awk -v k="$2" 'p == k { print; exit } { p = $0 }'; }
# the value of a key in the summary's wqflood row (or of the whole line: lost)
jfield() { # json key
	/usr/bin/python3 -c 'import json, sys
d = json.loads(sys.argv[1])
if sys.argv[2] == "lost":
    print(d["lost"])
else:
    rows = [w for w in d["workqueues"] if w["name"] == "wqflood"]
    print(rows[0][sys.argv[2]] if rows else 0)' "$1" "$2" 2>/dev/null || echo '?'
}

err=$(sed -n 's/^@@BENCH-ERR //p' "$log")
if [ -n "$err" ]; then
	notok "monitor's cost benchmark ran" "$err"
	exit 0
fi
kinfo=$(sed -n 's/^@@BENCH-KERNEL //p' "$log")
ok "in-kernel aggregation available: $kinfo"
rate_of() { # a probe line -> items queued a second
	local probe
	probe=$(field "$1" probe)
	awk -v q="$(pval "$probe" queued)" -v ms="$(pval "$probe" msecs)" 'BEGIN { printf "%.0f", (ms > 0 ? q * 1000 / ms : 0) }'
}
# the observer effect: the flood with no tracing, first and last in the same
# boot; every flood at the highest rate is put against their mean, as a ratio
# of items/s and as the CPU time each item lost to the watching, in us
nonerate=$(sed -n 's/^@@BENCH-RAW //p' "$log" | while read -r l; do rate_of "$l"; echo; done |
	awk 'NF { s += $1; n++ } END { if (n) printf "%.0f", s / n }')
effect() { # items/s at the highest rate -> "RATIO x (US us an item)"
	awk -v a="$1" -v f="$nonerate" 'BEGIN { if (f > 0 && a > 0) printf "%.3fx (%.2f us an item)", a / f, 1e6 / a - 1e6 / f; else printf "-" }'
}
floor=
while read -r line; do
	rate=$(field "$line" rate) be=$(field "$line" backend)
	ticks=$(field "$line" ticks) secs=$(field "$line" secs) ns=$(field "$line" ns)
	sum=$(sed -n "s/^@@BENCH-SUMMARY backend=$be rate=$rate //p" "$log" | head -1)
	if [ -z "$sum" ]; then
		notok "$be, rate $rate: monitor printed its summary" "$line" "$(sed -n 's/^@@BENCH-STDERR //p' "$log" | head -3)"
		continue
	fi
	lost=$(jfield "$sum" lost) mq=$(jfield "$sum" queued) md=$(jfield "$sum" done)
	left=$(field "$line" left)
	if [ -n "$left" ] && [ "$left" != 0 ]; then
		notok "$be, rate $rate: monitor stopped by SIGINT left no instance in tracefs" "$line"
	fi
	cpu=$(awk -v t="$ns" -v s="$secs" 'BEGIN { printf "%.2f", t / s / 1e7 }')
	# where it went: user and system ticks, and how often it was put on a CPU
	split=$(field "$line" split | awk -F'[,/]' 'NF == 10 { printf "; %d user + %d system ticks, on a CPU %d times, %d page faults, %d reads", $6 - $1, $7 - $2, $8 - $3, $9 - $4, $10 - $5 }')
	if [ "$rate" = idle ]; then
		floor=$cpu
		ok "$be, idle: monitor ran $ns ns ($ticks ticks$split) in $secs s ($cpu % of one CPU), lost $lost"
		echo "| $krel | none (floor), $be | - | - | $cpu | - | - | $lost | - | - |" >>"$table"
		continue
	fi
	probe=$(field "$line" probe)
	pq=$(pval "$probe" queued) pd=$(pval "$probe" done) pms=$(pval "$probe" msecs)
	achieved=$(awk -v q="$pq" -v ms="$pms" 'BEGIN { printf "%.0f", q * 1000 / ms }')
	# four events per item: queue, activate, execute_start, execute_end
	per=$(awk -v t="$ns" -v q="$pq" 'BEGIN { printf "%.2f", q ? t / 1000 / (4 * q) : 0 }')
	ratio=$(awk -v c="$cpu" -v f="$floor" 'BEGIN { if (f > 0) printf "%.1f", c / f; else printf "-" }')
	asked=$([ "$rate" = 0 ] && echo "max" || echo "$rate")
	eff=-
	[ "$rate" = 0 ] && eff=$(effect "$achieved")
	echo "| $krel | $asked, $be | $achieved | $((4 * pq)) | $cpu | $ratio | $per | $lost | $mq/$md of $pq/$pd | $eff |" >>"$table"
	d="$be, rate $asked: probe queued $pq and ran $pd ($achieved/s$([ "$eff" = - ] || echo ", $eff of no tracing")); monitor counted $mq/$md, lost $lost; CPU $cpu % ($ns ns, $ticks ticks$split; $ratio x idle), $per us per event"
	if [ "$lost" = 0 ] && [ "$mq" = "$pq" ] && [ "$md" = "$pd" ]; then
		ok "$d"
	elif [ "$be" = stream ] && [ "$lost" != 0 ] && [ "$lost" != '?' ]; then
		# events lost are said, never silently miscounted (what in-kernel aggregation is to remove)
		ok "$d (the streaming path lost events and said so)"
	elif [ "$be" = bpf ] && [[ $lost =~ ^[1-9][0-9]*$ ]] && [[ $mq =~ ^[0-9]+$ ]] && [[ $md =~ ^[0-9]+$ ]] &&
		[ "$mq" -le "$pq" ] && [ $((pq - mq)) -le "$lost" ] && [ "$md" -le "$pd" ] && [ $((pd - md)) -le "$lost" ]; then
		# runs of our programs the kernel skipped (its recursion guard, 7.x's
		# preemptible tracepoints): said as lost, and the counts short by no more
		ok "$d (the kernel skipped our programs $lost times; the counts short by no more, and said)"
	else
		notok "$d" "$line" "$sum"
	fi
done < <(sed -n 's/^@@BENCH //p' "$log")

# the kernel paths' floors: their hist files read once a second by a
# minimal reader over the same window (bench/histfloor.c): "counts", the
# four of --backend kernel; "times", those and the two time hists of the
# default columns; "countswork", counts and user work of wqctl's size. wqctl's CPU (the first kernel run; the synth run) as a
# ratio of it
while read -r line; do
	kind=$(field "$line" kind) rate=$(field "$line" rate) ticks=$(field "$line" ticks) ns=$(field "$line" ns)
	reads=$(field "$line" reads) bytes=$(field "$line" bytes)
	be=$(case $kind in counts*) echo kernel ;; *) echo synth ;; esac)
	asked=$([ "$rate" = 0 ] && echo "max" || echo "$rate")
	mon=$(field "$(sed -n "s/^@@BENCH backend=$be rate=$rate //p" "$log" | head -1)" ns)
	ratio=$(awk -v m="$mon" -v f="$ns" 'BEGIN { if (f > 0 && m != "") printf "%.2f", m / f; else printf "-" }')
	echo "| $krel | $asked, $kind floor (histfloor) | - | - | $(awk -v t="$ns" 'BEGIN { printf "%.2f", t / 7 / 1e7 }') | - | - | - | $reads reads, $((bytes / (reads > 0 ? reads : 1))) bytes each | - |" >>"$table"
	if [ -n "$ticks" ] && [ "$reads" -gt 0 ]; then
		ok "$kind floor at rate $asked: reading its hist files $reads times took $ns ns ($ticks ticks, $((bytes / reads)) bytes a read); monitor ($be) took ${mon:-?} ns (x$ratio)"
	else
		notok "$kind floor at rate $asked ran" "$line"
	fi
done < <(sed -n 's/^@@BENCH-FLOOR //p' "$log")
while read -r line; do notok "floor's triggers set up" "$line"; done < <(sed -n 's/^@@BENCH-FLOOR-ERR //p' "$log")

# issue 47's target, read off the runs above: at 100,000 items/s the kernel
# backend (count columns) costs wqctl at most 2 % of one CPU and loses
# nothing, in each of its three runs; the default columns' runs are
# reported beside it (the kernel's timing of each item holds the flood
# below 100,000/s in these guests)
runs=$(sed -n 's/^@@BENCH backend=kernel[#0-9]* rate=100000 .*ns=\([0-9]*\).*secs=\([0-9.]*\).*/\1 \2/p' "$log" |
	awk '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 / $2 / 1e7 }')
if [ -n "$runs" ]; then
	worst=$(tr ' ' '\n' <<<"$runs" | sort -g | tail -1)
	d="target at 100000/s, --backend kernel with count columns: wqctl's CPU $runs % of one CPU (worst $worst %, at most 2 %)"
	if awk -v w="$worst" 'BEGIN { exit !(w <= 2) }'; then ok "$d"; else notok "$d"; fi
fi

# issue 64's target: the kernel's own counters cost the flood nothing
# measurable, at least 0.97 of its items/s with no tracing (the two
# no-tracing floods of the boot are reported beside it: how far apart two
# runs of the same flood fall)
cnt=$(sed -n 's/^@@BENCH \(backend=counters rate=0 .*\)/\1/p' "$log" | head -1)
pairs=$(sed -n 's/^@@BENCH-PAIR //p' "$log")
# judged first by its bound: the reads take no lock the work path takes
# (/proc/kcore: kclist_lock and page_offline_freeze, read side, then
# copy_from_kernel_nofault), so what the flood can lose to them is the CPU
# time the monitor took during it, as a share of one CPU (the flood keeps
# at least one busy): at least 1 - that share of its items/s. The share is
# over the flood's own seconds, though the monitor's time is counted over
# a window 2 s longer: the bound errs low
if [ -n "$cnt" ]; then
	share=$(awk -v n="$(field "$cnt" ns)" -v ms="$(pval "$(field "$cnt" probe)" msecs)" 'BEGIN { printf "%.4f", (ms > 0 ? n / ms / 1e6 : 1) }')
	d="target (bound): --backend counters took $(awk -v f="$share" 'BEGIN { printf "%.2f", f * 100 }') % of one CPU over the flood's seconds at its most, so the flood kept at least $(awk -v f="$share" 'BEGIN { printf "%.3f", 1 - f }')x of its items/s (at least 0.97x)"
	if awk -v f="$share" 'BEGIN { exit !(1 - f >= 0.97) }'; then ok "$d"; else notok "$d" "$cnt"; fi
fi
if [ -n "$cnt" ] && [ -n "$nonerate" ]; then
	a=$(rate_of "$cnt")
	d="target: the flood watched by --backend counters ran $a items/s, $(effect "$a") of no tracing ($nonerate/s; at least 0.97x)"
	if [ -n "$pairs" ]; then
		# one flood against two others minutes apart: said, judged by the bound above and the pairs below
		ok "${d/target: /one run: } (judged by the bound above and the pairs below)"
	elif awk -v a="$a" -v f="$nonerate" 'BEGIN { exit !(a >= 0.97 * f) }'; then ok "$d"; else notok "$d" "$cnt"; fi
fi
# the same target measured, on the pairs run back to back (guest.sh
# bench_observer): each pair's ratio, counters' items/s over no tracing's,
# and their median, judged where the floods with no tracing fall within 6 %
# of each other (twice the 3 % judged); said, with their spread, where not
if [ -n "$pairs" ]; then
	ratios='' none='' bad=''
	while read -r i; do
		pn=$(grep "\bn=$i backend=none " <<<"$pairs" | head -1)
		pc=$(grep "\bn=$i backend=counters " <<<"$pairs" | head -1)
		if [ -z "$pn" ] || [ -z "$pc" ] || [ "$(field "$pc" monitor)" != counters ] || [ "$(field "$pc" monitor_rc)" != 0 ]; then
			bad="$bad pair $i: ${pc:-no counters run} ${pn:-no run without tracing};"
			continue
		fi
		rn=$(rate_of "$pn") rc=$(rate_of "$pc")
		none="$none $rn"
		ratios="$ratios $(awk -v c="$rc" -v f="$rn" 'BEGIN { printf "%.3f", (f > 0 ? c / f : 0) }')"
		ok "pair $i: no tracing $rn items/s, --backend counters $rc items/s ($(awk -v c="$rc" -v f="$rn" 'BEGIN { printf "%.3f", (f > 0 ? c / f : 0) }')x)"
		echo "| $krel | max, pair $i: none / counters | $rn / $rc | - | - | - | - | - | - | $(awk -v c="$rc" -v f="$rn" 'BEGIN { printf "%.3fx", (f > 0 ? c / f : 0) }') |" >>"$table"
	done < <(sed -n 's/.*\bn=\([0-9]*\) .*/\1/p' <<<"$pairs" | sort -un)
	[ -z "$bad" ] || notok "every pair ran with the counters' monitor" "$bad"
	nr=$(wc -w <<<"$ratios")
	if [ "$nr" -ge 3 ]; then
		med=$(tr ' ' '\n' <<<"$ratios" | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
		spread=$(tr ' ' '\n' <<<"$none" | sed '/^$/d' | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f/s, %.1f %%", lo, hi, (lo > 0 ? (hi - lo) * 100 / lo : 0) }')
		d="target: the flood watched by --backend counters ran at a median ${med}x of no tracing over $nr pairs (ratios$ratios; at least 0.97x; the floods with no tracing spread $spread)"
		if ! awk -v s="${spread##*, }" 'BEGIN { exit !(s + 0 <= 6) }'; then
			ok "${d/target: /measured: } (not judged: this machine's floods spread more than 6 %; the bound above is)"
		elif awk -v m="$med" 'BEGIN { exit !(m >= 0.97) }'; then ok "$d"; else notok "$d"; fi
	else
		notok "at least three pairs of floods (none, counters) to judge the counters' effect" "$pairs"
	fi
fi

# and the default columns (wait and run times: our BPF programs) cost each
# item at least 3 times less than the hist triggers and synthetic events
# that timed it before ("synth", --backend kernel with the same columns):
# the CPU time an item loses, 1/rate - 1/rate with no tracing, at the highest rate
def=$(sed -n 's/^@@BENCH \(backend=default rate=0 .*\)/\1/p' "$log" | head -1)
syn=$(sed -n 's/^@@BENCH \(backend=synth rate=0 .*\)/\1/p' "$log" | head -1)
if [ -n "$def" ] && [ -n "$syn" ] && [ -n "$nonerate" ]; then
	a=$(rate_of "$def") b=$(rate_of "$syn")
	read -r ca cb x < <(awk -v a="$a" -v b="$b" -v f="$nonerate" 'BEGIN { ca = 1e6 / a - 1e6 / f; cb = 1e6 / b - 1e6 / f
		printf "%.2f %.2f %s\n", ca, cb, (ca > 0 ? sprintf("%.1f", cb / ca) : "inf") }')
	d="target: the default columns cost an item $ca us ($a/s), the synthetic-event path $cb us ($b/s): ${x}x cheaper (at least 3x)"
	if awk -v ca="$ca" -v cb="$cb" 'BEGIN { exit !(cb >= 3 * ca) }'; then ok "$d"; else notok "$d" "$def" "$syn"; fi
fi

# the in-kernel path, set up by hand (guest.sh bench_kernel): hist triggers
# and synthetic events ("full"), or hist triggers alone counting per work
# item, joined to the workqueue when read ("count"). The flood's own rate with no tracing is the floor of
# what tracing costs the kernel.
hsum() { # "|"-joined hist lines -> the hitcounts of wqflood's lines, summed
	tr '|' '\n' <<<"$1" | awk '/wqflood/ { for (i = 1; i < NF; i++) if ($i == "hitcount:") s += $(i + 1) } END { print s + 0 }'
}
while read -r raw; do
	probe=$(field "$raw" probe)
	pq=$(pval "$probe" queued) pms=$(pval "$probe" msecs)
	floor_rate=$(rate_of "$raw")
	ok "no tracing ($(field "$raw" when)): the flood queued $pq items in $pms ms ($floor_rate/s; their mean $nonerate/s)"
	echo "| $krel | max, no tracing ($(field "$raw" when)) | $floor_rate | - | - | - | - | - | - | $(effect "$floor_rate") |" >>"$table"
done < <(sed -n 's/^@@BENCH-RAW //p' "$log")
herr=$(sed -n 's/^@@BENCH-HIST-ERR //p' "$log")
[ -z "$herr" ] || notok "hist triggers and synthetic events set up" "$herr"
k=0
while read -r line; do
	rate=$(field "$line" rate) variant=$(field "$line" variant)
	probe=$(field "$line" probe)
	pq=$(pval "$probe" queued) pd=$(pval "$probe" done) pms=$(pval "$probe" msecs)
	achieved=$(awk -v q="$pq" -v ms="$pms" 'BEGIN { printf "%.0f", q * 1000 / ms }')
	k=$((k + 1)) # this hist run's lines are the k-th of each kind
	hq=$(hsum "$(sed -n 's/^@@BENCH-HIST-QUEUED //p' "$log" | sed -n "${k}p")")
	hw=$(hsum "$(sed -n 's/^@@BENCH-HIST-WAIT //p' "$log" | sed -n "${k}p")")
	hr=$(hsum "$(sed -n 's/^@@BENCH-HIST-RUN //p' "$log" | sed -n "${k}p")")
	asked=$([ "$rate" = 0 ] && echo "max" || echo "$rate")
	if [ "$variant" = count ]; then
		# counts per work item, joined: exact, or the path is wrong
		echo "| $krel | $asked, in-kernel hist ($variant) | $achieved | $((4 * pq)) | - | - | - | - | $hq/$hw/$hr of $pq/$pd | $([ "$rate" = 0 ] && effect "$achieved" || echo -) |" >>"$table"
		d="in-kernel hist ($variant) at rate $asked: probe queued $pq, ran $pd ($achieved/s); the hists counted queued $hq, started $hw, done $hr"
		if [ "$hq" = "$pq" ] && [ "$hw" = "$pd" ] && [ "$hr" = "$pd" ]; then ok "$d"; else notok "$d" "$line"; fi
		continue
	fi
	# wait and run times: a pair whose variable the matching event did not
	# find is missed (measured: 1 to 23 in 220,000-250,000); the figure is
	# reported, and more than 1 in 1,000 missed fails
	echo "| $krel | $asked, in-kernel hist ($variant) | $achieved | $((4 * pq)) | - | - | - | - | wait/run pairs $hw/$hr of $pd | $([ "$rate" = 0 ] && effect "$achieved" || echo -) |" >>"$table"
	d="in-kernel hist ($variant) at rate $asked: probe ran $pd ($achieved/s); wait times $hw, run times $hr: $((pd - hw)) and $((pd - hr)) pairs missed"
	if [ "$hw" -le "$pd" ] && [ "$hr" -le "$pd" ] && [ $(((pd - hw) * 1000)) -le "$pd" ] && [ $(((pd - hr) * 1000)) -le "$pd" ]; then
		ok "$d"
	else
		notok "$d" "$line"
	fi
done < <(sed -n 's/^@@BENCH-HIST //p' "$log")
off=$(sed -n 's/^@@BENCH-HIST-OFF //p' "$log" | tail -1)
[ -z "$off" ] || { [ "$off" = "synthetic=0 triggers=0" ] && ok "the hand-made triggers and synthetic events removed" ||
	notok "the hand-made triggers and synthetic events removed" "$off"; }

# one function on two workqueues (guest.sh: the probe's split flood, every
# other item to wqflood2): the kernel backend's hists are keyed by function,
# and the execute events do not name the workqueue. Each one's queueing is
# counted exactly; their done counts are the function's shared in
# proportion to what each queued, so they add up to the probe's exactly and
# each is near its own (reported; more than 1 % off fails); the warning
# names the function.
split=$(sed -n 's/^@@BENCH-SPLIT //p' "$log")
if [ -n "$split" ]; then
	probe=$(field "$split" probe)
	pq=$(pval "$probe" queued) pd=$(pval "$probe" done) pq2=$(pval "$probe" queued2) pd2=$(pval "$probe" done2)
	sum=$(sed -n 's/^@@BENCH-SPLIT-SUMMARY //p' "$log")
	read -r q1 d1 s1 q2 d2 s2 < <(/usr/bin/python3 -c 'import json, sys
d = json.loads(sys.argv[1])
r = {w["name"]: w for w in d["workqueues"]}
a, b = r.get("wqflood", {}), r.get("wqflood2", {})
print(a.get("queued"), a.get("done"), a.get("shared"), b.get("queued"), b.get("done"), b.get("shared"))' "$sum" 2>/dev/null || echo '? ? ? ? ? ?')
	said=$(grep -c '^@@BENCH-SPLIT-STDERR .*flood_fn.* is queued on wqflood, wqflood2:' "$log")
	d="one function on two workqueues: probe queued $((pq - pq2))/$pq2 and ran $((pd - pd2))/$pd2 on wqflood/wqflood2; monitor --backend kernel counted queued $q1/$q2, done $d1/$d2 (shared: $s1/$s2)"
	if [ "$q1" = $((pq - pq2)) ] && [ "$q2" = "$pq2" ] && [ $((d1 + d2)) = "$pd" ] &&
		[ $((1000 * ((d2 - pd2) < 0 ? pd2 - d2 : d2 - pd2))) -le $((10 * pd)) ] &&
		[ "$s1/$s2" = "True/True" ] && [ "$said" -ge 1 ]; then
		ok "$d; each done within $(((d2 - pd2) < 0 ? pd2 - d2 : d2 - pd2)) of its own"
	else
		notok "$d" "$split" "$sum" "$(sed -n 's/^@@BENCH-SPLIT-STDERR //p' "$log" | head -3)"
	fi
	echo "| $krel | 100000, one function on two workqueues, kernel | - | - | - | - | - | - | $q1+$q2/$d1+$d2 of $((pq - pq2))+$pq2/$((pd - pd2))+$pd2 | - |" >>"$table"
fi

# the same load seen by the streaming path and by the default one at once
# (guest.sh: monitors over one flood, set up as stream, default, stream2):
# the default took wait and run times from the kernel in log2 buckets,
# reported as the bucket's top 2^K us; each streamed percentile (exact, in
# ns) must lie in that bucket, (2^(K-1), 2^K], give or take the 1 us the
# kernel's timestamps are cut to and D, what the two streaming monitors
# measured apart for that percentile: each tracer stamps an event in its
# turn, so two tracers time the same item differently (an interrupt
# between two stamps lengthens one side only), and stream and stream2 are
# one tracer further apart than either is from the default. Counts equal
# the probe's on all three
qk=0
while read -r line; do
	rate=$(field "$line" rate) be=$(field "$line" backend)
	probe=$(field "$line" probe)
	pq=$(pval "$probe" queued) pd=$(pval "$probe" done)
	qk=$((qk + 1)) # the qk-th set of summaries
	s1=$(sed -n 's/^@@BENCH-QUANT-STREAM //p' "$log" | sed -n "${qk}p")
	s2=$(sed -n 's/^@@BENCH-QUANT-DEFAULT //p' "$log" | sed -n "${qk}p")
	s3=$(sed -n 's/^@@BENCH-QUANT-STREAM2 //p' "$log" | sed -n "${qk}p")
	res=$(/usr/bin/python3 -c 'import json, sys
s, k, s2 = (json.loads(a) for a in sys.argv[1:4])
pq, pd = int(sys.argv[4]), int(sys.argv[5])
def row(d):
    r = [w for w in d["workqueues"] if w["name"] == "wqflood"]
    return r[0] if r else {}
a, b, c = row(s), row(k), row(s2)
bad, out = [], []
for col in ("queued", "done"):
    for name, r in (("stream", a), ("default", b), ("stream2", c)):
        want = pq if col == "queued" else pd
        if r.get(col) != want:
            bad.append("%s %s %s != %d" % (name, col, r.get(col), want))
for col in ("wait_p50", "wait_p99", "run_p50", "run_p99"):
    v, t, v2 = a.get(col), b.get(col), c.get(col)
    if v is None or t is None or v2 is None:
        bad.append("%s: missing (%s, %s, %s)" % (col, v, t, v2))
        continue
    d = abs(v - v2)
    out.append("%s %s and %s in %s (D %.1f)" % (col, v, v2, t, d))
    for name, x in (("stream", v), ("stream2", v2)):
        if not (t / 2 - 1 - d < x <= t + 1 + d):
            bad.append("%s: %s %s not in (%s/2, %s] +-(1 + %.1f) us" % (col, name, x, t, t, d))
print(("ok " if not bad else "bad ") + "; ".join(out + bad))' "$s1" "$s2" "$s3" "$pq" "$pd" 2>&1 | tail -1)
	d="same load ($rate/s), streaming and default ($be) at once: $res"
	if [ "${res%% *}" = ok ]; then ok "$d"; else notok "$d" "$s1" "$s2" "$s3"; fi
done < <(sed -n 's/^@@BENCH-QUANT //p' "$log")
