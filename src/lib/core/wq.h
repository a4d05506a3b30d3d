/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workqueues in sysfs, their attributes, and value parsing/validation
 * against the running kernel and topology (doc/kernel.md §1, §3).
 */
#ifndef WQ_WQ_H
#define WQ_WQ_H

#include <stdbool.h>
#include <stddef.h>

#include "cpuset.h"
#include "ctx.h"

/* Longest sysfs workqueue name we accept (the kernel's is 31). */
#define WQ_NAME_MAX 64

enum wq_attr {
	WQ_A_MAX_ACTIVE,
	WQ_A_CPUMASK,
	WQ_A_AFFINITY_SCOPE,
	WQ_A_AFFINITY_STRICT,
	WQ_A_NICE,
	WQ_A_NUMA,
	WQ_A_NR,
};

/* How a value is spelled and compared. */
enum wq_vtype {
	WQ_V_INT, /* decimal integer in [min, max] */
	WQ_V_BOOL, /* 0/1 (true false yes no on off accepted) */
	WQ_V_YN, /* Y/N module parameter bool */
	WQ_V_SCOPE, /* affinity scope name */
	WQ_V_CPUMASK, /* CPU set, written as the kernel's hex mask */
	WQ_V_STRING, /* anything, passed through */
};

struct wq_attr_desc {
	const char *name;
	enum wq_vtype type;
	bool unbound_only;
	const char *since; /* kernel that added it */
	const char *until; /* last kernel that has it, or NULL */
	const char *help;
};

extern const struct wq_attr_desc wq_attr_descs[WQ_A_NR];
/* Attribute by name, or -1. */
int wq_attr_from_name(const char *name);

struct wq_info {
	char name[WQ_NAME_MAX];
	bool unbound;
	unsigned int has; /* 1 << attr for each attribute file present */
	unsigned int bad; /* 1 << attr for each present but unreadable/malformed */
	int max_active;
	struct wq_cpuset *cpumask; /* may be shared with other workqueues of the same mask: read only */
	char scope[32]; /* configured scope; "default" when following the default */
	char scope_eff[32]; /* effective scope name */
	int strict, nice, numa;
	char *raw[WQ_A_NR]; /* file contents as read */
	unsigned int raw_shared; /* 1 << attr whose raw is a text shared with other workqueues (wq_info_clear) */
	int err[WQ_A_NR]; /* -errno of a file that could not be read (raw NULL) */
};

/* True when name is a plausible sysfs workqueue name (no '/', not "." or ".."). */
bool wq_name_is_valid(const char *name);
/* Sorted names of the workqueues in sysfs; 0 or -errno. Free with wq_names_free(). */
int wq_list(struct wq_ctx *ctx, char ***names, size_t *n);
void wq_names_free(char **names, size_t n);
/* Put s (owned, may be NULL) at (*v)[n], growing *v by one. 0 or -ENOMEM (s then not taken). */
int wq_names_append(char ***v, size_t n, char *s);
/*
 * The entries that may be workqueues (directories, links), not yet checked
 * for max_active: for a caller that checks the few it wants with
 * wq_exists() instead of all of them. 0 or -errno.
 */
int wq_list_candidates(struct wq_ctx *ctx, char ***names, size_t *n);
bool wq_exists(struct wq_ctx *ctx, const char *name);
/* Read a workqueue. 0, -ENOENT (absent) or -errno; malformed files set info->bad. */
int wq_info_read(struct wq_ctx *ctx, const char *name, struct wq_info *info);
void wq_info_clear(struct wq_info *info);
/*
 * keep false: wq_info_read() gives each cpumask as its set only (raw NULL,
 * but for a malformed one), for a command that does not print or compare
 * the kernel's text. Set before reading; true by default.
 */
