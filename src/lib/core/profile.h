/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Profiles (wqctl.profile(5)): INI files read with inih, their includes, and the
 * merge of a set of profiles into per-target settings.
 */
#ifndef WQ_PROFILE_H
#define WQ_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

/* The largest profile or active-profiles file read (bytes). */
#define WQ_PROFILE_MAX_SIZE (1 << 20)
/* -EPERM with why ("larger than N KiB (M bytes)") when fd's file is over limit bytes; 0 or -errno. */
int wq_fd_too_large(int fd, long long limit, char *why, size_t whysz);

struct wq_pkv {
	char *key;
	char *value;
	int line;
};

struct wq_psect {
	bool global;
	char *pattern; /* workqueue name or glob; NULL for [global] */
	bool exact; /* pattern has no glob characters */
	size_t literal; /* length of the pattern before its first glob or escape character */
	struct wq_pkv *owner; /* owner.PROPERTY = GLOB */
	size_t nowner;
	struct wq_pkv *kv;
	size_t nkv;
	const char *file; /* owned by the set */
	int line;
	/* set when the profile's 'kernels' range excludes this kernel: why (malloc'ed) */
	char *off_kernel;
	/* set when the section's 'when' condition is false here: why (malloc'ed); the section is ignored */
	char *when_off;
	int when_line;
};

struct wq_pset {
	char **names; /* profiles in load order (includes first) */
	char **files;
	char **descs;
	size_t n;
	struct wq_psect *s;
	size_t ns;
};

/* Default search path below the root: /etc, /run, then the vendor directory. */
extern const char *const wq_profile_default_dirs[3];

/*
 * Find NAME.conf in dirs (first wins). 0 with *path malloc'ed, -ENOENT, or
 * -ENXIO when the first hit is a symlink to /dev/null (masked).
 */
int wq_profile_find(struct wq_ctx *ctx, const char *const *dirs, size_t ndirs, const char *name, char **path);
/* True if name is a plausible profile name (no '/', not starting with '.' or '-'). */
bool wq_profile_name_is_valid(const char *name);
/*
 * Load profiles with their includes into set. Every problem is logged as
 * "FILE:LINE: message"; returns 0, or -EINVAL when anything was invalid
 * (the set must then not be applied). Free the set with wq_pset_free()
 * whatever this returns.
 */
int wq_pset_load(struct wq_ctx *ctx, const char *const *dirs, size_t ndirs, char *const *names, size_t n,
		 struct wq_pset *set);
void wq_pset_free(struct wq_pset *set);
/*
 * A profile's 'kernels' range: "6.10-", "6.6-6.8", "-6.5" or one series
 * "6.12" (an upper bound without a patch level takes every 6.8.y). 1 when
 * kv lies inside, 0 outside, -EINVAL for a malformed range.
 */
int wq_kernels_match(const char *range, const struct wq_kver *kv);

/*
 * The administrator's profile NAME, etc/wqctl/profiles/NAME.conf below the
 * root, every path resolved inside it (no link leads out of a sysroot).
 * Install: the text written to a temporary file beside it and renamed over
 * (a link there is replaced, never followed), mode 0644; the caller has
 * validated it. 0 or -errno (-EINVAL for a name that is no profile name).
 */
int wq_profile_install(struct wq_ctx *ctx, const char *name, const char *text, size_t len);
/* Remove it: the file, or a link there (a mask) itself. 0 (also when absent) or -errno. */
int wq_profile_uninstall(struct wq_ctx *ctx, const char *name);
/*
 * Its text (malloc'ed, one trailing newline stripped): -ENOENT when not
 * installed, -ENXIO for a mask, -EACCES for a file others may not read
 * (a profile is 0644: such a file is not printed), -EPERM for one the
 * trust rule refuses, -EFBIG over the size limit.
 */
int wq_profile_read_installed(struct wq_ctx *ctx, const char *name, char **text);

/*
 * A section's condition, "VAR OP VALUE[, ...]" with VAR kernel, nodes or
 * cpus (online) and OP >= <= > < == !=, nothing else but blanks; all must
 * hold. 1 true, 0 false (why says which), -EINVAL malformed (why says how).
 */
int wq_profile_when_eval(struct wq_ctx *ctx, const char *text, char *why, size_t whysz);

#endif
