// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * apply's sessions: what each mode concerns, its lock order, the journal's
 * upkeep on a workqueue's removal, the plan and the transaction.
 */
#define _GNU_SOURCE
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commit.h"
#include "../util/macro.h"
#include "owner.h"
#include "state.h"
#include "verdict.h"
#include "wq.h"

/*
 * The workqueues an owner-device event concerns: a block device's MAJ:MIN
 * (from DEVPATH/dev) or a SCSI host's hostN, matched against the owner each
 * workqueue name maps to. 0 with a->targets (may be empty), or -EINVAL.
 */
static int owned_workqueues(struct wq_ctx *ctx, struct wq_apply *a)
{
	const char *slash = a->devpath && a->subsystem ? strrchr(a->devpath, '/') : NULL, *base;
	struct wq_owner want = {.kind = WQ_OWNER_SCSI_HOST};
	char **names = NULL, **v;
	size_t n = 0, cnt = 0;

	if (!slash)
		return -EINVAL; /* the command line checked DEVPATH; another caller may not have */
	base = slash + 1;
	if (streq(a->subsystem, "block"))
		want.kind = WQ_OWNER_BLOCK;

	if (want.kind == WQ_OWNER_BLOCK) {
		char path[4200], buf[32];
		unsigned int mm[2];

		snprintf(path, sizeof(path), "sys%s/dev", a->devpath);
		if (wq_root_read_buf(ctx->root, path, buf, sizeof(buf)) < 0)
			return 0; /* no dev attribute: not a device of ours */
		if (wq_parse_ids(buf, ":", mm, 2) < 0)
			return -EINVAL;
		snprintf(want.id, sizeof(want.id), "%u:%u", mm[0], mm[1]);
	} else if (streq(a->subsystem, "scsi")) {
		unsigned int hct[3];

		/* only a target (targetH:C:T) says its host's session is up; LUNs follow it */
		if (strncmp(base, "target", 6) || wq_parse_ids(base + 6, "::", hct, 3) < 0)
			return 0;
		snprintf(want.id, sizeof(want.id), "host%u", hct[0]);
	} else {
		unsigned int h;

		if (strncmp(base, "host", 4) || wq_parse_ids(base + 4, "", &h, 1) < 0)
			return -EINVAL;
		snprintf(want.id, sizeof(want.id), "host%u", h);
	}
	if (wq_list(ctx, &names, &n) < 0)
		return 0;
	v = calloc(n + 1, sizeof(*v));
	for (size_t i = 0; v && i < n; i++) {
		struct wq_owner o;

		wq_owner_from_name(names[i], &o);
		if (o.kind == want.kind && streq(o.id, want.id)) {
			v[cnt++] = names[i];
			names[i] = NULL;
		}
	}
	wq_names_free(names, n);
	a->targets = v;
	a->ntargets = cnt;
	return v ? 0 : -ENOMEM;
}

int wq_apply_begin(struct wq_ctx *ctx, struct wq_apply *a)
{
	int r;

	a->targets = NULL;
	a->ntargets = 0;
	a->lock = -1;
	a->skipped = 0;
	a->dropped = 0;
	memset(&a->st, 0, sizeof(a->st));
	memset(&a->skips, 0, sizeof(a->skips));
	memset(&a->plan, 0, sizeof(a->plan));
	switch (a->mode) {
	case WQ_APPLY_UDEV_REMOVE:
		if (!a->wq || !wq_name_is_valid(a->wq))
			return -EINVAL;
		r = a->dry ? 0 : wq_journal_forget(ctx, a->wq, WQ_UDEV_LOCK_WAIT_MS);
		if (r == -EEXIST)
			return WQ_APPLY_KEPT;
		if (r < 0)
			return r;
		a->dropped = r;
		return WQ_APPLY_DONE;
	case WQ_APPLY_UDEV_OWNER:
		r = owned_workqueues(ctx, a);
		if (r < 0)
			return r;
		return a->ntargets ? WQ_APPLY_GO : WQ_APPLY_DONE;
	case WQ_APPLY_WQ:
	case WQ_APPLY_UDEV_ADD:
		if (!a->wq || !wq_name_is_valid(a->wq))
			return -EINVAL;
		if (!wq_exists(ctx, a->wq))
			return a->mode == WQ_APPLY_UDEV_ADD ? WQ_APPLY_DONE /* gone again before we ran */
							    : WQ_APPLY_NO_WQ;
		a->targets = calloc(2, sizeof(*a->targets));
		if (!a->targets || !(a->targets[0] = strdup(a->wq)))
			return -ENOMEM;
		a->ntargets = 1;
		return WQ_APPLY_GO;
	case WQ_APPLY_ALL:
	case WQ_APPLY_BOOT: return WQ_APPLY_GO;
	}
	return -EINVAL;
}

