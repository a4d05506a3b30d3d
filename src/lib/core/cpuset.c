// SPDX-License-Identifier: GPL-2.0-or-later
/* Growable CPU bitmaps: CPU-list and kernel hex parse and format, set algebra. */
#include "cpuset.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/macro.h"

#define NLONGS(n) (((n) + BPL - 1) / BPL)

static size_t min_z(size_t a, size_t b)
{
	return a < b ? a : b;
}

static size_t max_z(size_t a, size_t b)
{
	return a > b ? a : b;
}

struct wq_cpuset *wq_cpuset_new(void)
{
	return calloc(1, sizeof(struct wq_cpuset));
}

struct wq_cpuset *wq_cpuset_ref(struct wq_cpuset *s)
{
	s->refs++;
	return s;
}

struct wq_cpuset *wq_cpuset_hold(const struct wq_cpuset *s)
{
	/* a shared set is read only for all its holders: one more holder changes only the count */
	return s->refs ? wq_cpuset_ref((struct wq_cpuset *)s) : wq_cpuset_dup(s);
}

void wq_cpuset_free(struct wq_cpuset *s)
{
	if (!s)
		return;
	if (s->refs) {
		s->refs--;
		return;
	}
	free(s->bits);
	free(s);
}

void wq_cpuset_freep(struct wq_cpuset **s)
{
	wq_cpuset_free(*s);
}

/* Store words [lo, hi) of s (lo < hi <= the largest set's), keeping the words it holds. */
static int grow(struct wq_cpuset *s, size_t lo, size_t hi)
{
	size_t base = s->base, end = s->nbits / BPL, n = end - base, nb = lo, ne = hi, max = NLONGS(WQ_CPUSET_MAX_CPUS);
	unsigned long *w;

	if (n && lo >= base && hi <= end)
		return 0;
	if (n) {
		nb = min_z(lo, base);
		ne = max_z(hi, end);
		/*
		 * A set that grows again at least doubles, the way it grows: a
		 * counter that gathers 32 pods one by one would otherwise be
		 * reallocated 32 times.
		 */
		if (ne - nb < 2 * n) {
			if (hi > end)
				ne = min_z(max_z(ne, nb + 2 * n), max);
			if (ne - nb < 2 * n && lo < base)
				nb = ne > 2 * n ? min_z(nb, ne - 2 * n) : 0;
		}
	}
	w = realloc(s->bits, (ne - nb) * sizeof(unsigned long));
	if (!w)
		return -ENOMEM;
	if (n && base > nb) {
		memmove(w + (base - nb), w, n * sizeof(unsigned long));
		memset(w, 0, (base - nb) * sizeof(unsigned long));
	}
	if (ne > end || !n) {
		size_t from = n ? end - nb : 0;

		memset(w + from, 0, (ne - nb - from) * sizeof(unsigned long));
	}
	s->bits = w;
	s->base = (unsigned int)nb;
	s->nbits = (unsigned int)(ne * BPL);
	return 0;
}

struct wq_cpuset *wq_cpuset_dup(const struct wq_cpuset *s)
{
	struct wq_cpuset *d = wq_cpuset_new();

	if (d && wq_cpuset_copy(d, s) < 0) {
		wq_cpuset_free(d);
		return NULL;
	}
	return d;
}

int wq_cpuset_set_grow(struct wq_cpuset *s, unsigned int cpu)
{
	int r;

	if (cpu >= WQ_CPUSET_MAX_CPUS)
		return -ERANGE;
	r = grow(s, cpu / BPL, cpu / BPL + 1);
	if (r < 0)
		return r;
	WQ_CPUSET_WORD(s, cpu / BPL) |= 1UL << (cpu % BPL);
	wq_cpuset_span(s, (unsigned int)(cpu / BPL));
	return 0;
}

void wq_cpuset_clear(struct wq_cpuset *s, unsigned int cpu)
{
	if (WQ_CPUSET_HOLDS(s, cpu))
		WQ_CPUSET_WORD(s, cpu / BPL) &= ~(1UL << (cpu % BPL));
}

void wq_cpuset_zero(struct wq_cpuset *s)
{
	if (s->hi > s->lo)
		memset(&WQ_CPUSET_WORD(s, s->lo), 0, (s->hi - s->lo) * sizeof(unsigned long));
	s->lo = s->hi = 0;
}

