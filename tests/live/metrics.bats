#!/usr/bin/env bats
# Live tier: wqctl metrics through Debian's own prometheus-node-exporter
# (issue 46). node_exporter runs on 127.0.0.1 with only its textfile
# collector, reading the directory `wqctl metrics --textfile` writes; the
# scrape is checked against the live sysfs files and by promtool. The
# exporter is stopped by its pid and writeback's value restored, whatever
# happens.
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"

WB=/sys/devices/virtual/workqueue/writeback

setup_file() {
	: "${WQCTL:?}"
	[ "$(id -u)" = 0 ] || skip "not root"
	command -v prometheus-node-exporter >/dev/null || skip "prometheus-node-exporter is not installed (make deps)"
	command -v promtool >/dev/null || skip "promtool is not installed (make deps)"
	export TEXTDIR=$BATS_FILE_TMPDIR/textfile SAVED_MAX PORT NE_PID
	SAVED_MAX=$(cat "$WB/max_active")
	mkdir -p "$TEXTDIR"
	# a free port: the first the exporter can listen on
	for PORT in $(shuf -i 20000-60000 -n 20); do
		prometheus-node-exporter --web.listen-address="127.0.0.1:$PORT" --collector.disable-defaults \
			--collector.textfile --collector.textfile.directory="$TEXTDIR" >"$BATS_FILE_TMPDIR/ne.log" 2>&1 &
		NE_PID=$!
		for _ in $(seq 50); do
			curl -sf "http://127.0.0.1:$PORT/metrics" >/dev/null 2>&1 && return 0
			kill -0 "$NE_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill "$NE_PID" 2>/dev/null
		wait "$NE_PID" 2>/dev/null
	done
	echo "# node_exporter did not start: $(tail -3 "$BATS_FILE_TMPDIR/ne.log")" >&3
	return 1
}

teardown_file() {
	[ -n "${NE_PID:-}" ] && kill "$NE_PID" 2>/dev/null
	[ -n "${SAVED_MAX:-}" ] && echo "$SAVED_MAX" >"$WB/max_active"
	true
}

scrape() { curl -sf "http://127.0.0.1:$PORT/metrics"; }

@test "node_exporter serves wqctl's textfile: the families, with sysfs's values; promtool finds nothing" {
	echo 77 >"$WB/max_active"
	run "$WQCTL" metrics --textfile "$TEXTDIR"
	assert_success
	run scrape
	assert_success
	body=$output
	# the exporter read the file without an error
	assert_line 'node_textfile_scrape_error 0'
	assert_line "wqctl_workqueue_max_active{workqueue=\"writeback\"} 77"
	assert_line "wqctl_workqueue_nice{workqueue=\"writeback\"} $(cat "$WB/nice")"
	assert_line "wqctl_workqueue_affinity_strict{workqueue=\"writeback\"} $(cat "$WB/affinity_strict")"
	assert_line "wqctl_online_cpus $(nproc)"
	assert_line --regexp "^wqctl_kernel_info\\{default_scope=\"$(cat /sys/module/workqueue/parameters/default_affinity_scope)\",era=\"[a-z-]+\",release=\"$(uname -r)\"\\} 1$"
	for fam in wqctl_workqueue_max_inflight wqctl_workqueue_info wqctl_root_cpumask_cpus wqctl_housekeeping_cpus wqctl_journal_entries; do
		assert_line --partial "# TYPE $fam gauge"
	done
	run promtool check metrics <<<"$body"
	assert_success
	assert_output ""
	# a new value reaches the scrape once the file is written again
	echo "$SAVED_MAX" >"$WB/max_active"
	"$WQCTL" metrics --textfile "$TEXTDIR"
	run scrape
	assert_line "wqctl_workqueue_max_active{workqueue=\"writeback\"} $SAVED_MAX"
}
