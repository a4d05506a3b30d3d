#!/bin/sh
# Runs inside the VM guest (busybox sh, as /guest.sh from /init). Prints
# lines tagged @@ on the serial console; tests/vm/run.sh on the host reads
# them and decides. Nothing here compares a figure with another: the host
# does, so a broken guest script cannot pass by itself.
#
#   @@DUMP <base64 of a tar.gz>  wqctl dump of this guest (real formats);
#                                @@DUMP-SET1, @@DUMP-CREATED1 with the probe
#                                workqueue created with 16 and set to 1, and
#                                created with 1
#   @@RAW <path> <base64>        a file exactly as the kernel prints it
#   @@STAT <line>                one /proc/PID/stat line, every task's
#   @@RC <rc> <command>          exit status of a wqctl command
#   @@OUT <command>              followed by its output, then @@OUT-END
#   @@ROW key=value ...          one probe measurement (see row())
#   @@MON key=value ...          monitor against the probe's counts
#   @@EXP key=value ...          experiment around the probe and around fio
#   @@FIOBW run=N kib=K          fio's own bandwidth fields of run N, summed
#   @@ISO TAG key=value ...      check --isolation around the probe (isolation mode: before, knob, after)
#   @@PODS scope=S masks=L ...   the CPUs the workers of writeback's strict pools
#                                may use, one pool per pod of scope S (pods mode)
#   @@ROOT key=value ...         the root masks at boot and after a cpuset
#                                isolated partition (rootmask mode)
P=/sys/kernel/wqprobe
# wqctl names its tracefs objects PID_NS: NS, the inode of the PID namespace (ours too)
NS=$(stat -L -c %i /proc/self/ns/pid)
MODE=$(sed -n 's/.*wqvm.mode=\([a-z,]*\).*/\1/p' /proc/cmdline)
HOLD1=$(sed -n 's/.*wqvm.hold=\([0-9]*\).*/\1/p' /proc/cmdline)
HOLD1=${HOLD1:-3}
ISO=$(sed -n 's/.*wqvm.iso=\([0-9,-]*\).*/\1/p' /proc/cmdline)

b64() { base64 -w0 "$1" 2>/dev/null || base64 "$1" | tr -d '\n'; }

# expand a CPU list into one number a line
expand() {
	echo "$1" | tr ',' '\n' | awk -F- 'NF == 1 && $1 != "" { print $1 } NF == 2 { for (i = $1; i <= $2; i++) print i }'
}
# join numbers (one a line, sorted) into a CPU list
compress() {
	sort -n | awk 'NR == 1 { a = b = $1; next }
		$1 == b + 1 { b = $1; next }
		{ printf "%s%s", s, (a == b ? a : a "-" b); s = ","; a = b = $1 }
		END { if (NR) printf "%s%s", s, (a == b ? a : a "-" b); print "" }'
}
node_cpus() { cat /sys/devices/system/node/node$1/cpulist; }
# first or second half of a node's CPUs (in CPU-number order)
half() { # node first|second
	expand "$(node_cpus "$1")" | awk -v w="$2" '{ c[NR] = $1 } END { h = int(NR / 2)
		for (i = 1; i <= NR; i++) if ((w == "first") == (i <= h)) print c[i] }' | compress
}
union() { (for l in "$@"; do expand "$l"; done) | sort -n | uniq | compress; }
minus() { # A B -> A \ B
	expand "$1" >/tmp/a
	expand "$2" >/tmp/b
	grep -vxF -f /tmp/b /tmp/a | compress
}

run_cmd() { # command... -> @@RC and @@OUT
	wqctl "$@" >/tmp/out 2>&1
	rc=$?
	echo "@@RC $rc $*"
	echo "@@OUT $*"
	cat /tmp/out
	echo "@@OUT-END"
}

raw_files() {
	for f in /sys/devices/system/cpu/nohz_full /sys/devices/system/cpu/isolated /sys/devices/system/cpu/possible \
		/sys/devices/system/cpu/online /sys/devices/virtual/workqueue/cpumask \
		/sys/devices/virtual/workqueue/writeback/* /sys/module/workqueue/parameters/* \
		/sys/devices/system/node/node*/cpulist /sys/devices/system/cpu/cpu*/cache/index3/shared_cpu_list \
		/sys/devices/system/cpu/cpu*/topology/thread_siblings_list /proc/sys/kernel/osrelease; do
		[ -f "$f" ] && [ -r "$f" ] || continue
		case $f in */uevent | */power) continue ;; esac
		echo "@@RAW $f $(b64 "$f")"
	done
}

# the figure wqctl gives for the probe workqueue as it is now
explain_figure() { # [explain options...]
	wqctl explain wqprobe -J "$@" 2>/tmp/explain.err | sed -n 's/^ *"max_inflight": *\([0-9-]*\).*/\1/p'
}

# wait until the number of running items has not changed for HOLD seconds
settle() { # hold
	local last=-1 same=0 n=0 now
	while [ $n -lt 400 ]; do
		now=$(cat $P/running)
		if [ "$now" = "$last" ]; then
			same=$((same + 1))
			[ $same -ge $(($1 * 4)) ] && return 0
		else
			same=0
			last=$now
		fi
		sleep 0.25
		n=$((n + 1))
	done
}

# One measurement: create the workqueue with MAX_ACTIVE, set MASK (and a
# later max_active write, SETMAX, when given) through wqctl, ask wqctl for
# its figure, queue (max_active + 1) items from every CPU of FROM so that
# every counter the kernel has overflows whatever wqctl thinks, and read the
# peak once nothing changes any more. A peak below the figure is retried
# with a longer hold (TCG is slow to create workers); never above.
row() { # label created mask from setmax fromopt
	local label=$1 created=$2 mask=$3 from=$4 setmax=$5 fromopt=$6 m exp stats peak try hold
	echo "$created" >$P/create || { echo "@@ROW label=$label error=create"; return; }
	if [ "$mask" != all ]; then
		wqctl set wqprobe cpumask="$mask" >/dev/null 2>&1 || { echo "@@ROW label=$label error=set-cpumask"; return; }
	fi
	m=$created
	if [ "$setmax" != - ]; then
		wqctl set --force wqprobe max_active="$setmax" >/dev/null 2>&1 || { echo "@@ROW label=$label error=set-max"; return; }
		m=$setmax
	fi
	if [ "$fromopt" = - ]; then exp=$(explain_figure); else exp=$(explain_figure --from "$fromopt"); fi
	[ -n "$exp" ] || exp="none:$(tr ' ' _ </tmp/explain.err | head -c 100)"
	hold=$HOLD1
	for try in 1 2 3; do
		echo "$((m + 1)) $from" >$P/run || { echo "@@ROW label=$label error=run"; return; }
		settle $hold
		stats=$(cat $P/stats | tr '\n' ' ')
		echo 1 >$P/release
		peak=$(echo "$stats" | sed -n 's/^queued [0-9]* started [0-9]* done [0-9]* peak \([0-9]*\).*/\1/p')
		case $exp in *[!0-9]*) break ;; esac
		[ "$peak" -lt "$exp" ] || break
		hold=$((hold * 2 + 2))
	done
	echo "@@ROW label=$label created=$created setmax=$setmax mask=$mask from=$from fromopt=$fromopt" \
		"expected=$exp peak=$peak tries=$try stats=$(echo "$stats" | tr ' ' ,)"
}

probe_matrix() {
	local online n0 n1 n2 n3 m mask inside outside
	online=$(cat /sys/devices/system/cpu/online)
	n1=$(node_cpus 1)
	# the masks: all, one node, one node plus half of the next, parts of two nodes
	set -- all "$n1" "$(union "$n1" "$(half 2 first)")" "$(union "$(half 2 second)" "$(half 3 first)")"
	for m in 1 4 8 16 64; do
		for mask in "$@"; do
			row "m$m" "$m" "$mask" "$online" - -
		done
	done
	# created with 16, later set to 1: not ordered (the 6.1 case)
	row created16-set1 16 all "$online" 1 -
	row created16-set1-node 16 "$n1" "$online" 1 -
	# explain --from: queued only from inside the mask, outside it, one node
	for m in 4 16; do
		for mask in "$n1" "$(union "$n1" "$(half 2 first)")" "$(union "$(half 2 second)" "$(half 3 first)")"; do
			outside=$(minus "$online" "$mask")
			row "from-inside-m$m" "$m" "$mask" "$mask" - "$mask"
			row "from-outside-m$m" "$m" "$mask" "$outside" - "$outside"
			row "from-node0-m$m" "$m" "$mask" "$(node_cpus 0)" - "$(node_cpus 0)"
		done
	done
}

