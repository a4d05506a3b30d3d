# Shared set-up for the CLI tests: fixture trees are built once per file
# (pristine) and copied for each test, so every test starts clean.
bats_load_library bats-support
bats_load_library bats-assert

: "${WQCTL:?set WQCTL to the wqctl binary}"
: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
MKTREE="$TOP/tests/fixtures/mktree.sh"

# pristine DUMP KERNEL -> path of a pristine tree (built once per file)
pristine() {
	local key="${1//[:\/]/_}-$2" dir
	dir="$BATS_FILE_TMPDIR/pristine-$key"
	if [ ! -d "$dir" ] && ! "$MKTREE" "$1" "$2" "$dir" >&2; then
		rm -rf "$dir"
		return 1
	fi
	echo "$dir"
}

# use_tree DUMP KERNEL: $ROOT is a fresh copy for this test
use_tree() {
	local p
	p=$(pristine "$1" "$2") || { echo "use_tree: cannot build the $1 $2 fixture" >&2; return 1; }
	ROOT="$BATS_TEST_TMPDIR/root"
	rm -rf "$ROOT"
	cp -a "$p" "$ROOT"
}

wq() { "$WQCTL" --sysroot "$ROOT" "$@"; }

WQDIR() { echo "$ROOT/sys/devices/virtual/workqueue"; }

# checksum of everything wqctl may write
tree_sum() {
	(cd "$ROOT/sys" && find devices/virtual/workqueue module -type f -print0 | sort -z | xargs -0 md5sum)
}

# shellcheck source=../fixtures/cpulist.sh
. "$TOP/tests/fixtures/cpulist.sh"
