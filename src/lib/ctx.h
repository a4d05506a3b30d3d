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

struct wq_model_cache;

struct wq_ctx {
	struct wq_root *root;
	struct wq_kver kver;
	const char *kver_source; /* "uname", "osrelease", "--kernel" or NULL */
	int kver_err; /* why a sysroot's osrelease gave no release: -errno, 0 */
	struct wq_topo *topo;
	wq_log_fn log_fn;
	void *log_data;
	int era_c_symbol; /* -1 unknown, 0/1 from kallsyms */
	struct wq_cpuset *root_mask; /* root unbound cpumask, cached by wq_root_cpumask_get() */
	bool root_mask_logged; /* its read error was logged once */
	int topo_err; /* the topology could not be read (logged once): -errno, 0 */
	char *minact; /* run/wqctl/min_active as read once (wq_minact_get), NULL = not yet */
	const char **minact_by_name; /* its lines sorted by name, then by place (apply.c) */
	size_t minact_n;
	struct wq_model_cache *models; /* wq_explain()'s models by key (explain.c) */
	bool scope_names_read; /* wq_scope_names() has read the tree */
	unsigned int attrs_in_kernel; /* 1 << attr for those this kernel has, 1 << WQ_A_NR once known (wq.c) */
	struct wq_mask_memo *masks; /* the cpumask texts wq_info_read() parsed and their sets (wq.c) */
	bool mask_texts_unkept; /* wq_info_read() keeps the sets, not the texts (wq_ctx_mask_texts) */
	struct wq_cpuset *checked, *checked_root; /* check.c: the last mask checked and the root mask then (held) */
	unsigned int checked_flags;
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
/* Drop what was read once and may change with a write: root mask, models, scope names. */
void wq_ctx_forget(struct wq_ctx *ctx);
/* The era for unbound workqueues on this kernel; *why as wq_kver_era(). */
enum wq_era wq_ctx_era(struct wq_ctx *ctx, const char **why);

#endif
