// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check --isolation's grouping: the traced executions on isolated CPUs by
 * workqueue, function and worker kind, each with where it was queued from
 * and its run time. Pure: events in, rows out.
 */
#define _GNU_SOURCE
#include "isogroup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"
#include "monitor.h"

/* work pointer -> its latest queue_work (open addressing, grows at half full) */
struct qslot {
	uint64_t work;
	const struct wq_trace_ev *q;
};
struct qmap {
	struct qslot *s;
	size_t cap, n;
};

static size_t qhash(uint64_t w, size_t cap)
{
	w ^= w >> 33;
	w *= 0xff51afd7ed558ccdULL;
	w ^= w >> 33;
	return (size_t)w & (cap - 1);
}

static int qput(struct qmap *m, uint64_t work, const struct wq_trace_ev *q)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct qmap g = {.cap = m->cap ? m->cap * 2 : 1024};

		g.s = calloc(g.cap, sizeof(*g.s));
		if (!g.s)
			return -ENOMEM;
		for (size_t k = 0; k < m->cap; k++)
			if (m->s[k].work)
				qput(&g, m->s[k].work, m->s[k].q);
		free(m->s);
		*m = g;
	}
	for (i = qhash(work, m->cap); m->s[i].work && m->s[i].work != work; i = (i + 1) & (m->cap - 1))
		;
	m->n += !m->s[i].work;
	m->s[i].work = work;
	m->s[i].q = q;
	return 0;
}

static const struct wq_trace_ev *qget(const struct qmap *m, uint64_t work)
{
	if (!m->cap)
		return NULL;
	for (size_t i = qhash(work, m->cap); m->s[i].work; i = (i + 1) & (m->cap - 1))
		if (m->s[i].work == work)
			return m->s[i].q;
	return NULL;
}

/* a worker running an item on an isolated CPU (one at a time per worker) */
struct running {
	int pid;
	uint64_t work, ts;
	size_t row;
};

static int row_for(struct wq_iso_rows *out, const char *wq, uint64_t fn, enum wq_worker_kind kind, size_t *idx)
{
	struct wq_iso_row *nv, *r;

	for (size_t i = 0; i < out->n; i++) {
		if (out->v[i].fn == fn && out->v[i].kind == kind && !strcmp(out->v[i].wq, wq)) {
			*idx = i;
			return 0;
		}
	}
	nv = realloc(out->v, sizeof(*nv) * (out->n + 1));
	if (!nv)
		return -ENOMEM;
	out->v = nv;
	r = &nv[out->n];
	memset(r, 0, sizeof(*r));
	snprintf(r->wq, sizeof(r->wq), "%s", wq);
	r->fn = fn;
	r->kind = kind;
	r->worker_pid = r->queuer_pid = -1;
	r->cpus = wq_cpuset_new();
	r->from = wq_cpuset_new();
	if (!r->cpus || !r->from)
		return -ENOMEM;
	*idx = out->n++;
	return 0;
}

int wq_iso_group(const struct wq_trace_ev *ev, size_t n, const struct wq_cpuset *isolated, wq_iso_kind_fn kind,
		 void *data, struct wq_iso_rows *out)
{
	struct qmap qm = {0};
	struct running *run = NULL;
	size_t nrun = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n && r == 0; i++) {
		const struct wq_trace_ev *e = &ev[i];

		if (e->ev == WQ_EV_QUEUE) {
			r = qput(&qm, e->work, e);
		} else if (e->ev == WQ_EV_START && e->cpu >= 0 && wq_cpuset_test(isolated, (unsigned int)e->cpu)) {
			const struct wq_trace_ev *q = qget(&qm, e->work);
			struct wq_iso_row *row;
			struct running *nr;
			size_t idx, k;

			r = row_for(out, q && q->wq[0] ? q->wq : "?", e->fn, kind(e->pid, data), &idx);
			if (r < 0)
				break;
			row = &out->v[idx];
			row->count++;
			if ((r = wq_cpuset_set(row->cpus, (unsigned int)e->cpu)) < 0)
				break;
			if (row->worker_pid < 0)
				row->worker_pid = e->pid;
			if (q) {
				if ((r = wq_cpuset_set(row->from, (unsigned int)q->cpu)) < 0)
					break;
				row->from_here += q->cpu == e->cpu;
				if (row->queuer_pid < 0)
					row->queuer_pid = q->pid;
			}
			for (k = 0; k < nrun && run[k].pid != e->pid; k++)
				;
			if (k == nrun) {
				nr = realloc(run, sizeof(*run) * (nrun + 1));
				if (!nr) {
					r = -ENOMEM;
					break;
				}
				run = nr;
				nrun++;
			}
			run[k] = (struct running){.pid = e->pid, .work = e->work, .ts = e->ts, .row = idx};
		} else if (e->ev == WQ_EV_END) {
			for (size_t k = 0; k < nrun; k++) {
				if (run[k].pid == e->pid && run[k].work == e->work) {
					out->v[run[k].row].run_ns += e->ts >= run[k].ts ? e->ts - run[k].ts : 0;
					run[k] = run[--nrun];
					break;
				}
			}
		}
	}
	free(qm.s);
	free(run);
	if (r < 0)
		wq_iso_rows_free(out);
	return r;
}

void wq_iso_rows_free(struct wq_iso_rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		wq_cpuset_free(r->v[i].cpus);
		wq_cpuset_free(r->v[i].from);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}
