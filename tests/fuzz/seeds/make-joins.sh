#!/bin/bash
# Writes the joins harness's seeds (tests/fuzz/seeds/joins) from the real
# hist files in tests/fixtures/real/hist: a join byte, then each read's
# hist files (queue, activate, start, end; by function also wait, run),
# each ending at a NUL byte. Run again when those fixtures change.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
H=$here/../../fixtures/real/hist
S=$here/joins
mkdir -p "$S"
ev="workqueue_queue_work workqueue_activate_work workqueue_execute_start workqueue_execute_end"
read_of() { # dir [wait run]
	local d=$1 f
	shift
	for f in $ev; do cat "$d/$f.hist"; printf '\0'; done
	for f in "$@"; do cat "$f"; printf '\0'; done
}
# by work: one read of each kernel, and the 6.12 read twice (nothing changed in between)
{ printf '0'; read_of "$H/debian-6.12"; read_of "$H/debian-7.3"; } >"$S/work-6.12-then-7.3"
{ printf '0'; read_of "$H/debian-6.12"; read_of "$H/debian-6.12"; } >"$S/work-6.12-twice"
# by function with the times: 6.12's timed read, 7.3's read with its probe's time hists
{ printf '1'; read_of "$H/debian-6.12/times" "$H/debian-6.12/times/wqctl_w.hist" "$H/debian-6.12/times/wqctl_r.hist"; } >"$S/fn-6.12-times"
{ printf '1'; read_of "$H/debian-7.3/by-function" "$H/debian-7.3/wqb_w.hist" "$H/debian-7.3/wqb_r.hist"
	read_of "$H/debian-6.12/by-function" "$H/debian-6.12/wqb_w.hist" "$H/debian-6.12/wqb_r.hist"; } >"$S/fn-7.3-then-6.12"
