#!/bin/sh
# Runs in the booted guest, started in the background by e2e.service; waits
# for the boot to finish, then goes through the end-to-end cases of issue 12
# with the installed package: the boot unit, dm-crypt hot-plug, iSCSI over a
# NIC on its own NUMA node, a storm of dm-crypt devices, every shipped
# profile, metrics through node_exporter, the Ansible role. Prints @@ lines on the serial console for tests/vm/e2e/run.sh;
# decides nothing. No wqctl command touches a device: udev runs the rule.
say() { echo "@@$*"; }
W=/sys/devices/virtual/workqueue
say "E2E-UP uptime $(cut -d' ' -f1 /proc/uptime) kernel $(uname -r)"
# wait for the boot job to finish, so systemd-analyze has its figures
i=0
while [ "$(systemctl is-system-running 2>/dev/null)" = starting ] && [ $i -lt 120 ]; do sleep 1; i=$((i + 1)); done

# --- 1. boot: the active set in the image, applied by wqctl.service ---------
say "STATE $(systemctl is-system-running 2>/dev/null)"
say "ACTIVE $(cat /etc/wqctl/active-profiles 2>/dev/null | tr '\n' ' ')"
wqctl verify -r >/tmp/verify.txt 2>&1
say "VERIFY rc=$?"
sed 's/^/@@VERIFY-OUT /' /tmp/verify.txt
say "UNIT $(systemctl show wqctl.service -p ActiveState -p Result -p ExecMainStatus -p NRestarts | tr '\n' ' ')"
say "UNIT-RUNS $(journalctl -b -o cat -u wqctl.service | grep -c '^Finished \|^Started ')"
journalctl -b -o cat -t wqctl | sed 's/^/@@JOURNAL /'
say "BLAME $(systemd-analyze blame 2>/dev/null | awk '$NF == "wqctl.service"')"
say "ANALYZE $(systemd-analyze 2>/dev/null | head -1)"
say "FAILED $(systemctl --failed --no-legend --plain | awk '{ print $1 }' | tr '\n' ' ')"
say "JOURNAL-BOOT $(wc -l </run/wqctl/journal 2>/dev/null)"

# the hot-plug profile joins the active set (an administrator's step, no device touched)
wqctl profile use e2e-boot e2e-dev >/dev/null 2>&1
say "ACTIVE2 rc=$? $(grep -v '^#' /etc/wqctl/active-profiles | tr '\n' ' ')"
# the journal of wqctl's own lines so far; later ones are the udev hook's
journalctl -b -o cat -t wqctl | wc -l >/tmp/wqctl-lines

disk_by_serial() {
	for b in /sys/block/vd*; do
		[ "$(cat "$b/serial" 2>/dev/null)" = "$1" ] && { echo "/dev/${b##*/}"; return 0; }
	done
	return 1
}
nic_by_mac() {
	for n in /sys/class/net/*; do
		[ "$(cat "$n/address" 2>/dev/null)" = "$1" ] && { echo "${n##*/}"; return 0; }
	done
	return 1
}
# the NUMA node the kernel gives a block device's or NIC's PCI function
dev_node() { cat "$(readlink -f "$1")/../numa_node" 2>/dev/null || echo '?'; }
mapper_mm() { cat "/sys/block/$(basename "$(readlink -f "/dev/mapper/$1")")/dev"; }
kcryptd_of() { ls "$W" | grep "^kcryptd-$1-" | head -1; }
wq_line() { echo "$1 cpumask=$(cat "$W/$1/cpumask" 2>/dev/null) max_active=$(cat "$W/$1/max_active" 2>/dev/null)"; }
hook_log() { # the udev hook's syslog lines since the last call
	n=$(cat /tmp/wqctl-lines)
	journalctl -b -o cat -t wqctl | tail -n +$((n + 1)) | sed "s/^/@@HOOK-$1 /"
	journalctl -b -o cat -t wqctl | wc -l >/tmp/wqctl-lines
}

