#!/usr/bin/env bats
# monitor (wqctl(8), COMMANDS): options, columns and refusals that need no tracefs.
# The tracepoint reading itself is in tests/live/monitor.bats; the
# bookkeeping (rates, pending, in flight, percentiles) in tests/unit/test-monitor.c.
load helpers

setup() {
	use_tree vmware_fpe 6.18.0
}

@test "monitor refuses a sysroot: tracepoints are live only" {
	run wq monitor -c 1
	assert_failure 2
	assert_output "wqctl: monitor: tracepoints are read from the live system only, not a sysroot"
}

@test "monitor --list-columns names every column" {
	run "$WQCTL" monitor --list-columns
	assert_success
	for c in NAME QUEUED/S STARTED/S PENDING INFLIGHT WAIT_P50 WAIT_P99 RUN_P50 RUN_P99 QUEUED STARTED DONE THROTTLED; do
		assert_line --regexp "^$c +"
	done
}

@test "monitor rejects bad intervals and counts before touching tracefs" {
	for v in 0 0.05 -1 abc 1s 3601 nan inf ''; do
		run wq monitor -i "$v"
		assert_failure 2
		assert_output --partial "monitor: --interval '$v': expected seconds from 0.1 to 3600"
	done
	for v in 0 -2 x 1.5 ''; do
		run wq monitor --count="$v"
		assert_failure 2
		assert_output --partial "monitor: --count '$v': expected a positive number of intervals"
	done
	run wq monitor --bogus
	assert_failure 2
	assert_output --partial "monitor: --bogus: unknown option"
	run wq monitor -i
	assert_failure 2
}

@test "monitor -o with an unknown column is a usage error, before tracing" {
	run wq monitor -o NAME,NOPE -c 1
	assert_failure 2
	assert_output --partial "NOPE"
}

@test "monitor takes its options after the patterns too (SPEC: monitor [PATTERN...] [-i SECONDS] [-c COUNT])" {
	run wq monitor writeback -i 0
	assert_failure 2
	assert_output --partial "monitor: --interval '0'"
	run wq monitor 'kcryptd*' writeback -c 0
	assert_failure 2
	assert_output --partial "monitor: --count '0'"
	# valid ones get as far as the live-only check
	run wq monitor writeback -i 2 -c 3
	assert_failure 2
	assert_output --partial "live system only"
}

@test "monitor --buffer-size takes KiB per CPU from 4 to 1048576, checked before tracefs" {
	for v in 0 3 -1 abc 1M 1048577 ''; do
		run wq monitor --buffer-size "$v"
		assert_failure 2
		assert_output --partial "monitor: --buffer-size '$v': expected KiB per CPU from 4 to 1048576"
	done
	run "$WQCTL" monitor --list-columns
	assert_line --regexp "^MAX_ACTIVE +"
	assert_line --regexp "^LIMIT +"
}

@test "monitor --backend takes auto, bpf, counters, kernel or stream, checked before tracefs" {
	for v in '' foo Kernel hist counter BPF ebpf; do
		run wq monitor --backend "$v"
		assert_failure 2
		assert_output "wqctl: monitor: --backend '$v': expected auto, bpf, counters, kernel or stream"
	done
}

# the kernel's own counters (issue 64): no wait or run times, no held-back count; only they have CPU_MS and the rest
@test "monitor: the counters' columns and --backend must agree, checked before anything is read" {
	run wq monitor --backend counters -o NAME,DONE,WAIT_P99 -c 1
	assert_failure 2
	assert_output "wqctl: monitor: the kernel's counters have no wait or run times (WAIT_P50, WAIT_P99, RUN_P50, RUN_P99): leave those columns out (-o), or --backend bpf, kernel or stream"
	run wq monitor --backend counters -o NAME,THROTTLED -c 1
	assert_failure 2
	assert_output "wqctl: monitor: the kernel's counters have no held-back count (THROTTLED): leave those columns out (-o), or --backend bpf, kernel or stream"
	for b in kernel stream; do
		run wq monitor --backend $b -o NAME,MAYDAY -c 1
		assert_failure 2
		assert_output "wqctl: monitor: CPU_MS, CPU_INTENSIVE, CM_WAKEUP, REPATRIATED, MAYDAY and RESCUED are the kernel's own counters: --backend counters (or auto)"
	done
}

@test "monitor: where the counters cannot be read, the reason (here: a tree without the kernel's BTF)" {
	# --backend counters takes its own default columns (no WAIT/RUN); CPU_MS alone chooses the counters under auto
	local instead="wqctl: monitor: --backend bpf, kernel or stream count through the tracepoints instead"
	run wq monitor --backend counters -c 1
	assert_failure 1
	assert_output "wqctl: monitor: the kernel has no BTF (/sys/kernel/btf/vmlinux: CONFIG_DEBUG_INFO_BTF is off)
$instead"
	run wq monitor -o NAME,CPU_MS -c 1
	assert_failure 1
	assert_output "wqctl: monitor: the kernel has no BTF (/sys/kernel/btf/vmlinux: CONFIG_DEBUG_INFO_BTF is off)
$instead"
	run wq --kernel 6.1.0 monitor --backend counters -c 1
	assert_failure 1
	assert_output "wqctl: monitor: the kernel keeps per-workqueue counters from 6.3 on (this is 6.1.0)
$instead"
}
