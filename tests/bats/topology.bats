#!/usr/bin/env bats
# Topology read from real dumps, checked against each dump's independent lscpu oracle.
load helpers

ORACLE_DIR=$TOP/tests/fixtures/topology
DUMPS="arm-A510-A710-A715-X3 loongarch-kvm_on_loongson_3c6000 ppc64-POWER7-64cpu s390-lpar vmware_fpe x86_64-64cpu x86_64-dell_e4310"

oracle() { cat "$ORACLE_DIR/$1.lscpu-expected.txt"; }

# canonical form of a CPU list: expanded, one line
canon() { echo "$1" | canon_lines; }

# the first parsable block of the oracle: CPU,Core,Socket,Node,,caches...
parsable() { oracle "$1" | awk '/^# CPU,/ { if (seen++) exit; on = 1; next } on && /^[0-9]/ { print } on && !/^[0-9]/ { if (n++) exit }'; }

# groups of online CPUs sharing the oracle columns selected by awk expression KEY, one canonical list per line
oracle_groups() {
	parsable "$1" | awk -F, "{ k = $2; g[k] = g[k] (g[k] == \"\" ? \"\" : \",\") \$1 } END { for (k in g) print g[k] }" |
		canon_lines | sort
}

# pods of SCOPE from wqctl, restricted to online CPUs, one canonical list per line
wq_groups() {
	local online
	online=$(wq topology -r -n -o SCOPE,CPUS | awk '$1 == "online" { print $2 }')
	wq topology --scope "$2" -r -n -o CPUS | canon_lines "$online" | sort
}

@test "nodes and their CPUs match lscpu on every dump (sparse ids, CPU-less node, no node dir)" {
	for d in $DUMPS; do
		use_tree "$d" 6.18.0
		want=$(oracle "$d" | sed -n 's/^NUMA node\([0-9]*\) CPU(s): *\(.*\)$/\1 \2/p' |
			while read -r n l; do echo "$n $(canon "$l")"; done)
		# no NUMA lines: one node 0 holding every possible CPU (SPEC, issue 2)
		[ -n "$want" ] || want="0 $(canon "$(cat "$ROOT/sys/devices/system/cpu/possible")")"
		got=$(wq topology -P -o SCOPE,NODE,CPUS | sed -n 's/^SCOPE="node" NODE="\([0-9]*\)" CPUS="\(.*\)"$/\1 \2/p' |
			while read -r n l; do echo "$n $(canon "$l")"; done)
		assert_equal "$d: $got" "$d: $want"
	done
}

@test "online CPUs match lscpu on every dump" {
	for d in $DUMPS; do
		use_tree "$d" 6.18.0
		want=$(canon "$(oracle "$d" | sed -n 's/^On-line CPU(s) list: *//p')")
		got=$(canon "$(wq topology -r -n -o SCOPE,CPUS | awk '$1 == "online" { print $2 }')")
		assert_equal "$d: $got" "$d: $want"
	done
}

@test "cache pods = online CPUs sharing node and last-level cache in lscpu" {
	checked=0
	for d in $DUMPS; do
		[ -f "$ORACLE_DIR/$d.lscpu-expected.txt" ] || fail "$d: no oracle"
		parsable "$d" | head -1 | grep -q '^[0-9]*,[0-9]*,[0-9]*,[0-9]*,,' || continue   # no cache columns (s390)
		checked=$((checked + 1))
		use_tree "$d" 6.18.0
		# key: node (column 4) and the last cache column
		want=$(oracle_groups "$d" '$4 "/" $NF')
		got=$(wq_groups "$d" cache)
		assert_equal "$d: $got" "$d: $want"
	done
	# every dump but s390 has cache columns
	assert_equal "$checked" 6
}

@test "smt pods = online CPUs sharing a core in lscpu" {
	for d in $DUMPS; do
		use_tree "$d" 6.18.0
		if oracle "$d" | grep '^Thread(s) per core:' | grep -qv ' 1$'; then
			want=$(oracle_groups "$d" '$3 "/" $2')   # socket/core
		else
			# one thread per core: every online CPU is its own pod
			want=$(expand "$(oracle "$d" | sed -n 's/^On-line CPU(s) list: *//p')" | sort)
		fi
		got=$(wq_groups "$d" smt)
		assert_equal "$d: $got" "$d: $want"
	done
}

