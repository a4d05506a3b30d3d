#!/usr/bin/env bats
# explain: max in flight per kernel era. Every expected figure is worked out
# by hand from doc/kernel.md §4 in the comment above it, not taken from wqctl.
load helpers

# inflight KERNEL [explain options...]: the max_inflight line's number
inflight() {
	local k=$1
	shift
	run wq --kernel "$k" explain writeback "$@"
	assert_success
	echo "$output" | sed -n 's/^max_inflight: *\([0-9-]*\).*/\1/p'
}

@test "btrfs report: 96 CPUs, 2 nodes, max_active 8" {
	use_tree synth:2:48:1:2 6.18.0
	# era A: NUMA affinity, E = all CPUs: one pwq per node, 8 x 2 = 16
	assert_equal "$(inflight 6.1.0 --max-active 8)" 16
	# era B: one pwq per CPU: 8 x 96 = 768
	assert_equal "$(inflight 6.8.0 --max-active 8)" 768
	# era C: T = 96, c = 48 per node: ceil(8*48/96) = 4, raised to min_active 8 per node: 8 + 8 = 16
	assert_equal "$(inflight 6.18.0 --max-active 8)" 16
}

@test "btrfs report booted with NUMA off (one node of 96 CPUs)" {
	use_tree synth:1:96:2:2 6.18.0
	# era A: one node -> no NUMA affinity -> one dfl_pwq: 8
	assert_equal "$(inflight 6.1.0 --max-active 8)" 8
	# era B: 8 x 96 = 768
	assert_equal "$(inflight 6.8.0 --max-active 8)" 768
	# era C: node 0 gets ceil(8*96/96) = 8
	assert_equal "$(inflight 6.18.0 --max-active 8)" 8
}

@test "4-node 128-CPU ARM server, max_active 1 and 256" {
	use_tree synth:4:32:1:1 6.18.0
	# era C, M = 1 (min_active = min(8, 1) = 1): ceil(1*32/128) = 1 per node, 4 nodes: 4
	assert_equal "$(inflight 6.18.0 --max-active 1)" 4
	# era C, M = 256: ceil(256*32/128) = 64 per node: 4 x 64 = 256
	assert_equal "$(inflight 6.18.0 --max-active 256)" 256
	# era A: 4 node pwqs: 1 x 4 = 4 and 256 x 4 = 1024
	assert_equal "$(inflight 6.1.0 --max-active 1)" 4
	assert_equal "$(inflight 6.1.0 --max-active 256)" 1024
	# era B: per CPU: 1 x 128 = 128, 256 x 128 = 32768
	assert_equal "$(inflight 6.8.0 --max-active 1)" 128
	assert_equal "$(inflight 6.8.0 --max-active 256)" 32768
}

@test "32 CPUs of node 0 + 8 of node 1, one L3 per node (doc/kernel.md §4.6 ex. 3, 4)" {
	use_tree synth:2:32:1:1 6.18.0
	# T = 40; node0 ceil(256*32/40) = ceil(204.8) = 205, node1 ceil(256*8/40) = ceil(51.2) = 52; all pods meet E
	assert_equal "$(inflight 6.18.0 --max-active 256 --cpus 0-39)" 257
	# M = 4, min_active 4: node0 ceil(3.2) = 4, node1 ceil(0.8) = 1 -> 4: 8
	assert_equal "$(inflight 6.18.0 --max-active 4 --cpus 0-39)" 8
	run wq explain writeback --max-active 256 --cpus 0-39 -r -n
	assert_line --regexp '^0 0-31 205$'
	# CPUs 32-63 share node 1's one L3 pod, which meets E: their work charges node 1
	assert_line --regexp '^1 32-63 52$'
}

@test "same mask, four L3s per node, one of node 1's meets the mask (doc/kernel.md §4.6 ex. 5)" {
	use_tree synth:2:32:4:1 6.18.0
	# CPUs 40-63 sit in L3 pods that miss E: they charge the dfl counter (M): 205 + 52 + 256 = 513
	assert_equal "$(inflight 6.18.0 --max-active 256 --cpus 0-39)" 513
	# M = 4: 4 + 4 + 4 = 12
	assert_equal "$(inflight 6.18.0 --max-active 4 --cpus 0-39)" 12
	run wq explain -J writeback --max-active 256 --cpus 0-39
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '{"node":null,"cpus":"40-63","limit":256}'
}

