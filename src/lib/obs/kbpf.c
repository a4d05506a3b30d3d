// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workqueue tracepoints counted and timed by BPF programs of ours: the
 * object built from obs/kbpf.bpf.c is linked into the program, loaded and
 * attached through libbpf (util/dl), and its per-CPU maps are summed when
 * read.
 */
#define _GNU_SOURCE
#include "kbpf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/root.h"
#include "../util/dl.h"
#include "../util/macro.h"
#include "kbpf_shared.h"

/* The programs as clang built them (Makefile: WQ_KBPF_OBJECT), in the program's read-only data, and their size. */
extern const unsigned char wq_kbpf_obj[];
extern const uint64_t wq_kbpf_obj_size;
__asm__(".section .rodata\n"
	".balign 8\n"
	".hidden wq_kbpf_obj\n"
	".globl wq_kbpf_obj\n"
	"wq_kbpf_obj:\n"
	".incbin \"" WQ_KBPF_OBJECT "\"\n"
	".Lwq_kbpf_obj_end:\n"
	".balign 8\n"
	".hidden wq_kbpf_obj_size\n"
	".globl wq_kbpf_obj_size\n"
	"wq_kbpf_obj_size:\n"
	".quad .Lwq_kbpf_obj_end - wq_kbpf_obj\n"
	".previous\n");

_Static_assert(WQ_KBPF_BUCKETS == KBPF_BUCKETS && WQ_KBPF_NAMES == KBPF_NAMES && WQ_KBPF_ITEMS == KBPF_ITEMS &&
		   WQ_KBPF_SPILL == KBPF_SPILL,
	       "kbpf.h and kbpf_shared.h agree");
_Static_assert(sizeof(struct kbpf_val) % 8 == 0, "a per-CPU value is read at 8-byte strides");
_Static_assert(sizeof(struct kbpf_counts) % 8 == 0 && sizeof(struct kbpf_counts) <= sizeof(struct kbpf_val),
	       "the spill map's per-CPU counts are read into the buffer of the stats map's");

#define NPROGS 4

struct wq_kbpf {
	const struct wq_libbpf *lb;
	struct bpf_object *obj;
	struct bpf_link *link[NPROGS];
	int prog_fd[NPROGS];
	int stats_fd, spill_fd, lost_fd;
	int ncpus;
	struct kbpf_val *vals; /* one lookup's per-CPU values */
};

/* libbpf's last warning: the reason behind a refused load, said with the error. */
static char libbpf_said[256];

