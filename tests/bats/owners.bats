#!/usr/bin/env bats
# Owner devices (wqctl.profile(5), OWNERS): dm-crypt, SCSI and iSCSI hosts in a sysroot with udev data.
load helpers

setup() {
	use_tree vmware_fpe 6.18.0 owners
	PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD"
	BEFORE=$(tree_sum)
}

prof() { cat >"$PD/$1.conf"; }
wqp() { wq --profile-dir "$PD" "$@"; }
val() { cat "$(WQDIR)/$1"; }

@test "owners and their NUMA nodes" {
	run wq show -r -n -o NAME,OWNER,OWNER_NODE
	assert_success
	# dm-0 sits on sda under PCI 0000:00:10.0 (numa_node 1); both kcryptd of the reload map to it
	assert_line "kcryptd-253:0-1 block:253:0 1"
	assert_line "kcryptd-253:0-2 block:253:0 1"
	# dm-1 spans sdb (node 1) and sdc (node 2): no single node
	assert_line "kcryptd-253:1-1 block:253:1 -"
	assert_line "scsi_tmf_2 scsi_host:host2 1"
	assert_line "scsi_wq_2 scsi_host:host2 1"
	# a platform iSCSI host reports no node; in a sysroot the route cannot be looked up
	assert_line "iscsi_q_5 scsi_host:host5 -"
	assert_line "iscsi_ctrl_5:1 iscsi_session:session1 -"
	assert_line "writeback - -"
}

@test "owner.* globs match udev properties; cpumask = local is the owner's node" {
	printf '[workqueue kcryptd-*]\nowner.DM_UUID = CRYPT-LUKS2-*\nowner.DM_NAME = luks-data\ncpumask = local\nnice = -2\n' | prof p
	run wqp apply --profile p
	assert_success
	# node1 of vmware_fpe = CPUs 4-7 = 0x000000f0
	assert_equal "$(val kcryptd-253:0-1/cpumask)" 000000f0
	assert_equal "$(val kcryptd-253:0-2/cpumask)" 000000f0
	assert_equal "$(val kcryptd-253:0-1/nice)" -2
	# dm-1 is luks-wide: the DM_NAME glob does not match
	assert_equal "$(val kcryptd-253:1-1/nice)" 0
	assert_equal "$(val writeback/nice)" 0
}

