// SPDX-License-Identifier: GPL-2.0-or-later
/* Rescuer threads read from /proc/PID/stat: the workqueues with WQ_MEM_RECLAIM. */
#define _GNU_SOURCE
#include "rescuer.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"
#include "root.h"
#include "wq.h"

/* include/linux/sched.h, the same value from 2.6 to 7.x */
#define PF_WQ_WORKER 0x00000020UL
#define PF_KTHREAD 0x00200000UL
/* TASK_COMM_LEN - 1: what /proc shows of a task's own name */
#define COMM_KEEP 15

/*
 * A pool's worker rather than a rescuer: kworker/CPU:ID[H], kworker/uPOOL:ID
 * and kworker/dying (kernel/workqueue.c format_worker_id(), create_worker()).
 */
static bool pool_worker(const char *comm)
{
	const char *p = comm + strlen("kworker/");

	if (strncmp(comm, "kworker/", strlen("kworker/")))
		return false;
	if (*p == 'u')
		p++;
	return isdigit((unsigned char)*p) || !strcmp(p, "dying");
}

int wq_rescuer_parse(const char *stat, struct wq_rescuer *r)
{
	const char *open = strchr(stat, '('), *close = strrchr(stat, ')'), *comm;
	unsigned long flags;
	char *end;
	size_t len;

	memset(r, 0, sizeof(*r));
	if (!open || !close || close < open)
		return -EINVAL;
	/* after the name: state ppid pgrp session tty_nr tpgid flags */
	if (sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return -EINVAL;
	if ((flags & (PF_KTHREAD | PF_WQ_WORKER)) != (PF_KTHREAD | PF_WQ_WORKER))
		return 0;
	comm = open + 1;
	len = (size_t)(close - comm);
	if (len == 0 || len >= sizeof(r->name))
		return len ? -EINVAL : 0;
	memcpy(r->name, comm, len);
	r->name[len] = '\0';
	if (pool_worker(r->name))
		return 0;
	/*
	 * The thread's name is cut at 15 characters where /proc shows the task's
	 * own (before the full worker names): NAME up to 6.7, kworker/R-NAME
	 * (NAME cut at 5) after the rename; later kernels show kworker/R-NAME whole.
	 */
	r->comm_len = len;
	r->truncated = len == COMM_KEEP;
	if (!strncmp(r->name, "kworker/R", strlen("kworker/R"))) {
		/* a '+' or '-' then the name (or a description, should that form come) */
		end = r->name + strlen("kworker/R");
		if (*end != '-' && *end != '+')
			return 0;
		memmove(r->name, end + 1, strlen(end + 1) + 1);
	}
	return r->name[0] ? 1 : 0;
}

bool wq_rescuer_is(const struct wq_rescuer *r, const char *name)
{
	return r->truncated ? !strncmp(r->name, name, strlen(r->name)) : streq(r->name, name);
}

struct scan {
	struct wq_ctx *ctx;
	struct wq_rescuer *v;
	size_t n, cap;
	int err, procs;
};

static void one_pid(const char *name, void *data)
{
	struct scan *s = data;
	char rel[32], buf[1024];
	struct wq_rescuer r;
	int len;

	if (s->err || !isdigit((unsigned char)name[0]) || strspn(name, "0123456789") != strlen(name) ||
	    strlen(name) > 10)
		return;
	snprintf(rel, sizeof(rel), "proc/%s/stat", name);
	len = wq_root_read_buf(s->ctx->root, rel, buf, sizeof(buf));
	if (len < 0) /* gone since the listing */
		return;
	s->procs++;
	if (wq_rescuer_parse(buf, &r) != 1)
		return;
	r.pid = atoi(name);
	snprintf(r.rel, sizeof(r.rel), "%s", rel);
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct wq_rescuer *v = reallocarray(s->v, cap, sizeof(*v));

		if (!v) {
			s->err = -ENOMEM;
			return;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = r;
}

static int cmp_name(const void *a, const void *b)
{
	const struct wq_rescuer *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->pid - y->pid;
}

/*
 * Kernel threads are kthreadd's children: its children file (CONFIG_PROC_CHILDREN)
 * lists them, so a machine with thousands of processes reads some hundred
 * stat files, not every one. -errno when there is no such file (a dump).
 */
static int kthreads(struct scan *s)
{
	_cleanup_free_ char *list = NULL;
	char *save = NULL;
	int r = wq_root_read(s->ctx->root, "proc/2/task/2/children", &list);

	if (r < 0)
		return r;
	for (char *tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		one_pid(tok, s);
	return s->procs ? 0 : -ENOENT;
}

int wq_rescuers(struct wq_ctx *ctx, struct wq_rescuer **out, size_t *n)
{
	struct scan s = {.ctx = ctx};
	int r = kthreads(&s);

	if (r < 0 && !s.err) {
		s.procs = 0;
		r = wq_root_each_name(ctx->root, "proc", one_pid, &s);
	}

	*out = NULL;
	*n = 0;
	if (r == 0)
		r = s.err;
	if (r == 0 && s.procs == 0)
		r = -ENOENT;
	if (r < 0) {
		free(s.v);
		return r;
	}
	/* one name longer than 15: this kernel shows them whole, and none was cut */
	for (size_t i = 0; i < s.n; i++)
		if (s.v[i].comm_len > COMM_KEEP)
			for (size_t j = 0; j < s.n; j++)
				s.v[j].truncated = false;
	if (s.n)
		qsort(s.v, s.n, sizeof(*s.v), cmp_name);
	*out = s.v;
	*n = s.n;
	return 0;
}

static void any_pid(const char *name, void *data)
{
	if (isdigit((unsigned char)name[0]))
		*(bool *)data = true;
}

bool wq_rescuers_findable(struct wq_ctx *ctx)
{
	bool any = false;

	/* kthreadd, pid 2 on every kernel; a dump has only its rescuers' files */
	if (wq_root_exists(ctx->root, "proc/2/stat"))
		return true;
	wq_root_each_name(ctx->root, "proc", any_pid, &any);
	return any;
}

/* Drops from v (*n of them, order kept) the rescuers of the workqueues NAMES. */
static void drop_named(struct wq_rescuer *v, size_t *n, char *const *names, size_t nn)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++) {
		bool in = false;

		for (size_t j = 0; j < nn && !in; j++)
			in = wq_rescuer_is(&v[i], names[j]);
		if (!in)
			v[k++] = v[i];
	}
	*n = k;
}

int wq_rescuers_outside(struct wq_ctx *ctx, struct wq_rescuer **out, size_t *n)
{
	char **names = NULL;
	size_t nn = 0, k = 0;
	bool cut = false;
	int r = wq_rescuers(ctx, out, n);

	if (r < 0)
		return r;
	for (size_t i = 0; i < *n; i++)
		cut |= (*out)[i].truncated;
	/* whole names: one lookup each, not a listing of every workqueue in sysfs */
	if (!cut) {
		for (size_t i = 0; i < *n; i++)
			if (!wq_exists(ctx, (*out)[i].name))
				(*out)[k++] = (*out)[i];
		*n = k;
		return 0;
	}
	r = wq_list(ctx, &names, &nn);
	if (r < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return r;
	}
	drop_named(*out, n, names, nn);
	wq_names_free(names, nn);
	return 0;
}
