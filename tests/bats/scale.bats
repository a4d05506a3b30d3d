#!/usr/bin/env bats
# Large trees from tests/fixtures/mkscale.sh (issue 15): the generator makes
# the machine and the mix it is asked for, and the figures wqctl prints for
# thousands of workqueues sharing a few models are the ones doc/kernel.md §4.3
# gives by hand (max_active split across nodes by online CPUs in the mask,
# each node at least min_active = min(8, max_active)).
load helpers

MKSCALE="$TOP/tests/fixtures/mkscale.sh"

# scale_tree ARGS...: $ROOT is a fresh tree made by mkscale.sh with ARGS
scale_tree() {
	ROOT="$BATS_TEST_TMPDIR/root"
	rm -rf "$ROOT"
	"$MKSCALE" "$@" "$ROOT"
}

# MAX_INFLIGHT of one workqueue in the full listing
inflight() { wq show -r -n -o NAME,MAX_INFLIGHT | awk -v n="$1" '$1 == n { print $2 }'; }

@test "mkscale: the machine asked for (nodes, CPUs, SMT, caches)" {
	scale_tree -c 512 -n 8 -t 2 -l 2 -w 200
	run wq topology -r -n -o SCOPE,CPUS
	assert_success
	assert_line "possible 0-511"
	assert_line "online 0-511"
	for n in 0 3 7; do
		run wq topology --scope numa -r -n -o CPUS
		assert_line "$((n * 64))-$((n * 64 + 63))"
	done
	# two last-level caches per node of 64 CPUs: 16 caches of 32
	run bash -c "'$WQCTL' --sysroot '$ROOT' topology --scope cache -r -n -o CPUS | wc -l"
	assert_output 16
	run wq topology --scope cache -r -n -o CPUS
	assert_line "480-511"
	# SMT 2: 256 cores
	run bash -c "'$WQCTL' --sysroot '$ROOT' topology --scope smt -r -n -o CPUS | wc -l"
	assert_output 256
}

@test "mkscale: the mix of workqueues (volumes, per node, per CPU, default)" {
	scale_tree -c 64 -n 4 -w 1000
	W=$(WQDIR)
	# 1,000 in all; 50 volumes (1000/20) with two workqueues each
	run bash -c "find '$W' -mindepth 1 -maxdepth 1 -type d ! -name power | wc -l"
	assert_output 1000
	run bash -c "ls '$W' | grep -c '^kcryptd-253:'"
	assert_output 50
	run bash -c "ls '$W' | grep -c '^kcryptd_io-253:'"
	assert_output 50
	# the rest (1000 - 3 base - 100) = 897: a tenth per node, a fifth per CPU
	run bash -c "ls '$W' | grep -c '^scale-node'"
	assert_output 89
	run bash -c "ls '$W' | grep -c '^scale-percpu-'"
	assert_output 179
	# a volume's owner is its dm device, on the node of its disk's PCI device (volume 6: node 6 mod 4)
	run wq owner kcryptd-253:6-1
	assert_success
	assert_line --partial "node:       2"
	assert_output --partial "DM_NAME=luks-vol6"
	# pinned workqueues hold their node's CPUs (node 1 of 4 x 16)
	run wq get scale-node1-1 cpumask
	assert_output "cpumask = 16-31"
	# per-CPU workqueues have no unbound attributes, as the kernel makes them
	[ ! -e "$W/scale-percpu-0/cpumask" ]
	[ "$(cat "$W/scale-percpu-0/per_cpu")" = 1 ]
}

@test "MAX_INFLIGHT on 512 CPUs in 8 nodes, 6.18: the split by hand" {
	scale_tree -c 512 -n 8 -w 200
	# default mask, max_active 1024: ceil(1024*64/512) = 128 per node, x 8
	[ "$(inflight scale-0)" = 1024 ]
	# max_active 16: ceil(16*64/512) = 2, raised to min_active 8, x 8
	[ "$(inflight scale-1)" = 64 ]
	# max_active 256: ceil(256*64/512) = 32, x 8
	[ "$(inflight scale-2)" = 256 ]
	# one node's CPUs, scope numa, max_active 16: every CPU's pod misses or is that node: 16
	[ "$(inflight scale-node5-5)" = 16 ]
	# per CPU, max_active 1024 on each of 512 CPUs
	[ "$(inflight scale-percpu-0)" = 524288 ]
}

