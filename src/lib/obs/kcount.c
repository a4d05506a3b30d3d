// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's per-pool_workqueue counters read from /proc/kcore: the
 * layouts from BTF, the `workqueues` list head from kallsyms, bounded and
 * checked walks of the workqueue list and of each workqueue's pwqs.
 */
#define _GNU_SOURCE
#include "kcount.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/root.h"
#include "../util/dl.h"
#include "../util/macro.h"

/* Bounds of a walk: no kernel has more workqueues, or pwqs per workqueue (8,192 CPUs and their pods). */
#define MAX_WQS 100000
#define MAX_PWQS 16384
#define MAX_SEGS 4096
#define MAX_STATS 16
#define MAX_COLORS 32
#define TRIES 3
/* The most of one struct read at once: the bytes from its first field read to the end of its last */
#define MAX_SPAN 8192

const char *const wq_kstat_names[WQ_KS_NR] = {
    "PWQ_STAT_STARTED",	  "PWQ_STAT_COMPLETED",	  "PWQ_STAT_CPU_TIME", "PWQ_STAT_CPU_INTENSIVE",
    "PWQ_STAT_CM_WAKEUP", "PWQ_STAT_REPATRIATED", "PWQ_STAT_MAYDAY",   "PWQ_STAT_RESCUED",
};

/* Where the fields are, from BTF. */
struct layout {
	size_t wq_list, wq_pwqs, wq_name, name_len, wq_flags;
	size_t pwq_node, pwq_stats, nstats, pwq_active, pwq_flight, ncolors;
	int stat_index[WQ_KS_NR]; /* the counter's index in stats[], -1: not in this kernel */
	/* each struct read in one go: from lo, span bytes (every field above is inside) */
	size_t wq_lo, wq_span, pwq_lo, pwq_span;
};

struct seg {
	uint64_t vaddr, offset, size;
};

struct wq_kcount {
	int fd; /* /proc/kcore */
	struct seg *seg;
	size_t nseg;
	uint64_t head; /* &workqueues */
	struct layout l;
	bool (*want)(const char *name, void *arg); /* NULL: every workqueue */
	void *want_arg;
};

/* --- the layouts from BTF --------------------------------------------------- */

/* Member name of struct sid: its byte offset, its resolved type in *tid. -ENOENT when there is none. */
static int member(const struct wq_libbpf *b, const struct btf *btf, int sid, const char *name, size_t *off, int *tid)
{
	const struct btf_type *t = b->btf__type_by_id(btf, (__u32)sid);
	const struct btf_member *m = t ? btf_members(t) : NULL;

	for (unsigned int i = 0; m && i < btf_vlen(t); i++) {
		const char *n = b->btf__name_by_offset(btf, m[i].name_off);

		if (n && streq(n, name)) {
			*off = btf_member_bit_offset(t, i) / 8;
			*tid = b->btf__resolve_type(btf, m[i].type);
			return *tid < 0 ? -ENOENT : 0;
		}
	}
	return -ENOENT;
}

/* An array member: offset, element count and element size. */
static int array_member(const struct wq_libbpf *b, const struct btf *btf, int sid, const char *name, size_t *off,
			size_t *n, size_t *elem)
{
	const struct btf_type *t;
	int tid;

	if (member(b, btf, sid, name, off, &tid) < 0 || !(t = b->btf__type_by_id(btf, (__u32)tid)) || !btf_is_array(t))
		return -ENOENT;
	*n = btf_array(t)->nelems;
	*elem = (size_t)b->btf__resolve_size(btf, btf_array(t)->type);
	return 0;
}

/* A scalar member of size bytes. */
static int scalar_member(const struct wq_libbpf *b, const struct btf *btf, int sid, const char *name, size_t size,
			 size_t *off)
{
	int tid;

	if (member(b, btf, sid, name, off, &tid) < 0 || b->btf__resolve_size(btf, (__u32)tid) != (__s64)size)
		return -ENOENT;
	return 0;
}

/* lo..hi widened to take in off..off+len. */
static void widen(size_t *lo, size_t *hi, size_t off, size_t len)
{
	*lo = off < *lo ? off : *lo;
	*hi = off + len > *hi ? off + len : *hi;
}

/*
 * Where one read of each struct starts and how long it is: a workqueue's
 * list and pwqs links (their next pointers), name and flags; a pwq's link,
 * stats, nr_active and nr_in_flight. One read a struct instead of one a
 * field: four times fewer system calls a walk, and the fields of one
 * struct read at one moment.
 */
