// SPDX-License-Identifier: GPL-2.0-or-later
/* Workqueues: discovery, the attribute table, value parsing, validation and comparison. */
#define _GNU_SOURCE
#include "wq.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../util/macro.h"

const struct wq_attr_desc wq_attr_descs[WQ_A_NR] = {
    [WQ_A_MAX_ACTIVE] = {"max_active", WQ_V_INT, false, "3.10", NULL,
			 "most work items active at once (meaning depends on the kernel era)"},
    [WQ_A_CPUMASK] = {"cpumask", WQ_V_CPUMASK, true, "3.10", NULL,
		      "CPUs the workqueue's workers may run on (requested)"},
    [WQ_A_AFFINITY_SCOPE] = {"affinity_scope", WQ_V_SCOPE, true, "6.6", NULL, "pod granularity of worker affinity"},
    [WQ_A_AFFINITY_STRICT] = {"affinity_strict", WQ_V_BOOL, true, "6.6", NULL, "1: workers never leave their pod"},
    [WQ_A_NICE] = {"nice", WQ_V_INT, true, "3.10", NULL, "nice level of the workers"},
    [WQ_A_NUMA] = {"numa", WQ_V_BOOL, true, "3.10", "6.5", "legacy NUMA affinity switch"},
};

int wq_attr_from_name(const char *name)
{
	for (int i = 0; i < WQ_A_NR; i++)
		if (streq(name, wq_attr_descs[i].name))
			return i;
	return -1;
}

bool wq_name_is_valid(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len >= WQ_NAME_MAX || streq(name, ".") || streq(name, ".."))
		return false;
	for (const char *p = name; *p; p++)
		if (*p == '/' || !isprint((unsigned char)*p) || isspace((unsigned char)*p))
			return false;
	return true;
}

void wq_attr_path(char *buf, size_t size, const char *wq, const char *attr)
{
	/* str_put, not snprintf: seven paths for each of thousands of workqueues */
	size_t n = str_put(buf, str_put(buf, 0, size, WQ_P_WQ "/"), size, wq);

	if (attr)
		str_put(buf, str_put(buf, n, size, "/"), size, attr);
}

bool wq_is_implicitly_ordered(const struct wq_info *wq)
{
	/* doc/kernel.md §6: the exposed workqueues allocated unbound with max_active 1 */
	static const char *const created_with_1[] = {"scsi_wq_*", "scsi_tmf_*", "iscsi_q_*", "hfi_link_*"};

	if (!wq->unbound || wq->max_active != 1)
		return false;
	if (wq->has & (1u << WQ_A_NUMA))
		return wq->numa == 0;
	for (size_t i = 0; i < ARRAY_SIZE(created_with_1); i++)
		if (fnmatch(created_with_1[i], wq->name, 0) == 0)
			return true;
	return false;
}

bool wq_exists(struct wq_ctx *ctx, const char *name)
{
	char path[320];
	int r;

	if (!wq_name_is_valid(name))
		return false;
	wq_attr_path(path, sizeof(path), name, "max_active");
	/*
	 * A workqueue is a directory with max_active. Only its absence says
	 * "not a workqueue" (cpumask is a file, power a directory without it);
	 * a max_active that cannot be reached (a symlink loop in a dump) still
	 * lists the workqueue, and reading it then says why.
	 */
	r = wq_root_probe(ctx->root, path);
	return r != -ENOENT && r != -ENOTDIR;
}

static int strcmpp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int wq_names_append(char ***v, size_t n, char *s)
{
	char **nv = realloc(*v, sizeof(**v) * (n + 1));

	if (!nv)
		return -ENOMEM;
	nv[n] = s;
	*v = nv;
	return 0;
}

void wq_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * wq_exists() for an entry of the listing. A directory's max_active is
 * looked up from the listing's descriptor (two names to walk, not six from
 * the root, and no descriptor to close): a symlink there, or an entry that
 * is not a plain directory, takes wq_exists() and its confined walk.
 */
static bool listed_wq(struct wq_ctx *ctx, DIR *d, const struct dirent *de)
{
	char rel[WQ_NAME_MAX + sizeof("/max_active")];
	struct stat st;

	if (de->d_type != DT_DIR)
		return wq_exists(ctx, de->d_name);
	if (!wq_name_is_valid(de->d_name))
		return false;
	str_put(rel, str_put(rel, 0, sizeof(rel), de->d_name), sizeof(rel), "/max_active");
	if (fstatat(dirfd(d), rel, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return !S_ISLNK(st.st_mode) || wq_exists(ctx, de->d_name);
	return errno != ENOENT && errno != ENOTDIR;
}

static int list(struct wq_ctx *ctx, char ***names, size_t *n, bool probe)
{
	_cleanup_closedir_ DIR *d = wq_root_opendir(ctx->root, WQ_P_WQ);
	char **v = NULL;
	size_t cnt = 0;
	struct dirent *de;

	*names = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char **nv;

		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_LNK && de->d_type != DT_UNKNOWN))
			continue;
		if (probe ? !listed_wq(ctx, d, de) : !wq_name_is_valid(de->d_name))
			continue;
		nv = realloc(v, sizeof(*v) * (cnt + 1));
		if (!nv || !(nv[cnt] = strdup(de->d_name))) {
			wq_names_free(nv ? nv : v, cnt);
			return -ENOMEM;
		}
		v = nv;
		cnt++;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), strcmpp);
	*names = v;
	*n = cnt;
	return 0;
}

