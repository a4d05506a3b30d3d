#!/bin/bash
# Copy the trees the VM tier captured inside real guests (wqctl dump, byte
# for byte) into tests/fixtures/real/, as debian-MAJOR.MINOR-LAYOUT[-KIND].
# Run by hand after `make check-vm` when the kernels or the dump change.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${VM_CACHE:-$top/build/vm}
out=$top/tests/fixtures/real
mkdir -p "$out"
for d in "$cache"/dump-*; do
	[ -f "$d/proc/sys/kernel/osrelease" ] || continue
	base=${d##*/dump-}                      # KREL-LAYOUT[-KIND]
	krel=$(cat "$d/proc/sys/kernel/osrelease")
	rest=${base#"$krel"-}
	series=$(echo "$krel" | cut -d. -f1-2)
	series=${series%%-*}
	name=debian-$series-$(echo "$rest" | tr 'A-Z' 'a-z')
	# one directory named as the archive, so that unpacking it anywhere spills nothing
	tar -C "$d" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --transform "s|^\./|$name/|;s|^\.\$|$name|" \
		-czf "$out/$name.tar.gz" .
	echo "$out/$name.tar.gz ($krel)"
done
