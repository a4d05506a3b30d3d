#!/bin/bash
# The end-to-end tier (issue 12): the installed .deb in a Debian guest
# booted with systemd as PID 1, on Debian's 6.12 and 6.1 kernels, 4 nodes x
# 4 CPUs under TCG, with a disk behind a PCI expander bridge on node 2, one
# on node 0, and a NIC on node 1 wired by a QEMU hub to a second NIC that
# the guest puts in a network namespace for an LIO iSCSI target. In the
# guest (guest.sh): the boot unit, dm-crypt hot-plug, iSCSI login/logout,
# a storm of 200 dm-crypt devices, every shipped profile, metrics through
# node_exporter, the Ansible role from the README's site.yml. No step is done
# by hand and no event is synthetic: udev runs the installed rule. Expected
# CPU masks come from the layout QEMU is given, not from wqctl. Prints TAP.
#   tests/vm/e2e/run.sh DEB
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
deb=${1:?usage: run.sh DEB}
cache=${VM_CACHE:-$top/build/vm}/e2e
mkdir -p "$cache"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
is() { # description got want [detail...]
	local d=$1 got=$2 want=$3
	shift 3
	if [ "$got" = "$want" ]; then ok "$d"; else notok "$d" "want: $want" "got:  $got" "$@"; fi
}
# shellcheck source=/dev/null
source <(sed -n '/^declare -A SMP/,/^}$/p' "$here/../run.sh")

if ! kernels=$(VM_KERNELS="${E2E_KERNELS:-C A}" "$here/../kernels.sh" "${VM_CACHE:-$top/build/vm}/kernels" 2>"$cache/kernels.err"); then
	notok "fetch Debian's kernels" "$(tail -3 "$cache/kernels.err")"
	exit 1
fi
declare -A KDIR
pairs=()
while read -r era krel kdir; do
	case " ${E2E_KERNELS:-C A} " in *" $era "*) ;; *) continue ;; esac
	[ -f "$kdir/lib/modules/$krel/modules.dep" ] || depmod -b "$kdir" "$krel"
	KDIR[$krel]=$kdir
	pairs+=("$krel:$kdir")
done <<<"$kernels"

start=$(date +%s)
# the collection as a user gets it: the tarball ansible-galaxy builds
rm -f "$cache"/wqctl-wqctl-*.tar.gz
if ! (cd "$top/ansible" && ansible-galaxy collection build --force --output-path "$cache") >"$cache/galaxy.err" 2>&1; then
	notok "ansible-galaxy collection build" "$(tail -3 "$cache/galaxy.err")"
	exit 1
fi
coll=$(ls "$cache"/wqctl-wqctl-*.tar.gz)
if img=$("$here/image.sh" "$deb" "$coll" "$cache" "${pairs[@]}" 2>"$cache/image.err"); then
	ok "root image: mmdebstrap bookworm + the .deb + modules of ${!KDIR[*]} ($(($(date +%s) - start)) s, cached as $(basename "$img"))"
else
	notok "root image" "$(tail -5 "$cache/image.err")"
	exit 1
fi

# the even layout: node N holds CPUs 4N..4N+3; its kernel mask (%*pb of 16 CPUs)
nodemask() { printf '%04x' $((0xf << (4 * $1))); }

