// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rescuer threads from /proc/PID/stat lines. The 6.18 lines are copied from
 * this project's development machine (Debian 12, kernel 6.18); the flags
 * field 69238880 is 0x4208060: PF_KTHREAD (0x200000) and PF_WQ_WORKER (0x20)
 * among others; ksoftirqd's 69238848 lacks PF_WQ_WORKER. The 6.1 line has
 * the form kernel/workqueue.c init_rescuer() gave before 6.9: the
 * workqueue's name cut to TASK_COMM_LEN - 1 = 15 characters.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/core/rescuer.h"
#include "tap.h"

#define TAIL                                                                                                           \
	" I 2 0 0 0 -1 69238880 0 0 0 0 0 0 0 0 0 -20 1 0 20 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0"

static int parse(const char *line, struct wq_rescuer *r)
{
	return wq_rescuer_parse(line, r);
}

int main(void)
{
	struct wq_rescuer r;

	ok(parse("36 (kworker/R-writeback)" TAIL, &r) == 1, "6.18: kworker/R-writeback is a rescuer");
	is_str(r.name, "writeback", "its workqueue is writeback");
	ok(!r.truncated, "a kworker/R- name is whole");
	ok(wq_rescuer_is(&r, "writeback") && !wq_rescuer_is(&r, "writeback2"), "it is writeback's and no other's");

	ok(parse("20116 (kworker/0:1) I 2 0 0 0 -1 69238880 0 0 0 0 0 0 0 0 20 0 1 0 7826817 0 0 18446744073709551615 "
		 "0 0 0 0 0 0 0 2147483647 0 1 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
		 &r) == 0,
	   "kworker/0:1, a per-CPU pool's worker, is not");
	ok(parse("17053 (kworker/0:0H-kblockd)" TAIL, &r) == 0,
	   "kworker/0:0H-kblockd (a worker running kblockd's work) is not");
	ok(parse("50 (kworker/u9:0)" TAIL, &r) == 0, "kworker/u9:0, an unbound pool's worker, is not");
	ok(parse("99 (kworker/dying)" TAIL, &r) == 0, "kworker/dying is not");
	ok(parse(
	       "14 (ksoftirqd/0) S 2 0 0 0 -1 69238848 0 0 0 0 17 1488 0 0 20 0 1 0 19 0 0 18446744073709551615 0 0 0 "
	       "0 0 0 0 2147483647 0 1 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
	       &r) == 0,
	   "ksoftirqd/0 (no PF_WQ_WORKER) is not");
	ok(parse("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 7 0 0 20 0 1 0 19 0 0 18446744073709551615 0 0 0 0 0 0 0 "
		 "2147483647 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
		 &r) == 0,
	   "kthreadd is not");
	/* a user process named as a rescuer: PF_KTHREAD is not set */
	ok(parse("1 (kworker/R-fake) S 0 0 0 0 -1 4194592 86759 0 0 0 0 0 0 0 10 -10 18 0 19 0 0 0", &r) == 0,
	   "a user process that calls itself kworker/R-fake is not");

	/* before 6.9: the thread is the workqueue's name, cut at 15 */
	ok(parse("86 (ext4-rsv-conver)" TAIL, &r) == 1, "6.1: ext4-rsv-conver is a rescuer");
	is_str(r.name, "ext4-rsv-conver", "named as the thread is");
	ok(r.truncated, "15 characters: maybe cut");
	ok(wq_rescuer_is(&r, "ext4-rsv-conversion"), "it may be ext4-rsv-conversion's");
	ok(parse("41 (kblockd)" TAIL, &r) == 1 && !r.truncated && wq_rescuer_is(&r, "kblockd") &&
	       !wq_rescuer_is(&r, "kblockd2"),
	   "6.1: kblockd is whole, kblockd's alone");

	/* after the rename, where /proc shows the task's own name: kworker/R- and 5 characters */
	ok(parse("4 (kworker/R-rcu_g)" TAIL, &r) == 1 && r.truncated, "kworker/R-rcu_g fills 15 characters: cut");
	is_str(r.name, "rcu_g", "what is left of the name");
	ok(wq_rescuer_is(&r, "rcu_gp") && !wq_rescuer_is(&r, "rcu_par_gp"), "it may be rcu_gp's, not rcu_par_gp's");
	ok(parse("55 (kworker/R-mld)" TAIL, &r) == 1 && !r.truncated, "kworker/R-mld (13 characters) is whole");

	/* the name ends at the last ')': a name may hold ") " */
	ok(parse("7 (kworker/R-a) b)" TAIL, &r) == 1, "a name holding ') ' parses to its last ')'");
	is_str(r.name, "a) b", "the whole name");
	ok(parse("8 (kworker/R+desc)" TAIL, &r) == 1 && !strcmp(r.name, "desc"), "kworker/R+NAME reads as NAME");
	ok(parse("9 (kworker/Rx)" TAIL, &r) == 0, "kworker/Rx is not a rescuer's form");

	ok(parse("garbage", &r) == -EINVAL, "no name: -EINVAL");
	ok(parse("1 (x)", &r) == -EINVAL, "no fields after the name: -EINVAL");
	ok(parse("1 )x( I 2", &r) == -EINVAL, "')' before '(': -EINVAL");
	return tap_done();
}
