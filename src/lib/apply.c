// SPDX-License-Identifier: GPL-2.0-or-later
/* Profiles to settings: matching, statuses, the plan, the run lock and the journal of originals. */
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
#include "macro.h"
#include "mountopt.h"
#include "owner.h"
#include "ownerknob.h"
#include "verdict.h"
#include "wq.h"

#define RUN_DIR "run/wqctl"
#define JOURNAL RUN_DIR "/journal"
#define LOCK RUN_DIR "/lock"
#define HOLD_DIR RUN_DIR "/hold"

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

/* rel below the root (its directory dir made first) opened and flocked, waiting at most timeout_ms. */
static int lock_file(struct wq_ctx *ctx, const char *dir, const char *rel, int timeout_ms)
{
	int fd, waited = 0;

	fd = wq_root_mkdirs(ctx->root, dir);
	if (fd < 0)
		return fd;
	fd = wq_root_open_file(ctx->root, rel, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
	if (fd < 0)
		return fd;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		struct timespec ts = {0, 10 * 1000 * 1000};

		if (errno != EWOULDBLOCK || waited >= timeout_ms) {
			int e = errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;

			close(fd);
			return e;
		}
		nanosleep(&ts, NULL);
		waited += 10;
	}
	return fd;
}

int wq_lock_take(struct wq_ctx *ctx, int timeout_ms)
{
	return lock_file(ctx, RUN_DIR, LOCK, timeout_ms);
}

void wq_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}

int wq_hold_take(struct wq_ctx *ctx, const char *path, char *holder, size_t holdersz)
{
	char rel[64], mine[64];
	ssize_t n;
	int fd;

	/* a fixed-length name for any path */
	snprintf(rel, sizeof(rel), HOLD_DIR "/%016llx", (unsigned long long)wq_text_hash(path, strlen(path)));
	fd = lock_file(ctx, HOLD_DIR, rel, 0);
	if (fd == -ETIMEDOUT) {
		/* held: who holds it, as the holder wrote it */
		int rfd = wq_root_open_file(ctx->root, rel, O_RDONLY | O_NOFOLLOW, 0);

		n = rfd >= 0 && holdersz ? pread(rfd, holder, holdersz - 1, 0) : -1;
		if (holdersz) {
			holder[n > 0 ? n : 0] = '\0';
			holder[strcspn(holder, "\n")] = '\0';
			if (!holder[0] || wq_value_has_ctrl(holder))
				snprintf(holder, holdersz, "another wqctl");
		}
		if (rfd >= 0)
			close(rfd);
		return -EBUSY;
	}
	if (fd < 0)
		return fd;
	n = snprintf(mine, sizeof(mine), "pid %ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, mine, (size_t)n, 0) == n)
		return fd;
	/* the lock is what holds; the note only names the holder in a message */
	return fd;
}

void wq_journal_free(struct wq_journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->e[i].path);
		free(j->e[i].orig);
		free(j->e[i].written);
	}
	free(j->e);
	free(j->slot);
	for (size_t i = 0; i < j->nundo; i++)
		free(j->undo[i].written);
	free(j->undo);
	memset(j, 0, sizeof(*j));
}

static int jadd(struct wq_journal *j, const char *path, enum wq_vtype type, const char *orig, const char *written)
{
	struct wq_jentry *ne;

	/* one line per entry, tab-separated: a control character would forge lines or fields */
	if (wq_value_has_ctrl(path) || wq_value_has_ctrl(orig) || wq_value_has_ctrl(written))
		return -EINVAL;
	if (j->n == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 16;

		ne = realloc(j->e, sizeof(*ne) * cap);
		if (!ne)
			return -ENOMEM;
		j->e = ne;
		j->cap = cap;
	}
	ne = j->e;
	ne[j->n].path = strdup(path);
	ne[j->n].type = type;
	ne[j->n].orig = strdup(orig);
	ne[j->n].written = strdup(written);
	if (!ne[j->n].path || !ne[j->n].orig || !ne[j->n].written) {
		free(ne[j->n].path);
		free(ne[j->n].orig);
		free(ne[j->n].written);
		return -ENOMEM;
	}
	j->n++;
	return 0;
}

/* The slot of path in j's index: the one that holds its entry, or the empty one where it goes. */
static size_t *jslot(const struct wq_journal *j, const char *path)
{
	size_t mask = j->nslot - 1, i = (size_t)wq_text_hash(path, strlen(path)) & mask;

	while (j->slot[i] && !streq(j->e[j->slot[i] - 1].path, path))
		i = (i + 1) & mask;
	return &j->slot[i];
}