void wq_ctx_mask_texts(struct wq_ctx *ctx, bool keep);
/* Relative path of a workqueue attribute (or of the workqueue with attr NULL). */
void wq_attr_path(char *buf, size_t size, const char *wq, const char *attr);
/*
 * The global default affinity scope, or "" if the kernel has none. With
 * --kernel naming another kernel than the one that set the values, a
 * parameter at that kernel's boot default (cache; cache_shard from 7.1) is
 * the named kernel's own default: the what-if models the named kernel.
 */
void wq_default_scope(struct wq_ctx *ctx, char *buf, size_t size);
/*
 * Does the kernel have the cache_shard scope? The named kernel's rule with
 * --kernel (7.1 and later; the pods then from the tree's cache_shard_size, or
 * the default 8 where it has none), else parameters/cache_shard_size exists.
 */
bool wq_has_cache_shard(struct wq_ctx *ctx);
/* True when the running kernel has affinity scopes (>= 6.6). */
bool wq_has_scopes(struct wq_ctx *ctx);
/* Scope names the kernel accepts, NULL-terminated static+ctx list. "default" excluded. */
const char *const *wq_scope_names(struct wq_ctx *ctx);
/*
 * True when an unbound workqueue behaves as implicitly ordered on kernels up
 * to 6.8: it was *created* with max_active 1 and still has 1. Up to 6.5 the
 * numa attribute tells (such workqueues read numa=0); on 6.6-6.8 nothing in
 * sysfs does, so the workqueues the kernel creates with 1 are known by name.
 */
bool wq_is_implicitly_ordered(const struct wq_info *wq);
/* The max_active limit for this workqueue kind, or 0 when unknown. */
int wq_max_active_limit(struct wq_ctx *ctx, bool unbound);

/*
 * Parse and validate a value for the kernel. On success *out is the exact
 * string to write (malloc'ed) and 0 is returned; on invalid input -EINVAL
 * (or -ERANGE) with the reason in why. lo/hi bound WQ_V_INT.
 * owner_node is the NUMA node for "local" (-1: no owner device).
 */
int wq_value_parse(struct wq_ctx *ctx, enum wq_vtype type, long lo, long hi, int owner_node, bool allow_default,
		   const char *text, char **out, char *why, size_t whysz);
/* Parse a CPU set value (wqctl(8), VALUES) into set; 0 or -EINVAL with why. */
int wq_cpuspec_parse(struct wq_ctx *ctx, const char *text, int owner_node, struct wq_cpuset *set, char *why,
		     size_t whysz);
/*
 * Compare two spellings of a value as the kernel means them (numbers as
 * numbers, masks as bitmaps, "default (cache)" as "default").
 */
bool wq_value_equal(enum wq_vtype type, const char *a, const char *b);
/* Human form of a value as read (cpumask as a CPU list). malloc'ed. */
char *wq_value_display(enum wq_vtype type, const char *raw);

/*
 * Validate ATTR=VALUE for a workqueue; *out is the text to write. owner_node
 * is the NUMA node of its owner device for 'local' (-1: none).
 * 0, or -EINVAL/-ENOTSUP with why.
 */
int wq_attr_parse(struct wq_ctx *ctx, const struct wq_info *wq, enum wq_attr attr, int owner_node, const char *text,
		  char **out, char *why, size_t whysz);

/*
 * Is text a value that some kernel takes for a value of this type, whatever
 * this kernel and machine offer (wqctl.profile(5), "one profile set for a
 * fleet")? Every affinity scope any kernel has; an integer in [lo, hi]; a
 * CPU set by its syntax (nodes and CPUs this machine lacks, and 'local',
 * pass). 0, or -EINVAL/-ERANGE with why.
 */
int wq_value_check_any(struct wq_ctx *ctx, enum wq_vtype type, long lo, long hi, bool allow_default, const char *text,
		       char *why, size_t whysz);
/* The same for a workqueue attribute: max_active up to the most any kernel takes on this machine's CPUs. */
int wq_attr_check_any(struct wq_ctx *ctx, enum wq_attr attr, const char *text, char *why, size_t whysz);

#endif