# monitor against the probe's own counts: items queued from node 0 faster
# than they finish, so all but max_active of them are held back. Items last
# 2 s and are queued back to back: every one is queued before the first ends,
# also when the host is busy and TCG is slow to deliver the queueing IPIs
# (with 1 s items 1 ms apart, a loaded host once let 4 finish first).
monitor_truth() {
	local m=4 per=15 from pid s
	[ -d /sys/kernel/tracing/events/workqueue ] || { echo "@@MON error=no-tracefs"; return; }
	from=$(node_cpus 0)
	echo $m >$P/create
	wqctl set wqprobe cpumask="$from" >/dev/null 2>&1
	wqctl monitor wqprobe -r -i 1 -o NAME,QUEUED,STARTED,DONE,THROTTLED,PENDING,INFLIGHT >/tmp/mon.txt 2>/tmp/mon.err &
	pid=$!
	mon_ready $pid
	echo "$per $from 2000 0" >$P/run
	wait_done
	sleep 3
	kill -INT $pid
	wait $pid
	# our BPF programs asked for by name: they load, or why not
	wqctl monitor --backend bpf -i 0.3 -c 1 -o NAME,QUEUED >/dev/null 2>/tmp/bpf.err
	echo "@@BPF rc=$? btf=$(btf) said=$(head -3 /tmp/bpf.err | tr ' \n' ',;')"
	echo "@@MON max_active=$m items=$((per * $(expand "$from" | wc -l))) expected_inflight=$(explain_figure) backend=$MON_BACKEND btf=$(btf)" \
		"counts=${MON_COUNTS:-$MON_BACKEND} expect_counts=$(counts_backend)" \
		"stats=$(tr '\n' ' ' <$P/stats | tr ' ' ,)"
	echo "@@OUT monitor"
	cat /tmp/mon.txt /tmp/mon.err
	echo "@@OUT-END"

	# monitor's own CPU time at the highest rate the guest sustains: short
	# items from every CPU, as fast as they can be queued
	echo 64 >$P/create
	wqctl monitor wqprobe -r -i 1 -o NAME,QUEUED,DONE >/tmp/mon2.txt 2>&1 &
	pid=$!
	mon_ready $pid
	s=$(cut -d' ' -f1 /proc/uptime)
	set -- $(cpu_now $pid)
	t0=$1
	echo "250 $(cat /sys/devices/system/cpu/online) 1 0" >$P/run
	wait_done
	set -- $(cpu_now $pid)
	t1=$1
	e=$(cut -d' ' -f1 /proc/uptime)
	# one more interval, so the last items are printed before monitor stops
	sleep 2
	kill -INT $pid
	wait $pid
	echo "@@OUT monitor-cost"
	cat /tmp/mon2.txt
	echo "@@OUT-END"
	echo "@@MONCOST backend=$MON_BACKEND expect=$(counts_backend) left=$(ls /sys/kernel/tracing/instances | grep -c wqctl-) items=$(sed -n 's/^queued \([0-9]*\) .*/\1/p' $P/stats) start=$s end=$e ticks=$((t1 - t0))" \
		"hz=100 seen=$(awk 'NR > 1 && $1 == "wqprobe" { d += $3 } END { print d + 0 }' /tmp/mon2.txt)"

	# metrics --sample over a window in which the probe queues a known number
	# of 5 ms items: counted and timed by the kernel where its tracefs files
	# offer that (hist, synthetic events, activate_work's function), else streamed
	wqctl metrics --sample 4 >/tmp/ms.txt 2>/tmp/ms.err &
	pid=$!
	mon_ready $pid
	echo "40 $from 5 0" >$P/run
	wait_done
	wait $pid
	echo "@@MSAMPLE rc=$? backend=$MON_BACKEND counts=${MON_COUNTS:-$MON_BACKEND} expect_counts=$(counts_backend) btf=$(btf) items=$(sed -n 's/^queued \([0-9]*\) .*/\1/p' $P/stats)" \
		"files=$([ -e /sys/kernel/tracing/events/workqueue/workqueue_queue_work/hist ] && [ -e /sys/kernel/tracing/synthetic_events ] &&
			grep -q 'field:.* function;' /sys/kernel/tracing/events/workqueue/workqueue_activate_work/format && echo yes || echo no)" \
		"left=$(ls /sys/kernel/tracing/instances | grep -c wqctl-)"
	echo "@@OUT metrics-sample"
	cat /tmp/ms.txt /tmp/ms.err
	echo "@@OUT-END"

	# the hist triggers of a monitor killed with SIGKILL, then removed by the next one
	[ -e /sys/kernel/tracing/events/workqueue/workqueue_queue_work/hist ] || return 0
	wqctl monitor --backend kernel -i 1 >/dev/null 2>&1 &
	pid=$!
	mon_ready $pid >/dev/null
	kill -KILL $pid
	wait $pid 2>/dev/null
	local inst=/sys/kernel/tracing/instances/wqctl-hist-${pid}_$NS lat=/sys/kernel/tracing/instances/wqctl-lat-${pid}_$NS
	local synth=/sys/kernel/tracing/synthetic_events
	# with its default columns (wait and run times) it also set, where the
	# kernel keys by function, the times' instance and 2 synthetic events
	echo "@@MONSTALE killed=$([ -d $inst ] && echo present || echo gone)" \
		"triggers=$(cat $inst/events/workqueue/*/trigger 2>/dev/null | grep -c '^hist')" \
		"times=$([ -d $lat ] && echo present || echo gone)" \
		"synth=$(grep -c "^wqctl_[wr]_${pid}_$NS" $synth 2>/dev/null)" \
		"fn=$(grep -c ' function;' /sys/kernel/tracing/events/workqueue/workqueue_activate_work/format)"
	wqctl -v monitor --backend kernel -i 0.5 -c 1 >/dev/null 2>/tmp/stale.err
	echo "@@MONSTALE next_rc=$? after=$([ -d $inst ] && echo present || echo gone)" \
		"left=$(ls /sys/kernel/tracing/instances | grep -c wqctl-) said=$(grep -c "wqctl-hist-${pid}_$NS: removed" /tmp/stale.err)" \
		"synth_left=$(grep -c '^wqctl_' $synth 2>/dev/null)" \
		"said_times=$(grep -c "wqctl-lat-${pid}_$NS: removed\|wqctl_[wr]_${pid}_$NS of a monitor" /tmp/stale.err)"
}