/* An index with room for one more entry. A path twice in the file: the first one is noted, as by a scan. */
static int jindex(struct wq_journal *j)
{
	size_t n = 64;

	if (j->slot && j->nslot > 2 * (j->n + 1))
		return 0;
	while (n <= 4 * (j->n + 1))
		n *= 2;
	free(j->slot);
	j->nslot = n;
	if (!(j->slot = calloc(n, sizeof(*j->slot)))) {
		j->nslot = 0;
		return -ENOMEM;
	}
	for (size_t i = 0; i < j->n; i++) {
		size_t *s = jslot(j, j->e[i].path);

		if (!*s)
			*s = i + 1;
	}
	return 0;
}

int wq_journal_note(struct wq_journal *j, const char *path, enum wq_vtype type, const char *orig, const char *written)
{
	size_t *s;
	int r;

	if (jindex(j) < 0)
		return -ENOMEM;
	s = jslot(j, path);
	if (*s) {
		struct wq_jentry *e = &j->e[*s - 1];
		char *w = wq_value_has_ctrl(written) ? NULL : strdup(written);

		if (!w)
			return wq_value_has_ctrl(written) ? -EINVAL : -ENOMEM;
		if (j->marked && (size_t)(e - j->e) < j->mark) {
			/* keep the replaced text for wq_journal_undo() */
			if (j->nundo == j->undocap) {
				size_t cap = j->undocap ? 2 * j->undocap : 8;
				struct wq_jundo *nu = realloc(j->undo, sizeof(*nu) * cap);

				if (!nu) {
					free(w);
					return -ENOMEM;
				}
				j->undo = nu;
				j->undocap = cap;
			}
			j->undo[j->nundo++] = (struct wq_jundo){.i = (size_t)(e - j->e), .written = e->written};
		} else {
			free(e->written);
		}
		e->written = w;
		return 0;
	}
	r = jadd(j, path, type, orig, written);
	if (r == 0)
		*s = j->n;
	return r;
}

void wq_journal_mark(struct wq_journal *j)
{
	for (size_t i = 0; i < j->nundo; i++)
		free(j->undo[i].written);
	j->nundo = 0;
	j->mark = j->n;
	j->marked = true;
}

void wq_journal_undo(struct wq_journal *j)
{
	if (!j->marked)
		return;
	/* newest first: an entry noted twice ends with the text it had at the mark */
	while (j->nundo) {
		struct wq_jundo *u = &j->undo[--j->nundo];

		free(j->e[u->i].written);
		j->e[u->i].written = u->written;
	}
	while (j->n > j->mark) {
		struct wq_jentry *e = &j->e[--j->n];

		free(e->path);
		free(e->orig);
		free(e->written);
	}
	/* the index holds the entries just dropped */
	free(j->slot);
	j->slot = NULL;
	j->nslot = 0;
	j->marked = false;
}

void wq_journal_drop(struct wq_journal *j, size_t i)
{
	free(j->e[i].path);
	free(j->e[i].orig);
	free(j->e[i].written);
	memmove(&j->e[i], &j->e[i + 1], sizeof(*j->e) * (j->n - i - 1));
	j->n--;
	/* the entries after i moved: the next note builds the index again */
	free(j->slot);
	j->slot = NULL;
	j->nslot = 0;
}

void wq_journal_compact(struct wq_journal *j, const bool *drop)
{
	size_t keep = 0;

	/* one pass: dropping entries one by one moved the rest each time (quadratic in the journal) */
	for (size_t i = 0; i < j->n; i++) {
		if (drop[i]) {
			free(j->e[i].path);
			free(j->e[i].orig);
			free(j->e[i].written);
		} else {
			j->e[keep++] = j->e[i];
		}
	}
	if (keep == j->n)
		return;
	j->n = keep;
	free(j->slot);
	j->slot = NULL;
	j->nslot = 0;
}

static size_t journal_drop_wq(struct wq_journal *j, const char *prefix)
{
	size_t dropped = 0, len = strlen(prefix);
	_cleanup_free_ bool *drop = calloc(j->n ? j->n : 1, sizeof(*drop));

	if (!drop)
		return 0;
	for (size_t i = 0; i < j->n; i++)
		if (!strncmp(j->e[i].path, prefix, len))
			drop[i] = true, dropped++;
	wq_journal_compact(j, drop);
	return dropped;
}

int wq_journal_forget(struct wq_ctx *ctx, const char *wq, int wait_ms)
{
	struct wq_journal j = {0};
	char prefix[320];
	int lock, r;

	wq_attr_path(prefix, sizeof(prefix), wq, "");
	/* Most removals concern workqueues wqctl never touched: no lock for those. */
	r = wq_journal_read(ctx, &j);
	if (r < 0)
		return r;
	r = (int)journal_drop_wq(&j, prefix);
	wq_journal_free(&j);
	if (r == 0)
		return 0;
	lock = wq_lock_take(ctx, wait_ms);
	if (lock < 0)
		return lock;
	/*
	 * A remove event for a workqueue that is there (udevadm trigger
	 * --action=remove, or a remove handled after the add of a new
	 * instance): nothing is gone, so nothing is forgotten. Asked under
	 * the lock, so that no apply writes in between. The kernel sends the
	 * event just before it removes the directory: one still there is
	 * asked again for up to a second.
	 */
	for (int tries = 0;; tries++) {
		r = wq_root_open(ctx->root, prefix, O_PATH | O_DIRECTORY);
		if (r < 0)
			break;
		close(r);
		if (tries == 20) {
			wq_lock_release(lock);
			return -EEXIST;
		}
		nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
	}
	r = wq_journal_read(ctx, &j);
	if (r == 0) {
		size_t n = journal_drop_wq(&j, prefix);

		r = n ? wq_journal_write(ctx, &j) : 0;
		if (r == 0)
			r = (int)n;
	}
	wq_journal_free(&j);
	wq_lock_release(lock);
	return r;
}

