#!/bin/bash
# The counters only the kernel keeps (CPU time, CPU-intensive, CM wake-ups),
# as monitor --backend counters sums them, against what the probe's per-CPU
# items did (tests/vm/guest.sh kstat_truth): BUSY_ITEMS items one after the
# other on one CPU, each spinning BUSY_MS (30 ms past the kernel's
# CPU-intensive threshold) without sleeping, then SLEEP_ITEMS items at once
# that each sleep 100 ms. Expected figures from the kernel's source (doc/kernel.md §8.3):
# - STARTED = DONE = every item;
# - CPU_INTENSIVE = BUSY_ITEMS: a tick past the threshold marks a running
#   item of a concurrency-managed pool once (it then stops counting), and
#   the sleeping items run far below it;
# - CPU_MS: a tick adds one tick's time to the item it lands in, so the
#   busy items make BUSY_ITEMS x BUSY_MS, give or take a tick (10 ms at
#   most) each and one for each sleeping item; TCG may lose ticks on a
#   busy host, so at least half of that;
# - CM_WAKEUP: a worker going to sleep (or marked CPU-intensive) with work
#   pending wakes an idle one and counts it on its pwq; the first sleeping
#   item sleeps with the other three pending and an idle worker there (a
#   worker makes sure of one before it runs an item): at least 1, and at
#   most one for each item (9).
#   kstattruth.sh GUEST_LOG TAG N   prints TAP numbered from N+1
set -uo pipefail
log=$1 tag=$2 n=$3
ok() { n=$((n + 1)); echo "ok $n - $tag: $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $tag: $1"; shift; for l in "$@"; do echo "#   $l"; done; }
# a field of the section's line (line, set by section)
f() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $line"; }
# A section of the guest's log: its @@TAG line in line, its @@OUT NAME block
# in out; 1 (nothing to judge) when the guest printed none, or said it
# could not run (then said here as WHAT not ok).
section() { # TAG NAME WHAT
	line=$(grep "^@@$1 " "$log" | head -1)
	[ -n "$line" ] || return 1
	if [ -n "$(f error)" ]; then
		notok "$3" "$line"
		return 1
	fi
	out=$(awk -v b="@@OUT $2" '$0 == b { p = 1; next } /^@@OUT-END/ { p = 0 } p' "$log")
}
kstat() {
	local line out st dn ms ci cm my rs bi si busy all lo hi probe items hog pr
	section KSTAT kstat "the kernel's CPU counters against the probe ran" || return 0
	# NAME STARTED DONE CPU_MS CPU_INTENSIVE CM_WAKEUP, one line per interval
	read -r st dn ms ci cm <<<"$(awk '$1 == "wqprobe_pcpu" { s += $2; d += $3; m += $4; i += $5; w += $6 }
		END { printf "%d %d %.1f %d %d", s, d, m, i, w }' <<<"$out")"
	bi=$(f busy_items) si=$(f sleep_items) busy=$(f busy_ms)
	all=$((bi + si))
	if [ "$(f rc)" != 0 ] || [ "$(f pcpu)" != "queued,$si,done,$si" ]; then
		notok "monitor --backend counters over the probe's per-CPU items exits 0, every item done" "$line" "$(tail -3 <<<"$out")"
		return 0
	fi
	[ "$st" = "$all" ] && [ "$dn" = "$all" ] &&
		ok "per-CPU items: monitor --backend counters STARTED $st, DONE $dn = the probe's $bi + $si" ||
		notok "per-CPU items: STARTED = DONE = the probe's $all" "started $st done $dn" "$out"
	[ "$ci" = "$bi" ] &&
		ok "CPU_INTENSIVE $ci = the $bi items that spun ${busy} ms, past the kernel's threshold of $(f thresh_us) us" ||
		notok "CPU_INTENSIVE = the $bi items that spun past the threshold" "CPU_INTENSIVE $ci" "$line" "$out"
	lo=$((bi * busy / 2)) hi=$((bi * (busy + 10) + si * 10))
	awk -v m="$ms" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(m >= lo && m <= hi) }' &&
		ok "CPU_MS $ms within $lo..$hi ($bi items x ${busy} ms spun, a tick each way)" ||
		notok "CPU_MS within $lo..$hi ($bi x ${busy} ms)" "CPU_MS $ms" "$out"
	[ "$cm" -ge 1 ] && [ "$cm" -le "$all" ] &&
		ok "CM_WAKEUP $cm: at least the first sleeper's wake-up of a worker for the 3 behind it, at most one an item ($all)" ||
		notok "CM_WAKEUP within 1..$all" "CM_WAKEUP $cm" "$out"
}

