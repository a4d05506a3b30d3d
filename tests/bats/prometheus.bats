#!/usr/bin/env bats
# The Prometheus rules shipped for wqctl metrics (prometheus/): Debian's
# promtool checks them and runs their unit tests, and every wqctl_ series
# they read is one 'wqctl metrics' really writes (the sample families are
# checked against a real window in tests/live/metrics.bats).
load helpers

setup() {
	command -v promtool >/dev/null || skip "promtool is not installed (make deps)"
	P=$TOP/prometheus
}

@test "promtool check rules: the rule file is valid" {
	run promtool check rules "$P/wqctl.rules.yml"
	assert_success
	assert_output --partial "SUCCESS: 9 rules found"
}

@test "promtool test rules: every alert fires when and where the test's series say, and only there" {
	cd "$P"
	run promtool test rules wqctl.rules.test.yml
	assert_success
	assert_output --partial "SUCCESS"
	# the test can fail: a wrong expected rate is caught
	sed 's/value: 600$/value: 601/' wqctl.rules.test.yml >"$BATS_TEST_TMPDIR/wrong.test.yml"
	cp wqctl.rules.yml "$BATS_TEST_TMPDIR/"
	cd "$BATS_TEST_TMPDIR"
	run promtool test rules wrong.test.yml
	assert_failure
}

@test "the rules read only series wqctl metrics writes" {
	use_tree synth:2:4:1:2 6.18
	mkdir -p "$ROOT/etc/wqctl/profiles"
	printf '[workqueue writeback]\nnice = 1\n' >"$ROOT/etc/wqctl/profiles/p.conf"
	wq profile use p 2>/dev/null
	run wq metrics
	families=$(sed -n 's/^# TYPE \(wqctl_[a-z_]*\) .*/\1/p' <<<"$output" | sort -u)
	for name in $(grep -oP '(?<![:a-z_])wqctl_[a-z_]*[a-z](?![a-z_])' "$P/wqctl.rules.yml" | grep -v '^wqctl_sample_' | sort -u); do
		grep -qx "$name" <<<"$families" || { echo "the rules read $name, which wqctl metrics does not write"; false; }
	done
}
