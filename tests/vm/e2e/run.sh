#!/bin/bash
# The end-to-end tier (issue 12), so far: the installed .deb in a Debian
# guest booted with systemd as PID 1 on Debian's 6.12 kernel, 4 nodes x 4
# CPUs under TCG; an active profile set in the image is applied by the
# shipped wqctl.service at boot. Prints TAP.
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
# shellcheck source=/dev/null
source <(sed -n '/^declare -A SMP/,/^}$/p' "$here/../run.sh")

if ! kernels=$("$here/../kernels.sh" "${VM_CACHE:-$top/build/vm}/kernels" 2>"$cache/kernels.err"); then
	notok "fetch Debian's kernels" "$(tail -3 "$cache/kernels.err")"
	exit 1
fi
read -r _ krel kdir < <(awk '$1 == "C"' <<<"$kernels")
[ -f "$kdir/lib/modules/$krel/modules.dep" ] || depmod -b "$kdir" "$krel"

start=$(date +%s)
if img=$("$here/image.sh" "$deb" "$krel" "$kdir" "$cache" 2>"$cache/image.err"); then
	ok "root image for $krel: mmdebstrap bookworm + the .deb ($(($(date +%s) - start)) s, cached as $(basename "$img"))"
else
	notok "root image for $krel" "$(tail -5 "$cache/image.err")"
	exit 1
fi
"$here/initramfs.sh" "$krel" "$kdir" "$cache/initrd.cpio.gz" || { notok "initramfs"; exit 1; }

log=$cache/boot-$krel.log
start=$(date +%s)
# -snapshot: the boot's writes go to a temporary overlay, the cached image stays as built
# shellcheck disable=SC2046
timeout 600 qemu-system-x86_64 -machine q35 -accel tcg,thread=single -cpu max -m 2G -smp "${SMP[even]}" \
	$(numa_args even | sed 's/size=256M/size=512M/g') \
	-kernel "$kdir/boot/vmlinuz-$krel" -initrd "$cache/initrd.cpio.gz" \
	-append "console=ttyS0 panic=-1 loglevel=4 systemd.show_status=0" \
	-drive "file=$img,format=raw,if=virtio,snapshot=on" \
	-display none -serial "file:$log" -monitor none -no-reboot </dev/null >"$log.qemu" 2>&1
secs=$(($(date +%s) - start))
tr -d '\r' <"$log" >"$log.txt"
line() { sed -n "s/^@@$1 //p" "$log.txt" | head -1; }
if ! grep -q '^@@E2E-END' "$log.txt"; then
	notok "systemd boot reaches the checks" "$(grep -v '^@@' "$log.txt" | tail -8 | cut -c1-160)"
	exit 1
fi
ok "systemd boot of $krel, 16 vCPUs in 4 nodes: checks ran at uptime $(line E2E-UP | awk '{ print $2 }') s ($secs s wall); $(line ANALYZE)"
[ "$(line STATE)" = running ] && ok "boot finished, no failed unit (system state running)" ||
	notok "boot finished, no failed unit (system state running)" "$(line STATE)" "failed: $(line FAILED)"
[ "$(line ACTIVE | awk '{ print $NF }')" = e2e-boot ] && ok "the active profile set in the image: e2e-boot" ||
	notok "the active profile set in the image: e2e-boot" "$(line ACTIVE)"
[ "$(line VERIFY)" = rc=0 ] && ok "wqctl verify after boot exits 0" ||
	notok "wqctl verify after boot exits 0" "$(line VERIFY)" "$(sed -n 's/^@@VERIFY-OUT //p' "$log.txt" | head -8)"
unit=$(line UNIT)
for want in ActiveState=active Result=success ExecMainStatus=0 NRestarts=0; do
	[[ " $unit " == *" $want "* ]] && ok "wqctl.service $want" || notok "wqctl.service $want" "$unit"
done
[ "$(line UNIT-RUNS)" = 1 ] && ok "wqctl.service ran once this boot" || notok "wqctl.service ran once this boot" "$(line UNIT-RUNS) start/finish lines"
bad=$(sed -n 's/^@@VERIFY-OUT //p' "$log.txt" | awk 'NR > 1 && $2 != "ok"')
[ -z "$bad" ] && ok "every setting verifies ok" || notok "every setting verifies ok" "$bad"
# e2e-boot.conf: default_affinity_scope, writeback max_active and nice, each unlike the kernel's default
summary=$(line JOURNAL)
[ "$summary" = "boot: profiles e2e-boot: 3 settings, 3 written, 0 already set" ] &&
	ok "the journal holds wqctl's summary: $summary" || notok "the journal holds wqctl's summary" "${summary:-none}"
blame=$(line BLAME)
[ -n "$blame" ] && ok "systemd-analyze blame: $blame" || notok "systemd-analyze blame lists wqctl.service"