# monitor counts work it saw queued: wait until its trace instance records
# (the last of its four events enabled, or with --backend kernel the last
# of its four hist triggers set, with the kernel's counters /proc/kcore
# open, with BPF its programs attached and, where the kernel has its
# counters, /proc/kcore open after them for the counts; the programs
# alone where the caller says bpf, --backend bpf), at most 60 s; the
# time and the backend are reported (MON_BACKEND)
mon_ready() { # PID [bpf]
	local t=/sys/kernel/tracing/instances i=0 fds kc=
	MON_BACKEND= MON_COUNTS=
	while [ $i -lt 600 ]; do
		fds=$(ls -l /proc/$1/fd 2>/dev/null)
		if [ "$(cat $t/wqctl-monitor-${1}_$NS/events/workqueue/workqueue_execute_end/enable 2>/dev/null)" = 1 ]; then
			MON_BACKEND=stream
		elif grep -q '^hist' $t/wqctl-hist-${1}_$NS/events/workqueue/workqueue_execute_end/trigger 2>/dev/null; then
			MON_BACKEND=kernel
		elif echo "$fds" | grep -q 'anon_inode:bpf_link'; then
			# our BPF programs attached; the counters' reader opens kcore next (seconds under TCG)
			# for the counts where the kernel has them (MON_COUNTS)
			if echo "$fds" | grep -q /proc/kcore; then
				MON_BACKEND=bpf MON_COUNTS=counters
			else
				# asked once: it reads kallsyms, seconds under TCG
				[ -n "$kc" ] || [ "${2:-}" = bpf ] || kc=$(counts_backend)
			fi
			# (--backend bpf, said by the caller: its programs alone)
			if [ -z "$MON_BACKEND" ] && { [ "${2:-}" = bpf ] || [ "$kc" != counters ] || [ $i -ge 300 ]; }; then
				MON_BACKEND=bpf MON_COUNTS=bpf
			fi
		elif echo "$fds" | grep -q /proc/kcore; then
			MON_BACKEND=counters # the kernel's own counters: no instance, /proc/kcore open
		fi
		[ -n "$MON_BACKEND" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	echo "@@MONREADY pid=$1 waited=$i backend=$MON_BACKEND counts=$MON_COUNTS"
	sleep 0.5
}
# the kernel's BTF, which our BPF programs need (and nothing else a Debian kernel lacks)
btf() { [ -e /sys/kernel/btf/vmlinux ] && echo yes || echo no; }
# what auto takes for count columns, from the kernel's own facts: its
# counters (6.3+) where BTF, /proc/kcore and the `workqueues` symbol are
# there, else our BPF programs where there is BTF, else its hist triggers
# (all the kernels booted here have them)
counts_backend() {
	local v
	v=$(uname -r | awk -F'[.-]' '{ print $1 * 1000 + $2 }')
	if [ "$v" -ge 6003 ] && [ -e /sys/kernel/btf/vmlinux ] && [ -e /proc/kcore ] &&
		grep -q ' workqueues$' /proc/kallsyms; then
		echo counters
	elif [ -e /sys/kernel/btf/vmlinux ]; then
		echo bpf
	else
		echo kernel
	fi
}
# run CMD every 0.1 s until it succeeds, N times at most (1 if it never did)
poll() {
	local n=$1 i=1
	shift
	until "$@"; do
		[ $i -lt "$n" ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
}
# a process's CPU time so far, each file read once: "TICKS NS
# UTIME,STIME,SLICES,FAULTS,READS" (user + system ticks of 10 ms and minor
# page faults, /proc/PID/stat; the scheduler's run time in ns and the times
# it was put on a CPU, summed over its threads' schedstat; read system
# calls, /proc/PID/io)
cpu_now() {
	awk -v sc="$(cat /proc/$1/task/*/schedstat 2>/dev/null | awk '{ n += $1; c += $3 } END { printf "%.0f %.0f", n, c }')" \
		-v rd="$(sed -n 's/^syscr: //p' /proc/$1/io)" \
		'{ split(sc, s, " "); printf "%d %s %d,%d,%s,%d,%s\n", $14 + $15, s[1], $14, $15, s[2], $10, rd }' /proc/$1/stat
}
wait_done() {
	while [ "$(sed -n 's/.* done \([0-9]*\) .*/\1/p' $P/stats)" -lt "$(sed -n 's/^queued \([0-9]*\) .*/\1/p' $P/stats)" ]; do
		sleep 0.5
	done
}

# the kernel's own counters (issue 64) against the probe's: after every item
# ended, STARTED and COMPLETED are the items the probe ran; while 1.5 s items
# are held back, IN_FLIGHT and NR_ACTIVE are read between two reads of the
# probe's own queued and done counts (6.1 has no counters: its reason)
kcount_truth() {
	local m=4 per=4 from b a row
	from=$(node_cpus 0)
	kc() { wqctl kcounters -r -n -o WORKQUEUE,STARTED,COMPLETED,NR_ACTIVE,IN_FLIGHT 2>&1 | grep -E '^wqprobe |counters:' | tr ' ' ,; }
	echo $m >$P/create
	echo "$per $from 100 0" >$P/run
	wait_done
	sleep 1
	row=$(kc)
	echo "@@KCOUNT rest stats=$(head -1 $P/stats | tr ' ' ,) row=$row"
	# when the reader gives a reason: what the kernel's symbol table says beside it
	echo "@@KSYMS lines=$(wc -l </proc/kallsyms) $(grep -E ' (workqueues|wq_pool_mutex|wq_unbound_cpumask)$' /proc/kallsyms | tr ' \t\n' ',,;')" \
		"near=$(sort /proc/kallsyms | grep -B2 -A2 ' workqueues$' | tr ' \t\n' ',,;')"
	echo $m >$P/create
	echo "$per $from 1500 0" >$P/run
	sleep 1
	b=$(head -1 $P/stats | tr ' ' ,)
	row=$(kc)
	a=$(head -1 $P/stats | tr ' ' ,)
	echo "@@KCOUNT flood max_active=$m before=$b after=$a row=$row"
	wait_done

	# monitor --backend counters over the same load: started once its first read is done (kcore open)
	[ -e /proc/kcore ] || return 0
	echo $m >$P/create
	wqctl set wqprobe cpumask="$from" >/dev/null 2>&1
	wqctl monitor wqprobe --backend counters -r -i 1 -o NAME,QUEUED,STARTED,DONE,PENDING,INFLIGHT \
		>/tmp/kmon.txt 2>/tmp/kmon.err &
	pid=$!
	poll 600 sh -c "ls -l /proc/$pid/fd 2>/dev/null | grep -q /proc/kcore"
	sleep 0.5
	echo "$per $from 1500 0" >$P/run
	wait_done
	sleep 2
	kill -INT $pid
	wait $pid
	echo "@@KMON rc=$? expected_inflight=$(explain_figure) stats=$(head -1 $P/stats | tr ' ' ,)"
	echo "@@OUT kmon"
	cat /tmp/kmon.txt /tmp/kmon.err
	echo "@@OUT-END"
	kstat_truth
	mayday_truth
	repat_truth
}

# monitor --backend counters over one workqueue while a probe file is
# written: NAME COLUMNS OUT FILE VALUE, its output in /tmp/OUT.txt and
# /tmp/OUT.err, its exit status in KC_RC (the write once kcore is open, the
# stop 2 s after the write returned)
kc_watch() {
	local pid
	wqctl monitor "$1" --backend counters -r -i 1 -o "$2" >"/tmp/$3.txt" 2>"/tmp/$3.err" &
	pid=$!
	poll 600 sh -c "ls -l /proc/$pid/fd 2>/dev/null | grep -q /proc/kcore"
	sleep 0.5
	echo "$5" >"$4"
	sleep 2
	kill -INT $pid
	wait $pid
	KC_RC=$?
}

# REPATRIATED against the probe's truth: the probe's unbound "wqrepat" in
# the cpu affinity scope, not strict (the first CPU is the pod of the items
# queued there; its workers may run on any CPU), while the probe's FIFO
# thread spins on that CPU: a worker woken there runs elsewhere, and when
# the kernel wakes it for an item with its wake CPU outside the pod it sets
# it back in the pod and counts one. 12 items one at a time; the probe
# notes where each ran against its worker (kstattruth.sh says what the
# kernel is to count from that). Run on 6.6+ (affinity scopes).
repat_truth() {
	local cpu wq=/sys/devices/virtual/workqueue/wqrepat items=12
	[ "$(counts_backend)" = counters ] && [ -e $P/repat ] && [ -e $wq/affinity_scope ] || return 0
	cpu=$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)
	{ echo cpu >$wq/affinity_scope && echo 0 >$wq/affinity_strict; } 2>/dev/null ||
		{ echo "@@REPAT error=scope"; return; }
	kc_watch wqrepat NAME,STARTED,DONE,REPATRIATED repat $P/repat "$items $cpu 3000"
	echo "@@REPAT rc=$KC_RC krel=$(uname -r) cpu=$cpu items=$items scope=$(cat $wq/affinity_scope),strict=$(cat $wq/affinity_strict)" \
		"probe=$(tr ' ' , <$P/repat)"
	echo "@@OUT repat"
	cat /tmp/repat.txt /tmp/repat.err
	echo "@@OUT-END"
}

# the rescuer's counters (MAYDAY, RESCUED) against the probe's: kthreadd
# pinned to the first CPU, where the probe's FIFO thread spins for HOG ms,
# so no new worker can be made; 16 items that each sleep 100 ms queued on
# the second CPU's pool for the per-CPU WQ_MEM_RECLAIM workqueue
# "wqmayday". Once the pool's idle workers sleep in them the rest wait,
# after 10 ms the pool calls the rescuer, and the probe counts the items
# that ran in it. kthreadd's affinity is put back after.
mayday_truth() {
	local cpus hcpu cpu aff items=16 hog=2500
	[ "$(counts_backend)" = counters ] && [ -e $P/mayday ] || return 0
	cpus=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) printf "%d ", c } }' \
		/sys/devices/system/cpu/online)
	# shellcheck disable=SC2086 # the CPUs' numbers
	set -- $cpus
	[ $# -ge 2 ] || { echo "@@MAYDAY error=one-cpu"; return; }
	hcpu=$1 cpu=$2
	aff=$(taskset -p 2 | sed 's/.*: //')
	taskset -p "$(printf %x $((1 << hcpu)))" 2 >/dev/null || { echo "@@MAYDAY error=taskset-kthreadd"; return; }
	kc_watch wqmayday NAME,STARTED,DONE,MAYDAY,RESCUED mayday $P/mayday "$items $cpu $hcpu 100 $hog"
	echo "@@MAYDAY rc=$KC_RC cpu=$cpu hog_cpu=$hcpu hog_ms=$hog items=$items kthreadd=$(taskset -p 2 | sed 's/.*: //')/$aff" \
		"probe=$(tr ' ' , <$P/mayday)"
	taskset -p "$aff" 2 >/dev/null
	echo "@@OUT mayday"
	cat /tmp/mayday.txt /tmp/mayday.err
	echo "@@OUT-END"
}

