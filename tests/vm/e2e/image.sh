#!/bin/bash
# The booted guest's root file system (issue 12): Debian bookworm from
# mmdebstrap with systemd, udev and the storage tools (cryptsetup, dmsetup,
# open-iscsi; the iSCSI target is LIO through configfs), Debian's
# prometheus-node-exporter (started at boot as apt leaves it), the wqctl .deb
# installed by apt (so its dependencies come as a user's would), Debian's
# ansible-core with the collection tarball, the README's site.yml and the
# .deb itself under /usr/local/share/e2e (issue 46: the role run for real),
# the modules of every kernel it boots, and the e2e unit that runs guest.sh
# after boot. An ext4 image, cached under its key (package list, .deb, the
# collection's sources, kernels, these scripts).
#   image.sh DEB COLLECTION_TGZ CACHE_DIR KREL:KDIR...   prints the image path
set -euo pipefail
trap 'echo "image.sh: failed at line $LINENO" >&2' ERR
deb=$1 coll=$2 cache=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
pkgs=systemd,systemd-sysv,udev,dbus,kmod,iproute2,iputils-ping,cryptsetup-bin,dmsetup,open-iscsi,fio,prometheus-node-exporter,curl,ansible-core,python3-apt
# (the tarball's own bytes carry build times: the key takes the collection's sources)
key=$( (echo "$pkgs $*"; cat "$deb" "$here"/image.sh "$here"/guest.sh "$here"/e2e.service "$here"/e2e-*.conf
	find "$top/ansible" -type f | LC_ALL=C sort | xargs cat) | sha256sum | cut -c1-16)
img=$cache/root-$key.img
if [ -f "$img" ]; then echo "$img"; exit 0; fi
mkdir -p "$cache"
rm -f "$cache"/root-*.img
work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
mmdebstrap --quiet --variant=minbase --include="$pkgs" \
	--customize-hook="copy-in $deb /tmp" \
	--customize-hook="chroot \"\$1\" apt-get install -y -q /tmp/$(basename "$deb") >/dev/null" \
	--customize-hook="copy-in $here/guest.sh /usr/local/sbin" \
	--customize-hook='mkdir -p "$1/usr/local/share/e2e"' \
	--customize-hook="copy-in $deb $coll $top/ansible/examples/site.yml /usr/local/share/e2e" \
	--customize-hook="copy-in $here/e2e.service /etc/systemd/system" \
	--customize-hook='chroot "$1" systemctl enable e2e.service >/dev/null 2>&1' \
	--customize-hook='chroot "$1" systemctl mask serial-getty@ttyS0.service >/dev/null 2>&1' \
	--customize-hook='mkdir -p "$1/etc/wqctl/profiles"' \
	--customize-hook="copy-in $here/e2e-boot.conf $here/e2e-dev.conf /etc/wqctl/profiles" \
	--customize-hook='chroot "$1" wqctl profile use e2e-boot' \
	--customize-hook='echo e2e >"$1/etc/hostname"; echo "/dev/disk/by-id/virtio-e2e-root / ext4 defaults 0 1" >"$1/etc/fstab"' \
	bookworm "$work/root.tar"
mkdir "$work/root"
tar -xf "$work/root.tar" -C "$work/root"
mkdir -p "$work/root/lib/modules"
for kk in "$@"; do
	krel=${kk%%:*} kdir=${kk#*:}
	cp -a "$kdir/lib/modules/$krel" "$work/root/lib/modules/"
	rm -f "$work/root/lib/modules/$krel/build" "$work/root/lib/modules/$krel/source"
	depmod -b "$work/root" "$krel"
done
truncate -s 3G "$work/root.img"
mke2fs -q -t ext4 -d "$work/root" -F "$work/root.img"
mv "$work/root.img" "$img"
echo "$img"