/* Journal lines: PATH <tab> TYPE <tab> ORIGINAL <tab> WRITTEN */
/*
 * What a journal line may name: a workqueue's attribute, a knob of the
 * table, a parameter of the workqueue module, or a btrfs mount's
 * thread_pool (mountopt.h), and nothing else. revert
 * writes each line back as root, so a line naming any other file (planted,
 * or from a damaged journal) is refused, not written.
 */
static bool journal_path_ok(const char *path)
{
	static const char wqdir[] = WQ_P_WQ "/", params[] = WQ_P_PARAMS "/";
	const char *rest, *slash;
	char name[WQ_NAME_MAX];

	for (unsigned int i = 0; i < wq_knob_ndescs; i++)
		if (wq_knob_descs[i].path && streq(path, wq_knob_descs[i].path))
			return true;
	/* btrfs's thread_pool (experiment) */
	if (wq_mountopt_is(path))
		return wq_mountopt_valid(path);
	if (!strncmp(path, params, sizeof(params) - 1)) {
		rest = path + sizeof(params) - 1;
		return *rest && strspn(rest, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(rest);
	}
	if (strncmp(path, wqdir, sizeof(wqdir) - 1))
		return false;
	rest = path + sizeof(wqdir) - 1;
	slash = strchr(rest, '/');
	if (!slash || (size_t)(slash - rest) >= sizeof(name))
		return false;
	memcpy(name, rest, (size_t)(slash - rest));
	name[slash - rest] = '\0';
	return wq_name_is_valid(name) && wq_attr_from_name(slash + 1) >= 0;
}

int wq_journal_read(struct wq_ctx *ctx, struct wq_journal *j)
{
	const char *path = JOURNAL;
	_cleanup_free_ char *line = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	size_t cap = 0;
	int lineno = 0, fd;

	memset(j, 0, sizeof(*j));
	fd = wq_root_open_file(ctx->root, JOURNAL, O_RDONLY, 0);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	{
		char why[PATH_MAX + 64];
		int e = wq_fd_trusted(fd, why, sizeof(why));

		if (e < 0) {
			wq_log(ctx, WQ_LOG_ERR, "%s: refusing to use the journal: %s", path,
			       e == -EPERM ? why : wq_strerror(-e));
			close(fd);
			return -EINVAL;
		}
	}
	f = fdopen(fd, "re");
	if (!f) {
		close(fd);
		return -errno;
	}
	while (getline(&line, &cap, f) >= 0) {
		char *fields[4], *save = NULL, *t = line;
		int nf = 0;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		for (char *tok; nf < 4 && (tok = strsep(&t, "\t"));)
			fields[nf++] = tok;
		(void)save;
		if (nf != 4 || t || (strncmp(fields[0], "sys/", 4) && !wq_mountopt_is(fields[0])) ||
		    strstr(fields[0], "..") || atoi(fields[1]) < 0 || atoi(fields[1]) > WQ_V_STRING) {
			wq_log(ctx, WQ_LOG_ERR, "%s:%d: malformed journal line", path, lineno);
			wq_journal_free(j);
			return -EINVAL;
		}
		if (!journal_path_ok(fields[0])) {
			wq_log(
			    ctx, WQ_LOG_ERR,
			    "%s:%d: /%s is neither a workqueue attribute, a workqueue knob nor a mount option; the journal is not used",
			    path, lineno, fields[0]);
			wq_journal_free(j);
			return -EINVAL;
		}
		if (jadd(j, fields[0], (enum wq_vtype)atoi(fields[1]), fields[2], fields[3]) < 0) {
			wq_journal_free(j);
			return -ENOMEM;
		}
	}
	return 0;
}

static void fill_journal(FILE *f, const void *data)
{
	const struct wq_journal *j = data;

	for (size_t i = 0; i < j->n; i++)
		fprintf(f, "%s\t%d\t%s\t%s\n", j->e[i].path, (int)j->e[i].type, j->e[i].orig, j->e[i].written);
}

int wq_journal_write(struct wq_ctx *ctx, const struct wq_journal *j)
{
	if (j->n == 0)
		return wq_root_unlink(ctx->root, JOURNAL);
	return wq_root_replace(ctx->root, JOURNAL, 0600, fill_journal, j);
}
