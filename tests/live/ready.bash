# SPDX-License-Identifier: GPL-2.0-or-later
# The live tier's wait for a monitor, metrics --sample or experiment run to
# count: whichever backend auto took. Our BPF programs attached (and, where
# this kernel's counters can be read, /proc/kcore open after them: the
# counts come from there), the kernel's counters alone (/proc/kcore open),
# or the streaming instance's last event enabled. Then 0.2 s for the first
# read. 1 when none of them within 5 s.

# whether this kernel's counters can be read here (asked once)
kcounters_here() {
	[ -n "${KCOUNTERS_HERE:-}" ] || KCOUNTERS_HERE=$("$WQCTL" kcounters >/dev/null 2>&1 && echo yes || echo no)
	[ "$KCOUNTERS_HERE" = yes ]
}

counting() { # PID
	local _ fds t=/sys/kernel/tracing ns
	ns=$(stat -L -c %i /proc/self/ns/pid)
	for _ in $(seq 100); do
		fds=$(ls -l "/proc/$1/fd" 2>/dev/null)
		if grep -q 'anon_inode:bpf_link' <<<"$fds"; then
			if grep -q /proc/kcore <<<"$fds" || ! kcounters_here; then
				sleep 0.2
				return 0
			fi
		elif grep -q /proc/kcore <<<"$fds" && ! grep -q bpf <<<"$fds"; then
			# the counters alone (--backend counters, or count columns only)
			sleep 0.2
			return 0
		fi
		[ "$(cat "$t/instances/wqctl-monitor-${1}_$ns/events/workqueue/workqueue_execute_end/enable" 2>/dev/null)" = 1 ] && return 0
		sleep 0.05
	done
	return 1
}
