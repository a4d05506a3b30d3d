#!/usr/bin/env bats
# The Ansible collection wqctl.wqctl (issue 46): built with ansible-galaxy,
# installed from its tarball, and run by Debian's ansible-playbook against
# fixture trees. The playbooks (tests/ansible/) assert what each task
# reports; the trees' files are checked here, by cat.
load helpers

setup_file() {
	command -v ansible-playbook >/dev/null || skip "ansible-core is not installed (make deps)"
	export COLL=$BATS_FILE_TMPDIR/collections
	(cd "$TOP/ansible" && ansible-galaxy collection build --force --output-path "$BATS_FILE_TMPDIR" >/dev/null)
	ansible-galaxy collection install --force -p "$COLL" "$BATS_FILE_TMPDIR/wqctl-wqctl-0.1.0.tar.gz" >/dev/null 2>&1
}

setup() {
	use_tree synth:2:4:1:2 6.18
}

teardown() { drop_tree; }

play() { # playbook
	ANSIBLE_COLLECTIONS_PATH=$COLL ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0 \
		ansible-playbook -i localhost, -c local -e ansible_python_interpreter=/usr/bin/python3 \
		-e root="$ROOT" -e wqctl="$WQCTL_PLAIN" "$TOP/tests/ansible/$1"
}

@test "the collection builds and installs from its tarball" {
	[ -f "$BATS_FILE_TMPDIR/wqctl-wqctl-0.1.0.tar.gz" ]
	[ -f "$COLL/ansible_collections/wqctl/wqctl/plugins/modules/attr.py" ]
	[ -f "$COLL/ansible_collections/wqctl/wqctl/plugins/modules/profile.py" ]
	[ -f "$COLL/ansible_collections/wqctl/wqctl/roles/wqctl/tasks/main.yml" ]
	run env ANSIBLE_COLLECTIONS_PATH="$COLL" ansible-doc wqctl.wqctl.attr
	assert_success
	assert_output --partial "WQCTL.WQCTL.ATTR"
	assert_output --partial "reads each written value back"
}

@test "wqctl.wqctl.attr: check mode writes nothing, the first run changes, the second does not, bad input fails and writes nothing" {
	run play attr.yml
	assert_success
	assert_output --regexp 'ok=14 +changed=3 +unreachable=0 +failed=0 +skipped=0 +rescued=0 +ignored=3'
	W=$(WQDIR)
	# 64, CPUs 0-3 of 8 as the kernel writes them, nice untouched by the refused task
	assert_equal "$(cat "$W/writeback/max_active") $(cat "$W/writeback/cpumask") $(cat "$W/writeback/nice")" "64 0f 0"
	assert_equal "$(cat "$W/blkcg_punt_bio/nice")" -5
}

@test "wqctl.wqctl.profile: an invalid profile refused, check mode, install + active + apply + verify, unchanged again, inactive, absent" {
	run play profile.yml
	assert_success
	assert_output --regexp 'ok=12 +changed=4 +unreachable=0 +failed=0 +skipped=0 +rescued=0 +ignored=1'
	# the refusal names the profile's own line, not the module's scratch directory
	assert_output --partial "\"msg\": \"wqctl: broken.conf:2: max_active: invalid value '0'"
	# inactive was the last active one: profile off restored writeback; absent removed the file
	W=$(WQDIR)
	assert_equal "$(cat "$W/writeback/max_active") $(cat "$W/writeback/nice")" "1024 0"
	[ ! -e "$ROOT/etc/wqctl/profiles/storage.conf" ]
	[ ! -e "$ROOT/etc/wqctl/profiles/broken.conf" ]
}

readme_yaml() { # the README's yaml block that opens with the line $1
	awk -v first="$1" '/^```yaml$/ { p = 1; n = 0; next } /^```$/ { p = 0 } p && n++ == 0 { keep = ($0 == first) } p && keep' "$TOP/README.md"
}

@test "the role wqctl.wqctl.wqctl: the README's site.yml, shown whole, passes ansible-playbook --syntax-check" {
	pb=$(cat "$TOP/ansible/examples/site.yml")
	assert_equal "$(readme_yaml "$(head -1 <<<"$pb")")" "$pb"
	grep -q '^    - wqctl.wqctl.wqctl$' <<<"$pb"
	run env ANSIBLE_COLLECTIONS_PATH="$COLL" ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0 \
		ansible-playbook -i localhost, --syntax-check "$TOP/ansible/examples/site.yml"
	assert_success
	assert_output --partial "playbook: $TOP/ansible/examples/site.yml"
}

