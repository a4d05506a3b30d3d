// SPDX-License-Identifier: GPL-2.0-or-later
/* The library context: root, kernel release, lazily read topology and its caches. */
#define _GNU_SOURCE
#include "ctx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "../util/macro.h"

int wq_ctx_new(const char *sysroot, const char *kernel, struct wq_ctx **out)
{
	struct wq_ctx *ctx = calloc(1, sizeof(*ctx));
	int r;

	if (!ctx)
		return -ENOMEM;
	ctx->era_c_symbol = -1;
	r = wq_root_new(sysroot, &ctx->root);
	if (r < 0) {
		free(ctx);
		return r;
	}
	if (kernel) {
		struct utsname u;
		char buf[128];

		if (wq_kver_parse(kernel, &ctx->kver) < 0) {
			wq_ctx_free(ctx);
			return -EINVAL;
		}
		ctx->kver_source = "--kernel";
		/* what-if: the values read were set by this kernel, not the one named */
		if (!sysroot && uname(&u) == 0)
			wq_kver_parse(u.release, &ctx->host_kver);
		else if (sysroot && wq_root_read_buf(ctx->root, WQ_P_OSRELEASE, buf, sizeof(buf)) >= 0)
			wq_kver_parse(buf, &ctx->host_kver);
	} else if (!sysroot) {
		struct utsname u;

		if (uname(&u) == 0 && wq_kver_parse(u.release, &ctx->kver) == 0)
			ctx->kver_source = "uname";
	} else {
		char buf[128];

		r = wq_root_read_buf(ctx->root, WQ_P_OSRELEASE, buf, sizeof(buf));
		if (r >= 0)
			r = wq_kver_parse(buf, &ctx->kver);
		if (r == 0)
			ctx->kver_source = "osrelease";
		else if (r != -ENOENT)
			ctx->kver_err = r; /* the caller reports it once it can log */
	}
	*out = ctx;
	return 0;
}

void wq_ctx_free(struct wq_ctx *ctx)
{
	if (!ctx)
		return;
	wq_topo_free(ctx->topo);
	wq_cpuset_free(ctx->root_mask);
	for (size_t i = 0; i < WQ_CTX_CACHES; i++)
		if (ctx->caches[i].key)
			wq_ctx_cache_drop(ctx, ctx->caches[i].key);
	wq_root_free(ctx->root);
	free(ctx);
}

void wq_ctx_forget(struct wq_ctx *ctx)
{
	wq_cpuset_free(ctx->root_mask);
	ctx->root_mask = NULL;
	for (size_t i = 0; i < WQ_CTX_CACHES; i++)
		if (ctx->caches[i].key && ctx->caches[i].key->on_write)
			wq_ctx_cache_drop(ctx, ctx->caches[i].key);
}

void *wq_ctx_cache_get(const struct wq_ctx *ctx, const struct wq_ctx_cache *key)
{
	for (size_t i = 0; i < WQ_CTX_CACHES; i++)
		if (ctx->caches[i].key == key)
			return ctx->caches[i].data;
	return NULL;
}

int wq_ctx_cache_set(struct wq_ctx *ctx, const struct wq_ctx_cache *key, void *data)
{
	size_t free_slot = WQ_CTX_CACHES;

	for (size_t i = 0; i < WQ_CTX_CACHES; i++) {
		if (ctx->caches[i].key == key) {
			if (ctx->caches[i].data != data && key->release)
				key->release(ctx->caches[i].data);
			ctx->caches[i].data = data;
			return 0;
		}
		if (!ctx->caches[i].key && free_slot == WQ_CTX_CACHES)
			free_slot = i;
	}
	if (free_slot == WQ_CTX_CACHES) {
		if (key->release)
			key->release(data);
		return -ENOSPC;
	}
	ctx->caches[free_slot].key = key;
	ctx->caches[free_slot].data = data;
	return 0;
}

void wq_ctx_cache_drop(struct wq_ctx *ctx, const struct wq_ctx_cache *key)
{
	for (size_t i = 0; i < WQ_CTX_CACHES; i++) {
		if (ctx->caches[i].key == key) {
			void *data = ctx->caches[i].data;

			ctx->caches[i].key = NULL;
			ctx->caches[i].data = NULL;
			if (key->release)
				key->release(data);
			return;
		}
	}
}

void wq_ctx_set_log(struct wq_ctx *ctx, wq_log_fn fn, void *data)
{
	ctx->log_fn = fn;
	ctx->log_data = data;
}

void wq_log(const struct wq_ctx *ctx, int level, const char *fmt, ...)
{
	va_list ap;

	if (!ctx->log_fn)
		return;
	va_start(ap, fmt);
	ctx->log_fn(ctx->log_data, level, fmt, ap);
	va_end(ap);
}

struct wq_topo *wq_ctx_topo(struct wq_ctx *ctx)
{
	char why[128];
	int r;

	if (ctx->topo || ctx->topo_err)
		return ctx->topo;
	r = wq_topo_read(ctx->root, wq_root_is_live(ctx->root), &ctx->topo, why, sizeof(why));
	if (r < 0) {
		wq_log(ctx, WQ_LOG_ERR, "%s: cannot read topology: %s", why, wq_strerror(-r));
		ctx->topo_err = r;
		return NULL;
	}
	return ctx->topo;
}

struct wq_topo *wq_ctx_topo_pods(struct wq_ctx *ctx, int scope)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	char why[160] = "topology";
	int r;

	if (!t)
		return NULL;
	r = wq_topo_pods(ctx->root, t, scope, why, sizeof(why));
	if (r < 0) {
		wq_log(ctx, WQ_LOG_ERR, "%s: cannot build affinity pods: %s", why, wq_strerror(-r));
		return NULL;
	}
	return t;
}

static int kallsyms_has_era_c(const struct wq_root *root)
{
	_cleanup_free_ char *s = NULL;

	if (wq_root_read(root, WQ_P_KALLSYMS, &s) < 0)
		return -1;
	return strstr(s, " wq_update_node_max_active") != NULL;
}

enum wq_era wq_ctx_era(struct wq_ctx *ctx, const char **why)
{
	struct wq_kver *kv = &ctx->kver;

	/* Only the 6.6.y-6.8.y stable releases need the (costly) symbol probe. */
	if (kv->known && kv->major == 6 && kv->minor >= 6 && kv->minor <= 8 && kv->patch && ctx->era_c_symbol < 0)
		ctx->era_c_symbol = kallsyms_has_era_c(ctx->root);
	return wq_kver_era(kv, ctx->era_c_symbol, why);
}
