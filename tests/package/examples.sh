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
trap 'wqctl profile off >/dev/null 2>&1; rm -f /etc/wqctl/profiles/luks-local.conf' EXIT
run() { # description expected-status command line (as the page prints it)
	local d=$1 want=$2 line=$3 out rc
	n=$((n + 1))
	grep -qF -- "$line" <<<"$page" || { echo "not ok $n - $d: the page does not print '$line'"; fail=1; return; }
	out=$(timeout -s INT 5 bash -c "$line" 2>&1 </dev/null)
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
# no LUKS volume here: verify reports the section absent (exit 3), as SPEC says it must
run "LUKS volume on its node" "3" "wqctl profile use luks-local && wqctl apply && wqctl verify"
# monitor runs until interrupted: the example is stopped after 5 s (SIGINT) and must have run
run "monitor" "0 124 130" "wqctl monitor -i 2 -o +THROTTLED 'writeback' 'kcryptd*'"
run "owner (no iSCSI host here: exit 32)" 32 "wqctl owner iscsi_q_5"
run "isolation" 0 "wqctl check --profile cpu-partitioning"
run "isolation" 0 "wqctl profile use cpu-partitioning && wqctl apply"
run "undo" 0 "wqctl profile off   # undo: deactivate and restore"
n=$((n + 1))
if [ -z "$(grep -v '^#' /etc/wqctl/active-profiles 2>/dev/null)" ] && [ ! -s /run/wqctl/journal ]; then
	echo "ok $n - after the examples nothing is active and nothing is left to revert"
else
	echo "not ok $n - after the examples nothing is active and nothing is left to revert"; fail=1
fi
exit $fail