int wq_list(struct wq_ctx *ctx, char ***names, size_t *n)
{
	return list(ctx, names, n, true);
}

int wq_list_candidates(struct wq_ctx *ctx, char ***names, size_t *n)
{
	return list(ctx, names, n, false);
}

/*
 * A cpumask text the workqueues that read the same one hold together, with
 * a count of holders before it: at 8,192 CPUs each would otherwise be a
 * 2.3 KB allocation of its own, which glibc serves from its bins.
 */
struct shared_text {
	unsigned int refs;
	char s[];
};

static struct shared_text *text_of(char *s)
{
	return (struct shared_text *)(void *)(s - offsetof(struct shared_text, s));
}

static char *text_new(const char *s, size_t len)
{
	struct shared_text *t = malloc(sizeof(*t) + len + 1);

	if (!t)
		return NULL;
	t->refs = 1;
	memcpy(t->s, s, len + 1);
	return t->s;
}

static char *text_ref(char *s)
{
	text_of(s)->refs++;
	return s;
}

static void text_unref(char *s)
{
	if (s && !--text_of(s)->refs)
		free(text_of(s));
}

void wq_info_clear(struct wq_info *info)
{
	wq_cpuset_free(info->cpumask);
	for (int i = 0; i < WQ_A_NR; i++) {
		if (info->raw_shared & (1U << i))
			text_unref(info->raw[i]);
		else
			free(info->raw[i]);
	}
	memset(info, 0, sizeof(*info));
}

/*
 * The distinct cpumask texts and their sets (up to MASK_MEMO; past that the
 * oldest entry gives way). A workqueue's mask is compared with the entry
 * of the one before it, which is most often the same; otherwise it is
 * hashed and looked up: a machine with 32 nodes has a mask per node, and
 * workqueues in name order go from one to another.
 */
#define MASK_MEMO 64

struct mask_entry {
	char *raw; /* a shared text */
	size_t len;
	uint64_t hash;
	struct wq_cpuset *set; /* held */
};

struct wq_mask_memo {
	int n, last, next; /* entries, the one found last, the one to replace when full */
	const char *read; /* the text read_mask() found new, and its hash, for parse_mask() */
	uint64_t read_hash;
	struct mask_entry e[MASK_MEMO];
	/* without texts (wq_ctx_mask_texts): the last file's bytes (a page), of entry last */
	size_t last_len;
	char *last_text;
};

static void memo_free(struct wq_mask_memo *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++) {
		text_unref(m->e[i].raw);
		wq_cpuset_free(m->e[i].set);
	}
	free(m->last_text);
	free(m);
}

/* What this module keeps in the context for its life (wq_ctx_cache_get). */
struct wq_state {
	struct wq_mask_memo *masks; /* the cpumask texts wq_info_read() parsed and their sets */
	bool mask_texts_unkept; /* the sets are kept, not the texts (wq_ctx_mask_texts) */
	unsigned int attrs_in_kernel; /* 1 << attr for those this kernel has, 1 << WQ_A_NR once known */
};

static void state_release(void *data)
{
	struct wq_state *st = data;

	if (st)
		memo_free(st->masks);
	free(st);
}

static const struct wq_ctx_cache state_key = {state_release, false};

/* This module's state in ctx, made on first use; NULL when memory is short (nothing is then kept). */
static struct wq_state *state_of(struct wq_ctx *ctx)
{
	struct wq_state *st = wq_ctx_cache_get(ctx, &state_key);

	if (!st && (st = calloc(1, sizeof(*st))) && wq_ctx_cache_set(ctx, &state_key, st) < 0)
		st = NULL;
	return st;
}