static int spans(struct layout *l, char *why, size_t whysz)
{
	size_t lo = SIZE_MAX, hi = 0;

	widen(&lo, &hi, l->wq_list, 8);
	widen(&lo, &hi, l->wq_pwqs, 8);
	widen(&lo, &hi, l->wq_name, l->name_len);
	widen(&lo, &hi, l->wq_flags, 4);
	l->wq_lo = lo;
	l->wq_span = hi - lo;
	lo = SIZE_MAX, hi = 0;
	widen(&lo, &hi, l->pwq_node, 8);
	widen(&lo, &hi, l->pwq_stats, l->nstats * 8);
	widen(&lo, &hi, l->pwq_active, 4);
	widen(&lo, &hi, l->pwq_flight, l->ncolors * 4);
	l->pwq_lo = lo;
	l->pwq_span = hi - lo;
	if (l->wq_span > MAX_SPAN || l->pwq_span > MAX_SPAN) {
		snprintf(why, whysz, "the kernel's BTF puts the fields of %s read here %zu bytes apart (at most %d)",
			 l->wq_span > MAX_SPAN ? "workqueue_struct" : "pool_workqueue",
			 l->wq_span > MAX_SPAN ? l->wq_span : l->pwq_span, MAX_SPAN);
		return -ENOENT;
	}
	return 0;
}

static int layout_from_btf(const struct wq_libbpf *b, const struct btf *btf, struct layout *l, char *why, size_t whysz)
{
	int wq = b->btf__find_by_name_kind(btf, "workqueue_struct", BTF_KIND_STRUCT);
	int pwq = b->btf__find_by_name_kind(btf, "pool_workqueue", BTF_KIND_STRUCT);
	int en = b->btf__find_by_name_kind(btf, "pool_workqueue_stats", BTF_KIND_ENUM);
	const struct btf_type *et = en > 0 ? b->btf__type_by_id(btf, (__u32)en) : NULL;
	size_t elem;
	int tid;

	for (int i = 0; i < WQ_KS_NR; i++)
		l->stat_index[i] = -1;
	if (wq < 0 || pwq < 0) {
		snprintf(why, whysz, "the kernel's BTF has no struct %s",
			 wq < 0 ? "workqueue_struct" : "pool_workqueue");
		return -ENOENT;
	}
	if (member(b, btf, wq, "list", &l->wq_list, &tid) < 0 || member(b, btf, wq, "pwqs", &l->wq_pwqs, &tid) < 0 ||
	    array_member(b, btf, wq, "name", &l->wq_name, &l->name_len, &elem) < 0 || elem != 1 ||
	    scalar_member(b, btf, wq, "flags", 4, &l->wq_flags) < 0 ||
	    member(b, btf, pwq, "pwqs_node", &l->pwq_node, &tid) < 0 ||
	    scalar_member(b, btf, pwq, "nr_active", 4, &l->pwq_active) < 0 ||
	    array_member(b, btf, pwq, "nr_in_flight", &l->pwq_flight, &l->ncolors, &elem) < 0 || elem != 4 ||
	    l->ncolors > MAX_COLORS) {
		snprintf(why, whysz, "the kernel's BTF lacks a field of workqueue_struct or pool_workqueue this reads");
		return -ENOENT;
	}
	/* the counters came with 6.3 (stats[] and enum pool_workqueue_stats) */
	if (array_member(b, btf, pwq, "stats", &l->pwq_stats, &l->nstats, &elem) < 0 || elem != 8 || !et ||
	    l->nstats > MAX_STATS) {
		snprintf(why, whysz,
			 "this kernel keeps no per-workqueue counters (pool_workqueue.stats, 6.3 and later)");
		return -ENOENT;
	}
	for (unsigned int i = 0; i < btf_vlen(et); i++) {
		const char *n = b->btf__name_by_offset(btf, btf_enum(et)[i].name_off);

		for (int s = 0; n && s < WQ_KS_NR; s++)
			if (streq(n, wq_kstat_names[s]) && btf_enum(et)[i].val >= 0 &&
			    (size_t)btf_enum(et)[i].val < l->nstats)
				l->stat_index[s] = btf_enum(et)[i].val;
	}
	if (l->stat_index[WQ_KS_STARTED] < 0 || l->stat_index[WQ_KS_COMPLETED] < 0) {
		snprintf(why, whysz, "the kernel's enum pool_workqueue_stats has no STARTED and COMPLETED");
		return -ENOENT;
	}
	return spans(l, why, whysz);
}

