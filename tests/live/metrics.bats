#!/usr/bin/env bats
# Live tier: wqctl metrics through Debian's own prometheus-node-exporter
# (issue 46). node_exporter runs on 127.0.0.1 with only its textfile
# collector, reading the directory `wqctl metrics --textfile` writes; the
# scrape is checked against the live sysfs files and by promtool. The
# exporter is stopped by its pid and writeback's value restored, whatever
# happens.
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"
# shellcheck source=ready.bash
source "$BATS_TEST_DIRNAME/ready.bash"

WB=/sys/devices/virtual/workqueue/writeback
# wqctl names its tracefs instances PID_NS (NS: the inode of the PID namespace)
NS=$(stat -L -c %i /proc/self/ns/pid)

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

@test "metrics --sample: the window's writeback work, within what an oracle instance saw; promtool finds nothing" {
	T=/sys/kernel/tracing
	[ -d "$T/instances" ] || skip "tracefs is not mounted at $T"
	oracle=$T/instances/wqctl-test-metrics-$$
	mkdir "$oracle"
	echo 1 >"$oracle/events/workqueue/workqueue_queue_work/enable"
	echo 1 >"$oracle/tracing_on"
	"$WQCTL" metrics --sample 3 >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	counting "$pid" || true
	# dirty data, then sync: the flusher queues writeback work
	for i in 1 2 3; do
		dd if=/dev/urandom of="$BATS_TEST_TMPDIR/f$i" bs=1M count=4 status=none
		sync
	done
	wait "$pid"
	echo 0 >"$oracle/tracing_on"
	seen=$(grep -c 'workqueue=writeback ' "$oracle/trace" || true)
	rmdir "$oracle"
	# the sampler's own instance is gone
	[ ! -d "$T/instances/wqctl-monitor-${pid}_$NS" ]
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output ""
	run promtool check metrics <"$BATS_TEST_TMPDIR/out"
	assert_success
	assert_output ""
	run cat "$BATS_TEST_TMPDIR/out"
	assert_line 'wqctl_sample_events_lost 0'
	secs=$(sed -n 's/^wqctl_sample_seconds //p' <<<"$output")
	rate=$(sed -n 's/^wqctl_sample_queued_per_second{workqueue="writeback"} //p' <<<"$output")
	count=$(awk -v r="$rate" -v s="$secs" 'BEGIN { printf "%.0f", r * s }')
	echo "metrics --sample: $count writeback items in $secs s; oracle: $seen" >&3
	# the window is 3 s as measured; at least one item, never more than the oracle (on before, off after) saw
	awk -v s="$secs" 'BEGIN { exit !(s >= 2.9 && s <= 3.5) }'
	[ "$count" -ge 1 ]
	[ "$count" -le "$seen" ]
	# each started item's wait is in the summary: its count is the started rate over the window
	started=$(sed -n 's/^wqctl_sample_started_per_second{workqueue="writeback"} //p' <<<"$output")
	waits=$(sed -n 's/^wqctl_sample_wait_seconds_count{workqueue="writeback"} //p' <<<"$output")
	assert_equal "$waits" "$(awk -v r="$started" -v s="$secs" 'BEGIN { printf "%.0f", r * s }')"
}

@test "the shipped Prometheus rules read only sample series a real window writes" {
	run "$WQCTL" metrics --sample 1
	assert_success
	families=$(sed -n 's/^# TYPE \(wqctl_sample_[a-z_]*\) .*/\1/p' <<<"$output" | sort -u)
	names=$(grep -oP '(?<![:a-z_])wqctl_sample_[a-z_]*[a-z](?![a-z_])' "$TOP/prometheus/wqctl.rules.yml" | sort -u)
	[ -n "$names" ]
	for name in $names; do
		grep -qx "$name" <<<"$families" || { echo "the rules read $name, which metrics --sample does not write"; false; }
	done
}

@test "metrics --sample --textfile cut short by SIGTERM writes nothing: the file before it stays whole" {
	# the last complete file, as an earlier --sample run left it (a marker stands for its sample families)
	"$WQCTL" metrics --textfile "$TEXTDIR"
	echo '# the sample families of an earlier window' >>"$TEXTDIR/wqctl.prom"
	cp "$TEXTDIR/wqctl.prom" "$BATS_TEST_TMPDIR/before"
	"$WQCTL" metrics --sample 30 --textfile "$TEXTDIR" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	# the window is open once the sampler's tracing instance is there
	for _ in $(seq 100); do
		ls /sys/kernel/tracing/instances 2>/dev/null | grep -q "^wqctl-" && break
		sleep 0.1
	done
	sleep 0.5
	kill -TERM $pid
	rc=0
	wait $pid || rc=$?
	[ "$rc" -ne 0 ]
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output --partial "interrupted before the window ended; nothing written"
	cmp "$BATS_TEST_TMPDIR/before" "$TEXTDIR/wqctl.prom"
	[ "$(ls -A "$TEXTDIR")" = wqctl.prom ]
}

