#!/usr/bin/env bats
# metrics: Prometheus's text format from a tree (issue 46). Every expected
# figure comes from the tree's own files or from doc/kernel.md by hand; the
# format is checked by promtool (package prometheus), not by wqctl.
load helpers

setup() {
	# 6.8: the per-CPU era; 2 nodes of 4 CPUs; writeback and blkcg_punt_bio
	# at the default 256, scsi_tmf_0 created unbound with 1, ib-comp-wq per-CPU
	use_tree synth:2:4:1:2 6.8
	PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD"
}

teardown() { drop_tree; }

wqp() { wq --profile-dir "$PD" "$@"; }
# one sample's value: metric NAME{LABELS} exactly as printed
value() { grep -F "$1 " <<<"$output" | sed 's/.* //'; }

@test "metrics: every family has HELP and TYPE, promtool finds nothing, the values are the tree's" {
	command -v promtool >/dev/null || skip "promtool is not installed (make deps)"
	run wq metrics
	assert_success
	metrics=$output
	run promtool check metrics <<<"$metrics"
	assert_success
	assert_output ""
	run wq metrics
	assert_equal "$output" "$metrics"
	# each sample's family was announced with HELP and TYPE, once
	for fam in $(grep -v '^#' <<<"$output" | sed 's/[{ ].*//' | sort -u); do
		assert_equal "$fam: $(grep -c "^# HELP $fam " <<<"$output") $(grep -c "^# TYPE $fam gauge$" <<<"$output")" "$fam: 1 1"
	done
	W=$(WQDIR)
	assert_equal "$(value 'wqctl_workqueue_max_active{workqueue="writeback"}')" "$(cat "$W/writeback/max_active")"
	assert_equal "$(value 'wqctl_workqueue_max_active{workqueue="scsi_tmf_0"}')" 1
	# 6.6-6.8 apply max_active per CPU: 256 x 8 CPUs; per-CPU ib-comp-wq likewise per CPU
	assert_equal "$(value 'wqctl_workqueue_max_inflight{workqueue="writeback"}')" 2048
	assert_equal "$(value 'wqctl_workqueue_nice{workqueue="writeback"}')" "$(cat "$W/writeback/nice")"
	assert_equal "$(value 'wqctl_workqueue_affinity_strict{workqueue="writeback"}')" "$(cat "$W/writeback/affinity_strict")"
	assert_line 'wqctl_workqueue_info{workqueue="writeback",kind="unbound",scope="cache",cpus="0-7",cpumask="0-7",owner=""} 1'
	assert_line 'wqctl_workqueue_info{workqueue="scsi_tmf_0",kind="unbound",scope="cache",cpus="0-7",cpumask="0-7",owner="scsi_host:host0"} 1'
	assert_line 'wqctl_workqueue_info{workqueue="ib-comp-wq",kind="percpu",scope="",cpus="",cpumask="",owner=""} 1'
	# a per-CPU workqueue has neither nice nor affinity_strict
	refute_line --partial 'wqctl_workqueue_nice{workqueue="ib-comp-wq"}'
	assert_line 'wqctl_kernel_info{release="6.8",era="per-cpu",default_scope="cache"} 1'
	assert_line 'wqctl_online_cpus 8'
	assert_line 'wqctl_root_cpumask_cpus 8'
	assert_line 'wqctl_housekeeping_cpus 8'
	# check's findings by hand: writeback's and blkcg_punt_bio's 256 per CPU, 6.8's default: once, for the
	# kernel; scsi_tmf_0's 1 was ordered
	assert_line 'wqctl_check_findings{severity="info",code="max-active-per-cpu"} 1'
	refute_line --partial 'severity="warning",code="max-active-per-cpu"'
	assert_line 'wqctl_check_findings{severity="warning",code="ordering-lost"} 1'
	assert_line 'wqctl_check_findings{severity="info",code="percpu-not-steerable"} 1'
	assert_line 'wqctl_journal_entries 0'
}

@test "metrics follows the tree: a changed value, the root mask, a finding gone" {
	W=$(WQDIR)
	echo 5 >"$W/writeback/nice"
	echo 1 >"$W/writeback/affinity_strict"
	echo 0f >"$W/cpumask"
	echo 0f >"$W/writeback/cpumask"
	run wq metrics
	assert_success
	assert_line 'wqctl_workqueue_nice{workqueue="writeback"} 5'
	assert_line 'wqctl_workqueue_affinity_strict{workqueue="writeback"} 1'
	assert_line 'wqctl_root_cpumask_cpus 4'
	assert_line 'wqctl_workqueue_info{workqueue="writeback",kind="unbound",scope="cache",cpus="0-3",cpumask="0-3",owner=""} 1'
}