/*
 * Without -mpopcnt (the x86-64 baseline has no POPCNT), __builtin_popcountl
 * is a call into libgcc per word; the bit-slicing sum inlines.
 */
static inline unsigned int popcount_word(unsigned long x)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
	return (unsigned int)__builtin_popcountl(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555UL);
	x = (x & 0x3333333333333333UL) + ((x >> 2) & 0x3333333333333333UL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
	return (unsigned int)((x * 0x0101010101010101UL) >> 56);
#endif
}

/* Most words of a mask are all ones or all zeros: those are counted without the sum. */
static inline unsigned int count_word(unsigned long x)
{
	if (x == ~0UL)
		return BPL;
	return x ? popcount_word(x) : 0;
}

unsigned int wq_cpuset_count(const struct wq_cpuset *s)
{
	unsigned int n = 0;

	for (size_t i = s->lo; i < s->hi; i++)
		n += count_word(WQ_CPUSET_WORD(s, i));
	return n;
}

unsigned int wq_cpuset_count_and(const struct wq_cpuset *a, const struct wq_cpuset *b)
{
	unsigned int n = 0;
	size_t hi = a->hi < b->hi ? a->hi : b->hi;

	for (size_t i = a->lo > b->lo ? a->lo : b->lo; i < hi; i++)
		n += count_word(WQ_CPUSET_WORD(a, i) & WQ_CPUSET_WORD(b, i));
	return n;
}

void wq_cpuset_store(const struct wq_cpuset *s, int16_t *map, unsigned int n, int16_t v)
{
	for (size_t w = s->lo; w < s->hi && w * BPL < n; w++) {
		unsigned long x = WQ_CPUSET_WORD(s, w);
		unsigned int base = (unsigned int)(w * BPL);

		if (x == ~0UL && base + BPL <= n) {
			int16_t *m = map + base;

			/* four at a time, which -O2 turns into vector stores */
			for (unsigned int i = 0; i < BPL; i += 4) {
				m[i] = v;
				m[i + 1] = v;
				m[i + 2] = v;
				m[i + 3] = v;
			}
			continue;
		}
		for (; x; x &= x - 1) {
			unsigned int c = base + (unsigned int)__builtin_ctzl(x);

			if (c < n)
				map[c] = v;
		}
	}
}

bool wq_cpuset_is_empty(const struct wq_cpuset *s)
{
	for (size_t i = s->lo; i < s->hi; i++)
		if (WQ_CPUSET_WORD(s, i))
			return false;
	return true;
}

int wq_cpuset_last(const struct wq_cpuset *s)
{
	for (size_t i = s->hi; i-- > s->lo;)
		if (WQ_CPUSET_WORD(s, i))
			return (int)(i * BPL + (BPL - 1 - (unsigned int)__builtin_clzl(WQ_CPUSET_WORD(s, i))));
	return -1;
}

static unsigned long word(const struct wq_cpuset *s, size_t i)
{
	return i >= s->lo && i < s->hi ? WQ_CPUSET_WORD(s, i) : 0;
}

void wq_cpuset_store_absent(const struct wq_cpuset *s, int16_t *map, unsigned int n, int16_t v)
{
	for (size_t w = 0; w * BPL < n; w++) {
		unsigned int base = (unsigned int)(w * BPL);
		unsigned long x = ~word(s, w);

		if (n - base < BPL)
			x &= (1UL << (n - base)) - 1;
		for (; x; x &= x - 1)
			map[base + (unsigned int)__builtin_ctzl(x)] = v;
	}
}

bool wq_cpuset_equal(const struct wq_cpuset *a, const struct wq_cpuset *b)
{
	if (a == b)
		return true;
	if (a->lo == b->lo && a->hi == b->hi)
		return a->hi == a->lo || !memcmp(&WQ_CPUSET_WORD(a, a->lo), &WQ_CPUSET_WORD(b, a->lo),
						 (a->hi - a->lo) * sizeof(unsigned long));
	/* each over its own bounds: either may hold zero words inside them */
	return wq_cpuset_subset(a, b) && wq_cpuset_subset(b, a);
}

