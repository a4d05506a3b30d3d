#!/bin/bash
# The module graph of the sources, from their #include lines.
#   tests/layers.sh edges [SRC]    "MODULE DEPENDENCY" per include; a module is FOLDER/NAME
#                                  (X.c and X.h are one module; lib/core/ctx, cli/main)
#   tests/layers.sh check [SRC]    exit 1, naming the modules, when the includes form a circle,
#                                  a folder includes one above it (lib/util < lib/core <
#                                  lib/obs < cli), the library includes a file outside itself,
#                                  or a command file calls another command file's functions
#   tests/layers.sh layers [SRC]   each folder's modules by layer, from the top folder down:
#                                  0 depends on nothing in its folder, N on layers below N
# SRC defaults to this checkout's src.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-check}
src=${2:-$top/src}
# the folders from the bottom up: each may include only its own and those before it
folders="lib/util lib/core lib/obs cli"

rank() {
	local i=0 f
	for f in $folders; do
		[ "$f" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 99 # not a folder of the drawing
}

edges() {
	local folder f m dep
	for folder in $folders; do
		for f in "$src/$folder"/*.[ch]; do
			[ -e "$f" ] || continue
			m=$(basename "$f")
			m=$folder/${m%.[ch]}
			echo "$m $m" # every module is a node, even one without includes
			while read -r dep; do
				dep=$(realpath -m --relative-to="$src" "$src/$folder/${dep%.h}")
				[ "$dep" = "$m" ] || echo "$m $dep"
			done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
		done
	done | sort -u
}

case $cmd in
edges) edges ;;
check)
	rc=0
	e=$(edges)
	if out=$(awk '$1 != $2' <<<"$e" | while read -r a b; do
		fa=${a%/*} fb=${b%/*}
		if [ "$(rank "$fb")" = 99 ]; then
			echo "  $a includes $b, outside the folders ($folders)"
		elif [ "$(rank "$fb")" -gt "$(rank "$fa")" ]; then
			echo "  $a includes $b: $fa sits below $fb"
		fi
	done) && [ -n "$out" ]; then
		echo "a folder includes one above it or outside the drawing (from the bottom: $folders):"
		echo "$out"
		rc=1
	fi
	if ! out=$(tsort <<<"$e" 2>&1 >/dev/null) || [ -n "$out" ]; then
		echo "the includes form a circle; its modules:"
		echo "$out" | sed -n 's/^tsort: \([a-z0-9_/]*\)$/  \1/p'
		rc=1
	fi
	# a command file's functions are its own: what two commands share lives in a helper module
	# (output, profiles, plan_out...) or in the library
	if [ -d "$src/cli" ]; then
		for f in "$src"/cli/cmd_*.c; do
			for fn in $(sed -n 's/^[a-z][a-z_ *]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' "$f"); do
				grep -q "^static .*\b$fn(" "$f" && continue
				for g in "$src"/cli/cmd_*.c; do
					[ "$g" = "$f" ] && continue
					if grep -q "\b$fn(" "$g"; then
						echo "$(basename "$g") calls $fn() of $(basename "$f"): a command file calls only its own functions and the helpers'"
						rc=1
					fi
				done
			done
		done
	fi
	exit $rc
	;;
layers)
	# a module's layer within its folder: one above the highest of its dependencies there
	e=$(edges)
	for folder in $(echo $folders | tr ' ' '\n' | tac); do
		echo "$folder"
		awk -v f="$folder/" 'index($1, f) == 1 && index($2, f) == 1' <<<"$e" | awk -v f="$folder/" '
			{ a = substr($1, length(f) + 1); b = substr($2, length(f) + 1)
			  if (a != b) dep[a] = dep[a] " " b; node[a] = 1; node[b] = 1 }
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
	done
	;;
*) echo "usage: $0 edges|check|layers [SRC]" >&2; exit 2 ;;
esac
