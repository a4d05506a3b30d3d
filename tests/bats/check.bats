#!/usr/bin/env bats
# check: every finding code, triggered by a fixture.
load helpers
bats_require_minimum_version 1.5.0

setup() { use_tree vmware_fpe 6.18.0; }

# finding SEVERITY CODE TARGET: a line of `check -r -n -o SEVERITY,CODE,TARGET`
finding() { assert_line "$1 $2 $3"; }

@test "a clean tree has no warnings or errors" {
	run wq check -r -n -o SEVERITY
	assert_success
	refute_line "error"
	refute_line "warning"
}

@test "cpumask-no-online-cpu is an error: exit 3" {
	echo 00ff0000 >"$(WQDIR)/writeback/cpumask"   # CPUs 16-23, offline in vmware_fpe
	run wq check -r -n -o SEVERITY,CODE,TARGET
	assert_equal "$status" 3
	finding error cpumask-no-online-cpu writeback
}

@test "cpumask-ignored: disjoint from the root mask; --strict makes the warning fail" {
	echo 0000000f >"$(WQDIR)/cpumask"
	echo 000000f0 >"$(WQDIR)/writeback/cpumask"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	assert_success
	finding warning cpumask-ignored writeback
	run wq check --strict -n -o MESSAGE writeback
	assert_equal "$status" 3
	assert_output --partial "misses the root unbound cpumask 0-3: the kernel silently uses 0-3"
}

@test "cpumask-isolated" {
	echo 2-3 >"$ROOT/sys/devices/system/cpu/isolated"
	echo 0000000f >"$(WQDIR)/writeback/cpumask"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	finding warning cpumask-isolated writeback
	run wq check -o MESSAGE -n writeback
	assert_output --partial "isolated or nohz_full CPUs 2-3"
}

@test "cpumask-isolated judges the effective mask: after knob cpumask=housekeeping none is left (issue 59 item 3)" {
	# vmware_fpe: CPUs 0-15 online; 12-15 isolated. Every workqueue's own mask is every CPU (0-31).
	echo 12-15 >"$ROOT/sys/devices/system/cpu/isolated"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	finding warning cpumask-isolated cpumask
	finding warning cpumask-isolated writeback
	# the root mask written as housekeeping: 0-15 less 12-15 = 0-11 (0x0fff); the kernel uses
	# 0-31 within 0-11 for writeback, so no workqueue reaches 12-15 and nothing is to be said
	run wq knob cpumask=housekeeping
	assert_success
	assert_equal "$(cat "$(WQDIR)/cpumask")" 00000fff
	run wq check -r -n -o SEVERITY,CODE,TARGET
	refute_output --partial cpumask-isolated
	# explain's CPUs are the effective ones, and it says where the written mask's went
	run wq explain writeback
	assert_line "cpus:         0-11 (effective)"
	assert_line "note: the effective CPUs are the cpumask 0-31 within the root unbound cpumask 0-11: the kernel keeps this workqueue off CPUs 12-31"
	# a written mask that still reaches an isolated CPU through the root mask: named with both masks
	echo 00003fff >"$(WQDIR)/cpumask"        # root 0-13
	echo 0000f000 >"$(WQDIR)/writeback/cpumask" # 12-15: the kernel uses 12-13
	run wq check -n -o MESSAGE writeback
	assert_output --partial "cpumask 12-13 (effective: the cpumask 12-15 within the root unbound cpumask) includes isolated or nohz_full CPUs 12-13"
	# metrics: the same judgement: the root (0-13) and every unbound workqueue reach 12-13 now
	# (writeback; blkcg_punt_bio and kcryptd-253:0-1 at 0-31 within 0-13), and the CPUs are the effective ones
	run wq metrics
	assert_line 'wqctl_check_findings{severity="warning",code="cpumask-isolated"} 4'
	assert_line 'wqctl_workqueue_info{workqueue="writeback",kind="unbound",scope="cache",cpus="12-13",cpumask="12-15",owner=""} 1'
	assert_line 'wqctl_workqueue_info{workqueue="blkcg_punt_bio",kind="unbound",scope="cache",cpus="0-13",cpumask="0-31",owner=""} 1'
}

@test "cpumask-offline" {
	echo 0001000f >"$(WQDIR)/writeback/cpumask"   # 0-3 and offline 16
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	finding info cpumask-offline writeback
}