static int read_layout(struct wq_ctx *ctx, struct layout *l, char *why, size_t whysz)
{
	const struct wq_libbpf *b = wq_libbpf();
	_cleanup_free_ char *path = wq_root_join(ctx->root, WQ_P_BTF);
	struct btf *btf;
	int r;

	if (!wq_root_exists(ctx->root, WQ_P_BTF)) {
		snprintf(why, whysz, "the kernel has no BTF (/%s: CONFIG_DEBUG_INFO_BTF is off)", WQ_P_BTF);
		return -ENOENT;
	}
	if (!b) {
		snprintf(why, whysz, "libbpf.so.1 cannot be loaded (package libbpf1)");
		return -ENOENT;
	}
	if (!path)
		return -ENOMEM;
	btf = b->btf__parse(path, NULL);
	if (!btf) {
		snprintf(why, whysz, "/%s: not BTF libbpf can read: %s", WQ_P_BTF, strerror(errno));
		return -EINVAL;
	}
	r = layout_from_btf(b, btf, l, why, whysz);
	b->btf__free(btf);
	return r;
}

/* --- kallsyms and kcore ----------------------------------------------------- */

static int find_symbol(struct wq_ctx *ctx, const char *name, uint64_t *addr, char *why, size_t whysz)
{
	_cleanup_free_ char *line = NULL;
	_cleanup_fclose_ FILE *f = NULL;
	size_t cap = 0, len = strlen(name);
	int fd = wq_root_open_file(ctx->root, WQ_P_KALLSYMS, O_RDONLY, 0);

	if (fd < 0) {
		snprintf(why, whysz, "/%s: %s", WQ_P_KALLSYMS, wq_strerror(-fd));
		return fd;
	}
	if (!(f = fdopen(fd, "re"))) {
		close(fd);
		return -errno;
	}
	while (getline(&line, &cap, f) > 0) {
		unsigned long long a;
		char type;
		int at = 0;

		/*
		 * "ffffffff9a2b3c40 d workqueues", the kernel's and not a module's ("\t[mod]"), whatever its
		 * type letter: Debian's 7.3.4 prints "t" for it and "b" for wq_pool_mutex, both data
		 */
		if (sscanf(line, "%llx %c %n", &a, &type, &at) != 2 || !at || strncmp(line + at, name, len) ||
		    line[at + len] != '\n')
			continue;
		if (!a) {
			snprintf(why, whysz, "/%s shows no addresses (kernel.kptr_restrict, or not root)",
				 WQ_P_KALLSYMS);
			return -EPERM;
		}
		*addr = a;
		return 0;
	}
	snprintf(why, whysz, "'%s' is not in /%s (CONFIG_KALLSYMS_ALL is off)", name, WQ_P_KALLSYMS);
	return -ENOENT;
}

static int open_kcore(struct wq_ctx *ctx, struct wq_kcount *k, char *why, size_t whysz)
{
	Elf64_Ehdr eh;
	int fd = wq_root_open_file(ctx->root, WQ_P_KCORE, O_RDONLY, 0);

	if (fd < 0) {
		snprintf(why, whysz, "/%s: %s", WQ_P_KCORE,
			 fd == -ENOENT ? "not there (CONFIG_PROC_KCORE is off)"
			 : fd == -EPERM || fd == -EACCES
			     ? "permission denied (root, and no lockdown=confidentiality, may read it)"
			     : wq_strerror(-fd));
		return fd;
	}
	k->fd = fd;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || !eh.e_phnum ||
	    eh.e_phnum > MAX_SEGS) {
		snprintf(why, whysz, "/%s: not a 64-bit ELF core", WQ_P_KCORE);
		return -EINVAL;
	}
	k->seg = calloc(eh.e_phnum, sizeof(*k->seg));
	if (!k->seg)
		return -ENOMEM;
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) != (ssize_t)sizeof(ph)) {
			snprintf(why, whysz, "/%s: its program headers cannot be read", WQ_P_KCORE);
			return -EIO;
		}
		if (ph.p_type == PT_LOAD && ph.p_filesz)
			k->seg[k->nseg++] = (struct seg){ph.p_vaddr, ph.p_offset, ph.p_filesz};
	}
	return 0;
}