# --- 2. dm-crypt hot-plug: LUKS on a disk of node 2 and one of node 0 -------
modprobe dm_crypt 2>/dev/null
printf 'e2e-passphrase' >/run/e2e.key
for spec in "c2 crypt-node2" "c0 crypt-node0"; do
	set -- $spec
	dev=$(disk_by_serial "$2") || { say "DISK $1 none"; continue; }
	say "DISK $1 $dev numa_node=$(dev_node "/sys/block/${dev#/dev/}/device")"
	cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--key-file /run/e2e.key "$dev" >/tmp/luks.err 2>&1 || say "LUKS-ERR $1 $(tr '\n' ' ' </tmp/luks.err)"
	cryptsetup open --key-file /run/e2e.key "$dev" "$1" >/tmp/luks.err 2>&1 || say "LUKS-ERR $1 $(tr '\n' ' ' </tmp/luks.err)"
done
udevadm settle -t 120
for m in c2 c0; do
	[ -e "/dev/mapper/$m" ] || continue
	mm=$(mapper_mm "$m")
	wq=$(kcryptd_of "$mm")
	if [ -z "$wq" ]; then say "CRYPT $m $mm none"; continue; fi
	touch /tmp/kcryptd-in-sysfs
	say "CRYPT $m $mm $(wq_line "$wq") uuid=$(cat "/sys/dev/block/$mm/dm/uuid")"
done
hook_log open
for m in c2 c0; do
	cryptsetup close "$m" 2>/dev/null
done
udevadm settle -t 120
say "CLOSED left=$(ls "$W" | grep -c '^kcryptd')"
say "JOURNAL-KCRYPTD $(grep -c kcryptd /run/wqctl/journal 2>/dev/null)"
hook_log close

# --- 3. iSCSI: an LIO target in a namespace, reached over the NIC of node 1 --
ini=$(nic_by_mac 52:54:00:12:01:01)
tgt=$(nic_by_mac 52:54:00:12:02:02)
say "NIC initiator=$ini numa_node=$(dev_node "/sys/class/net/$ini/device") target=$tgt numa_node=$(dev_node "/sys/class/net/$tgt/device")"
IQN=iqn.2026-12.org.example.wqctl:e2e
T=/sys/kernel/config/target
P=192.0.2.10:3260
iscsi_setup() {
	for m in iscsi_tcp target_core_mod target_core_file iscsi_target_mod; do modprobe "$m" || return 1; done
	mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config || return 1
	ip netns add e2e-tgt && ip link set "$tgt" netns e2e-tgt || return 1
	ip addr add 192.0.2.1/24 dev "$ini" && ip link set "$ini" up || return 1
	ip -n e2e-tgt addr add 192.0.2.10/24 dev "$tgt" && ip -n e2e-tgt link set "$tgt" up &&
		ip -n e2e-tgt link set lo up || return 1
	truncate -s 64M /var/tmp/e2e-lun0.img
	mkdir -p "$T/core/fileio_0/lun0" &&
		echo "fd_dev_name=/var/tmp/e2e-lun0.img,fd_dev_size=67108864" >"$T/core/fileio_0/lun0/control" &&
		echo 1 >"$T/core/fileio_0/lun0/enable" || return 1
	# the portal's listening socket is made in the namespace of whoever creates it
	# (nsenter, not ip netns exec: that mounts a sysfs of its own, without configfs)
	nsenter --net=/run/netns/e2e-tgt mkdir -p "$T/iscsi/$IQN/tpgt_1/np/$P" || return 1
	mkdir -p "$T/iscsi/$IQN/tpgt_1/lun/lun_0" &&
		ln -s "$T/core/fileio_0/lun0" "$T/iscsi/$IQN/tpgt_1/lun/lun_0/e2e" || return 1
	a=$T/iscsi/$IQN/tpgt_1/attrib
	echo 0 >"$a/authentication" && echo 1 >"$a/generate_node_acls" && echo 0 >"$a/demo_mode_write_protect" &&
		echo 1 >"$T/iscsi/$IQN/tpgt_1/enable" || return 1
	# the initiator's route to the portal goes out through the node-1 NIC
	for k in $(seq 1 20); do ping -c1 -W1 192.0.2.10 >/dev/null 2>&1 && break; done
	iscsiadm -m discovery -t sendtargets -p "$P" >/dev/null
}
iscsi_session() { # the newest session and its host: "sessionN hostM" (session ids only grow; host numbers are reused)
	sid=$(ls /sys/class/iscsi_session 2>/dev/null | sed -n 's/^session//p' | sort -n | tail -1)
	[ -n "$sid" ] || return 1
	d=$(readlink -f "/sys/class/iscsi_session/session$sid/device")
	echo "session$sid $(basename "$(dirname "$d")")"
}
iscsi_round() { # tag
	iscsiadm -m node -T "$IQN" -p "$P" --login >/tmp/iscsi.err 2>&1 || say "ISCSI-ERR $1 login $(tr '\n' ' ' </tmp/iscsi.err)"
	udevadm settle -t 120
	si=$(iscsi_session) || { say "ISCSI $1 no-session"; return 1; }
	set -- "$1" $si
	h=$3
	n=${h#host}
	say "ISCSI $1 $h $(wq_line "iscsi_q_$n") $2 route=$(ip -o route get 192.0.2.10 | sed 's/  */ /g')"
	wqctl owner "iscsi_q_$n" 2>&1 | sed "s/^/@@OWNER-$1 /"
	if [ "$1" = 1 ]; then
		# a dump made during the session, read back as another machine reads it:
		# its route record, 'local' placed from it, the shipped profile checked and verified
		rm -rf /tmp/iscsi-dump
		wqctl dump /tmp/iscsi-dump >/tmp/dump.txt 2>&1
		say "ISCSI-DUMP rc=$? $(tr '\t' '|' </tmp/iscsi-dump/wqctl-dump/iscsi-routes 2>&1 | head -3 | tr '\n' ' ')"
		V=/usr/lib/wqctl/profiles/iscsi-nic-local.conf
		wqctl --sysroot /tmp/iscsi-dump owner "iscsi_q_$n" 2>&1 | sed -n "s/^node: */@@DUMP-OWNER /p"
		wqctl --sysroot /tmp/iscsi-dump check --profile $V -r -n -o SEVERITY,CODE,TARGET >/tmp/dc.txt 2>&1
		say "ISCSI-DUMP-CHECK rc=$? errors=$(grep -c '^error' /tmp/dc.txt) $(grep iscsi_q /tmp/dc.txt | tr '\n' ' ')"
		wqctl --sysroot /tmp/iscsi-dump verify --profile $V -r -n -o TARGET,STATUS >/tmp/dv.txt 2>&1
		say "ISCSI-DUMP-VERIFY rc=$? $(tr '\n' ' ' </tmp/dv.txt)"
	fi
	hook_log "iscsi-$1"
	iscsiadm -m node -T "$IQN" -p "$P" --logout >/tmp/iscsi.err 2>&1 || say "ISCSI-ERR $1 logout $(tr '\n' ' ' </tmp/iscsi.err)"
	udevadm settle -t 120
	say "ISCSI-OUT $1 $h gone=$([ -e "$W/iscsi_q_$n" ] && echo no || echo yes) journal=$(grep -c "iscsi_q_$n/" /run/wqctl/journal 2>/dev/null)"
}
if [ -n "$ini" ] && [ -n "$tgt" ] && iscsi_setup >/tmp/iscsi-setup.err 2>&1; then
	iscsi_round 1
	iscsi_round 2
else
	say "ISCSI-SETUP failed: $(tail -5 /tmp/iscsi-setup.err | tr '\n' ' ')"
fi

# --- 4. a storm: 200 dm-crypt devices created in one go ------------------------
storm() {
	dev=$(disk_by_serial crypt-node0) || return 1
	key=0123456789abcdef0123456789abcdeffedcba9876543210fedcba9876543210
	spec="" i=0
	while [ $i -lt 200 ]; do
		# 1 MiB each, past the LUKS header that c0 left at the start
		spec="$spec${spec:+;}storm-$i,CRYPT-PLAIN-storm-$i,,,0 2048 crypt aes-xts-plain64 $key 0 $dev $((65536 + i * 2048))"
		i=$((i + 1))
	done
	tr=/sys/kernel/tracing
	[ -d "$tr/instances" ] || mount -t tracefs nodev "$tr"
	I=$tr/instances/e2e-storm
	rmdir "$I" 2>/dev/null
	mkdir "$I" || return 1
	echo 8192 >"$I/buffer_size_kb"
	# every run of the hook: the exec of /usr/sbin/wqctl and that process's exit
	echo 'filename ~ "*/wqctl"' >"$I/events/sched/sched_process_exec/filter"
	echo 'comm == "wqctl"' >"$I/events/sched/sched_process_exit/filter"
	echo 1 >"$I/events/sched/sched_process_exec/enable"
	echo 1 >"$I/events/sched/sched_process_exit/enable"
	echo 1 >"$I/tracing_on"
	t0=$(date +%s%N)
	dmsetup create --concise "$spec" >/tmp/storm.err 2>&1 || say "STORM-ERR $(tail -3 /tmp/storm.err | tr '\n' ' ')"
	udevadm settle -t 900
	t1=$(date +%s%N)
	echo 0 >"$I/tracing_on"
	say "STORM created=$(ls /dev/mapper | grep -c '^storm-') wall_ms=$(((t1 - t0) / 1000000))"
	# the hook's runs from the trace: exec to exit of each wqctl process
	awk '{ ts = ""; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); ev = $(i + 1) }
		if (ts == "") next
		pid = ""; for (i = 1; i <= NF; i++) if ($i ~ /^pid=/) { pid = substr($i, 5); break }
		if (ev == "sched_process_exec:") start[pid] = ts
		else if (ev == "sched_process_exit:" && (pid in start)) { d = ts - start[pid]; n++; sum += d; if (d > max) max = d; delete start[pid] } }
		END { printf "@@STORM-HOOK runs=%d sum_ms=%.1f max_ms=%.1f unmatched=%d\n", n, sum * 1000, max * 1000, length(start) }' "$I/trace"
	say "STORM-TRACE $(cat "$I"/per_cpu/cpu*/stats 2>/dev/null | awk '/^overrun:/ { o += $2 } END { print "overrun=" o + 0 }')"
	rmdir "$I"
	# each storm device's kcryptd: max_active/cpumask, counted by value
	for d in /sys/block/dm-*; do
		case $(cat "$d/dm/name") in storm-*) ;; *) continue ;; esac
		wq=$(kcryptd_of "$(cat "$d/dev")")
		echo "$(cat "$W/$wq/max_active" 2>/dev/null)/$(cat "$W/$wq/cpumask" 2>/dev/null)"
	done | sort | uniq -c | awk '{ printf "%s%s=%s", s, $2, $1; s = " " } END { print "" }' >/tmp/storm-values
	say "STORM-VALUES $(cat /tmp/storm-values)"
	hook_log storm >/tmp/storm-hook.txt
	say "STORM-HOOK-LINES $(wc -l </tmp/storm-hook.txt) $(grep -v 'written\|unchanged' /tmp/storm-hook.txt | head -3 | tr '\n' ' ')"
	dmsetup remove_all >/dev/null 2>&1
	udevadm settle -t 900
	say "STORM-REMOVED left=$(ls /dev/mapper | grep -c '^storm-') kcryptd=$(ls "$W" | grep -c '^kcryptd') journal=$(grep -c kcryptd /run/wqctl/journal 2>/dev/null)"
}
# (dm-crypt's workqueues are in sysfs from 6.10 only)
if [ -e /tmp/kcryptd-in-sysfs ]; then storm || say "STORM none"; fi