# the counters only the kernel keeps, against what the probe's per-CPU
# items did on the first CPU: 5 items one after the other, each spinning
# past the kernel's CPU-intensive threshold by 30 ms (BUSY ms), then 4 at
# once that each sleep 100 ms (one wakes a worker for the next while it
# sleeps). monitor --backend counters sums them; the host judges.
kstat_truth() {
	local pid cpu thresh busy i
	[ "$(counts_backend)" = counters ] || return 0
	cpu=$(cut -d, -f1 /sys/devices/system/cpu/online | cut -d- -f1)
	thresh=$(cat /sys/module/workqueue/parameters/cpu_intensive_thresh_us 2>/dev/null)
	[ -n "$thresh" ] && [ "$thresh" -le 500000 ] || { echo "@@KSTAT error=thresh:${thresh:-none}"; return; }
	busy=$((thresh / 1000 + 30))
	wqctl monitor wqprobe_pcpu --backend counters -r -i 1 \
		-o NAME,STARTED,DONE,CPU_MS,CPU_INTENSIVE,CM_WAKEUP >/tmp/kstat.txt 2>/tmp/kstat.err &
	pid=$!
	poll 600 sh -c "ls -l /proc/$pid/fd 2>/dev/null | grep -q /proc/kcore"
	sleep 0.5
	for i in 1 2 3 4 5; do
		echo "1 $cpu 0 $busy" >$P/pcpu # waits for the item before (the write flushes the workqueue first)
	done
	echo "4 $cpu 100 0" >$P/pcpu # flushes the last busy item, then queues the 4
	poll 100 [ "$(cat $P/pcpu)" = "queued 4 done 4" ]
	sleep 2
	kill -INT $pid
	wait $pid
	echo "@@KSTAT rc=$? cpu=$cpu thresh_us=$thresh busy_ms=$busy busy_items=5 sleep_items=4 pcpu=$(tr ' ' , <$P/pcpu)"
	echo "@@OUT kstat"
	cat /tmp/kstat.txt /tmp/kstat.err
	echo "@@OUT-END"
}

# experiment (issue 16): the probe's workqueue with max_active 1 against 64,
# a workload that queues 8 items of 300 ms from CPU 0 and waits for them;
# then fio on ext4 on a virtio disk with writeback's max_active, each fio
# report kept so that the host can sum its bandwidth fields itself.
experiment_truth() {
	local wqd=/sys/devices/virtual/workqueue before after rc i m jb T=/sys/kernel/tracing
	echo 16 >$P/create
	cat >/tmp/probe-load.sh <<'EOF'
#!/bin/sh
P=/sys/kernel/wqprobe
# run resets the probe's counts, then queues the 8 items before it returns
echo "8 0 300" >$P/run
while [ "$(sed -n 's/.* done \([0-9]*\) .*/\1/p' $P/stats)" -lt 8 ]; do sleep 0.05; done
head -1 $P/stats >>/tmp/probe-runs
EOF
	chmod +x /tmp/probe-load.sh
	before=$(cat $wqd/wqprobe/max_active)
	# earlier steps left journal entries: the experiment must keep them (path, original) and add none
	jb=$(cut -f1,3 /run/wqctl/journal 2>/dev/null | tr '\n\t' ';=')
	rm -f /tmp/probe-runs
	# THROTTLED asked for: every event streamed, on every kernel
	# 4 runs a setting: the fewest with which the rank test can conclude (3 never reach p < 0.05)
	wqctl experiment --force --set 'wqprobe max_active=1,64' --runs 4 --seed 11 --save vmprobe -P -o +THROTTLED \
		-- /tmp/probe-load.sh >/tmp/exp.txt 2>/tmp/exp.err
	rc=$?
	after=$(cat $wqd/wqprobe/max_active)
	# what the probe measured in each run: items queued and the most that ran at once
	echo "@@EXP probe rc=$rc before=$before after=$after" \
		"queued=$(awk '{ s += $2 } END { print s + 0 }' /tmp/probe-runs 2>/dev/null)" \
		"peaks=$(awk '{ printf "%s%s", s, $8; s = "," }' /tmp/probe-runs 2>/dev/null)" \
		"journal=$([ "$(cut -f1,3 /run/wqctl/journal 2>/dev/null | tr '\n\t' ';=')" = "$jb" ] && echo kept || echo changed)" \
		"saved=$([ -s /var/lib/wqctl/experiments/vmprobe.json ] && echo yes || echo no)"
	echo "@@OUT experiment-probe"
	cat /tmp/exp.txt /tmp/exp.err
	echo "@@OUT-END"
	# the default columns: our BPF programs where the kernel has BTF, else the kernel's hists where
	# its tracefs files offer them (hist, synthetic events, and activate_work carrying the function),
	# else the stream
	rm -f /tmp/probe-runs
	wqctl experiment --force --set 'wqprobe max_active=1,64' --runs 3 --seed 11 -P \
		-- /tmp/probe-load.sh >/tmp/exp2.txt 2>/tmp/exp2.err
	rc=$?
	m=$(awk '{ s += $2 } END { print s + 0 }' /tmp/probe-runs 2>/dev/null)
	# the document says where the counters came from
	wqctl -J experiment --force --set 'wqprobe max_active=1' --runs 1 -- /tmp/probe-load.sh >/tmp/exp3.json 2>&1
	echo "@@EXP probe2 rc=$rc after=$(cat $wqd/wqprobe/max_active) queued=$m btf=$(btf)" \
		"files=$([ -e $T/events/workqueue/workqueue_queue_work/hist ] && [ -e $T/synthetic_events ] &&
			grep -q 'field:.* function;' $T/events/workqueue/workqueue_activate_work/format && echo yes || echo no)" \
		"counters=$(sed -n 's/.*"counters": *"\([a-z]*\)".*/\1/p' /tmp/exp3.json | head -1)" \
		"times=$(sed -n 's/.*"times": *"\([a-z]*\)".*/\1/p' /tmp/exp3.json | head -1) expect_counts=$(counts_backend)" \
		"left=$(ls $T/instances | grep -c '^wqctl-')"
	echo "@@OUT experiment-probe2"
	cat /tmp/exp2.txt /tmp/exp2.err
	echo "@@OUT-END"

	# fio: its libraries travel on the disk image, beside the file system it writes
	for m in /modules/*.ko; do [ -f "$m" ] && insmod "$m" 2>/dev/null; done
	poll 100 [ -b /dev/vda ]
	mkdir -p /mnt
	if ! mount -t ext4 /dev/vda /mnt 2>/tmp/mount.err; then
		echo "@@EXP fio rc=mount $(tr '\n' ' ' </tmp/mount.err)"
		return
	fi
	mkdir -p /mnt/data
	cat >/tmp/fio-load.sh <<'EOF'
#!/bin/sh
n=$(ls /tmp/fio-*.json 2>/dev/null | wc -l)
LD_LIBRARY_PATH=/mnt/fio/lib:/lib /mnt/fio/bin/fio --output-format=json --output=/tmp/fio-$n.json --name=w \
	--directory=/mnt/data --unlink=1 --rw=write --bs=64k --size=16m --fsync=4 >/dev/null || exit 1
cat /tmp/fio-$n.json
EOF
	chmod +x /tmp/fio-load.sh
	before=$(cat $wqd/writeback/max_active)
	jb=$(cut -f1,3 /run/wqctl/journal 2>/dev/null | tr '\n\t' ';=')
	wqctl experiment --set 'writeback max_active=8,64' --runs 2 --seed 5 -J -- /tmp/fio-load.sh \
		>/tmp/expfio.json 2>/tmp/expfio.err
	rc=$?
	after=$(cat $wqd/writeback/max_active)
	echo "@@EXP fio rc=$rc before=$before after=$after" \
		"journal=$([ "$(cut -f1,3 /run/wqctl/journal 2>/dev/null | tr '\n\t' ';=')" = "$jb" ] && echo kept || echo changed)"
	i=0
	while [ -f /tmp/fio-$i.json ]; do
		echo "@@FIOBW run=$((i + 1)) kib=$(sed -n 's/^ *"bw" : \([0-9]*\),$/\1/p' /tmp/fio-$i.json |
			awk '{ s += $1 } END { print s + 0 }')"
		i=$((i + 1))
	done
	echo "@@OUT experiment-fio"
	cat /tmp/expfio.json /tmp/expfio.err
	echo "@@OUT-END"
	umount /mnt
}

# isolation (issue 17): booted with isolcpus= and nohz_full= (wqvm.iso=LIST);
# the probe queues per-CPU items on the isolated CPUs (queue_work_on) and
# unbound items from them (its workqueue's cpumask and the root mask then
# include them), while check --isolation samples; again after the
# cpu-partitioning profile. The host compares the reports with the probe.
iso_round() { # tag
	local pid i=0
	wqctl check --isolation -i 10 -J >/tmp/iso-$1.json 2>/tmp/iso-$1.err &
	pid=$!
	mon_ready $pid >/dev/null
	echo "5 $ISO 20" >$P/pcpu
	echo "6 $ISO 20 0" >$P/run
	while [ "$(sed -n 's/.* done \([0-9]*\) .*/\1/p' $P/stats)" -lt $((6 * $(expand "$ISO" | wc -l))) ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	wait $pid
	echo "@@ISO $1 rc=$? pcpu=$(tr ' ' , <$P/pcpu) stats=$(head -1 $P/stats | tr ' ' ,)" \
		"isolated=$(cat /sys/devices/system/cpu/isolated) nohz_full=$(cat /sys/devices/system/cpu/nohz_full)"
	echo "@@OUT iso-$1"
	cat /tmp/iso-$1.json /tmp/iso-$1.err
	echo "@@OUT-END"
	echo "@@OUT iso-check-$1"
	wqctl check -r -n -o SEVERITY,CODE,TARGET 2>&1
	echo "@@OUT-END"
}
isolation_truth() {
	insmod /wqprobe.ko || echo "@@RC 1 insmod"
	echo 16 >$P/create
	# unbound work can reach the isolated CPUs only through both masks
	wqctl knob cpumask=all >/tmp/knob.out 2>&1
	echo "@@ISOKNOB rc=$? $(tr '\n' ' ' </tmp/knob.out) root=$(cat /sys/devices/virtual/workqueue/cpumask)" \
		"requested=$(cat /sys/devices/virtual/workqueue/cpumask_requested 2>/dev/null)" \
		"isolated=$(cat /sys/devices/virtual/workqueue/cpumask_isolated 2>/dev/null)"
	wqctl set wqprobe cpumask="$ISO" >/dev/null 2>&1
	echo "@@ISOSYM $(grep -c . /proc/kallsyms) $(grep -w probe_fn /proc/kallsyms)"
	iso_round before
	# the root mask alone (issue 59 item 3): wqprobe's own mask (ISO) misses it, so the kernel
	# uses the root mask for wqprobe, and check judges that effective mask
	wqctl knob cpumask=housekeeping >/tmp/knob.out 2>&1
	echo "@@ISOROOT rc=$? root=$(cat /sys/devices/virtual/workqueue/cpumask) wqprobe=$(cat /sys/devices/virtual/workqueue/wqprobe/cpumask)"
	iso_round knob
	wqctl apply --profile /cpu-partitioning.conf >/tmp/apply.out 2>&1
	echo "@@ISOAPPLY rc=$? root=$(cat /sys/devices/virtual/workqueue/cpumask) wqprobe=$(cat /sys/devices/virtual/workqueue/wqprobe/cpumask)"
	iso_round after
}

