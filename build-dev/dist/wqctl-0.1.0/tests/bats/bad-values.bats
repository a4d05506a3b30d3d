#!/usr/bin/env bats
# Bad input: every case exits with the documented code, says what and why,
# and leaves the tree unchanged.
load helpers

setup() {
	use_tree vmware_fpe 6.18.0
	BEFORE=$(tree_sum)
}

# bad STATUS MESSAGE ARGS...: run wqctl, expect STATUS, MESSAGE in stderr, tree unchanged
bad() {
	local want=$1 msg=$2
	shift 2
	run wq "$@"
	assert_equal "$status" "$want"
	assert_output --partial "$msg"
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "max_active 0" { bad 2 "writeback/max_active: invalid value '0': must be between 1 and 2048 on 6.18.0 unbound workqueues" set writeback max_active=0; }
@test "max_active negative" { bad 2 "must be between 1 and 2048" set writeback max_active=-3; }
@test "max_active above the 6.18 limit" { bad 2 "must be between 1 and 2048" set writeback max_active=2049; }
@test "max_active above the 6.8 limit" { use_tree vmware_fpe 6.8.0; BEFORE=$(tree_sum); bad 2 "must be between 1 and 512 on 6.8.0" set writeback max_active=513; }
@test "max_active above the 6.1 unbound limit max(512, 4*32)" { use_tree vmware_fpe 6.1.0; BEFORE=$(tree_sum); bad 2 "must be between 1 and 512 on 6.1.0" set writeback max_active=513; }
@test "max_active with trailing junk (the kernel would take 16abc as 16)" { bad 2 "'16abc' is not a decimal integer" set writeback max_active=16abc; }
@test "max_active empty" { bad 2 "'' is not a decimal integer" set writeback max_active=; }
@test "max_active hex" { bad 2 "'0x10' is not a decimal integer" set writeback max_active=0x10; }
@test "max_active huge" { bad 2 "not a decimal integer" set writeback max_active=99999999999999999999999; }
@test "nice -21" { bad 2 "writeback/nice: invalid value '-21': must be between -20 and 19" set writeback nice=-21; }
@test "nice 20" { bad 2 "must be between -20 and 19" set writeback nice=20; }
@test "nice word" { bad 2 "'high' is not a decimal integer" set writeback nice=high; }
@test "affinity_scope unknown" { bad 2 "'socket' is not an affinity scope of this kernel (default cpu smt cache numa system)" set writeback affinity_scope=socket; }
@test "affinity_scope upper case (later kernels match exactly)" { bad 2 "'NUMA' is not an affinity scope" set writeback affinity_scope=NUMA; }
@test "affinity_scope prefix" { bad 2 "'num' is not an affinity scope" set writeback affinity_scope=num; }
@test "affinity_strict 2" { bad 2 "'2' is not a boolean" set writeback affinity_strict=2; }
@test "affinity_strict y (module-param spelling is not for attributes)" { bad 2 "'y' is not a boolean" set writeback affinity_strict=y; }
@test "cpumask CPU beyond the possible CPUs" { bad 2 "writeback/cpumask: invalid value '0-3,40': CPU 40 does not exist on this machine (possible: 0-31)" set writeback cpumask=0-3,40; }
@test "cpumask all offline" { bad 2 "CPUs 16-23 are all offline (online: 0-15)" set writeback cpumask=16-23; }
@test "cpumask garbage" { bad 2 "'zz' is not a CPU list, mask or keyword" set writeback cpumask=zz; }
@test "cpumask reversed range" { bad 2 "'7-3' is not a CPU list" set writeback cpumask=7-3; }
@test "cpumask empty" { bad 2 "empty CPU set" set writeback cpumask=; }
@test "cpumask empty term" { bad 2 "empty term" set writeback cpumask=0-3+; }
@test "cpumask unknown node" { bad 2 "NUMA node 7 does not exist on this machine (nodes: 0,1,2,3)" set writeback cpumask=node:7; }
@test "cpumask bad node list" { bad 2 "'x' is not a list of NUMA nodes" set writeback cpumask=node:x; }
@test "cpumask hex chunk over 32 bits" { bad 2 "more than 8 digits" set writeback cpumask=mask:123456789,0; }
@test "cpumask zero mask" { bad 2 "'0x0' selects no CPU" set writeback cpumask=0x0; }
@test "cpumask doubled comma (the kernel would skip it)" { bad 2 "'0,,1' is not a CPU list, mask or keyword" set writeback cpumask=0,,1; }
@test "cpumask open range" { bad 2 "'0-' is not a CPU list, mask or keyword" set writeback cpumask=0-; }
@test "cpumask negative CPU" { bad 2 "'-3' is not a CPU list, mask or keyword" set writeback cpumask=-3; }
@test "cpumask double range" { bad 2 "'1-2-3' is not a CPU list, mask or keyword" set writeback cpumask=1-2-3; }
@test "cpumask stride without a range" { bad 2 "'0:2' is not a CPU list, mask or keyword" set writeback cpumask=0:2; }
@test "cpumask zero stride" { bad 2 "'0-7:0' is not a CPU list, mask or keyword" set writeback cpumask=0-7:0; }
@test "cpumask group larger than the stride" { bad 2 "'0-7:2/9' is not a CPU list, mask or keyword" set writeback cpumask=0-7:2/9; }
@test "cpumask hex with a bad digit" { bad 2 "'0xg' is not a hex CPU mask" set writeback cpumask=0xg; }
@test "cpumask hex without digits" { bad 2 "'0x' is not a hex CPU mask" set writeback cpumask=0x; }
@test "cpumask hex mask beyond the possible CPUs" { bad 2 "CPUs 32-95 do not exist on this machine (possible: 0-31)" set writeback cpumask=mask:ffffffff,ffffffff,ffffffff; }
@test "cpumask node: without nodes" { bad 2 "'' is not a list of NUMA nodes" set writeback cpumask=node:; }
@test "cpumask node: with an open range" { bad 2 "'0-' is not a list of NUMA nodes" set writeback cpumask=node:0-; }
@test "cpumask keyword in upper case" { bad 2 "'All' is not a CPU list, mask or keyword" set writeback cpumask=All; }
@test "cpumask NODE: in upper case" { bad 2 "'NODE:0' is not a CPU list, mask or keyword" set writeback cpumask=NODE:0; }
@test "cpumask keyword with a trailing +" { bad 2 "empty term in CPU set 'all+'" set writeback cpumask=all+; }
@test "cpumask good term joined to a bad one" { bad 2 "'zz' is not a CPU list, mask or keyword" set writeback cpumask=housekeeping+zz; }
@test "cpumask list with a leading blank (before: read as 0)" { bad 2 "blank in CPU set ' 0'" set writeback "cpumask= 0"; }
@test "cpumask list with a trailing blank (before: read as 0-3)" { bad 2 "blank in CPU set '0-3 '" set writeback "cpumask=0-3 "; }
@test "cpumask node list with a trailing blank" { bad 2 "blank in CPU set 'node:0 '" set writeback "cpumask=node:0 "; }
@test "cpumask with a tab" { bad 2 "blank in CPU set" set writeback "cpumask=$(printf '0\t1')"; }
@test "max_active with a decimal point" { bad 2 "'4.0' is not a decimal integer" set writeback max_active=4.0; }
@test "max_active in exponent notation" { bad 2 "'1e3' is not a decimal integer" set writeback max_active=1e3; }
@test "nice with two signs" { bad 2 "'--5' is not a decimal integer" set writeback nice=--5; }
@test "nice with trailing junk" { bad 2 "'5x' is not a decimal integer" set writeback nice=5x; }
@test "affinity_strict empty" { bad 2 "'' is not a boolean (0 1 true false yes no on off)" set writeback affinity_strict=; }
@test "affinity_strict 01" { bad 2 "'01' is not a boolean" set writeback affinity_strict=01; }
@test "affinity_scope empty" { bad 2 "'' is not an affinity scope of this kernel" set writeback affinity_scope=; }
@test "affinity_scope with a trailing blank" { bad 2 "'numa ' is not an affinity scope of this kernel" set writeback "affinity_scope=numa "; }
@test "affinity_scope list" { bad 2 "'default,numa' is not an affinity scope of this kernel" set writeback affinity_scope=default,numa; }
@test "attribute in upper case" { bad 2 "MAX_ACTIVE: unknown attribute (max_active cpumask affinity_scope affinity_strict nice numa)" set writeback MAX_ACTIVE=4; }
@test "attribute with a dash" { bad 2 "max-active: unknown attribute" set writeback max-active=4; }
@test "attribute without a name" { bad 2 ": unknown attribute" set writeback =4; }
@test "cpumask local without an owner" { bad 2 "'local' needs an owner device" set writeback cpumask=local; }
@test "cpumask on a per-cpu workqueue" { bad 2 "ib-comp-wq/cpumask: invalid value '0': per-cpu workqueues have no cpumask" set ib-comp-wq cpumask=0; }
@test "nice on a per-cpu workqueue" { bad 2 "per-cpu workqueues have no nice" set ib-comp-wq nice=1; }
@test "affinity_scope on a 6.1 kernel" { use_tree vmware_fpe 6.1.0; BEFORE=$(tree_sum); bad 2 "writeback/affinity_scope: invalid value 'numa': not supported by this kernel (6.1.0; needs 6.6 or later)" set writeback affinity_scope=numa; }
@test "numa on a 6.18 kernel" { bad 2 "not supported by this kernel (removed in 6.6; use affinity_scope)" set writeback numa=1; }
@test "unknown attribute" { bad 2 "bogus: unknown attribute" set writeback bogus=1; }
@test "read-only attribute per_cpu" { bad 2 "per_cpu: unknown attribute" set writeback per_cpu=1; }
@test "attribute given twice" { bad 2 "max_active: given twice" set writeback max_active=1 max_active=2; }
@test "set without values" { bad 2 "need at least one WORKQUEUE and one ATTR=VALUE" set writeback; }
@test "set without targets" { bad 2 "need at least one WORKQUEUE" set max_active=3; }
@test "set of a missing workqueue writes nothing (exit 32)" { bad 32 "wqctl: nosuch: no such workqueue" set nosuch max_active=4; }
@test "set with one missing workqueue writes nothing (exit 64)" { bad 64 "nothing written because a named workqueue does not exist" set writeback nosuch max_active=16; }
@test "set with a glob matching nothing (exit 32)" { bad 32 "zz*: no workqueue matches" set 'zz*' max_active=4; }
@test "a bad value among good ones writes nothing" { bad 2 "writeback/nice: invalid value '99'" set writeback blkcg_punt_bio max_active=64 nice=99; }
@test "a bad value for one of several targets writes nothing" { bad 2 "ib-comp-wq/nice" set writeback ib-comp-wq nice=1; }
@test "workqueue name with a slash" { bad 2 "../writeback: not a valid workqueue name" set ../writeback max_active=4; }
@test "get of a missing workqueue" { bad 32 "wqctl: nosuch: no such workqueue" get nosuch; }
@test "get of a path-traversal name" { bad 2 "not a valid workqueue name" get ..; }
@test "get of an unknown attribute" { bad 2 "writeback/colour: unknown attribute" get writeback colour; }
@test "get of an attribute the workqueue lacks" { bad 2 "ib-comp-wq/cpumask: per-cpu workqueues have no cpumask" get ib-comp-wq cpumask; }
@test "unknown command" { bad 2 "wqctl: frobnicate: unknown command" frobnicate; }
@test "unknown option of a command" { bad 2 "set: --frobnicate: unknown option" set --frobnicate writeback max_active=4; }
@test "unknown column" { bad 2 "--output: COLOUR: unknown column" show -o COLOUR; }
@test "missing option argument" { bad 2 "--output: option requires an argument" show --output; }
@test "bad --kernel" { bad 2 "--kernel: 'latest' is not a kernel release" --kernel latest show; }
@test "missing sysroot" { run "$WQCTL" --sysroot "$BATS_TEST_TMPDIR/none" show; assert_equal "$status" 1; assert_output --partial "cannot open: No such file or directory"; }
@test "knob unknown" { bad 2 "wqctl: nosuch: no such knob on this kernel" knob nosuch=1; }
@test "knob read-only" { bad 2 "cpumask_requested: cannot set: read-only" knob cpumask_requested=0-3; }
@test "knob bad value" { bad 2 "watchdog_thresh: invalid value 'soon'" knob watchdog_thresh=soon; }
@test "knob default scope cannot be 'default'" { bad 2 "default_affinity_scope: invalid value 'default'" knob default_affinity_scope=default; }
@test "knob root cpumask beyond possible" { bad 2 "cpumask: invalid value '64': CPU 64 does not exist" knob cpumask=64; }
@test "knob mixing get and set" { bad 2 "give either NAME... or NAME=VALUE..., not both" knob watchdog_thresh cpumask=1; }
@test "explain --max-active out of range" { bad 2 "--max-active: invalid value '5000'" explain writeback --max-active 5000; }
@test "explain --scope unknown" { bad 2 "--scope: invalid value" explain writeback --scope socket; }
@test "explain --cpus on a per-cpu workqueue" { bad 2 "ib-comp-wq: per-cpu workqueues have no cpumask" explain ib-comp-wq --cpus 0; }
@test "topology --scope unknown" { bad 2 "--scope: 'socket' is not an affinity scope" topology --scope socket; }

@test "malformed max_active in sysfs: show reports it, exits 1" {
	echo "lots" >"$(WQDIR)/writeback/max_active"
	BEFORE=$(tree_sum)
	bad 1 "wqctl: writeback/max_active: malformed value 'lots'" show
}
@test "malformed cpumask in sysfs" {
	echo "xyz" >"$(WQDIR)/writeback/cpumask"
	BEFORE=$(tree_sum)
	bad 1 "writeback/cpumask: malformed value 'xyz'" get writeback
}
@test "malformed affinity_scope in sysfs" {
	echo "default (cache" >"$(WQDIR)/writeback/affinity_scope"
	BEFORE=$(tree_sum)
	bad 1 "writeback/affinity_scope: malformed value" show writeback
}
@test "unreadable attribute (a directory where a file should be)" {
	rm "$(WQDIR)/writeback/nice"; mkdir "$(WQDIR)/writeback/nice"
	BEFORE=$(tree_sum)
	bad 1 "writeback/nice: cannot read" show writeback
}
@test "set refuses to write when the current value cannot be read" {
	rm "$(WQDIR)/writeback/nice"; mkdir "$(WQDIR)/writeback/nice"
	BEFORE=$(tree_sum)
	bad 2 "writeback/nice: cannot read the current value" set writeback nice=1
}
@test "missing possible file" {
	rm "$ROOT/sys/devices/system/cpu/possible"
	BEFORE=$(tree_sum)
	bad 1 "sys/devices/system/cpu/possible: cannot read topology" topology
}
@test "vanished workqueue tree" {
	rm -rf "$(WQDIR)"
	run wq show writeback
	assert_equal "$status" 1
	assert_output --partial "cannot list workqueues"
}
@test "write failure is reported and the earlier writes rolled back" {
	# nice becomes a dangling symlink: O_NOFOLLOW makes its write fail after max_active was written
	rm "$(WQDIR)/writeback/nice"
	echo 0 >"$ROOT/nice-target"
	ln -s ../../../../../nice-target "$(WQDIR)/writeback/nice"
	BEFORE=$(tree_sum)
	bad 1 "writeback/nice: write failed" set writeback max_active=64 nice=5
	assert_output --partial "rolled back 1 change made in this run"
	assert_equal "$(cat "$(WQDIR)/writeback/max_active")" 1024
}