@test "MAX_INFLIGHT on 8,192 CPUs in 32 nodes, 6.18: the split by hand" {
	scale_tree -c 8192 -n 32 -w 60
	# ceil(1024*256/8192) = 32 per node, x 32
	[ "$(inflight scale-0)" = 1024 ]
	# ceil(16*256/8192) = 1, raised to min_active 8, x 32
	[ "$(inflight scale-1)" = 256 ]
	# ceil(256*256/8192) = 8, x 32
	[ "$(inflight scale-2)" = 256 ]
	[ "$(inflight scale-node3-3)" = 16 ]
	run wq get scale-node3-3 cpumask
	assert_output "cpumask = 768-1023"
}

@test "MAX_INFLIGHT on 512 CPUs in 8 nodes, 6.1: per node pool" {
	scale_tree -c 512 -n 8 -w 200 -k 6.1.0
	# numa=1 and 8 nodes: 8 pools of max_active 256
	[ "$(inflight scale-0)" = 2048 ]
	[ "$(inflight scale-1)" = 128 ]
	# a mask inside one node gets no node pool of its own: the default pwq alone
	[ "$(inflight scale-node5-5)" = 16 ]
}

@test "a model shared by thousands is the one each workqueue gets alone" {
	scale_tree -c 256 -n 4 -w 400
	wq show -r -n -o NAME,MAX_INFLIGHT >"$BATS_TEST_TMPDIR/all"
	for n in scale-0 scale-1 scale-2 scale-node0-0 scale-node3-3 scale-percpu-7 kcryptd-253:4-1 writeback; do
		alone=$(wq show -r -n -o MAX_INFLIGHT "$n")
		in_all=$(awk -v n="$n" '$1 == n { print $2 }' "$BATS_TEST_TMPDIR/all")
		[ -n "$alone" ] && [ "$alone" = "$in_all" ] || { echo "$n: alone $alone, in the listing $in_all"; false; }
	done
	# explain agrees with the listing after other models were made in the same run
	run wq explain scale-node3-3
	assert_success
	assert_output --partial "16"
}

# figures_agree KERNEL: for a mix of workqueues, show's MAX_INFLIGHT (a model
# without notes or counter CPU sets) is the sum explain -J gives of the
# limits of the counters it lists, and its own max_inflight
figures_agree() {
	scale_tree -c 512 -n 8 -t 2 -l 2 -w 400 -k "$1"
	wq show -r -n -o NAME,MAX_INFLIGHT >"$BATS_TEST_TMPDIR/all"
	for n in scale-0 scale-1 scale-2 scale-node0-0 scale-node3-3 scale-node7-7 scale-percpu-7 kcryptd-253:4-1 \
		kcryptd_io-253:9-1 writeback; do
		in_all=$(awk -v n="$n" '$1 == n { print $2 }' "$BATS_TEST_TMPDIR/all")
		wq explain -J "$n" >"$BATS_TEST_TMPDIR/ex.json"
		read -r sum own < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(c["limit"] for c in d["nodes"]), d["max_inflight"])' "$BATS_TEST_TMPDIR/ex.json")
		[ -n "$in_all" ] && [ "$in_all" = "$own" ] && [ "$own" = "$sum" ] ||
			{ echo "$n ($1): show $in_all, explain $own, its counters $sum"; false; }
	done
}

@test "show's figures are explain's, with its counters summed: 6.18 (split across nodes)" {
	figures_agree 6.18.0
}

@test "show's figures are explain's, with its counters summed: 6.7 (per CPU) and 6.1 (per node pool)" {
	figures_agree 6.7.0
	figures_agree 6.1.0
}