# The kernel's own pods, without a module: a strict unbound pool binds its
# workers to its pod (pool_allowed_cpus()) and starts one worker. writeback
# set to scope S, strict, and a nice no other pool has gets a pool per pod
# (and its default pool, the whole mask); the workers with that nice are
# theirs. Restored afterwards.
pods_truth() {
	local s nice=10 masks
	[ -f /sys/devices/virtual/workqueue/writeback/affinity_scope ] || return 0
	for s in smt cache cache_shard numa; do
		[ "$s" = cache_shard ] && [ ! -f /sys/module/workqueue/parameters/cache_shard_size ] && continue
		nice=$((nice + 1))
		wqctl set writeback affinity_scope=$s affinity_strict=1 nice=$nice >/dev/null 2>&1 ||
			{ echo "@@PODS scope=$s error=set"; continue; }
		sleep 2
		masks=$(for d in /proc/[0-9]*; do
			case $(cat $d/comm 2>/dev/null) in kworker/u*) ;; *) continue ;; esac
			[ "$(cut -d' ' -f19 $d/stat 2>/dev/null)" = "$nice" ] || continue
			sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' $d/status
		done | sort -u | tr '\n' ' ')
		echo "@@PODS scope=$s nice=$nice masks=$masks"
		run_cmd topology -r -n -o POD,NODE,CPUS --scope $s
	done
	wqctl set writeback affinity_scope=default affinity_strict=0 nice=0 >/dev/null 2>&1
}

# The root unbound cpumask at boot (the command line's nohz_full= or
# isolcpus=), what wqctl predicts, then a cpuset isolated partition made at
# run time and what cpumask_isolated and check say of it.
rootmask_truth() {
	local w=/sys/devices/virtual/workqueue part
	part=$(sed -n 's/.*wqvm.part=\([0-9,-]*\).*/\1/p' /proc/cmdline)
	echo "@@ROOT boot cpumask=$(cat $w/cpumask) requested=$(cat $w/cpumask_requested 2>/dev/null)" \
		"isolated=$(cat $w/cpumask_isolated 2>/dev/null) cpu_isolated=$(cat /sys/devices/system/cpu/isolated)" \
		"nohz_full=$(cat /sys/devices/system/cpu/nohz_full | tr -d ' ')"
	run_cmd topology -r -o SCOPE,CPUS
	run_cmd check -r -n -o SEVERITY,CODE,TARGET
	[ -n "$part" ] || return 0
	mkdir -p /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
	echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/wqiso
	echo "$part" >/sys/fs/cgroup/wqiso/cpuset.cpus
	echo isolated >/sys/fs/cgroup/wqiso/cpuset.cpus.partition
	echo "@@ROOT partition=$(cat /sys/fs/cgroup/wqiso/cpuset.cpus.partition | tr ' ' _) cpumask=$(cat $w/cpumask)" \
		"requested=$(cat $w/cpumask_requested 2>/dev/null) isolated=$(cat $w/cpumask_isolated 2>/dev/null)"
	run_cmd check -r -n -o SEVERITY,CODE,TARGET
	run_cmd check -n -o CODE,MESSAGE
	# the root mask written as housekeeping: no workqueue's effective mask reaches isolated CPUs
	run_cmd knob cpumask=housekeeping
	echo "@@ROOT housekeeping cpumask=$(cat $w/cpumask)"
	run_cmd check -r -n -o SEVERITY,CODE,TARGET
}

# monitor's cost (issue 47, make bench-monitor): wqctl monitor's CPU time
# while the probe floods its workqueue wqflood with short items at set
# rates (0: as fast as one CPU queues them), and monitor's counts of them
# against the probe's. "idle" is monitor with no flood: the floor. The
# window runs from monitor's first interval's line to 2 s after the flood,
# so monitor reads the last events.
# issue 64's counters target judged on pairs: the flood at its highest
# rate with no tracing and watched by --backend counters, back to back, seven
# times, the order turned each time (none first, then counters first: a
# drift of the emulated machine's speed falls on both alike); benchtruth.sh
# judges the median of the seven ratios where the floods with no tracing
# agree within 6 %, and the counters' bound (the monitor's CPU time) always
bench_observer() {
	local i be pid order rc mb
	for i in 1 2 3 4 5 6 7; do
		order="none counters"
		[ $((i % 2)) = 1 ] || order="counters none"
		for be in $order; do
			if [ $be = counters ]; then
				wqctl monitor -J -i 1 --backend counters -o NAME,QUEUED,STARTED,DONE,PENDING,INFLIGHT wqflood \
					>/tmp/bo.json 2>/tmp/bo.err &
				pid=$!
				mon_ready $pid counters
				poll 100 [ -s /tmp/bo.json ]
			fi
			echo "0 5000" >$P/flood
			rc=- mb=-
			if [ $be = counters ]; then
				kill -INT $pid
				wait $pid
				rc=$? mb=$MON_BACKEND
			fi
			echo "@@BENCH-PAIR n=$i backend=$be monitor=$mb monitor_rc=$rc probe=$(tr ' ' , <$P/flood)"
		done
	done
}

