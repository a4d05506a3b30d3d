// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wqctl's own files under the root, and the only module that opens them:
 * the run lock and the holds of run/wqctl, the journal of originals (with
 * its index), the min_active records, etc/wqctl/active-profiles and the
 * experiments kept by experiment --save (var/lib/wqctl). One
 * reader (below the root, only if nobody but root could have written it,
 * within a size where one applies) and one writer (directories made level
 * by level, the file replaced by rename) for all of them.
 */
#define _GNU_SOURCE
#include "state.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
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
#include "profile.h"
#include "../util/text.h"
#include "wq.h"

#define RUN_DIR "run/wqctl"
#define JOURNAL RUN_DIR "/journal"
#define LOCK RUN_DIR "/lock"
#define HOLD_DIR RUN_DIR "/hold"
#define MINACT RUN_DIR "/min_active"
#define ETC_DIR "etc/wqctl"
#define ACTIVE_FILE ETC_DIR "/active-profiles"

/*
 * The reader: rel below the root as a stream in *f, refused (logged as
 * "REL: REFUSAL: why", -EINVAL) unless only root could have written it
 * (wq_fd_trusted) and, with a limit, unless it is at most limit bytes.
 * The fd (owned by *f) or -errno; -ENOENT when there is none.
 */
static int state_open(struct wq_ctx *ctx, const char *rel, const char *refusal, off_t limit, FILE **f)
{
	char why[PATH_MAX + 64];
	int fd, e;

	*f = NULL;
	fd = wq_root_open_file(ctx->root, rel, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	e = wq_fd_trusted(fd, why, sizeof(why));
	if (e == 0 && limit)
		e = wq_fd_too_large(fd, limit, why, sizeof(why));
	if (e < 0) {
		wq_log(ctx, WQ_LOG_ERR, "%s: %s: %s", rel, refusal, e == -EPERM ? why : wq_strerror(-e));
		close(fd);
		return -EINVAL;
	}
	if (!(*f = fdopen(fd, "re"))) {
		e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

/* The reader for a whole file's text (one trailing newline stripped). 0 or -errno. */
static int state_read_text(struct wq_ctx *ctx, const char *rel, char **text)
{
	_cleanup_fclose_ FILE *f = NULL;
	int fd = state_open(ctx, rel, "refusing to read", 0, &f);

	*text = NULL;
	return fd < 0 ? fd : wq_fd_read(fd, text);
}

/* The writer: rel (in dir, made first) replaced by what fill writes. 0 or -errno. */
static int state_write(struct wq_ctx *ctx, const char *dir, const char *rel, mode_t mode,
		       void (*fill)(FILE *f, const void *data), const void *data)
{
	int r = wq_root_mkdirs(ctx->root, dir);

	return r < 0 ? r : wq_root_replace(ctx->root, rel, mode, fill, data);
}

/* --- the run lock, holds, the journal of originals ------------------------ */

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
	ne[j->n].target = wq_target_of(path);
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

	switch (wq_target_of(path)) {
	case WQ_T_KNOB: return true;
	case WQ_T_MOUNT: return wq_mountopt_valid(path); /* btrfs's thread_pool (experiment) */
	case WQ_T_PARAM:
		rest = path + sizeof(params) - 1;
		return *rest && strspn(rest, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(rest);
	case WQ_T_ATTR:
		rest = path + sizeof(wqdir) - 1;
		slash = strchr(rest, '/');
		if (!slash || (size_t)(slash - rest) >= sizeof(name))
			return false;
		memcpy(name, rest, (size_t)(slash - rest));
		name[slash - rest] = '\0';
		return wq_name_is_valid(name) && wq_attr_from_name(slash + 1) >= 0;
	case WQ_T_OTHER: break;
	}
	return false;
}

int wq_journal_read(struct wq_ctx *ctx, struct wq_journal *j)
{
	const char *path = JOURNAL;
	_cleanup_free_ char *line = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	size_t cap = 0;
	int lineno = 0, fd;

	memset(j, 0, sizeof(*j));
	fd = state_open(ctx, JOURNAL, "refusing to use the journal", 0, &f);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	while (getline(&line, &cap, f) >= 0) {
		char *fields[4], *save = NULL, *t = line;
		int nf = 0;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		for (char *tok; nf < 4 && (tok = strsep(&t, "\t"));)
			fields[nf++] = tok;
		(void)save;
		if (nf != 4 || t || (strncmp(fields[0], "sys/", 4) && wq_target_of(fields[0]) != WQ_T_MOUNT) ||
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
	return state_write(ctx, RUN_DIR, JOURNAL, 0600, fill_journal, j);
}

int wq_journal_drop_temp(struct wq_ctx *ctx)
{
	return wq_root_drop_temp(ctx->root, JOURNAL);
}

/* --- min_active as wqctl lowered it ------------------------------------- */

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
	r = state_read_text(ctx, MINACT, &m->text);
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

int wq_minact_record(struct wq_ctx *ctx, const struct wq_minact_low *low, size_t n)
{
	struct minact_out m = {0};
	struct minact *read;
	int r;

	/* the records as read now, under the lock, are the ones wq_minact_get() compares with: one read */
	r = minact_read(ctx, &read);
	if (r < 0) {
		wq_ctx_cache_drop(ctx, &minact_key);
		return r;
	}
	m.text = read->text;
	if (n && !(m.r = calloc(n, sizeof(*m.r))))
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < n; i++) {
		unsigned long long ino;
		int cur = minact_find(ctx, low[i].name, &ino);

		if (cur && low[i].min >= cur)
			continue;
		if (!(m.r[m.n].name = strdup(low[i].name))) {
			r = -ENOMEM;
			break;
		}
		m.r[m.n].ino = ino ? ino : wq_ino(ctx, low[i].name);
		m.r[m.n++].min = low[i].min;
	}
	if (r == 0 && m.n) {
		qsort(m.r, m.n, sizeof(*m.r), minact_cmp_recs);
		r = state_write(ctx, RUN_DIR, MINACT, 0644, fill_minact, &m);
	}
	for (size_t i = 0; i < m.n; i++)
		free(m.r[i].name);
	free(m.r);
	wq_ctx_cache_drop(ctx, &minact_key);
	return r;
}

/* --- the active profile set --------------------------------------------- */

char *wq_active_path(struct wq_ctx *ctx)
{
	return wq_root_join(ctx->root, ACTIVE_FILE);
}

int wq_active_read(struct wq_ctx *ctx, char ***names, size_t *n)
{
	_cleanup_free_ char *path = wq_active_path(ctx);
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *line = NULL;
	size_t cnt = 0, linecap = 0;
	char **v = NULL;
	int lineno = 0, fd;

	*names = NULL;
	*n = 0;
	if (!path)
		return -ENOMEM;
	fd = state_open(ctx, ACTIVE_FILE, "refusing to read", WQ_PROFILE_MAX_SIZE, &f);
	if (fd < 0)
		return fd;
	for (;;) {
		char *s, *e;
		ssize_t len = getline(&line, &linecap, f);

		if (len <= 0)
			break;
		s = line;
		lineno++;
		/* 254 bytes and the newline (a last line without one may have 255) */
		if (len > 255 || memchr(line, '\0', (size_t)len)) {
			wq_log(ctx, WQ_LOG_ERR, "%s:%d: %s", path, lineno,
			       len > 255 ? "line is longer than 254 bytes" : "binary data (NUL byte)");
			for (size_t i = 0; i < cnt; i++)
				free(v[i]);
			free(v);
			return -EINVAL;
		}
		if ((e = strchr(s, '#')))
			*e = '\0';
		while (isspace((unsigned char)*s))
			s++;
		for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);)
			*--e = '\0';
		if (!*s)
			continue;
		if (!wq_profile_name_is_valid(s)) {
			wq_log(ctx, WQ_LOG_ERR, "%s:%d: '%s' is not a profile name", path, lineno, s);
			for (size_t i = 0; i < cnt; i++)
				free(v[i]);
			free(v);
			return -EINVAL;
		}
		if (wq_names_append(&v, cnt, strdup(s)) < 0 || !v[cnt]) {
			for (size_t i = 0; i < cnt; i++)
				free(v[i]);
			free(v);
			return -ENOMEM;
		}
		cnt++;
	}
	*names = v;
	*n = cnt;
	return 0;
}

struct active_list {
	char *const *names;
	size_t n;
};

static void fill_active(FILE *f, const void *data)
{
	const struct active_list *a = data;

	fputs("# Active wqctl profiles, applied in order (written by 'wqctl profile use')\n", f);
	for (size_t i = 0; i < a->n; i++)
		fprintf(f, "%s\n", a->names[i]);
}

int wq_active_write(struct wq_ctx *ctx, char *const *names, size_t n)
{
	struct active_list a = {names, n};

	return state_write(ctx, ETC_DIR, ACTIVE_FILE, 0644, fill_active, &a);
}

/* --- experiments kept by experiment --save -------------------------------- */

bool wq_saved_name_ok(const char *n)
{
	if (!*n || strlen(n) > 64 || n[0] == '.')
		return false;
	for (const char *p = n; *p; p++)
		if (!(*p == '-' || *p == '_' || *p == '.' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z')))
			return false;
	return true;
}

bool wq_saved_exists(struct wq_ctx *ctx, const char *name)
{
	char rel[160];

	snprintf(rel, sizeof(rel), WQ_SAVED_DIR "/%s.json", name);
	return wq_root_exists(ctx->root, rel);
}

int wq_saved_write(struct wq_ctx *ctx, const char *name, void (*fill)(FILE *f, const void *data), const void *data)
{
	char rel[160];

	snprintf(rel, sizeof(rel), WQ_SAVED_DIR "/%s.json", name);
	return state_write(ctx, WQ_SAVED_DIR, rel, 0644, fill, data);
}

int wq_saved_open(struct wq_ctx *ctx, const char *name, char *why, size_t whysz)
{
	char rel[160];
	int fd, r;

	why[0] = '\0';
	snprintf(rel, sizeof(rel), WQ_SAVED_DIR "/%s.json", name);
	fd = wq_root_open_file(ctx->root, rel, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	r = wq_fd_trusted(fd, why, whysz);
	if (r < 0) {
		if (r != -EPERM)
			why[0] = '\0';
		close(fd);
		return r;
	}
	return fd;
}

static void add_name(const char *name, void *data)
{
	struct {
		char **v;
		size_t n;
		int err;
	} *l = data;
	size_t len = strlen(name);
	char **nv;

	if (l->err || len <= 5 || strcmp(name + len - 5, ".json"))
		return;
	nv = realloc(l->v, sizeof(*nv) * (l->n + 1));
	if (!nv || !(nv[l->n] = strndup(name, len - 5))) {
		if (nv)
			l->v = nv;
		l->err = -ENOMEM;
		return;
	}
	l->v = nv;
	if (wq_saved_name_ok(nv[l->n]))
		l->n++;
	else
		free(nv[l->n]);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int wq_saved_names(struct wq_ctx *ctx, char ***names, size_t *n)
{
	struct {
		char **v;
		size_t n;
		int err;
	} l = {0};
	int r = wq_root_each_name(ctx->root, WQ_SAVED_DIR, add_name, &l);

	if (r == -ENOENT)
		r = 0;
	if (r == 0)
		r = l.err;
	if (r < 0) {
		for (size_t i = 0; i < l.n; i++)
			free(l.v[i]);
		free(l.v);
		return r;
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_str);
	*names = l.v;
	*n = l.n;
	return 0;
}

char *wq_saved_path(struct wq_ctx *ctx, const char *name)
{
	char rel[160];

	snprintf(rel, sizeof(rel), WQ_SAVED_DIR "/%s.json", name);
	return wq_root_join(ctx->root, rel);
}
