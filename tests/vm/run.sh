#!/bin/bash
# The VM tier: boot Debian's own kernels under QEMU with synthetic NUMA
# layouts, run wqctl inside, and compare what it says with what the kernel
# does (tests/vm/wqprobe measures real concurrency). Prints TAP.
#   tests/vm/run.sh WQCTL_PLAIN
# Environment: VM_CACHE (default build/vm), VM_KERNELS (kernels to boot by
# their kernels.sh tag, default "A C L X R": 6.1, 6.12, 6.18, 7.3, 7.3-rt),
# VM_LAYOUTS (restricts each kernel's layouts, see BOOTS), VM_ACCEL (skip the
# KVM probe: tcg or kvm), VM_BENCH (boot only monitor's cost benchmark, make
# bench-monitor), VM_BENCH_LAYOUT (its layout, default host: see SMP).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
wqctl=${1:?usage: run.sh WQCTL_PLAIN}
cache=${VM_CACHE:-$top/build/vm}
mkdir -p "$cache"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
check() { # description command... (ok when the command succeeds)
	local d=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$d"; else notok "$d" "$(echo "$out" | tail -5)"; fi
}
# shellcheck source=../fixtures/cpulist.sh
. "$top/tests/fixtures/cpulist.sh"

# Layouts: name, -smp, then the CPUs of nodes 0.. (QEMU's -numa cpus= syntax
# joined by ';'). "even" is 4 sockets of 4; "uneven" interleaves the
# numbering with nodes of 2, 2, 4 and 8 CPUs in one socket.
# "shard" is one socket of 8 cores with 2 threads each (QEMU numbers a core's
# threads next to each other): one last-level cache of 8 cores, which
# workqueue.cache_shard_size=3 cuts into shards of 3, 3 and 2 cores on 7.1+.
# "llc12" is one socket of 12 cores x 2 threads: more cores in its last-level
# cache than the default cache_shard_size 8, so 7.1+ cuts it in two shards of 6.
declare -A SMP=([even]="16,sockets=4,cores=4,threads=1" [uneven]="16,sockets=1,cores=16,threads=1"
	[shard]="16,sockets=1,cores=8,threads=2" [llc12]="24,sockets=1,cores=12,threads=2")
declare -A NODES=([even]="0-3;4-7;8-11;12-15" [uneven]="0,4;1,5;2,6,8,10;3,7,9,11-15" [shard]="0-15" [llc12]="0-23")
# what each kernel boots (its isolation boots come after): a layout and the guest's modes
declare -A BOOTS=([A]="even:matrix,monitor,experiment uneven:matrix"
	[C]="even:matrix,monitor,experiment,pods uneven:matrix,pods"
	[L]="shard:pods"
	[X]="even:matrix,monitor,pods uneven:matrix,pods shard:pods llc12:pods" [R]="")
declare -A APPEND=([shard]="workqueue.cache_shard_size=3")
# "host" (make bench-monitor) is one node of as many vCPUs as the host has
# cores (at most 16). One host thread runs all vCPUs in turn (below) while
# the guest's clock keeps the host's time, so a task's CPU time as the guest
# measures it includes the turns of the other busy vCPUs: up to 16 times
# its own with 16 vCPUs, at most twice with 2
hostcpus=$(nproc)
[ "$hostcpus" -le 16 ] || hostcpus=16
SMP[host]="$hostcpus,sockets=1,cores=$hostcpus,threads=1" NODES[host]="0-$((hostcpus - 1))"

