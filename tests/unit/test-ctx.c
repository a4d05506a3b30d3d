// SPDX-License-Identifier: GPL-2.0-or-later
/* The context's cache slots: found by the owner's key, released by the owner, on_write ones dropped after a write. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/core/ctx.h"
#include "tap.h"

static int released[3];

/* data points at a counter in released[]: releasing counts there */
static void count_release(void *data)
{
	(*(int *)data)++;
}

static const struct wq_ctx_cache kept = {count_release, false};
static const struct wq_ctx_cache written = {count_release, true};
static const struct wq_ctx_cache other = {count_release, false};

int main(void)
{
	struct wq_ctx_cache many[WQ_CTX_CACHES + 1];
	int extra[WQ_CTX_CACHES + 1] = {0};
	struct wq_ctx *ctx;
	char dir[] = "/tmp/test-ctx.XXXXXX";
	int r = -1;

	if (!mkdtemp(dir) || wq_ctx_new(dir, "6.18.0", &ctx) < 0) {
		ok(0, "a context on an empty sysroot");
		return tap_done();
	}
	ok(wq_ctx_cache_get(ctx, &kept) == NULL, "an empty slot reads NULL");
	ok(wq_ctx_cache_set(ctx, &kept, &released[0]) == 0, "set kept");
	ok(wq_ctx_cache_set(ctx, &written, &released[1]) == 0, "set written");
	ok(wq_ctx_cache_get(ctx, &kept) == &released[0] && wq_ctx_cache_get(ctx, &written) == &released[1],
	   "each key finds its own data");
	ok(wq_ctx_cache_get(ctx, &other) == NULL, "another key finds nothing");

	/* replacing releases the old data once, setting the same data again releases nothing */
	ok(wq_ctx_cache_set(ctx, &kept, &released[2]) == 0 && released[0] == 1 && released[2] == 0,
	   "replacing releases what was there");
	ok(wq_ctx_cache_set(ctx, &kept, &released[2]) == 0 && released[2] == 0, "the same data again: kept");

	/* a write: the on_write cache goes, the other stays */
	wq_ctx_forget(ctx);
	ok(released[1] == 1 && wq_ctx_cache_get(ctx, &written) == NULL, "forget drops the on_write cache");
	ok(released[2] == 0 && wq_ctx_cache_get(ctx, &kept) == &released[2], "forget keeps the others");

	wq_ctx_cache_drop(ctx, &kept);
	ok(released[2] == 1 && wq_ctx_cache_get(ctx, &kept) == NULL, "drop releases");
	wq_ctx_cache_drop(ctx, &kept);
	ok(released[2] == 1, "a second drop releases nothing");

	/* every slot taken: the next one is refused and its data released at once */
	for (size_t i = 0; i <= WQ_CTX_CACHES; i++)
		many[i] = (struct wq_ctx_cache){count_release, false};
	for (size_t i = 0; i < WQ_CTX_CACHES; i++)
		r = wq_ctx_cache_set(ctx, &many[i], &extra[i]);
	ok(r == 0, "%d slots fill", WQ_CTX_CACHES);
	r = wq_ctx_cache_set(ctx, &many[WQ_CTX_CACHES], &extra[WQ_CTX_CACHES]);
	ok(r == -ENOSPC && extra[WQ_CTX_CACHES] == 1, "one more: -ENOSPC, its data released");

	wq_ctx_free(ctx);
	rmdir(dir);
	r = 0;
	for (size_t i = 0; i < WQ_CTX_CACHES; i++)
		r += extra[i];
	ok(r == WQ_CTX_CACHES, "freeing the context releases every slot once (%d of %d)", r, WQ_CTX_CACHES);
	ok(released[0] == 1 && released[1] == 1 && released[2] == 1, "nothing released twice");
	return tap_done();
}
