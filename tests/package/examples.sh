#!/bin/bash
# The EXAMPLES of the installed wqctl(8), typed word for word on this
# machine after a fresh install (issue 14): every command line is taken from
# the rendered page, run as a user would, and judged by its exit status
# (some examples need devices this machine lacks: their expected status is
# said below). Prints TAP; restores what the examples change.
set -uo pipefail
n=0 fail=0
page=$(MANWIDTH=200 man wqctl 2>/dev/null | col -bx | sed -n '/^EXAMPLES/,/^SEE ALSO/p')
[ -n "$page" ] || { echo "not ok 1 - the installed wqctl(8) has an EXAMPLES section"; exit 1; }
# cleanup whatever happens: the examples activate profiles and write a profile file
trap 'wqctl profile off >/dev/null 2>&1; rm -f /etc/wqctl/profiles/luks-local.conf /var/lib/wqctl/experiments/wb.json /tmp/wb.svg' EXIT
run() { # description expected-status command line (as the page prints it); T: seconds (default 5)
	local d=$1 want=$2 line=$3 out rc
	n=$((n + 1))
	grep -qF -- "$line" <<<"$page" || { echo "not ok $n - $d: the page does not print '$line'"; fail=1; return; }
	out=$(timeout -s INT "${T:-5}" bash -c "$line" 2>&1 </dev/null)
	rc=$?
	if [[ " $want " == *" $rc "* ]]; then
		echo "ok $n - $d: '$line' exits $rc"
	else
		echo "not ok $n - $d: '$line' exits $rc, expected $want"
		sed 's/^/#   /' <<<"$out" | head -8
		fail=1
	fi
}
run "inspect" 0 "wqctl show -o +EFFECTIVE_CPUS,OWNER_NODE"
run "inspect" 0 "wqctl get writeback"
run "btrfs, as on 6.6-6.8" 0 "wqctl --kernel 6.8.0 explain btrfs-endio-write"
run "btrfs, here" 0 "wqctl explain btrfs-endio-write --max-active 8"
run "check" "0 3" "wqctl check"
# the LUKS profile, typed as the heredoc the page shows
n=$((n + 1))
body=$(sed -n '/cat >\/etc\/wqctl\/profiles\/luks-local.conf <<EOF/,/^ *EOF$/p' <<<"$page" | sed '1d;$d' | sed 's/^[[:space:]]*//')
if [ -d /etc/wqctl/profiles ] && printf '%s\n' "$body" >/etc/wqctl/profiles/luks-local.conf &&
	wqctl check --profile luks-local >/dev/null 2>&1; then
	echo "ok $n - the page's luks-local profile, written into /etc/wqctl/profiles as shown, is valid"
else
	echo "not ok $n - the page's luks-local profile is valid"; fail=1
fi
# no LUKS volume here: verify reports the section waiting for its device, which is no failure (exit 0)
run "LUKS volume on its node" "0" "wqctl profile use luks-local && wqctl apply && wqctl verify"
# monitor runs until interrupted: the example is stopped after 5 s (SIGINT) and must have run
run "monitor" "0 124 130" "wqctl monitor -i 2 -o +THROTTLED 'writeback' 'kcryptd*'"
run "owner (no iSCSI host here: exit 32)" 32 "wqctl owner iscsi_q_5"
# experiment: 6 fio runs of 64 MiB, a plot and a baseline, then the baseline again (within noise
# or, on a noisy disk, a regression: exit 0 or 3); writeback's max_active is back afterwards.
# The first command is two lines on the page (a backslash continuation): both are checked, then
# run joined as the shell would.
ma=$(cat /sys/devices/virtual/workqueue/writeback/max_active)
l1="wqctl experiment --set 'writeback max_active=8,64' --runs 3 --plot /tmp/wb.svg --save wb -- \\"
l2="fio --output-format=json --name=w --directory=/var/tmp --unlink=1 --rw=write --bs=1m --size=64m --fsync=8"
n=$((n + 1))
if grep -qF -- "$l1" <<<"$page" && grep -qF -- "$l2" <<<"$page"; then
	echo "ok $n - the page prints the experiment example's two lines"
else
	echo "not ok $n - the page prints '$l1' and '$l2'"; fail=1
fi
page+=$'\n'"${l1%\\} $l2"
T=300 run "experiment" 0 "${l1%\\} $l2"
T=300 run "experiment baseline" "0 3" "wqctl experiment --compare wb"
n=$((n + 1))
if [ "$(cat /sys/devices/virtual/workqueue/writeback/max_active)" = "$ma" ] && grep -q '<svg' /tmp/wb.svg &&
	[ -s /var/lib/wqctl/experiments/wb.json ] && [ ! -s /run/wqctl/journal ]; then
	echo "ok $n - after the experiment writeback's max_active is $ma again, no journal entry is left; the plot and the baseline exist"
else
	echo "not ok $n - after the experiment writeback's max_active is $ma again; the plot and the baseline exist"; fail=1
fi
run "isolation" 0 "wqctl check --profile cpu-partitioning"
run "isolation" 0 "wqctl profile use cpu-partitioning && wqctl apply"
# no isolated CPUs on this machine: the audit says so and exits 0
T=20 run "isolation audit" 0 "wqctl check --isolation -i 10"
run "undo" 0 "wqctl profile off   # undo: deactivate and restore"
n=$((n + 1))
if [ -z "$(grep -v '^#' /etc/wqctl/active-profiles 2>/dev/null)" ] && [ ! -s /run/wqctl/journal ]; then
	echo "ok $n - after the examples nothing is active and nothing is left to revert"
else
	echo "not ok $n - after the examples nothing is active and nothing is left to revert"; fail=1
fi
exit $fail