@test "numa pods are the nodes with CPUs; system is one pod of every possible CPU" {
	use_tree x86_64-64cpu 6.18.0
	run wq topology --scope numa -r -n -o POD,NODE,CPUS
	# lscpu: node0 0-62:2, node2 1-61:4, node3 3-63:4; pods numbered by lowest CPU
	assert_line --index 0 "0 0 $(expand 0-62:2 | paste -sd, -)"
	assert_line --index 1 "1 2 $(expand 1-61:4 | paste -sd, -)"
	assert_line --index 2 "2 3 $(expand 3-63:4 | paste -sd, -)"
	run wq topology --scope system -r -n -o POD,NODE,CPUS
	assert_output "0 - 0-79"
}

@test "topology -J has the SPEC keys" {
	use_tree vmware_fpe 6.18.0
	run wq topology -J --scope cache
	assert_success
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '"nodes":[{"node":0,"cpus":"0-3","nr_cpus":4},'
	assert_output --partial '"online":"0-15"'
	assert_output --partial '"possible":"0-31"'
	# vmware_fpe: one L3 per node (lscpu: 4 instances)
	assert_output --partial '"scopes":{"cache":[{"pod":0,"cpus":"0-3","node":0},{"pod":1,"cpus":"4-7","node":1}'
	refute_output --partial '"smt"'
}

@test "a cache leaf missing in the middle (cacheinfo's disable_sysfs): the leaves after it count" {
	use_tree vmware_fpe 6.18.0
	rm -r "$ROOT"/sys/devices/system/cpu/cpu*/cache/index2
	run wq topology --scope cache -r -n -o POD,NODE,CPUS
	assert_success
	# index3 (level 3, shared_cpu_list 0-3 on cpu0) is still the last level: one L3 a node
	assert_line --index 0 "0 0 0-3"
	assert_line --index 1 "1 1 4-7"
	assert_line --index 3 "3 3 12-15"
}

# an L4 (level 4) on node 1 at cache/indexK: CPUs 4-5 share one, 6-7 another
add_l4() { # K
	local c k=$1
	for c in 4 5 6 7; do
		mkdir -p "$ROOT/sys/devices/system/cpu/cpu$c/cache/index$k"
		echo 4 >"$ROOT/sys/devices/system/cpu/cpu$c/cache/index$k/level"
		if [ $c -lt 6 ]; then echo 4-5; else echo 6-7; fi >"$ROOT/sys/devices/system/cpu/cpu$c/cache/index$k/shared_cpu_list"
	done
}

@test "a CPU with a cache leaf past the first CPU's: its own leaves count" {
	use_tree vmware_fpe 6.18.0
	add_l4 4
	run wq topology --scope cache -r -n -o POD,NODE,CPUS
	assert_success
	# cpu0 has index0-3; cpu4's index4 is an L4 of 4-5, cpu6's one of 6-7: two pods on node 1
	assert_line --index 0 "0 0 0-3"
	assert_line --index 1 "1 1 4-5"
	assert_line --index 2 "2 1 6-7"
	assert_line --index 3 "3 2 8-11"
}

@test "a CPU without one of the first CPU's cache leaves, and with one further on: its own leaves count" {
	use_tree vmware_fpe 6.18.0
	rm -r "$ROOT"/sys/devices/system/cpu/cpu[4-7]/cache/index2
	add_l4 5
	run wq topology --scope cache -r -n -o POD,NODE,CPUS
	assert_success
	# cpu4 has index0,1,3,5: index5 (level 4) is its last level, not index3
	assert_line --index 1 "1 1 4-5"
	assert_line --index 2 "2 1 6-7"
	assert_line --index 3 "3 2 8-11"
}

@test "a CPU with a cache leaf in a gap of the first CPU's leaves: its own leaves count" {
	use_tree vmware_fpe 6.18.0
	# cpu0 lists index0,1,3 (index2 left out, as disable_sysfs does); cpu4-7 have an L4 at index2
	rm -r "$ROOT"/sys/devices/system/cpu/cpu[0-3]/cache/index2
	add_l4 2
	run wq topology --scope cache -r -n -o POD,NODE,CPUS
	assert_success
	assert_line --index 0 "0 0 0-3"
	assert_line --index 1 "1 1 4-5"
	assert_line --index 2 "2 1 6-7"
	assert_line --index 3 "3 2 8-11"
}

@test "a CPU-less node is listed with no CPUs" {
	use_tree ppc64-POWER7-64cpu 6.18.0
	run wq topology -P -o SCOPE,NODE,CPUS,NR_CPUS
	assert_line 'SCOPE="node" NODE="1" CPUS="" NR_CPUS="0"'
}

@test "isolated and nohz_full CPUs shape housekeeping" {
	use_tree vmware_fpe 6.18.0
	echo 2-3 >"$ROOT/sys/devices/system/cpu/isolated"
	echo 5 >"$ROOT/sys/devices/system/cpu/nohz_full"
	run wq topology -r -n -o SCOPE,CPUS
	# online 0-15 minus 2-3 and 5
	assert_line "housekeeping 0-1,4,6-15"
}