static bool is_udev(const struct wq_apply *a)
{
	return a->mode == WQ_APPLY_UDEV_ADD || a->mode == WQ_APPLY_UDEV_OWNER;
}

int wq_apply_resolve(struct wq_ctx *ctx, struct wq_apply *a, const struct wq_pset *set)
{
	bool globals = a->mode == WQ_APPLY_ALL || a->mode == WQ_APPLY_BOOT;
	int r;

	/*
	 * An apply that may write many workqueues reads them under the lock,
	 * so that what it journals needs no second read (on 1,250 workqueues,
	 * 850 files). A udev event, which mostly changes nothing, reads first
	 * and locks only to write; so does an apply that cannot take the lock
	 * at once: another wqctl holds it (an apply with nothing to change does
	 * not wait for it, one that writes waits once and reads again), or it
	 * cannot be made (not root, a read-only tree: writes fail as before).
	 */
	if (!a->dry && !is_udev(a))
		a->lock = wq_lock_take(ctx, 0);
	r = wq_settings_resolve(ctx, set, a->targets, a->ntargets, globals, &a->st);
	if (r < 0)
		return r;
	if ((r = wq_settings_plan(&a->st, &a->plan)) < 0 || (r = wq_settings_skips(ctx, &a->st, &a->skips)) < 0)
		return r;
	/* a setting not in force here for a warning makes the apply a partial success */
	for (size_t i = 0; i < a->st.n; i++)
		a->skipped += wq_conds[a->st.v[i].cond].exit[WQ_CMD_APPLY] == 1;
	return 0;
}

int wq_apply_commit(struct wq_ctx *ctx, struct wq_apply *a)
{
	int held = a->lock;

	a->lock = -1; /* wq_plan_commit() releases it */
	return wq_plan_commit(ctx, &a->plan, is_udev(a) ? WQ_UDEV_LOCK_WAIT_MS : WQ_LOCK_WAIT_MS, held);
}

void wq_apply_counts(const struct wq_apply *a, size_t *written, size_t *same, size_t *failed)
{
	*written = *same = *failed = 0;
	for (size_t i = 0; i < a->plan.n; i++) {
		const struct wq_change *c = &a->plan.c[i];

		if (c->state == WQ_CH_WRITTEN)
			(*written)++;
		else if (c->state == WQ_CH_FAILED)
			(*failed)++;
		else if (c->state == WQ_CH_UNCHANGED || wq_change_is_noop(c))
			(*same)++;
	}
}

int wq_holds_judge(struct wq_ctx *ctx, const struct wq_pset *set, struct wq_holds *h)
{
	struct wq_journal j;
	int r;

	memset(h, 0, sizeof(*h));
	r = wq_settings_resolve(ctx, set, NULL, 0, true, &h->st);
	if (r < 0)
		return r;
	h->cond = calloc(h->st.n + 1, sizeof(*h->cond));
	h->why = calloc(h->st.n + 1, sizeof(*h->why));
	if (!h->cond || !h->why)
		return -ENOMEM;
	/* what wqctl wrote, to tell another writer's change from a setting never applied */
	if (wq_journal_read(ctx, &j) < 0)
		memset(&j, 0, sizeof(j));
	for (size_t i = 0; i < h->st.n; i++)
		h->cond[i] = wq_setting_holds(&h->st.v[i], &j, h->why[i], sizeof(h->why[i]));
	wq_journal_free(&j);
	return 0;
}

void wq_holds_free(struct wq_holds *h)
{
	wq_settings_free(&h->st);
	free(h->cond);
	free(h->why);
	memset(h, 0, sizeof(*h));
}

void wq_apply_free(struct wq_apply *a)
{
	wq_lock_release(a->lock);
	a->lock = -1;
	wq_names_free(a->targets, a->ntargets);
	a->targets = NULL;
	a->ntargets = 0;
	wq_plan_free(&a->plan);
	wq_skips_free(&a->skips);
	wq_settings_free(&a->st);
}