static int keep_warning(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg = NULL, *end, *line;
	size_t n;

	if (level != LIBBPF_WARN || vasprintf(&msg, fmt, ap) < 0)
		return 0;
	/* a refused program: the verifier's log, whose last line is its reason */
	if ((end = strstr(msg, "-- END PROG LOAD LOG --"))) {
		while (end > msg && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		*end = '\0';
		line = strrchr(msg, '\n');
		snprintf(libbpf_said, sizeof(libbpf_said), "the verifier says: %s", line ? line + 1 : msg);
	} else if (!strstr(msg, "failed to load object") && !strstr(libbpf_said, "the verifier says")) {
		/* else libbpf's own last word (a relocation, an attach), not its closing lines */
		n = strlen(msg);
		while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
			msg[--n] = '\0';
		if (n)
			snprintf(libbpf_said, sizeof(libbpf_said), "%s", msg);
	}
	free(msg);
	return 0;
}

void wq_kbpf_free(struct wq_kbpf *k)
{
	if (!k)
		return;
	for (int i = 0; i < NPROGS; i++)
		if (k->link[i])
			k->lb->bpf_link__destroy(k->link[i]);
	if (k->obj)
		k->lb->bpf_object__close(k->obj);
	free(k->vals);
	free(k);
}

int wq_kbpf_open(struct wq_ctx *ctx, bool held, struct wq_kbpf **out, char *why, size_t whysz)
{
	struct wq_kbpf *k;
	struct bpf_program *p = NULL;
	struct bpf_map *m;
	int r, i = 0, attached = 0;

	*out = NULL;
	if (!wq_root_is_live(ctx->root)) {
		snprintf(why, whysz, "BPF programs run on the live kernel only (not under --sysroot)");
		return -ENOTSUP;
	}
	if (geteuid() != 0) {
		snprintf(why, whysz, "loading BPF programs needs root");
		return -EPERM;
	}
	if (!wq_root_exists(ctx->root, WQ_P_BTF)) {
		snprintf(why, whysz, "the kernel has no BTF (/%s: CONFIG_DEBUG_INFO_BTF is off)", WQ_P_BTF);
		return -ENOTSUP;
	}
	if (!(k = calloc(1, sizeof(*k))))
		return -ENOMEM;
	k->stats_fd = k->spill_fd = k->lost_fd = -1;
	if (!(k->lb = wq_libbpf())) {
		free(k);
		snprintf(why, whysz, "libbpf cannot be loaded (the libbpf1 package)");
		return -ENOTSUP;
	}
	k->lb->libbpf_set_print(keep_warning);
	libbpf_said[0] = '\0';
	k->obj = k->lb->bpf_object__open_mem(wq_kbpf_obj, (size_t)wq_kbpf_obj_size, NULL);
	if (!k->obj) {
		r = -errno;
		k->obj = NULL;
		snprintf(why, whysz, "our BPF programs cannot be opened: %s", wq_strerror(-r));
		goto fail;
	}
	if ((r = k->lb->bpf_object__load(k->obj)) < 0) {
		snprintf(why, whysz, "the kernel refused our BPF programs: %s%s%s", wq_strerror(-r),
			 libbpf_said[0] ? ": " : "", libbpf_said);
		goto fail;
	}
	while ((p = k->lb->bpf_object__next_program(k->obj, p)) && i < NPROGS) {
		k->prog_fd[i] = k->lb->bpf_program__fd(p);
		if (!held && streq(k->lb->bpf_program__name(p), "wq_activate")) {
			i++;
			continue;
		}
		attached++;
		if (!(k->link[i] = k->lb->bpf_program__attach(p))) {
			r = -errno;
			k->link[i] = NULL;
			snprintf(why, whysz, "our BPF program %s cannot be attached: %s", k->lb->bpf_program__name(p),
				 wq_strerror(-r));
			goto fail;
		}
		i++;
	}
	if ((m = k->lb->bpf_object__find_map_by_name(k->obj, "stats")))
		k->stats_fd = k->lb->bpf_map__fd(m);
	if ((m = k->lb->bpf_object__find_map_by_name(k->obj, "spill")))
		k->spill_fd = k->lb->bpf_map__fd(m);
	if ((m = k->lb->bpf_object__find_map_by_name(k->obj, "lost")))
		k->lost_fd = k->lb->bpf_map__fd(m);
	k->ncpus = k->lb->libbpf_num_possible_cpus();
	if (i != NPROGS || attached != NPROGS - !held || k->stats_fd < 0 || k->spill_fd < 0 || k->lost_fd < 0 ||
	    k->ncpus <= 0) {
		r = -EINVAL;
		snprintf(why, whysz, "our BPF object is not as built (%d programs, %d CPUs)", i, k->ncpus);
		goto fail;
	}
	if (!(k->vals = calloc((size_t)k->ncpus, sizeof(*k->vals)))) {
		r = -ENOMEM;
		snprintf(why, whysz, "%s", wq_strerror(ENOMEM));
		goto fail;
	}
	*out = k;
	return 0;
fail:
	wq_kbpf_free(k);
	return r < 0 ? r : -EINVAL;
}

static int cmp_rows(const void *a, const void *b)
{
	return strcmp(((const struct wq_kbpf_row *)a)->name, ((const struct wq_kbpf_row *)b)->name);
}

/* One name's per-CPU values summed into r. */
static void sum_cpus(const struct wq_kbpf *k, struct wq_kbpf_row *r)
{
	for (int c = 0; c < k->ncpus; c++) {
		const struct kbpf_val *v = &k->vals[c];

		r->queued += v->c.queued;
		r->activated += v->c.activated;
		r->throttled += v->c.throttled;
		r->started += v->c.started;
		r->done += v->c.done;
		r->wait_count += v->wait_count;
		r->run_count += v->run_count;
		r->wait_sum += v->wait_sum;
		r->run_sum += v->run_sum;
		for (int b = 0; b < KBPF_BUCKETS; b++) {
			r->wait[b] += v->wait[b];
			r->run[b] += v->run[b];
		}
	}
}

int wq_kbpf_read(struct wq_kbpf *k, struct wq_kbpf_row **rows, size_t *n, struct wq_kbpf_lost *lost, char *why,
		 size_t whysz)
{
	struct kbpf_key key, next;
	struct wq_kbpf_row *v = NULL;
	size_t cnt = 0, cap = 0;
	bool first = true;
	uint64_t *l = calloc((size_t)k->ncpus, sizeof(*l));

	*rows = NULL;
	*n = 0;
	memset(lost, 0, sizeof(*lost));
	if (!l)
		goto nomem;
	/* names are added, never removed: a walk sees each once (bounded all the same) */
	while (cnt < KBPF_NAMES && k->lb->bpf_map_get_next_key(k->stats_fd, first ? NULL : &key, &next) == 0) {
		first = false;
		key = next;
		if (k->lb->bpf_map_lookup_elem(k->stats_fd, &key, k->vals) != 0)
			continue;
		if (cnt == cap) {
			struct wq_kbpf_row *nv = realloc(v, sizeof(*v) * (cap = cap ? 2 * cap : 64));

			if (!nv)
				goto nomem;
			v = nv;
		}
		memset(&v[cnt], 0, sizeof(v[cnt]));
		memcpy(v[cnt].name, key.name, sizeof(v[cnt].name));
		v[cnt].name[sizeof(v[cnt].name) - 1] = '\0';
		sum_cpus(k, &v[cnt]);
		cnt++;
	}
	/* the counts of names whose rows could not be made at first: added to their rows, or rows of their own */
	first = true;
	while (k->lb->bpf_map_get_next_key(k->spill_fd, first ? NULL : &key, &next) == 0) {
		struct kbpf_counts *sc = (struct kbpf_counts *)k->vals; /* as many as CPUs: k->vals is larger */
		struct wq_kbpf_row *r = NULL;

		first = false;
		key = next;
		if (k->lb->bpf_map_lookup_elem(k->spill_fd, &key, sc) != 0)
			continue;
		for (size_t j = 0; j < cnt && !r; j++)
			if (!strncmp(v[j].name, key.name, sizeof(key.name)))
				r = &v[j];
		if (!r) {
			if (cnt == cap) {
				struct wq_kbpf_row *nv = realloc(v, sizeof(*v) * (cap = cap ? 2 * cap : 64));

				if (!nv)
					goto nomem;
				v = nv;
			}
			r = &v[cnt++];
			memset(r, 0, sizeof(*r));
			memcpy(r->name, key.name, sizeof(r->name));
			r->name[sizeof(r->name) - 1] = '\0';
		}
		for (int c = 0; c < k->ncpus; c++) {
			r->queued += sc[c].queued;
			r->activated += sc[c].activated;
			r->throttled += sc[c].throttled;
			r->started += sc[c].started;
			r->done += sc[c].done;
		}
	}
	for (__u32 i = 0; i < KBPF_NLOST; i++) {
		uint64_t *to = i == KBPF_LOST_FULL    ? &lost->full
			       : i == KBPF_LOST_BUSY  ? &lost->busy
			       : i == KBPF_LOST_NAMES ? &lost->names
						      : &lost->unseen;

		if (k->lb->bpf_map_lookup_elem(k->lost_fd, &i, l) == 0)
			for (int c = 0; c < k->ncpus; c++)
				*to += l[c];
	}
	free(l);
	/* what the kernel did not run our programs for: it counts that per program */
	for (int i = 0; i < NPROGS; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (k->lb->bpf_obj_get_info_by_fd(k->prog_fd[i], &info, &len) == 0)
			lost->skipped += info.recursion_misses;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_rows);
	*rows = v;
	*n = cnt;
	return 0;
nomem:
	free(l);
	free(v);
	snprintf(why, whysz, "%s", wq_strerror(ENOMEM));
	return -ENOMEM;
}

/* The nearest-rank p-th percentile of the times that fell into the buckets from b to c: its bucket's top, ns; -1 for none. */
static int64_t percentile(const uint64_t *c, const uint64_t *b, double p)
{
	uint64_t n = 0, rank, seen = 0;

	for (int k = 0; k < WQ_KBPF_BUCKETS; k++)
		n += wq_mon_grown(c[k], b[k]);
	if (!n)
		return -1;
	rank = (uint64_t)((double)n * p / 100.0);
	if ((double)rank < (double)n * p / 100.0 || rank == 0)
		rank++;
	for (int k = 0; k < WQ_KBPF_BUCKETS; k++) {
		seen += wq_mon_grown(c[k], b[k]);
		if (seen >= rank)
			return k < 63 ? (int64_t)1 << k : INT64_MAX;
	}
	return INT64_MAX;
}

int wq_kbpf_rows(const struct wq_kbpf_row *base, size_t nbase, const struct wq_kbpf_row *cur, size_t ncur,
		 double seconds, struct wq_mon_row **rows, size_t *n)
{
	static const struct wq_kbpf_row zero;
	struct wq_mon_row *v = calloc(ncur + 1, sizeof(*v));
	size_t k = 0;

	*rows = NULL;
	*n = 0;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < ncur; i++) {
		const struct wq_kbpf_row *c = &cur[i], *b = wq_mon_by_name(base, nbase, sizeof(*base), c->name);
		struct wq_mon_row *r = &v[k];

		if (!b)
			b = &zero;
		r->name = c->name;
		r->queued = wq_mon_grown(c->queued, b->queued);
		r->started = wq_mon_grown(c->started, b->started);
		r->done = wq_mon_grown(c->done, b->done);
		r->throttled = wq_mon_grown(c->throttled, b->throttled);
		r->queued_ps = seconds > 0 ? (double)r->queued / seconds : 0;
		r->started_ps = seconds > 0 ? (double)r->started / seconds : 0;
		r->pending = (long)wq_mon_grown(c->queued, c->activated);
		r->inflight = (long)wq_mon_grown(c->started, c->done);
		r->wait_p50 = percentile(c->wait, b->wait, 50);
		r->wait_p99 = percentile(c->wait, b->wait, 99);
		r->run_p50 = percentile(c->run, b->run, 50);
		r->run_p99 = percentile(c->run, b->run, 99);
		r->wait_sum = (double)wq_mon_grown(c->wait_sum, b->wait_sum);
		r->run_sum = (double)wq_mon_grown(c->run_sum, b->run_sum);
		r->wait_count = wq_mon_grown(c->wait_count, b->wait_count);
		r->run_count = wq_mon_grown(c->run_count, b->run_count);
		if (r->queued || r->started || r->done || r->pending || r->inflight)
			k++;
		else
			memset(r, 0, sizeof(*r));
	}
	*rows = v;
	*n = k;
	return 0;
}