@test "metrics: the active profiles' settings and drift, as verify counts them; journal entries pending revert" {
	printf '[workqueue writeback]\nmax_active = 64\nnice = 2\n' >"$PD/tuned.conf"
	printf '[workqueue blkcg_punt_bio]\nmax_active = 32\n' >"$PD/other.conf"
	run wqp profile use tuned other
	assert_success
	run wqp metrics
	assert_success
	# nothing applied yet: every setting differs
	assert_line 'wqctl_profile_settings{profile="tuned"} 2'
	assert_line 'wqctl_profile_drift{profile="tuned"} 2'
	assert_line 'wqctl_profile_drift{profile="other"} 1'
	run wqp apply
	assert_success
	run wqp metrics
	assert_line 'wqctl_profile_drift{profile="tuned"} 0'
	assert_line 'wqctl_profile_drift{profile="other"} 0'
	# apply journaled the three originals: revert would restore them
	assert_line 'wqctl_journal_entries 3'
	echo 16 >"$(WQDIR)/writeback/max_active"
	run wqp metrics
	assert_line 'wqctl_profile_drift{profile="tuned"} 1'
	run wqp verify
	assert_failure 3
	run wqp revert
	run wqp metrics
	assert_line 'wqctl_journal_entries 0'
}

@test "metrics --textfile DIR writes DIR/wqctl.prom whole (mode 0644, nothing else left); a DIR it cannot write fails and leaves nothing" {
	out=$BATS_TEST_TMPDIR/textfile
	mkdir -p "$out"
	run wq metrics --textfile "$out"
	assert_success
	assert_output ""
	assert_equal "$(ls -A "$out")" "wqctl.prom"
	assert_equal "$(stat -c %a "$out/wqctl.prom")" 644
	assert_equal "$(cat "$out/wqctl.prom")" "$(wq metrics)"
	# replaced, never appended to
	echo 'stale 1' >"$out/wqctl.prom"
	run wq metrics --textfile "$out"
	assert_success
	refute grep -q stale "$out/wqctl.prom"
	run wq metrics --textfile "$BATS_TEST_TMPDIR/nosuch"
	assert_failure 1
	assert_output --partial "$BATS_TEST_TMPDIR/nosuch/wqctl.prom: cannot write: No such file or directory"
	# a directory where the file goes: the old one stays, no temporary is left
	rm "$out/wqctl.prom" && mkdir "$out/wqctl.prom"
	run wq metrics --textfile "$out"
	assert_failure 1
	assert_output --partial "$out/wqctl.prom: cannot write"
	assert_equal "$(ls -A "$out")" "wqctl.prom"
}

@test "metrics: options it does not take are usage errors" {
	run wq metrics --json
	assert_failure 2
	run wq -J metrics
	assert_failure 2
	assert_output "wqctl: metrics: the output is Prometheus's text format: no --json, --raw, --pairs or --output"
	run wq metrics extra
	assert_failure 2
	assert_output "wqctl: metrics: extra: unexpected argument"
	run wq metrics --textfile
	assert_failure 2
	for bad in 0 0.05 3601 x 1s ''; do
		run wq metrics --sample "$bad"
		assert_failure 2
		assert_output "wqctl: metrics: --sample '$bad': expected seconds from 0.1 to 3600"
	done
	# a window of the tracepoints: the live kernel's, never a tree's
	run wq metrics --sample 1
	assert_failure 2
	assert_output "wqctl: metrics: --sample measures the live kernel's tracepoints: not below --sysroot"
}

# issue 60 item 4: a byte that is not UTF-8 made promtool refuse the whole file (node_exporter then
# drops every wqctl metric), and an ESC sequence reached the terminal through explain
@test "metrics and explain: a kernel release with bytes that are not UTF-8 or are controls is printed safe" {
	command -v promtool >/dev/null || skip "promtool is not installed (make deps)"
	printf '6.8.0-\377\033[31m\n' >"$ROOT/proc/sys/kernel/osrelease"
	run wq metrics
	assert_success
	assert_line --partial 'wqctl_kernel_info{release="6.8.0-??[31m",era="per-cpu"'
	run bash -c "'$WQCTL' --sysroot '$ROOT' metrics | promtool check metrics"
	assert_success
	run wq explain writeback
	assert_success
	assert_line --partial "kernel:       6.8.0-??[31m"
	refute_output --partial $'\033'
}

# issue 60 item 5: the textfile directory under the rule the profiles, journal and saved experiments
# follow (Debian's /var/lib/prometheus belongs to the prometheus user, who could swap what is in it)
@test "metrics --textfile: a symlinked DIR, one owned by another user or writable by others is refused, nothing written" {
	[ "$(id -u)" = 0 ] || skip "the rule applies when root runs it"
	t=$BATS_TEST_TMPDIR/t
	mkdir -p "$t/target" "$t/dir"
	ln -s target "$t/link"
	run wq metrics --textfile "$t/link"
	assert_failure 2
	assert_output --partial "$t/link: refusing to write wqctl.prom there: a symlink (not followed: name the directory itself)"
	chown nobody "$t/dir"
	run wq metrics --textfile "$t/dir"
	assert_failure 2
	assert_output --partial "$t/dir: refusing to write wqctl.prom there: owned by uid $(id -u nobody), not root"
	chown root "$t/dir" && chmod 0777 "$t/dir"
	run wq metrics --textfile "$t/dir"
	assert_failure 2
	assert_output --partial "$t/dir: refusing to write wqctl.prom there: writable by group or others (mode 0777): chmod go-w it"
	[ -z "$(find "$t/target" "$t/dir" -mindepth 1)" ]
	chmod 0755 "$t/dir"
	run wq metrics --textfile "$t/dir"
	assert_success
	[ -s "$t/dir/wqctl.prom" ]
}
