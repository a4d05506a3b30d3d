// SPDX-License-Identifier: GPL-2.0-or-later
/* Profiles to settings: matching, statuses, whether a setting holds, the plan. */
#define _GNU_SOURCE
#include "apply.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "knob.h"
#include "../util/macro.h"
#include "mountopt.h"
#include "owner.h"
#include "ownerknob.h"
#include "state.h"
#include "verdict.h"
#include "wq.h"

void wq_settings_free(struct wq_settings *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].object);
		free(s->v[i].wq);
		free(s->v[i].attr);
		free(s->v[i].value);
		free(s->v[i].write);
		free(s->v[i].path);
		free(s->v[i].current);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* Left out of the apply and said so: every condition but ok and the refusals (verdict.c). */
static bool skipped(const struct wq_setting *x)
{
	return x->cond != WQ_COND_OK && wq_conds[x->cond].severity != WQ_SEV_ERROR;
}

int wq_settings_skips(struct wq_ctx *ctx, const struct wq_settings *s, struct wq_skips *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < s->n; i++) {
		const struct wq_setting *x = &s->v[i];
		/* a section that reached nothing has no workqueue and no attribute; a global knob its name */
		const bool section = !x->wq && (!x->attr || !*x->attr);
		const char *what = section ? x->object : x->wq ? x->attr : x->object;
		struct wq_skip *g = NULL;

		if (!skipped(x))
			continue;
		for (size_t k = 0; k < out->n && !g; k++)
			if (out->v[k].line == x->line && out->v[k].cond == x->cond && out->v[k].section == section &&
			    !strcmp(out->v[k].file, x->file) && !strcmp(out->v[k].what, what) &&
			    !strcmp(out->v[k].why, x->why))
				g = &out->v[k];
		if (!g) {
			struct wq_skip *v = realloc(out->v, sizeof(*v) * (out->n + 1));

			if (!v)
				goto oom;
			out->v = v;
			g = &v[out->n++];
			*g = (struct wq_skip){.file = x->file,
					      .line = x->line,
					      .what = what,
					      .section = section,
					      .cond = x->cond,
					      .why = x->why};
			if (section &&
			    (x->cond == WQ_COND_ABSENT || x->cond == WQ_COND_WAITING || x->cond == WQ_COND_OUTSIDE)) {
				char buf[1024];

				if (wq_owner_knob_absent(ctx, x->object, buf, sizeof(buf)) == 0 &&
				    !(g->owner_why = strdup(buf)))
					goto oom;
			}
		}
		if (x->wq) {
			const char **w = realloc(g->wqs, sizeof(*w) * (g->nwqs + 1));

			if (!w)
				goto oom;
			g->wqs = w;
			g->wqs[g->nwqs++] = x->wq;
		}
	}
	return 0;
oom:
	wq_skips_free(out);
	return -ENOMEM;
}

void wq_skips_free(struct wq_skips *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].owner_why);
		free(k->v[i].wqs);
	}
	free(k->v);
	memset(k, 0, sizeof(*k));
}

static struct wq_setting *add(struct wq_settings *s, const char *object, const char *wq, const char *attr,
			      const struct wq_pkv *kv, const char *file)
{
	struct wq_setting *nv = s->v, *x;

	/* capacity doubles at each power of two: thousands of settings, not a realloc each */
	if (s->n == 0 || (s->n >= 8 && !(s->n & (s->n - 1)))) {
		nv = realloc(s->v, sizeof(*nv) * (s->n ? 2 * s->n : 8));
		if (!nv)
			return NULL;
		s->v = nv;
	}
	x = &nv[s->n];
	memset(x, 0, sizeof(*x));
	x->object = strdup(object);
	x->wq = wq ? strdup(wq) : NULL;
	x->attr = strdup(attr);
	x->value = strdup(kv ? kv->value : "");
	x->file = file;
	x->line = kv ? kv->line : 0;
	if (!x->object || !x->attr || !x->value || (wq && !x->wq)) {
		free(x->object);
		free(x->wq);
		free(x->attr);
		free(x->value);
		return NULL;
	}
	s->n++;
	return x;
}

/* The verdict's condition and reason on x (why NULL: keep the reason). */
static void setting_cond(struct wq_setting *x, enum wq_cond c, const char *why)
{
	x->cond = c;
	if (why && why != x->why)
		snprintf(x->why, sizeof(x->why), "%s", why);
}