@test "mask findings in a row of workqueues: each gets its own mask's, the same mask twice the same ones" {
	echo 000000ff >"$(WQDIR)/cpumask"                    # root mask 0-7
	echo 0001000f >"$(WQDIR)/blkcg_punt_bio/cpumask"     # 0-3 and offline 16
	echo 0001000f >"$(WQDIR)/kcryptd-253:0-1/cpumask"    # the same text, next in the listing
	echo 00000f00 >"$(WQDIR)/writeback/cpumask"          # 8-11: outside the root mask, all online
	run wq check -r -n -o SEVERITY,CODE,TARGET
	assert_success
	finding info cpumask-offline blkcg_punt_bio
	finding info cpumask-offline kcryptd-253:0-1
	finding warning cpumask-ignored writeback
	refute_line "info cpumask-offline writeback"
	refute_line "warning cpumask-ignored blkcg_punt_bio"
	refute_line "warning cpumask-ignored kcryptd-253:0-1"
	assert_equal "$(grep -c 'cpumask-' <<<"$output")" 3
}

@test "scope-no-effect: numa on a one-node machine, smt without SMT" {
	use_tree x86_64-dell_e4310 6.18.0
	echo numa >"$(WQDIR)/writeback/affinity_scope"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	finding info scope-no-effect writeback
	use_tree arm-A510-A710-A715-X3 6.18.0
	echo smt >"$(WQDIR)/writeback/affinity_scope"
	run wq check -o MESSAGE -n writeback
	assert_output --partial "there is no SMT"
}

@test "scope-no-effect: only where the scope groups the online CPUs as cpu or system does" {
	# vmware_fpe: 2 threads a core, 4 nodes, 4 L3 instances (its lscpu): smt, cache and numa all split
	use_tree vmware_fpe 6.18.0
	for s in smt cache numa; do
		echo $s >"$(WQDIR)/writeback/affinity_scope"
		run wq check -r -n -o SEVERITY,CODE,TARGET writeback
		refute_output --partial scope-no-effect
	done
	# loongarch kvm: 1 node, one L3 instance for all 32 CPUs: cache is system
	use_tree loongarch-kvm_on_loongson_3c6000 6.18.0
	echo cache >"$(WQDIR)/writeback/affinity_scope"
	run wq check -n -o MESSAGE writeback
	assert_output --partial "all CPUs share one last-level cache"
	# dell e4310: 2 threads a core; smt pairs them
	use_tree x86_64-dell_e4310 6.18.0
	echo smt >"$(WQDIR)/writeback/affinity_scope"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	refute_output --partial scope-no-effect
	# with one CPU of each pair offline, each online CPU is alone: as cpu
	echo 0-1 >"$ROOT/sys/devices/system/cpu/online"
	run wq check -n -o MESSAGE writeback
	assert_output --partial "there is no SMT"
}

@test "max-active-per-cpu on 6.8: said once for the kernel's default, per workqueue for a value someone set (issue 61)" {
	use_tree vmware_fpe 6.8.0
	# writeback at 6.8's WQ_DFL_ACTIVE 256 (doc/kernel.md §3): the kernel's rule, one info finding
	run wq check -r -n -o SEVERITY,CODE,TARGET
	finding info max-active-per-cpu kernel
	refute_line --partial "max-active-per-cpu writeback"
	assert_equal "$(grep -c max-active-per-cpu <<<"$output")" 1
	# 256 x 16 online CPUs = 4096
	run wq check -n -o MESSAGE
	assert_line "max_active applies per CPU on 6.6-6.8: an unbound workqueue at this kernel's default 256 may run 256 items on each CPU of its mask (up to 4096 on the 16 online); only values set away from 256 are named"
	# out of the box, --strict does not fail on the kernel's own defaults
	run wq check --strict writeback
	assert_success
	assert_output ""
	# a value someone set: 64 x 16 = 1024, a warning naming the workqueue
	echo 64 >"$(WQDIR)/writeback/max_active"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	finding warning max-active-per-cpu writeback
	run wq check -n -o MESSAGE writeback
	assert_line "max_active 64 applies per CPU on 6.6-6.8: up to 1024 work items in flight"
}