uint64_t wq_cpuset_hash(const struct wq_cpuset *s, uint64_t h)
{
	/* FNV-1a over the non-zero words and their index: capacity does not matter */
	for (size_t i = s->lo; i < s->hi; i++)
		if (WQ_CPUSET_WORD(s, i))
			h = (h ^ (uint64_t)WQ_CPUSET_WORD(s, i) ^ ((uint64_t)i << 1)) * UINT64_C(0x100000001b3);
	return h;
}

bool wq_cpuset_subset(const struct wq_cpuset *a, const struct wq_cpuset *b)
{
	for (size_t i = a->lo; i < a->hi; i++)
		if (WQ_CPUSET_WORD(a, i) & ~word(b, i))
			return false;
	return true;
}

bool wq_cpuset_intersects(const struct wq_cpuset *a, const struct wq_cpuset *b)
{
	for (size_t i = max_z(a->lo, b->lo); i < min_z(a->hi, b->hi); i++)
		if (WQ_CPUSET_WORD(a, i) & WQ_CPUSET_WORD(b, i))
			return true;
	return false;
}

int wq_cpuset_copy(struct wq_cpuset *dst, const struct wq_cpuset *src)
{
	int r;

	if (dst == src)
		return 0;
	wq_cpuset_zero(dst);
	if (src->hi > src->lo) {
		/* room for src's words, not its capacity: a copy of a node's 256 CPUs is 32 bytes, not 1 KB */
		r = grow(dst, src->lo, src->hi);
		if (r < 0)
			return r;
		memcpy(&WQ_CPUSET_WORD(dst, src->lo), &WQ_CPUSET_WORD(src, src->lo),
		       (src->hi - src->lo) * sizeof(unsigned long));
	}
	dst->lo = src->lo;
	dst->hi = src->hi;
	return 0;
}

int wq_cpuset_or(struct wq_cpuset *dst, const struct wq_cpuset *src)
{
	int r;

	if (src->lo >= src->hi)
		return 0;
	r = grow(dst, src->lo, src->hi);
	if (r < 0)
		return r;
	for (size_t i = src->lo; i < src->hi; i++)
		WQ_CPUSET_WORD(dst, i) |= WQ_CPUSET_WORD(src, i);
	wq_cpuset_span(dst, src->lo);
	wq_cpuset_span(dst, src->hi - 1);
	return 0;
}

void wq_cpuset_and(struct wq_cpuset *dst, const struct wq_cpuset *src)
{
	size_t lo = max_z(dst->lo, src->lo), hi = min_z(dst->hi, src->hi);

	if (lo >= hi) {
		wq_cpuset_zero(dst);
		return;
	}
	/* dst's words outside src's bounds go; the bounds narrow to both */
	memset(&WQ_CPUSET_WORD(dst, dst->lo), 0, (lo - dst->lo) * sizeof(unsigned long));
	memset(&WQ_CPUSET_WORD(dst, hi), 0, (dst->hi - hi) * sizeof(unsigned long));
	for (size_t i = lo; i < hi; i++)
		WQ_CPUSET_WORD(dst, i) &= WQ_CPUSET_WORD(src, i);
	dst->lo = (unsigned int)lo;
	dst->hi = (unsigned int)hi;
}

void wq_cpuset_andnot(struct wq_cpuset *dst, const struct wq_cpuset *src)
{
	for (size_t i = max_z(dst->lo, src->lo); i < min_z(dst->hi, src->hi); i++)
		WQ_CPUSET_WORD(dst, i) &= ~WQ_CPUSET_WORD(src, i);
}

static int parse_uint(const char **p, unsigned int *out)
{
	unsigned long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v >= WQ_CPUSET_MAX_CPUS)
			return -ERANGE;
		s++;
	}
	*p = s;
	*out = (unsigned int)v;
	return 0;
}

