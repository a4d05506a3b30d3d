// SPDX-License-Identifier: GPL-2.0-or-later
/* Workqueue counts from hist triggers in an instance of our own, joined on the function or the work pointer. */
#define _GNU_SOURCE
#include "khist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/ctx.h"
#include "../util/dl.h"
#include "hist.h"
#include "fnjoin.h"
#include "kjoin.h"
#include "klat.h"
#include "../util/macro.h"
#include "../core/root.h"
#include "trace.h"

#define INSTANCE_PREFIX "wqctl-hist-"
#define STR_(x) #x
#define STR(x) STR_(x)

enum { QUEUE = WQ_KJ_QUEUE, ACTIVATE = WQ_KJ_ACTIVATE, START = WQ_KJ_START, END = WQ_KJ_END, NEV = WQ_KJ_NEV };

static const char *const event_names[NEV] = {
    [QUEUE] = "workqueue_queue_work",
    [ACTIVATE] = "workqueue_activate_work",
    [START] = "workqueue_execute_start",
    [END] = "workqueue_execute_end",
};

/*
 * The triggers, written as the kernel prints them back (so that '!' + the
 * line removes one): keyed by function where all four events carry it
 * (6.10+), by work pointer before.
 */
#define TRIGGER(keys, size) "hist:keys=" keys ":vals=hitcount:sort=hitcount:size=" STR(size)
enum key_kind { BY_FUNCTION, BY_WORK, NKIND };
static const char *const sec_keys[NKIND][NEV] = {
    [BY_FUNCTION] = {"function.sym,workqueue", "function.sym", "function.sym", "function.sym"},
    [BY_WORK] = {"work,workqueue", "work", "work", "work"},
};
static const char *const triggers[NKIND][NEV] = {
    [BY_FUNCTION] = {TRIGGER("function.sym,workqueue", WQ_KHIST_FN_MAP_SIZE),
		     TRIGGER("function.sym", WQ_KHIST_FN_MAP_SIZE), TRIGGER("function.sym", WQ_KHIST_FN_MAP_SIZE),
		     TRIGGER("function.sym", WQ_KHIST_FN_MAP_SIZE)},
    [BY_WORK] = {TRIGGER("work,workqueue", WQ_KHIST_MAP_SIZE), TRIGGER("work", WQ_KHIST_MAP_SIZE),
		 TRIGGER("work", WQ_KHIST_MAP_SIZE), TRIGGER("work", WQ_KHIST_MAP_SIZE)},
};

struct wq_khist {
	struct wq_ctx *ctx;
	const struct wq_libtrace *L;
	struct tracefs_instance *inst;
	char name[64];
	enum key_kind kind;
	struct wq_kjoin *join; /* BY_WORK */
	struct wq_fnjoin *fnjoin; /* BY_FUNCTION */
	struct wq_klat *klat; /* wait and run times (BY_FUNCTION only) */
	unsigned long long times_dropped; /* by the last read */
};

bool wq_khist_available(struct wq_ctx *ctx)
{
	_cleanup_free_ char *p = NULL;
	const struct wq_libtrace *L;
	const char *dir;

	if (!wq_root_is_live(ctx->root) || !(L = wq_libtrace()) || !(dir = wq_trace_mount(L)))
		return false;
	if (asprintf(&p, "%s/events/workqueue/workqueue_queue_work/hist", dir) < 0)
		return false;
	return access(p, R_OK) == 0;
}

const char *wq_khist_instance(const struct wq_khist *k)
{
	return k->name;
}

/*
 * Remove the triggers of an instance (ours, or a killed run's, of either
 * kind) so that it can go; one that was never set fails alone, harmlessly.
 */
static void unset(const struct wq_libtrace *L, struct tracefs_instance *inst, const char *tag)
{
	(void)tag; /* the triggers do not name it */
	/* the reverse of set-up order */
	for (int kind = 0; kind < NKIND; kind++)
		for (int i = NEV - 1; i >= 0; i--) {
			_cleanup_free_ char *cmd = NULL;

			if (asprintf(&cmd, "!%s", triggers[kind][i]) >= 0)
				L->tracefs_event_file_append(inst, "workqueue", event_names[i], "trigger", cmd);
		}
}

