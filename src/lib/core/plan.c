// SPDX-License-Identifier: GPL-2.0-or-later
/* The plan of changes and its transactional writer: write, read back, roll back. */
#define _GNU_SOURCE
#include "plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"
#include "mountopt.h"

int wq_plan_add(struct wq_plan *p, const char *object, const char *path, const char *readback, enum wq_vtype type,
		const char *old, const char *new)
{
	struct wq_change *nc = p->c, *c;

	/* capacity doubles at each power of two (see add() in apply.c) */
	if (p->n == 0 || (p->n >= 8 && !(p->n & (p->n - 1)))) {
		nc = realloc(p->c, sizeof(*nc) * (p->n ? 2 * p->n : 8));
		if (!nc)
			return -ENOMEM;
		p->c = nc;
	}
	c = &p->c[p->n];
	memset(c, 0, sizeof(*c));
	c->object = strdup(object);
	c->path = strdup(path);
	c->readback = strdup(readback ? readback : path);
	c->old = old ? strdup(old) : NULL;
	c->new = strdup(new);
	c->type = type;
	c->target = wq_target_of(path);
	if (!c->object || !c->path || !c->readback || !c->new || (old && !c->old)) {
		free(c->object);
		free(c->path);
		free(c->readback);
		free(c->old);
		free(c->new);
		return -ENOMEM;
	}
	p->n++;
	return 0;
}

void wq_plan_free(struct wq_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->c[i].object);
		free(p->c[i].path);
		free(p->c[i].readback);
		free(p->c[i].old);
		free(p->c[i].new);
		free(p->c[i].now);
		free(p->c[i].expect);
	}
	free(p->c);
	p->c = NULL;
	p->n = 0;
}

int wq_plan_expect(struct wq_plan *p, const char *expect)
{
	struct wq_change *c = &p->c[p->n - 1];

	free(c->expect);
	c->expect = strdup(expect);
	return c->expect ? 0 : -ENOMEM;
}

bool wq_change_is_noop(const struct wq_change *c)
{
	return c->old && wq_value_equal(c->type, c->old, c->new);
}

char *wq_value_restore_text(enum wq_vtype type, const char *old)
{
	/* affinity_scope reads "default (cache)" but takes "default". */
	if (type == WQ_V_SCOPE && !strncmp(old, "default", 7))
		return strdup("default");
	return strdup(old);
}

/*
 * Values go out as `echo` sends them, newline-terminated: every parser behind
 * these files stops at or tolerates the newline. Unknown string parameters
 * are written verbatim.
 */
int wq_value_write(struct wq_ctx *ctx, enum wq_target t, const char *path, enum wq_vtype type, const char *v)
{
	_cleanup_free_ char *line = NULL;

	if (t == WQ_T_MOUNT)
		return wq_mountopt_write(ctx, path, v);
	if (type == WQ_V_STRING)
		return wq_root_write(ctx->root, path, v);
	if (asprintf(&line, "%s\n", v) < 0)
		return -ENOMEM;
	return wq_root_write(ctx->root, path, line);
}

int wq_value_read(struct wq_ctx *ctx, enum wq_target t, const char *path, char **out)
{
	return t == WQ_T_MOUNT ? wq_mountopt_read(ctx, path, out) : wq_root_read(ctx->root, path, out);
}

static void rollback(struct wq_ctx *ctx, struct wq_plan *p, size_t upto)
{
	for (size_t j = upto; j-- > 0;) {
		struct wq_change *c = &p->c[j];
		_cleanup_free_ char *txt = NULL;
		int r;

		/*
		 * Not the failed change: sysfs keeps the old value when it refuses
		 * one, and a file in a dump is replaced whole by rename() or not at
		 * all, so nothing of it landed.
		 */
		if (c->state != WQ_CH_WRITTEN || !c->old)
			continue;
		txt = wq_value_restore_text(c->type, c->old);
		r = txt ? wq_value_write(ctx, c->target, c->path, c->type, txt) : -ENOMEM;
		if (r == -ENOENT)
			wq_log(ctx, WQ_LOG_WARNING, "%s: gone, nothing to restore", c->object);
		else if (r < 0)
			wq_log(ctx, WQ_LOG_ERR, "%s: restore failed: %s", c->object, wq_strerror(-r));
		else
			c->state = WQ_CH_RESTORED;
	}
}

int wq_plan_refresh(struct wq_ctx *ctx, struct wq_plan *p, size_t *failed)
{
	for (size_t i = 0; i < p->n; i++) {
		struct wq_change *c = &p->c[i];
		char *now = NULL;
		int r = wq_value_read(ctx, c->target, c->path, &now);

		if (r < 0) {
			*failed = i;
			c->err = r;
			return r;
		}
		free(c->old);
		c->old = now;
	}
	return 0;
}

int wq_plan_apply(struct wq_ctx *ctx, struct wq_plan *p, size_t *failed)
{
	for (size_t i = 0; i < p->n; i++) {
		struct wq_change *c = &p->c[i];
		int r;

		if (wq_change_is_noop(c)) {
			c->state = WQ_CH_UNCHANGED;
			continue;
		}
		r = wq_value_write(ctx, c->target, c->path, c->type, c->new);
		/* A write may change the root mask or the default scope: drop what was read of them. */
		wq_ctx_forget(ctx);
		if (r == 0) {
			free(c->now);
			c->now = NULL;
			r = wq_value_read(ctx, c->target, c->readback, &c->now);
			if (r == 0 && !wq_value_equal(c->type, c->now, c->expect ? c->expect : c->new))
				r = -EILSEQ;
			/* The write landed even when the read-back differs: restore it too. */
			c->state = WQ_CH_WRITTEN;
		}
		if (r < 0) {
			if (c->state != WQ_CH_WRITTEN)
				c->state = WQ_CH_FAILED;
			c->err = r;
			*failed = i;
			rollback(ctx, p, i + 1);
			/* a write that landed and could not be restored stays WRITTEN: it must stay journaled */
			if (c->state != WQ_CH_WRITTEN)
				c->state = WQ_CH_FAILED;
			return r;
		}
	}
	return 0;
}