@test "max-active-per-node on 6.1" {
	use_tree vmware_fpe 6.1.0
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	finding warning max-active-per-node writeback
	# 4 nodes, each with its own pwq: 256 x 4 = 1024
	run wq check -n -o MESSAGE writeback
	assert_line "max_active 256 applies per NUMA node pool up to 6.5: up to 1024 work items in flight"
}

@test "min-active-floor and min-active-lowered on 6.18" {
	echo 4 >"$(WQDIR)/writeback/max_active"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	# 4 nodes x 4 online CPUs: ceil(4*4/16) = 1 per node, floor min_active 4: 16 > 4
	finding info min-active-floor writeback
	finding info min-active-lowered writeback
	run wq check -o MESSAGE -n writeback
	assert_output --partial "allows 16 in flight, more than max_active 4"
}

@test "ordering-lost on 6.8" {
	use_tree vmware_fpe 6.8.0
	run wq check -r -n -o SEVERITY,CODE,TARGET scsi_tmf_0
	finding warning ordering-lost scsi_tmf_0
}

@test "percpu-not-steerable" {
	run wq check -r -n -o SEVERITY,CODE,TARGET ib-comp-wq
	finding info percpu-not-steerable ib-comp-wq
}

@test "max-active-out-of-range: a value above the kernel's limit" {
	use_tree vmware_fpe 6.8.0
	echo 1024 >"$(WQDIR)/writeback/max_active"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	assert_equal "$status" 3
	finding error max-active-out-of-range writeback
}

@test "check -J" {
	run wq check -J ib-comp-wq
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '{"findings":[{"severity":"info","code":"percpu-not-steerable","target":"ib-comp-wq","message":'
}

@test "check of the root mask with isolated CPUs" {
	echo 0-1 >"$ROOT/sys/devices/system/cpu/isolated"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	finding warning cpumask-isolated cpumask
}

@test "check on 6.6-6.8 with btrfs mounted: the per-CPU multiplication of thread_pool, and the remedy" {
	use_tree x86_64-64cpu 6.8.0
	mkdir -p "$ROOT/proc/self"
	printf '/dev/sda1 / ext4 rw,relatime 0 0\n/dev/sdb /data btrfs rw,relatime,space_cache=v2,subvol=/ 0 0\n/dev/sdc /fast btrfs rw,relatime,thread_pool=16,subvol=/ 0 0\n' >"$ROOT/proc/self/mounts"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	assert_line "warning btrfs-max-active-per-cpu /data"
	assert_line "warning btrfs-max-active-per-cpu /fast"
	run wq check -P -o TARGET,MESSAGE
	# 64 online CPUs: the default 8 -> 512, thread_pool=16 -> 1024; thread_pool=1 -> 64
	assert_line --partial 'TARGET="/data" MESSAGE="btrfs (/dev/sdb): thread_pool 8 (the default) is max_active of its workqueues, which 6.6-6.8 apply per CPU: up to 8 x 64 = 512'
	assert_line --partial "TARGET=\"/fast\" MESSAGE=\"btrfs (/dev/sdc): thread_pool 16 is max_active"
	assert_output --partial "'mount -o remount,thread_pool=1 /fast' (64 in flight each; thread_pool=1 among its options in /etc/fstab keeps it after a reboot)"
	# 6.9 and later: one system-wide limit, nothing to say
	run wq --kernel 6.9.0 check -r -n -o CODE
	refute_output --partial btrfs
}

@test "check on 6.8 after the remedy, thread_pool=1: an info finding with nothing more to do (issue 61)" {
	use_tree x86_64-64cpu 6.8.0
	mkdir -p "$ROOT/proc/self"
	# the line a 6.18 kernel showed for a btrfs mounted with thread_pool=1 (the option after relatime)
	printf '/dev/sdb /data btrfs rw,relatime,thread_pool=1,space_cache=v2,subvolid=5,subvol=/ 0 0\n' >"$ROOT/proc/self/mounts"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	assert_line "info btrfs-max-active-per-cpu /data"
	refute_line "warning btrfs-max-active-per-cpu /data"
	run wq check -P -o TARGET,MESSAGE
	# 64 online CPUs, one each
	assert_line "TARGET=\"/data\" MESSAGE=\"btrfs (/dev/sdb): thread_pool 1 is max_active of its workqueues, which 6.6-6.8 apply per CPU: up to 64 work items in flight each, the fewest this kernel allows; 6.9 and later make it one system-wide limit\""
	refute_output --partial "remount"
}