# cache_shard (7.1+) worked out from the oracle alone: each group of online CPUs sharing node and
# last-level cache, its cores (the first CPU of each socket/core) dealt in CPU order into
# max(1, round(cores / SIZE)) shards, the first cores % shards of them one core larger; a CPU
# follows its core (kernel/workqueue.c precompute_cache_shard_ids(), 7.1)
oracle_shards() { # DUMP SIZE
	local smt=0
	# one thread per core: each CPU is its own core (lscpu numbers arm cores per cluster type)
	oracle "$1" | grep '^Thread(s) per core:' | grep -qv ' 1$' && smt=1
	parsable "$1" | sort -t, -k1,1n | awk -F, -v size="$2" -v smt="$smt" '
	{
		cpu = $1; key = $4 "/" $NF; core = smt ? $3 "/" $2 : cpu
		cpus[key] = cpus[key] " " cpu
		if (!(core in leader)) leader[core] = cpu
		lead[cpu] = leader[core]
	}
	END {
		for (k in cpus) {
			m = split(substr(cpus[k], 2), c, " ")
			cores = 0
			for (i = 1; i <= m; i++) if (lead[c[i]] == c[i]) cores++
			shards = int((cores + int(size / 2)) / size)
			if (shards < 1) shards = 1
			base = int(cores / shards); large = cores % shards; inshard = 0; sh = 0
			for (i = 1; i <= m; i++) {
				x = c[i]
				if (lead[x] != x) { id[x] = id[lead[x]]; continue }
				if (inshard == (sh < large ? base + 1 : base)) { sh++; inshard = 0 }
				inshard++; id[x] = sh
			}
			for (i = 1; i <= m; i++) { g = k "#" id[c[i]]; grp[g] = grp[g] (grp[g] == "" ? "" : ",") c[i] }
		}
		for (g in grp) print grp[g]
	}' | canon_lines | sort
}

shard_size() { chmod u+w "$ROOT/sys/module/workqueue/parameters/cache_shard_size"; echo "$1" >"$ROOT/sys/module/workqueue/parameters/cache_shard_size"; }

@test "cache_shard pods = lscpu's last-level caches cut into shards of cores, on every dump and size" {
	checked=0
	for d in $DUMPS; do
		parsable "$d" | head -1 | grep -q '^[0-9]*,[0-9]*,[0-9]*,[0-9]*,,' || continue   # no cache columns (s390)
		use_tree "$d" 7.3.4
		for size in 1 2 3 4 8; do
			shard_size "$size"
			want=$(oracle_shards "$d" "$size")
			got=$(wq_groups "$d" cache_shard)
			assert_equal "$d size $size: $got" "$d size $size: $want"
			checked=$((checked + 1))
		done
	done
	assert_equal "$checked" 30
}

@test "cache_shard on x86_64-64cpu, size 3, worked by hand: siblings numbered 32 up follow their core" {
	# lscpu: the L3 of socket 0 holds cores 0,4,...,28 (CPUs 0,4,...,28 and their siblings 32,36,...,60):
	# 8 cores, round(8/3) = 3 shards, 8/3 = 2 cores each, the first 8%3 = 2 shards 3 cores;
	# pods are numbered by their first CPU, socket by socket: 0, 1, 2, 3, then 12, 13, ...
	use_tree x86_64-64cpu 7.3.4
	shard_size 3
	run wq topology --scope cache_shard -r -n -o POD,NODE,CPUS
	assert_success
	assert_line --index 0 "0 0 0,4,8,32,36,40"
	assert_line --index 1 "1 2 1,5,9,33,37,41"
	assert_line --index 4 "4 0 12,16,20,44,48,52"
	assert_line --index 8 "8 0 24,28,56,60"
	assert_line --index 11 "11 3 27,31,59,63"
	# with the default 8 each L3 is one shard: the same pods as cache
	shard_size 8
	assert_equal "$(wq topology --scope cache_shard -r -n -o CPUS)" "$(wq topology --scope cache -r -n -o CPUS)"
}