# a Prometheus of the test's own scraping this node_exporter every second, with wqctl's console page and rules
start_prometheus() {
	local port
	PROM_DIR=$BATS_TEST_TMPDIR/prometheus
	mkdir -p "$PROM_DIR/tsdb"
	for port in $(shuf -i 20000-60000 -n 20); do
		cat >"$PROM_DIR/prometheus.yml" <<EOF
global: { scrape_interval: 1s, evaluation_interval: 1s }
rule_files: [ "$TOP/prometheus/wqctl.rules.yml" ]
scrape_configs:
  - job_name: node
    static_configs: [ { targets: [ "127.0.0.1:$PORT" ] } ]
EOF
		prometheus --config.file="$PROM_DIR/prometheus.yml" --storage.tsdb.path="$PROM_DIR/tsdb" \
			--web.listen-address="127.0.0.1:$port" --web.console.templates="$TOP/prometheus/consoles" \
			--web.console.libraries=/usr/share/doc/prometheus/examples/console_libraries >"$PROM_DIR/log" 2>&1 &
		PROM_PID=$!
		PROM_PORT=$port
		for _ in $(seq 100); do
			curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null 2>&1 && return 0
			kill -0 "$PROM_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill "$PROM_PID" 2>/dev/null
		wait "$PROM_PID" 2>/dev/null
	done
	echo "# prometheus did not start: $(tail -3 "$PROM_DIR/log")" >&3
	return 1
}

teardown() {
	[ -n "${PROM_PID:-}" ] && kill "$PROM_PID" 2>/dev/null && wait "$PROM_PID" 2>/dev/null
	true
}

@test "the console page: a real Prometheus serves it with this host's figures, and headless Chromium draws its graphs with data" {
	command -v prometheus >/dev/null || skip "prometheus is not installed (make deps)"
	command -v chromium >/dev/null || skip "chromium is not installed (make deps)"
	start_prometheus
	# four sampled windows, each scraped
	for _ in 1 2 3 4; do "$WQCTL" metrics --sample 1 --textfile "$TEXTDIR"; sleep 1; done
	q=$(curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/query?query=count(wqctl_sample_seconds)")
	grep -q '"value":\[[0-9.]*,"1"\]' <<<"$q" || { echo "no sample scraped: $q"; false; }
	page="http://127.0.0.1:$PROM_PORT/consoles/wqctl.html"
	# the host list names this node_exporter; its page shows what sysfs and uname say
	run curl -sf "$page"
	assert_success
	assert_output --partial "wqctl.html?instance=127.0.0.1%3a$PORT\">127.0.0.1:$PORT</a>"
	run curl -sf "$page?instance=127.0.0.1:$PORT"
	assert_success
	assert_output --partial "<td id=\"wqctl-release\">$(uname -r)</td>"
	tr -d '\n' <<<"$output" | grep -Eq "<td>writeback</td>\s*<td>unbound</td>\s*<td>$(cat "$WB/max_active")</td>"
	# drawn by Chromium with its scripts run, over the last 2 minutes: each sampled graph has a line of
	# several points; the screenshot is kept as the tier's artefact
	art=${ARTEFACTS:-$TOP/build-san/artefacts}
	mkdir -p "$art"
	hash='#pctc%7B%22duration%22%3A120%2C%22endTime%22%3A0%7D'
	chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1600 \
		--virtual-time-budget=8000 --screenshot="$art/wqctl-console.png" "$page?instance=127.0.0.1:$PORT$hash" \
		>/dev/null 2>&1
	[ -s "$art/wqctl-console.png" ]
	dom=$(chromium --headless=new --no-sandbox --disable-gpu --virtual-time-budget=8000 --dump-dom \
		"$page?instance=127.0.0.1:$PORT$hash" 2>/dev/null)
	for g in wqctlQueued wqctlWait; do
		graph=$(tr -d '\n' <<<"$dom" | grep -o "id=\"$g\".*" | sed 's/<h3>.*//')
		grep -Eq '<path class="path" d="M[^"]*L' <<<"$graph" || { echo "$g: no line drawn"; false; }
	done
	echo "console page: screenshot in $art/wqctl-console.png" >&3
}