static int resolve_globals(struct wq_ctx *ctx, const struct wq_pset *set, struct wq_settings *out)
{
	/* Later sections override earlier ones, per key. */
	for (unsigned int d = 0; d < wq_knob_ndescs; d++) {
		const char *name = wq_knob_descs[d].name;
		const struct wq_pkv *kv = NULL;
		const struct wq_psect *win = NULL;
		struct wq_setting *x;
		struct wq_req_verdict v;
		struct wq_knob k;
		int r;

		for (size_t i = 0; i < set->ns; i++)
			for (size_t j = 0; set->s[i].global && !set->s[i].when_off && j < set->s[i].nkv; j++)
				if (streq(set->s[i].kv[j].key, name)) {
					kv = &set->s[i].kv[j];
					win = &set->s[i];
				}
		if (!kv)
			continue;
		x = add(out, name, NULL, name, kv, win->file);
		if (!x)
			return -ENOMEM;
		x->type = wq_knob_descs[d].type;
		if (win->off_kernel) {
			setting_cond(x, WQ_COND_KERNELS, win->off_kernel);
			continue;
		}
		memset(&k, 0, sizeof(k));
		if (wq_knob_get(ctx, name, &k) < 0) {
			k.present = false;
			snprintf(k.name, sizeof(k.name), "%s", name);
		}
		x->path = k.present ? strdup(k.path) : NULL;
		x->current = k.value ? strdup(k.value) : NULL;
		r = wq_request_knob(ctx, &k, kv->value, &v);
		wq_knob_clear(&k);
		if (r < 0)
			return r;
		x->write = v.write;
		setting_cond(x, v.cond, v.why);
	}
	return 0;
}

/* The section's name glob alone; most names differ before its first glob character, where strncmp() sees it. */
static bool name_matches(const struct wq_psect *s, const char *wq)
{
	size_t lit = s->literal;

	if (strncmp(s->pattern, wq, lit))
		return false;
	return s->pattern[lit] ? fnmatch(s->pattern, wq, 0) == 0 : wq[lit] == '\0';
}

/* Name glob, and every owner.PROPERTY glob against the owner's properties (none without an owner). */
static bool section_matches(const struct wq_psect *s, const char *wq, const struct wq_owner_info *oi)
{
	/* a section whose 'when' is false here does not exist here: earlier sections keep their say */
	if (s->global || s->when_off || !name_matches(s, wq))
		return false;
	for (size_t i = 0; i < s->nowner; i++) {
		const char *v = oi ? wq_owner_prop(oi, s->owner[i].key) : NULL;

		if (!v || fnmatch(s->owner[i].value, v, 0) != 0)
			return false;
	}
	return true;
}

/* The settings of one workqueue, read as wi, from the sections hits (indices in set) that reach it. */
static int resolve_wq(struct wq_ctx *ctx, const struct wq_pset *set, const size_t *hits, size_t nhits,
		      const struct wq_info *wi, const struct wq_owner_info *oi, struct wq_settings *out)
{
	const char *name = wi->name;
	int r;

	for (int a = 0; a < WQ_A_NR; a++) {
		const struct wq_pkv *kv = NULL;
		const struct wq_psect *win = NULL;
		bool exact = false;
		char obj[160], path[320];
		struct wq_setting *x;
		struct wq_req_verdict v;

		/* An exact-name section beats a glob; otherwise the later one wins. */
		for (size_t h = 0; h < nhits; h++) {
			const struct wq_psect *s = &set->s[hits[h]];

			if (exact && !s->exact)
				continue;
			for (size_t j = 0; j < s->nkv; j++) {
				if (!streq(s->kv[j].key, wq_attr_descs[a].name))
					continue;
				kv = &s->kv[j];
				win = s;
				exact = s->exact;
			}
		}
		if (!kv)
			continue;
		snprintf(obj, sizeof(obj), "%s/%s", name, wq_attr_descs[a].name);
		x = add(out, obj, name, wq_attr_descs[a].name, kv, win->file);
		if (!x)
			return -ENOMEM;
		x->type = wq_attr_descs[a].type;
		wq_attr_path(path, sizeof(path), name, wq_attr_descs[a].name);
		x->path = strdup(path);
		x->current = wi->raw[a] ? strdup(wi->raw[a]) : NULL;
		if (win->off_kernel) {
			setting_cond(x, WQ_COND_KERNELS, win->off_kernel);
			continue;
		}
		/* a profile is the admin's standing word: a max_active below min_active is written, with a warning */
		r = wq_request_attr(ctx,
				    &(struct wq_request){.wi = wi,
							 .attr = (enum wq_attr)a,
							 .value = kv->value,
							 .owner_node = oi->node,
							 .owner_why = oi->o.kind == WQ_OWNER_NONE ? NULL : oi->node_why,
							 .flags = WQ_REQ_FORCE},
				    &v);
		if (r < 0)
			return r;
		x->write = v.write;
		setting_cond(x, v.cond, v.why);
	}
	return 0;
}