@test "scope system spanning nodes: one node-less counter (doc/kernel.md §4.6 ex. 2)" {
	use_tree synth:2:32:1:1 6.18.0
	# 2 nodes x 32, full mask, M = 256: cache scope 128 + 128 = 256; system: dfl only = 256
	assert_equal "$(inflight 6.18.0 --max-active 256)" 256
	assert_equal "$(inflight 6.18.0 --max-active 256 --scope system)" 256
	run wq explain -r -n writeback --max-active 256 --scope system
	assert_line --regexp '^- 0-63 256$'
	# era A, numa on: 2 pwqs, 512; era B: 256 x 64 = 16384
	assert_equal "$(inflight 6.1.0 --max-active 256)" 512
	assert_equal "$(inflight 6.8.0 --max-active 256)" 16384
}

@test "sparse node ids 0, 2, 3 (x86_64-64cpu dump)" {
	use_tree x86_64-64cpu 6.18.0
	# online 0-63: node0 32 CPUs, node2 16, node3 16; T = 64, M = 1024: 512 + 256 + 256
	assert_equal "$(inflight 6.18.0)" 1024
	run wq explain -r -n writeback
	assert_line --regexp '^0 .* 512$'
	assert_line --regexp '^2 .* 256$'
	assert_line --regexp '^3 .* 256$'
	# M = 10: ceil(5) = 5, ceil(2.5) = 3, ceil(2.5) = 3, each raised to min_active 8: 24
	assert_equal "$(inflight 6.18.0 --max-active 10)" 24
}

@test "a CPU-less node gets no counter (ppc64 dump)" {
	use_tree ppc64-POWER7-64cpu 6.18.0
	# node0 holds all 64 CPUs: ceil(1024*64/64) = 1024; node1 has none and is not reached
	assert_equal "$(inflight 6.18.0)" 1024
	run wq explain -r -n writeback
	assert_line '0 0-63 1024'
	refute_line --regexp '^1 '
	# era A: only one node has CPUs -> no NUMA affinity -> M
	assert_equal "$(inflight 6.1.0 --max-active 100)" 100
}

@test "per-cpu workqueue: max_active on each online CPU" {
	use_tree vmware_fpe 6.18.0
	run wq explain ib-comp-wq
	assert_success
	# 1024 x 16 online CPUs
	assert_line "max_inflight: 16384"
}

@test "implicitly ordered workqueue up to 6.8: one at a time" {
	use_tree vmware_fpe 6.8.0
	run wq explain scsi_tmf_0
	assert_line "max_inflight: 1"
	assert_output --partial "implicitly ordered"
}

@test "unknown kernel: no figure, and the reason" {
	use_tree vmware_fpe 6.18.0
	rm "$ROOT/proc/sys/kernel/osrelease"
	run wq explain writeback
	assert_success
	assert_line "max_inflight: - (kernel release unknown (use --kernel RELEASE))"
	run wq explain -J writeback
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '"max_inflight":null'
	assert_output --partial '"era":null'
	run wq show -J -o NAME,MAX_INFLIGHT writeback
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '"max_inflight":null'
}

@test "explain -J has the SPEC keys" {
	use_tree synth:2:32:1:1 6.18.0
	run wq explain -J writeback --max-active 4 --cpus 0-39
	assert_success
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '"workqueue":"writeback","kind":"unbound","kernel":"6.18.0","era":"split","max_active":4,"min_active":4,"max_inflight":8'
	assert_output --partial '"nodes":[{"node":0,"cpus":"0-31","limit":4},{"node":1,"cpus":"32-63","limit":4}]'
	assert_output --partial '"notes":["since6.9'
}

@test "era B note spells the multiplication" {
	use_tree synth:2:48:1:2 6.18.0
	run wq --kernel 6.8.0 explain writeback --max-active 8
	assert_output --partial "on 6.6-6.8 this limit applies per CPU: 8 x 96 CPUs = 768"
}

@test "show MAX_INFLIGHT and EFFECTIVE_CPUS" {
	use_tree vmware_fpe 6.18.0
	echo 0000000f >"$(WQDIR)/cpumask"
	echo 000000f0 >"$(WQDIR)/writeback/cpumask"
	run wq show -P -o NAME,CPUS,EFFECTIVE_CPUS,MAX_INFLIGHT writeback
	# W = 4-7 misses G = 0-3: E = G = 0-3 (one node): node0 gets ceil(1024*4/4) = 1024
	assert_output 'NAME="writeback" CPUS="4-7" EFFECTIVE_CPUS="0-3" MAX_INFLIGHT="1024"'
}

# --from: 4 nodes x 4 CPUs, one L3 per node, M = 16, mask 4-9 (node 1 + half
# of node 2). Era C (doc/kernel.md §4.3): T = 6, node1 = clamp(ceil(16*4/6) = 11,
# 8, 16) = 11, node2 = clamp(ceil(16*2/6) = 6, 8, 16) = 8; a CPU whose cache
# pod misses the mask maps to E, which spans nodes: the dfl counter (16).
from_c() { wq explain -J writeback --max-active 16 --cpus 4-9 "$@" | tr -d ' \n' | sed -n 's/.*"max_inflight":\([0-9]*\).*/\1/p'; }

