// SPDX-License-Identifier: GPL-2.0-or-later
/* How a plan is printed: OBJECT OLD -> NEW lines and the dry-run table. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/apply.h"
#include "../lib/explain.h"
#include "../lib/kver.h"
#include "../lib/macro.h"
#include "../lib/wq.h"
#include "plan_out.h"

enum { COL_OBJECT, COL_PATH, COL_OLD, COL_NEW, COL_EFFECTIVE, COL_ACTION };

static const struct colinfo cols[] = {
    [COL_OBJECT] = {"OBJECT", 0.2, 0, SCOLS_JSON_STRING, "workqueue/attribute or global knob"},
    [COL_PATH] = {"PATH", 0.3, 0, SCOLS_JSON_STRING, "file that would be written"},
    [COL_OLD] = {"OLD", 0.1, 0, SCOLS_JSON_STRING, "current value"},
    [COL_NEW] = {"NEW", 0.1, 0, SCOLS_JSON_STRING, "value to write"},
    [COL_EFFECTIVE] = {"EFFECTIVE", 0.1, 0, SCOLS_JSON_STRING, "what the kernel will use"},
    [COL_ACTION] = {"ACTION", 0.1, 0, SCOLS_JSON_STRING, "write or unchanged"},
};

int plan_list_columns(struct cli *cli)
{
	return out_list_columns(cli, cols, ARRAY_SIZE(cols));
}

static char *effective(struct cli *cli, const struct wq_change *c)
{
	if (c->type == WQ_V_CPUMASK && strstr(c->path, "/workqueue/") && strcmp(c->object, "cpumask")) {
		_cleanup_cpuset_ struct wq_cpuset *w = wq_cpuset_new();
		_cleanup_cpuset_ struct wq_cpuset *e = wq_cpuset_new();

		if (w && e && wq_cpuset_parse_hex(w, c->new) == 0 && wq_effective_cpus(cli->ctx, w, e) == 0)
			return wq_cpuset_format_list(e);
	}
	if (c->type == WQ_V_SCOPE && !strcmp(c->new, "default")) {
		char def[32], *s = NULL;

		wq_default_scope(cli->ctx, def, sizeof(def));
		if (asprintf(&s, "default (%s)", def) < 0)
			return NULL;
		return s;
	}
	return wq_value_display(c->type, c->new);
}

int plan_print(struct cli *cli, const struct wq_plan *plan)
{
	struct out o;
	int rc = out_init(&o, cli, cols, ARRAY_SIZE(cols), "PATH,OLD,NEW,EFFECTIVE", NULL, "plan");

	if (rc)
		return rc;
	for (size_t i = 0; i < plan->n; i++) {
		const struct wq_change *c = &plan->c[i];
		struct libscols_line *ln = out_line(&o);
		_cleanup_free_ char *old = c->old ? wq_value_display(c->type, c->old) : NULL;
		_cleanup_free_ char *nw = wq_value_display(c->type, c->new);
		_cleanup_free_ char *eff = effective(cli, c);

		out_set(&o, ln, COL_OBJECT, c->object);
		out_setf(&o, ln, COL_PATH, "%s/%s", cli->sysroot ? cli->sysroot : "", c->path);
		out_set(&o, ln, COL_OLD, old);
		out_set(&o, ln, COL_NEW, nw);
		out_set(&o, ln, COL_EFFECTIVE, eff);
		out_set(&o, ln, COL_ACTION, wq_change_is_noop(c) ? "unchanged" : "write");
	}
	rc = out_print(&o);
	out_free(&o);
	return rc;
}

const char *plan_write_reason(int err)
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

void plan_report_failure(struct cli *cli, const struct wq_plan *plan, size_t failed)
{
	const struct wq_change *f = &plan->c[failed];
	size_t restored = 0, lost = 0;

	if (f->err == -EILSEQ)
		cli_err(cli, "%s: read back '%s' after writing '%s'", f->object, f->now ? f->now : "?", f->new);
	else
		cli_err(cli, "%s: write failed: %s", f->object, plan_write_reason(f->err));
	for (size_t i = 0; i < plan->n; i++) {
		if (plan->c[i].state == WQ_CH_RESTORED)
			restored++;
		else if (plan->c[i].state == WQ_CH_WRITTEN)
			lost++;
	}
	if (restored)
		cli_err(cli, "%s: rolled back %zu change%s made in this run", f->object, restored,
			restored == 1 ? "" : "s");
	if (lost)
		cli_err(cli, "%s: %zu change%s could not be rolled back", f->object, lost, lost == 1 ? "" : "s");
}

static void note_failed(struct cli *cli, const struct wq_change *c, int r)
{
	cli_err(cli, "%s: cannot journal the current value: %s", c->object,
		r == -EINVAL ? "it holds a control character" : wq_strerror(-r));
}

int plan_transact(struct cli *cli, struct wq_plan *plan, int wait_ms, int taken)
{
	struct wq_journal j = {0};
	size_t failed = 0;
	int lock, r, rc = EXIT_OK;
	bool noop = true;

	for (size_t i = 0; i < plan->n && noop; i++)
		noop = wq_change_is_noop(&plan->c[i]);
	if (noop) {
		/* Nothing to write: no lock, no journal (the common udev event). */
		for (size_t i = 0; i < plan->n; i++)
			cli_info(cli, "%s: unchanged", plan->c[i].object);
		wq_lock_release(taken);
		return EXIT_OK;
	}
	lock = taken >= 0 ? taken : wq_lock_take(cli->ctx, wait_ms);
	if (lock < 0) {
		/* nothing was written: one line that says what to do */
		if (lock == -EACCES || lock == -EPERM)
			cli_err(cli, "%s: permission denied: run as root", plan->c[0].object);
		else
			cli_err(cli, "run/wqctl/lock: %s",
				lock == -ETIMEDOUT ? "another wqctl holds the lock" : wq_strerror(-lock));
		return EXIT_FAIL;
	}
	/*
	 * What was read before the lock may be stale: another apply or a
	 * revert may have run since. A plan read under the lock is not.
	 */
	r = taken >= 0 ? 0 : wq_plan_refresh(cli->ctx, plan, &failed);
	if (r < 0) {
		cli_err(cli, "%s: cannot read the current value: %s", plan->c[failed].object, wq_strerror(-r));
		rc = EXIT_FAIL;
		goto out;
	}
	if (wq_journal_read(cli->ctx, &j) < 0) {
		cli_err(cli, "run/wqctl/journal: unreadable; refusing to change anything");
		rc = EXIT_FAIL;
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
			note_failed(cli, c, r);
			rc = EXIT_FAIL;
			goto out;
		}
	}
	r = wq_journal_write(cli->ctx, &j);
	if (r < 0) {
		cli_err(cli, "run/wqctl/journal: cannot save original values: %s", wq_strerror(-r));
		rc = EXIT_FAIL;
		goto out;
	}
	if (wq_plan_apply(cli->ctx, plan, &failed) < 0) {
		plan_report_failure(cli, plan, failed);
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
				note_failed(cli, c, r);
		}
		if (wq_journal_write(cli->ctx, &j) < 0)
			cli_err(cli, "run/wqctl/journal: cannot restore it");
		rc = EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < plan->n; i++)
		cli_info(cli, "%s: %s", plan->c[i].object,
			 plan->c[i].state == WQ_CH_UNCHANGED ? "unchanged" : "written");
	/* a max_active below min_active lowered it until the workqueue is recreated: keep that known */
	r = wq_minact_note(cli->ctx, plan);
	if (r < 0)
		cli_warn(cli, "run/wqctl/min_active: cannot record the lowered min_active: %s", wq_strerror(-r));