# --- 5. revert: everything wqctl wrote since boot, nothing it trips over ------
# stdout: a line per value written back (OBJECT: NOW -> ORIGINAL); stderr: what it says of the rest
wqctl revert >/tmp/revert.out 2>/tmp/revert.txt
say "REVERT rc=$? $(tr '\n' ' ' </tmp/revert.txt)"
say "REVERT-LINES restored=$(wc -l </tmp/revert.out) other=$(grep -cvE '^[^ ]+: .+ -> .+$' /tmp/revert.out) writeback=$(grep -c '^writeback/' /tmp/revert.out)"
say "AFTER-REVERT writeback $(wq_line writeback) nice=$(cat $W/writeback/nice) journal=$(wc -l </run/wqctl/journal 2>/dev/null || echo none)"
# the set stays active until 'profile off'
wqctl profile off >/tmp/off.txt 2>&1
say "PROFILE-OFF rc=$? active=$(grep -vc '^#' /etc/wqctl/active-profiles) $(tr '\n' ' ' </tmp/off.txt)"
wqctl profile use e2e-boot >/dev/null 2>&1

# --- 6. every shipped profile, with a LUKS device open and an iSCSI session ---
dev=$(disk_by_serial crypt-node2) && cryptsetup open --key-file /run/e2e.key "$dev" c2 2>/dev/null && udevadm settle -t 120
iscsiadm -m node -T "$IQN" -p "$P" --login >/dev/null 2>&1 && udevadm settle -t 120
for f in /usr/lib/wqctl/profiles/*.conf; do
	p=$(basename "$f" .conf)
	wqctl apply --profile "$p" >/tmp/apply.txt 2>&1
	a=$?
	wqctl verify --profile "$p" -P >/tmp/verify.txt 2>&1
	say "PROFILE $p apply=$a verify=$? rows=$(grep -c . /tmp/verify.txt) $(tr '\n' ' ' </tmp/apply.txt)"
	sed "s/^/@@PROFILE-ROW $p /" /tmp/verify.txt
	wqctl revert >/tmp/revert.txt 2>&1 || say "PROFILE-REVERT $p failed: $(tr '\n' ' ' </tmp/revert.txt)"
done
cryptsetup close c2 2>/dev/null
iscsiadm -m node -T "$IQN" -p "$P" --logout >/dev/null 2>&1

# --- 7. metrics for node_exporter: the README's set-up, typed as it is there ---
# (prometheus-node-exporter is in the image, installed and started as apt does)
systemctl enable --now wqctl-metrics.timer >/tmp/timer.txt 2>&1
say "TIMER rc=$? $(tr '\n' ' ' </tmp/timer.txt)"
i=0
while [ ! -s /var/lib/prometheus/node-exporter/wqctl.prom ] && [ $i -lt 180 ]; do sleep 1; i=$((i + 1)); done
say "METRICS-UNIT $(systemctl show wqctl-metrics.service -p Result -p ExecMainStatus | tr '\n' ' ') waited=$i"
say "NODE-EXPORTER $(systemctl is-active prometheus-node-exporter)"
curl -s http://localhost:9100/metrics >/tmp/scrape.txt
say "SCRAPE rc=$? lines=$(grep -c '^wqctl_' /tmp/scrape.txt)"
grep -E '^(wqctl_workqueue_max_active|wqctl_workqueue_nice)\{workqueue="writeback"\}|^node_textfile_scrape_error' /tmp/scrape.txt |
	sed 's/^/@@SCRAPE-LINE /'
say "SYSFS writeback max_active=$(cat $W/writeback/max_active) nice=$(cat $W/writeback/nice)"

# --- 8. the Ansible role: the README's site.yml, on this host with wqctl removed, with its profile set ---
# (ansible-core is in the image; the collection tarball, site.yml and the .deb
# are under /usr/local/share/e2e; the guest has no network, so the role
# installs the .deb file)
E=/usr/local/share/e2e
systemctl disable --now wqctl-metrics.timer >/dev/null 2>&1
apt-get remove -y -q wqctl >/tmp/remove.txt 2>&1
say "ROLE-REMOVED rc=$? $(dpkg-query -W -f '${Status}' wqctl 2>&1) wqctl=$(ls /usr/sbin/wqctl 2>/dev/null || echo none)"
ansible-galaxy collection install $E/wqctl-wqctl-*.tar.gz >/tmp/galaxy.txt 2>&1
say "GALAXY rc=$? $(tail -1 /tmp/galaxy.txt)"
for run in 1 2; do
	t0=$(date +%s)
	ANSIBLE_NOCOLOR=1 ansible-playbook -i localhost, -c local -e "wqctl_package=$(ls $E/wqctl_*.deb)" $E/site.yml >/tmp/role.txt 2>&1
	rc=$?
	say "ROLE-RUN $run rc=$rc secs=$(($(date +%s) - t0)) $(sed -n 's/^localhost *: *//p' /tmp/role.txt | tr -s ' ')"
	# each task's result: STATUS TASK-NAME
	awk '/^TASK \[/ { t = $0; sub(/^TASK \[/, "", t); sub(/\] \**$/, "", t) }
		/^(ok|changed|skipping|fatal|failed): / { s = $1; sub(/:$/, "", s); print s " " t }' /tmp/role.txt |
		sed "s/^/@@ROLE-TASK-$run /"
	grep -E '^(fatal|failed|ERROR)' /tmp/role.txt | head -3 | sed "s/^/@@ROLE-ERR-$run /"
done
# the profile set site.yml rolls out: active, and verify of it (its 7.x-only settings left out here)
say "ROLE-PROFILES $(wqctl profile current | tr '\n' ' ')"
wqctl verify --profile fleet-storage --profile fleet-7x -r -n -o TARGET,STATUS,CONDITION >/tmp/fleet.txt 2>&1
say "ROLE-VERIFY rc=$?"
sed 's/^/@@ROLE-VERIFY-OUT /' /tmp/fleet.txt
say "ROLE-STATE $(dpkg-query -W -f '${Status}' wqctl) boot=$(systemctl is-enabled wqctl.service) timer=$(systemctl is-enabled wqctl-metrics.timer)/$(systemctl is-active wqctl-metrics.timer) version=$(wqctl --version 2>&1 | head -1)"

say "E2E-END uptime $(cut -d' ' -f1 /proc/uptime)"
systemctl poweroff