# The rescuer's counters (tests/vm/guest.sh mayday_truth): ITEMS items that
# each sleep 100 ms on a per-CPU pool that cannot make a worker (kthreadd
# starved on another CPU for HOG_MS). Expected from the kernel's source
# (doc/kernel.md §8.3): RESCUED counts each item the rescuer ran, which the
# probe counts as the items that ran in a thread named kworker/R-...: equal,
# and at least one (else the set-up did not starve the pool, said as such);
# MAYDAY counts each time a pwq was put on the rescuer's list: at least one
# when anything was rescued, at most one a mayday interval (100 ms) of the
# starvation plus one a rescued item (the rescuer's own re-send).
mayday() {
	local line out st dn ms ci cm my rs bi si busy all lo hi probe items hog pr
	section MAYDAY mayday "the rescuer's counters against the probe ran" || return 0
	# NAME STARTED DONE MAYDAY RESCUED, one line per interval
	read -r st dn my rs <<<"$(awk '$1 == "wqmayday" { s += $2; d += $3; m += $4; r += $5 } END { printf "%d %d %d %d", s, d, m, r }' <<<"$out")"
	probe=$(f probe) items=$(f items) hog=$(f hog_ms)
	pr=$(sed -n 's/.*rescued,\([0-9]*\).*/\1/p' <<<"$probe")
	if [ "$(f rc)" != 0 ] || [ "$probe" != "queued,$items,done,$items,rescued,$pr" ]; then
		notok "monitor --backend counters over the probe's starved items exits 0, every item done" "$line" "$(tail -3 <<<"$out")"
		return 0
	fi
	[ "$st" = "$items" ] && [ "$dn" = "$items" ] &&
		ok "starved per-CPU items: STARTED $st, DONE $dn = the probe's $items" ||
		notok "starved per-CPU items: STARTED = DONE = the probe's $items" "started $st done $dn" "$out"
	if [ "$pr" -ge 1 ]; then
		[ "$rs" = "$pr" ] &&
			ok "RESCUED $rs = the $pr items the probe saw run in the rescuer (of $items)" ||
			notok "RESCUED = the items the probe saw run in the rescuer ($pr)" "RESCUED $rs" "$line" "$out"
		hi=$((hog / 100 + 1 + pr))
		[ "$my" -ge 1 ] && [ "$my" -le "$hi" ] &&
			ok "MAYDAY $my: at least one for the rescued items, at most $hi (a mayday interval of the $hog ms, one a rescued item)" ||
			notok "MAYDAY within 1..$hi" "MAYDAY $my" "$line" "$out"
	else
		notok "the probe's items were rescued (the pool starved of workers for $hog ms)" "$line" "$out"
	fi
}
# REPATRIATED (tests/vm/guest.sh repat_truth): ITEMS items one at a time on
# an unbound workqueue whose pod is one CPU, not strict, while a FIFO thread
# spins on that CPU. Expected from the kernel's source (doc/kernel.md §8.3):
# kick_pool() counts one each time it wakes an idle worker whose wake CPU is
# outside the pod, and sets it to the pod's CPU; the items are 20 ms apart,
# so the worker woken for an item is the one that ran the one before. What
# the wake CPU is then is the scheduler's: on 7.3 try_to_wake_up() sets it
# to the CPU it picks, so it is where the worker last ran (the probe's A:
# items whose worker last ran outside the pod); on 6.12 only a move
# (set_task_cpu()) sets it, so once put in the pod it stays there until the
# worker runs on another CPU than before (the probe's B: items whose worker
# moved between its two items before). 7.x is judged on A, 6.x on B (the
# two kernels the tier boots with the probe). REPATRIATED within E..E + U of
# that model, U the items whose worker was too new to the probe to tell,
# and some item ran outside the pod (else the set-up did not push the
# workers out, said as such).
repat() {
	local line out st dn rp probe items e u o m krel
	section REPAT repat "REPATRIATED against the probe ran" || return 0
	read -r st dn rp <<<"$(awk '$1 == "wqrepat" { s += $2; d += $3; r += $4 } END { printf "%d %d %d", s, d, r }' <<<"$out")"
	probe=$(f probe) items=$(f items) krel=$(f krel)
	m=b
	[ "${krel%%.*}" -ge 7 ] 2>/dev/null && m=a
	pv() { sed -n "s/.*,$1,\([0-9]*\).*/\1/p" <<<",$probe"; }
	o=$(pv outside) e=$(pv "$m") u=$(pv "u$m")
	if [ "$(f rc)" != 0 ] || [ -z "$u" ] || [ "${probe%%,outside*}" != "queued,$items,done,$items" ]; then
		notok "monitor --backend counters over the probe's items in a one-CPU pod exits 0, every item done" "$line" "$(tail -3 <<<"$out")"
		return 0
	fi
	[ "$st" = "$items" ] && [ "$dn" = "$items" ] &&
		ok "items in a one-CPU pod: STARTED $st, DONE $dn = the probe's $items" ||
		notok "items in a one-CPU pod: STARTED = DONE = the probe's $items" "started $st done $dn" "$out"
	if [ "$o" -ge 1 ]; then
		[ "$rp" -ge "$e" ] && [ "$rp" -le $((e + u)) ] &&
			ok "REPATRIATED $rp within $e..$((e + u)) (model ${m^^}: $e items' workers woken with a wake CPU outside the pod, $u too new to the probe to tell; $o of $items items ran outside)" ||
			notok "REPATRIATED within $e..$((e + u)) (model ${m^^} for $krel)" "REPATRIATED $rp" "$line" "$out"
	else
		notok "the probe's items ran outside their pod (a FIFO thread spinning on its CPU)" "$line" "$out"
	fi
}
kstat
mayday
repat
