// SPDX-License-Identifier: GPL-2.0-or-later
/* Cancellation: the signal handler that marks the armed object and passes the signal on to its child. */
#define _GNU_SOURCE
#include "cancel.h"

#include <errno.h>
#include <stddef.h>

static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
/* the object the handler marks: a handler has no argument of its own */
static struct wq_cancel *volatile armed;

static void on_signal(int sig)
{
	struct wq_cancel *c = armed;

	if (!c)
		return;
	c->sig = sig;
	if (c->child > 0)
		kill(c->child, sig);
}

int wq_cancel_arm(struct wq_cancel *c)
{
	struct sigaction sa = {.sa_handler = on_signal};

	if (armed)
		return -EBUSY;
	c->sig = 0;
	armed = c;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++) {
		if (sigaction(sigs[i], &sa, &c->old[i]) < 0) {
			int e = -errno;

			while (i-- > 0)
				sigaction(sigs[i], &c->old[i], NULL);
			armed = NULL;
			return e;
		}
	}
	c->armed = true;
	return 0;
}

void wq_cancel_disarm(struct wq_cancel *c)
{
	if (!c->armed)
		return;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &c->old[i], NULL);
	c->armed = false;
	armed = NULL;
}

bool wq_cancelled(const struct wq_cancel *c)
{
	return c && c->sig;
}