@test "the README's rollout playbook, as written, rolls the profile out and with --check reports the drifted hosts" {
	# the README shows the example file whole
	pb=$(cat "$TOP/ansible/examples/rollout.yml")
	readme_yaml "$(head -1 <<<"$pb")" >"$BATS_TEST_TMPDIR/readme.yml"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/readme.yml")" "$pb"
	# two hosts, each a tree: a already has the profile, b does not
	local a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b
	cp -a "$ROOT" "$a" && cp -a "$ROOT" "$b"
	printf '[all]\na wqctl_sysroot=%s\nb wqctl_sysroot=%s\n[all:vars]\nansible_connection=local\nansible_python_interpreter=/usr/bin/python3\nansible_become=false\n' \
		"$a" "$b" >"$BATS_TEST_TMPDIR/hosts"
	pbk() { env PATH="$(dirname "$WQCTL_PLAIN"):$PATH" ANSIBLE_COLLECTIONS_PATH="$COLL" ANSIBLE_NOCOLOR=1 \
		ansible-playbook -i "$BATS_TEST_TMPDIR/hosts" "$@" "$BATS_TEST_TMPDIR/readme.yml"; }
	run pbk -l a
	assert_success
	assert_equal "$(cat "$a/sys/devices/virtual/workqueue/writeback/max_active")" 64
	run pbk --check
	assert_success
	# only b drifted, and check mode wrote nothing there
	assert_output --partial '"msg": "drifted: writeback/max_active"'
	assert_equal "$(grep -c '"msg": "drifted' <<<"$output")" 1
	assert_output --regexp 'a +: ok=2 +changed=0 '
	assert_output --regexp 'b +: ok=3 +changed=1 '
	assert_equal "$(cat "$b/sys/devices/virtual/workqueue/writeback/max_active")" 1024
	[ ! -e "$b/etc/wqctl/profiles/storage.conf" ]
	# rolled out, nothing drifts
	run pbk
	assert_success
	run pbk --check
	assert_success
	refute_output --partial 'drifted'
	assert_equal "$(cat "$b/sys/devices/virtual/workqueue/writeback/max_active")" 64
}

adhoc() { # module arguments, then ansible options
	local a=$1
	shift
	ANSIBLE_COLLECTIONS_PATH=$COLL ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0 \
		ansible localhost -c local -e ansible_python_interpreter=/usr/bin/python3 -m wqctl.wqctl.profile \
		-a "sysroot=$ROOT executable=$WQCTL_PLAIN $a" "$@"
}

@test "wqctl.wqctl.profile stays inside its sysroot: links out of the tree lead back into it (issue 60)" {
	out=$BATS_TEST_TMPDIR/outside
	mkdir -p "$out/profiles" "$ROOT/etc"
	rm -rf "$ROOT/etc/wqctl"
	# etc/wqctl a link out of the tree: it resolves inside the tree, where nothing is there yet
	ln -s "$out" "$ROOT/etc/wqctl"
	run adhoc "name=storage state=inactive content='[workqueue writeback]\nnice = 2\n'"
	assert_failure
	assert_output --partial "etc/wqctl/profiles/storage.conf: cannot write: No such file or directory"
	[ ! -e "$out/profiles/storage.conf" ]
	# where the link leads inside the tree, the profile lands there
	mkdir -p "$ROOT$out"
	run adhoc "name=storage state=inactive content='[workqueue writeback]\nnice = 2\n'"
	assert_success
	[ ! -e "$out/profiles/storage.conf" ]
	[ -f "$ROOT$out/profiles/storage.conf" ]
	# profiles a link out: state=absent removes nothing outside
	rm -f "$ROOT/etc/wqctl"
	mkdir -p "$ROOT/etc/wqctl"
	echo "[workqueue writeback]" >"$out/profiles/victim.conf"
	ln -s "$out/profiles" "$ROOT/etc/wqctl/profiles"
	run adhoc "name=victim state=absent"
	assert_success
	[ -f "$out/profiles/victim.conf" ]
	# a profile that is a link to a 0600 file: --check --diff does not print it
	rm -f "$ROOT/etc/wqctl/profiles"
	mkdir -p "$ROOT/etc/wqctl/profiles"
	echo "secret-token" >"$BATS_TEST_TMPDIR/secret"
	chmod 0600 "$BATS_TEST_TMPDIR/secret"
	ln -s "$BATS_TEST_TMPDIR/secret" "$ROOT/etc/wqctl/profiles/storage.conf"
	run adhoc "name=storage state=inactive content='[workqueue writeback]\nnice = 2\n'" --check --diff
	refute_output --partial "secret-token"
	# ... nor one inside the tree that others may not read: wqctl refuses to print it
	cp "$BATS_TEST_TMPDIR/secret" "$ROOT/secret"
	chmod 0600 "$ROOT/secret"
	ln -sf /secret "$ROOT/etc/wqctl/profiles/storage.conf"
	run adhoc "name=storage state=inactive content='[workqueue writeback]\nnice = 2\n'" --check --diff
	assert_failure
	refute_output --partial "secret-token"
	assert_output --partial "not printed: others may not read it"
}
