// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Committing a plan: the transaction set, knob, apply and experiment share.
 * The run lock, the originals saved in the journal before the first write,
 * the writes with their rollback (plan.c), the journal put back as it was
 * when a write fails, and the lowered min_active recorded; revert, which
 * writes the journal's originals back.
 */
#define _GNU_SOURCE
#include "commit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../util/macro.h"
#include "mountopt.h"
#include "state.h"
#include "verdict.h"

/*
 * Why the run lock could not be taken, in one line that says what to do
 * (nothing was written). "Run as root" only to a user who is not: uid 0
 * refused (a user namespace, an immutable or read-only state directory)
 * is told the file and the reason instead (issue 60 item 21).
 */
static void lock_failed(struct wq_ctx *ctx, const char *what, int lock)
{
	if ((lock == -EACCES || lock == -EPERM) && geteuid() != 0)
		wq_log(ctx, WQ_LOG_ERR, "%s: permission denied: run as root", what);
	else if (lock == -EACCES || lock == -EPERM)
		wq_log(ctx, WQ_LOG_ERR,
		       "%s: run/wqctl/lock: cannot take the lock: %s (uid 0 without that right here: a user namespace, "
		       "or an immutable or read-only state directory?)",
		       what, wq_strerror(-lock));
	else
		wq_log(ctx, WQ_LOG_ERR, "%s: run/wqctl/lock: %s", what,
		       lock == -ETIMEDOUT ? "another wqctl holds the lock" : wq_strerror(-lock));
}

const char *wq_write_reason(int err)
{
	switch (err) {
	case -EACCES:
	case -EPERM: return "permission denied (the kernel refuses writes to read-only attributes, even for root)";
	case -ENOENT: return "the file vanished (was the workqueue destroyed?)";
	case -EINVAL: return "the kernel rejected the value (Invalid argument)";
	case -EOVERFLOW: return "the mask has bits beyond the kernel's CPUs (Value too large)";
	case -EILSEQ: return "the kernel reads back a different value";
	default: return wq_strerror(-err);
	}
}

void wq_plan_report_failure(struct wq_ctx *ctx, const struct wq_plan *plan, size_t failed)
{
	const struct wq_change *f = &plan->c[failed];
	size_t restored = 0, lost = 0;

	if (f->err == -EILSEQ)
		wq_log(ctx, WQ_LOG_ERR, "%s: read back '%s' after writing '%s'", f->object, f->now ? f->now : "?",
		       f->new);
	else
		wq_log(ctx, WQ_LOG_ERR, "%s: write failed: %s", f->object, wq_write_reason(f->err));
	for (size_t i = 0; i < plan->n; i++) {
		if (plan->c[i].state == WQ_CH_RESTORED)
			restored++;
		else if (plan->c[i].state == WQ_CH_WRITTEN)
			lost++;
	}
	if (restored)
		wq_log(ctx, WQ_LOG_ERR, "%s: rolled back %zu change%s made in this run", f->object, restored,
		       restored == 1 ? "" : "s");
	if (lost)
		wq_log(ctx, WQ_LOG_ERR, "%s: %zu change%s could not be rolled back", f->object, lost,
		       lost == 1 ? "" : "s");
}

static void note_failed(struct wq_ctx *ctx, const struct wq_change *c, int r)
{
	wq_log(ctx, WQ_LOG_ERR, "%s: cannot journal the current value: %s", c->object,
	       r == -EINVAL ? "it holds a control character" : wq_strerror(-r));
}