int wq_cpuset_parse_list(struct wq_cpuset *s, const char *str)
{
	const char *p = str;
	int r;

	wq_cpuset_zero(s);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n')
		return 0;
	for (;;) {
		unsigned int a, b, stride = 1;

		r = parse_uint(&p, &a);
		if (r < 0)
			return r;
		b = a;
		if (*p == '-') {
			p++;
			r = parse_uint(&p, &b);
			if (r < 0)
				return r;
			if (b < a)
				return -EINVAL;
			if (*p == ':') {
				p++;
				r = parse_uint(&p, &stride);
				if (r < 0)
					return r;
				if (stride == 0)
					return -EINVAL;
			}
		}
		if (b >= WQ_CPUSET_MAX_CPUS)
			return -ERANGE;
		r = grow(s, a / BPL, b / BPL + 1);
		if (r < 0)
			return r;
		if (stride == 1) {
			/* a range a word at a time: "0-8191" is 128 stores, not 8,192 */
			for (unsigned int c = a; c <= b;) {
				unsigned int w = c / BPL, lo = c % BPL, hi = b / BPL == w ? b % BPL : BPL - 1;
				unsigned long m = (hi - lo + 1 == BPL) ? ~0UL : ((1UL << (hi - lo + 1)) - 1) << lo;

				WQ_CPUSET_WORD(s, w) |= m;
				wq_cpuset_span(s, w);
				c = w * BPL + hi + 1;
			}
		} else {
			for (unsigned int c = a; c <= b; c += stride) {
				WQ_CPUSET_WORD(s, c / BPL) |= 1UL << (c % BPL);
				wq_cpuset_span(s, (unsigned int)(c / BPL));
			}
		}
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		return *p ? -EINVAL : 0;
	}
}

/* A hex digit's value with bit 4 set; 0 for any other byte. */
static const unsigned char hexv[256] = {
    ['0'] = 0x10, ['1'] = 0x11, ['2'] = 0x12, ['3'] = 0x13, ['4'] = 0x14, ['5'] = 0x15, ['6'] = 0x16, ['7'] = 0x17,
    ['8'] = 0x18, ['9'] = 0x19, ['a'] = 0x1a, ['b'] = 0x1b, ['c'] = 0x1c, ['d'] = 0x1d, ['e'] = 0x1e, ['f'] = 0x1f,
    ['A'] = 0x1a, ['B'] = 0x1b, ['C'] = 0x1c, ['D'] = 0x1d, ['E'] = 0x1e, ['F'] = 0x1f,
};

static int hexval(int c)
{
	return hexv[(unsigned char)c] ? hexv[(unsigned char)c] & 0xf : -1;
}

/*
 * Eight hex digits at p (most significant first) as a word, a byte of the
 * string per byte of a 64-bit word: false unless all eight are digits. With
 * every byte below 0x80 and its top bit set before a subtraction, no borrow
 * crosses a byte, so each range test is exact.
 */
static inline __attribute__((always_inline)) bool hex8(const char *p, uint32_t *out)
{
	const uint64_t lo = UINT64_C(0x0101010101010101), top = lo * 0x80;
	uint64_t x, y, digit, letter, n;

	memcpy(&x, p, sizeof(x));
	/*
	 * Most chunks of a large machine's mask are all zeros (a node's CPUs
	 * are a few words of 256) or all ones: each byte the same, so in
	 * either byte order.
	 */
	if (x == lo * '0') {
		*out = 0;
		return true;
	}
	if (x == lo * 'f') {
		*out = UINT32_MAX;
		return true;
	}
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x); /* byte i of x is p[i] */
#endif
	if (x & top)
		return false;
	digit = ((x | top) - lo * '0') & ~((x | top) - lo * ('9' + 1)) & top;
	y = (x | lo * 0x20) | top; /* lower case */
	letter = (y - lo * 'a') & ~(y - lo * ('f' + 1)) & top;
	if ((digit | letter) != top)
		return false;
	n = (x & lo * 0x0f) + ((x >> 6) & lo) * 9; /* a letter has bit 6: its low nibble + 9 */
	n = (n << 4 | n >> 8) & UINT64_C(0x00ff00ff00ff00ff);
	n = (n << 8 | n >> 16) & UINT64_C(0x0000ffff0000ffff);
	*out = (uint32_t)(n << 16 | n >> 32);
	return true;
}

/* 32 bits v at bit (a multiple of 32), growing s; -ERANGE if a set one is past the last CPU, or -ENOMEM. */
static inline __attribute__((always_inline)) int put_word(struct wq_cpuset *s, unsigned int bit, uint32_t v)
{
	if (!v)
		return 0;
	if (bit + (unsigned int)(31 - __builtin_clz(v)) >= WQ_CPUSET_MAX_CPUS)
		return -ERANGE;
	if (!WQ_CPUSET_HOLDS(s, bit) && grow(s, bit / BPL, bit / BPL + 1) < 0)
		return -ENOMEM;
	WQ_CPUSET_WORD(s, bit / BPL) |= (unsigned long)v << (bit % BPL);
	wq_cpuset_span(s, (unsigned int)(bit / BPL));
	return 0;
}

