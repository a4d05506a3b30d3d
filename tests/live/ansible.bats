#!/usr/bin/env bats
# Live tier: the Ansible collection's attr module on this machine's writeback
# (issue 46), through Debian's ansible-playbook; restored in teardown, even
# when a test fails.
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"

WB=/sys/devices/virtual/workqueue/writeback

setup_file() {
	: "${WQCTL:?}"
	[ "$(id -u)" = 0 ] || skip "not root"
	command -v ansible-playbook >/dev/null || skip "ansible-core is not installed (make deps)"
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	export TOP COLL=$BATS_FILE_TMPDIR/collections SAVED_MAX SAVED_MASK
	SAVED_MAX=$(cat "$WB/max_active")
	SAVED_MASK=$(cat "$WB/cpumask")
	(cd "$TOP/ansible" && ansible-galaxy collection build --force --output-path "$BATS_FILE_TMPDIR" >/dev/null)
	ansible-galaxy collection install --force -p "$COLL" "$BATS_FILE_TMPDIR/wqctl-wqctl-0.1.0.tar.gz" >/dev/null 2>&1
}

teardown_file() {
	# wqctl's journal holds what the module changed: revert restores it; the saved values in any case
	"$WQCTL" revert >/dev/null 2>&1
	[ -n "${SAVED_MAX:-}" ] && echo "$SAVED_MAX" >"$WB/max_active"
	[ -n "${SAVED_MASK:-}" ] && echo "$SAVED_MASK" >"$WB/cpumask"
	true
}

@test "ansible live: attr writes writeback, the kernel holds it, a second run is no change" {
	cpus=$(cat /sys/devices/system/cpu/online)
	run env ANSIBLE_COLLECTIONS_PATH="$COLL" ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 \
		ANSIBLE_INVENTORY_UNPARSED_WARNING=0 ansible-playbook -i localhost, -c local \
		-e ansible_python_interpreter=/usr/bin/python3 -e wqctl="$WQCTL" -e cpus="$cpus" "$TOP/tests/ansible/live-attr.yml"
	assert_success
	assert_output --regexp 'ok=6 +changed=2 +unreachable=0 +failed=0'
	assert_equal "$(cat "$WB/max_active")" 48
}