@test "explain --from, era C: inside the mask, outside it, one node" {
	use_tree synth:4:4:1:1 6.18.0
	assert_equal "$(from_c --from 4-7)" 11
	assert_equal "$(from_c --from 8-9)" 8
	assert_equal "$(from_c --from 4-9)" 19
	assert_equal "$(from_c --from 0-3)" 16
	# 10-11 share node 2's cache pod with 8-9 (node 2: 8); 0-3 and 12-15 miss E (dfl: 16)
	assert_equal "$(from_c --from 0-3,10-15)" 24
	assert_equal "$(from_c --from node:1)" 11
	# every CPU: 11 + 8 + 16 (measured 35 on Debian 6.12 by the VM tier)
	assert_equal "$(from_c)" 35
	run wq explain writeback --max-active 16 --cpus 4-9 --from 0-3
	assert_output --partial "work queued only from CPUs 0-3"
}

@test "explain --from, era C: CPUs outside the root mask hand work round-robin to all of it" {
	use_tree synth:4:4:1:1 6.18.0
	printf 'fff0\n' >"$(WQDIR)/cpumask"
	# from 0-3 (outside G = 4-15): round-robin over 4-15 -> node1 11, node2 8, dfl 16
	assert_equal "$(from_c --from 0-3)" 35
	run wq explain writeback --max-active 16 --cpus 4-9 --from 0-3
	assert_output --partial "round-robin"
}

@test "explain --from, era A: the pool of the queuing CPU's node" {
	use_tree synth:4:4:1:1 6.1.0
	# own pwqs for nodes 1 and 2 (E meets them, is inside neither); nodes 0, 3 share dfl_pwq
	assert_equal "$(from_c --from 0-3)" 16
	assert_equal "$(from_c --from 4-7)" 16
	assert_equal "$(from_c --from 4-9)" 32
	assert_equal "$(from_c --from 0-3,12-15)" 16
	# every CPU: 16 x 2 own + 16 dfl (measured 48 on Debian 6.1 by the VM tier)
	assert_equal "$(from_c)" 48
}

@test "explain --from: per-cpu workqueues count only the queuing CPUs" {
	use_tree synth:4:4:1:1 6.18.0
	run wq explain -J ib-comp-wq --from 0-2
	output=$(echo "$output" | tr -d ' \n')
	# 1024 per CPU x 3 CPUs
	assert_output --partial '"max_inflight":3072'
}

@test "explain --from: bad values are usage errors naming the option" {
	use_tree synth:4:4:1:1 6.18.0
	run wq explain writeback --from 99
	assert_failure 2
	assert_output --partial "--from: invalid value '99'"
	run wq explain writeback --from banana
	assert_failure 2
	assert_output --partial "--from: invalid value 'banana'"
}

@test "explain of a workqueue outside sysfs: btrfs's default thread_pool and what it means per era" {
	use_tree x86_64-64cpu 6.8.0
	# 64 online CPUs (lscpu): thread_pool defaults to min(64 + 2, 8) = 8; on 6.6-6.8 per CPU: 8 x 64 = 512
	run wq explain btrfs-endio-write
	assert_success
	assert_line "max_active:   8"
	assert_line "max_inflight: 512"
	assert_output --partial "note: btrfs-endio-write is not in sysfs (created without WQ_SYSFS)"
	assert_output --partial "the thread_pool=N mount option sets max_active of its workqueues"
	assert_output --partial "mount -o remount,thread_pool=N MOUNTPOINT"
	# 6.9: one limit split over nodes 0 (32 CPUs), 2 and 3 (16 each): ceil(8*32/64)=4 and 2, each
	# raised to the floor min_active 8 -> 8 + 8 + 8
	run wq --kernel 6.9.0 explain btrfs-endio-write
	assert_success
	assert_line "max_inflight: 24"
	# an unknown name: only with --max-active, said plainly otherwise (exit 32)
	run wq explain nosuch
	assert_equal "$status" 32
	assert_output --partial "nosuch: no such workqueue in sysfs (a workqueue outside sysfs: give --max-active N"
	run wq explain nosuch --max-active 4
	assert_success
	assert_line "max_inflight: 256"
	# dm-crypt before 6.10: kcryptd/MAJ:MIN as the tracepoints name it, max_active = online CPUs
	run wq --kernel 6.1.0 explain kcryptd/253:0
	assert_success
	assert_line "max_active:   64"
	assert_output --partial "no_read_workqueue"
	# 6.10+: kcryptd is in sysfs; a name that is not there is a device that is not there
	run wq --kernel 6.18.0 explain kcryptd-253:0-1
	assert_equal "$status" 32
	assert_output --partial "kcryptd-253:0-1: no such workqueue: dm-crypt's are in sysfs from 6.10 on"
	refute_output --partial "WQ_SYSFS"
	# a pattern is not a name
	run wq explain 'dmz_cwq*'
	assert_equal "$status" 2
	assert_output --partial "dmz_cwq*: explain takes one workqueue's name, not a pattern"
	# dm-zoned: no setting, said as such
	run wq explain dmz_cwq_dmz-0
	assert_success
	assert_output --partial "note: dm-zoned offers no setting for it: it sizes its workqueues itself"
	refute_output --partial "dm-zoned: none"
}

