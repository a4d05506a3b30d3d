#!/usr/bin/env bats
# Live tier: a real systemd-udevd runs the shipped rule (RUN pointed at this
# build and a test profile); an add event for writeback applies the profile.
# udevd is stopped by its pid and every value is restored, even on failure.
# shellcheck source=../assert.bash
source "$BATS_TEST_DIRNAME/../assert.bash"

WQ=/sys/devices/virtual/workqueue
RULE=/run/udev/rules.d/60-wqctl-test.rules

setup_file() {
	UDEVD=$(command -v systemd-udevd || echo /lib/systemd/systemd-udevd)
	[ -x "$UDEVD" ] || skip "systemd-udevd is not installed (make deps installs udev)"
	[ -w "$WQ/writeback/max_active" ] || skip "not root"
	if pgrep -x systemd-udevd >/dev/null; then skip "a udevd is already running"; fi
	export SAVED_MAX=$(cat $WQ/writeback/max_active) SAVED_NICE=$(cat $WQ/writeback/nice)
	[ -d /run/udev ] && export HAD_RUN_UDEV=1
	export PD=$BATS_FILE_TMPDIR/profiles
	mkdir -p "$PD" /run/udev/rules.d
	printf '[workqueue writeback]\nmax_active = 40\nnice = 2\n' >"$PD/live-udev.conf"
	sed "s|@SBINDIR@/wqctl apply --udev --syslog|$WQCTL --profile-dir $PD apply --udev --syslog --profile live-udev|" \
		"$TOP/udev/60-wqctl.rules" >"$RULE"
	"$UDEVD" >"$BATS_FILE_TMPDIR/udevd.log" 2>&1 &
	echo $! >"$BATS_FILE_TMPDIR/udevd.pid"
	for _ in $(seq 100); do udevadm control --ping 2>/dev/null && return 0; sleep 0.1; done
	echo "udevd did not start" >&2
	return 1
}

teardown_file() {
	[ -f "$BATS_FILE_TMPDIR/loopdev" ] && losetup -d "$(cat "$BATS_FILE_TMPDIR/loopdev")" 2>/dev/null
	[ -f "$BATS_FILE_TMPDIR/udevd.pid" ] && kill "$(cat "$BATS_FILE_TMPDIR/udevd.pid")" 2>/dev/null
	for _ in $(seq 50); do pgrep -x systemd-udevd >/dev/null || break; sleep 0.1; done
	rm -f "$RULE"
	[ -n "${SAVED_MAX:-}" ] && echo "$SAVED_MAX" >$WQ/writeback/max_active
	[ -n "${SAVED_NICE:-}" ] && echo "$SAVED_NICE" >$WQ/writeback/nice
	rm -f /run/wqctl/journal
	[ -n "${HAD_RUN_UDEV:-}" ] || rm -rf /run/udev
}

@test "udev: an add event for writeback applies the profile through the rule" {
	udevadm trigger --action=add "$WQ/writeback"
	udevadm settle -t 20
	assert_equal "$(cat $WQ/writeback/max_active)" 40
	assert_equal "$(cat $WQ/writeback/nice)" 2
}

@test "udev: revert brings the kernel's values back" {
	run "$WQCTL" revert
	assert_success
	assert_equal "$(cat $WQ/writeback/max_active)" "$SAVED_MAX"
	assert_equal "$(cat $WQ/writeback/nice)" "$SAVED_NICE"
}

@test "udev: a change event for a non-owner block device leaves everything alone" {
	before=$(cat $WQ/writeback/max_active)
	for d in /sys/block/*; do
		udevadm trigger --action=change "$d"
		break
	done
	udevadm settle -t 20
	assert_equal "$(cat $WQ/writeback/max_active)" "$before"
}

# Sort lines, and the words of the list-valued properties (their order is a hash order in sd-device).
norm() {
	local line k v
	while IFS= read -r line; do
		k=${line%%=*} v=${line#*=}
		case $k in
		DEVLINKS) v=$(tr ' ' '\n' <<<"$v" | sort | paste -sd' ') ;;
		TAGS | CURRENT_TAGS) [[ $v == :*: ]] && v=:$(tr ':' '\n' <<<"${v:1:-1}" | sort | paste -sd:): ;;
		esac
		printf '%s=%s\n' "$k" "$v"
	done | sort
}

@test "udev: libudev and the database files give the same properties for a real device" {
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 is not installed"
	img=$BATS_TEST_TMPDIR/img
	truncate -s 16M "$img"
	mkfs.ext4 -q -F "$img"
	dev=$(losetup -f --show "$img")
	echo "$dev" >"$BATS_FILE_TMPDIR/loopdev"
	udevadm settle -t 20
	sys=/sys/devices/virtual/block/$(basename "$dev")
	run "$WQCTL" device-props "$sys"
	assert_success
	live=$output
	# the same device as a sysroot sees it: its uevent, dev, subsystem link and database file
	root=$BATS_TEST_TMPDIR/root
	mkdir -p "$root$sys" "$root/run/udev/data"
	cp "$sys/uevent" "$sys/dev" "$root$sys/"
	cp -P "$sys/subsystem" "$root$sys/"
	cp "/run/udev/data/b$(cat "$sys/dev")" "$root/run/udev/data/"
	run "$WQCTL" --sysroot "$root" device-props "$sys"
	assert_success
	files=$output
	losetup -d "$dev" && rm -f "$BATS_FILE_TMPDIR/loopdev"
	# facts known without wqctl: the name losetup gave, the filesystem made, its UUID (blkid)
	uuid=$(blkid -o value -s UUID "$img")
	for out in "$live" "$files"; do
		grep -qx "DEVNAME=$dev" <<<"$out"
		grep -qx "ID_FS_TYPE=ext4" <<<"$out"
		grep -qx "ID_FS_UUID=$uuid" <<<"$out"
		grep -qx "SUBSYSTEM=block" <<<"$out"
	done
	norm <<<"$live" | grep -qx "DEVNAME=$dev"
	assert_equal "$(norm <<<"$files")" "$(norm <<<"$live")"
}
