// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of tracefs instances a killed wqctl left (lib/trace): only
 * the exact names wqctl makes are taken as its own, so that the clean-up
 * never removes another tool's instance (issue 60 item 14), and only a run
 * of this PID namespace can be proven gone (item 7).
 */
#include <stdio.h>
#include <unistd.h>

#include "lib/obs/trace.h"
#include "tap.h"

int main(void)
{
	static const struct {
		const char *name;
		long pid;
		unsigned long long ns;
	} cases[] = {
	    {"wqctl-monitor-123_4026531836", 123, 4026531836ULL},
	    {"wqctl-monitor-2147483647_1", 2147483647, 1},
	    {"wqctl-monitor-1_0", 1, 0},
	    {"wqctl-monitor-1_18446744073709551615", 1, 18446744073709551615ULL},
	    /* an older wqctl's name, without its namespace: not provably ours */
	    {"wqctl-monitor-123", -1, 0},
	    {"wqctl-monitor-+123_1", -1, 0},
	    {"wqctl-monitor-0123_1", -1, 0},
	    {"wqctl-monitor- 123_1", -1, 0},
	    {"wqctl-monitor-123x_1", -1, 0},
	    {"wqctl-monitor-123_", -1, 0},
	    {"wqctl-monitor-123_01", -1, 0},
	    {"wqctl-monitor-123_1x", -1, 0},
	    {"wqctl-monitor-123_-1", -1, 0},
	    {"wqctl-monitor-123__1", -1, 0},
	    {"wqctl-monitor-123_18446744073709551616", -1, 0},
	    {"wqctl-monitor--123_1", -1, 0},
	    {"wqctl-monitor-0_1", -1, 0},
	    {"wqctl-monitor-_1", -1, 0},
	    {"wqctl-monitor-", -1, 0},
	    {"wqctl-monitor-2147483648_1", -1, 0},
	    {"wqctl-monitor-99999999999999999999_1", -1, 0},
	    {"wqctl-hist-123_1", -1, 0},
	    {"other-monitor-123_1", -1, 0},
	};
	char self[64];
	unsigned long long ns = 0, myns;
	long me;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long got;

		ns = 7;
		got = wq_trace_instance_pid(cases[i].name, "wqctl-monitor-", &ns);
		ok(got == cases[i].pid && (got < 0 || ns == cases[i].ns), "'%s' is %s (got %ld, ns %llu)",
		   cases[i].name, cases[i].pid > 0 ? "ours" : "not ours", got, ns);
	}
	/* this process's tag parses back to itself, with the namespace /proc names */
	snprintf(self, sizeof(self), "wqctl-monitor-%s", wq_trace_tag());
	me = wq_trace_instance_pid(self, "wqctl-monitor-", &myns);
	ok(me == (long)getpid() && myns > 0, "the tag '%s' is this process's (pid %ld, ns %llu)", self, me, myns);
	/* proof of death: only a pid that does not run, in this namespace */
	ok(!wq_trace_owner_gone(me, myns), "this process is not gone");
	ok(!wq_trace_owner_gone(2147483646, myns + 1), "a pid in another namespace is never proven gone");
	ok(!wq_trace_owner_gone(2147483646, 0), "nor one in an unknown namespace");
	ok(wq_trace_owner_gone(2147483646, myns), "a pid that does not run in this namespace is gone");
	return tap_done();
}