@test "cpumask texts: 97 distinct masks, more than the 64 a run keeps, each listed as its own" {
	scale_tree -c 256 -n 4 -w 400
	W=$(WQDIR)
	# 200 workqueues of the default mask get CPU (7 i) mod 97 alone, in hex:
	# in name order the texts repeat, and come back after 64 others
	ls "$W" | grep '^scale-[0-9]*$' | while read -r n; do [ -e "$W/$n/cpumask" ] && echo "$n"; done |
		head -200 >"$BATS_TEST_TMPDIR/names"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/names")" = 200 ]
	python3 - "$W" "$BATS_TEST_TMPDIR/names" >"$BATS_TEST_TMPDIR/want" <<-'PY'
		import sys
		w, names = sys.argv[1], open(sys.argv[2]).read().split()
		for i, n in enumerate(names):
		    c = 7 * i % 97
		    words = [(1 << (c - 32 * k)) if 32 * k <= c < 32 * k + 32 else 0 for k in reversed(range(8))]
		    open(f"{w}/{n}/cpumask", "w").write(",".join("%08x" % x for x in words) + "\n")
		    print(n, c)
	PY
	wq show -r -n -o NAME,CPUS >"$BATS_TEST_TMPDIR/list"
	while read -r n c; do
		grep -qx "$n $c" "$BATS_TEST_TMPDIR/list" || { echo "$n: $(grep "^$n " "$BATS_TEST_TMPDIR/list"), want $c"; false; }
	done <"$BATS_TEST_TMPDIR/want"
	# the default mask of the others is still the whole machine
	grep -qx "writeback 0-255" "$BATS_TEST_TMPDIR/list"
	[ "$(grep -c ' 0-255$' "$BATS_TEST_TMPDIR/list")" -gt 50 ]
	# snapshot keeps each text (show keeps sets): every workqueue's mask the
	# same through that memo, the 200 above among them
	wq snapshot --all | awk '/^\[/ { n = "" } /^\[workqueue / { n = substr($2, 1, length($2) - 1) } n && /^cpumask = / { print n, $3 }' \
		>"$BATS_TEST_TMPDIR/snap"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/snap")" -gt 300 ]
	while read -r n c; do
		grep -qx "$n $c" "$BATS_TEST_TMPDIR/list" || { echo "$n: snapshot $c, show $(grep "^$n " "$BATS_TEST_TMPDIR/list")"; false; }
	done <"$BATS_TEST_TMPDIR/snap"
	while read -r n c; do grep -qx "$n $c" "$BATS_TEST_TMPDIR/snap"; done <"$BATS_TEST_TMPDIR/want"
}

@test "cpumask texts: the same CPUs at two widths and a malformed text between, each read as its own" {
	scale_tree -c 64 -n 4 -w 200
	W=$(WQDIR)
	# show and check keep a set per distinct mask, not its text: node 0's
	# CPUs at the kernel's width (64 bits) and at 32, text that is no mask,
	# node 1's, and back to each (scale-7 follows a text found again)
	printf '00000000,0000ffff\n' >"$W/scale-1/cpumask"
	printf '0000ffff\n' >"$W/scale-2/cpumask"
	printf 'x-y\n' >"$W/scale-3/cpumask"
	printf '00000000,0000ffff\n' >"$W/scale-4/cpumask"
	printf '00000000,ffff0000\n' >"$W/scale-5/cpumask"
	printf '00000000,0000ffff\n' >"$W/scale-6/cpumask"
	printf '00000000,ffff0000\n' >"$W/scale-7/cpumask"
	for args in "" "scale-1 scale-2 scale-3 scale-4 scale-5 scale-6 scale-7 scale-8"; do
		# shellcheck disable=SC2086 # the names, one word each
		run wq show -r -n -o NAME,CPUS $args
		assert_failure 1
		assert_line "scale-1 0-15"
		assert_line "scale-2 0-15"
		assert_line "scale-4 0-15"
		assert_line "scale-5 16-31"
		assert_line "scale-6 0-15"
		assert_line "scale-7 16-31"
		assert_line "scale-8 0-63"
		assert_line --partial "scale-3/cpumask: malformed value 'x-y'"
	done
	run wq get scale-2 cpumask
	assert_output "cpumask = 0-15"
}