@test "on a terminal, check with no findings says 'no findings'; through a pipe it prints nothing" {
	use_tree x86_64-dell_e4310 6.18.0
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	run script -qec "'$WQCTL' --sysroot '$ROOT' check writeback" /dev/null
	assert_success
	assert_output --partial "no findings"
	run wq check writeback
	assert_success
	assert_output ""
}

@test "profile current and off with nothing active say so on stderr; stdout stays empty; -q quiets it (issue 61)" {
	use_tree x86_64-dell_e4310 6.18.0
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	run script -qec "'$WQCTL' --sysroot '$ROOT' profile current" /dev/null
	assert_success
	assert_output --partial "no active profiles ('wqctl profile use NAME' sets them)"
	run -0 --separate-stderr wq profile current
	assert_equal "$output" ""
	assert_equal "$stderr" "wqctl: no active profiles ('wqctl profile use NAME' sets them)"
	run -0 wq -q profile current
	assert_output ""
	run -0 wq profile off --keep
	assert_output "wqctl: profile off: no profile was active"
	run -0 wq profile off
	assert_output --partial "wqctl: profile off: no profile was active; what wqctl changed is reverted all the same"
}

# Isolation against the boot parameters. vmware_fpe: CPUs 0-15 online of 0-31 possible.
boot_with() { printf 'BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro %s\n' "$1" >"$ROOT/proc/cmdline"; }

@test "isolation as booted: isolcpus= and nohz_full= that the kernel reports are no finding" {
	boot_with "isolcpus=12-15 nohz_full=12-15"
	echo 12-15 >"$ROOT/sys/devices/system/cpu/isolated"
	echo 12-15 >"$ROOT/sys/devices/system/cpu/nohz_full"
	run wq check -r -n -o CODE
	refute_output --partial "mismatch"
}

@test "isolcpus= the kernel did not take: isolation-mismatch and housekeeping-mismatch, with both sets" {
	boot_with "isolcpus=domain,managed_irq,12-15 nohz_full=8-15"
	echo 12-15 >"$ROOT/sys/devices/system/cpu/isolated"
	: >"$ROOT/sys/devices/system/cpu/nohz_full"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	finding warning isolation-mismatch nohz_full
	refute_line "warning isolation-mismatch isolated"
	finding warning housekeeping-mismatch housekeeping
	run wq check -P -o TARGET,MESSAGE
	# the kernel: online 0-15 less isolated 12-15 = 0-11; the boot line: less 12-15 and 8-15 = 0-7
	assert_line --partial "TARGET=\"housekeeping\" MESSAGE=\"'housekeeping' is 0-11 here"
	assert_line --partial "the boot parameters imply 0-7"
	assert_line --partial "nohz_full=8-15 is on the command line, but the kernel runs '' tickless"
}

@test "isolcpus= with flags but without domain isolates nothing from the domains" {
	boot_with "isolcpus=nohz,managed_irq,4-7"
	echo 4-7 >"$ROOT/sys/devices/system/cpu/isolated"
	run wq check -P -o CODE,TARGET,MESSAGE
	assert_line --partial 'CODE="isolation-mismatch" TARGET="isolated" MESSAGE="isolcpus=nohz,managed_irq,4-7 isolates none from the scheduler domains, but the kernel reports isolated CPUs '"'4-7'"
}

@test "a malformed isolcpus= is named; the last isolcpus= wins" {
	boot_with "isolcpus=domain,x-y"
	run wq check -P -o CODE,TARGET,MESSAGE
	assert_line --partial "CODE=\"isolation-cmdline\" TARGET=\"cmdline\" MESSAGE=\"isolcpus=domain,x-y: 'x-y' is not a CPU list"
	boot_with "isolcpus=2 isolcpus=14-15"
	echo 14-15 >"$ROOT/sys/devices/system/cpu/isolated"
	run wq check -r -n -o CODE
	refute_output --partial "mismatch"
}