static bool in_list(char *const *only, size_t nonly, const char *name)
{
	for (size_t i = 0; i < nonly; i++)
		if (streq(only[i], name))
			return true;
	return nonly == 0;
}

static bool pattern_in_list(const char *pattern, char *const *only, size_t nonly)
{
	for (size_t i = 0; i < nonly; i++)
		if (fnmatch(pattern, only[i], 0) == 0)
			return true;
	return nonly == 0;
}

int wq_settings_resolve(struct wq_ctx *ctx, const struct wq_pset *set, char *const *only, size_t nonly, bool globals,
			struct wq_settings *out)
{
	_cleanup_free_ bool *hit = NULL; /* a workqueue matched section i */
	_cleanup_free_ size_t *hits = NULL; /* the sections that reach one workqueue */
	struct wq_settings absent = {0};
	size_t globals_n;
	char **names = NULL;
	size_t n = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (globals) {
		r = resolve_globals(ctx, set, out);
		if (r < 0)
			return r;
	}
	if (nonly > 0) {
		/* Named workqueues (the caller made sure they exist): those, not the whole directory. */
		names = calloc(nonly, sizeof(*names));
		if (!names)
			return -ENOMEM;
		for (size_t k = 0; k < nonly; k++) {
			if (k > 0 && in_list(only, k, only[k]))
				continue;
			names[n] = strdup(only[k]);
			if (!names[n]) {
				wq_names_free(names, n);
				return -ENOMEM;
			}
			n++;
		}
	} else {
		/* checked below for max_active, only those a section names */
		r = wq_list_candidates(ctx, &names, &n);
		if (r < 0)
			return r;
	}
	hit = calloc(set->ns + 1, sizeof(*hit));
	hits = malloc(sizeof(*hits) * (set->ns + 1));
	if (!hit || !hits) {
		r = -ENOMEM;
		goto out;
	}
	globals_n = out->n;
	/*
	 * One pass over the workqueues in scope (the udev path resolves one
	 * owner, not all) that a section names: read, owner (only when such a
	 * section matches on it, owner.*, or places by it, 'local'), settings.
	 * Thousands of workqueues, a profile for a few.
	 */
	for (size_t k = 0; k < n && r == 0; k++) {
		bool named = false, need_owner = false;
		size_t nhits = 0;
		struct wq_info wi;
		struct wq_owner_info ow;

		if (!in_list(only, nonly, names[k]))
			continue;
		for (size_t i = 0; i < set->ns; i++) {
			const struct wq_psect *s = &set->s[i];

			if (s->global || s->when_off || !name_matches(s, names[k]))
				continue;
			named = true;
			need_owner |= s->nowner > 0;
			for (size_t j = 0; j < s->nkv && !need_owner; j++)
				need_owner = strstr(s->kv[j].value, "local") != NULL;
		}
		if (!named)
			continue;
		/* one workqueue's owner at a time: an array for all of them was 12 MB at 10,000 */
		memset(&ow, 0, sizeof(ow));
		ow.node = -1;
		/* no max_active: not a workqueue (a listed directory such as power), or gone */
		r = wq_info_read(ctx, names[k], &wi);
		if (r == 0 && need_owner)
			r = wq_owner_resolve(ctx, names[k], &ow);
		for (size_t i = 0; r == 0 && i < set->ns; i++)
			if (section_matches(&set->s[i], names[k], &ow))
				hit[i] = true, hits[nhits++] = i;
		if (r == 0 && nhits)
			r = resolve_wq(ctx, set, hits, nhits, &wi, &ow, out);
		wq_info_clear(&wi);
		wq_owner_info_clear(&ow);
		if (r == -ENOENT)
			r = 0;
	}
	if (r < 0)
		goto out;
	/* Sections whose pattern reaches no workqueue are reported (before the workqueues'), never silently ok. */
	for (size_t i = 0; i < set->ns; i++) {
		const struct wq_psect *s = &set->s[i];
		struct wq_pkv kv = {.value = (char *)"", .line = s->line};
		const struct wq_owner_knob *ok;
		struct wq_setting *x;
		bool waiting;

		if (s->global || s->when_off || !pattern_in_list(s->pattern, only, nonly) || hit[i])
			continue;
		x = add(&absent, s->pattern, NULL, "", &kv, s->file);
		if (!x) {
			r = -ENOMEM;
			goto out;
		}
		/* outside the profile's kernels, a section that reaches nothing is expected to */
		if (s->off_kernel) {
			setting_cond(x, WQ_COND_KERNELS, s->off_kernel);
			continue;
		}
		/* a section with owner.* keys is for a device's workqueues, whatever its pattern */
		ok = s->nowner ? NULL : wq_owner_knob_for(s->pattern);
		if (ok && !wq_owner_knob_in_sysfs(ctx, ok)) {
			/* the kernel never shows them: the owner's knob is the way (wq_settings_skips says it) */
			snprintf(x->why, sizeof(x->why), "not in sysfs on this kernel: %s",
				 ok->knob ? "the owner's own knob sets them" : "their owner offers no knob for them");
			setting_cond(x, WQ_COND_OUTSIDE, NULL);
			continue;
		}
		/*
		 * A hot-plug section: its workqueues come with their device (a
		 * device's name, an owner's workqueues shown in sysfs while it
		 * exists, or a glob with owner.* properties; a plain name with
		 * them names a workqueue that has no device)
		 */
		waiting = ok || wq_owner_pattern_is_device(s->pattern) || (s->nowner && !s->exact);
		snprintf(x->why, sizeof(x->why), "%s%s",
			 s->nowner ? "no workqueue with a matching owner" : "no workqueue matches",
			 waiting ? ": waiting for its device (applied by the udev rule when it appears)" : "");
		setting_cond(x, waiting ? WQ_COND_WAITING : WQ_COND_ABSENT, NULL);
	}
	if (absent.n) {
		/* the capacity add() assumes: 8, or the power of two at or above the count */
		size_t cap = 8;
		struct wq_setting *v;

		while (cap < out->n + absent.n)
			cap *= 2;
		v = realloc(out->v, sizeof(*v) * cap);

		if (!v) {
			r = -ENOMEM;
			goto out;
		}
		memmove(v + globals_n + absent.n, v + globals_n, sizeof(*v) * (out->n - globals_n));
		memcpy(v + globals_n, absent.v, sizeof(*v) * absent.n);
		out->v = v;
		out->n += absent.n;
		free(absent.v);
		absent.v = NULL;
		absent.n = 0;
	}
out:
	wq_settings_free(&absent);
	wq_names_free(names, n);
	return r;
}

