#!/bin/bash
# Types a README section as a newcomer would, and checks what it shows:
#   readme-session.sh README HEADING WQCTL TMPDIR
# Every ```console block of the section HEADING (a "#", "##" or "###" line): each "$ " line (with
# its "\" continuations) is run by bash in the README's directory, with
# `wqctl` the program WQCTL and every /tmp/ in it TMPDIR/; the lines after
# it, up to the next "$ " line or the block's end, are what it must print
# (standard output and error as a terminal shows them, blanks squeezed, TMPDIR/
# printed back as /tmp/). A line "..." stands for any lines. A command shown
# without output must print nothing. Commands outside console blocks (the
# ones for the real machine, in ```sh blocks) are not run.
# Prints each mismatch; exits 1 on any, 2 when the section has no command.
set -euo pipefail
readme=$1 heading=$2 wqctl=$3 tmp=$4
top=$(cd "$(dirname "$readme")" && pwd)
bin=$tmp/.readme-bin
mkdir -p "$bin"
ln -sf "$wqctl" "$bin/wqctl"

# records: C<TAB>COMMAND, O<TAB>LINE, E (a block's end)
records=$(awk -v h="$heading" '
	!fence && /^#+ / && substr($0, index($0, " ") + 1) == h { ins = 1; next }
	ins && /^```/ {
		if (!fence) { fence = 1; console = $0 == "```console" } else { fence = 0; if (console) print "E" }
		next
	}
	ins && !fence && /^#/ { exit }
	ins && fence && console {
		if (cont) {
			line = $0
			cont = sub(/\\$/, "", line)
			cmd = cmd " " line
			if (!cont) print "C\t" cmd
			next
		}
		if (substr($0, 1, 2) == "$ ") {
			cmd = substr($0, 3)
			if (sub(/\\$/, "", cmd)) { cont = 1; next }
			print "C\t" cmd
			next
		}
		print "O\t" $0
	}' "$readme")
[ -n "$(grep '^C' <<<"$records")" ] || { echo "readme: no command in section '$heading'" >&2; exit 2; }

fail=0 n=0 cmd=
: >"$tmp/.want"
check() { # the command in $cmd against the lines in $tmp/.want
	local got
	[ -n "$cmd" ] || return 0
	n=$((n + 1))
	got=$(cd "$top" && PATH="$bin:$PATH" bash -c "${cmd//\/tmp\//$tmp/}" 2>&1) || true
	got=${got//$tmp\//\/tmp\/}
	printf '%s\n' "$got" | tr -s ' ' | sed '${/^$/d}' >"$tmp/.got"
	tr -s ' ' <"$tmp/.want" >"$tmp/.want.s"
	# each wanted line in order, "..." any number of lines; nothing left over unless the last is "..."
	if ! awk 'NR == FNR { w[++nw] = $0; next }
		{ g[++ng] = $0 }
		END {
			i = 1; j = 1
			while (i <= nw) {
				if (w[i] == "...") {
					if (i == nw) exit 0
					while (j <= ng && g[j] != w[i + 1]) j++
					if (j > ng) { print "  missing: " w[i + 1]; exit 1 }
					i++
					continue
				}
				if (j > ng || g[j] != w[i]) { print "  want: " w[i]; print "  got:  " (j > ng ? "(nothing more)" : g[j]); exit 1 }
				i++; j++
			}
			if (j <= ng) { print "  more than the README shows: " g[j]; exit 1 }
		}' "$tmp/.want.s" "$tmp/.got" >"$tmp/.why"; then
		echo "readme: '$heading': \$ $cmd"
		cat "$tmp/.why"
		fail=$((fail + 1))
	fi
	cmd=
	: >"$tmp/.want"
}
while IFS= read -r rec; do
	case $rec in
	C$'\t'*) check; cmd=${rec#C$'\t'} ;;
	O$'\t'*) printf '%s\n' "${rec#O$'\t'}" >>"$tmp/.want" ;;
	E) check ;;
	esac
done <<<"$records"
check
echo "# '$heading': $n commands typed, $fail differ" >&2
[ "$fail" = 0 ]
