// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * min_active as wqctl lowered it (kernel >= 6.9): the records of
 * run/wqctl/min_active, read by apply's writer and by explain's model, and
 * the warnings a max_active write needs before it lowers it.
 */
#define _GNU_SOURCE
#include "minact.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "macro.h"

#define MINACT "run/wqctl/min_active"

/* The inode number of wq's sysfs directory: a recreated workqueue is a new kernfs node. */
static unsigned long long wq_ino(struct wq_ctx *ctx, const char *wq)
{
	char path[320];
	struct stat st;

	wq_attr_path(path, sizeof(path), wq, NULL);
	return wq_root_stat(ctx->root, path, &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

/* The records as read once per run, and their lines sorted by name (then by place). */
struct minact {
	char *text;
	const char **by_name;
	size_t n;
};

static void minact_release(void *data)
{
	struct minact *m = data;

	if (m) {
		free(m->text);
		free(m->by_name);
	}
	free(m);
}

static const struct wq_ctx_cache minact_key = {minact_release, false};

/* Compare a record line's name (up to its tab) with a name of len bytes. */
static int minact_cmp_name(const char *line, const char *name, size_t len)
{
	size_t n = strcspn(line, "\t\n");
	int r = memcmp(line, name, n < len ? n : len);

	return r ? r : (n > len) - (n < len);
}

static int minact_cmp_lines(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int r = minact_cmp_name(x, y, strcspn(y, "\t\n"));

	return r ? r : (x > y) - (x < y); /* a name twice: the first line first, as a scan finds it */
}

/*
 * The record line of wq ("NAME\tINO\tMIN"), or NULL. The lines are
 * sorted once: show and check ask for every workqueue, and a storage
 * server may have lowered thousands.
 */
static const char *minact_line(struct minact *m, const char *wq)
{
	size_t len = strlen(wq), lo = 0, hi;

	if (!m->by_name) {
		size_t n = 0;

		for (const char *l = m->text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
			n++;
		if (!(m->by_name = malloc(sizeof(char *) * (n + 1))))
			return NULL;
		n = 0;
		for (const char *l = m->text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
			if (l[strcspn(l, "\t\n")] == '\t') /* a record: a line without a tab names nothing */
				m->by_name[n++] = l;
		qsort(m->by_name, n, sizeof(char *), minact_cmp_lines);
		m->n = n;
	}
	/* the first line whose name is not below wq */
	for (hi = m->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (minact_cmp_name(m->by_name[mid], wq, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n && minact_cmp_name(m->by_name[lo], wq, len) == 0)
		return m->by_name[lo];
	return NULL;
}

/* run/wqctl/min_active, read afresh into ctx ("" when there is none): 0 or -errno (not -ENOENT); *out NULL on -ENOMEM. */
static int minact_read(struct wq_ctx *ctx, struct minact **out)
{
	struct minact *m = calloc(1, sizeof(*m));
	int r;

	*out = NULL;
	wq_ctx_cache_drop(ctx, &minact_key);
	if (!m)
		return -ENOMEM;
	r = wq_root_read(ctx->root, MINACT, &m->text);
	if ((!m->text && !(m->text = strdup(""))) || wq_ctx_cache_set(ctx, &minact_key, m) < 0) {
		minact_release(m);
		return -ENOMEM;
	}
	*out = m;
	return r == -ENOENT ? 0 : r;
}

/* wq's record's min_active if it is of this instance of wq, else 0; *now: wq's inode when it was looked at, else 0. */
static int minact_find(struct wq_ctx *ctx, const char *wq, unsigned long long *now)
{
	struct minact *m = wq_ctx_cache_get(ctx, &minact_key);
	unsigned long long ino;
	const char *l;
	int min;

	*now = 0;
	if (!m)
		minact_read(ctx, &m); /* unreadable: no records */
	l = m ? minact_line(m, wq) : NULL;
	if (!l || sscanf(l + strlen(wq), "\t%llu\t%d", &ino, &min) != 2 || min < 1)
		return 0;
	*now = wq_ino(ctx, wq);
	return ino == *now ? min : 0;
}

int wq_minact_get(struct wq_ctx *ctx, const char *wq)
{
	unsigned long long ino;

	return minact_find(ctx, wq, &ino);
}

struct minact_rec {
	char *name;
	unsigned long long ino;
	int min;
};

struct minact_out {
	const char *text;
	struct minact_rec *r; /* sorted by name for fill_minact() */
	size_t n;
};

static int minact_cmp_recs(const void *a, const void *b)
{
	return strcmp(((const struct minact_rec *)a)->name, ((const struct minact_rec *)b)->name);
}

static void fill_minact(FILE *f, const void *data)
{
	const struct minact_out *m = data;

	/* the records of other workqueues, then the new ones */
	for (const char *l = m->text; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l), lo = 0, hi = m->n, nlen = strcspn(l, "\t\n");

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (minact_cmp_name(l, m->r[mid].name, strlen(m->r[mid].name)) > 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* replaced: a new record of the same name (a line without a tab is kept, as before) */
		if (!(lo < m->n && l[nlen] == '\t' && minact_cmp_name(l, m->r[lo].name, strlen(m->r[lo].name)) == 0) &&
		    len)
			fprintf(f, "%.*s\n", (int)len, l);
		l = e ? e + 1 : NULL;
	}
	for (size_t i = 0; i < m->n; i++)
		fprintf(f, "%s\t%llu\t%d\n", m->r[i].name, m->r[i].ino, m->r[i].min);
}

int wq_minact_note(struct wq_ctx *ctx, const struct wq_plan *plan)
{
	static const char prefix[] = WQ_P_WQ "/";
	struct minact_out m = {0};
	struct minact *read;
	size_t cap = 0;
	const char *why;
	int r;

	if (wq_ctx_era(ctx, &why) != WQ_ERA_C)
		return 0;
	/* the records as read now, under the lock, are the ones wq_minact_get() compares with: one read */
	r = minact_read(ctx, &read);
	if (r < 0) {
		wq_ctx_cache_drop(ctx, &minact_key);
		return r;
	}
	m.text = read->text;
	for (size_t i = 0; i < plan->n; i++) {
		const struct wq_change *c = &plan->c[i];
		char name[WQ_NAME_MAX], per_cpu[320];
		_cleanup_free_ char *pc = NULL;
		const char *slash;
		unsigned long long ino;
		int v = atoi(c->new), cur;

		if (c->state != WQ_CH_WRITTEN || strncmp(c->path, prefix, sizeof(prefix) - 1))
			continue;
		slash = strchr(c->path + sizeof(prefix) - 1, '/');
		if (!slash || strcmp(slash, "/max_active") ||
		    (size_t)(slash - c->path) - (sizeof(prefix) - 1) >= sizeof(name))
			continue;
		/* at or above the default min_active it lowers nothing: no file to read */
		if (v >= wq_kver_dfl_min_active(&ctx->kver))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(slash - c->path - (sizeof(prefix) - 1)),
			 c->path + sizeof(prefix) - 1);
		/* per-cpu workqueues have no node counters, hence no min_active */
		wq_attr_path(per_cpu, sizeof(per_cpu), name, "per_cpu");
		if (wq_root_read(ctx->root, per_cpu, &pc) < 0 || atoi(pc) != 0)
			continue;
		cur = minact_find(ctx, name, &ino);
		if (cur && v >= cur)
			continue;
		if (m.n == cap) {
			struct minact_rec *nr = realloc(m.r, sizeof(*nr) * (cap = cap ? 2 * cap : 64));

			if (!nr) {
				r = -ENOMEM;
				break;
			}
			m.r = nr;
		}
		if (!(m.r[m.n].name = strdup(name))) {
			r = -ENOMEM;
			break;
		}
		m.r[m.n].ino = ino ? ino : wq_ino(ctx, name);
		m.r[m.n++].min = v;
	}
	if (r == 0 && m.n) {
		qsort(m.r, m.n, sizeof(*m.r), minact_cmp_recs);
		r = wq_root_replace(ctx->root, MINACT, 0644, fill_minact, &m);
	}
	for (size_t i = 0; i < m.n; i++)
		free(m.r[i].name);
	free(m.r);
	wq_ctx_cache_drop(ctx, &minact_key);
	return r;
}

/*
 * Warnings about what a valid write does that a user may not expect
 * (doc/kernel.md §11); -EPERM (after an error) for a write that
 * needs force.
 */
int wq_minact_check_write(struct wq_ctx *ctx, const struct wq_info *wi, int attr, const char *newv, bool force,
			  char *why, size_t whysz)
{
	const char *era_why;
	enum wq_era era = wq_ctx_era(ctx, &era_why);
	int v = atoi(newv), m = wq_kver_dfl_min_active(&ctx->kver), low;

	if (attr != WQ_A_MAX_ACTIVE || !wi->unbound)
		return 0;
	/* min_active = min(8, max_active at creation, every smaller max_active written) (doc/kernel.md §4.5) */
	if (m > wi->max_active)
		m = wi->max_active;
	low = wq_minact_get(ctx, wi->name);
	if (low > 0 && low < m)
		m = low;
	if (era == WQ_ERA_C && v < m) {
		if (!force) {
			snprintf(why, whysz,
				 "writing %d lowers the hidden min_active from %d to %d until the workqueue is "
				 "recreated (kernel >= 6.9); add --force to write it",
				 v, m, v);
			return -EPERM;
		}
		wq_log(ctx, WQ_LOG_WARNING,
		       "%s/max_active: min_active goes from %d to %d until the workqueue is recreated", wi->name, m, v);
	}
	if ((era == WQ_ERA_A || era == WQ_ERA_B) && wq_is_implicitly_ordered(wi) && v != 1)
		wq_log(ctx, WQ_LOG_WARNING,
		       "%s/max_active: this workqueue may be implicitly ordered; on kernels up to 6.8 the "
		       "write removes its ordering",
		       wi->name);
	return 0;
}