/* After a plan's writes (under the lock): record every max_active below min_active written to an unbound wq. */
static int note_minact(struct wq_ctx *ctx, const struct wq_plan *plan)
{
	static const char prefix[] = WQ_P_WQ "/";
	_cleanup_free_ struct wq_minact_low *low = NULL;
	_cleanup_free_ char *names = NULL;
	size_t n = 0;
	const char *why;

	if (wq_ctx_era(ctx, &why) != WQ_ERA_C || !plan->n)
		return 0;
	low = calloc(plan->n, sizeof(*low));
	names = calloc(plan->n, WQ_NAME_MAX);
	if (!low || !names)
		return -ENOMEM;
	for (size_t i = 0; i < plan->n; i++) {
		const struct wq_change *c = &plan->c[i];
		char *name = names + n * WQ_NAME_MAX, per_cpu[320];
		_cleanup_free_ char *pc = NULL;
		const char *slash;
		int v = atoi(c->new);

		if (c->state != WQ_CH_WRITTEN || strncmp(c->path, prefix, sizeof(prefix) - 1))
			continue;
		slash = strchr(c->path + sizeof(prefix) - 1, '/');
		if (!slash || strcmp(slash, "/max_active") ||
		    (size_t)(slash - c->path) - (sizeof(prefix) - 1) >= WQ_NAME_MAX)
			continue;
		/* at or above the default min_active it lowers nothing: no file to read */
		if (v >= wq_kver_dfl_min_active(&ctx->kver))
			continue;
		snprintf(name, WQ_NAME_MAX, "%.*s", (int)(slash - c->path - (sizeof(prefix) - 1)),
			 c->path + sizeof(prefix) - 1);
		/* per-cpu workqueues have no node counters, hence no min_active */
		wq_attr_path(per_cpu, sizeof(per_cpu), name, "per_cpu");
		if (wq_root_read(ctx->root, per_cpu, &pc) < 0 || atoi(pc) != 0)
			continue;
		low[n++] = (struct wq_minact_low){name, v};
	}
	return n ? wq_minact_record(ctx, low, n) : 0;
}

int wq_plan_commit(struct wq_ctx *ctx, struct wq_plan *plan, int wait_ms, int taken)
{
	struct wq_journal j = {0};
	size_t failed = 0;
	int lock, r, rc = 0;
	bool noop = true;

	for (size_t i = 0; i < plan->n && noop; i++)
		noop = wq_change_is_noop(&plan->c[i]);
	if (noop) {
		/* Nothing to write: no lock, no journal (the common udev event). */
		for (size_t i = 0; i < plan->n; i++)
			wq_log(ctx, WQ_LOG_INFO, "%s: unchanged", plan->c[i].object);
		wq_lock_release(taken);
		return 0;
	}
	lock = taken >= 0 ? taken : wq_lock_take(ctx, wait_ms);
	if (lock < 0) {
		lock_failed(ctx, plan->c[0].object, lock);
		return -EIO;
	}
	/*
	 * What was read before the lock may be stale: another apply or a
	 * revert may have run since. A plan read under the lock is not.
	 */
	r = taken >= 0 ? 0 : wq_plan_refresh(ctx, plan, &failed);
	if (r < 0) {
		wq_log(ctx, WQ_LOG_ERR, "%s: cannot read the current value: %s", plan->c[failed].object,
		       wq_strerror(-r));
		rc = -EIO;
		goto out;
	}
	if (wq_journal_read(ctx, &j) < 0) {
		wq_log(ctx, WQ_LOG_ERR, "run/wqctl/journal: unreadable; refusing to change anything");
		rc = -EIO;
		goto out;
	}
	wq_journal_mark(&j);
	for (size_t i = 0; i < plan->n; i++) {
		struct wq_change *c = &plan->c[i];

		/* what the kernel will hold (a root mask less isolated CPUs): revert compares with that */
		r = wq_change_is_noop(c)
			? 0
			: wq_journal_note(&j, c->path, c->type, c->old, c->expect ? c->expect : c->new);
		if (r < 0) {
			note_failed(ctx, c, r);
			rc = -EIO;
			goto out;
		}
	}
	r = wq_journal_write(ctx, &j);
	if (r < 0) {
		wq_log(ctx, WQ_LOG_ERR, "run/wqctl/journal: cannot save original values: %s", wq_strerror(-r));
		rc = -EIO;
		goto out;
	}
	if (wq_plan_apply(ctx, plan, &failed) < 0) {
		wq_plan_report_failure(ctx, plan, failed);
		/*
		 * The journal as this run found it, but for the changes whose
		 * rollback failed: revert must still know their originals.
		 */
		wq_journal_undo(&j);
		for (size_t i = 0; i < plan->n; i++) {
			const struct wq_change *c = &plan->c[i];

			/* what the kernel holds (a read-back that differed included): revert compares with it */
			const char *held = c->now ? c->now : c->expect;

			if (c->state != WQ_CH_WRITTEN)
				continue;
			r = wq_journal_note(&j, c->path, c->type, c->old, held ? held : c->new);
			if (r < 0)
				note_failed(ctx, c, r);
		}
		if (wq_journal_write(ctx, &j) < 0)
			wq_log(ctx, WQ_LOG_ERR, "run/wqctl/journal: cannot restore it");
		rc = -EIO;
		goto out;
	}
	for (size_t i = 0; i < plan->n; i++)
		wq_log(ctx, WQ_LOG_INFO, "%s: %s", plan->c[i].object,
		       plan->c[i].state == WQ_CH_UNCHANGED ? "unchanged" : "written");
	/* a max_active below min_active lowered it until the workqueue is recreated: keep that known */
	r = note_minact(ctx, plan);
	if (r < 0)
		wq_log(ctx, WQ_LOG_WARNING, "run/wqctl/min_active: cannot record the lowered min_active: %s",
		       wq_strerror(-r));
out:
	wq_journal_free(&j);
	wq_lock_release(lock);
	return rc;
}

