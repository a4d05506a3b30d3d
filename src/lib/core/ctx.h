/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The library context: root handle, kernel release, lazily read topology,
 * and the log callback. The library never prints to stdout.
 */
#ifndef WQ_CTX_H
#define WQ_CTX_H

#include <stdarg.h>
#include <stdbool.h>

#include "kver.h"
#include "root.h"
#include "topo.h"

enum wq_log_level { WQ_LOG_ERR = 3, WQ_LOG_WARNING = 4, WQ_LOG_NOTICE = 5, WQ_LOG_INFO = 6, WQ_LOG_DEBUG = 7 };

typedef void (*wq_log_fn)(void *data, int level, const char *fmt, va_list ap);

/*
 * A cache a module above keeps in the context, found by the address of the
 * module's own descriptor: the context holds it and calls release when it
 * is dropped, and knows nothing of what it is.
 */
struct wq_ctx_cache {
	void (*release)(void *data);
	bool on_write; /* dropped by wq_ctx_forget(): a write may change what it holds */
};

#define WQ_CTX_CACHES 8

struct wq_ctx {
	struct wq_root *root;
	struct wq_kver kver;
	const char *kver_source; /* "uname", "osrelease", "--kernel" or NULL */
	/* with --kernel: the kernel the values come from (uname, or the sysroot's osrelease), if known */
	struct wq_kver host_kver;
	int kver_err; /* why a sysroot's osrelease gave no release: -errno, 0 */
	struct wq_topo *topo;
	wq_log_fn log_fn;
	void *log_data;
	int era_c_symbol; /* -1 unknown, 0/1 from kallsyms */
	struct wq_cpuset *root_mask; /* root unbound cpumask, cached by wq_root_cpumask_get() */
	bool root_mask_logged; /* its read error was logged once */
	int topo_err; /* the topology could not be read (logged once): -errno, 0 */
	struct {
		const struct wq_ctx_cache *key;
		void *data;
	} caches[WQ_CTX_CACHES]; /* the modules' own caches (wq_ctx_cache_get) */
};

/*
 * Create a context for sysroot (NULL = live). kernel overrides the release.
 * 0 or -errno.
 */
int wq_ctx_new(const char *sysroot, const char *kernel, struct wq_ctx **out);
void wq_ctx_free(struct wq_ctx *ctx);
void wq_ctx_set_log(struct wq_ctx *ctx, wq_log_fn fn, void *data);
void wq_log(const struct wq_ctx *ctx, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The topology, read on first use (libnuma live, the tree in a sysroot). NULL on error (logged). */
struct wq_topo *wq_ctx_topo(struct wq_ctx *ctx);
/* The topology with the pods of scope built (-1: every scope). NULL on error (logged). */
struct wq_topo *wq_ctx_topo_pods(struct wq_ctx *ctx, int scope);
/* Drop what was read once and may change with a write: the root mask and the caches kept on_write. */
void wq_ctx_forget(struct wq_ctx *ctx);
/* The data a module keeps under key, or NULL. */
void *wq_ctx_cache_get(const struct wq_ctx *ctx, const struct wq_ctx_cache *key);
/* Keep data under key, releasing what was there: 0, or -ENOSPC (released at once) when every slot is taken. */
int wq_ctx_cache_set(struct wq_ctx *ctx, const struct wq_ctx_cache *key, void *data);
/* Release what key holds. */
void wq_ctx_cache_drop(struct wq_ctx *ctx, const struct wq_ctx_cache *key);
/* The era for unbound workqueues on this kernel; *why as wq_kver_era(). */
enum wq_era wq_ctx_era(struct wq_ctx *ctx, const char **why);

#endif
