/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU sets: growable bitmaps sized from the tree's possible CPUs, with the
 * kernel's two text forms (CPU list and comma-grouped hex mask).
 */
#ifndef WQ_CPUSET_H
#define WQ_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPU numbers accepted from text: below the kernel's largest NR_CPUS (8192, CONFIG_MAXSMP). */
#define WQ_CPUSET_MAX_CPUS 8192U

/*
 * Every word outside [lo, hi) is zero (lo == hi: no CPU), so that the set
 * operations run over the words a set can hold: a pod of 256 CPUs is 4
 * words of an 8,192-CPU machine's 128. The bounds only widen when CPUs are
 * added; clearing CPUs may leave zero words inside them.
 *
 * Only the words from base up are stored (word w at bits[w - base]), so
 * that the set of CPUs 7936-8191 takes 32 bytes, not 1 KB: at 8,192 CPUs
 * the node, pod and counter sets are most of a command's heap, and each
 * page of it a page fault. [lo, hi) lies within [base, nbits / BPL).
 */
struct wq_cpuset {
	unsigned int nbits; /* the end of the stored words, in bits */
	unsigned int base; /* the first word stored */
	unsigned int lo, hi; /* the words that may hold CPUs */
	unsigned int refs; /* holders besides the first (wq_cpuset_ref) */
	unsigned long *bits;
};

struct wq_cpuset *wq_cpuset_new(void);
struct wq_cpuset *wq_cpuset_dup(const struct wq_cpuset *s);
/*
 * Another holder of s, which each holder frees: a set read from sysfs and
 * shared by the workqueues that have the same mask. A shared set is not
 * changed by any holder.
 */
struct wq_cpuset *wq_cpuset_ref(struct wq_cpuset *s);
/* A set equal to s for the caller to free: s itself when it is shared (so read only), else a copy. */
struct wq_cpuset *wq_cpuset_hold(const struct wq_cpuset *s);
/* Drop a holder of s; the last one frees it. */
void wq_cpuset_free(struct wq_cpuset *s);
void wq_cpuset_freep(struct wq_cpuset **s);
#define _cleanup_cpuset_ __attribute__((cleanup(wq_cpuset_freep)))

#define BPL (sizeof(unsigned long) * 8)
/* Word w of s, stored (within [base, nbits / BPL)). */
#define WQ_CPUSET_WORD(s, w) ((s)->bits[(w) - (s)->base])
/* CPU cpu's word is stored. */
#define WQ_CPUSET_HOLDS(s, cpu) ((cpu) < (s)->nbits && (cpu) / BPL >= (s)->base)

/*
 * The per-CPU accessors are inline: loops over 8,192 CPUs call them once
 * per CPU, where a call costs more than the bit operation.
 */
