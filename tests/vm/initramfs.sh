#!/bin/bash
# Build the guest's initramfs: busybox-static, wqctl with the libraries it
# links and dlopen()s, the probe module, and the guest script as /guest.sh.
#   initramfs.sh WQCTL PROBE_KO|- GUEST_SH OUT.cpio.gz [EXTRA_FILE...]
# Extra files (or directories) land in the guest's root under their base name.
set -euo pipefail
trap 'echo "initramfs.sh: failed at line $LINENO" >&2' ERR
wqctl=$1 ko=$2 guest=$3 out=$4
shift 4
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/sbin,lib,lib64,proc,sys,dev,run,tmp,etc,var/tmp}
cp /bin/busybox "$root/bin/busybox"
cp "$wqctl" "$root/usr/sbin/wqctl"
# "-": a kernel without headers, booted without the probe
[ "$ko" = - ] || cp "$ko" "$root/wqprobe.ko"
cp "$guest" "$root/guest.sh"
for f in "$@"; do cp -r "$f" "$root/"; done

# the libraries wqctl links plus the ones it dlopen()s (src/lib/util/dl.c,
# the one loader), each with what it links in turn
sonames=$(sed -n 's/^#define SO_[A-Z_]* "\(lib[^"]*\)"$/\1/p' "$(dirname "$0")/../../src/lib/util/dl.c")
# (awk reads to the end: an early exit would kill ldconfig with SIGPIPE, and
# pipefail would turn that into a silent failure)
cache=$(ldconfig -p)
libs=$(for s in $sonames; do awk -v s="$s" '$1 == s && /x86-64/ && !n++ { print $NF }' <<<"$cache"; done)
[ "$(echo "$libs" | wc -w)" -eq "$(echo "$sonames" | wc -w)" ] || { echo "initramfs: missing one of: $sonames" >&2; exit 1; }
for f in "$wqctl" $libs; do
	echo "$f"
	ldd "$f" | awk '/=> \// { print $3 } /^\t\/lib64\// { print $1 }'
done | sort -u | while read -r lib; do
	[ -f "$lib" ] || continue
	case $lib in *ld-linux*) cp -L "$lib" "$root/lib64/" ;; esac
	[ "$lib" = "$wqctl" ] || cp -L "$lib" "$root/lib/"
done

cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
mount -t tmpfs run /run
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
export PATH=/bin:/sbin:/usr/sbin LD_LIBRARY_PATH=/lib COLUMNS=160 HOME=/tmp
echo "@@BOOTED $(uname -r) uptime $(cut -d' ' -f1 /proc/uptime)"
sh /guest.sh
echo "@@END rc=$? uptime $(cut -d' ' -f1 /proc/uptime)"
poweroff -f
INIT
chmod +x "$root/init" "$root/guest.sh"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
