#!/bin/bash
# Fetch Debian's own kernels and headers for the VM tier, unpacked (never
# installed on the host) into a cache keyed by the kernel release:
#   kernels.sh CACHEDIR            prints one line per kernel: TAG KREL DIR
# Tags: A bookworm's 6.1 (max_active era A), C bookworm-backports' 6.12 (era
# C), L trixie-backports' 6.18 LTS, X trixie-backports' 7.3, R its PREEMPT_RT
# flavour (all era C). L comes without headers (none are published for it):
# its DIR has no build/ and the tier boots it without the probe. X and R were
# built with gcc-14, which bookworm lacks: CACHEDIR/trixie-root is a trixie
# chroot (mmdebstrap) holding gcc-14 and their headers, for the probe module.
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

# trixie and trixie-backports for 6.18 and 7.x, pinned at 1 so that nothing on
# the host is ever installed or upgraded from them (apt-get download only)
ensure_trixie() {
	local src=/etc/apt/sources.list.d/debian.sources f=/etc/apt/sources.list.d/wqctl-trixie.sources uri key
	local pin=/etc/apt/preferences.d/wqctl-trixie
	if [ ! -f "$f" ]; then
		[ "$(id -u)" = 0 ] || die "trixie-backports is not in the apt sources; run as root to add it"
		uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' "$src" 2>/dev/null)
		key=$(awk '/^Signed-By:/ { print $2; exit }' "$src" 2>/dev/null)
		[ -n "$uri" ] || die "$src: no URIs: line to copy for trixie-backports"
		printf 'Package: *\nPin: release n=trixie\nPin-Priority: 1\n\nPackage: *\nPin: release n=trixie-backports\nPin-Priority: 1\n' >"$pin"
		printf 'Types: deb\nURIs: %s\nSuites: trixie trixie-backports\nComponents: main\nSigned-By: %s\n' \
			"$uri" "${key:-/usr/share/keyrings/debian-archive-keyring.gpg}" >"$f"
		apt-get update -qq || die "apt-get update failed"
	fi
}

# Every reader in a pipeline below reads to the end: under pipefail a reader
# that stops early (head -1, awk's exit) kills the writer with SIGPIPE where
# SIGPIPE is at its default, as in any terminal (issue 60 item 12).

# dep PKG VERSION PATTERN -> the first dependency of PKG=VERSION matching PATTERN
dep() {
	apt-cache show "$1=$2" 2>/dev/null | sed -n 's/^Depends: //p' | sed -n 1p | tr ',|' '\n\n' |
		sed 's/^ *//; s/ .*//' | grep -E "$3" | sed -n 1p
}

