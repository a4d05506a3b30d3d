// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of tracefs instances a killed wqctl left (lib/trace): only
 * the exact names wqctl makes are taken as its own, so that the clean-up
 * never removes another tool's instance (issue 60 item 14).
 */
#include <stdio.h>

#include "lib/trace.h"
#include "tap.h"

int main(void)
{
	static const struct {
		const char *name;
		long pid;
	} cases[] = {
	    {"wqctl-monitor-123", 123},
	    {"wqctl-monitor-2147483647", 2147483647},
	    {"wqctl-monitor-+123", -1},
	    {"wqctl-monitor-0123", -1},
	    {"wqctl-monitor- 123", -1},
	    {"wqctl-monitor-123x", -1},
	    {"wqctl-monitor--123", -1},
	    {"wqctl-monitor-0", -1},
	    {"wqctl-monitor-", -1},
	    {"wqctl-monitor-2147483648", -1},
	    {"wqctl-monitor-99999999999999999999", -1},
	    {"wqctl-hist-123", -1},
	    {"other-monitor-123", -1},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long got = wq_trace_instance_pid(cases[i].name, "wqctl-monitor-");

		ok(got == cases[i].pid, "'%s' is %s (got %ld)", cases[i].name, cases[i].pid > 0 ? "ours" : "not ours",
		   got);
	}
	return tap_done();
}