numa_args() { # layout
	local i=0 node c args="" size
	IFS=';' read -ra nodes <<<"${NODES[$1]}"
	# the 1 GiB of RAM split evenly (QEMU wants the nodes to add up to it)
	size=$((1024 / ${#nodes[@]}))M
	for node in "${nodes[@]}"; do
		args+=" -object memory-backend-ram,id=m$i,size=$size -numa node,nodeid=$i,memdev=m$i"
		IFS=',' read -ra cs <<<"$node"
		for c in "${cs[@]}"; do args+=",cpus=$c"; done
		i=$((i + 1))
	done
	echo "$args"
}

boot() { # accel kernel-dir krel initrd layout append log timeout
	local accel=$1 kdir=$2 krel=$3 initrd=$4 layout=$5 append=$6 log=$7 limit=$8 smp mem numa=""
	if [ "$layout" = single ]; then
		smp=1 mem=256M
	else
		smp=${SMP[$layout]} mem=1G numa=$(numa_args "$layout")
	fi
	# shellcheck disable=SC2086
	timeout "$limit" qemu-system-x86_64 -machine q35 -accel "$accel" -cpu max -m "$mem" -smp "$smp" $numa \
		-kernel "$kdir/boot/vmlinuz-$krel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 $append" \
		"${EXTRA_QEMU[@]}" -display none -serial "file:$log" -monitor none -no-reboot </dev/null >"$log.qemu" 2>&1
}

# --- set-up: kernels, probe modules, initramfs -------------------------------
command -v qemu-system-x86_64 >/dev/null || { notok "qemu-system-x86_64 is installed (make deps-vm)"; exit 1; }
if ! kernels=$("$here/kernels.sh" "$cache/kernels" 2>"$cache/kernels.err"); then
	notok "fetch Debian's kernels" "$(tail -3 "$cache/kernels.err")"
	exit 1
fi
ok "fetch Debian's kernels: $(echo "$kernels" | awk '{ printf "%s%s (%s)", s, $2, $1; s = ", " }')"

declare -A KDIR INITRD ERA
EXTRA_QEMU=()
wanted=${VM_KERNELS:-A C L X R}
# the bench's floor for the kernel backend: a static reader of the hist files (bench/histfloor.c)
HISTFLOOR=
if [ -n "${VM_BENCH:-}" ]; then
	HISTFLOOR=$cache/histfloor
	check "bench/histfloor.c built static for the guest" cc -static -O2 -o "$HISTFLOOR" "$top/bench/histfloor.c"
fi
while read -r era krel kdir; do
	case " $wanted " in *" $era "*) ;; *) continue ;; esac
	KDIR[$krel]=$kdir
	pdir=$cache/wqprobe-$krel
	rm -rf "$pdir" && mkdir -p "$pdir" && cp "$here/wqprobe/wqprobe.c" "$here/wqprobe/Kbuild" "$pdir/"
	ko=$pdir/wqprobe.ko
	if [ -f "$kdir/.builder" ]; then
		# built with gcc-14: in the trixie chroot kernels.sh made beside the kernels, where the
		# headers' absolute paths hold (objtool reads /proc)
		root=$(dirname "$kdir")/trixie-root
		rm -rf "$root/build/wqprobe-$krel" && mkdir -p "$root/build" && cp -a "$pdir" "$root/build/"
		check "build wqprobe.ko against $krel headers (gcc-14, trixie chroot)" unshare --mount --fork sh -c \
			"mount -t proc proc '$root/proc' && chroot '$root' make -s -C /usr/src/linux-headers-$krel M=/build/wqprobe-$krel modules"
		cp "$root/build/wqprobe-$krel/wqprobe.ko" "$ko" 2>/dev/null
	elif [ -d "$kdir/build" ]; then
		check "build wqprobe.ko against $krel headers" make -s -C "$kdir/build" M="$pdir" modules
	else
		# Debian publishes no headers for it: booted without the probe (topology, pods, exit codes)
		ok "$krel: no headers published, booted without the probe"
		ko=-
	fi
	# experiment's fio run: virtio-blk and ext4 as modules, in modprobe's order, uncompressed for
	# busybox's insmod (those built in are not listed)
	mdir=$cache/vmmods-$krel/modules
	rm -rf "$mdir" && mkdir -p "$mdir"
	# the packages ship no modules.dep (their postinst makes it)
	[ -f "$kdir/lib/modules/$krel/modules.dep" ] || depmod -b "$kdir" "$krel"
	i=0
	for m in $(for mod in virtio_pci virtio_blk crc32c_generic ext4; do
		modprobe -d "$kdir" -S "$krel" --show-depends "$mod" 2>/dev/null | awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++'); do
		i=$((i + 1))
		b=$(basename "$m")
		case $m in *.xz) xz -dc "$m" >"$mdir/$(printf %02d $i)-${b%.xz}" ;; *) cp "$m" "$mdir/$(printf %02d $i)-$b" ;; esac
	done
	case " ${BOOTS[$era]} " in
	*experiment*)
		if ls "$mdir"/*-ext4.ko >/dev/null 2>&1; then ok "modules for experiment's disk in $krel: $(ls "$mdir" | sed 's/^[0-9]*-//' | paste -sd' ')"
		else notok "modules for experiment's disk in $krel (virtio_blk, ext4)" "$(ls "$kdir/lib/modules/$krel" | head -5)"; fi ;;
	esac
	INITRD[$krel]=$cache/initrd-$krel.cpio.gz
	check "initramfs for $krel" "$here/initramfs.sh" "$wqctl" "$ko" "$here/guest.sh" "${INITRD[$krel]}" "$mdir" \
		"$top/profiles/cpu-partitioning.conf" ${HISTFLOOR:+"$HISTFLOOR"}
	ERA[$krel]=$era
done <<<"$kernels"

# --- KVM or TCG: a short boot probe, not the device node ---------------------
accel=${VM_ACCEL:-}
[ -n "${VM_REUSE_LOGS:-}" ] && accel=${accel:-tcg}
if [ -z "$accel" ]; then
	accel=tcg
	first=$(echo "${!KDIR[@]}" | tr ' ' '\n' | sort | head -1)
	if [ -w /dev/kvm ] && [ -n "$first" ]; then
		boot kvm "${KDIR[$first]}" "$first" "${INITRD[$first]}" single "wqvm.mode=boot" "$cache/kvm-probe.log" 25
		if grep -q '^@@END' <(tr -d '\r' <"$cache/kvm-probe.log"); then accel=kvm; fi
	fi
	ok "accelerator: $accel (KVM $([ "$accel" = kvm ] && echo boots || echo 'does not boot') these kernels)"
fi
# One host thread for all vCPUs. With thread=multi, 6.12 died at boot in 2 of
# 8 uneven boots ("Oops: int3" at sched_clock_cpu+0x9: a static key patched
# by text_poke_bp() while another vCPU ran the old code; QEMU 7.2). One
# thread never showed it in 6 boots, and on this 2-core host it boots faster
# (16 vCPU threads on 2 cores spin on each other).
[ "$accel" = tcg ] && accel=tcg,thread=single

# --- experiment's disk: ext4 holding fio and the libraries it links -----------
expdisk=$cache/expdisk.img
if command -v fio >/dev/null; then
	stage=$(mktemp -d)
	mkdir -p "$stage/fio/bin" "$stage/fio/lib"
	cp -L "$(command -v fio)" "$stage/fio/bin/"
	ldd "$(command -v fio)" | awk '/=> \// { print $3 }' | xargs -r cp -L -t "$stage/fio/lib/"
	rm -f "$expdisk"
	truncate -s 512M "$expdisk"
	# no metadata checksums: the guest need not load crc32c before mounting
	check "experiment's virtio disk: ext4 with fio and its libraries" \
		mke2fs -q -t ext4 -O ^metadata_csum -d "$stage" -F "$expdisk"
	rm -rf "$stage"
else
	notok "fio is installed on the host (make deps)"
	expdisk=
fi

# --- the host's own exit codes for the read-only commands --------------------
declare -A HOSTRC
for c in "show" "topology -J" "explain writeback" "check" "knob" "get writeback max_active"; do
	# shellcheck disable=SC2086
	"$wqctl" $c >/dev/null 2>&1
	HOSTRC[$c]=$?
done

report=$cache/real-kernels.md
rows=$cache/rows.txt
: >"$rows"
rm -f "$report.rows" "$cache/monitor-cost.txt"

# boot_truth TAG NAME APPEND SCRIPT ARGS...: one boot of $krel on the even layout (or
# $BOOT_LAYOUT), its guest log judged by tests/vm/SCRIPT LOG TAG N ARGS... (TAP numbered on
# from n); a boot that died before /init is tried once more
boot_truth() {
	local tag=$1 log=$cache/boot-$krel-$2.log append=$3 script=$4 start try
	shift 4
	EXTRA_QEMU=()
	start=$(date +%s)
	for try in 1 2; do
		[ -n "${VM_REUSE_LOGS:-}" ] && [ -f "$log" ] ||
			boot "$accel" "${KDIR[$krel]}" "$krel" "${INITRD[$krel]}" "${BOOT_LAYOUT:-even}" "$append" "$log" "${BOOT_LIMIT:-600}"
		tr -d '\r' <"$log" >"$log.txt"
		grep -q '^@@BOOTED' "$log.txt" && break
	done
	if ! grep -q '^@@END' "$log.txt"; then
		notok "$tag: boots and runs to the end" "$(grep -v '^@@' "$log.txt" | tail -8 | cut -c1-160)"
		return
	fi
	ok "$tag: boots and runs to the end ($(($(date +%s) - start)) s)"
	"$here/$script" "$log.txt" "$tag" "$n" "$@" >"$cache/truth.tap"
	cat "$cache/truth.tap"
	n=$((n + $(grep -c '^\(not \)\?ok ' "$cache/truth.tap")))
}

# --- make bench-monitor (VM_BENCH=1): only monitor's cost, on 6.12 and 7.3 ----
if [ -n "${VM_BENCH:-}" ]; then
	table=$cache/bench-monitor.md
	{
		echo "| kernel | rate asked | items/s | events | wqctl CPU % | x idle | us CPU/event | lost | monitor queued/done of probe's | flood x no tracing (us an item) |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
	} >"$table"
	for krel in $(echo "${!KDIR[@]}" | tr ' ' '\n' | sort -V); do
		case ${ERA[$krel]} in C | X) ;; *) continue ;; esac
		# its floods and monitors took 484 s (6.12) and 489 s (7.3) with the boot on 2026-12-07
		BOOT_LIMIT=900 BOOT_LAYOUT=${VM_BENCH_LAYOUT:-host} boot_truth "$krel ${VM_BENCH_LAYOUT:-host} bench" bench \
			"wqvm.mode=bench" benchtruth.sh "$krel" "$table"
	done
	sed 's/^/# /' "$table"
	echo "# table for the README: $table"
	exit 0
fi

# --- per boot -----------------------------------------------------------------
for krel in $(echo "${!KDIR[@]}" | tr ' ' '\n' | sort -V); do
	for lm in ${BOOTS[${ERA[$krel]}]}; do
		layout=${lm%%:*} mode=${lm#*:}
		case " ${VM_LAYOUTS:-even uneven shard llc12} " in *" $layout "*) ;; *) continue ;; esac
		tag="$krel $layout"
		log=$cache/boot-$krel-$layout.log
		# experiment's fio on a disk
		EXTRA_QEMU=()
		case $mode in *experiment*) [ -n "$expdisk" ] && EXTRA_QEMU=(-drive "file=$expdisk,format=raw,if=virtio,snapshot=on") ;; esac
		start=$(date +%s)
		# VM_REUSE_LOGS=1 judges the guest logs of the last run again, without booting; a boot
		# that died early (7.3 under TCG oopsed once in five, VM.md) is tried once more
		for try in 1 2; do
			[ -n "${VM_REUSE_LOGS:-}" ] && [ -f "$log" ] ||
				boot "$accel" "${KDIR[$krel]}" "$krel" "${INITRD[$krel]}" "$layout" \
					"wqvm.mode=$mode ${APPEND[$layout]:-}" "$log" 900
			# (grep reads to the end: -q would stop at the first match and, SIGPIPE at its
			# default, tr's death would fail the pipeline and boot the guest again)
			tr -d '\r' <"$log" | grep '^@@BOOTED' >/dev/null && break
		done
		secs=$(($(date +%s) - start))
		tr -d '\r' <"$log" >"$log.txt"
		if ! grep -q '^@@END' "$log.txt"; then
			# a guest oops: its first lines say what and where; then the end
			notok "$tag: boots and runs to the end" \
				"$(grep -v '^@@' "$log.txt" | grep -m6 -E 'Oops|BUG:|WARNING:|RIP:|Kernel panic|Call Trace' | cut -c1-160)" \
				"$(grep -v '^@@' "$log.txt" | tail -8 | cut -c1-160)"
			continue
		fi
		ok "$tag: boots and runs to the end ($secs s, guest uptime $(sed -n 's/^@@END rc=[0-9]* uptime //p' "$log.txt") s)"

		# the guest's own dump: real formats, kept for the fixtures
		dump=$cache/dump-$krel-$layout
		rm -rf "$dump" && mkdir -p "$dump"
		awk '$1 == "@@DUMP" { print $2 }' "$log.txt" | base64 -d | tar -xz -C "$dump" 2>/dev/null
		check "$tag: wqctl dump inside the guest" test -f "$dump/proc/sys/kernel/osrelease"
		for kind in SET1 CREATED1; do
			d=$cache/dump-$krel-$layout-$kind
			rm -rf "$d" && mkdir -p "$d"
			awk -v k="@@DUMP-$kind" '$1 == k { print $2 }' "$log.txt" | base64 -d | tar -xz -C "$d" 2>/dev/null
		done

		# exit codes as on the host
		while read -r _ rc cmd; do
			want=${HOSTRC[$cmd]:-0}
			# 6.1 has no affinity scopes: the knob is unknown there (exit 2, as wqctl(8) EXIT STATUS says)
			[ "$cmd" = "knob default_affinity_scope" ] && [ ! -f "$dump/sys/module/workqueue/parameters/default_affinity_scope" ] && want=2
			if [ "$rc" = "$want" ]; then ok "$tag: wqctl $cmd exits $rc as on the host"
			else notok "$tag: wqctl $cmd exits $rc, on the host $want" \
				"$(awk -v c="$cmd" '$0 == "@@OUT " c { p = 1; next } /^@@OUT-END/ { p = 0 } p' "$log.txt" | head -5)"; fi
		done < <(grep '^@@RC ' "$log.txt")

		# one profile set for the fleet (guest.sh fleet_truth), judged by hand from wqctl.profile(5):
		# up to 7.0 the 7.x profile is outside its kernels and the 7.x section's 'when' is false, so
		# only writeback's nice applies and every command exits 0; on 7.3 everything applies
		fl() { sed -n "s/^@@FLEET $1 //p" "$log.txt" | head -1; }
		fv=$(sed -n 's/^@@FLEET-VERIFY //p' "$log.txt" | tr -s ' ')
		case $krel in 7.*) sw=cache_shard bw=cache_shard ;; *) sw=- bw=- ;; esac
		fa=$(fl apply)
		if [ "$(fl check)" = rc=0 ] && [ "$(fl verify)" = rc=0 ] && [ "${fa%% *}" = rc=0 ] && [[ " $fa " == *" nice=3 "* ]] &&
			{ [ "$sw" = - ] || [[ " $fa " == *" scope=cache_shard blkcg=cache_shard default=cache_shard "* ]]; } &&
			grep -qx "writeback/nice ok ok" <<<"$fv"; then
			ok "$tag: one profile set for the fleet: check, apply and verify exit 0, writeback's nice applied$([ "$sw" = - ] && echo ', the 7.x settings left out' || echo ', and the 7.x settings')"
		else
			notok "$tag: one profile set for the fleet: check, apply and verify exit 0" "check $(fl check) $fa verify $(fl verify)" \
				"$(sed -n 's/^@@FLEET-OUT //p' "$log.txt" | head -4)" "$fv"
		fi
		if [ "$sw" = - ]; then
			[ "$(grep -c ' unsupported profile-kernels$' <<<"$fv")" -ge 2 ] && ! grep -q "affinity_scope ok" <<<"$fv" &&
				ok "$tag: ... verify lists the 7.x profile's settings as profile-kernels, nothing of the when-false section" ||
				notok "$tag: ... verify lists the 7.x profile's settings as profile-kernels" "$fv"
		else
			[ "$(grep -c ' ok ok$' <<<"$fv")" = 4 ] &&
				ok "$tag: ... verify: all four settings ok" || notok "$tag: ... verify: all four settings ok" "$fv"
		fi

		# topology against the guest's own node and cache files and against
		# the layout QEMU was given
		out() { awk -v c="$1" '$0 == "@@OUT " c { p = 1; next } /^@@OUT-END/ { p = 0 } p' "$log.txt"; }
		raw() { awk -v f="$1" '$1 == "@@RAW" && $2 == f { print $3 }' "$log.txt" | base64 -d; }
		want=$(echo "${NODES[$layout]}" | tr ';' '\n' | while read -r l; do expand "$l" | tr '\n' ' '; echo; done |
			awk '{ n = split($0, a, " "); delete s; for (i = 1; i <= n; i++) s[a[i]] = 1; l = ""; m = 0
				for (c = 0; c < 64; c++) if (c in s) { if (!(c - 1 in s)) { l = l (l ? "," : "") c; m = 0 } else m = c
					if (!(c + 1 in s) && m) l = l "-" c }
				print NR - 1, l }')
		got=$(out "topology --scope numa -r" | awk 'NR > 1 { print $3, $4 }')
		if [ "$got" = "$want" ]; then ok "$tag: numa pods are the nodes QEMU was given"
		else notok "$tag: numa pods are the nodes QEMU was given" "want: $(echo $want)" "got: $(echo $got)"; fi
		nodefiles=$(for f in $(awk '$1 == "@@RAW" && $2 ~ /node\/node[0-9]+\/cpulist$/ { print $2 }' "$log.txt" | sort -V); do
			id=${f#/sys/devices/system/node/node}; echo "${id%%/*} $(raw "$f")"; done)
		if [ "$nodefiles" = "$want" ]; then ok "$tag: the guest's node files agree with the layout"
		else notok "$tag: the guest's node files agree with the layout" "want: $(echo $want)" "got: $(echo $nodefiles)"; fi
		# cache pods: each CPU's L3 siblings within its node, numbered by lowest CPU
		cachewant=$(for f in $(awk '$1 == "@@RAW" && $2 ~ /index3\/shared_cpu_list$/ { print $2 }' "$log.txt"); do
			c=${f#/sys/devices/system/cpu/cpu}; c=${c%%/*}
			l3=$(expand "$(raw "$f")")
			# (grep reads to the end: with -q it would quit early and pipefail would see SIGPIPE)
			node=$(echo "$nodefiles" | while read -r id l; do expand "$l" | grep -x "$c" >/dev/null && echo "$id"; done)
			nl=$(echo "$nodefiles" | awk -v id="$node" '$1 == id { print $2 }')
			pod=$(grep -xF -f <(expand "$nl") <(echo "$l3") | sort -n | tr '\n' ',' | sed 's/,$//')
			echo "$node $pod"
		done | sort -u | sort -t' ' -k2,2n | awk '{ print NR - 1, $1, $2 }')
		cachegot=$(out "topology --scope cache -r" | awk 'NR > 1 { print $2, $3, $4 }' | while read -r p nd l; do
			echo "$p $nd $(expand "$l" | tr '\n' ',' | sed 's/,$//')"; done)
		if [ -n "$cachewant" ] && [ "$cachegot" = "$cachewant" ]; then ok "$tag: cache pods are each CPU's L3 siblings in its node"
		else notok "$tag: cache pods are each CPU's L3 siblings in its node" "want: $(echo $cachewant)" "got: $(echo $cachegot)"; fi
		# the same dump read on the host through --sysroot gives the same topology
		if [ -f "$dump/proc/sys/kernel/osrelease" ]; then
			if diff <(out "topology -J") <("$wqctl" --sysroot "$dump" topology -J 2>&1) >/dev/null; then
				ok "$tag: topology -J live in the guest = --sysroot of its dump on the host"
			else
				notok "$tag: topology -J live in the guest = --sysroot of its dump on the host" \
					"$(diff <(out "topology -J") <("$wqctl" --sysroot "$dump" topology -J 2>&1) | head -6)"
			fi
		fi

		# the workqueues outside sysfs: the rescuer threads in the guest's stat
		# lines, found here by other code. A kernel thread (PF_KTHREAD 0x200000)
		# with PF_WQ_WORKER (0x20) that is no pool's worker (kworker/CPU:ID,
		# kworker/uPOOL:ID, kworker/dying) is a rescuer, named NAME or, after the
		# rename, kworker/R-NAME; a name of 15 characters may be cut there, unless
		# another is longer (the kernel shows them whole) (kernel/workqueue.c
		# init_rescuer(), rescuer_thread()). Less those sysfs lists.
		rescwant=$(grep '^@@STAT ' "$log.txt" | sed 's/^@@STAT //' | awk '{
				o = index($0, "("); c = $0; while ((i = index(c, ")")) > 0) { last += i; c = substr(c, i + 1) }
				comm = substr($0, o + 1, last - o - 1); split(substr($0, last + 2), f, " "); last = 0
				fl = f[7] + 0
				if (int(fl / 2097152) % 2 == 0 || int(fl / 32) % 2 == 0) next
				if (comm ~ /^kworker\/(u?[0-9]|dying)/) next
				if (length(comm) > 15) whole = 1
				name[++nr] = (comm ~ /^kworker\/R[-+]/) ? substr(comm, 11) : comm; len[nr] = length(comm) }
				END { for (i = 1; i <= nr; i++) print name[i], (!whole && len[i] == 15) }' |
			while read -r name cut; do
				in=0
				for d in "$dump"/sys/devices/virtual/workqueue/*/; do
					w=$(basename "$d")
					if [ "$cut" = 1 ]; then [ "${w:0:${#name}}" = "$name" ] && in=1; else [ "$w" = "$name" ] && in=1; fi
				done
				[ $in = 1 ] || echo "$name $([ "$cut" = 1 ] && echo 1 || echo 0)"
			done | LC_ALL=C sort)
		rescgot=$(out "show --outside -r -n -o NAME,TRUNCATED" | LC_ALL=C sort)
		if [ -n "$rescwant" ] && [ "$rescgot" = "$rescwant" ]; then
			ok "$tag: show --outside lists the $(echo "$rescwant" | wc -l) rescuer threads' workqueues that sysfs does not"
		else notok "$tag: show --outside lists the rescuer threads' workqueues that sysfs does not" \
			"want: $(echo $rescwant)" "got: $(echo $rescgot)"; fi
		# by hand from the kernel source: kblockd (block/blk-core.c, WQ_MEM_RECLAIM, never WQ_SYSFS) is
		# among them on every kernel, writeback (mm/backing-dev.c, WQ_SYSFS) never
		if echo "$rescgot" | grep -qx 'kblockd 0' && ! echo "$rescgot" | grep -q '^writeback '; then
			ok "$tag: kblockd is outside sysfs, writeback is not"
		else notok "$tag: kblockd is outside sysfs, writeback is not" "got: $(echo $rescgot)"; fi
		if out "show" | grep -qx "wqctl: the kernel has more workqueues than sysfs lists: 'wqctl show --outside' lists those with a rescuer thread, 'wqctl monitor' every one doing work"; then
			ok "$tag: show points to the workqueues beyond sysfs"
		else notok "$tag: show points to the workqueues beyond sysfs" "got: $(out show | tail -2)"; fi
		if [ -f "$dump/proc/sys/kernel/osrelease" ]; then
			if [ "$("$wqctl" --sysroot "$dump" show --outside -r -n -o NAME,TRUNCATED 2>&1 | LC_ALL=C sort)" = "$rescgot" ]; then
				ok "$tag: show --outside live in the guest = --sysroot of its dump on the host"
			else notok "$tag: show --outside live in the guest = --sysroot of its dump on the host" \
				"$("$wqctl" --sysroot "$dump" show --outside -r -n -o NAME,TRUNCATED 2>&1 | head -3)"; fi
		fi

		# the probe matrix: wqctl's figure against the measured peak
		agreed=0 total=0
		while read -r line; do
			total=$((total + 1))
			label=$(sed -n 's/.*label=\([^ ]*\).*/\1/p' <<<"$line")
			exp=$(sed -n 's/.*expected=\([^ ]*\).*/\1/p' <<<"$line")
			peak=$(sed -n 's/.*peak=\([^ ]*\).*/\1/p' <<<"$line")
			desc="$tag: $label mask=$(sed -n 's/.* mask=\([^ ]*\).*/\1/p' <<<"$line") from=$(sed -n 's/.* from=\([^ ]*\).*/\1/p' <<<"$line")"
			echo "$krel $layout $line" >>"$rows"
			if [[ $exp =~ ^[0-9]+$ ]] && [ "$peak" = "$exp" ]; then
				agreed=$((agreed + 1))
				ok "$desc: wqctl explain $exp = measured peak $peak"
			else
				notok "$desc: wqctl explain $exp = measured peak ${peak:-?}" "$line"
			fi
		done < <(grep '^@@ROW ' "$log.txt" | sed 's/^@@ROW //')
		case $mode in *matrix*)
			if [ "$total" -gt 0 ]; then ok "$tag: $total probe rows ran"; else notok "$tag: probe rows ran" "none"; fi
			echo "| $krel | $layout | $total | $agreed |" >>"$report.rows" ;;
		esac

		# the kernel's own pods (its strict pools' workers) against wqctl's, scope by scope
		case $mode in *pods*)
			npods=0
			while read -r line; do
				scope=$(sed -n 's/.*scope=\([^ ]*\).*/\1/p' <<<"$line")
				npods=$((npods + 1))
				# every pool's mask but the whole one (the default pwq's), as expanded lists
				all=$(expand "$(raw /sys/devices/system/cpu/possible)" | paste -sd,)
				raw_masks=$(sed -n 's/.*masks=//p' <<<"$line" | tr -d ' ')
				kern=$(sed -n 's/.*masks=//p' <<<"$line" | tr ' ' '\n' | grep . | while read -r l; do
					expand "$l" | paste -sd,; done | grep -vx "$all" | sort)
				mine=$(out "topology -r -n -o POD,NODE,CPUS --scope $scope" | awk '{ print $3 }' | while read -r l; do
					expand "$l" | paste -sd,; done | grep -vx "$all" | sort)
				if [ -z "$raw_masks" ]; then
					notok "$tag: $scope: the strict pools' workers were found" "$line"
				elif [ -n "$mine" ] && [ "$kern" = "$mine" ]; then
					ok "$tag: $scope pods = the kernel's strict pools: $(echo $mine | tr ' ' '|')"
				elif [ -z "$mine" ] && [ -z "$kern" ]; then
					ok "$tag: $scope is one pod of every CPU, in the kernel too"
				else
					notok "$tag: $scope pods = the kernel's strict pools" "kernel: $(echo $kern)" "wqctl: $(echo $mine)" "$line"
				fi
			done < <(grep '^@@PODS ' "$log.txt")
			# shard, size 3: 8 cores of 2 threads, round(8/3) = 3 shards of 3, 3 and 2 cores (worked by hand)
			if [ "$layout" = shard ] && [ "$(raw /sys/module/workqueue/parameters/cache_shard_size)" = 3 ]; then
				line=$(grep '^@@PODS scope=cache_shard ' "$log.txt")
				kern=$(sed -n 's/.*masks=//p' <<<"$line" | tr ' ' '\n' | grep . | grep -vx 0-15 | sort | paste -sd' ')
				[ "$kern" = "0-5 12-15 6-11" ] && ok "$tag: the kernel's cache_shard pods are 0-5, 6-11, 12-15 (3+3+2 cores of 2 threads)" ||
					notok "$tag: the kernel's cache_shard pods are 0-5, 6-11, 12-15" "$line"
			fi
			# llc12, size 8: 12 cores of 2 threads, round(12/8) = 2 shards of 6 cores (worked by hand)
			if [ "$layout" = llc12 ] && [ "$(raw /sys/module/workqueue/parameters/cache_shard_size)" = 8 ]; then
				line=$(grep '^@@PODS scope=cache_shard ' "$log.txt")
				kern=$(sed -n 's/.*masks=//p' <<<"$line" | tr ' ' '\n' | grep . | grep -vx 0-23 | sort | paste -sd' ')
				[ "$kern" = "0-11 12-23" ] && ok "$tag: the kernel's cache_shard pods are 0-11, 12-23 (6+6 cores of 2 threads)" ||
					notok "$tag: the kernel's cache_shard pods are 0-11, 12-23" "$line"
			fi
			want=3
			[ -f "$dump/sys/module/workqueue/parameters/cache_shard_size" ] && want=4
			[ "$npods" = "$want" ] && ok "$tag: pods compared for $npods scopes" ||
				notok "$tag: pods compared for $want scopes" "$npods: $(grep '^@@PODS ' "$log.txt" | cut -c1-120)"
			;;
		esac

		# monitor against the probe's own counts
		if grep -q '^@@MON ' "$log.txt"; then
			"$here/montruth.sh" "$log.txt" "$tag" "$n" >"$cache/mon.tap"
			cat "$cache/mon.tap"
			n=$((n + $(grep -c '^\(not \)\?ok ' "$cache/mon.tap")))
		fi
		# the kernel's own counters (obs/kcount.c) against the probe's (issue 64)
		if grep -q '^@@KCOUNT ' "$log.txt"; then
			rest=$(grep '^@@KCOUNT rest ' "$log.txt")
			flood=$(grep '^@@KCOUNT flood ' "$log.txt")
			if [ "${ERA[$krel]}" = A ]; then
				grep -q "row=wqctl:,kernel,counters:,the,kernel,keeps,per-workqueue,counters,from,6.3,on,(this,is,$krel)" <<<"$rest" &&
					ok "$tag: kcounters on 6.1 says the counters came with 6.3" ||
					notok "$tag: kcounters on 6.1 says the counters came with 6.3" "$rest"
			else
				# stats: queued,Q,started,S,done,D,peak,P; row: wqprobe,STARTED,COMPLETED,NR_ACTIVE,IN_FLIGHT
				IFS=, read -r _ q _ _ _ d _ <<<"$(sed 's/.*stats=\([^ ]*\).*/\1/' <<<"$rest")"
				IFS=, read -r nm st co ac fl <<<"$(sed 's/.*row=//' <<<"$rest")"
				[ "$nm" = wqprobe ] && [ "$st" = "$d" ] && [ "$co" = "$d" ] && [ "$d" = "$q" ] && [ "$fl" = 0 ] && [ "$ac" = 0 ] &&
					ok "$tag: kcounters at rest: STARTED $st = COMPLETED $co = the probe's $d items, none in flight" ||
					notok "$tag: kcounters at rest: STARTED = COMPLETED = the probe's items, none in flight" "$rest"
				IFS=, read -r _ qb _ _ _ db _ <<<"$(sed 's/.*before=\([^ ]*\).*/\1/' <<<"$flood")"
				IFS=, read -r _ qa _ _ _ da _ <<<"$(sed 's/.*after=\([^ ]*\).*/\1/' <<<"$flood")"
				IFS=, read -r nm st co ac fl <<<"$(sed 's/.*row=//' <<<"$flood")"
				# in flight at the read lies between queued-done read before and after it (both only grow)
				[ "$nm" = wqprobe ] && [ "$fl" -ge $((qb - da)) ] && [ "$fl" -le $((qa - db)) ] && [ "$ac" -le "$fl" ] &&
					[ "$co" -ge "$db" ] && [ "$co" -le "$da" ] &&
					ok "$tag: kcounters in a flood: IN_FLIGHT $fl within the probe's $((qb - da))..$((qa - db)), COMPLETED $co within $db..$da" ||
					notok "$tag: kcounters in a flood: IN_FLIGHT and COMPLETED within the probe's own counts" "$flood"
				# monitor --backend counters: every interval summed is every item; the most in flight is explain's
				kmon=$(grep '^@@KMON ' "$log.txt")
				IFS=, read -r _ q _ _ _ d _ <<<"$(sed 's/.*stats=\([^ ]*\).*/\1/' <<<"$kmon")"
				want=$(sed -n 's/.*expected_inflight=\([0-9]*\).*/\1/p' <<<"$kmon")
				out=$(awk '$0 == "@@OUT kmon" { p = 1; next } /^@@OUT-END/ { p = 0 } p' "$log.txt")
				read -r sq ss sd mp mf <<<"$(awk '$1 == "wqprobe" { q += $2; s += $3; d += $4; if ($5 > p) p = $5; if ($6 > f) f = $6 }
					END { print q + 0, s + 0, d + 0, p + 0, f + 0 }' <<<"$out")"
				[ -n "$q" ] && [ "$sq" = "$q" ] && [ "$ss" = "$q" ] && [ "$sd" = "$d" ] && [ "$d" = "$q" ] && [ "$mf" = "$want" ] &&
					ok "$tag: monitor --backend counters: QUEUED $sq, STARTED $ss, DONE $sd = the probe's $q items; most in flight $mf = explain's $want" ||
					notok "$tag: monitor --backend counters: QUEUED, STARTED, DONE = the probe's items; most in flight = explain's" \
						"$kmon" "sums: queued $sq started $ss done $sd pending max $mp inflight max $mf" "$(tail -3 <<<"$out")"
			fi
		fi
		# the counters only the kernel keeps (CPU time, CPU-intensive, CM wake-ups) against the probe's per-CPU items
		if grep -q '^@@KSTAT ' "$log.txt"; then
			"$here/kstattruth.sh" "$log.txt" "$tag" "$n" >"$cache/kstat.tap"
			cat "$cache/kstat.tap"
			n=$((n + $(grep -c '^\(not \)\?ok ' "$cache/kstat.tap")))
		fi
		# experiment against the probe's known timing and fio's own reports
		if grep -q '^@@EXP ' "$log.txt"; then
			"$here/exptruth.sh" "$log.txt" "$tag" "$n" >"$cache/exp.tap"
			cat "$cache/exp.tap"
			n=$((n + $(grep -c '^\(not \)\?ok ' "$cache/exp.tap")))
		fi
	done
