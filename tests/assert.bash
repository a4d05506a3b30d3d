# shellcheck shell=bash
# bats-support and bats-assert for every bats file, loaded without forks.
# bats_load_library (and the libraries' own load.bash, a $(dirname) per file)
# forked some 30 times per test, and bats loads a file's libraries again for
# each test: 130 ms a test on the 2-core VM, 72 s of the CLI tier
# (2026-12-05). The libraries' src/*.bash only define functions, so their
# order does not matter.
for _lib in bats-support bats-assert; do
	_found=
	for _dir in ${BATS_LIB_PATH//:/ } /usr/lib/bats /usr/local/lib/bats; do
		[ -f "$_dir/$_lib/load.bash" ] || continue
		for _f in "$_dir/$_lib"/src/*.bash; do
			# shellcheck disable=SC1090
			source "$_f"
		done
		_found=1
		break
	done
	[ -n "$_found" ] || bats_load_library "$_lib" # not where Debian puts it: bats finds it, or says why
done
unset _lib _dir _f _found
