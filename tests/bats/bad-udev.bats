#!/usr/bin/env bats
# Bad-input catalogue: udev event environments (apply --udev runs from a udev
# rule as root). Each case: the exit status, the reason, and nothing written.
# Events that are not wqctl's (another action or subsystem, a name that is
# not a workqueue) exit 0 and write nothing either.
load helpers

setup() {
	use_tree vmware_fpe 6.18.0 owners
	PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD"
	# would change every workqueue it reaches
	printf '[workqueue *]\nnice = 2\nmax_active = 7\n' >"$PD/p.conf"
	BEFORE=$(tree_sum)
}

W=/devices/virtual/workqueue
LONG64=$(printf '%064d' 0 | tr 0 a)

# ev STATUS MESSAGE VAR=VALUE...: apply --udev in exactly that environment
ev() {
	local want=$1 msg=$2
	shift 2
	run env -i "$@" "$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	refute_output --partial "Sanitizer"
	assert_equal "$status" "$want"
	if [ -n "$msg" ]; then
		assert_output --partial "wqctl: udev event: "
		assert_output --partial "$msg"
	else
		assert_output ""
	fi
	assert_equal "$(tree_sum)" "$BEFORE"
}

# --- the three variables udev always sets --------------------------------------
@test "udev: no ACTION" { ev 2 "ACTION, DEVPATH and SUBSYSTEM must be set" SUBSYSTEM=workqueue DEVPATH=$W/writeback; }
@test "udev: no DEVPATH" { ev 2 "ACTION, DEVPATH and SUBSYSTEM must be set" ACTION=add SUBSYSTEM=workqueue; }
@test "udev: no SUBSYSTEM" { ev 2 "ACTION, DEVPATH and SUBSYSTEM must be set" ACTION=add DEVPATH=$W/writeback; }
@test "udev: an empty environment" { ev 2 "ACTION, DEVPATH and SUBSYSTEM must be set"; }