@test "apply and verify of a profile on 1,000 workqueues: exact, glob and owner sections" {
	scale_tree -c 64 -n 4 -w 1000
	mkdir -p "$BATS_TEST_TMPDIR/p"
	cat >"$BATS_TEST_TMPDIR/p/big.conf" <<-'EOF'
		[workqueue scale-0]
		max_active = 16
		[workqueue scale-node2-*]
		max_active = 24
		[workqueue kcryptd-253:5-*]
		owner.DM_NAME = luks-vol5
		cpumask = local
		[workqueue kcryptd-*]
		owner.DM_UUID = CRYPT-LUKS2-*
		affinity_scope = numa
		[workqueue kcryptd-253:7-*]
		owner.DM_NAME = someone-else
		nice = -5
		[workqueue power]
		max_active = 1
	EOF
	run wq --profile-dir "$BATS_TEST_TMPDIR/p" apply --profile big
	# 'power' is a directory without max_active: not a workqueue, so [workqueue power] reaches nothing,
	# a warning: the rest is applied, exit 1 (wqctl.profile(5) CONDITIONS: absent)
	assert_equal "$status" 1
	assert_output --partial "[workqueue power]: skipped: no workqueue matches"
	W=$(WQDIR)
	[ "$(cat "$W/scale-0/max_active")" = 16 ]
	[ "$(cat "$W/scale-node2-2/max_active")" = 24 ]
	[ "$(cat "$W/scale-node2-86/max_active")" = 24 ]
	[ "$(cat "$W/scale-node1-1/max_active")" = 16 ]
	# volume 5's disk is on node 1 (5 mod 4): CPUs 16-31
	run wq get kcryptd-253:5-1 cpumask
	assert_output "cpumask = 16-31"
	[ "$(cat "$W/kcryptd-253:49-1/affinity_scope")" = numa ]
	# an owner that does not match: nothing written
	[ "$(cat "$W/kcryptd-253:7-1/nice")" = 0 ]
	run wq --profile-dir "$BATS_TEST_TMPDIR/p" verify --profile big
	# 'power' is a directory without max_active: not a workqueue, so the section reaches nothing
	assert_failure 3
	assert_output --partial "power"
	assert_output --partial "no workqueue matches"
	assert_output --partial "no workqueue with a matching owner"
	refute_output --partial "drift"
}

@test "min_active records: every workqueue a profile lowers, past 64 at once, each one found again" {
	scale_tree -c 64 -n 4 -w 1000
	W=$(WQDIR)
	P="$BATS_TEST_TMPDIR/p"
	mkdir -p "$P"
	printf '[workqueue scale-1*]\nmax_active = 3\n' >"$P/low.conf"
	printf '[workqueue scale-1*]\nmax_active = 16\n' >"$P/up.conf"
	run wq --profile-dir "$P" apply --profile low
	assert_success
	# the unbound workqueues the glob reaches, from the tree (per-CPU ones have no min_active)
	want=$(for d in "$W"/scale-1*/; do
		n=${d%/} n=${n##*/}
		[ "$(cat "$d/per_cpu")" = 0 ] && printf '%s\t3\n' "$n"
	done | sort)
	[ "$(wc -l <<<"$want")" -gt 64 ]
	assert_equal "$(cut -f1,3 "$ROOT/run/wqctl/min_active" | sort)" "$want"
	# raised again, each one still has min_active 3, wherever its line is in the file
	run wq --profile-dir "$P" apply --profile up
	assert_success
	run bash -c "'$WQCTL' --sysroot '$ROOT' check -r -n -o CODE,TARGET | awk '\$1 == \"min-active-lowered\" { print \$2 }' | sort"
	assert_equal "$output" "$(cut -f1 <<<"$want")"
	run wq explain "$(cut -f1 <<<"$want" | tail -1)"
	assert_line --regexp '^min_active: +3 '
}