@test "owner.* negative cases: wrong value, unknown property, no owner" {
	printf '[workqueue *]\nowner.DM_UUID = LVM-*\nnice = 5\n[workqueue writeback]\nowner.ID_PATH = *\nnice = 6\n[workqueue kcryptd*]\nowner.NO_SUCH = *\nnice = 7\n' | prof p
	run wqp verify --profile p
	assert_equal "$status" 3
	# a glob with owner.* properties, a device's glob: waiting for a device that may come;
	# writeback has no device, so its section can never match: absent (the exit 3)
	assert_line --regexp '^\* +waiting '
	assert_line --regexp '^writeback +absent '
	assert_line --regexp '^kcryptd\* +waiting '
	# apply agrees: the absent section is a warning (exit 1), the waiting ones are not
	run wqp apply --profile p
	assert_equal "$status" 1
	assert_line "wqctl: $PD/p.conf:4: [workqueue writeback]: skipped: no workqueue with a matching owner"
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "owner.* from sysfs attributes (dm/name) when the udev database lacks them" {
	rm "$ROOT/run/udev/data/b253:0"
	printf '[workqueue kcryptd-253:0-*]\nowner.DM_NAME = luks-data\nnice = 3\n' | prof p
	run wqp apply --profile p
	assert_success
	assert_equal "$(val kcryptd-253:0-1/nice)" 3
}

@test "owner.* on SCSI and iSCSI udev properties" {
	printf '[workqueue scsi_*]\nowner.ID_PATH = pci-0000:00:10.0-*\nmax_active = 2\n[workqueue iscsi_ctrl_*]\nowner.ID_PATH = ip-192.0.2.10:3260-*\nnice = 4\n' | prof p
	run wqp apply --profile p
	assert_success
	assert_equal "$(val scsi_tmf_2/max_active)" 2
	assert_equal "$(val iscsi_ctrl_5:1/nice)" 4
}

@test "local without an owner node is skipped with the reason: a warning, apply 1, check --profile and verify 3" {
	printf '[workqueue *]\ncpumask = local\n' | prof p
	run wqp apply --profile p
	# the rest is applied (scsi_tmf_2 below); the skipped ones make it a partial success (wqctl.profile(5) CONDITIONS)
	assert_equal "$status" 1
	assert_output --partial "writeback/cpumask: skipped: 'local' needs an owner device with a NUMA node, and there is none"
	assert_output --partial "kcryptd-253:1-1/cpumask: skipped: 'local' needs the owner's NUMA node: the devices under 253:1 sit on several NUMA nodes"
	assert_output --partial "iscsi_q_5/cpumask: skipped: 'local' needs the owner's NUMA node: a route lookup needs the live system"
	assert_equal "$(val scsi_tmf_2/cpumask)" 000000f0
	run wqp check --profile p -r -n -o SEVERITY,CODE,TARGET
	assert_equal "$status" 3
	assert_line "warning local-no-owner writeback/cpumask"
	assert_line "warning local-no-owner kcryptd-253:1-1/cpumask"
	run wqp verify --profile p -r -n -o TARGET,STATUS,CONDITION
	assert_equal "$status" 3
	assert_line "kcryptd-253:1-1/cpumask skipped local-no-owner"
	assert_line "scsi_tmf_2/cpumask ok ok"
}

@test "set cpumask=local on an owned workqueue; refused on one without an owner" {
	run wq set kcryptd-253:0-1 cpumask=local
	assert_success
	assert_equal "$(val kcryptd-253:0-1/cpumask)" 000000f0
	run wq set writeback cpumask=local
	assert_equal "$status" 2
	assert_output --partial "'local' needs an owner device"
}

@test "apply --udev for a dm block device applies to the kcryptd workqueues it owns" {
	printf '[workqueue kcryptd-*]\ncpumask = local\n' | prof p
	run env ACTION=change SUBSYSTEM=block DEVPATH=/devices/virtual/block/dm-0 \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	assert_equal "$(val kcryptd-253:0-1/cpumask)" 000000f0
	assert_equal "$(val kcryptd-253:0-2/cpumask)" 000000f0
	# dm-1's workqueue was not part of the event
	assert_equal "$(val kcryptd-253:1-1/cpumask)" ffffffff
}

@test "apply --udev for a SCSI host applies to its workqueues" {
	printf '[workqueue scsi_*]\nmax_active = 3\n' | prof p
	run env ACTION=add SUBSYSTEM=scsi_host DEVPATH=/devices/pci0000:00/0000:00:10.0/host2/scsi_host/host2 \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	assert_equal "$(val scsi_tmf_2/max_active)" 3
	assert_equal "$(val scsi_wq_2/max_active)" 3
}

@test "apply --udev: an owner event without workqueues, or a bad owner path" {
	printf '[workqueue *]\nnice = 1\n' | prof p
	run env ACTION=add SUBSYSTEM=block DEVPATH=/devices/pci0000:00/0000:00:10.0/host2/target2:0:0/2:0:0:0/block/sda \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	assert_equal "$(tree_sum)" "$BEFORE"
	run env ACTION=add SUBSYSTEM=scsi_host DEVPATH=/devices/platform/notahost \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_equal "$status" 2
	run env ACTION=add SUBSYSTEM=block DEVPATH=/class/block/dm-0 \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_equal "$status" 2
	assert_output --partial "is not below /devices"
	assert_equal "$(tree_sum)" "$BEFORE"
}

@test "dump carries owner devices and udev data: --sysroot DUMP resolves the same owners" {
	run wq dump "$BATS_TEST_TMPDIR/dump"
	assert_success
	a=$(wq show -o NAME,OWNER,OWNER_NODE)
	b=$("$WQCTL" --sysroot "$BATS_TEST_TMPDIR/dump" show -o NAME,OWNER,OWNER_NODE)
	assert_equal "$b" "$a"
	printf '[workqueue kcryptd-*]\nowner.DM_UUID = CRYPT-LUKS2-*\nnice = 1\n[workqueue iscsi_ctrl_*]\nowner.ID_PATH = ip-*\nnice = 2\n' | prof p
	run wqp verify --profile p
	a="$status $output"
	run "$WQCTL" --sysroot "$BATS_TEST_TMPDIR/dump" --profile-dir "$PD" verify --profile p
	assert_equal "$status $output" "$a"
	# the owner sections matched in both: drift on the owned workqueues, not absent
	assert_line --regexp '^kcryptd-253:0-1/nice +drift '
	assert_line --regexp '^iscsi_ctrl_5:1/nice +drift ' 
	[ -f "$BATS_TEST_TMPDIR/dump/run/udev/data/b253:0" ]
	[ -f "$BATS_TEST_TMPDIR/dump/sys/class/iscsi_connection/connection1:0/address" ] ||
		[ -f "$BATS_TEST_TMPDIR/dump/sys/devices/platform/host5/session1/connection1:0/iscsi_connection/connection1:0/address" ]
}

@test "device properties in a sysroot read as libudev reports them" {
	run wq device-props /sys/devices/virtual/block/dm-0
	assert_success
	# by hand, from what mkowners.sh writes and sd-device's rules: DEVNAME below /dev,
	# S: lines as /dev links joined by spaces, G:/Q: tags as :a:b:, I: as USEC_INITIALIZED
	expected='CURRENT_TAGS=:systemd:
DEVLINKS=/dev/mapper/luks-data /dev/disk/by-id/dm-name-luks-data
DEVNAME=/dev/dm-0
DEVPATH=/devices/virtual/block/dm-0
DEVTYPE=disk
DISKSEQ=20
DM_NAME=luks-data
DM_UUID=CRYPT-LUKS2-0f1e2d3c-luks-data
ID_FS_TYPE=ext4
MAJOR=253
MINOR=0
SUBSYSTEM=block
TAGS=:systemd:uaccess:
USEC_INITIALIZED=1234567'
	assert_equal "$(sort <<<"$output")" "$expected"
	# a SCSI host: no dev attribute, so the +SUBSYSTEM:NAME database id
	ln -s ../../../../../../class/scsi_host "$ROOT/sys/devices/pci0000:00/0000:00:10.0/host2/scsi_host/host2/subsystem"
	run wq device-props /sys/class/../devices/pci0000:00/0000:00:10.0/host2/scsi_host/host2
	assert_failure 2
	run wq device-props /devices/pci0000:00/0000:00:10.0/host2/scsi_host/host2
	assert_success
	assert_line "ID_PATH=pci-0000:00:10.0-ata-1"
	assert_line "SUBSYSTEM=scsi_host"
}

@test "device-props refuses what is not a device" {
	run wq device-props /sys/devices/virtual/workqueue/../../../etc
	assert_failure 2
	assert_output --partial "not a device path below /sys/devices"
	run wq device-props /etc/passwd
	assert_failure 2
	mkdir -p "$ROOT/sys/devices/virtual/plain"
	run wq device-props /devices/virtual/plain
	assert_failure 1
	assert_output --partial "no subsystem link"
}

@test "owner.* matches DEVNAME, DEVLINKS and TAGS from the sysroot database" {
	printf '[workqueue kcryptd-*]\nowner.DEVNAME = /dev/dm-0\nowner.DEVLINKS = */dev/mapper/luks-data*\nowner.TAGS = *:uaccess:*\nnice = 4\n' | prof p
	run wqp apply --profile p
	assert_success
	assert_equal "$(val kcryptd-253:0-1/nice)" 4
	assert_equal "$(val kcryptd-253:0-2/nice)" 4
	# dm-1 has no links or tags in its database file
	assert_equal "$(val kcryptd-253:1-1/nice)" 0
}

@test "dump carries the owner's uevent and subsystem link" {
	run wq dump "$BATS_TEST_TMPDIR/d"
	assert_success
	run "$WQCTL" --sysroot "$BATS_TEST_TMPDIR/d" device-props /devices/virtual/block/dm-0
	assert_success
	assert_line "DEVNAME=/dev/dm-0"
	assert_line "TAGS=:systemd:uaccess:"
	assert_line "DM_NAME=luks-data"
}

# --- wqctl owner: the device, its properties, how its node was found -------------
# (expected paths and nodes are mkowners.sh's: dm-0 over sda under PCI 0000:00:10.0,
# whose numa_node file holds 1; dm-1 over sdb (10.0) and sdc (11.0, node 2))
P10=/sys/devices/pci0000:00/0000:00:10.0
@test "owner: a dm-crypt workqueue, node found through slaves/ to the PCI device" {
	run wq owner kcryptd-253:0-2
	assert_success
	assert_line "owner:      block:253:0"
	assert_line "device:     /sys/devices/virtual/block/dm-0"
	assert_line "udev id:    b253:0"
	assert_line "node:       1 ('cpumask = local' is node 1's CPUs)"
	assert_line "found by:   /sys/dev/block/253:0 -> /sys/devices/virtual/block/dm-0"
	assert_line "            /sys/devices/virtual/block/dm-0/slaves/sda -> $P10/host2/target2:0:0/2:0:0:0/block/sda"
	assert_line "            $P10/host2/target2:0:0/2:0:0:0/block/sda: NUMA node 1 ($P10/numa_node)"
	assert_line "            DM_UUID=CRYPT-LUKS2-0f1e2d3c-luks-data"
	assert_line "            DEVLINKS=/dev/mapper/luks-data /dev/disk/by-id/dm-name-luks-data"
}

@test "owner: a device on two nodes says so and lists both" {
	run wq owner kcryptd-253:1-1
	assert_success
	assert_line "node:       - ('cpumask = local' is skipped: the devices under 253:1 sit on several NUMA nodes)"
	assert_line --partial "block/sdb: NUMA node 1 ($P10/numa_node)"
	assert_line --partial "block/sdc: NUMA node 2 (/sys/devices/pci0000:00/0000:00:11.0/numa_node)"
}

@test "owner: a SCSI host's node is its PCI parent's" {
	run wq owner scsi_tmf_2
	assert_success
	assert_line "owner:      scsi_host:host2"
	assert_line "            $P10/host2/scsi_host/host2: NUMA node 1 ($P10/numa_node)"
	assert_line "properties: DEVPATH=/devices/pci0000:00/0000:00:10.0/host2/scsi_host/host2"
}

@test "owner: an iSCSI host without a node goes to its connection's address; a sysroot has no routes" {
	run wq owner iscsi_q_5
	assert_success
	assert_line "            /sys/devices/platform/host5/scsi_host/host5: no numa_node from it up to /sys/devices"
	assert_line "            iSCSI session1, connection1:0 to 192.0.2.10"
	assert_line "node:       - ('cpumask = local' is skipped: a route lookup needs the live system, and this tree records none (wqctl-dump/iscsi-routes: made by wqctl dump on the machine itself))"
}

@test "iSCSI below a sysroot: the routes a dump recorded place 'local'; dump carries them; a malformed record is refused (issue 61)" {
	# what 'wqctl dump' records on the machine itself: 192.0.2.10 through eth1 on node 1
	mkdir -p "$ROOT/wqctl-dump"
	printf '192.0.2.10\t1\teth1 (/sys/devices/pci0000:40/0000:40:01.0/net/eth1: node 1)\t\n' >"$ROOT/wqctl-dump/iscsi-routes"
	run wq owner iscsi_q_5
	assert_success
	assert_line "            route to 192.0.2.10: eth1 (/sys/devices/pci0000:40/0000:40:01.0/net/eth1: node 1)"
	assert_line "node:       1 ('cpumask = local' is node 1's CPUs)"
	# the shipped profile now validates and places iscsi_q_5 on node 1: CPUs 4-7 (the lscpu oracle), mask f0
	run wq --profile-dir "$TOP/profiles" check --profile iscsi-nic-local -r -n -o SEVERITY,CODE,TARGET
	assert_success
	refute_output --partial error
	run wq --profile-dir "$TOP/profiles" apply --profile iscsi-nic-local
	assert_success
	assert_equal "$(val iscsi_q_5/cpumask)" 000000f0
	# a dump of this tree carries the record (as its own lookup found it)
	run wq dump "$BATS_TEST_TMPDIR/out"
	assert_success
	assert_equal "$(cat "$BATS_TEST_TMPDIR/out/wqctl-dump/iscsi-routes")" "$(printf '192.0.2.10\t1\teth1 (/sys/devices/pci0000:40/0000:40:01.0/net/eth1: node 1)\t')"
	# a record the lookup could not place says why; a malformed one is refused, naming the file
	printf '192.0.2.10\t-1\t\tno route to 192.0.2.10\n' >"$ROOT/wqctl-dump/iscsi-routes"
	run wq owner iscsi_q_5
	assert_line "node:       - ('cpumask = local' is skipped: no route to 192.0.2.10 (as recorded by wqctl dump))"
	printf '192.0.2.10\tnode1\tx\t\n' >"$ROOT/wqctl-dump/iscsi-routes"
	run wq owner iscsi_q_5
	assert_line "node:       - ('cpumask = local' is skipped: wqctl-dump/iscsi-routes: the line for 192.0.2.10 is malformed)"
}

@test "owner -J" {
	run wq owner -J kcryptd-253:0-1
	assert_success
	j=$(tr -d ' \n' <<<"$output")
	for kv in '"owner":"block:253:0"' '"present":true' '"device":"/sys/devices/virtual/block/dm-0"' \
		'"udev_id":"b253:0"' '"node":1' '"node_reason":null' '"DM_NAME":"luks-data"' \
		'"steps":["/sys/dev/block/253:0->/sys/devices/virtual/block/dm-0",'; do
		[[ $j == *"$kv"* ]] || fail "no $kv in $j"
	done
	run wq owner -J iscsi_ctrl_5:1
	j=$(tr -d '\n' <<<"$output")
	[[ $j == *'"node": null'* || $j == *'"node":null'* ]] || fail "node not null: $j"
	[[ $j == *'a route lookup needs the live system'* ]] || fail "no reason: $j"
}

@test "owner: no owner, a missing device, bad names" {
	run wq owner writeback
	assert_success
	assert_line --partial "owner:      none"
	rm "$ROOT/sys/dev/block/253:0"
	run wq owner kcryptd-253:0-1
	assert_success
	assert_line "device:     not present"
	assert_line "node:       - ('cpumask = local' is skipped: owner device 253:0 is not present)"
	run wq owner nosuch
	assert_failure 32
	assert_output "wqctl: nosuch: no such workqueue"
	run wq owner ../x
	assert_failure 2
	run wq owner
	assert_failure 2
	assert_output --partial "owner: need one WORKQUEUE"
}

@test "apply --udev for a SCSI target (an iSCSI login) applies to its host's workqueues" {
	printf '[workqueue scsi_*]\nmax_active = 3\n' | prof p
	run env ACTION=add SUBSYSTEM=scsi DEVPATH=/devices/pci0000:00/0000:00:10.0/host2/target2:0:0 \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	assert_equal "$(val scsi_tmf_2/max_active)" 3
	assert_equal "$(val scsi_wq_2/max_active)" 3
	# a LUN of that target (2:0:0:0) is not the login: nothing written
	printf '[workqueue scsi_*]\nmax_active = 4\n' | prof p
	run env ACTION=add SUBSYSTEM=scsi DEVPATH=/devices/pci0000:00/0000:00:10.0/host2/target2:0:0/2:0:0:0 \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	assert_output ""
	assert_equal "$(val scsi_tmf_2/max_active)" 3
}

@test "a workqueue's udev remove event drops its journal entries, and only its own" {
	printf '[workqueue kcryptd-*]\nnice = -3\n[workqueue writeback]\nnice = 4\n' | prof p
	run wqp apply --profile p
	assert_success
	j=$ROOT/run/wqctl/journal
	# two kcryptd-253:0-* (a table reload), one kcryptd-253:1-1 and writeback: 4 entries
	assert_equal "$(wc -l <"$j")" 4
	# the device goes: its workqueue directory first, then the event
	rm -rf "$(WQDIR)/kcryptd-253:0-1"
	run env ACTION=remove SUBSYSTEM=workqueue DEVPATH=/devices/virtual/workqueue/kcryptd-253:0-1 \
		"$WQCTL" --sysroot "$ROOT" -v apply --udev
	assert_success
	assert_output --partial "kcryptd-253:0-1: removed; 1 journal entries dropped"
	assert_equal "$(wc -l <"$j")" 3
	run grep -c 'kcryptd-253:0-1/' "$j"
	assert_output 0
	# the device's other instance (kcryptd-253:0-2, a table reload) keeps its entry
	assert_equal "$(grep -c 'kcryptd-253:0-2/' "$j")" 1
	# revert then restores everything that is left and trips over nothing: kcryptd-253:0-2,
	# kcryptd-253:1-1 (nice -3 back to the fixture's 0) and writeback (4 back to 0)
	run wq revert
	assert_success
	assert_line "kcryptd-253:0-2/nice: -3 -> 0"
	assert_line "kcryptd-253:1-1/nice: -3 -> 0"
	assert_line "writeback/nice: 4 -> 0"
	assert_equal "${#lines[@]}" 3
	assert_equal "$(val kcryptd-253:0-2/nice)" 0
	assert_equal "$(val writeback/nice)" 0
	[ ! -e "$j" ]
}

@test "a remove event for a workqueue wqctl never touched takes no lock and writes nothing" {
	run env ACTION=remove SUBSYSTEM=workqueue DEVPATH=/devices/virtual/workqueue/writeback \
		"$WQCTL" --sysroot "$ROOT" apply --udev
	assert_success
	assert_output ""
	[ ! -e "$ROOT/run/wqctl" ]
}

@test "show -J -o OWNER_NODE says why a node is null (owner_node_reason)" {
	run wq show -J -o NAME,OWNER_NODE kcryptd-253:0-1 kcryptd-253:1-1 writeback
	assert_success
	# dm-0 is on sda (node 1); dm-1 spans sdb (node 1) and sdc (node 2); writeback has no owner
	run bash -c "'$WQCTL' --sysroot '$ROOT' show -J -o NAME,OWNER_NODE kcryptd-253:0-1 kcryptd-253:1-1 writeback | tr -d ' \n'"
	assert_output '{"workqueues":[{"name":"kcryptd-253:0-1","owner_node":1,"owner_node_reason":null},{"name":"kcryptd-253:1-1","owner_node":null,"owner_node_reason":"thedevicesunder253:1sitonseveralNUMAnodes"},{"name":"writeback","owner_node":null,"owner_node_reason":"theworkqueuehasnoownerdevice"}]}'
	# the table shows the column only when asked
	run wq show -o NAME,OWNER_NODE writeback
	refute_output --partial REASON
}
