/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From a profile set to concrete settings: merge per target with the
 * override rules of wqctl.profile(5), validate against each workqueue, and
 * build the plan; whether a resolved setting holds (verify, metrics).
 */
#ifndef WQ_APPLY_H
#define WQ_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "plan.h"
#include "profile.h"
#include "verdict.h"

struct wq_setting {
	char *object; /* "writeback/max_active", "cpumask", or the pattern for ABSENT */
	char *wq; /* NULL for a global knob */
	char *attr;
	char *value; /* as in the profile */
	char *write; /* kernel form (OK only) */
	char *path; /* root-relative file */
	char *current; /* as read */
	enum wq_vtype type;
	enum wq_cond cond; /* the verdict (verdict.h): verify's status, apply's action, the exit status */
	char why[480];
	const char *file;
	int line;
};

struct wq_settings {
	size_t n;
	struct wq_setting *v;
};

/*
 * Resolve set against the running system. only (nonly > 0) limits it to
 * those workqueues, which the caller has found present; globals includes the [global] keys. 0 or -errno.
 */
int wq_settings_resolve(struct wq_ctx *ctx, const struct wq_pset *set, char *const *only, size_t nonly, bool globals,
			struct wq_settings *out);
void wq_settings_free(struct wq_settings *s);
/*
 * What an apply leaves out and why, one group per profile line and
 * condition: a section that reaches no workqueue (with, for an owner's
 * workqueues kept out of sysfs, what to change instead), or an attribute
 * some workqueues lack or cannot resolve (the workqueues listed). Every
 * condition of severity info or warning (verdict.h); refusals are not in
 * here.
 */
struct wq_skip {
	const char *file;
	int line;
	const char *what; /* the attribute, or the section's pattern (section) */
	bool section;
	enum wq_cond cond;
	const char *why;
	char *owner_why; /* lines joined by '\n', or NULL */
	const char **wqs; /* the workqueues (not for a section) */
	size_t nwqs;
};
struct wq_skips {
	size_t n;
	struct wq_skip *v;
};
/* Group s's skipped settings; the groups point into s. 0 or -ENOMEM. */
int wq_settings_skips(struct wq_ctx *ctx, const struct wq_settings *s, struct wq_skips *out);
void wq_skips_free(struct wq_skips *k);

/*
 * Whether a resolved setting holds, as verify and metrics judge it: its own
 * condition, or for one that applies drift (the live value differs) and
 * foreign (wqctl wrote the profile's value, per the journal j, which may be
 * NULL, and another writer changed it since). why gets the reason.
 */
struct wq_journal;
enum wq_cond wq_setting_holds(const struct wq_setting *x, const struct wq_journal *j, char *why, size_t whysz);

/* Plan the OK settings: root cpumask first, then other globals, then workqueues. 0 or -ENOMEM. */
int wq_settings_plan(const struct wq_settings *s, struct wq_plan *plan);

#endif