enum wq_cond wq_setting_holds(const struct wq_setting *x, const struct wq_journal *j, char *why, size_t whysz)
{
	snprintf(why, whysz, "%s", x->why);
	if (x->cond != WQ_COND_OK || wq_value_equal(x->type, x->current, x->write))
		return x->cond;
	for (size_t k = 0; j && x->path && k < j->n; k++) {
		if (streq(j->e[k].path, x->path) && wq_value_equal(x->type, j->e[k].written, x->write)) {
			_cleanup_free_ char *w = wq_value_display(x->type, j->e[k].written);

			snprintf(why, whysz, "wqctl wrote %s; changed since by another writer", w ? w : "?");
			return WQ_COND_FOREIGN;
		}
	}
	return WQ_COND_DRIFT;
}

int wq_settings_plan(const struct wq_settings *s, struct wq_plan *plan)
{
	/* Root mask before other globals, globals before workqueues (their masks follow it). */
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < s->n; i++) {
			const struct wq_setting *x = &s->v[i];
			int want = x->wq ? 2 : streq(x->attr, "cpumask") ? 0 : 1;

			if (x->cond != WQ_COND_OK || want != pass)
				continue;
			if (wq_plan_add(plan, x->object, x->path, NULL, x->type, x->current, x->write) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}