int wq_cpuset_parse_hex(struct wq_cpuset *s, const char *str)
{
	static const char zero4[] = ",00000000,00000000,00000000,00000000";
	const char *start = str, *end;
	bool grouped = strchr(str, ',') != NULL;
	unsigned int bit = 0;
	int r;

	wq_cpuset_zero(s);
	while (*start == ' ' || *start == '\t')
		start++;
	end = start + strlen(start);
	while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n'))
		end--;
	if (end == start)
		return -EINVAL;
	/*
	 * From the least significant digit, eight digits (one 32-bit word) at
	 * a time: a mask of 8,192 CPUs has 2,048 digits. A chunk between commas
	 * stands for 32 bits even when short; without commas the whole string
	 * is one number. bit stays a multiple of 32 where a word is placed, so
	 * a word never straddles two longs.
	 */
	for (const char *p = end;;) {
		const char *q;
		uint32_t v;

		/* four zero chunks at once: a node's mask on 8,192 CPUs is 252 of 256 */
		while (grouped && p - start >= 36 && !memcmp(p - 36, zero4, 36)) {
			bit += 128;
			if (bit >= WQ_CPUSET_MAX_CPUS + 32)
				return -ERANGE;
			p -= 36;
		}
		/* the kernel's chunks: eight digits after a comma, a word each */
		while (grouped && p - start >= 9 && p[-9] == ',' && hex8(p - 8, &v)) {
			r = put_word(s, bit, v);
			if (r < 0)
				return r;
			bit += 32;
			if (bit >= WQ_CPUSET_MAX_CPUS + 32)
				return -ERANGE;
			p -= 9;
		}
		q = p;
		while (q > start && q[-1] != ',')
			q--;
		if (q == p)
			return -EINVAL; /* an empty chunk: leading, trailing or doubled comma */
		/* [q, p) is this chunk; its last eight digits first */
		for (const char *c = p; c > q;) {
			const char *w = (size_t)(c - q) > 8 ? c - 8 : q;

			if (grouped && c != p)
				return hexval((unsigned char)c[-1]) < 0 ? -EINVAL : -ERANGE; /* the kernel: EOVERFLOW */
			if (c - w < 8 || !hex8(w, &v)) {
				/* a table look-up a digit, one test a word: bit 4 survives only if all are digits */
				unsigned int all = 0x10;

				v = 0;
				for (const char *d = w; d < c; d++) {
					unsigned int h = hexv[(unsigned char)*d];

					all &= h;
					v = v << 4 | (h & 0xf);
				}
				if (!all)
					return -EINVAL;
			}
			r = put_word(s, bit, v);
			if (r < 0)
				return r;
			bit += 4 * (unsigned int)(c - w);
			if (bit >= WQ_CPUSET_MAX_CPUS + 32)
				return -ERANGE;
			c = w;
		}
		if (q == start)
			return 0;
		p = q - 1; /* the comma; a short chunk still stands for 32 bits */
		bit = (bit + 31) / 32 * 32;
	}
}

/* v in decimal at p (no NUL); its length */
static int put_uint(char *p, unsigned int v)
{
	char d[WQ_UDEC_MAX];
	const char *s = udec(d + sizeof(d) - 1, v);
	int n = (int)(d + WQ_UDEC_MAX - 1 - s);

	memcpy(p, s, (size_t)n);
	return n;
}