bench_monitor() {
	local rate pid pid2 pid3 be rc t0 t1 n0 n1 x0 x1 s0 s1 T=/sys/kernel/tracing
	[ -f /wqprobe.ko ] || { echo "@@BENCH-ERR no probe for this kernel"; return; }
	insmod /wqprobe.ko || { echo "@@BENCH-ERR insmod"; return; }
	[ -d $T/events/workqueue ] || { echo "@@BENCH-ERR no workqueue tracepoints"; return; }
	echo "@@BENCH-KERNEL hist=$([ -e $T/events/workqueue/workqueue_queue_work/hist ] && echo yes || echo no)" \
		"synthetic_events=$([ -e $T/synthetic_events ] && echo yes || echo no) cpus=$(nproc)"
	# the flood with no tracing at all, first (bench_kernel runs it again
	# last): what each backend's flood is measured against, the same boot
	echo "0 5000" >$P/flood
	echo "@@BENCH-RAW path=none when=first rate=0 probe=$(tr ' ' , <$P/flood)"
	# the kernel backend's runs at the target rates twice more (tagged
	# kernel#2, kernel#3); the kernel's own counters ("counters": no probe on
	# the work path) with the same columns; CPU time both in ticks of 10 ms (/proc/PID/stat)
	# and in ns (the scheduler's run time, /proc/PID/task/*/schedstat)
	# "default": no --backend and the default columns (with wait and run
	# times: our BPF programs where they load)
	# "synth": the default columns with --backend kernel, the hist triggers
	# and synthetic events that timed the items before our BPF programs;
	# "bpf": our BPF programs' own counts (the default takes the kernel's
	# counters' where it has them), which on 7.x the kernel's recursion
	# guard cuts short under a flood, and which monitor must then say
	for be in stream kernel kernel#2 kernel#3 counters default synth bpf; do for rate in idle 1000 10000 100000 0; do
		case $be/$rate in kernel#*/idle | kernel#*/1000 | kernel#*/10000 | bpf/idle | bpf/1000 | bpf/10000) continue ;; esac
		if [ $be = default ]; then
			wqctl monitor -J -i 1 wqflood >/tmp/bm.json 2>/tmp/bm.err &
		elif [ $be = synth ]; then
			wqctl monitor -J -i 1 --backend kernel wqflood >/tmp/bm.json 2>/tmp/bm.err &
		else
			# counts only (-o): with WAIT and RUN among its columns the kernel
			# backend would time the items too, which the "default" runs measure
			wqctl monitor -J -i 1 --backend ${be%#*} -o NAME,QUEUED,STARTED,DONE,PENDING,INFLIGHT wqflood \
				>/tmp/bm.json 2>/tmp/bm.err &
		fi
		pid=$!
		mon_ready $pid "${be%#*}"
		# from its first interval's line on: its set-up is not its cost a
		# second (the lookup of a workqueue's limit when it first shows up
		# is still in: wqflood shows up with the flood)
		poll 100 [ -s /tmp/bm.json ]
		# shellcheck disable=SC2046 # three fields
		set -- $(cpu_now $pid)
		t0=$1 n0=$2 x0=$3
		s0=$(cut -d' ' -f1 /proc/uptime)
		if [ $rate = idle ]; then sleep 5; else echo "$rate 5000" >$P/flood; fi
		sleep 2
		# shellcheck disable=SC2046 # three fields
		set -- $(cpu_now $pid)
		t1=$1 n1=$2 x1=$3
		s1=$(cut -d' ' -f1 /proc/uptime)
		kill -INT $pid
		wait $pid
		rc=$?
		echo "@@BENCH backend=$be rate=$rate left=$(($(ls $T/instances | grep -c wqctl-) + $(grep -c '^wqctl_' $T/synthetic_events 2>/dev/null))) ticks=$((t1 - t0)) ns=$((n1 - n0)) split=$x0/$x1 hz=100 secs=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.2f", b - a }')" \
			"probe=$([ $rate = idle ] && echo - || tr ' ' , <$P/flood) monitor_rc=$rc"
		echo "@@BENCH-SUMMARY backend=$be rate=$rate $(grep '"summary":true' /tmp/bm.json)"
		sed 's/^/@@BENCH-STDERR /' /tmp/bm.err | head -5
	done; done
	# the same load seen by both paths at once: a streaming monitor, the
	# default one (wait and run times from the kernel where it can) and a
	# second streaming one, set up in that order, which is the order in
	# which each event reaches them; their summaries side by side
	# (quantiles within the log2 bucket's error, give or take what the two
	# streaming ones, one tracer further apart than either is from the
	# default, measure apart on the same items)
	for rate in 1000 10000; do
		wqctl monitor -J -i 1 --backend stream wqflood >/tmp/bq1.json 2>/tmp/bq1.err &
		pid=$!
		mon_ready $pid >/dev/null
		wqctl monitor -J -i 1 wqflood >/tmp/bq2.json 2>/tmp/bq2.err &
		pid2=$!
		mon_ready $pid2
		be=$MON_BACKEND
		wqctl monitor -J -i 1 --backend stream wqflood >/tmp/bq3.json 2>/tmp/bq3.err &
		pid3=$!
		mon_ready $pid3 >/dev/null
		echo "$rate 5000" >$P/flood
		sleep 2
		kill -INT $pid $pid2 $pid3
		wait $pid $pid2 $pid3
		echo "@@BENCH-QUANT rate=$rate backend=$be probe=$(tr ' ' , <$P/flood)"
		echo "@@BENCH-QUANT-STREAM $(grep '"summary":true' /tmp/bq1.json)"
		echo "@@BENCH-QUANT-DEFAULT $(grep '"summary":true' /tmp/bq2.json)"
		echo "@@BENCH-QUANT-STREAM2 $(grep '"summary":true' /tmp/bq3.json)"
		sed 's/^/@@BENCH-STDERR /' /tmp/bq1.err /tmp/bq2.err /tmp/bq3.err | head -5
	done
	# one function on two workqueues (the probe's split flood): the kernel
	# backend counts each one's queueing exactly and shares the function's
	# other counts between them; the hist files as the kernel wrote them are
	# kept (fixtures for lib/fnjoin)
	if [ -e $T/events/workqueue/workqueue_queue_work/hist ]; then
		wqctl monitor -J -i 1 --backend kernel 'wqflood*' >/tmp/bm.json 2>/tmp/bm.err &
		pid=$!
		mon_ready $pid
		echo "100000 5000 1" >$P/flood
		sleep 1.5
		mkdir -p /tmp/sraw
		# in wqctl's order: a later copy only adds to what an earlier one counted
		for f in execute_end execute_start activate_work queue_work; do
			cp $T/instances/wqctl-hist-${pid}_$NS/events/workqueue/workqueue_$f/hist /tmp/sraw/workqueue_$f.hist
		done
		# and the wait and run times (lib/klat), where the kernel keeps them
		for f in r w; do
			cp $T/instances/wqctl-lat-${pid}_$NS/events/synthetic/wqctl_${f}_${pid}_$NS/hist /tmp/sraw/wqctl_$f.hist 2>/dev/null
		done
		kill -INT $pid
		wait $pid
		echo "@@BENCH-SPLIT probe=$(tr ' ' , <$P/flood) monitor_rc=$?"
		echo "@@BENCH-SPLIT-SUMMARY $(grep '"summary":true' /tmp/bm.json)"
		sed 's/^/@@BENCH-SPLIT-STDERR /' /tmp/bm.err | head -5
		echo "@@BENCH-SPLITRAW $(tar -C /tmp/sraw -czf - . | base64 -w0)"
	fi
	# the floors of the kernel paths: the same hist triggers in instances of
	# the guest's own, their files read once a second by a minimal static
	# reader (bench/histfloor.c) over the same window. "counts": the four
	# of --backend kernel with count columns; "times": those and, in a
	# second instance, the wait and run times of the default columns
	# (src/lib/obs/klat.c), whose two time hists are read too; "countswork":
	# counts, plus user work of about wqctl's size an interval (histfloor
	# -w 30: some 210,000 instructions, callgrind) - whether a flood makes
	# user work itself dear in the guest
	[ -x /histfloor ] && [ -e $T/events/workqueue/workqueue_queue_work/hist ] || return 0
	local I=$T/instances/histfloor I2=$T/instances/histfloor-lat out files kind f
	for kind in counts times countswork; do
		[ $kind = times ] && ! { [ -e $T/synthetic_events ] && grep -q ' function;' $T/events/workqueue/workqueue_activate_work/format; } && continue
		for rate in idle 1000 10000 100000 0; do
			mkdir $I
			floor_triggers | while read -r ev t; do echo "$t" >>$I/events/workqueue/$ev/trigger; done
			files=
			for f in queue_work activate_work execute_start execute_end; do files="$files $I/events/workqueue/workqueue_$f/hist"; done
			if [ $kind = times ]; then
				mkdir $I2
				floor_lat_on $I2 || echo "@@BENCH-FLOOR-ERR $kind: $(tr '\n' ' ' <$T/error_log)"
				files="$files $I2/events/synthetic/wqfl_w/hist $I2/events/synthetic/wqfl_r/hist"
			fi
			# shellcheck disable=SC2086,SC2046 # the files, one word each; -w N or nothing
			/histfloor 7 1 $([ $kind = countswork ] && echo -w 30) $files >/tmp/hf.out &
			pid=$!
			if [ $rate = idle ]; then sleep 5; else echo "$rate 5000" >$P/flood; fi
			wait $pid
			out=$(cat /tmp/hf.out)
			if [ $rate = 100000 ] && [ $kind = counts ]; then
				# the files as the kernel wrote them (fixtures for wqctl's reader)
				mkdir -p /tmp/fraw
				for f in $I/events/workqueue/*/hist; do cp $f /tmp/fraw/$(basename $(dirname $f)).hist; done
				echo "@@BENCH-FLOORRAW $(tar -C /tmp/fraw -czf - . | base64 -w0)"
			fi
			if [ $kind = times ]; then
				floor_lat_off $I2
				rmdir $I2
			fi
			floor_triggers | tac | while read -r ev t; do echo "!$t" >>$I/events/workqueue/$ev/trigger; done
			rmdir $I
			echo "@@BENCH-FLOOR kind=$kind rate=$rate $out probe=$([ $rate = idle ] && echo - || tr ' ' , <$P/flood)"
		done
	done
}

# what the default columns add to the counts where the kernel keeps times
# (src/lib/obs/klat.c: synthetic events and triggers, the times' hists sized
# WQ_KLAT_MAP_SIZE, the variables' maps WQ_KLAT_VAR_MAP_SIZE), for the
# floor: "-" lines go to synthetic_events, the rest to INSTANCE's files
floor_lat() {
	cat <<'LAT'
- wqfl_w u64 fn; u64 wait
- wqfl_r u64 fn; u64 run
events/workqueue/workqueue_queue_work/trigger hist:keys=work:size=16384:ts0=common_timestamp.usecs
events/workqueue/workqueue_execute_start/trigger hist:keys=work:size=16384:ts1=common_timestamp.usecs:wait=common_timestamp.usecs-$ts0:f=function:onmatch(workqueue.workqueue_queue_work).trace(wqfl_w,$f,$wait)
events/synthetic/wqfl_w/trigger hist:keys=fn.sym,wait.log2:vals=hitcount,wait:sort=hitcount:size=8192
events/workqueue/workqueue_execute_end/trigger hist:keys=work:size=16384:run=common_timestamp.usecs-$ts1:f2=function:onmatch(workqueue.workqueue_execute_start).trace(wqfl_r,$f2,$run)
events/synthetic/wqfl_r/trigger hist:keys=fn.sym,run.log2:vals=hitcount,run:sort=hitcount:size=8192
LAT
}
floor_lat_on() {
	local f t
	floor_lat | while read -r f t; do
		if [ "$f" = - ]; then echo "$t" >>/sys/kernel/tracing/synthetic_events || exit 1; else echo "$t" >>"$1/$f" || exit 1; fi
	done
}
floor_lat_off() {
	local f t
	floor_lat | tac | while read -r f t; do
		if [ "$f" = - ]; then echo "!$t" >>/sys/kernel/tracing/synthetic_events; else echo "!$t" >>"$1/$f"; fi
	done
}

# what monitor --backend kernel sets (src/lib/obs/khist.c triggers[]), for the
# floor: keyed by function where activate_work carries it, else by work
floor_triggers() {
	if grep -q ' function;' /sys/kernel/tracing/events/workqueue/workqueue_activate_work/format; then
		cat <<'TRIGGERS'
workqueue_queue_work hist:keys=function.sym,workqueue:vals=hitcount:sort=hitcount:size=2048
workqueue_activate_work hist:keys=function.sym:vals=hitcount:sort=hitcount:size=2048
workqueue_execute_start hist:keys=function.sym:vals=hitcount:sort=hitcount:size=2048
workqueue_execute_end hist:keys=function.sym:vals=hitcount:sort=hitcount:size=2048
TRIGGERS
		return
	fi
	cat <<'TRIGGERS'
workqueue_queue_work hist:keys=work,workqueue:vals=hitcount:sort=hitcount:size=16384
workqueue_activate_work hist:keys=work:vals=hitcount:sort=hitcount:size=16384
workqueue_execute_start hist:keys=work:vals=hitcount:sort=hitcount:size=16384
workqueue_execute_end hist:keys=work:vals=hitcount:sort=hitcount:size=16384
TRIGGERS
}

# The in-kernel path, set up by hand before wqctl does it (issue 47 "measure
# first"), in two variants.
#  full:  synthetic events carry each item's workqueue from its queue_work
#         event to its execute_start (wait time) and on to its execute_end
#         (run time); hist triggers count per workqueue and keep log2
#         buckets of both. A variable is read once by the event that
#         matches it.
#  count: no variable and no synthetic event: queue_work counted per
#         (work, workqueue), activate, execute_start and execute_end per
#         work; the work pointer joins them to a workqueue when read.
#  lat:   count, and wait and run time with synthetic events of numbers
#         only (the work function, not the workqueue's name), in log2
#         buckets per function.
# each line: a variant, a file below tracefs, then what is written to it, in
# set-up order; removal writes each with '!' in the reverse order (a trigger
# that others refer to goes last)
hist_table() {
	cat <<'TABLE'
full synthetic_events wqb_wait u64 work; char wq[]; u64 wait
full synthetic_events wqb_run char wq[]; u64 run
full events/workqueue/workqueue_queue_work/trigger hist:keys=workqueue:vals=hitcount
full events/workqueue/workqueue_queue_work/trigger hist:keys=work:size=16384:ts0=common_timestamp.usecs:wq=workqueue
full events/workqueue/workqueue_execute_start/trigger hist:keys=work:size=16384:w=work:wait=common_timestamp.usecs-$ts0:onmatch(workqueue.workqueue_queue_work).trace(wqb_wait,$w,$wq,$wait)
full events/synthetic/wqb_wait/trigger hist:keys=wq,wait.log2:vals=hitcount
full events/synthetic/wqb_wait/trigger hist:keys=work:size=16384:ts1=common_timestamp.usecs:wq2=wq
full events/workqueue/workqueue_execute_end/trigger hist:keys=work:size=16384:run=common_timestamp.usecs-$ts1:onmatch(synthetic.wqb_wait).trace(wqb_run,$wq2,$run)
full events/synthetic/wqb_run/trigger hist:keys=wq,run.log2:vals=hitcount
count events/workqueue/workqueue_queue_work/trigger hist:keys=work,workqueue:vals=hitcount:size=16384
count events/workqueue/workqueue_activate_work/trigger hist:keys=work:vals=hitcount:size=16384
count events/workqueue/workqueue_execute_start/trigger hist:keys=work:vals=hitcount:size=16384
count events/workqueue/workqueue_execute_end/trigger hist:keys=work:vals=hitcount:size=16384
lat events/workqueue/workqueue_queue_work/trigger hist:keys=work,workqueue:vals=hitcount:size=16384
lat events/workqueue/workqueue_activate_work/trigger hist:keys=work:vals=hitcount:size=16384
lat events/workqueue/workqueue_execute_start/trigger hist:keys=work:vals=hitcount:size=16384
lat events/workqueue/workqueue_execute_end/trigger hist:keys=work:vals=hitcount:size=16384
lat synthetic_events wqb_w u64 fn; u64 wait
lat synthetic_events wqb_r u64 fn; u64 run
lat events/workqueue/workqueue_queue_work/trigger hist:keys=work:size=16384:ts0=common_timestamp.usecs
lat events/workqueue/workqueue_execute_start/trigger hist:keys=work:size=16384:ts1=common_timestamp.usecs:wait=common_timestamp.usecs-$ts0:f=function:onmatch(workqueue.workqueue_queue_work).trace(wqb_w,$f,$wait)
lat events/synthetic/wqb_w/trigger hist:keys=fn.sym,wait.log2:vals=hitcount
lat events/workqueue/workqueue_execute_end/trigger hist:keys=work:size=16384:run=common_timestamp.usecs-$ts1:f2=function:onmatch(workqueue.workqueue_execute_start).trace(wqb_r,$f2,$run)
lat events/synthetic/wqb_r/trigger hist:keys=fn.sym,run.log2:vals=hitcount
TABLE
}
hist_on() {
	local v f t
	hist_table | while read -r v f t; do
		[ "$v" = "$1" ] || continue
		echo "$t" >>"/sys/kernel/tracing/$f" || exit 1
	done
}
hist_off() {
	local v f t
	hist_table | tac | while read -r v f t; do [ "$v" = "$1" ] && echo "!$t" >>"/sys/kernel/tracing/$f"; done
}
# a hist file's wqflood lines, joined (the counts and the buckets)
hist_lines() { grep -E 'wqflood|^Totals|Hits|Entries|Dropped' "$1" 2>/dev/null | tr -s ' \t' ' ' | tr '\n' '|'; }
# hist_join QUEUE_HIST HIST [RE]: HIST's hitcounts summed over the work
# pointers that QUEUE_HIST has queued on wqflood (only lines matching RE: a
# hist file lists every hist of its event), as a wqflood line of its own
hist_join() {
	awk -v only="${3:-.}" 'FNR == NR { if (/wqflood/) for (i = 1; i < NF; i++) if ($i == "work:") { k = $(i + 1); sub(/,$/, "", k); w[k] = 1 }; next }
		{ for (i = 1; i < NF; i++) { if ($i == "work:") { k = $(i + 1); sub(/,$/, "", k) }; if ($i == "hitcount:") h = $(i + 1) } }
		(k in w) && $0 ~ only { s += h } { k = "" }
		/Dropped:/ { d = $2 }
		END { printf "{ workqueue: wqflood } hitcount: %d|Dropped: %d|", s, d }' "$1" "$2"
}

# the flood at the highest rate with no tracing, then with each in-kernel variant on
bench_kernel() {
	local T=/sys/kernel/tracing E=/sys/kernel/tracing/events/workqueue rate v
	echo "0 5000" >$P/flood
	echo "@@BENCH-RAW path=none when=last rate=0 probe=$(tr ' ' , <$P/flood)"
	[ -e $E/workqueue_queue_work/hist ] && [ -e $T/synthetic_events ] || return 0
	for v in count lat full; do
		for rate in 100000 0; do
			: >$T/error_log 2>/dev/null
			if ! hist_on $v 2>/tmp/hist.err; then
				echo "@@BENCH-HIST-ERR $v: $(tr '\n' ' ' </tmp/hist.err) $(tr '\n' ' ' <$T/error_log)"
				hist_off $v 2>/dev/null
				continue 2
			fi
			echo "$rate 5000" >$P/flood
			sleep 1
			echo "@@BENCH-HIST variant=$v rate=$rate probe=$(tr ' ' , <$P/flood)"
			if [ $v = full ]; then
				echo "@@BENCH-HIST-QUEUED $(hist_lines $E/workqueue_queue_work/hist)"
				echo "@@BENCH-HIST-WAIT $(hist_lines $T/events/synthetic/wqb_wait/hist)"
				echo "@@BENCH-HIST-RUN $(hist_lines $T/events/synthetic/wqb_run/hist)"
			elif [ $v = lat ]; then
				echo "@@BENCH-HIST-QUEUED $(hist_join $E/workqueue_queue_work/hist $E/workqueue_queue_work/hist workqueue:)"
				# the flood's function by its name (keys fn.sym)
				echo "@@BENCH-HIST-WAIT $(grep flood_fn $T/events/synthetic/wqb_w/hist | sed 's/flood_fn/wqflood/' | tr -s ' \t' ' ' | tr '\n' '|')"
				echo "@@BENCH-HIST-RUN $(grep flood_fn $T/events/synthetic/wqb_r/hist | sed 's/flood_fn/wqflood/' | tr -s ' \t' ' ' | tr '\n' '|')"
			else
				# the per-work queue hist holds the wqflood lines; summed, as full's one line
				echo "@@BENCH-HIST-QUEUED $(hist_join $E/workqueue_queue_work/hist $E/workqueue_queue_work/hist workqueue:)"
				echo "@@BENCH-HIST-WAIT $(hist_join $E/workqueue_queue_work/hist $E/workqueue_execute_start/hist)"
				echo "@@BENCH-HIST-RUN $(hist_join $E/workqueue_queue_work/hist $E/workqueue_execute_end/hist)"
			fi
			# the files as the kernel wrote them, once (fixtures for wqctl's reader)
			if [ $v = lat ] && [ $rate = 100000 ]; then
				mkdir -p /tmp/hraw
				for f in queue_work activate_work execute_start execute_end; do
					cp $E/workqueue_$f/hist /tmp/hraw/workqueue_$f.hist
					cp $E/workqueue_$f/trigger /tmp/hraw/workqueue_$f.trigger
				done
				cp $T/events/synthetic/wqb_w/hist /tmp/hraw/wqb_w.hist
				cp $T/events/synthetic/wqb_r/hist /tmp/hraw/wqb_r.hist
				cp $T/synthetic_events /tmp/hraw/synthetic_events
				echo "@@BENCH-HISTRAW $(tar -C /tmp/hraw -czf - . | base64 -w0)"
			fi
			hist_off $v 2>/dev/null
			echo "@@BENCH-HIST-OFF synthetic=$(grep -c wqb_ $T/synthetic_events) triggers=$(cat $E/*/trigger | grep -c '^hist')"
		done
	done
}

