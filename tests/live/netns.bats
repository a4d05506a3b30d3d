#!/usr/bin/env bats
# Live tier: iSCSI owner locality through netlink (libnl) in a network
# namespace of our own: veth pairs, a bridge and a VLAN on them, and a
# route. Virtual devices report no NUMA node, so the documented fallback
# applies.
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"


setup_file() {
	command -v ip >/dev/null || skip "iproute2 missing"
	export NS=wqctl-test-$$
	ip netns add "$NS" || skip "cannot create a network namespace"
	ip netns exec "$NS" ip link set lo up
	ip netns exec "$NS" ip link add vA type veth peer name vB
	ip netns exec "$NS" ip addr add 10.200.0.1/24 dev vA
	ip netns exec "$NS" ip link set vA up
	ip netns exec "$NS" ip link set vB up
	ip netns exec "$NS" ip route add 10.210.0.0/16 via 10.200.0.2 dev vA
	# a bridge over one end of a second veth pair: the walk goes down to the enslaved port
	if ip netns exec "$NS" ip link add br0 type bridge 2>/dev/null; then
		ip netns exec "$NS" ip link add vC type veth peer name vD
		ip netns exec "$NS" ip link set vC master br0
		ip netns exec "$NS" ip addr add 10.202.0.1/24 dev br0
		for l in vC vD br0; do ip netns exec "$NS" ip link set "$l" up; done
		export HAVE_BRIDGE=1
	fi
	if ip netns exec "$NS" ip link add link vA name vA.100 type vlan id 100 2>/dev/null; then
		ip netns exec "$NS" ip addr add 10.201.0.1/24 dev vA.100
		ip netns exec "$NS" ip link set vA.100 up
		export HAVE_VLAN=1
	fi
}

teardown_file() {
	ip netns del "$NS" 2>/dev/null || true
}

@test "netns: a routed peer resolves to the veth that carries it; no NUMA node -> fallback" {
	run ip netns exec "$NS" "$WQCTL" net-node 10.210.3.4
	assert_success
	assert_line "path:    vA(virtual)"
	assert_line "node:    -1"
	assert_output --partial "fallback: no 'local' CPUs; the setting is skipped"
}

@test "netns: a VLAN is followed down to its parent link" {
	[ -n "${HAVE_VLAN:-}" ] || skip "no 8021q support in this kernel"
	run ip netns exec "$NS" "$WQCTL" net-node 10.201.0.9
	assert_success
	assert_line "path:    vA.100(vlan)-> vA(virtual)"
}

@test "netns: a bridge is followed down to its enslaved port" {
	[ -n "${HAVE_BRIDGE:-}" ] || skip "no bridge support in this kernel"
	run ip netns exec "$NS" "$WQCTL" net-node 10.202.0.7
	assert_success
	assert_line "path:    br0(bridge)-> vC(virtual)"
	assert_line "node:    -1"
}

@test "netns: no route is said plainly" {
	run ip netns exec "$NS" "$WQCTL" net-node 203.0.113.9
	assert_success
	assert_output --partial "why:     no route to 203.0.113.9"
}

@test "netns: the host's uplink is resolved outside the namespace too" {
	dev=$(ip route get 192.0.2.1 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p')
	[ -n "$dev" ] || skip "no route to the test address on this host"
	run "$WQCTL" net-node 192.0.2.1
	assert_success
	assert_output --partial "path:    $dev("
	# a physical NIC: /sys/class/net/DEV is itself a link, and DEV/device is relative to where it
	# really lives; the node comes from the first numa_node above the device, found here by the shell
	[ -e "/sys/class/net/$dev/device" ] || skip "$dev has no device (virtual)"
	d=$(readlink -f "/sys/class/net/$dev/device")
	while [ "$d" != /sys/devices ] && [ ! -e "$d/numa_node" ]; do d=${d%/*}; done
	[ -e "$d/numa_node" ] || skip "no numa_node above $dev's device"
	assert_output --partial "path:    $dev(node $(cat "$d/numa_node") from $d/numa_node)"
}