# --- overlong variables ------------------------------------------------------------
@test "udev: ACTION of 33 bytes" { ev 2 "overlong udev variable" "ACTION=$(printf '%033d' 0)" SUBSYSTEM=workqueue DEVPATH=$W/writeback; }
@test "udev: SUBSYSTEM of 65 bytes" { ev 2 "overlong udev variable" ACTION=add "SUBSYSTEM=$(printf '%065d' 0)" DEVPATH=$W/writeback; }
@test "udev: DEVPATH of 4097 bytes" { ev 2 "overlong udev variable" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/$(printf '%04070d' 0)"; }

# --- control characters in DEVPATH -------------------------------------------------
@test "udev: a tab in DEVPATH" { ev 2 "DEVPATH has control characters" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/$(printf 'write\tback')"; }
@test "udev: a newline in DEVPATH" { ev 2 "DEVPATH has control characters" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/$(printf 'writeback\nx')"; }
@test "udev: DEL in DEVPATH" { ev 2 "DEVPATH has control characters" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/$(printf 'writeback\177')"; }
@test "udev: an escape sequence in DEVPATH" { ev 2 "DEVPATH has control characters" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/$(printf '\033[2Jwriteback')"; }
@test "udev: a carriage return in DEVPATH" { ev 2 "DEVPATH has control characters" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/$(printf 'writeback\r')"; }

# --- DEVPATH that is not a canonical path ----------------------------------------
@test "udev: DEVPATH climbing out with .." { ev 2 "DEVPATH '$W/../../../etc' is not a canonical device path" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/../../../etc; }
@test "udev: DEVPATH ending in /.." { ev 2 "DEVPATH '$W/writeback/..' is not a canonical device path" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/writeback/..; }
@test "udev: DEVPATH with /./" { ev 2 "DEVPATH '$W/./writeback' is not a canonical device path" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/./writeback; }
@test "udev: DEVPATH with //" { ev 2 "DEVPATH '$W//writeback' is not a canonical device path" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W//writeback; }
@test "udev: relative DEVPATH" { ev 2 "DEVPATH 'writeback' is not a canonical device path" ACTION=add SUBSYSTEM=workqueue DEVPATH=writeback; }
@test "udev: empty DEVPATH" { ev 2 "DEVPATH '' is not a canonical device path" ACTION=add SUBSYSTEM=workqueue DEVPATH=; }
@test "udev: DEVPATH the directory itself with /." { ev 2 "DEVPATH '$W/.' is not a canonical device path" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/.; }
@test "udev: DEVPATH its parent with /.." { ev 2 "DEVPATH '$W/..' is not a canonical device path" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/..; }

# --- DEVPATH in the wrong place, or not naming one workqueue -----------------------
@test "udev: a workqueue event with a net DEVPATH" { ev 2 "DEVPATH '/devices/virtual/net/writeback' is outside /devices/virtual/workqueue" ACTION=add SUBSYSTEM=workqueue DEVPATH=/devices/virtual/net/writeback; }
@test "udev: DEVPATH with the /sys prefix" { ev 2 "DEVPATH '/sys$W/writeback' is outside /devices/virtual/workqueue" ACTION=add SUBSYSTEM=workqueue DEVPATH=/sys$W/writeback; }
@test "udev: DEVPATH of the directory" { ev 2 "DEVPATH '$W/' does not name a workqueue" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/; }
@test "udev: DEVPATH one level too deep" { ev 2 "DEVPATH '$W/a/b' does not name a workqueue" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/a/b; }
@test "udev: DEVPATH naming an attribute" { ev 2 "DEVPATH '$W/writeback/nice' does not name a workqueue" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/writeback/nice; }
@test "udev: a blank in the name" { ev 2 "DEVPATH '$W/write back' does not name a workqueue" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/write back"; }
@test "udev: a name of 64 bytes (the kernel's limit is 31)" { ev 2 "does not name a workqueue" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/$LONG64"; }
@test "udev: a name with a byte that is not printable" { ev 2 "does not name a workqueue" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/$(printf 'wb\377')"; }

# --- owner devices (block, scsi_host) -------------------------------------------------
@test "udev: a block event outside /devices" { ev 2 "DEVPATH '/sys/devices/virtual/block/dm-0' is not below /devices" ACTION=add SUBSYSTEM=block DEVPATH=/sys/devices/virtual/block/dm-0; }
@test "udev: a block event climbing out" { ev 2 "DEVPATH '/devices/virtual/block/dm-0/../../../../etc' is not a canonical device path" ACTION=add SUBSYSTEM=block DEVPATH=/devices/virtual/block/dm-0/../../../../etc; }
@test "udev: a scsi_host event under /class" { ev 2 "DEVPATH '/class/scsi_host/host2' is not below /devices" ACTION=add SUBSYSTEM=scsi_host DEVPATH=/class/scsi_host/host2; }
@test "udev: a block event for a device that is not there" { ev 0 "" ACTION=add SUBSYSTEM=block DEVPATH=/devices/virtual/block/nosuch; }

# --- not wqctl's events: exit 0, nothing written ----------------------------------------
@test "udev: ACTION remove" { ev 0 "" ACTION=remove SUBSYSTEM=workqueue DEVPATH=$W/writeback; }
@test "udev: ACTION bind" { ev 0 "" ACTION=bind SUBSYSTEM=workqueue DEVPATH=$W/writeback; }
@test "udev: ACTION in upper case" { ev 0 "" ACTION=ADD SUBSYSTEM=workqueue DEVPATH=$W/writeback; }
@test "udev: empty ACTION" { ev 0 "" ACTION= SUBSYSTEM=workqueue DEVPATH=$W/writeback; }
@test "udev: another subsystem" { ev 0 "" ACTION=add SUBSYSTEM=net DEVPATH=/devices/virtual/net/lo; }
@test "udev: SUBSYSTEM in another case" { ev 0 "" ACTION=add SUBSYSTEM=Workqueue DEVPATH=$W/writeback; }

# --- names in the directory that are not workqueues: exit 0, nothing written --------------
@test "udev: the global cpumask file as a name" { ev 0 "" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/cpumask; }
@test "udev: the power directory as a name" { ev 0 "" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/power; }
@test "udev: a glob as a name is not expanded" { ev 0 "" ACTION=add SUBSYSTEM=workqueue "DEVPATH=$W/write*"; }
@test "udev: a workqueue that vanished" { ev 0 "" ACTION=add SUBSYSTEM=workqueue DEVPATH=$W/gone; }

@test "udev: a SCSI host number beyond 32 bits is no other host (host4294967298 is not host2)" {
	# the tree these cases were written for: synth 2 nodes x 4 CPUs on 6.18
	use_tree synth:2:4:1:2 6.18
	local W=$ROOT/sys/devices/virtual/workqueue EXP=$ROOT/var/lib/wqctl/experiments PD=$BATS_TEST_TMPDIR/profiles
	mkdir -p "$PD" "$EXP"
	"$TOP/tests/fixtures/mkowners.sh" "$ROOT"
	printf '[workqueue scsi_tmf_*]\nnice = 2\n' >"$PD/p.conf"
	local pci0=devices/pci0000:00/0000:00:10.0 h=host4294967298
	mkdir -p "$ROOT/sys/$pci0/$h/scsi_host/$h"
	BEFORE=$(tree_sum)
	run env -i ACTION=add SUBSYSTEM=scsi_host "DEVPATH=/$pci0/$h/scsi_host/$h" \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	sane
	assert_failure 2
	assert_output --partial "does not name a scsi_host device"
	assert_equal "$(tree_sum)" "$BEFORE"
	# host2 itself is still its own
	run env -i ACTION=add SUBSYSTEM=scsi_host "DEVPATH=/$pci0/host2/scsi_host/host2" \
		"$WQCTL" --sysroot "$ROOT" --profile-dir "$PD" apply --udev --profile p
	assert_success
	[ "$(cat "$W/scsi_tmf_2/nice")" = 2 ]
}

# the case above from the second audit also checks for sanitizer reports
sane() {
	refute_output --partial "Sanitizer"
	[ "$status" -lt 124 ]
}