/* len bytes of kernel memory at addr. -EFAULT where no segment holds them. */
static int peek(const struct wq_kcount *k, uint64_t addr, void *buf, size_t len)
{
	for (size_t i = 0; i < k->nseg; i++) {
		const struct seg *s = &k->seg[i];

		if (addr >= s->vaddr && addr - s->vaddr <= s->size && len <= s->size - (addr - s->vaddr)) {
			ssize_t r = pread(k->fd, buf, len, (off_t)(s->offset + (addr - s->vaddr)));

			return r == (ssize_t)len ? 0 : r < 0 ? -errno : -EIO;
		}
	}
	return -EFAULT;
}

/* A pointer worth following: aligned, in the kernel's half of the address space, not NULL. */
static bool kptr_ok(uint64_t p)
{
	return p && !(p & 7) && (p >> 63);
}

static int peek_ptr(const struct wq_kcount *k, uint64_t addr, uint64_t *p)
{
	int r = peek(k, addr, p, sizeof(*p));

	return r < 0 ? r : kptr_ok(*p) ? 0 : -EAGAIN;
}

/* --- the walk --------------------------------------------------------------- */

static int cmp_rows(const void *a, const void *b)
{
	return strcmp(((const struct wq_kcount_row *)a)->name, ((const struct wq_kcount_row *)b)->name);
}

/*
 * Workqueues that share a name (6.17+: events and events_unbound are two
 * each) summed into one row, as the tracepoints, which carry only the name,
 * count them: the rows' number after, v sorted by name.
 */
static size_t merge_names(struct wq_kcount_row *v, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		struct wq_kcount_row *o = &v[out - (out > 0)];

		if (out == 0 || strcmp(o->name, v[i].name)) {
			v[out++] = v[i];
			continue;
		}
		for (int s = 0; s < WQ_KS_NR; s++)
			o->stat[s] += v[i].stat[s];
		o->flags |= v[i].flags;
		o->nr_active += v[i].nr_active;
		o->nr_in_flight += v[i].nr_in_flight;
		o->npwqs += v[i].npwqs;
		o->nwqs += v[i].nwqs;
	}
	return out;
}

/* A pointer read out of a struct's bytes, worth following (kptr_ok), or -EAGAIN. */
static int ptr_at(const unsigned char *buf, size_t off, uint64_t *p)
{
	memcpy(p, buf + off, sizeof(*p));
	return kptr_ok(*p) ? 0 : -EAGAIN;
}

/* One pwq's counters into r, in one read; *next its pwqs_node's next pointer. */
static int add_pwq(const struct wq_kcount *k, uint64_t pwq, struct wq_kcount_row *r, uint64_t *next)
{
	const struct layout *l = &k->l;
	unsigned char buf[MAX_SPAN];
	uint64_t stats[MAX_STATS];
	int32_t active, flight[MAX_COLORS];
	int e = peek(k, pwq + l->pwq_lo, buf, l->pwq_span);

	if (e < 0)
		return e == -EFAULT ? -EAGAIN : e;
	memcpy(stats, buf + (l->pwq_stats - l->pwq_lo), l->nstats * sizeof(*stats));
	memcpy(&active, buf + (l->pwq_active - l->pwq_lo), sizeof(active));
	memcpy(flight, buf + (l->pwq_flight - l->pwq_lo), l->ncolors * sizeof(*flight));
	for (int s = 0; s < WQ_KS_NR; s++)
		if (l->stat_index[s] >= 0)
			r->stat[s] += stats[l->stat_index[s]];
	r->nr_active += active;
	for (size_t c = 0; c < l->ncolors; c++)
		r->nr_in_flight += flight[c];
	r->npwqs++;
	return ptr_at(buf, l->pwq_node - l->pwq_lo, next);
}

/*
 * One workqueue at wq: its name, flags and its pwqs summed; *next its list's
 * next pointer. 1: a workqueue not wanted (its pwqs not read). -EAGAIN: what
 * was read does not hold together.
 */