/* What a journal entry names: "writeback/nice", a knob ("cpumask", "default_affinity_scope"), or the path. */
static const char *path_object(const struct wq_jentry *e)
{
	static const char *const dirs[] = {"sys/devices/virtual/workqueue/", "sys/module/workqueue/parameters/"};
	const char *path = e->path;

	if (e->target == WQ_T_MOUNT)
		return wq_mountopt_object(path);
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])))
			return path + strlen(dirs[i]);
	return path;
}

/*
 * Is the journal's original of e (txt, the form revert writes) a value set
 * or knob would write to that object now? The journal is root's alone, but
 * a value it holds is checked as any new one (issue 60 item 17: it wrote a
 * max_active of 99999999 and the boot-only cache_shard_size). The verdict
 * is the resolver's (verdict.c), forced: the original was there before.
 * 0, or -EINVAL with why.
 */
static int restore_checked(struct wq_ctx *ctx, const struct wq_jentry *e, const char *txt, char *why, size_t whysz)
{
	const char *obj = path_object(e), *slash = strchr(obj, '/');
	_cleanup_free_ char *value = NULL;
	struct wq_req_verdict v = {0};
	int r = 0;

	if (e->target == WQ_T_MOUNT)
		return 0; /* a mount option: mountopt.c checks its own */
	/* a mask as the kernel prints it is 'mask:' to the resolver */
	if (asprintf(&value, "%s%s", e->type == WQ_V_CPUMASK ? "mask:" : "", txt) < 0)
		return -ENOMEM;
	if (obj != e->path && slash && !strncmp(e->path, WQ_P_WQ "/", strlen(WQ_P_WQ "/"))) {
		char name[WQ_NAME_MAX];
		int a = wq_attr_from_name(slash + 1);
		struct wq_info wi;

		snprintf(name, sizeof(name), "%.*s", (int)(slash - obj), obj);
		if (a < 0 || wq_info_read(ctx, name, &wi) < 0) {
			snprintf(why, whysz, "not a workqueue attribute of this kernel");
			return -EINVAL;
		}
		r = wq_request_attr(
		    ctx,
		    &(struct wq_request){
			.wi = &wi, .attr = (enum wq_attr)a, .value = value, .owner_node = -1, .flags = WQ_REQ_FORCE},
		    &v);
		wq_info_clear(&wi);
	} else {
		struct wq_knob k;

		if (wq_knob_get(ctx, obj, &k) < 0) {
			snprintf(why, whysz, "not a knob of this kernel");
			return -EINVAL;
		}
		r = wq_request_knob(ctx, &k, value, &v);
		wq_knob_clear(&k);
	}
	if (r < 0)
		return r;
	wq_req_verdict_clear(&v);
	/* the value as the object takes it, wherever it stands now (unreadable is the write's to say) */
	if (v.cond != WQ_COND_OK && v.cond != WQ_COND_UNREADABLE) {
		snprintf(why, whysz, "%s", v.why);
		return -EINVAL;
	}
	return 0;
}