# version of linux-image-amd64 in the suite whose version starts with $1
meta_version() {
	# bookworm's suites only (trixie's 6.12 was built with gcc-14)
	apt-cache madison linux-image-amd64 | awk -F'|' -v p="$1" '$3 !~ /trixie/ { gsub(/ /, "", $2) }
		!found && $3 !~ /trixie/ && index($2, p) == 1 { print $2; found = 1 }'
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

# the newest KREL of the packages PREFIX<version>+debN-FLAVOUR (not -cloud-, -rt- unless asked)
newest_krel() { # prefix flavour
	apt-cache pkgnames "$1" | sed -n "s/^$1\([0-9][0-9.]*+deb[0-9]*-$2\)$/\1/p" | sort -V | tail -1
}

# download PKGS into DIR (unpacked), once
unpack() { # dir krel pkgs...
	local dir=$1 krel=$2 p
	shift 2
	rm -rf "$dir" "$cache/debs-$krel"
	mkdir -p "$dir" "$cache/debs-$krel"
	(cd "$cache/debs-$krel" && apt-get download -q -o APT::Sandbox::User=root "$@" >/dev/null) ||
		die "apt-get download $* failed"
	for p in "$cache/debs-$krel"/*.deb; do
		dpkg -x "$p" "$dir" || die "dpkg -x $p failed"
	done
	rm -rf "$cache/debs-$krel"
	# 7.x and 6.18 live below usr/ (merged /usr): the tier looks for lib/modules and boot/
	[ -e "$dir/lib" ] || ln -s usr/lib "$dir/lib"
}

# the trixie chroot that builds modules for gcc-14 kernels (once; about 50 s and 350 MB)
ensure_chroot() {
	local root=$cache/trixie-root uri
	[ -f "$root/.complete" ] && return 0
	command -v mmdebstrap >/dev/null || die "mmdebstrap is not installed (make deps)"
	uri=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
	rm -rf "$root"
	mmdebstrap -q --variant=minbase --include=gcc-14,make,libc6-dev,dwarves,bc trixie "$root" \
		"${uri:-http://deb.debian.org/debian}" >"$cache/mmdebstrap.log" 2>&1 ||
		die "mmdebstrap trixie failed: $(tail -3 "$cache/mmdebstrap.log")"
	touch "$root/.complete"
}

# 7.x: the kernel, its modules and base files, the headers with the kbuild
# tree they point to; the headers are also copied into the chroot, where
# their absolute paths hold
fetch7() { # tag series flavour
	local tag=$1 series=$2 flavour=$3 krel dir abi
	krel=$(newest_krel linux-binary-unsigned- "$flavour")
	case $krel in "$series".*) ;; *) die "no linux-binary-unsigned-$series.*-$flavour in the apt sources (found '${krel:-none}')" ;; esac
	dir=$cache/$krel
	if [ ! -f "$dir/.complete" ]; then
		abi=${krel%-"$flavour"}
		unpack "$dir" "$krel" "linux-binary-unsigned-$krel" "linux-modules-$krel" "linux-base-$krel" \
			"linux-headers-$krel" "linux-headers-$abi-common" "linux-kbuild-$abi"
		[ -f "$dir/usr/lib/modules/$krel/vmlinuz.unsigned" ] || die "$krel: no vmlinuz.unsigned in the package"
		mkdir -p "$dir/boot"
		ln -sfn "../usr/lib/modules/$krel/vmlinuz.unsigned" "$dir/boot/vmlinuz-$krel"
		# the tier builds its modules in CACHEDIR/trixie-root
		echo chroot >"$dir/.builder"
		touch "$dir/.complete"
	fi
	ensure_chroot
	abi=${krel%-"$flavour"}
	[ -d "$cache/trixie-root/usr/src/linux-headers-$krel" ] ||
		cp -a "$dir/usr/src/linux-headers-$krel" "$cache/trixie-root/usr/src/"
	[ -d "$cache/trixie-root/usr/src/linux-headers-$abi-common" ] ||
		cp -a "$dir/usr/src/linux-headers-$abi-common" "$cache/trixie-root/usr/src/"
	[ -d "$cache/trixie-root/usr/lib/linux-kbuild-$abi" ] ||
		cp -a "$dir/usr/lib/linux-kbuild-$abi" "$cache/trixie-root/usr/lib/"
	echo "$tag $krel $dir"
}

# 6.18 LTS: a versioned image package (kernel and modules in one), no headers
fetch_lts() { # tag series
	local tag=$1 series=$2 krel dir
	krel=$(apt-cache pkgnames "linux-image-$series." | sed -n "s/^linux-image-\($series\.[0-9]*+deb[0-9]*-amd64\)$/\1/p" |
		sort -V | tail -1)
	[ -n "$krel" ] || die "no linux-image-$series.*-amd64 in the apt sources"
	dir=$cache/$krel
	if [ ! -f "$dir/.complete" ]; then
		unpack "$dir" "$krel" "linux-image-$krel"
		[ -f "$dir/boot/vmlinuz-$krel" ] || die "$krel: no vmlinuz in the package"
		touch "$dir/.complete"
	fi
	echo "$tag $krel $dir"
}

ensure_backports
fetch A 6.1
fetch C 6.12
wanted=${VM_KERNELS:-A C L X R}
case " $wanted " in *" L "* | *" X "* | *" R "*) ensure_trixie ;; esac
case " $wanted " in *" L "*) fetch_lts L 6.18 ;; esac
case " $wanted " in *" X "*) fetch7 X 7.3 amd64 ;; esac
case " $wanted " in *" R "*) fetch7 R 7.3 rt-amd64 ;; esac