@test "cache_shard is listed, offered and taken only where parameters/cache_shard_size exists" {
	use_tree vmware_fpe 6.18.0
	run wq topology -r -n -o SCOPE
	refute_output --partial cache_shard
	run wq topology -J
	refute_output --partial cache_shard
	run wq topology --scope cache_shard
	assert_failure 2
	assert_output --partial "cache_shard exists from Linux 7.1"
	run wq set writeback affinity_scope=cache_shard
	assert_failure 2
	assert_output --partial "writeback/affinity_scope: invalid value 'cache_shard': this kernel has no such affinity scope: cache_shard exists from Linux 7.1"
	run wq __complete scopes
	refute_output --partial cache_shard
	printf '[profile]\ndescription = shards\n\n[workqueue writeback]\naffinity_scope = cache_shard\n' >"$BATS_TEST_TMPDIR/shard.conf"
	# a profile serves every kernel of a fleet: on this one the setting is unsupported, the rest applies (exit 0)
	run wq apply --dry-run --profile "$BATS_TEST_TMPDIR/shard.conf"
	assert_success
	assert_output --partial "skipped: $BATS_TEST_TMPDIR/shard.conf:5: affinity_scope on writeback: this kernel has no such affinity scope"
	# the same machine on 7.3: listed, in JSON, completed and written
	use_tree vmware_fpe 7.3.4
	run wq topology -J
	output=$(echo "$output" | tr -d ' \n')
	assert_output --partial '"cache_shard":[{"pod":0,"cpus":"0-3","node":0},'
	run wq __complete scopes
	assert_output --partial cache_shard
	run wq apply --dry-run --profile "$BATS_TEST_TMPDIR/shard.conf"
	assert_success
	assert_output --partial "writeback/affinity_scope default (cache_shard) cache_shard"
	run wq set writeback affinity_scope=cache_shard
	assert_success
	assert_equal "$(cat "$(WQDIR)/writeback/affinity_scope")" cache_shard
}

@test "on 7.x trees every workqueue reads default (cache_shard) and explain, show give a number on every dump" {
	for d in $DUMPS; do
		use_tree "$d" 7.3.4
		assert_equal "$d: $(cat "$(WQDIR)/writeback/affinity_scope")" "$d: default (cache_shard)"
		run wq explain writeback
		assert_success
		assert_line "scope:        cache_shard"
		assert_line --regexp '^max_inflight: [0-9]+$'
		refute_output --partial "not modelled"
		run wq show -r -n -o NAME,MAX_INFLIGHT,SCOPE
		assert_line --regexp '^writeback [0-9]+ default\\x20\(cache_shard\)$'
		assert_line --regexp '^blkcg_punt_bio [0-9]+ default\\x20\(cache_shard\)$'
	done
}

# the kernel's boot rule for the root unbound cpumask (workqueue_init_early()): possible CPUs,
# less nohz_full= ones before 7.0 only, less cpu/isolated (isolcpus=), within
# workqueue.unbound_cpus= (6.6+), a step that would leave no CPU skipped (6.7+)
boot_mask() { wq topology -r -n -o SCOPE,CPUS | awk '$1 == "boot_cpumask" { print $2 }'; }
cmdline() { printf 'BOOT_IMAGE=/vmlinuz ro %s\n' "$1" >"$ROOT/proc/cmdline"; }

@test "boot_cpumask: nohz_full= alone leaves the root mask on 7.0+, not before" {
	# vmware_fpe: possible 0-31
	for k in 6.12.0 6.18.0; do
		use_tree vmware_fpe "$k"
		cmdline "nohz_full=4-7"
		echo 4-7 >"$ROOT/sys/devices/system/cpu/nohz_full"
		assert_equal "$k: $(boot_mask)" "$k: 0-3,8-31"
	done
	for k in 7.0.1 7.3.4; do
		use_tree vmware_fpe "$k"
		cmdline "nohz_full=4-7"
		echo 4-7 >"$ROOT/sys/devices/system/cpu/nohz_full"
		assert_equal "$k: $(boot_mask)" "$k: 0-31"
	done
	# a kernel that does not run them tickless (no CONFIG_NO_HZ_FULL: cpu/nohz_full empty) ignores nohz_full=
	use_tree vmware_fpe 6.12.0
	cmdline "nohz_full=4-7"
	assert_equal "$(boot_mask)" "0-31"
}