done

iso=12-13
for krel in $(echo "${!KDIR[@]}" | tr ' ' '\n' | sort -V); do
	# --- CPU isolation (issue 17): 6.12, 7.3 and 7.3 PREEMPT_RT booted with CPUs 12-13 isolated
	case ${ERA[$krel]} in C | X | R) ;; *) continue ;; esac
	boot_truth "$krel even isolcpus=$iso nohz_full=$iso" isolation \
		"wqvm.mode=isolation wqvm.iso=$iso isolcpus=$iso nohz_full=$iso" isotruth.sh "$iso"
	# --- the boot root mask by version: nohz_full= on 12-13 and isolcpus= on 10-11 (7.0 keeps
	# the nohz_full CPUs in it, 6.12 does not; both keep the isolcpus ones out) against wqctl's
	# prediction; then a cpuset isolated partition of 8-9 made at run time
	case ${ERA[$krel]} in C | X) ;; *) continue ;; esac
	boot_truth "$krel even nohz_full=12-13 isolcpus=10-11" rootmask \
		"wqvm.mode=rootmask wqvm.part=8-9 nohz_full=12-13 isolcpus=10-11" roottruth.sh "$krel"
done

{
	echo "| kernel | layout | probe rows | agreed |"
	echo "|---|---|---|---|"
	cat "$report.rows" 2>/dev/null
} >"$report"
rm -f "$report.rows"
echo "# table for the README: $report"
