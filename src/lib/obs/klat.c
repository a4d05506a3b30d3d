// SPDX-License-Identifier: GPL-2.0-or-later
/* Wait and run times per function and log2 bucket from hist variables and two synthetic events of ours. */
#define _GNU_SOURCE
#include "klat.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/ctx.h"
#include "../util/dl.h"
#include "../util/macro.h"
#include "../core/root.h"
#include "trace.h"

#define INSTANCE_PREFIX "wqctl-lat-"
#define SYNTH_PREFIX "wqctl_"
#define STR_(x) #x
#define STR(x) STR_(x)

/* The synthetic events, @ standing for our tag (wq_trace_tag): the function and the time in microseconds. */
static const char *const synth_fmt[2] = {SYNTH_PREFIX "w_@ u64 fn; u64 wait", SYNTH_PREFIX "r_@ u64 fn; u64 run"};

/* The triggers in set-up order: the system, the event, the trigger (@: our tag). */
static const struct {
	const char *system, *event, *fmt;
} triggers[] = {
    {"workqueue", "workqueue_queue_work",
     "hist:keys=work:size=" STR(WQ_KLAT_VAR_MAP_SIZE) ":ts0=common_timestamp.usecs"},
    {"workqueue", "workqueue_execute_start",
     "hist:keys=work:size=" STR(
	 WQ_KLAT_VAR_MAP_SIZE) ":ts1=common_timestamp.usecs:wait=common_timestamp.usecs-$ts0:"
			       "f=function:onmatch(workqueue.workqueue_queue_work).trace(" SYNTH_PREFIX
			       "w_@,$f,$wait)"},
    {"synthetic", SYNTH_PREFIX "w_@",
     "hist:keys=fn.sym,wait.log2:vals=hitcount,wait:sort=hitcount:size=" STR(WQ_KLAT_MAP_SIZE)},
    {"workqueue", "workqueue_execute_end",
     "hist:keys=work:size=" STR(WQ_KLAT_VAR_MAP_SIZE) ":run=common_timestamp.usecs-$ts1:f2=function:"
						      "onmatch(workqueue.workqueue_execute_start).trace(" SYNTH_PREFIX
						      "r_@,$f2,$run)"},
    {"synthetic", SYNTH_PREFIX "r_@",
     "hist:keys=fn.sym,run.log2:vals=hitcount,run:sort=hitcount:size=" STR(WQ_KLAT_MAP_SIZE)},
};

struct wq_klat {
	const struct wq_libtrace *L;
	struct tracefs_instance *inst;
	char tag[48];
	char name[64];
	char synth[2][64]; /* their names */
	bool made[2];
};