@test "boot_cpumask: isolcpus= restricts it on every kernel; unbound_cpus= from 6.6; no-CPU steps skipped from 6.7" {
	for k in 6.1.0 6.12.0 7.3.4; do
		use_tree vmware_fpe "$k"
		cmdline "isolcpus=2-3"
		echo 2-3 >"$ROOT/sys/devices/system/cpu/isolated"
		assert_equal "$k: $(boot_mask)" "$k: 0-1,4-31"
	done
	# unbound_cpus=0-7 and isolcpus=domain,8-31: nothing left, so 6.7+ skips the unbound_cpus step
	use_tree vmware_fpe 6.12.0
	cmdline "isolcpus=domain,8-31 workqueue.unbound_cpus=0-7"
	echo 8-31 >"$ROOT/sys/devices/system/cpu/isolated"
	assert_equal "$(boot_mask)" "0-7"
	cmdline "isolcpus=domain,0-7 workqueue.unbound_cpus=0-7"
	echo 0-7 >"$ROOT/sys/devices/system/cpu/isolated"
	assert_equal "$(boot_mask)" "8-31"
	cmdline "workqueue.unbound_cpus=2-5"
	: >"$ROOT/sys/devices/system/cpu/isolated"
	assert_equal "$(boot_mask)" "2-5"
	# 6.1 has no workqueue.unbound_cpus=
	use_tree vmware_fpe 6.1.0
	cmdline "workqueue.unbound_cpus=2-5"
	assert_equal "$(boot_mask)" "0-31"
}

@test "check: nohz_full CPUs in the root mask on 7.0+, CPUs of isolated cpuset partitions" {
	use_tree vmware_fpe 7.3.4
	cmdline "nohz_full=4-7"
	echo 4-7 >"$ROOT/sys/devices/system/cpu/nohz_full"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	assert_line "warning nohz-full-unbound cpumask"
	run wq check -n -o MESSAGE
	assert_output --partial "since 7.0 nohz_full= alone no longer keeps unbound work off CPUs 4-7"
	assert_output --partial "isolcpus=domain,4-7"
	# 6.18 keeps them out itself: a root mask with them was written by someone
	use_tree vmware_fpe 6.18.0
	cmdline "nohz_full=4-7"
	echo 4-7 >"$ROOT/sys/devices/system/cpu/nohz_full"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	refute_output --partial nohz-full-unbound
	# a cpuset isolated partition of CPUs 8-11 (cpumask_isolated 0x00000f00), the root mask left as it was
	use_tree vmware_fpe 7.3.4
	chmod u+w "$(WQDIR)/cpumask_isolated"
	echo 00000f00 >"$(WQDIR)/cpumask_isolated"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	assert_line "info cpuset-isolated cpumask_isolated"
	assert_line "warning cpumask-in-partition cpumask"
	# the kernel took them out: cpumask = requested less the partition
	echo fffff0ff >"$(WQDIR)/cpumask"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	assert_line "info cpuset-isolated cpumask_isolated"
	refute_output --partial cpumask-in-partition
	# isolcpus= CPUs listed in cpumask_isolated (the 6.16 fix, 7.0+) are not partitions
	echo 00000f00 >"$(WQDIR)/cpumask_isolated"
	echo 8-11 >"$ROOT/sys/devices/system/cpu/isolated"
	run wq check -r -n -o SEVERITY,CODE,TARGET
	refute_output --partial cpuset-isolated
}

@test "--kernel models the named kernel's cache_shard: 7.3 on a 6.18 tree has it, 7.0 on a 7.3 tree has not (issue 59 item 7)" {
	use_tree vmware_fpe 6.18.0
	# the tree has no cache_shard_size: 7.1's default 8 cores per shard; each of vmware_fpe's last-level
	# caches has 4 cores (lscpu), DIV_ROUND_CLOSEST(4, 8) = 1 shard: the cache pods themselves
	run wq --kernel 7.3.0 topology --scope cache_shard -r -n -o CPUS
	assert_success
	assert_equal "$output" "$(wq --kernel 7.3.0 topology --scope cache -r -n -o CPUS)"
	run wq --kernel 7.3.0 set --dry-run writeback affinity_scope=cache_shard
	assert_success
	# 6.18 booted with default_affinity_scope cache, its default: 7.3 boots with cache_shard
	run wq --kernel 7.3.0 explain writeback
	assert_line "scope:        cache_shard"
	run wq explain writeback
	assert_line "scope:        cache"
	# a 7.3 tree asked as 7.0: no cache_shard anywhere, and the default is 7.0's
	use_tree vmware_fpe 7.3.0
	run wq --kernel 7.0.0 topology -J
	assert_success
	refute_output --partial cache_shard
	run wq --kernel 7.0.0 explain writeback
	assert_line "scope:        cache"
	run wq --kernel 7.0.0 set --dry-run writeback affinity_scope=cache_shard
	assert_failure 2
	assert_output --partial "cache_shard exists from Linux 7.1"
	# a workqueue set to cache_shard itself: kept, and said
	wq set writeback affinity_scope=cache_shard
	run wq --kernel 7.0.0 explain writeback
	assert_line "note: affinity_scope cache_shard exists from Linux 7.1 on, not on 7.0.0: this what-if keeps the scope the values' kernel has, so its pods are 7.1's"
}