/* Widen s's bounds to word w. */
static inline void wq_cpuset_span(struct wq_cpuset *s, unsigned int w)
{
	if (s->lo >= s->hi) {
		s->lo = w;
		s->hi = w + 1;
	} else if (w < s->lo) {
		s->lo = w;
	} else if (w >= s->hi) {
		s->hi = w + 1;
	}
}
int wq_cpuset_set_grow(struct wq_cpuset *s, unsigned int cpu);
/* Set a CPU, growing the set; 0 or -ENOMEM / -ERANGE (cpu too large). */
static inline int wq_cpuset_set(struct wq_cpuset *s, unsigned int cpu)
{
	if (WQ_CPUSET_HOLDS(s, cpu)) {
		WQ_CPUSET_WORD(s, cpu / BPL) |= 1UL << (cpu % BPL);
		wq_cpuset_span(s, (unsigned int)(cpu / BPL));
		return 0;
	}
	return wq_cpuset_set_grow(s, cpu);
}
void wq_cpuset_clear(struct wq_cpuset *s, unsigned int cpu);
void wq_cpuset_zero(struct wq_cpuset *s);
static inline bool wq_cpuset_test(const struct wq_cpuset *s, unsigned int cpu)
{
	return WQ_CPUSET_HOLDS(s, cpu) && (WQ_CPUSET_WORD(s, cpu / BPL) >> (cpu % BPL)) & 1UL;
}
unsigned int wq_cpuset_count(const struct wq_cpuset *s);
/* CPUs in both a and b, without building a & b. */
unsigned int wq_cpuset_count_and(const struct wq_cpuset *a, const struct wq_cpuset *b);
bool wq_cpuset_is_empty(const struct wq_cpuset *s);
/* Next set CPU >= from, or -1. */
static inline int wq_cpuset_next(const struct wq_cpuset *s, unsigned int from)
{
	if (from < s->lo * BPL)
		from = (unsigned int)(s->lo * BPL);
	while (from < s->hi * BPL) {
		unsigned long w = WQ_CPUSET_WORD(s, from / BPL) >> (from % BPL);

		if (w)
			return (int)(from + (unsigned int)__builtin_ctzl(w));
		from = (unsigned int)((from / BPL + 1) * BPL);
	}
	return -1;
}
/* Highest set CPU, or -1. */
int wq_cpuset_last(const struct wq_cpuset *s);
bool wq_cpuset_equal(const struct wq_cpuset *a, const struct wq_cpuset *b);
/* Mix the set's CPUs into h: equal sets give equal hashes whatever their capacity. */
uint64_t wq_cpuset_hash(const struct wq_cpuset *s, uint64_t h);
bool wq_cpuset_subset(const struct wq_cpuset *a, const struct wq_cpuset *b);
bool wq_cpuset_intersects(const struct wq_cpuset *a, const struct wq_cpuset *b);
/* In-place set algebra on dst; 0 or -ENOMEM. */
int wq_cpuset_copy(struct wq_cpuset *dst, const struct wq_cpuset *src);
int wq_cpuset_or(struct wq_cpuset *dst, const struct wq_cpuset *src);
void wq_cpuset_and(struct wq_cpuset *dst, const struct wq_cpuset *src);
void wq_cpuset_andnot(struct wq_cpuset *dst, const struct wq_cpuset *src);

/*
 * map[cpu] = v for every CPU of s below n: a word at a time, a full word as
 * one fill (the CPU-to-node and CPU-to-pod tables of 8,192 CPUs).
 */
void wq_cpuset_store(const struct wq_cpuset *s, int16_t *map, unsigned int n, int16_t v);
/* map[cpu] = v for every CPU below n that is not in s: what a table's other stores left out. */
void wq_cpuset_store_absent(const struct wq_cpuset *s, int16_t *map, unsigned int n, int16_t v);

#define wq_cpuset_for_each(cpu, s)                                                                                     \
	for (int cpu = wq_cpuset_next((s), 0); cpu >= 0; cpu = wq_cpuset_next((s), (unsigned int)cpu + 1))

/*
 * Parse a CPU list ("0-3,8,10-20:2" as the kernel's bitmap_parselist) into s
 * (s is cleared first). Empty string gives the empty set.
 * 0, -EINVAL (syntax) or -ERANGE (CPU number too large).
 */
int wq_cpuset_parse_list(struct wq_cpuset *s, const char *str);
/*
 * Parse a hex mask, either the kernel's comma-grouped form (chunks of at most
 * 8 digits, most significant first) or one long hex number without commas.
 * Leading/trailing blanks are ignored. 0, -EINVAL or -ERANGE.
 */
int wq_cpuset_parse_hex(struct wq_cpuset *s, const char *str);

/* Format as a CPU list ("0-3,8"); "" for the empty set. malloc'ed, NULL on ENOMEM. */
char *wq_cpuset_format_list(const struct wq_cpuset *s);
/*
 * The CPU list of the set formatted last, kept for the next: rows in name
 * order share masks in runs, and at 8,192 CPUs a compare costs less than
 * formatting again. The text is the memo's (NULL: out of memory).
 */
struct wq_cpuset_memo {
	struct wq_cpuset *set;
	char *text;
};
const char *wq_cpuset_list_memo(struct wq_cpuset_memo *m, const struct wq_cpuset *s);
void wq_cpuset_memo_clear(struct wq_cpuset_memo *m);
/*
 * Format as the kernel's %*pb mask for nr_cpu_ids bits: lower-case hex,
 * 32-bit chunks most significant first separated by ',', full chunks
 * 8 digits, the top chunk as many digits as its bits need. Bits at or above
 * nr_cpu_ids are not printed. malloc'ed, NULL on ENOMEM.
 */
char *wq_cpuset_format_hex(const struct wq_cpuset *s, unsigned int nr_cpu_ids);

#endif