# One profile set for a fleet of 6.1 to 7.x (issue 59): its 7.x-only settings guarded by
# 'kernels =' (a profile) and 'when' (a section); the host judges what applied. The values
# are put back by hand afterwards (a revert would also undo the commands above).
fleet_truth() {
	local w=/sys/devices/virtual/workqueue d=/sys/module/workqueue/parameters/default_affinity_scope n0 s0 b0 d0
	mkdir -p /tmp/fleet
	printf '[workqueue writeback]\nnice = 3\n[workqueue writeback]\nwhen = kernel >= 7.1\naffinity_scope = cache_shard\n' \
		>/tmp/fleet/fleet-storage.conf
	printf '[profile]\nkernels = 7.1-\n[global]\ndefault_affinity_scope = cache_shard\n[workqueue blkcg_punt_bio]\naffinity_scope = cache_shard\n' \
		>/tmp/fleet/fleet-7x.conf
	n0=$(cat $w/writeback/nice) s0=$(cat $w/writeback/affinity_scope 2>/dev/null) b0=$(cat $w/blkcg_punt_bio/affinity_scope 2>/dev/null)
	d0=$(cat $d 2>/dev/null)
	wqctl --profile-dir /tmp/fleet check --profile fleet-storage --profile fleet-7x >/tmp/fleet.out 2>&1
	echo "@@FLEET check rc=$?"
	wqctl --profile-dir /tmp/fleet apply --profile fleet-storage --profile fleet-7x >/tmp/fleet.out 2>&1
	echo "@@FLEET apply rc=$? nice=$(cat $w/writeback/nice) scope=$(cat $w/writeback/affinity_scope 2>/dev/null | tr ' ' _)" \
		"blkcg=$(cat $w/blkcg_punt_bio/affinity_scope 2>/dev/null | tr ' ' _) default=$(cat $d 2>/dev/null)"
	sed 's/^/@@FLEET-OUT /' /tmp/fleet.out
	wqctl --profile-dir /tmp/fleet verify --profile fleet-storage --profile fleet-7x -r -n -o TARGET,STATUS,CONDITION >/tmp/fleet.out 2>&1
	echo "@@FLEET verify rc=$?"
	sed 's/^/@@FLEET-VERIFY /' /tmp/fleet.out
	echo "$n0" >$w/writeback/nice
	[ -z "$s0" ] || echo "${s0%% *}" >$w/writeback/affinity_scope
	[ -z "$b0" ] || echo "${b0%% *}" >$w/blkcg_punt_bio/affinity_scope
	[ -z "$d0" ] || echo "$d0" >$d
}

