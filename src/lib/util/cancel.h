/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cancellation: one object a command arms against SIGINT, SIGTERM and
 * SIGHUP and passes into the session it runs (monitor's sampler, the
 * isolation audit, an experiment). The session polls it to stop at its next
 * step, restores what it changed, and the command then says which signal
 * ended it. A child process named in it (an experiment's workload) gets the
 * same signal.
 */
#ifndef WQ_CANCEL_H
#define WQ_CANCEL_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

struct wq_cancel {
	volatile sig_atomic_t sig; /* the signal that asked to stop; 0 while none has */
	volatile pid_t child; /* a process to pass the signal on to, or 0 */
	struct sigaction old[3]; /* the handlers wq_cancel_arm() replaced */
	bool armed;
};

/* Catch SIGINT, SIGTERM and SIGHUP into c until wq_cancel_disarm(); one object armed at a time. 0 or -errno. */
int wq_cancel_arm(struct wq_cancel *c);
/* The handlers as they were before wq_cancel_arm(); c->sig is kept. */
void wq_cancel_disarm(struct wq_cancel *c);
/* Has a signal asked c's session to stop? false for NULL (a session nobody can cancel). */
bool wq_cancelled(const struct wq_cancel *c);

#endif