@test "the root cpumask and a workqueue's cpumask over isolated CPUs, and the cpu-partitioning profile's cure" {
	boot_with "isolcpus=12-15"
	echo 12-15 >"$ROOT/sys/devices/system/cpu/isolated"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	finding warning cpumask-isolated cpumask
	finding warning cpumask-isolated writeback
	run wq --profile-dir "$TOP/profiles" apply --profile cpu-partitioning
	assert_success
	# housekeeping: online 0-15 less 12-15 = 0-11 = 00000fff (32 possible CPUs: 8 digits)
	assert_equal "$(cat "$ROOT/sys/devices/virtual/workqueue/cpumask")" 00000fff
	assert_equal "$(cat "$ROOT/sys/devices/virtual/workqueue/writeback/cpumask")" 00000fff
	run wq check -r -n -o CODE
	refute_output --partial "cpumask-isolated"
}

@test "check --isolation: options, the live-only rule, and a machine without isolated CPUs" {
	run wq check --isolation --profile x
	assert_failure 2
	run wq check --isolation writeback
	assert_failure 2
	run wq check --cpus 1
	assert_failure 2
	assert_output --partial "go with --isolation"
	run wq check --isolation -i 0
	assert_failure 2
	run wq check --isolation --cpus x
	assert_failure 2
	assert_output --partial "--cpus 'x': not a CPU list"
	# the fixture isolates nothing
	run wq check --isolation
	assert_success
	assert_output --partial "no isolated or nohz_full CPUs here"
	# tracepoints are the live kernel's
	run wq check --isolation --cpus 1
	assert_failure 2
	assert_output --partial "live system only"
	run wq check --isolation --list-columns
	assert_success
	assert_output --partial "VERDICT"
}

@test "scope-no-effect: cache_shard where each last-level cache is one shard, not where it is cut" {
	# loongarch kvm: 32 cores, one L3 (its lscpu): round(32/8) = 4 shards at the default size
	use_tree loongarch-kvm_on_loongson_3c6000 7.3.4
	echo cache_shard >"$(WQDIR)/writeback/affinity_scope"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	refute_output --partial scope-no-effect
	# size 43: round(32/43) = 1 shard, the L3 itself
	chmod u+w "$ROOT/sys/module/workqueue/parameters/cache_shard_size"
	echo 43 >"$ROOT/sys/module/workqueue/parameters/cache_shard_size"
	run wq check -n -o MESSAGE writeback
	assert_output --partial "with cache_shard_size 43 each last-level cache is a single shard"
	# size 42: round(32/42) = round(0.76) = 1 as well; 21: round(1.52) = 2 shards
	echo 21 >"$ROOT/sys/module/workqueue/parameters/cache_shard_size"
	run wq check -r -n -o SEVERITY,CODE,TARGET writeback
	refute_output --partial scope-no-effect
	# default (cache_shard) follows the module default: no finding for a scope nobody chose
	echo 43 >"$ROOT/sys/module/workqueue/parameters/cache_shard_size"
	run wq check -r -n -o SEVERITY,CODE,TARGET blkcg_punt_bio
	refute_output --partial scope-no-effect
}

@test "--kernel what-if: a max_active at the reading kernel's default is not held against the other kernel (issue 45 item 6)" {
	# a 6.18 tree: writeback at 6.18's WQ_DFL_ACTIVE 1024; 6.8 would have created it with its own, 256,
	# and accepts at most 512 (doc/kernel.md §3)
	run wq --kernel 6.8.0 check -r -n -o SEVERITY,CODE,TARGET writeback
	assert_success
	finding info what-if-default writeback
	finding info max-active-per-cpu writeback
	refute_output --partial max-active-out-of-range
	run wq --kernel 6.8.0 check -n -o MESSAGE writeback
	assert_line "max_active 1024 is the default of the kernel these values come from (6.18.0); 6.8.0 would have created it with its own, 256 (above its limit 512 here only because of that)"
	# a value someone chose is held against it as before
	echo 1500 >"$(WQDIR)/writeback/max_active"
	run wq --kernel 6.8.0 check -r -n -o SEVERITY,CODE,TARGET writeback
	assert_equal "$status" 3
	finding error max-active-out-of-range writeback
	finding warning max-active-per-cpu writeback
	# the same kernel named: no what-if
	echo 1024 >"$(WQDIR)/writeback/max_active"
	run wq --kernel 6.18.0 check -r -n -o SEVERITY,CODE,TARGET writeback
	refute_output --partial what-if
}