/* tmpl with each '@' replaced by tag (malloc'ed), or NULL. */
static char *subst(const char *tmpl, const char *tag)
{
	const char *num = tag;
	char *out, *o;
	size_t n = 0, len = strlen(tag);

	for (const char *p = tmpl; *p; p++)
		n += *p == '@' ? len : 1;
	out = o = malloc(n + 1);
	if (!out)
		return NULL;
	for (const char *p = tmpl; *p; p++) {
		if (*p == '@') {
			memcpy(o, num, len);
			o += len;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

bool wq_klat_available(struct wq_ctx *ctx)
{
	_cleanup_free_ char *h = NULL, *s = NULL;
	const struct wq_libtrace *L;
	const char *dir;

	if (!wq_root_is_live(ctx->root) || !(L = wq_libtrace()) || !(dir = wq_trace_mount(L)))
		return false;
	if (asprintf(&h, "%s/events/workqueue/workqueue_execute_start/hist", dir) < 0 ||
	    asprintf(&s, "%s/synthetic_events", dir) < 0)
		return false;
	return access(h, R_OK) == 0 && access(s, W_OK) == 0;
}

/* The triggers of tag's instance removed, the reverse of set-up order; one never set fails alone. */
static void unset(const struct wq_libtrace *L, struct tracefs_instance *inst, const char *tag)
{
	for (int i = (int)ARRAY_SIZE(triggers) - 1; i >= 0; i--) {
		_cleanup_free_ char *event = NULL, *cmd = NULL, *t = NULL;

		if (!(event = subst(triggers[i].event, tag)) || !(t = subst(triggers[i].fmt, tag)) ||
		    asprintf(&cmd, "!%s", t) < 0)
			continue;
		L->tracefs_event_file_append(inst, triggers[i].system, event, "trigger", cmd);
	}
}

/* Delete the synthetic events of runs that are gone (after their instances, whose triggers used them). */
static void remove_stale_synth(struct wq_ctx *ctx, const struct wq_libtrace *L)
{
	_cleanup_free_ char *list = L->tracefs_instance_file_read(NULL, "synthetic_events", NULL);

	for (char *line = list, *next; line && *line; line = next) {
		char name[64], cmd[80];
		unsigned long long ns = 0;
		long pid;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strncmp(line, SYNTH_PREFIX, strlen(SYNTH_PREFIX)) || sscanf(line, "%63s", name) != 1)
			continue;
		pid = wq_trace_instance_pid(name, SYNTH_PREFIX "w_", &ns);
		if (pid < 0)
			pid = wq_trace_instance_pid(name, SYNTH_PREFIX "r_", &ns);
		/* running, another namespace's, or not provably gone: left */
		if (pid <= 0 || !wq_trace_owner_gone(pid, ns))
			continue;
		snprintf(cmd, sizeof(cmd), "!%s", name);
		if (L->tracefs_instance_file_append(NULL, "synthetic_events", cmd) >= 0)
			wq_log(ctx, WQ_LOG_INFO, "synthetic_events: removed %s of a monitor that is gone", name);
	}
}

void wq_klat_remove_stale(struct wq_ctx *ctx)
{
	const struct wq_libtrace *L;
	const char *dir;
	char why[300];
	int r;

	if (!wq_klat_available(ctx) || !(dir = wq_trace_dir(ctx, &L, &r, why, sizeof(why))))
		return;
	wq_trace_remove_stale(ctx, L, dir, INSTANCE_PREFIX, unset, "the wait and run time triggers");
	remove_stale_synth(ctx, L);
}

int wq_klat_open(struct wq_ctx *ctx, struct wq_klat **out, char *why, size_t whysz)
{
	const struct wq_libtrace *L;
	struct wq_klat *k;
	const char *dir;
	int r;

	*out = NULL;
	dir = wq_trace_dir(ctx, &L, &r, why, whysz);
	if (!dir)
		return r;
	if (!wq_klat_available(ctx)) {
		snprintf(why, whysz, "%s/synthetic_events: missing (a kernel without CONFIG_SYNTH_EVENTS)", dir);
		return -ENOTSUP;
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->L = L;
	snprintf(k->tag, sizeof(k->tag), "%s", wq_trace_tag());
	wq_klat_remove_stale(ctx);
	for (int i = 0; i < 2; i++) {
		_cleanup_free_ char *def = NULL;

		if (!(def = subst(synth_fmt[i], k->tag))) {
			wq_klat_close(k);
			return -ENOMEM;
		}
		sscanf(def, "%63s", k->synth[i]);
		if (L->tracefs_instance_file_append(NULL, "synthetic_events", def) < 0) {
			int e = errno ? errno : EIO;

			snprintf(why, whysz, "%s/synthetic_events: cannot add %s: %s", dir, k->synth[i],
				 wq_strerror(e));
			wq_klat_close(k);
			return -e;
		}
		k->made[i] = true;
	}
	snprintf(k->name, sizeof(k->name), INSTANCE_PREFIX "%s", k->tag);
	k->inst = L->tracefs_instance_create(k->name);
	if (!k->inst) {
		int e = errno ? errno : EIO;

		snprintf(why, whysz, "%s/instances/%s: cannot create: %s", dir, k->name, wq_strerror(e));
		wq_klat_close(k);
		return -e;
	}
	for (size_t i = 0; i < ARRAY_SIZE(triggers); i++) {
		_cleanup_free_ char *event = NULL, *t = NULL;

		if (!(event = subst(triggers[i].event, k->tag)) || !(t = subst(triggers[i].fmt, k->tag))) {
			wq_klat_close(k);
			return -ENOMEM;
		}
		if (L->tracefs_event_file_append(k->inst, triggers[i].system, event, "trigger", t) < 0) {
			int e = errno ? errno : EIO;

			snprintf(why, whysz, "instances/%s/events/%s/%s/trigger: cannot set a hist trigger: %s",
				 k->name, triggers[i].system, event, wq_strerror(e));
			wq_klat_close(k);
			return -e;
		}
	}
	*out = k;
	return 0;
}

static int read_one(struct wq_klat *k, int which, struct wq_hist *h, const struct wq_hist_sec **sec, char *why,
		    size_t whysz)
{
	static const char *const keys[2] = {"fn.sym,wait.log2", "fn.sym,run.log2"};
	char *text = k->L->tracefs_event_file_read(k->inst, "synthetic", k->synth[which], "hist", NULL);
	char pwhy[200];
	int r;

	if (!text) {
		int e = errno ? errno : EIO;

		snprintf(why, whysz, "instances/%s/events/synthetic/%s/hist: %s", k->name, k->synth[which],
			 wq_strerror(e));
		return -e;
	}
	r = wq_hist_parse(text, h, pwhy, sizeof(pwhy));
	if (r < 0) {
		snprintf(why, whysz, "instances/%s/events/synthetic/%s/hist: %s", k->name, k->synth[which], pwhy);
		return r;
	}
	*sec = wq_hist_section(h, keys[which]);
	if (!*sec) {
		snprintf(why, whysz, "instances/%s/events/synthetic/%s/hist: no hist keyed by %s", k->name,
			 k->synth[which], keys[which]);
		return -EBADMSG;
	}
	return 0;
}

int wq_klat_read(struct wq_klat *k, struct wq_hist *wait, struct wq_hist *run, const struct wq_hist_sec **ws,
		 const struct wq_hist_sec **rs, char *why, size_t whysz)
{
	/* run times first: an item's run is recorded after its wait */
	int r = read_one(k, 1, run, rs, why, whysz);

	return r < 0 ? r : read_one(k, 0, wait, ws, why, whysz);
}

void wq_klat_close(struct wq_klat *k)
{
	if (!k)
		return;
	if (k->inst) {
		unset(k->L, k->inst, k->tag);
		k->L->tracefs_instance_destroy(k->inst);
		k->L->tracefs_instance_free(k->inst);
	}
	for (int i = 1; i >= 0; i--) {
		char cmd[80];

		if (!k->made[i])
			continue;
		snprintf(cmd, sizeof(cmd), "!%s", k->synth[i]);
		k->L->tracefs_instance_file_append(NULL, "synthetic_events", cmd);
	}
	free(k);
}
