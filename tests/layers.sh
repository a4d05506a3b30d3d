#!/bin/bash
# The module graph of src/lib, from its #include lines.
#   tests/layers.sh edges [DIR]    "MODULE DEPENDENCY" per include (X.c and X.h are module X)
#   tests/layers.sh check [DIR]    exit 1, naming the modules, when the includes form a circle
#                                  or a library file includes a file outside src/lib
#   tests/layers.sh layers [DIR]   the modules by layer: 0 depends on nothing, N on layers below N
# DIR defaults to this checkout's src/lib.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-check}
dir=${2:-$top/src/lib}

edges() {
	local f m dep
	for f in "$dir"/*.[ch]; do
		m=$(basename "$f")
		m=${m%.[ch]}
		echo "$m $m" # every module is a node, even one without includes
		while read -r dep; do
			dep=${dep%.h}
			[ "$dep" = "$m" ] || echo "$m $dep"
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	done | sort -u
}

case $cmd in
edges) edges ;;
check)
	rc=0
	if out=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' "$dir"/*.[ch]); then
		echo "src/lib includes a file outside itself (the library sits below the command line):"
		echo "$out"
		rc=1
	fi
	if ! out=$(edges | tsort 2>&1 >/dev/null) || [ -n "$out" ]; then
		echo "src/lib's includes form a circle; its modules:"
		echo "$out" | sed -n 's/^tsort: \([a-z0-9_]*\)$/  \1/p'
		rc=1
	fi
	exit $rc
	;;
layers)
	# a module's layer: one above the highest of its dependencies
	edges | awk '
		{ if ($1 != $2) dep[$1] = dep[$1] " " $2; node[$1] = 1; node[$2] = 1 }
		function layer(m,   n, d, i, l, best) {
			if (m in memo) return memo[m]
			if (seen[m]++) return -1000 # a circle: check says which
			best = 0
			n = split(dep[m], d, " ")
			for (i = 1; i <= n; i++) { l = layer(d[i]) + 1; if (l > best) best = l }
			return memo[m] = best
		}
		END { for (m in node) print layer(m), m }' | sort -k1,1nr -k2,2 |
		awk '$1 != l { if (NR > 1) print ""; printf "%2d ", $1; l = $1 } { printf " %s", $2 } END { print "" }'
	;;
*) echo "usage: $0 edges|check|layers [DIR]" >&2; exit 2 ;;
esac