static int read_wq(const struct wq_kcount *k, uint64_t wq, struct wq_kcount_row *r, uint64_t *next)
{
	const struct layout *l = &k->l;
	unsigned char buf[MAX_SPAN];
	char name[256];
	size_t nlen = l->name_len < sizeof(name) ? l->name_len : sizeof(name);
	uint64_t head = wq + l->wq_pwqs, p;
	int e;

	memset(r, 0, sizeof(*r));
	if ((e = peek(k, wq + l->wq_lo, buf, l->wq_span)) < 0)
		return e == -EFAULT ? -EAGAIN : e;
	memcpy(name, buf + (l->wq_name - l->wq_lo), nlen);
	memcpy(&r->flags, buf + (l->wq_flags - l->wq_lo), 4);
	if (!memchr(name, '\0', nlen) || !name[0])
		return -EAGAIN;
	for (const char *c = name; *c; c++)
		if (!isprint((unsigned char)*c))
			return -EAGAIN;
	if (strlen(name) >= sizeof(r->name))
		return -EAGAIN;
	memcpy(r->name, name, strlen(name) + 1);
	r->nwqs = 1;
	if ((e = ptr_at(buf, l->wq_pwqs - l->wq_lo, &p)) < 0 || (e = ptr_at(buf, l->wq_list - l->wq_lo, next)) < 0)
		return e;
	if (k->want && !k->want(r->name, k->want_arg))
		return 1;
	for (unsigned int i = 0; p != head; i++) {
		if (i == MAX_PWQS)
			return -EAGAIN;
		if ((e = add_pwq(k, p - l->pwq_node, r, &p)) < 0)
			return e;
	}
	return 0;
}

static int walk(const struct wq_kcount *k, struct wq_kcount_row **rows, size_t *n)
{
	struct wq_kcount_row *v = NULL;
	size_t cap = 0, cnt = 0;
	uint64_t p;
	int e = peek_ptr(k, k->head, &p);

	for (unsigned int i = 0; e == 0 && p != k->head; i++) {
		if (i == MAX_WQS) {
			e = -EAGAIN;
			break;
		}
		if (cnt == cap) {
			struct wq_kcount_row *nv = realloc(v, sizeof(*nv) * (cap = cap ? 2 * cap : 256));

			if (!nv) {
				e = -ENOMEM;
				break;
			}
			v = nv;
		}
		if ((e = read_wq(k, p - k->l.wq_list, &v[cnt], &p)) == 0)
			cnt++;
		else if (e == 1) /* not wanted */
			e = 0;
	}
	if (e < 0) {
		free(v);
		return e == -EFAULT ? -EAGAIN : e;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_rows);
	*rows = v;
	*n = merge_names(v, cnt);
	return 0;
}

/* --- the interface ------------------------------------------------------------ */

/* lockdown's mode, as [MODE] in its file; "" when there is no lockdown LSM. */
static void lockdown_mode(struct wq_ctx *ctx, char *mode, size_t size)
{
	_cleanup_free_ char *t = NULL;
	const char *a, *b;

	mode[0] = '\0';
	if (wq_root_read(ctx->root, WQ_P_LOCKDOWN, &t) < 0 || !(a = strchr(t, '[')) || !(b = strchr(a, ']')))
		return;
	snprintf(mode, size, "%.*s", (int)(b - a - 1), a + 1);
}

int wq_kcount_prepare(struct wq_ctx *ctx, struct wq_kcount **out, char *why, size_t whysz)
{
	struct wq_kcount *k;
	char mode[32];
	int r;

	*out = NULL;
	if (wq_root_is_live(ctx->root) && geteuid() != 0) {
		snprintf(why, whysz, "reading the kernel's counters from /%s needs root", WQ_P_KCORE);
		return -EPERM;
	}
	if (ctx->kver.known && wq_kver_cmp(&ctx->kver, 6, 3, 0) < 0) {
		snprintf(why, whysz, "the kernel keeps per-workqueue counters from 6.3 on (this is %s)",
			 ctx->kver.release);
		return -ENOTSUP;
	}
	lockdown_mode(ctx, mode, sizeof(mode));
	if (streq(mode, "confidentiality")) {
		snprintf(why, whysz, "lockdown=confidentiality keeps /%s closed", WQ_P_KCORE);
		return -EPERM;
	}
	if (!(k = calloc(1, sizeof(*k))))
		return -ENOMEM;
	k->fd = -1;
	/* a kcore that is not there is said before the slow scan of kallsyms (seconds under emulation) */
	if ((r = read_layout(ctx, &k->l, why, whysz)) == 0 && !wq_root_exists(ctx->root, WQ_P_KCORE)) {
		snprintf(why, whysz, "/%s: not there (CONFIG_PROC_KCORE is off)", WQ_P_KCORE);
		r = -ENOENT;
	} else if (r == 0)
		r = find_symbol(ctx, "workqueues", &k->head, why, whysz);
	if (r < 0) {
		wq_kcount_free(k);
		return r;
	}
	*out = k;
	return 0;
}

int wq_kcount_start(struct wq_ctx *ctx, struct wq_kcount *k, char *why, size_t whysz)
{
	return open_kcore(ctx, k, why, whysz);
}