/* Whether activate_work carries the function (6.10+), as its format file says. */
static bool activate_has_function(const struct wq_libtrace *L)
{
	_cleanup_free_ char *fmt = L->tracefs_event_file_read(NULL, "workqueue", event_names[ACTIVATE], "format", NULL);

	return fmt && strstr(fmt, " function;");
}

bool wq_khist_times_available(struct wq_ctx *ctx)
{
	const struct wq_libtrace *L = wq_libtrace();

	return L && wq_khist_available(ctx) && activate_has_function(L) && wq_klat_available(ctx);
}

void wq_khist_tidy(struct wq_ctx *ctx)
{
	const struct wq_libtrace *L;
	char why[200];
	int r;
	const char *dir = wq_trace_dir(ctx, &L, &r, why, sizeof(why));

	if (!dir || !wq_khist_available(ctx))
		return;
	wq_trace_remove_stale(ctx, L, dir, INSTANCE_PREFIX, unset, "the hist triggers");
	wq_klat_remove_stale(ctx);
}

int wq_khist_open(struct wq_ctx *ctx, bool times, struct wq_khist **out, char *why, size_t whysz)
{
	const struct wq_libtrace *L;
	struct wq_khist *k;
	const char *dir;
	int r;

	*out = NULL;
	dir = wq_trace_dir(ctx, &L, &r, why, whysz);
	if (!dir)
		return r;
	if (!wq_khist_available(ctx)) {
		snprintf(why, whysz,
			 "%s/events/workqueue/workqueue_queue_work/hist: missing (a kernel without "
			 "CONFIG_HIST_TRIGGERS)",
			 dir);
		return -ENOTSUP;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->ctx = ctx;
	k->L = L;
	k->kind = activate_has_function(L) ? BY_FUNCTION : BY_WORK;
	if (k->kind == BY_FUNCTION ? !(k->fnjoin = wq_fnjoin_new()) : !(k->join = wq_kjoin_new())) {
		wq_khist_close(k);
		return -ENOMEM;
	}
	wq_trace_remove_stale(ctx, L, dir, INSTANCE_PREFIX, unset, "the hist triggers");
	if (!times || k->kind != BY_FUNCTION)
		wq_klat_remove_stale(ctx); /* wq_klat_open() does it otherwise */
	snprintf(k->name, sizeof(k->name), INSTANCE_PREFIX "%s", wq_trace_tag());
	k->inst = k->L->tracefs_instance_create(k->name);
	if (!k->inst) {
		int e = errno ? errno : EIO;

		snprintf(why, whysz, "%s/instances/%s: cannot create: %s", dir, k->name, wq_strerror(e));
		wq_khist_close(k);
		return -e;
	}
	/* the times first: the count triggers set last say that all is ready */
	if (times && k->kind == BY_FUNCTION && (r = wq_klat_open(ctx, &k->klat, why, whysz)) < 0) {
		wq_khist_close(k);
		return r;
	}
	for (int i = 0; i < NEV; i++) {
		if (k->L->tracefs_event_file_append(k->inst, "workqueue", event_names[i], "trigger",
						    triggers[k->kind][i]) < 0) {
			int e = errno ? errno : EIO;

			snprintf(why, whysz, "instances/%s/events/workqueue/%s/trigger: cannot set a hist trigger: %s",
				 k->name, event_names[i], wq_strerror(e));
			wq_khist_close(k);
			return -e;
		}
	}
	*out = k;
	return 0;
}

/* The one section of ours in an event's hist file. */
static int read_hist(struct wq_khist *k, int ev, struct wq_hist *h, const struct wq_hist_sec **sec, char *why,
		     size_t whysz)
{
	char *text = k->L->tracefs_event_file_read(k->inst, "workqueue", event_names[ev], "hist", NULL);
	char pwhy[200];
	int r;

	if (!text) {
		int e = errno ? errno : EIO;

		snprintf(why, whysz, "instances/%s/events/workqueue/%s/hist: %s", k->name, event_names[ev],
			 wq_strerror(e));
		return -e;
	}
	r = wq_hist_parse(text, h, pwhy, sizeof(pwhy));
	if (r < 0) {
		snprintf(why, whysz, "instances/%s/events/workqueue/%s/hist: %s", k->name, event_names[ev], pwhy);
		return r;
	}
	*sec = wq_hist_section(h, sec_keys[k->kind][ev]);
	if (!*sec) {
		snprintf(why, whysz, "instances/%s/events/workqueue/%s/hist: no hist keyed by %s", k->name,
			 event_names[ev], sec_keys[k->kind][ev]);
		wq_hist_clear(h);
		return -EBADMSG;
	}
	return 0;
}

/* The wait and run times of the same read, into the join. */
static int read_times(struct wq_khist *k, char *why, size_t whysz)
{
	struct wq_hist wait = {0}, run = {0};
	const struct wq_hist_sec *ws, *rs;
	int r = wq_klat_read(k->klat, &wait, &run, &ws, &rs, why, whysz);

	if (r == 0 && (r = wq_fnjoin_feed_lat(k->fnjoin, ws, rs, &k->times_dropped)) == -EBADMSG)
		snprintf(why, whysz, "instances: a wait or run time key not as \"[ADDR] SYMBOL\" and \"~ 2^K\"");
	wq_hist_clear(&wait);
	wq_hist_clear(&run);
	return r;
}

int wq_khist_read(struct wq_khist *k, double seconds, const struct wq_mon_row **out, size_t *n,
		  unsigned long long *dropped, char *why, size_t whysz)
{
	struct wq_hist h[NEV] = {0};
	const struct wq_hist_sec *sec[NEV];
	int r = 0;

	if (whysz)
		why[0] = '\0';
	/*
	 * The lifecycle backwards: an item's end is read after its start was
	 * (start read later holds it), its start after its queueing.
	 */
	for (int i = NEV - 1; i >= 0 && r == 0; i--)
		r = read_hist(k, i, &h[i], &sec[i], why, whysz);
	if (r == 0) {
		r = k->fnjoin ? wq_fnjoin_feed(k->fnjoin, sec, dropped) : wq_kjoin_feed(k->join, sec, dropped);
		if (r == 0 && k->klat)
			r = read_times(k, why, whysz);
		if (r == 0)
			r = k->fnjoin ? wq_fnjoin_rows(k->fnjoin, false, seconds, out, n)
				      : wq_kjoin_rows(k->join, false, seconds, out, n);
		if (r == -EBADMSG && !*why)
			snprintf(why, whysz, "instances/%s/events/workqueue: a function key not as \"[ADDR] SYMBOL\"",
				 k->name);
		else if (r < 0 && !*why)
			snprintf(why, whysz, "%s", wq_strerror(-r));
	}
	for (int i = 0; i < NEV; i++)
		wq_hist_clear(&h[i]);
	return r;
}

int wq_khist_summary(struct wq_khist *k, double seconds, const struct wq_mon_row **out, size_t *n)
{
	return k->fnjoin ? wq_fnjoin_rows(k->fnjoin, true, seconds, out, n)
			 : wq_kjoin_rows(k->join, true, seconds, out, n);
}

unsigned long long wq_khist_times_dropped(const struct wq_khist *k)
{
	return k->times_dropped;
}

bool wq_khist_by_function(const struct wq_khist *k)
{
	return k->kind == BY_FUNCTION;
}

bool wq_khist_next_shared(struct wq_khist *k, const char **fn, char *buf, size_t bufsz)
{
	return k->fnjoin && wq_fnjoin_next_shared(k->fnjoin, fn, buf, bufsz);
}

void wq_khist_close(struct wq_khist *k)
{
	if (!k)
		return;
	if (k->inst) {
		unset(k->L, k->inst, NULL);
		k->L->tracefs_instance_destroy(k->inst);
		k->L->tracefs_instance_free(k->inst);
	}
	wq_klat_close(k->klat);
	wq_kjoin_free(k->join);
	wq_fnjoin_free(k->fnjoin);
	free(k);
}