int wq_revert(struct wq_ctx *ctx, wq_revert_fn done, void *arg)
{
	struct wq_journal j = {0};
	_cleanup_free_ bool *drop = NULL; /* the entries restored or given up */
	int lock, rc = 0, restored = 0, left = 0;

	lock = wq_lock_take(ctx, WQ_LOCK_WAIT_MS);
	if (lock < 0) {
		lock_failed(ctx, "revert", lock);
		return -EIO;
	}
	if (wq_journal_read(ctx, &j) < 0) {
		wq_lock_release(lock);
		return -EIO;
	}
	/* a run killed mid-write (SIGKILL) in a dump left its temporary files beside what it wrote */
	for (size_t i = 0; i < j.n; i++)
		if (wq_root_drop_temp(ctx->root, j.e[i].path) > 0)
			wq_log(ctx, WQ_LOG_NOTICE, "%s: removed the temporary file a killed run left beside it",
			       j.e[i].path);
	wq_journal_drop_temp(ctx);
	drop = calloc(j.n ? j.n : 1, sizeof(*drop));
	if (!drop) {
		wq_journal_free(&j);
		wq_lock_release(lock);
		return -ENOMEM;
	}
	for (size_t i = 0; i < j.n; i++) {
		struct wq_jentry *e = &j.e[i];
		_cleanup_free_ char *now = NULL;
		_cleanup_free_ char *txt = NULL;
		char why[480];
		int r = wq_value_read(ctx, e->target, e->path, &now);

		if (r < 0) {
			wq_log(ctx, WQ_LOG_WARNING, "%s: not restored: %s", e->path,
			       r == -ENOENT ? "it is gone" : wq_strerror(-r));
			drop[i] = true;
			left++;
			continue;
		}
		/* Only where the value is still what wqctl wrote: a later change is someone else's. */
		if (!wq_value_equal(e->type, now, e->written)) {
			wq_log(ctx, WQ_LOG_WARNING, "%s: left alone: changed since wqctl wrote '%s' (now '%s')",
			       e->path, e->written, now);
			drop[i] = true;
			left++;
			continue;
		}
		txt = wq_value_restore_text(e->type, e->orig);
		r = txt ? restore_checked(ctx, e, txt, why, sizeof(why)) : -ENOMEM;
		if (r == -EINVAL) {
			wq_log(ctx, WQ_LOG_ERR, "%s: not restored: the journal's '%s' is not a value to write: %s",
			       e->path, e->orig, why);
			rc = -EIO;
			continue;
		}
		if (r == 0)
			r = wq_value_write(ctx, e->target, e->path, e->type, txt);
		if (r < 0) {
			wq_log(ctx, WQ_LOG_ERR, "%s: restore failed: %s", e->path, wq_write_reason(r));
			rc = -EIO;
			continue;
		}
		wq_log(ctx, WQ_LOG_INFO, "%s: restored '%s'", e->path, e->orig);
		if (done) {
			const char *obj = path_object(e);
			const char *slash = strchr(obj, '/');
			int min = 0;

			/* a max_active written below min_active lowered it for good (>= 6.9): say it stays */
			if (slash && !strcmp(slash + 1, "max_active") && obj != e->path) {
				char wq[WQ_NAME_MAX];

				snprintf(wq, sizeof(wq), "%.*s", (int)(slash - obj), obj);
				min = wq_minact_get(ctx, wq);
			}
			done(arg, obj, e->type, now, e->orig, min);
		}
		restored++;
		drop[i] = true;
	}
	wq_journal_compact(&j, drop);
	if (wq_journal_write(ctx, &j) < 0)
		rc = -EIO;
	wq_log(ctx, WQ_LOG_INFO, "revert: %d restored, %d left alone", restored, left);
	wq_journal_free(&j);
	wq_lock_release(lock);
	return rc;
}
