# Shared set-up for the CLI tests: fixture trees are built once per file
# (pristine) and copied for each test, so every test starts clean.
# shellcheck source=../assert.bash
source "${BASH_SOURCE[0]%/*}/../assert.bash"

: "${WQCTL:?set WQCTL to the wqctl binary}"
: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
MKTREE="$TOP/tests/fixtures/mktree.sh"

# Forks are what these helpers cost: a subshell of a bats test takes some
# 18 ms on the 2-core VM (2026-12-05), so they use builtins where they can.

# pristine DUMP KERNEL [owners]: $PRISTINE is the path of a pristine tree (built
# once per file); with "owners", mkowners.sh's dm-crypt, SCSI and iSCSI devices added
pristine() {
	local key="${1//[:\/]/_}-$2${3:+-$3}"
	PRISTINE="$BATS_FILE_TMPDIR/pristine-$key"
	if [ ! -d "$PRISTINE" ] && ! { "$MKTREE" "$1" "$2" "$PRISTINE" >&2 &&
		{ [ "${3:-}" != owners ] || "$TOP/tests/fixtures/mkowners.sh" "$PRISTINE"; }; }; then
		rm -rf "$PRISTINE"
		return 1
	fi
}

# use_tree DUMP KERNEL [owners]: $ROOT is a fresh copy of the pristine tree for this test.
# As root the copy is an overlay mount (copy-on-write: a test may write, chmod
# or delete anything and the pristine tree stays as built): 10 ms of mount
# against 200 ms for cp -a of a 2,700-file tree, which was most of the CLI
# tier's time. WQ_TEST_COPY=cp, a kernel without overlayfs, or no root: cp -a.
use_tree() {
	pristine "$1" "$2" "${3:-}" || { echo "use_tree: cannot build the $1 $2 fixture" >&2; return 1; }
	drop_tree
	ROOT="$BATS_TEST_TMPDIR/root"
	[ ! -e "$ROOT" ] || rm -rf "$ROOT"
	if [ "${WQ_TEST_COPY:-overlay}" = overlay ] && [ "$EUID" = 0 ]; then
		# a fresh upper layer for each tree of the test
		OVERLAY_N=$((${OVERLAY_N:-0} + 1))
		OVERLAY_UPPER=$BATS_TEST_TMPDIR/ov$OVERLAY_N.upper
		mkdir -p "$ROOT" "$OVERLAY_UPPER" "$BATS_TEST_TMPDIR/ov$OVERLAY_N.work"
		if mount -t overlay wqctl-test -o "lowerdir=$PRISTINE,upperdir=$OVERLAY_UPPER,workdir=$BATS_TEST_TMPDIR/ov$OVERLAY_N.work" "$ROOT" 2>/dev/null; then
			OVERLAY_ROOT=$ROOT OVERLAY_LOWER=$PRISTINE
			return 0
		fi
		rmdir "$ROOT"
	fi
	cp -a "$PRISTINE" "$ROOT"
}

# drop_tree: unmount this test's overlay, if any (before the next use_tree, at teardown)
drop_tree() {
	[ -n "${OVERLAY_ROOT:-}" ] || return 0
	umount "$OVERLAY_ROOT" || umount -l "$OVERLAY_ROOT"
	OVERLAY_ROOT=
}

# A file's own teardown must call drop_tree (tests/meta checks it).
teardown() { drop_tree; }

wq() { "$WQCTL" --sysroot "$ROOT" "$@"; }

WQDIR() { echo "$ROOT/sys/devices/virtual/workqueue"; }

# checksum of everything wqctl may write. On an overlay tree where nothing
# under those directories was written, changed or removed (the upper layer has
# no entry there) it is the pristine tree's, summed once per file.
tree_sum() {
	local l
	if [ -n "${OVERLAY_ROOT:-}" ] && [ "$ROOT" = "$OVERLAY_ROOT" ] &&
		[ ! -e "$OVERLAY_UPPER/sys/devices/virtual/workqueue" ] && [ ! -e "$OVERLAY_UPPER/sys/module" ]; then
		[ -s "$OVERLAY_LOWER.sum" ] || sum_of "$OVERLAY_LOWER" >"$OVERLAY_LOWER.sum"
		while IFS= read -r l; do printf '%s\n' "$l"; done <"$OVERLAY_LOWER.sum"
		return
	fi
	sum_of "$ROOT"
}
sum_of() { (cd "$1/sys" && find devices/virtual/workqueue module -type f -print0 | sort -z | xargs -0 md5sum); }

# shellcheck source=../fixtures/cpulist.sh
. "$TOP/tests/fixtures/cpulist.sh"