# shellcheck disable=SC2034
judge() { # krel log
	local krel=$1 log=$2 tag="${1%%-*}" six12=0 line rows bad
	line() { sed -n "s/^@@$1 //p" "$log" | head -1; }
	lines() { sed -n "s/^@@$1 //p" "$log"; }
	[[ $krel == 6.12* ]] && six12=1

	# 1. boot
	[ "$(line STATE)" = running ] && ok "$tag: boot finished, no failed unit (system state running)" ||
		notok "$tag: boot finished, no failed unit (system state running)" "$(line STATE)" "failed: $(line FAILED)"
	is "$tag: the active profile set in the image: e2e-boot" "$(line ACTIVE | awk '{ print $NF }')" e2e-boot
	is "$tag: wqctl verify after boot exits 0" "$(line VERIFY)" rc=0 "$(lines VERIFY-OUT | head -8)"
	unit=$(line UNIT)
	for want in ActiveState=active Result=success ExecMainStatus=0 NRestarts=0; do
		[[ " $unit " == *" $want "* ]] && ok "$tag: wqctl.service $want" || notok "$tag: wqctl.service $want" "$unit"
	done
	is "$tag: wqctl.service ran once this boot" "$(line UNIT-RUNS)" 1
	# (6.1 has no affinity scopes: default_affinity_scope is unsupported there)
	bad=$(lines VERIFY-OUT | awk -v c=$six12 'NR > 1 && $2 != "ok" && !(c == 0 && $1 == "default_affinity_scope" && $2 == "unsupported")')
	is "$tag: every boot setting verifies ok" "$bad" ""
	# e2e-boot.conf: writeback max_active and nice, and (from 6.6) default_affinity_scope
	if [ $six12 = 1 ]; then
		is "$tag: the journal holds wqctl's summary line" "$(line JOURNAL)" \
			"boot: profiles e2e-boot: 3 settings, 3 written, 0 already set"
	else
		is "$tag: the journal holds wqctl's summary line" "$(line JOURNAL)" \
			"boot: profiles e2e-boot: 2 settings, 2 written, 0 already set"
	fi
	blame=$(line BLAME)
	[ -n "$blame" ] && ok "$tag: systemd-analyze blame: $blame" || notok "$tag: systemd-analyze blame lists wqctl.service"

	# 2. dm-crypt hot-plug: kcryptd-* is in sysfs from 6.10
	is "$tag: the disk behind the node-2 expander reports node 2" "$(line 'DISK c2' | awk '{ print $2 }')" numa_node=2
	is "$tag: the disk behind the node-0 expander reports node 0" "$(line 'DISK c0' | awk '{ print $2 }')" numa_node=0
	if [ $six12 = 1 ]; then
		for m in c2:2 c0:0; do
			c=$(line "CRYPT ${m%:*}")
			is "$tag: cryptsetup open ${m%:*} (LUKS2 on node ${m#*:}): udev gave its kcryptd node ${m#*:}'s CPUs and max_active 12" \
				"$(awk '{ print $3, $4 }' <<<"$c")" "cpumask=$(nodemask "${m#*:}") max_active=12" "$c" "$(lines LUKS-ERR)" \
				"$(lines HOOK-open | head -5)"
			[[ $c == *uuid=CRYPT-LUKS2-* ]] && ok "$tag: ${m%:*}'s owner DM_UUID is CRYPT-LUKS2-*" ||
				notok "$tag: ${m%:*}'s owner DM_UUID is CRYPT-LUKS2-*" "$c"
		done
		is "$tag: closing both LUKS devices removes their workqueues" "$(line CLOSED)" left=0
		is "$tag: ... and their journal entries (udev remove events)" "$(line JOURNAL-KCRYPTD)" 0
	else
		is "$tag: dm-crypt's workqueues are not in sysfs before 6.10" "$(line 'CRYPT c2' | awk '{ print $2 }')" none
	fi

	# 3. iSCSI over the node-1 NIC
	is "$tag: the initiator NIC behind the node-1 expander reports node 1" \
		"$(line NIC | sed -n 's/.*initiator=[^ ]* numa_node=\([^ ]*\) .*/\1/p')" 1 "$(line NIC)"
	for r in 1 2; do
		c=$(line "ISCSI $r")
		is "$tag: iSCSI login $r: udev gave iscsi_q_N node 1's CPUs" "$(awk '{ print $3 }' <<<"$c")" \
			"cpumask=$(nodemask 1)" "$c" "$(line ISCSI-SETUP)" "$(lines ISCSI-ERR)" "$(lines "HOOK-iscsi-$r" | head -5)"
		o=$(lines "OWNER-$r")
		chain=$(grep -c -e 'iSCSI session[0-9]*, connection[0-9:]* to 192.0.2.10' -e 'route to 192.0.2.10: .*(node 1 from /sys/devices/.*/numa_node)' -e '^node: *1 ' <<<"$o")
		is "$tag: login $r: wqctl owner shows session -> address -> route -> NIC -> node 1" "$chain" 3 "$o"
		is "$tag: logout $r: iscsi_q_N gone, no journal entry left" \
			"$(line "ISCSI-OUT $r" | awk '{ print $2, $3 }')" "gone=yes journal=0" "$(line "ISCSI-OUT $r")"
	done
	# a dump made during login 1, read in the guest as another machine would read it
	# (--sysroot): its route record names the portal and node 1, which the live lookup found
	d=$(line ISCSI-DUMP)
	is "$tag: dump during the session records the route to the portal on node 1" \
		"$(awk '{ print $1 }' <<<"$d") $(awk '{ print $2 }' <<<"$d" | cut -d'|' -f1,2)" "rc=0 192.0.2.10|1" "$d"
	is "$tag: ... and --sysroot of the dump places 'local' on node 1 from it" \
		"$(lines DUMP-OWNER | awk '{ print $1 }')" 1 "$(lines DUMP-OWNER)"
	is "$tag: ... the shipped iscsi-nic-local profile checks on the dump without an error" \
		"$(line ISCSI-DUMP-CHECK | awk '{ print $1, $2 }')" "rc=0 errors=0" "$(line ISCSI-DUMP-CHECK)"
	# the dump's iscsi_q_N holds node 1's CPUs (the rule wrote them): verify resolves 'local' to the same
	v=$(line ISCSI-DUMP-VERIFY)
	is "$tag: ... and verifies: 'local' from the record is the mask the rule wrote live" \
		"$(awk '{ print $1 }' <<<"$v") $(grep -o 'iscsi_q_[0-9]*/cpumask [a-z]*' <<<"$v" | awk '{ print $2 }')" "rc=0 ok" "$v"
	s1=$(line 'ISCSI 1' | awk '{ print $5 }') s2=$(line 'ISCSI 2' | awk '{ print $5 }')
	[[ $s1 == session* ]] && [[ $s2 == session* ]] && [ "$s1" != "$s2" ] &&
		ok "$tag: re-login is a new session ($s1 on $(line 'ISCSI 1' | awk '{ print $1 }'), then $s2 on $(line 'ISCSI 2' | awk '{ print $1 }')), tuned again by the rule" ||
		notok "$tag: re-login is a new session, tuned again by the rule" "$s1 / $s2"

	# 4. the storm
	if [ $six12 = 1 ]; then
		s=$(line STORM)
		is "$tag: storm: 200 dm-crypt devices created in one go" "$(awk '{ print $1 }' <<<"$s")" created=200 "$s" "$(line STORM-ERR)"
		is "$tag: storm: every kcryptd-* ends up with max_active 10 on node 0" "$(line STORM-VALUES)" \
			"10/$(nodemask 0)=200" "$(line STORM-HOOK-LINES)"
		hook=$(line STORM-HOOK)
		runs=$(sed -n 's/.*runs=\([0-9]*\).*/\1/p' <<<"$hook")
		# one run per workqueue add (kcryptd, kcryptd_io) and per dm add/change event
		[ "${runs:-0}" -ge 600 ] && [[ $hook == *unmatched=0* ]] && [ "$(line STORM-TRACE)" = overrun=0 ] &&
			ok "$tag: storm: the hook's time from a sched_process_exec/exit trace: $hook, wall $(awk '{ print $2 }' <<<"$s")" ||
			notok "$tag: storm: the hook's runs traced (>= 600, every exec matched, no overrun)" "$hook" "$(line STORM-TRACE)"
		is "$tag: storm: removing them leaves no workqueue and no journal entry" "$(line STORM-REMOVED)" "left=0 kcryptd=0 journal=0"
		echo "# storm on $krel: $(line STORM) $hook" >>"$cache/storm.txt"
	fi

	# 5. revert
	# nothing restored was left alone or missing; the set stays active, and revert says so
	r=$(line REVERT)
	is "$tag: revert after all of it exits 0, trips over nothing, says the set stays active" "$r" \
		"rc=0 wqctl: revert: the active profiles (e2e-boot e2e-dev) stay active: boot and hot-plug apply them again; 'wqctl profile off' turns them off "
	# each value written back on a line of its own, writeback's among them (the boot profile set it)
	r=$(line REVERT-LINES)
	[[ $r =~ ^restored=([0-9]+)\ other=0\ writeback=([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[2]}" -gt 0 ] &&
		ok "$tag: revert prints each value it wrote back, OBJECT: NOW -> ORIGINAL ($r)" ||
		notok "$tag: revert prints each value it wrote back, OBJECT: NOW -> ORIGINAL" "$r"
	is "$tag: profile off empties the active set" "$(line PROFILE-OFF)" "rc=0 active=0 "
	is "$tag: ... writeback is back at its boot values" "$(line AFTER-REVERT | awk '{ print $4, $5, $6 }')" \
		"max_active=256 nice=0 journal=none" "$(line AFTER-REVERT)"

	# 6. every shipped profile: apply and verify exit 0; rows ok, or unsupported with the profile's reason
	profiles=$(lines PROFILE | awk '{ print $1 }' | tr '\n' ' ')
	is "$tag: every shipped profile was tried" "$profiles" "cpu-partitioning iscsi-nic-local legacy-numa numa-local storage-sane-limits "
	while read -r p a v _; do
		[ -n "$p" ] || continue
		rows=$(lines "PROFILE-ROW $p")
		# a row is ok, or unsupported with a reason; never absent, drift or invalid
		bad=$(grep -v 'STATUS="ok"' <<<"$rows" | grep -v 'STATUS="unsupported" .*REASON="[^"-]' || true)
		ok_rows=$(grep -c 'STATUS="ok"' <<<"$rows")
		off=$(grep -c "REASON=\"profile $p is for kernels" <<<"$rows")
		is "$tag: profile $p: apply and verify exit 0, every row ok or unsupported with its reason ($ok_rows ok, $off outside the profile's kernels)" \
			"$a $v $bad" "apply=0 verify=0 " "$rows"
		case $p:$six12 in
		numa-local:0 | legacy-numa:0 | storage-sane-limits:0)
			[ "$ok_rows" = 0 ] && [ "$off" -gt 0 ] && ok "$tag: profile $p says it is not for this kernel" ||
				notok "$tag: profile $p says it is not for this kernel" "$rows" ;;
		*) [ "$ok_rows" -gt 0 ] && ok "$tag: profile $p applies here ($ok_rows settings ok)" ||
			notok "$tag: profile $p applies here" "$rows" ;;
		esac
	done < <(lines PROFILE)

	# 7. metrics through node_exporter, set up as the README says: the timer's
	# service wrote the textfile, the exporter serves it with writeback's values
	# as sysfs has them at the end of the run
	is "$tag: systemctl enable --now wqctl-metrics.timer" "$(line TIMER | awk '{ print $1 }')" rc=0 "$(line TIMER)"
	m=$(line METRICS-UNIT)
	[[ " $m " == *" Result=success "* && " $m " == *" ExecMainStatus=0 "* ]] &&
		ok "$tag: the timer ran wqctl-metrics.service: success (${m##* })" || notok "$tag: the timer ran wqctl-metrics.service: success" "$m"
	is "$tag: prometheus-node-exporter is active" "$(line NODE-EXPORTER)" active
	sys=$(line SYSFS)
	is "$tag: the scrape serves writeback's max_active from sysfs" \
		"$(line 'SCRAPE-LINE wqctl_workqueue_max_active{workqueue="writeback"}')" "$(sed -n 's/.*max_active=\([0-9-]*\).*/\1/p' <<<"$sys")" "$sys"
	is "$tag: ... and its nice" "$(line 'SCRAPE-LINE wqctl_workqueue_nice{workqueue="writeback"}')" \
		"$(sed -n 's/.*nice=\([0-9-]*\).*/\1/p' <<<"$sys")"
	is "$tag: node_exporter read the textfile without an error" "$(line 'SCRAPE-LINE node_textfile_scrape_error')" 0

	# 8. the role wqctl.wqctl.wqctl, by the README's site.yml on the guest with
	# wqctl removed (its configuration stays, as apt-get remove leaves it).
	# Expected by hand from roles/wqctl/tasks/main.yml: the directory task makes
	# the host's cache, the copy task puts the .deb (here a file of the same
	# machine, the controller) there and the .deb task installs it, the name and RPM tasks are skipped, the boot unit is already enabled
	# (the package's postinst enables it again, as it was before the removal),
	# the timer (disabled before the removal) is enabled and started.
	is "$tag: apt-get remove wqctl before the role" "$(line ROLE-REMOVED)" "rc=0 deinstall ok config-files wqctl=none"
	is "$tag: ansible-galaxy collection install from the tarball" "$(line GALAXY | awk '{ print $1 }')" rc=0 "$(line GALAXY)"
	r1=$(line 'ROLE-RUN 1') r2=$(line 'ROLE-RUN 2')
	is "$tag: the role's first run: 5 changed, 2 skipped, nothing failed ($(awk '{ print $2 }' <<<"$r1"))" \
		"$(cut -d' ' -f1,3- <<<"$r1")" "rc=0 ok=7 changed=5 unreachable=0 failed=0 skipped=2 rescued=0 ignored=0 " \
		"$(lines ROLE-ERR-1)"
	# (a task with a loop, the profile set, says 'changed' once for each item that changed: once here)
	is "$tag: ... changed: the cache directory, the .deb copied and installed, the metrics timer and the profile set" \
		"$(lines ROLE-TASK-1 | awk '$1 == "changed"' | cut -d' ' -f2- | uniq | tr '\n' '|')" \
		"wqctl.wqctl.wqctl : Make the host's directory for the package file|wqctl.wqctl.wqctl : Copy the package file to the host|wqctl.wqctl.wqctl : Install wqctl from a package file|wqctl.wqctl.wqctl : Write metrics for node_exporter every minute|wqctl.wqctl.wqctl : Install, activate and apply the profiles|" \
		"$(lines ROLE-TASK-1)"
	is "$tag: the role's second run changes nothing ($(awk '{ print $2 }' <<<"$r2"))" \
		"$(cut -d' ' -f1,3- <<<"$r2")" "rc=0 ok=7 changed=0 unreachable=0 failed=0 skipped=2 rescued=0 ignored=0 " \
		"$(lines ROLE-TASK-2)" "$(lines ROLE-ERR-2)"
	# the fleet's profile set (site.yml): both active; on this 6.x kernel fleet-7x is outside its
	# kernels and fleet-storage's cache_shard section is when-false, so verify lists writeback only
	# for fleet-storage, fleet-7x's knob as profile-kernels, and passes (wqctl.profile(5) CONDITIONS)
	is "$tag: the role made fleet-storage and fleet-7x active" "$(line ROLE-PROFILES | grep -o 'fleet-storage fleet-7x')" \
		"fleet-storage fleet-7x" "$(line ROLE-PROFILES)"
	is "$tag: verify of the profile set passes on $tag" "$(line ROLE-VERIFY)" "rc=0" "$(lines ROLE-VERIFY-OUT)"
	is "$tag: ... writeback ok, the 7.x knob left out (profile-kernels), the when-false section not listed" \
		"$(lines ROLE-VERIFY-OUT | tr -s ' ' | sort | tr '\n' '|')" \
		"default_affinity_scope unsupported profile-kernels|writeback/max_active ok ok|"
	is "$tag: afterwards: wqctl installed, the boot unit enabled, the timer enabled and active" \
		"$(line ROLE-STATE | cut -d' ' -f1-5)" "install ok installed boot=enabled timer=enabled/active" "$(line ROLE-STATE)"
}

for krel in $(echo "${!KDIR[@]}" | tr ' ' '\n' | sort -rV); do
	kdir=${KDIR[$krel]} tag=${krel%%-*}
	"$here/initramfs.sh" "$krel" "$kdir" "$cache/initrd-$krel.cpio.gz" || { notok "$tag: initramfs"; continue; }
	# fresh, sparse disks for the guest to format
	rm -f "$cache"/disk-n*.img
	truncate -s 64M "$cache/disk-n2.img"
	truncate -s 256M "$cache/disk-n0.img"
	log=$cache/boot-$krel.log
	start=$(date +%s)
	# -snapshot on the root: the boot's writes go to a temporary overlay, the cached image stays as built
	# shellcheck disable=SC2046
	timeout 1500 qemu-system-x86_64 -machine q35 -accel tcg,thread=single -cpu max -m 2G -smp "${SMP[even]}" \
		$(numa_args even | sed 's/size=256M/size=512M/g') \
		-kernel "$kdir/boot/vmlinuz-$krel" -initrd "$cache/initrd-$krel.cpio.gz" \
		-append "console=ttyS0 panic=-1 loglevel=4 systemd.show_status=0" \
		-drive "file=$img,format=raw,if=none,id=root,snapshot=on" -device virtio-blk-pci,drive=root,bus=pcie.0,serial=e2e-root \
		-device pxb-pcie,id=pxb0,bus_nr=32,numa_node=0,bus=pcie.0 \
		-device pcie-root-port,id=rp0,bus=pxb0,chassis=20,slot=0 \
		-drive "file=$cache/disk-n0.img,format=raw,if=none,id=dn0" \
		-device virtio-blk-pci,drive=dn0,bus=rp0,serial=crypt-node0 \
		-device pxb-pcie,id=pxb2,bus_nr=64,numa_node=2,bus=pcie.0 \
		-device pcie-root-port,id=rp2,bus=pxb2,chassis=22,slot=0 \
		-drive "file=$cache/disk-n2.img,format=raw,if=none,id=dn2" \
		-device virtio-blk-pci,drive=dn2,bus=rp2,serial=crypt-node2 \
		-device pxb-pcie,id=pxb1,bus_nr=96,numa_node=1,bus=pcie.0 \
		-device pcie-root-port,id=rp1,bus=pxb1,chassis=21,slot=0 \
		-netdev hubport,id=hp1,hubid=0 -device virtio-net-pci,netdev=hp1,bus=rp1,mac=52:54:00:12:01:01 \
		-netdev hubport,id=hp2,hubid=0 -device virtio-net-pci,netdev=hp2,bus=pcie.0,mac=52:54:00:12:02:02 \
		-display none -serial "file:$log" -monitor none -no-reboot </dev/null >"$log.qemu" 2>&1
	secs=$(($(date +%s) - start))
	rm -f "$cache"/disk-n*.img
	tr -d '\r' <"$log" >"$log.txt"
	if ! grep -q '^@@E2E-END' "$log.txt"; then
		notok "$tag: systemd boot reaches the end of the checks" \
			"$(grep -v '^@@' "$log.txt" | grep -m6 -E 'Oops|BUG:|WARNING:|RIP:|Kernel panic|Call Trace' | cut -c1-160)" \
			"$(tail -8 "$log.txt" | cut -c1-160)" "$(tail -3 "$log.qemu")"
		continue
	fi
	ok "$tag: systemd boot of $krel, 16 vCPUs in 4 nodes, every case run ($secs s wall; $(sed -n 's/^@@ANALYZE //p' "$log.txt"))"
	judge "$krel" "$log.txt"
done