@test "explain echoes what --cpus resolved to: node:0+5 is node 0 and CPU 5, node:0,1 nodes 0 and 1; CHARGED_BY names the queuing CPUs" {
	use_tree vmware_fpe 6.18.0
	# vmware_fpe: node 0 = CPUs 0-3, node 1 = 4-7 (lscpu)
	run wq explain writeback --cpus node:0+5
	assert_success
	assert_line "--cpus:       node:0+5 = 0-3,5"
	assert_line --regexp '^NODE +CHARGED_BY +LIMIT$'
	# era C, E = 0-3,5 (T = 5): node 0 ceil(1024*4/5) = 820, node 1 ceil(1024*1/5) = 205, and
	# CPUs 8-15 (nodes 2 and 3), whose cache pods miss E, charge the node-less counter: 1024
	assert_line --regexp '^ +0 +0-3 +820$'
	assert_line --regexp '^ +1 +4-7 +205$'
	assert_line --regexp '^ +- +8-15 +1024$'
	assert_line "max_inflight: 2049"
	run wq explain writeback --cpus node:0,1
	assert_line "--cpus:       node:0,1 = 0-7"
}

@test "explain shows an affinity scope from 6.6 on, none before (scopes came with 6.6; issue 61)" {
	use_tree synth:2:4:1:2 6.18.0
	run wq --kernel 6.5.0 explain writeback
	assert_success
	refute_line --regexp '^scope:'
	run wq --kernel 6.5.0 explain -J writeback
	assert_output --regexp '"scope": null'
	run wq --kernel 6.6.0 explain writeback
	assert_line --regexp '^scope: +cache$'
}

@test "btrfs workqueues: each mount's own thread_pool, by mount point; a typo is no workqueue (issue 61)" {
	use_tree synth:1:4:1:1 6.18.0
	# no btrfs mounted: the default thread_pool, min(4 online CPUs + 2, 8) = 6, and it says so
	run wq explain btrfs-endio-write
	assert_success
	assert_line --regexp '^max_active: +6$'
	assert_line "note: no btrfs is mounted here: the figures are for the default thread_pool"
	# a typo: no figures, the nearest name, exit 32
	run wq explain btrfs-endio-writ
	assert_failure 32
	assert_output "wqctl: btrfs-endio-writ: no such btrfs workqueue; did you mean 'btrfs-endio-write'? (no btrfs is mounted here)"
	run wq explain btrfs-zzzzzzzz
	assert_failure 32
	assert_output "wqctl: btrfs-zzzzzzzz: no such btrfs workqueue (no btrfs is mounted here)"
	# one mount with thread_pool=2: its figure (one node: the node's limit is max_active, 2)
	mkdir -p "$ROOT/proc/self"
	printf '/dev/sda1 / ext4 rw 0 0\n/dev/sdb /data btrfs rw,relatime,thread_pool=2,subvol=/ 0 0\n' >"$ROOT/proc/self/mounts"
	run wq explain btrfs-endio-write
	assert_line --regexp '^max_active: +2$'
	assert_line --regexp '^max_inflight: +2$'
	assert_line "note: btrfs-endio-write on /data (/dev/sdb): thread_pool 2 (its mount option): up to 2 in flight"
	# two mounts: each by its mount point, the default (6) and 16 (one node: 6 and 16 in flight)
	printf '/dev/sdb /data btrfs rw,relatime,subvol=/ 0 0\n/dev/sdc /fast btrfs rw,thread_pool=16,subvol=/ 0 0\n' >"$ROOT/proc/self/mounts"
	run wq explain btrfs-endio-write
	assert_success
	assert_line "note: btrfs-endio-write on /data (/dev/sdb): thread_pool 6 (the default): up to 6 in flight"
	assert_line "note: btrfs-endio-write on /fast (/dev/sdc): thread_pool 16 (its mount option): up to 16 in flight"
	run wq explain btrfs-endio-writ
	assert_output "wqctl: btrfs-endio-writ: no such btrfs workqueue; did you mean 'btrfs-endio-write'?"
}