# an isolation boot runs only that
if [ "$MODE" = isolation ]; then
	isolation_truth
	exit 0
fi
if [ "$MODE" = rootmask ]; then
	rootmask_truth
	exit 0
fi
if [ "$MODE" = bench ]; then
	bench_monitor
	bench_observer
	bench_kernel
	exit 0
fi
raw_files
wqctl dump /tmp/dump >/dev/null 2>&1 && echo "@@DUMP $(tar -C /tmp/dump -czf - . | base64 -w0)"
# every task's stat line as the kernel prints it: the host finds the rescuer threads in them
for f in /proc/[0-9]*/stat; do read -r l <"$f" 2>/dev/null && echo "@@STAT $l"; done
for c in "show" "topology -J" "topology --scope cache -r" "topology --scope numa -r" "explain writeback" \
	"check" "knob" "set writeback max_active=64" "get writeback max_active" "set writeback max_active=8" \
	"knob default_affinity_scope" "get writeback" "show --outside -r -n -o NAME,TRUNCATED"; do
	# shellcheck disable=SC2086
	run_cmd $c
done
fleet_truth
case ,$MODE, in *,pods,*) pods_truth ;; esac
# a kernel without headers (6.18) boots without the probe
[ -f /wqprobe.ko ] || exit 0
insmod /wqprobe.ko || echo "@@RC 1 insmod"
echo 16 >$P/create && run_cmd show wqprobe && run_cmd get wqprobe
# real trees for the fixtures: created with 16 then set to 1, and created with 1
wqctl set --force wqprobe max_active=1 >/dev/null 2>&1
rm -rf /tmp/dump && wqctl dump /tmp/dump >/dev/null 2>&1 && echo "@@DUMP-SET1 $(tar -C /tmp/dump -czf - . | base64 -w0)"
echo 1 >$P/create
rm -rf /tmp/dump && wqctl dump /tmp/dump >/dev/null 2>&1 && echo "@@DUMP-CREATED1 $(tar -C /tmp/dump -czf - . | base64 -w0)"
case ,$MODE, in *,matrix,*) probe_matrix ;; esac
case ,$MODE, in *,monitor,*) monitor_truth; kcount_truth ;; esac
case ,$MODE, in *,experiment,*) experiment_truth ;; esac
exit 0
