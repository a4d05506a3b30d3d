#!/bin/bash
# check --isolation against the probe (tests/vm/guest.sh isolation_truth):
# booted with isolcpus=ISO nohz_full=ISO, the probe queued 5 per-CPU items
# on each isolated CPU (probe_pcpu_fn, queue_work_on) and 6 unbound items
# from each (probe_fn, its workqueue's cpumask = ISO, the root mask = all);
# then the root mask alone set to housekeeping (wqprobe's own mask then
# misses it: the kernel uses the root mask), then the cpu-partitioning profile.
#   isotruth.sh GUEST_LOG TAG N ISO   prints TAP numbered from N+1
set -uo pipefail
log=$1 tag=$2 n=$3 iso=$4
ok() { n=$((n + 1)); echo "ok $n - $tag: $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $tag: $1"; shift; for l in "$@"; do echo "#   $l"; done; }
out() { awk -v c="$1" '$0 == "@@OUT " c { p = 1; next } /^@@OUT-END/ { p = 0 } p' "$log"; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
# the audit's work rows, one per line: workqueue function cpus count movable verdict fix
rows() {
	out "iso-$1" | awk -F'": ' '
		/"workqueue":/ { r = "" }
		/"(workqueue|function|cpus|count|movable|verdict)":/ { v = $2; gsub(/^"|",?$|,$/, "", v); r = r v "\t" }
		/"fix":/ { v = $2; gsub(/^"|",?$/, "", v); print r v }'
}
. "$(dirname "$0")/../fixtures/cpulist.sh"
ncpu=$(expand "$iso" | wc -l)

b=$(grep '^@@ISO before ' "$log" | head -1)
[ "$(field "$b" isolated)" = "$iso" ] && [ "$(field "$b" nohz_full)" = "$iso" ] &&
	ok "the kernel isolated $iso (isolcpus=, nohz_full=)" || notok "the kernel isolated $iso" "$b"
[ "$(field "$b" rc)" = 3 ] && ok "check --isolation exits 3: work ran on isolated CPUs" ||
	notok "check --isolation exits 3" "$b" "$(out iso-before | tail -3)"
grep -q "\"isolated\": \"$iso\"" <<<"$(out iso-before)" && ok "the audit sampled CPUs $iso" ||
	notok "the audit sampled CPUs $iso" "$(out iso-before | head -3)"
pq=$(field "$b" pcpu | cut -d, -f2) uq=$(field "$b" stats | cut -d, -f2)
[ "$pq" = $((5 * ncpu)) ] && [ "$uq" = $((6 * ncpu)) ] &&
	ok "the probe queued $pq per-CPU and $uq unbound items" || notok "the probe queued its items" "$b"

judge() { # round: the probe's rows against the probe's counts
	local r=$1 pc un
	pc=$(rows "$r" | awk -F'\t' '$2 == "probe_pcpu_fn"')
	un=$(rows "$r" | awk -F'\t' '$2 == "probe_fn"')
	if [ "$(wc -l <<<"$pc")" = 1 ] && [ "$(cut -f1,3,4,5,6 <<<"$pc")" = "$(printf 'wqprobe_pcpu\t%s\t%s\tfalse\tper-cpu' "$iso" "$pq")" ]; then
		ok "$r: probe_pcpu_fn of wqprobe_pcpu ran $pq times on CPUs $iso: per-cpu, not movable"
	else
		notok "$r: probe_pcpu_fn of wqprobe_pcpu ran $pq times on CPUs $iso: per-cpu, not movable" "${pc:-no row}"
	fi
	if [ "$r" = before ]; then
		cpus=$(cut -f3 <<<"$un")
		inside=$(comm -23 <(expand "$cpus" | sort) <(expand "$iso" | sort) | wc -l)
		if [ "$(wc -l <<<"$un")" = 1 ] && [ -n "$cpus" ] && [ "$inside" = 0 ] &&
			[ "$(cut -f1,4,5,6 <<<"$un")" = "$(printf 'wqprobe\t%s\ttrue\tcpumask' "$uq")" ] &&
			grep -q "wqctl set wqprobe cpumask=housekeeping" <<<"$(cut -f7 <<<"$un")"; then
			ok "$r: probe_fn of wqprobe ran $uq times on CPUs $cpus (within $iso): movable, 'wqctl set wqprobe cpumask=housekeeping'"
		else
			notok "$r: probe_fn of wqprobe ran $uq times within $iso: movable by its cpumask" "${un:-no row}"
		fi
	elif [ -z "$un" ]; then
		ok "$r: probe_fn no longer runs on isolated CPUs"
	else
		notok "$r: probe_fn no longer runs on isolated CPUs" "$un"
	fi
}
judge before
# the root mask alone as housekeeping: wqprobe keeps its own mask (ISO), which now misses the root
# mask, so the kernel uses the root mask for it (doc/kernel.md §1: E = W within G, or G)
hk=$(hexmask "$(comm -23 <(seq 0 15 | sort) <(expand "$iso" | sort) | sort -n | paste -sd,)" 16)
k=$(grep '^@@ISOROOT ' "$log" | head -1)
[ "$(field "$k" rc)" = 0 ] && [ "$(field "$k" root)" = "$hk" ] && [ "$(field "$k" wqprobe)" = "$(hexmask "$iso" 16)" ] &&
	ok "knob cpumask=housekeeping set the root mask alone ($hk; wqprobe's stays $iso)" ||
	notok "knob cpumask=housekeeping set the root mask alone ($hk)" "$k"
judge knob
ck=$(out iso-check-knob)
! grep -q "cpumask-isolated" <<<"$ck" && grep -qx "warning cpumask-ignored wqprobe" <<<"$ck" &&
	ok "check judges the effective masks: no cpumask-isolated left, wqprobe's own mask ignored (the kernel kept its work off $iso)" ||
	notok "check judges the effective masks after the root mask alone" "$ck"
grep -qx "warning cpumask-isolated writeback" <<<"$(out iso-check-before)" &&
	ok "before it, writeback (every CPU, root mask every CPU) was named" ||
	notok "before it, writeback was named" "$(out iso-check-before)"
a=$(grep '^@@ISOAPPLY ' "$log" | head -1)
[ "$(field "$a" rc)" = 0 ] && [ "$(field "$a" root)" = "$hk" ] && [ "$(field "$a" wqprobe)" = "$hk" ] &&
	ok "the cpu-partitioning profile set the root and wqprobe cpumasks to housekeeping ($hk)" ||
	notok "the cpu-partitioning profile set the masks to housekeeping ($hk)" "$a"
judge after
af=$(grep '^@@ISO after ' "$log" | head -1)
[ "$(field "$af" rc)" = 3 ] && ok "after the profile: exit 3 still (the per-CPU work remains)" ||
	notok "after the profile: exit 3 still" "$af"
cb=$(out iso-check-before) ca=$(out iso-check-after)
grep -qx "warning cpumask-isolated cpumask" <<<"$cb" && grep -qx "warning cpumask-isolated wqprobe" <<<"$cb" &&
	ok "check (static) names the root and wqprobe cpumasks that include isolated CPUs" ||
	notok "check (static) names the root and wqprobe cpumasks" "$cb"
! grep -q "cpumask-isolated cpumask\|cpumask-isolated wqprobe" <<<"$ca" &&
	ok "after the profile, check no longer names them" || notok "after the profile, check no longer names them" "$ca"
! grep -q "isolation-mismatch\|housekeeping-mismatch" <<<"$cb$ca" &&
	ok "the kernel's isolation matches the boot parameters (no mismatch finding)" ||
	notok "no isolation-mismatch finding" "$cb"