int wq_kcount_open(struct wq_ctx *ctx, struct wq_kcount **out, char *why, size_t whysz)
{
	int r = wq_kcount_prepare(ctx, out, why, whysz);

	/* kcore is opened last: an open kcore says the first read is near */
	if (r == 0 && (r = wq_kcount_start(ctx, *out, why, whysz)) < 0) {
		wq_kcount_free(*out);
		*out = NULL;
	}
	return r;
}

void wq_kcount_filter(struct wq_kcount *k, bool (*want)(const char *name, void *arg), void *arg)
{
	k->want = want;
	k->want_arg = arg;
}

bool wq_kcount_has(const struct wq_kcount *k, enum wq_kstat s)
{
	return k->l.stat_index[s] >= 0;
}

int wq_kcount_read(struct wq_kcount *k, struct wq_kcount_row **rows, size_t *n, char *why, size_t whysz)
{
	int r = -EAGAIN;

	*rows = NULL;
	*n = 0;
	for (int t = 0; t < TRIES && r == -EAGAIN; t++)
		r = walk(k, rows, n);
	if (r == -EAGAIN)
		snprintf(why, whysz,
			 "the workqueue list changed under %d walks in a row (a torn read); nothing counted", TRIES);
	else if (r < 0)
		snprintf(why, whysz, "/%s: %s", WQ_P_KCORE, wq_strerror(-r));
	return r;
}

void wq_kcount_free(struct wq_kcount *k)
{
	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	free(k->seg);
	free(k);
}

int wq_kcount_rows(const struct wq_kcount_row *base, size_t nbase, const struct wq_kcount_row *cur, size_t ncur,
		   double seconds, struct wq_mon_row **rows, size_t *n)
{
	static const struct wq_kcount_row zero;
	struct wq_mon_row *v = calloc(ncur + 1, sizeof(*v));
	size_t k = 0;

	*rows = NULL;
	*n = 0;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < ncur; i++) {
		const struct wq_kcount_row *c = &cur[i], *b = wq_mon_by_name(base, nbase, sizeof(*base), c->name);
		struct wq_mon_row *r = &v[k];
		long executing = (long)wq_mon_grown(c->stat[WQ_KS_STARTED], c->stat[WQ_KS_COMPLETED]);
		long flight_before = b ? b->nr_in_flight : 0, queued;

		if (!b)
			b = &zero;
		r->name = c->name;
		r->started = wq_mon_grown(c->stat[WQ_KS_STARTED], b->stat[WQ_KS_STARTED]);
		r->done = wq_mon_grown(c->stat[WQ_KS_COMPLETED], b->stat[WQ_KS_COMPLETED]);
		/* what was queued went into flight; what left it was done: queued = done + its growth (which may be < 0) */
		queued = (long)r->done + (c->nr_in_flight - flight_before);
		r->queued = queued > 0 ? (unsigned long)queued : 0;
		r->queued_ps = seconds > 0 ? (double)r->queued / seconds : 0;
		r->started_ps = seconds > 0 ? (double)r->started / seconds : 0;
		r->inflight = executing;
		r->pending = c->nr_in_flight > executing ? c->nr_in_flight - executing : 0;
		r->wait_p50 = r->wait_p99 = r->run_p50 = r->run_p99 = -1;
		r->cpu_us = wq_mon_grown(c->stat[WQ_KS_CPU_TIME], b->stat[WQ_KS_CPU_TIME]);
		r->cpu_intensive = wq_mon_grown(c->stat[WQ_KS_CPU_INTENSIVE], b->stat[WQ_KS_CPU_INTENSIVE]);
		r->cm_wakeup = wq_mon_grown(c->stat[WQ_KS_CM_WAKEUP], b->stat[WQ_KS_CM_WAKEUP]);
		r->repatriated = wq_mon_grown(c->stat[WQ_KS_REPATRIATED], b->stat[WQ_KS_REPATRIATED]);
		r->mayday = wq_mon_grown(c->stat[WQ_KS_MAYDAY], b->stat[WQ_KS_MAYDAY]);
		r->rescued = wq_mon_grown(c->stat[WQ_KS_RESCUED], b->stat[WQ_KS_RESCUED]);
		/* as the other backends: a workqueue that did something, or holds items now */
		if (r->queued || r->started || r->done || r->inflight || r->pending || r->cpu_us || r->mayday ||
		    r->rescued)
			k++;
		else
			memset(r, 0, sizeof(*r));
	}
	*rows = v;
	*n = k;
	return 0;
}
