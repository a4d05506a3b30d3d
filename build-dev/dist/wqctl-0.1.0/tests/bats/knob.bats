#!/usr/bin/env bats
# knob: list, get, set, boot-only and unknown parameters.
load helpers

setup() { use_tree vmware_fpe 6.18.0; }

@test "knob lists the knobs present with writability" {
	run wq knob -r -n -o NAME,VALUE,WRITABLE
	assert_success
	assert_line "cpumask 0-31 yes"
	assert_line "cpumask_requested 0-31 no"
	assert_line "cpumask_isolated  no"
	assert_line "default_affinity_scope cache yes"
	assert_line "power_efficient N boot"
	assert_line "unbound_cpus - boot"
	assert_line "watchdog_thresh 30 yes"
	refute_line --partial "disable_numa"
}

@test "knob NAME prints one" {
	run wq knob -r -n -o VALUE watchdog_thresh
	assert_output "30"
}

@test "knob NAME=VALUE sets and reads back" {
	run wq knob watchdog_thresh=60 default_affinity_scope=numa debug_force_rr_cpu=yes
	assert_success
	p=$ROOT/sys/module/workqueue/parameters
	assert_equal "$(cat "$p/watchdog_thresh")" 60
	assert_equal "$(cat "$p/default_affinity_scope")" numa
	assert_equal "$(cat "$p/debug_force_rr_cpu")" Y
}

@test "knob cpumask takes CPU lists and writes the kernel mask" {
	run wq knob cpumask=housekeeping
	assert_success
	# online 0-15 of possible 0-31
	assert_equal "$(cat "$(WQDIR)/cpumask")" 0000ffff
}

@test "boot-only knobs print the command-line fragment and exit 2" {
	before=$(tree_sum)
	run wq knob power_efficient=1
	assert_equal "$status" 2
	assert_output "wqctl: power_efficient: cannot set: boot-only: add 'workqueue.power_efficient=Y' to the kernel command line"
	run wq knob unbound_cpus=0-3,8
	assert_equal "$status" 2
	assert_output --partial "add 'workqueue.unbound_cpus=0-3,8' to the kernel command line"
	assert_equal "$(tree_sum)" "$before"
}

@test "unknown parameters are listed raw and settable as strings" {
	echo hello >"$ROOT/sys/module/workqueue/parameters/vendor_knob"
	chmod 0644 "$ROOT/sys/module/workqueue/parameters/vendor_knob"
	run wq knob -r -n -o NAME,VALUE,WRITABLE vendor_knob
	assert_output "vendor_knob hello yes"
	run wq knob vendor_knob=world
	assert_success
	assert_equal "$(cat "$ROOT/sys/module/workqueue/parameters/vendor_knob")" world
}

@test "knob on a 6.1 tree has disable_numa and no scope knob" {
	use_tree vmware_fpe 6.1.0
	run wq knob -r -n -o NAME
	assert_line "disable_numa"
	refute_line "default_affinity_scope"
	refute_line "cpumask_requested"
}

@test "knob --dry-run writes nothing" {
	before=$(tree_sum)
	run wq knob --dry-run watchdog_thresh=5
	assert_success
	assert_output --partial "watchdog_thresh"
	assert_equal "$(tree_sum)" "$before"
}
