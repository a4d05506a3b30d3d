#!/bin/bash
# The root unbound cpumask by kernel version (tests/vm/guest.sh rootmask_truth):
# booted on 16 CPUs with nohz_full=12-13 and isolcpus=10-11. The expected
# masks are the kernel's boot rule worked out here by hand: up to 6.x
# nohz_full= removes its CPUs (HK_TYPE_WQ), from 7.0 it does not (an alias of
# the kernel-noise type); isolcpus= removes its CPUs on both. Then a cpuset
# isolated partition of CPUs 8-9 made at run time: the kernel takes them out
# of the root mask and lists them in cpumask_isolated.
#   roottruth.sh GUEST_LOG TAG N KREL   prints TAP numbered from N+1
set -uo pipefail
log=$1 tag=$2 n=$3 krel=$4
ok() { n=$((n + 1)); echo "ok $n - $tag: $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $tag: $1"; shift; for l in "$@"; do echo "#   $l"; done; }
out() { awk -v c="$1" '$0 == "@@OUT " c { p = 1; next } /^@@OUT-END/ { p = 0 } p' "$log"; }
# the K-th output of a command run more than once
outn() { awk -v c="$1" -v k="$2" '$0 == "@@OUT " c { i++; p = (i == k); next } /^@@OUT-END/ { p = 0 } p' "$log"; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }
. "$(dirname "$0")/../fixtures/cpulist.sh"

major=${krel%%.*}
if [ "$major" -ge 7 ]; then want=0-9,12-15; else want=0-9,14-15; fi
whex=$(hexmask "$want" 16)

b=$(grep '^@@ROOT boot ' "$log" | head -1)
[ "$(field "$b" cpu_isolated)" = 10-11 ] && [ "$(field "$b" nohz_full)" = 12-13 ] &&
	ok "the kernel took isolcpus=10-11 and nohz_full=12-13" || notok "the kernel took isolcpus=10-11 and nohz_full=12-13" "$b"
[ "$(field "$b" requested)" = "$whex" ] && [ "$(field "$b" cpumask)" = "$whex" ] &&
	ok "the kernel's root mask at boot is $want ($whex)" ||
	notok "the kernel's root mask at boot is $want ($whex)" "$b"
got=$(outn "topology -r -o SCOPE,CPUS" 1 | awk '$1 == "boot_cpumask" { print $2 }')
[ "$(expand "$got" | paste -sd,)" = "$(expand "$want" | paste -sd,)" ] &&
	ok "wqctl topology predicts it: boot_cpumask $got" ||
	notok "wqctl topology predicts it: boot_cpumask $want" "got '$got'" "$(outn "topology -r -o SCOPE,CPUS" 1 | head -9)"
c=$(outn "check -r -n -o SEVERITY,CODE,TARGET" 1)
if [ "$major" -ge 7 ]; then
	grep -qx "warning nohz-full-unbound cpumask" <<<"$c" && ok "check: nohz-full-unbound (7.0+ leaves 12-13 in it)" ||
		notok "check: nohz-full-unbound" "$c"
	# writeback's own mask is every CPU: within the root mask it still reaches 12-13
	grep -qx "warning cpumask-isolated writeback" <<<"$c" &&
		ok "check: cpumask-isolated writeback (its effective mask is the root mask, 12-13 in it)" ||
		notok "check: cpumask-isolated writeback" "$c"
else
	! grep -q nohz-full-unbound <<<"$c" && ok "check: no nohz-full-unbound (the kernel kept 12-13 out)" ||
		notok "check: no nohz-full-unbound" "$c"
	# writeback's own mask is every CPU, but the kernel uses it within the root mask: 10-13 out
	! grep -q "cpumask-isolated writeback" <<<"$c" &&
		ok "check: no cpumask-isolated writeback (its effective mask, within the root mask, avoids 10-13)" ||
		notok "check: no cpumask-isolated writeback" "$c"
fi

# the partition of 8-9: out of the root mask, in cpumask_isolated
p=$(grep '^@@ROOT partition=' "$log" | head -1)
pw=$(hexmask "$(comm -23 <(expand "$want" | sort) <(expand 8-9 | sort) | sort -n | paste -sd,)" 16)
[ "$(field "$p" partition)" = isolated ] && [ "$(field "$p" cpumask)" = "$pw" ] &&
	ok "an isolated cpuset partition of 8-9 takes them out of the root mask ($pw)" ||
	notok "an isolated cpuset partition of 8-9 takes them out of the root mask ($pw)" "$p"
ih=$(field "$p" isolated)
# cpumask_isolated holds 8-9 (bits 0x300), beside the isolcpus= CPUs where the kernel lists them too
[ -n "$ih" ] && [ $((0x${ih//,/} & 0x300)) = $((0x300)) ] && ok "cpumask_isolated $ih holds 8-9" ||
	notok "cpumask_isolated holds 8-9" "$p"
c=$(outn "check -r -n -o SEVERITY,CODE,TARGET" 2)
grep -qx "info cpuset-isolated cpumask_isolated" <<<"$c" && ! grep -q cpumask-in-partition <<<"$c" &&
	ok "check: cpuset-isolated, and the root mask is clear of the partition" ||
	notok "check: cpuset-isolated without cpumask-in-partition" "$c"
grep -q "cpuset-isolated.*CPUs 8-9 are in isolated cpuset partitions" <<<"$(out "check -n -o CODE,MESSAGE")" &&
	ok "check names CPUs 8-9" || notok "check names CPUs 8-9" "$(out "check -n -o CODE,MESSAGE")"

# knob cpumask=housekeeping: online 0-15 less isolated and nohz_full (wqctl's rule: 10-13, and the
# partition's 8-9 where the kernel lists them as isolated): no effective mask reaches them
h=$(grep '^@@ROOT housekeeping ' "$log" | head -1)
c=$(outn "check -r -n -o SEVERITY,CODE,TARGET" 3)
hm=$(field "$h" cpumask)
[ -n "$hm" ] && [ $((0x${hm//,/} & 0x3c00)) = 0 ] && ! grep -q cpumask-isolated <<<"$c" &&
	ok "after knob cpumask=housekeeping ($hm): no cpumask-isolated finding on any workqueue" ||
	notok "after knob cpumask=housekeeping: no cpumask-isolated finding" "$h" "$c"
