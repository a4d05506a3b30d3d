#!/bin/bash
# A small initramfs that loads what the root disk needs (virtio_pci, virtio_blk, ext4:
# modules in Debian's kernel; 6.12's are xz-compressed, so unpacked here for
# busybox's insmod) and hands over to systemd on the disk with serial e2e-root.
#   initramfs.sh KREL KDIR OUT.cpio.gz
set -euo pipefail
krel=$1 kdir=$2 out=$3
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,mod,proc,sys,dev,newroot}
cp /bin/busybox "$root/bin/"
order=""
for m in ext4 virtio_pci virtio_blk; do
	for f in $(/sbin/modprobe -d "$kdir" -S "$krel" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'); do
		b=$(basename "$f" .xz)
		[ -f "$root/mod/$b" ] && continue
		# 6.12's modules are xz-compressed, 6.1's are not
		case $f in *.xz) xz -dc "$f" >"$root/mod/$b" ;; *) cp "$f" "$root/mod/$b" ;; esac
		order+=" ${b%.ko}"
	done
done
cat >"$root/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
for m in$order; do insmod /mod/\$m.ko; done
# the root disk by its serial: the guest has other virtio disks on expander bridges
root=""
i=0
while [ -z "\$root" ] && [ \$i -lt 50 ]; do
	for b in /sys/block/vd*; do [ "\$(cat \$b/serial 2>/dev/null)" = e2e-root ] && root=/dev/\${b##*/}; done
	[ -n "\$root" ] || sleep 0.2
	i=\$((i + 1))
done
mount -t ext4 "\$root" /newroot || { echo "@@E2E-NOROOT"; poweroff -f; }
umount /proc /sys /dev
exec switch_root /newroot /lib/systemd/systemd
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
