#!/bin/bash
# Fetch Debian's own kernels and headers for the VM tier, unpacked (never
# installed on the host) into a cache keyed by the kernel release:
#   kernels.sh CACHEDIR            prints one line per kernel: ERA KREL DIR
# Era A is bookworm's 6.1, era C bookworm-backports' 6.12 (../shared/VM.md).
# The ABI names are resolved with apt-cache at run time, so a new upload is
# picked up; a kernel that cannot be fetched is an error, not a skip.
set -euo pipefail
cache=${1:?usage: kernels.sh CACHEDIR}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

die() { echo "kernels.sh: $*" >&2; exit 1; }

# bookworm-backports is served by the same archive as bookworm but is not in
# the default sources: add it beside the existing entry (priority 100, so
# nothing on the host is upgraded from it).
ensure_backports() {
	local src=/etc/apt/sources.list.d/debian.sources f=/etc/apt/sources.list.d/wqctl-backports.sources uri key
	grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/ && return 0
	[ "$(id -u)" = 0 ] || die "bookworm-backports is not in the apt sources; run as root to add it"
	uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' "$src" 2>/dev/null)
	key=$(awk '/^Signed-By:/ { print $2; exit }' "$src" 2>/dev/null)
	[ -n "$uri" ] || die "$src: no URIs: line to copy for bookworm-backports"
	printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: %s\n' \
		"$uri" "${key:-/usr/share/keyrings/debian-archive-keyring.gpg}" >"$f"
	apt-get update -qq || die "apt-get update failed"
}

# dep PKG VERSION PATTERN -> the first dependency of PKG=VERSION matching PATTERN
dep() {
	apt-cache show "$1=$2" 2>/dev/null | sed -n 's/^Depends: //p' | head -1 | tr ',|' '\n\n' |
		sed 's/^ *//; s/ .*//' | grep -E "$3" | head -1
}

# version of linux-image-amd64 in the suite whose version starts with $1
meta_version() {
	apt-cache madison linux-image-amd64 | awk -F'|' -v p="$1" '{ gsub(/ /, "", $2) } index($2, p) == 1 { print $2; exit }'
}

fetch() { # era major.minor
	local era=$1 series=$2 ver img krel hdr common kbuild dir pkgs p
	ver=$(meta_version "$series.")
	if [ -z "$ver" ]; then
		apt-get update -qq || true
		ver=$(meta_version "$series.")
	fi
	[ -n "$ver" ] || die "no linux-image-amd64 $series.* in the apt sources"
	img=$(dep linux-image-amd64 "$ver" '^linux-image-')
	[ -n "$img" ] || die "linux-image-amd64=$ver: no linux-image dependency"
	krel=${img#linux-image-}
	dir=$cache/$krel
	if [ -f "$dir/.complete" ]; then
		echo "$era $krel $dir"
		return 0
	fi
	hdr=linux-headers-$krel
	common=$(dep "$hdr" "$ver" '^linux-headers-.*-common$')
	kbuild=$(dep "$hdr" "$ver" '^linux-kbuild-')
	pkgs="$img $hdr $common $kbuild"
	p=$(dep "$hdr" "$ver" '^linux-compiler-') && [ -n "$p" ] && pkgs="$pkgs $p"
	rm -rf "$dir" "$cache/debs-$krel"
	mkdir -p "$dir" "$cache/debs-$krel"
	(cd "$cache/debs-$krel" && apt-get download -q -o APT::Sandbox::User=root $pkgs >/dev/null) || die "apt-get download $pkgs failed"
	for p in "$cache/debs-$krel"/*.deb; do
		dpkg -x "$p" "$dir" || die "dpkg -x $p failed"
	done
	rm -rf "$cache/debs-$krel"
	[ -f "$dir/boot/vmlinuz-$krel" ] || die "$krel: no vmlinuz in the package"
	# The headers' Makefile includes the -common tree by absolute path.
	sed -i "s|/usr/src/|$dir/usr/src/|g" "$dir/usr/src/linux-headers-$krel/Makefile"
	ln -sfn "$dir/usr/src/linux-headers-$krel" "$dir/build"
	echo "$ver" >"$dir/.version"
	touch "$dir/.complete"
	echo "$era $krel $dir"
}

ensure_backports
fetch A 6.1
fetch C 6.12