out:
	wq_journal_free(&j);
	wq_lock_release(lock);
	return rc;
}

/*
 * Warnings about what a valid write does that a user may not expect
 * (KERNEL.md §11); -1 for a write that needs --force.
 */
int cli_warn_effects(struct cli *cli, const struct wq_info *wi, int attr, const char *newv, bool force)
{
	struct wq_ctx *ctx = cli->ctx;
	const char *why;
	enum wq_era era = wq_ctx_era(ctx, &why);
	int v = atoi(newv), m = wq_kver_dfl_min_active(&ctx->kver), low;

	if (attr != WQ_A_MAX_ACTIVE || !wi->unbound)
		return 0;
	/* min_active = min(8, max_active at creation, every smaller max_active written) (KERNEL.md §4.5) */
	if (m > wi->max_active)
		m = wi->max_active;
	low = wq_minact_get(ctx, wi->name);
	if (low > 0 && low < m)
		m = low;
	if (era == WQ_ERA_C && v < m) {
		if (!force) {
			cli_err(cli,
				"%s/max_active: writing %d lowers the hidden min_active from %d to %d until the "
				"workqueue is recreated (kernel >= 6.9); add --force to write it",
				wi->name, v, m, v);
			return -1;
		}
		cli_warn(cli, "%s/max_active: min_active goes from %d to %d until the workqueue is recreated", wi->name,
			 m, v);
	}
	if ((era == WQ_ERA_A || era == WQ_ERA_B) && wq_is_implicitly_ordered(wi) && v != 1)
		cli_warn(cli,
			 "%s/max_active: this workqueue may be implicitly ordered; on kernels up to 6.8 the "
			 "write removes its ordering",
			 wi->name);
	return 0;
}