char *wq_cpuset_format_list(const struct wq_cpuset *s)
{
	size_t cap = 64, len = 0;
	char *buf = malloc(cap);
	int c;

	if (!buf)
		return NULL;
	buf[0] = '\0';
	c = wq_cpuset_next(s, 0);
	while (c >= 0) {
		int e = c;
		char tmp[32];
		int n;

		/* the run's end, a word at a time */
		for (unsigned int w = (unsigned int)c / BPL; w < s->hi; w++) {
			unsigned long inv = ~WQ_CPUSET_WORD(s, w);

			if (w == (unsigned int)c / BPL)
				inv &= ~0UL << (c % BPL);
			if (inv) {
				e = (int)(w * BPL + (unsigned int)__builtin_ctzl(inv)) - 1;
				break;
			}
			e = (int)((w + 1) * BPL) - 1;
		}
		/* "c" or "c-e", after a comma but for the first: without snprintf, once a workqueue */
		n = 0;
		if (len)
			tmp[n++] = ',';
		n += put_uint(tmp + n, (unsigned int)c);
		if (e != c) {
			tmp[n++] = '-';
			n += put_uint(tmp + n, (unsigned int)e);
		}
		tmp[n] = '\0';
		if (len + (size_t)n + 1 > cap) {
			char *nb;

			cap = (len + (size_t)n + 1) * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		memcpy(buf + len, tmp, (size_t)n + 1);
		len += (size_t)n;
		c = wq_cpuset_next(s, (unsigned int)e + 1);
	}
	return buf;
}

const char *wq_cpuset_list_memo(struct wq_cpuset_memo *m, const struct wq_cpuset *s)
{
	if (m->text && wq_cpuset_equal(m->set, s))
		return m->text;
	wq_cpuset_memo_clear(m);
	m->text = wq_cpuset_format_list(s);
	if (m->text && !(m->set = wq_cpuset_hold(s)))
		wq_cpuset_memo_clear(m);
	return m->text;
}

void wq_cpuset_memo_clear(struct wq_cpuset_memo *m)
{
	wq_cpuset_free(m->set);
	free(m->text);
	m->set = NULL;
	m->text = NULL;
}

/*
 * v as eight lower-case hex digits at p, most significant first: each nibble
 * spread to a byte of a 64-bit word, then '0' added, and 'a' - '9' - 1 more
 * where the nibble is over 9 (its byte + 6 reaches bit 4).
 */
static inline void hex8_put(char *p, uint32_t v)
{
	const uint64_t lo = UINT64_C(0x0101010101010101);
	uint64_t x = v, over;

	if (!v) {
		memcpy(p, "00000000", 8);
		return;
	}
	/* nibble 7 (the top) to byte 0, ..., nibble 0 to byte 7 */
	x = __builtin_bswap32(v);
	x = (x | x << 16) & UINT64_C(0x0000ffff0000ffff);
	x = (x | x << 8) & UINT64_C(0x00ff00ff00ff00ff);
	x = ((x >> 4) & lo * 0x0f) | ((x & lo * 0x0f) << 8);
	over = ((x + lo * 6) >> 4) & lo;
	x += lo * '0' + over * ('a' - '9' - 1);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	memcpy(p, &x, 8);
}

/* The 32 bits of s from bit (a multiple of 32), below nr_cpu_ids. */
static uint32_t chunk_at(const struct wq_cpuset *s, unsigned int bit, unsigned int nr_cpu_ids)
{
	unsigned int w = bit / BPL;
	uint32_t v;

	if (w < s->lo || w >= s->hi)
		return 0;
	v = (uint32_t)(WQ_CPUSET_WORD(s, w) >> (bit % BPL));
	if (nr_cpu_ids - bit < 32)
		v &= (UINT32_C(1) << (nr_cpu_ids - bit)) - 1;
	return v;
}

char *wq_cpuset_format_hex(const struct wq_cpuset *s, unsigned int nr_cpu_ids)
{
	static const char digits[] = "0123456789abcdef";
	unsigned int nchunks, topbits, topdigits;
	uint32_t top;
	char *buf, *p;

	if (nr_cpu_ids == 0)
		nr_cpu_ids = 1;
	nchunks = (nr_cpu_ids + 31) / 32;
	topbits = nr_cpu_ids % 32 ? nr_cpu_ids % 32 : 32;
	topdigits = (topbits + 3) / 4;
	buf = malloc((size_t)nchunks * 9 + 1);
	if (!buf)
		return NULL;
	/*
	 * The kernel's form: the top chunk with as many digits as its CPUs
	 * need, then ",%08x" a chunk. Each chunk is read from its word, not
	 * CPU by CPU: a mask of 8,192 CPUs is 256 chunks.
	 */
	p = buf;
	top = chunk_at(s, (nchunks - 1) * 32, nr_cpu_ids);
	for (unsigned int d = topdigits; d-- > 0;)
		*p++ = digits[(top >> (4 * d)) & 0xf];
	for (unsigned int i = nchunks - 1; i-- > 0;) {
		*p++ = ',';
		hex8_put(p, chunk_at(s, i * 32, nr_cpu_ids));
		p += 8;
	}
	*p = '\0';
	return buf;
}