/* Strict decimal integer with optional sign; the kernel's %d ignores trailing junk, we do not. */
static int parse_long(const char *s, long *out)
{
	char *end;
	long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || (!isdigit((unsigned char)*s) && *s != '-' && *s != '+'))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || (!isdigit((unsigned char)end[-1])))
		return errno ? -ERANGE : -EINVAL;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_int_range(const char *s, int lo, int hi, int *out)
{
	long v;

	if (parse_long(s, &v) < 0 || v < lo || v > hi)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* --kernel names a known kernel other than the one the values come from */
static bool whatif(const struct wq_ctx *ctx)
{
	return ctx->kver_source && streq(ctx->kver_source, "--kernel") && ctx->kver.known;
}

bool wq_has_cache_shard(struct wq_ctx *ctx)
{
	if (whatif(ctx))
		return wq_kver_cmp(&ctx->kver, 7, 1, 0) >= 0;
	return wq_root_exists(ctx->root, WQ_P_PARAMS "/cache_shard_size");
}

void wq_default_scope(struct wq_ctx *ctx, char *buf, size_t size)
{
	if (wq_root_read_buf(ctx->root, WQ_P_PARAMS "/default_affinity_scope", buf, size) < 0) {
		buf[0] = '\0';
		return;
	}
	/* the values' kernel booted with its own default: the named kernel boots with its own */
	if (whatif(ctx) && ctx->host_kver.known && wq_kver_cmp(&ctx->host_kver, 6, 6, 0) >= 0 &&
	    streq(buf, wq_kver_cmp(&ctx->host_kver, 7, 1, 0) >= 0 ? "cache_shard" : "cache"))
		snprintf(buf, size, "%s", wq_kver_cmp(&ctx->kver, 7, 1, 0) >= 0 ? "cache_shard" : "cache");
}

/* "default (cache)" -> configured "default", effective "cache". */
static int parse_scope_read(const char *raw, char *cfg, char *eff, size_t size)
{
	const char *open = strchr(raw, '(');

	if (!strncmp(raw, "default", 7) && (raw[7] == '\0' || raw[7] == ' ')) {
		const char *close;

		snprintf(cfg, size, "default");
		if (!open || !(close = strchr(open, ')')) || close - open - 1 <= 0 ||
		    (size_t)(close - open - 1) >= size) {
			eff[0] = '\0';
			return raw[7] == '\0' ? 0 : -EINVAL;
		}
		memcpy(eff, open + 1, (size_t)(close - open - 1));
		eff[close - open - 1] = '\0';
		return 0;
	}
	if (!*raw || strlen(raw) >= size || strchr(raw, ' '))
		return -EINVAL;
	copy_str(cfg, size, raw);
	copy_str(eff, size, raw);
	return 0;
}

/*
 * Can the kernel have this attribute file (doc/kernel.md §1)? The unbound ones
 * exist only on unbound workqueues, and each only in its kernel range. An
 * unknown kernel, or a per_cpu that could not be read, may have any.
 */
static bool attr_possible(struct wq_ctx *ctx, struct wq_state *st, int a, int per_cpu)
{
	const struct wq_attr_desc *d = &wq_attr_descs[a];
	unsigned int in_kernel = st ? st->attrs_in_kernel : 0;

	if (d->unbound_only && per_cpu == 1)
		return false;
	if (!in_kernel) {
		/* the kernel's range of each attribute, worked out once */
		in_kernel = 1U << WQ_A_NR;
		for (int i = 0; i < WQ_A_NR; i++) {
			const struct wq_attr_desc *x = &wq_attr_descs[i];
			int maj, min;
			bool in = true;

			if (ctx->kver.known && sscanf(x->since, "%d.%d", &maj, &min) == 2 &&
			    wq_kver_cmp(&ctx->kver, maj, min, 0) < 0)
				in = false;
			if (ctx->kver.known && x->until && sscanf(x->until, "%d.%d", &maj, &min) == 2 &&
			    wq_kver_cmp(&ctx->kver, maj, min + 1, 0) >= 0)
				in = false;
			if (in)
				in_kernel |= 1U << i;
		}
		if (st)
			st->attrs_in_kernel = in_kernel;
	}
	return in_kernel & (1U << a);
}

/*
 * Most workqueues share one mask: the texts seen and their sets are kept
 * (the memo above), and the same text again is that text and that set,
 * shared (text_ref, wq_cpuset_ref), not a copy of 2,300 digits (8,192 CPUs)
 * parsed again. The file is read into a buffer on the stack, so that a
 * known text costs no allocation; one longer than any sysfs file gets a
 * copy of its own.
 */
static int read_mask(struct wq_ctx *ctx, struct wq_state *st, const char *path, char **raw, bool *shared)
{
	char buf[4096]; /* a sysfs file holds a page at most */
	struct wq_mask_memo *m = st ? st->masks : NULL;
	uint64_t h = 0;
	int r = wq_root_read_bytes(ctx->root, path, buf, sizeof(buf));

	*shared = false;
	if (r == -EOVERFLOW)
		return wq_root_read(ctx->root, path, raw);
	if (r < 0)
		return r;
	/* a text of the memo has no NUL: the same bytes have none either */
	if (m && m->n) {
		struct mask_entry *e = &m->e[m->last];

		if ((size_t)r == e->len && !memcmp(e->raw, buf, (size_t)r))
			goto found;
		h = wq_text_hash(buf, (size_t)r);
		for (int i = 0; i < m->n; i++) {
			e = &m->e[i];
			if (e->hash == h && e->len == (size_t)r && !memcmp(e->raw, buf, (size_t)r)) {
				m->last = i;
				goto found;
			}
		}
	}
	if (memchr(buf, '\0', (size_t)r))
		return -WQ_ENUL;
	if (!(*raw = text_new(buf, (size_t)r)))
		return -ENOMEM;
	if (m && m->n) {
		m->read = *raw;
		m->read_hash = h;
	}
	*shared = true;
	return 0;
found:
	*raw = text_ref(m->e[m->last].raw);
	*shared = true;
	return 0;
}

/* The entry for a new mask, now the last found: a free one, or the oldest emptied. */
static struct mask_entry *memo_slot(struct wq_mask_memo *m)
{
	struct mask_entry *e;

	if (m->n < MASK_MEMO) {
		m->last = m->n++;
		return &m->e[m->last];
	}
	m->last = m->next;
	m->next = (m->next + 1) % MASK_MEMO;
	e = &m->e[m->last];
	text_unref(e->raw);
	wq_cpuset_free(e->set);
	*e = (struct mask_entry){0};
	return e;
}

static int parse_mask(struct wq_state *st, char *raw, bool shared, struct wq_cpuset **out)
{
	struct wq_mask_memo *m = st ? st->masks : NULL;
	struct mask_entry *e;
	struct wq_cpuset *s;
	int r;

	if (shared && m && m->n && raw == m->e[m->last].raw) {
		*out = wq_cpuset_ref(m->e[m->last].set);
		return 0;
	}
	*out = s = wq_cpuset_new();
	if (!s)
		return -ENOMEM;
	r = wq_cpuset_parse_hex(s, raw);
	if (r < 0 || !shared)
		return r;
	if (!m && (!st || !(m = st->masks = calloc(1, sizeof(*m)))))
		return 0; /* parsed, only not kept */
	e = memo_slot(m);
	e->raw = text_ref(raw);
	e->len = strlen(raw);
	e->hash = raw == m->read ? m->read_hash : wq_text_hash(raw, e->len);
	m->read = NULL;
	e->set = wq_cpuset_ref(s);
	return 0;
}

void wq_ctx_mask_texts(struct wq_ctx *ctx, bool keep)
{
	struct wq_state *st = state_of(ctx);

	if (!st)
		return;
	/* entries of one kind only: the texts are compared, or the sets */
	if (st->mask_texts_unkept != !keep) {
		memo_free(st->masks);
		st->masks = NULL;
	}
	st->mask_texts_unkept = !keep;
}

/*
 * A command that uses only the sets (show, check) keeps no text: the memo
 * holds the bytes of the last file read, in one buffer, and a set per
 * distinct mask. A node's mask at 8,192 CPUs is 2.3 KB of text, and 32 nodes
 * made 32 copies, each a page touched for the first time (11 us on a VM),
 * where the sets hold the few words that have CPUs. A file unlike the last
 * is parsed, and its set looked up among those of the same length: the
 * same set from a text of the same length is the same mask. A malformed
 * one keeps its text, for the error.
 */
static int read_mask_set(struct wq_ctx *ctx, struct wq_state *st, const char *path, struct wq_info *info)
{
	char buf[4096]; /* a sysfs file holds a page at most */
	struct wq_mask_memo *m = st ? st->masks : NULL;
	struct wq_cpuset *s;
	uint64_t h;
	size_t len;
	int r = wq_root_read_bytes(ctx->root, path, buf, sizeof(buf));

	if (r < 0)
		return r;
	len = (size_t)r;
	if (m && m->n && len == m->last_len && !memcmp(m->last_text, buf, len)) {
		info->cpumask = wq_cpuset_ref(m->e[m->last].set);
		return 0;
	}
	if (memchr(buf, '\0', len))
		return -WQ_ENUL;
	if (!(info->cpumask = s = wq_cpuset_new()))
		return -ENOMEM;
	r = wq_cpuset_parse_hex(s, buf);
	if (r < 0)
		return (info->raw[WQ_A_CPUMASK] = strdup(buf)) ? r : -ENOMEM;
	/* the buffer only here: get and apply --udev read with texts, one mask */
	if ((!m && (!st || !(m = st->masks = calloc(1, sizeof(*m))))) ||
	    (!m->last_text && !(m->last_text = malloc(sizeof(buf)))))
		return 0; /* parsed, only not kept */
	h = wq_cpuset_hash(s, UINT64_C(0xcbf29ce484222325));
	for (int i = 0; i < m->n; i++) {
		struct mask_entry *e = &m->e[i];

		if (e->hash == h && e->len == len && wq_cpuset_equal(e->set, s)) {
			wq_cpuset_free(s);
			info->cpumask = wq_cpuset_ref(e->set);
			m->last = i;
			goto last;
		}
	}
	*memo_slot(m) = (struct mask_entry){.len = len, .hash = h, .set = wq_cpuset_ref(s)};
last:
	m->last_len = len;
	memcpy(m->last_text, buf, len);
	return 0;
}

int wq_info_read(struct wq_ctx *ctx, const char *name, struct wq_info *info)
{
	struct wq_state *st = state_of(ctx);
	bool unkept = st && st->mask_texts_unkept;
	char path[256];
	int r, per_cpu = -1;

	memset(info, 0, sizeof(*info));
	if (!wq_name_is_valid(name))
		return -EINVAL;
	copy_str(info->name, sizeof(info->name), name);
	info->nice = info->strict = info->numa = info->max_active = -1;

	wq_attr_path(path, sizeof(path), name, "per_cpu");
	{
		char buf[32];

		r = wq_root_read_buf(ctx->root, path, buf, sizeof(buf));
		if (r == -ENOENT && !wq_exists(ctx, name))
			return -ENOENT;
		if (r >= 0 && parse_int_range(buf, 0, 1, &per_cpu) == 0) {
			info->unbound = per_cpu == 0;
		} else { /* no per_cpu file: unbound iff it has unbound attributes */
			per_cpu = -1;
			info->unbound = false;
		}
	}
	for (int a = 0; a < WQ_A_NR; a++) {
		const struct wq_attr_desc *d = &wq_attr_descs[a];
		char *raw = NULL;
		bool shared = false;

		/* thousands of workqueues: no look for files this kernel does not make */
		if (!attr_possible(ctx, st, a, per_cpu))
			continue;
		wq_attr_path(path, sizeof(path), name, d->name);
		/* a file longer than a page is no sysfs file: read whole, below */
		if (a == WQ_A_CPUMASK && unkept && (r = read_mask_set(ctx, st, path, info)) != -EOVERFLOW) {
			if (r == -ENOENT)
				continue;
			info->has |= 1U << a;
			if (r < 0) {
				info->bad |= 1U << a;
				info->err[a] = info->raw[a] ? 0 : r;
			}
			continue;
		} else if (a == WQ_A_CPUMASK) {
			r = read_mask(ctx, st, path, &raw, &shared);
			if (r == 0 && shared)
				info->raw_shared |= 1U << a;
		} else {
			r = wq_root_read(ctx->root, path, &raw);
		}
		if (r == -ENOENT)
			continue;
		info->has |= 1U << a;
		if (r < 0) {
			info->bad |= 1U << a;
			info->err[a] = r;
			continue;
		}
		info->raw[a] = raw;
		switch (a) {
		case WQ_A_MAX_ACTIVE: r = parse_int_range(raw, 0, INT_MAX, &info->max_active); break;
		case WQ_A_NICE: r = parse_int_range(raw, -20, 19, &info->nice); break;
		case WQ_A_AFFINITY_STRICT: r = parse_int_range(raw, 0, 1, &info->strict); break;
		case WQ_A_NUMA: r = parse_int_range(raw, 0, 1, &info->numa); break;
		case WQ_A_CPUMASK: r = parse_mask(st, raw, shared, &info->cpumask); break;
		case WQ_A_AFFINITY_SCOPE:
			r = parse_scope_read(raw, info->scope, info->scope_eff, sizeof(info->scope));
			/* "default (X)": X is the values' kernel's; a what-if's default is the named kernel's */
			if (r == 0 && (!info->scope_eff[0] || (whatif(ctx) && streq(info->scope, "default"))))
				wq_default_scope(ctx, info->scope_eff, sizeof(info->scope_eff));
			break;
		default: break;
		}
		if (r < 0)
			info->bad |= 1U << a;
	}
	if (!(info->has & (1U << WQ_A_MAX_ACTIVE)))
		return -ENOENT;
	/* A tree without a readable per_cpu: the unbound attributes tell. */
	if (!info->unbound && (info->has & (1U << WQ_A_CPUMASK))) {
		wq_attr_path(path, sizeof(path), name, "per_cpu");
		info->unbound = !wq_root_exists(ctx->root, path);
	}
	return 0;
}

bool wq_has_scopes(struct wq_ctx *ctx)
{
	return wq_root_exists(ctx->root, WQ_P_PARAMS "/default_affinity_scope");
}

/* The scope names this kernel takes (a write to the default scope may add one). */
struct scope_names {
	const char *names[8];
	char extra[32];
};

/* a function of ours, not libc's free: its address needs no symbol lookup at start-up */
static void scopes_release(void *data)
{
	free(data);
}

static const struct wq_ctx_cache scopes_key = {scopes_release, true};

const char *const *wq_scope_names(struct wq_ctx *ctx)
{
	static struct scope_names fallback;
	struct scope_names *sn = wq_ctx_cache_get(ctx, &scopes_key);
	const char **names;
	char def[32];
	size_t n = 0;

	/* once per context, until a write: apply asks for every scope value it checks */
	if (sn)
		return sn->names;
	sn = calloc(1, sizeof(*sn));
	if (!sn || wq_ctx_cache_set(ctx, &scopes_key, sn) < 0)
		sn = &fallback; /* short of memory: made again next time */
	names = sn->names;
	names[n++] = "cpu";
	names[n++] = "smt";
	names[n++] = "cache";
	/* Post-6.18 kernels add cache_shard; its size parameter announces it (or --kernel 7.1+). */
	if (wq_has_cache_shard(ctx))
		names[n++] = "cache_shard";
	names[n++] = "numa";
	names[n++] = "system";
	wq_default_scope(ctx, def, sizeof(def));
	if (def[0]) {
		bool known = false;

		for (size_t i = 0; i < n; i++)
			known = known || streq(names[i], def);
		if (!known && wq_name_is_valid(def)) {
			snprintf(sn->extra, sizeof(sn->extra), "%s", def);
			names[n++] = sn->extra;
		}
	}
	names[n] = NULL;
	return names;
}

int wq_max_active_limit(struct wq_ctx *ctx, bool unbound)
{
	struct wq_topo *t = NULL;
	unsigned int possible = 0;

	if (!ctx->kver.known)
		return 0;
	if (unbound && wq_kver_cmp(&ctx->kver, 6, 6, 0) < 0) {
		t = wq_ctx_topo(ctx);
		possible = t ? wq_cpuset_count(t->possible) : 0;
	}
	return wq_kver_max_active(&ctx->kver, unbound, possible);
}

static int bool_word(const char *s)
{
	static const char *const yes[] = {"1", "true", "yes", "on", "y"};
	static const char *const no[] = {"0", "false", "no", "off", "n"};

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcasecmp(s, yes[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcasecmp(s, no[i]))
			return 0;
	return -1;
}

static void describe_set(char *buf, size_t size, const struct wq_cpuset *s)
{
	_cleanup_free_ char *l = wq_cpuset_format_list(s);

	snprintf(buf, size, "%s %s", wq_cpuset_count(s) == 1 ? "CPU" : "CPUs", l ? l : "?");
}

static int spec_term(struct wq_topo *t, const char *term, int owner_node, struct wq_cpuset *acc, char *why,
		     size_t whysz)
{
	_cleanup_cpuset_ struct wq_cpuset *s = wq_cpuset_new();
	int r = 0;

	if (!s)
		return -ENOMEM;
	if (!*term) {
		snprintf(why, whysz, "empty term in CPU set");
		return -EINVAL;
	}
	if (streq(term, "all")) {
		r = wq_cpuset_copy(s, t->possible);
	} else if (streq(term, "housekeeping")) {
		r = wq_topo_housekeeping(t, s);
	} else if (streq(term, "local")) {
		const struct wq_node *n = owner_node >= 0 ? wq_topo_node(t, owner_node) : NULL;

		if (!n) {
			snprintf(why, whysz, "'local' needs an owner device with a NUMA node, and there is none");
			return -EINVAL;
		}
		r = wq_cpuset_copy(s, n->cpus);
	} else if (!strncmp(term, "node:", 5)) {
		_cleanup_cpuset_ struct wq_cpuset *ids = wq_cpuset_new();

		if (!ids)
			return -ENOMEM;
		if (!term[5] || wq_cpuset_parse_list(ids, term + 5) < 0) {
			snprintf(why, whysz, "'%s' is not a list of NUMA nodes", term + 5);
			return -EINVAL;
		}
		wq_cpuset_for_each (id, ids) {
			const struct wq_node *n = wq_topo_node(t, id);

			if (!n) {
				char nodes[128] = "";
				size_t len = 0;

				for (int i = 0; i < t->nr_nodes && len < sizeof(nodes) - 12; i++)
					len += (size_t)snprintf(nodes + len, sizeof(nodes) - len, "%s%d", i ? "," : "",
								t->nodes[i].id);
				snprintf(why, whysz, "NUMA node %d does not exist on this machine (nodes: %s)", id,
					 nodes);
				return -ENODEV;
			}
			r = wq_cpuset_or(s, n->cpus);
			if (r < 0)
				return r;
		}
	} else if (!strncmp(term, "0x", 2) || !strncmp(term, "0X", 2) || !strncmp(term, "mask:", 5)) {
		const char *hex = term[0] == 'm' ? term + 5 : term + 2;

		/* the kernel's parser tolerates blanks; a value typed with them is a typo */
		r = *hex && !hex[strcspn(hex, " \t\n")] ? wq_cpuset_parse_hex(s, hex) : -EINVAL;
		if (r < 0) {
			snprintf(why, whysz, "'%s' is not a hex CPU mask%s", term,
				 r == -ERANGE ? " (a comma-separated chunk has more than 8 digits)" : "");
			return -EINVAL;
		}
	} else {
		r = wq_cpuset_parse_list(s, term);
		if (r == -ERANGE) {
			snprintf(why, whysz, "CPU number in '%s' is too large", term);
			return -EINVAL;
		}
		if (r < 0) {
			snprintf(
			    why, whysz,
			    "'%s' is not a CPU list, mask or keyword (all, housekeeping, node:LIST, local, 0xMASK)",
			    term);
			return -EINVAL;
		}
	}
	return r < 0 ? r : wq_cpuset_or(acc, s);
}

int wq_cpuspec_parse(struct wq_ctx *ctx, const char *text, int owner_node, struct wq_cpuset *set, char *why,
		     size_t whysz)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	_cleanup_free_ char *copy = strdup(text);
	_cleanup_cpuset_ struct wq_cpuset *extra = NULL;
	char *save = NULL, *term;
	int r;

	if (!t) {
		snprintf(why, whysz, "the CPU topology cannot be read");
		return -EIO;
	}
	if (!copy)
		return -ENOMEM;
	wq_cpuset_zero(set);
	if (!*text) {
		snprintf(why, whysz, "empty CPU set");
		return -EINVAL;
	}
	/* No blank anywhere: " 0" and "0 " read as lists but " all" does not (one spelling rule). */
	if (strpbrk(text, " \t\n\r\f\v")) {
		snprintf(why, whysz, "blank in CPU set '%s'", text);
		return -EINVAL;
	}
	/* Terms joined by single '+': "0++1", "+0" and "0+" have an empty term. */
	for (term = copy; term; term = save) {
		save = strchr(term, '+');
		if (save)
			*save++ = '\0';
		if (!*term) {
			snprintf(why, whysz, "empty term in CPU set '%s'", text);
			return -EINVAL;
		}
		r = spec_term(t, term, owner_node, set, why, whysz);
		if (r < 0)
			return r;
	}
	extra = wq_cpuset_dup(set);
	if (!extra)
		return -ENOMEM;
	wq_cpuset_andnot(extra, t->possible);
	if (!wq_cpuset_is_empty(extra)) {
		_cleanup_free_ char *p = wq_cpuset_format_list(t->possible);
		char d[96];

		describe_set(d, sizeof(d), extra);
		snprintf(why, whysz, "%s %s not exist on this machine (possible: %s)", d,
			 wq_cpuset_count(extra) == 1 ? "does" : "do", p ? p : "?");
		return -ENODEV;
	}
	if (wq_cpuset_is_empty(set)) {
		/* by keyword (a CPU-less node, every CPU isolated) this machine's doing; by a zero mask anyone's */
		const bool mask = strstr(text, "0x") || strstr(text, "0X") || strstr(text, "mask:");

		snprintf(why, whysz, "'%s' selects no CPU%s", text, mask ? "" : " on this machine");
		return mask ? -EINVAL : -ENODEV;
	}
	if (!wq_cpuset_intersects(set, t->online)) {
		_cleanup_free_ char *o = wq_cpuset_format_list(t->online);
		char d[96];

		describe_set(d, sizeof(d), set);
		snprintf(why, whysz, "%s %s offline (online: %s)", d, wq_cpuset_count(set) == 1 ? "is" : "are all",
			 o ? o : "?");
		return -ENODEV;
	}
	return 0;
}

int wq_value_parse(struct wq_ctx *ctx, enum wq_vtype type, long lo, long hi, int owner_node, bool allow_default,
		   const char *text, char **out, char *why, size_t whysz)
{
	long v;
	int b, r;

	*out = NULL;
	if (strchr(text, '\n')) {
		snprintf(why, whysz, "value contains a newline");
		return -EINVAL;
	}
	switch (type) {
	case WQ_V_INT:
		r = parse_long(text, &v);
		if (r < 0) {
			snprintf(why, whysz, "'%s' is not a decimal integer", text);
			return -EINVAL;
		}
		if (v < lo || v > hi) {
			snprintf(why, whysz, "must be between %ld and %ld", lo, hi);
			return -ERANGE;
		}
		return asprintf(out, "%ld", v) < 0 ? -ENOMEM : 0;
	case WQ_V_BOOL:
	case WQ_V_YN:
		b = bool_word(text);
		if (b < 0 || (type == WQ_V_BOOL && (!strcasecmp(text, "y") || !strcasecmp(text, "n")))) {
			snprintf(why, whysz, "'%s' is not a boolean (0 1 true false yes no on off)", text);
			return -EINVAL;
		}
		*out = strdup(type == WQ_V_YN ? (b ? "Y" : "N") : (b ? "1" : "0"));
		return *out ? 0 : -ENOMEM;
	case WQ_V_SCOPE: {
		const char *const *names = wq_scope_names(ctx);
		char list[160] = "";
		size_t len = 0;

		if (allow_default && streq(text, "default")) {
			*out = strdup(text);
			return *out ? 0 : -ENOMEM;
		}
		for (size_t i = 0; names[i]; i++) {
			if (streq(names[i], text)) {
				*out = strdup(text);
				return *out ? 0 : -ENOMEM;
			}
			len += (size_t)snprintf(list + len, sizeof(list) - len, " %s", names[i]);
		}
		if (streq(text, "cache_shard")) {
			snprintf(why, whysz, "%s", WQ_NO_CACHE_SHARD);
			return -EINVAL;
		}
		snprintf(why, whysz, "'%s' is not an affinity scope of this kernel (%s%s)", text,
			 allow_default ? "default" : "", allow_default ? list : list + 1);
		return -EINVAL;
	}
	case WQ_V_CPUMASK: {
		_cleanup_cpuset_ struct wq_cpuset *s = wq_cpuset_new();

		if (!s)
			return -ENOMEM;
		r = wq_cpuspec_parse(ctx, text, owner_node, s, why, whysz);
		if (r < 0)
			return r;
		*out = wq_cpuset_format_hex(s, ctx->topo->nr_cpu_ids);
		return *out ? 0 : -ENOMEM;
	}
	case WQ_V_STRING:
	default:
		if (strlen(text) > 4000) {
			snprintf(why, whysz, "value is longer than 4000 bytes");
			return -EINVAL;
		}
		*out = strdup(text);
		return *out ? 0 : -ENOMEM;
	}
}

bool wq_value_equal(enum wq_vtype type, const char *a, const char *b)
{
	switch (type) {
	case WQ_V_INT: {
		long x, y;

		return parse_long(a, &x) == 0 && parse_long(b, &y) == 0 && x == y;
	}
	case WQ_V_BOOL:
	case WQ_V_YN: return bool_word(a) >= 0 && bool_word(a) == bool_word(b);
	case WQ_V_SCOPE: {
		char ca[32], ea[32], cb[32], eb[32];

		if (parse_scope_read(a, ca, ea, sizeof(ca)) < 0 || parse_scope_read(b, cb, eb, sizeof(cb)) < 0)
			return streq(a, b);
		return !strcasecmp(ca, cb);
	}
	case WQ_V_CPUMASK: {
		_cleanup_cpuset_ struct wq_cpuset *x = wq_cpuset_new();
		_cleanup_cpuset_ struct wq_cpuset *y = wq_cpuset_new();

		/* the same text (the usual case: both in the kernel's form) is one parse, not two */
		if (streq(a, b))
			return x && wq_cpuset_parse_hex(x, a) == 0;
		return x && y && wq_cpuset_parse_hex(x, a) == 0 && wq_cpuset_parse_hex(y, b) == 0 &&
		       wq_cpuset_equal(x, y);
	}
	default: return streq(a, b);
	}
}

char *wq_value_display(enum wq_vtype type, const char *raw)
{
	if (type == WQ_V_CPUMASK) {
		_cleanup_cpuset_ struct wq_cpuset *s = wq_cpuset_new();

		if (s && wq_cpuset_parse_hex(s, raw) == 0)
			return wq_cpuset_format_list(s);
	}
	return strdup(raw);
}

/* The largest max_active any kernel accepts here: 2048 (6.13+), or 4 x possible CPUs up to 6.5 where that is more. */
static long max_active_any(struct wq_ctx *ctx)
{
	struct wq_topo *t = wq_ctx_topo(ctx);
	long p4 = t ? 4L * wq_cpuset_count(t->possible) : 0;

	return p4 > 2048 ? p4 : 2048;
}

int wq_value_check_any(struct wq_ctx *ctx, enum wq_vtype type, long lo, long hi, bool allow_default, const char *text,
		       char *why, size_t whysz)
{
	/* every scope some kernel has: 6.6's five, cache_shard from 7.1 */
	static const char *const scopes[] = {"cpu", "smt", "cache", "cache_shard", "numa", "system"};
	_cleanup_free_ char *out = NULL;
	int r;

	if (type == WQ_V_SCOPE) {
		if (strchr(text, '\n')) {
			snprintf(why, whysz, "value contains a newline");
			return -EINVAL;
		}
		if (allow_default && streq(text, "default"))
			return 0;
		for (size_t i = 0; i < ARRAY_SIZE(scopes); i++)
			if (streq(scopes[i], text))
				return 0;
		snprintf(why, whysz, "'%s' is not an affinity scope (%scpu smt cache cache_shard numa system)", text,
			 allow_default ? "default " : "");
		return -EINVAL;
	}
	if (type == WQ_V_CPUMASK) {
		struct wq_topo *t = wq_ctx_topo(ctx);

		/* 'local' is resolved per workqueue: any node of this machine stands in for the syntax */
		r = wq_value_parse(ctx, type, lo, hi, t && t->nr_nodes ? t->nodes[0].id : -1, allow_default, text, &out,
				   why, whysz);
		return r == -ENODEV ? 0 : r;
	}
	return wq_value_parse(ctx, type, lo, hi, -1, allow_default, text, &out, why, whysz);
}

int wq_attr_check_any(struct wq_ctx *ctx, enum wq_attr attr, const char *text, char *why, size_t whysz)
{
	const struct wq_attr_desc *d = &wq_attr_descs[attr];

	long v;

	switch (attr) {
	case WQ_A_MAX_ACTIVE:
		/* up to 2048 every machine's kernels take it: no topology to read (the udev hook's path) */
		if (!strchr(text, '\n') && parse_long(text, &v) == 0 && v >= 1 && v <= 2048)
			return 0;
		return wq_value_check_any(ctx, d->type, 1, max_active_any(ctx), true, text, why, whysz);
	case WQ_A_NICE: return wq_value_check_any(ctx, d->type, -20, 19, true, text, why, whysz);
	default: return wq_value_check_any(ctx, d->type, 0, 0, true, text, why, whysz);
	}
}

int wq_attr_parse(struct wq_ctx *ctx, const struct wq_info *wq, enum wq_attr attr, int owner_node, const char *text,
		  char **out, char *why, size_t whysz)
{
	const struct wq_attr_desc *d = &wq_attr_descs[attr];
	long lo = 0, hi = 0;

	*out = NULL;
	if (!(wq->has & (1U << attr))) {
		if (d->unbound_only && !wq->unbound) {
			snprintf(why, whysz, "per-cpu workqueues have no %s", d->name);
			return -EINVAL;
		}
		if (attr == WQ_A_NUMA && wq_has_scopes(ctx))
			snprintf(why, whysz, "not supported by this kernel (removed in 6.6; use affinity_scope)");
		else
			snprintf(why, whysz, "not supported by this kernel (%s; needs %s or later)",
				 ctx->kver.known ? ctx->kver.release : "release unknown", d->since);
		return -ENOTSUP;
	}
	switch (attr) {
	case WQ_A_MAX_ACTIVE: {
		int lim = wq_max_active_limit(ctx, wq->unbound);

		lo = 1;
		/* Unknown kernel: the largest any kernel accepts; the read-back catches a clamp. */
		hi = lim ? lim : max_active_any(ctx);
		break;
	}
	case WQ_A_NICE:
		lo = -20;
		hi = 19;
		break;
	default: break;
	}
	{
		int r = wq_value_parse(ctx, d->type, lo, hi, owner_node, true, text, out, why, whysz);

		if (r == -ERANGE && attr == WQ_A_MAX_ACTIVE)
			snprintf(why + strlen(why), whysz - strlen(why), " on %s %s workqueues",
				 ctx->kver.known ? ctx->kver.release : "this kernel",
				 wq->unbound ? "unbound" : "per-cpu");
		return r;
	}
}
