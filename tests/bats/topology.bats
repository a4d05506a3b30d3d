#!/usr/bin/env bats
# Topology read from real dumps, checked against each dump's independent lscpu oracle.
load helpers

ORACLE_DIR=${WQCTL_SHARED:-$TOP/../shared}/fixtures/topology
DUMPS="arm-A510-A710-A715-X3 loongarch-kvm_on_loongson_3c6000 ppc64-POWER7-64cpu s390-lpar vmware_fpe x86_64-64cpu x86_64-dell_e4310"

oracle() { cat "$ORACLE_DIR/$1.lscpu-expected.txt"; }

# canonical form of a CPU list: expanded, one line
canon() { expand "$1" | sort -n | paste -sd, -; }

# the first parsable block of the oracle: CPU,Core,Socket,Node,,caches...
parsable() { oracle "$1" | awk '/^# CPU,/ { if (seen++) exit; on = 1; next } on && /^[0-9]/ { print } on && !/^[0-9]/ { if (n++) exit }'; }

# groups of online CPUs sharing the oracle columns selected by awk expression KEY, one canonical list per line
oracle_groups() {
	parsable "$1" | awk -F, "{ k = $2; g[k] = g[k] (g[k] == \"\" ? \"\" : \",\") \$1 } END { for (k in g) print g[k] }" |
		while read -r l; do canon "$l"; done | sort
}

# pods of SCOPE from wqctl, restricted to online CPUs, one canonical list per line
wq_groups() {
	local online
	online=$(canon "$(wq topology -r -n -o SCOPE,CPUS | awk '$1 == "online" { print $2 }')")
	wq topology --scope "$2" -r -n -o CPUS | while read -r l; do
		comm -12 <(expand "$l" | sort) <(echo "$online" | tr , '\n' | sort) | sort -n | paste -sd, -
	done | grep . | sort
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
