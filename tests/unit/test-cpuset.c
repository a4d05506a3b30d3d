// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU sets: list and kernel hex parsing, formatting and set algebra; expected sets written by hand. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/cpuset.h"
#include "tap.h"

/* Expected masks are spelled out by hand from the %*pb rules (doc/kernel.md §1). */
static char *repeat_chunks(const char *top, const char *chunk, int n)
{
	size_t len = strlen(top) + (size_t)n * (strlen(chunk) + 1) + 1;
	char *s = malloc(len), *p = s;

	p += sprintf(p, "%s", top);
	for (int i = 0; i < n; i++)
		p += sprintf(p, ",%s", chunk);
	return s;
}

static void hex_all(unsigned int nr, const char *want)
{
	struct wq_cpuset *s = wq_cpuset_new();
	char *h, *l, list[32];

	snprintf(list, sizeof(list), "0-%u", nr - 1);
	ok(wq_cpuset_parse_list(s, list) == 0, "parse %s", list);
	h = wq_cpuset_format_hex(s, nr);
	is_str(h, want, "all of %u CPUs as the kernel's mask", nr);
	/* and back */
	ok(wq_cpuset_parse_hex(s, h) == 0 && wq_cpuset_count(s) == nr, "%u CPUs parse back from hex", nr);
	l = wq_cpuset_format_list(s);
	is_str(l, list, "%u CPUs list round trip", nr);
	free(h);
	free(l);
	wq_cpuset_free(s);
}

static void list_rt(const char *in, const char *want)
{
	struct wq_cpuset *s = wq_cpuset_new();
	char *l;

	ok(wq_cpuset_parse_list(s, in) == 0, "parse list '%s'", in);
	l = wq_cpuset_format_list(s);
	is_str(l, want, "list '%s' formats as '%s'", in, want);
	free(l);
	wq_cpuset_free(s);
}

static void bad_list(const char *in, int err)
{
	struct wq_cpuset *s = wq_cpuset_new();

	ok(wq_cpuset_parse_list(s, in) == err, "list '%s' rejected with %d", in, err);
	wq_cpuset_free(s);
}

static void bad_hex(const char *in, int err)
{
	struct wq_cpuset *s = wq_cpuset_new();

	ok(wq_cpuset_parse_hex(s, in) == err, "hex '%s' rejected with %d", in, err);
	wq_cpuset_free(s);
}

static void hex_in(const char *in, const char *want_list)
{
	struct wq_cpuset *s = wq_cpuset_new();
	char *l;

	ok(wq_cpuset_parse_hex(s, in) == 0, "parse hex '%s'", in);
	l = wq_cpuset_format_list(s);
	is_str(l, want_list, "hex '%s' is CPUs '%s'", in, want_list);
	free(l);
	wq_cpuset_free(s);
}

/*
 * The set operations against a plain array of flags, one per CPU, over
 * random sequences of operations: the word bounds each set keeps (only the
 * words that may hold CPUs are visited) must never change an answer.
 */
#define MODEL_CPUS 8192
static uint64_t model_rng = 0x9e3779b97f4a7c15ULL;

static unsigned int rnd(unsigned int n)
{
	model_rng ^= model_rng << 13;
	model_rng ^= model_rng >> 7;
	model_rng ^= model_rng << 17;
	return (unsigned int)(model_rng % n);
}

static void model_fill(struct wq_cpuset *s, unsigned char *m)
{
	/* a run, a few lone CPUs, or a clear, somewhere in 8,192 CPUs */
	unsigned int a = rnd(MODEL_CPUS), len = rnd(4) ? rnd(300) : rnd(MODEL_CPUS - a);

	switch (rnd(4)) {
	case 0:
		for (unsigned int c = a; c < a + len && c < MODEL_CPUS; c++) {
			wq_cpuset_set(s, c);
			m[c] = 1;
		}
		break;
	case 1:
		for (int i = 0; i < 5; i++) {
			unsigned int c = rnd(MODEL_CPUS);

			wq_cpuset_set(s, c);
			m[c] = 1;
		}
		break;
	case 2:
		for (unsigned int c = a; c < a + len && c < MODEL_CPUS; c++) {
			wq_cpuset_clear(s, c);
			m[c] = 0;
		}
		break;
	default: {
		char list[64];

		snprintf(list, sizeof(list), "%u-%u", a, a + len < MODEL_CPUS ? a + len : MODEL_CPUS - 1);
		wq_cpuset_parse_list(s, list);
		memset(m, 0, MODEL_CPUS);
		for (unsigned int c = a; c <= a + len && c < MODEL_CPUS; c++)
			m[c] = 1;
	}
	}
}

static bool model_same(const struct wq_cpuset *s, const unsigned char *m)
{
	unsigned int n = 0;
	int next = wq_cpuset_next(s, 0), last = -1;

	for (unsigned int c = 0; c < MODEL_CPUS; c++) {
		if (wq_cpuset_test(s, c) != (bool)m[c])
			return false;
		if (m[c]) {
			if (next != (int)c)
				return false;
			next = wq_cpuset_next(s, c + 1);
			n++;
			last = (int)c;
		}
	}
	return next == -1 && wq_cpuset_count(s) == n && wq_cpuset_is_empty(s) == (n == 0) && wq_cpuset_last(s) == last;
}

static void model_ops(void)
{
	static unsigned char ma[MODEL_CPUS], mb[MODEL_CPUS];
	struct wq_cpuset *a = wq_cpuset_new(), *b = wq_cpuset_new();
	int bad = 0, rounds = 3000;

	for (int i = 0; i < rounds && !bad; i++) {
		bool sub = true, sup = true, meet = false, eq = true;
		unsigned int both = 0;
		int op = (int)rnd(7);

		/* now and then a new, empty set: its words are stored from the first it gets, then grow both ways */
		if (!rnd(8)) {
			wq_cpuset_free(a);
			a = wq_cpuset_new();
			memset(ma, 0, MODEL_CPUS);
		}
		if (!rnd(8)) {
			wq_cpuset_free(b);
			b = wq_cpuset_new();
			memset(mb, 0, MODEL_CPUS);
		}
		model_fill(a, ma);
		model_fill(b, mb);
		for (int c = 0; c < MODEL_CPUS; c++) {
			sub &= !ma[c] || mb[c];
			sup &= !mb[c] || ma[c];
			meet |= ma[c] && mb[c];
			both += ma[c] && mb[c];
			eq &= ma[c] == mb[c];
		}
		if (wq_cpuset_subset(a, b) != sub || wq_cpuset_subset(b, a) != sup ||
		    wq_cpuset_intersects(a, b) != meet || wq_cpuset_count_and(a, b) != both ||
		    wq_cpuset_equal(a, b) != eq || (eq && wq_cpuset_hash(a, 7) != wq_cpuset_hash(b, 7))) {
			bad = i + 1;
			break;
		}
		for (int c = 0; c < MODEL_CPUS; c++) {
			switch (op) {
			case 0: ma[c] &= mb[c]; break;
			case 1: ma[c] |= mb[c]; break;
			case 2: ma[c] &= !mb[c]; break;
			case 3: ma[c] = mb[c]; break;
			case 4: ma[c] = 0; break;
			default: break;
			}
		}
		switch (op) {
		case 0: wq_cpuset_and(a, b); break;
		case 1: wq_cpuset_or(a, b); break;
		case 2: wq_cpuset_andnot(a, b); break;
		case 3: wq_cpuset_copy(a, b); break;
		case 4: wq_cpuset_zero(a); break;
		case 5: {
			/* through the kernel's hex form and back */
			char *h = wq_cpuset_format_hex(a, MODEL_CPUS);

			if (!h || wq_cpuset_parse_hex(a, h) != 0)
				bad = i + 1;
			free(h);
			break;
		}
		default: {
			char *l = wq_cpuset_format_list(a);

			if (!l || wq_cpuset_parse_list(a, l) != 0)
				bad = i + 1;
			free(l);
		}
		}
		if (!model_same(a, ma) || !model_same(b, mb))
			bad = i + 1;
	}
	ok(!bad, "%d rounds of random set operations agree with one flag per CPU (first disagreement: %d)", rounds,
	   bad);
	wq_cpuset_free(a);
	wq_cpuset_free(b);
}

/* A set stores the words from its lowest CPU's, and grows down as well as up, keeping its CPUs. */
static void storage(void)
{
	struct wq_cpuset *s = wq_cpuset_new(), *d = wq_cpuset_new();
	char *l;

	wq_cpuset_parse_list(s, "7936-8191");
	ok(s->base == 7936 / BPL && s->nbits == 8192, "CPUs 7936-8191: words %u-%u stored (%zu bytes)", s->base,
	   (unsigned int)(s->nbits / BPL - 1), (s->nbits / BPL - s->base) * sizeof(unsigned long));
	wq_cpuset_set(s, 5);
	l = wq_cpuset_format_list(s);
	ok(l && !strcmp(l, "5,7936-8191") && s->base == 0, "CPU 5 added below: %s, from word %u", l ? l : "?", s->base);
	free(l);
	wq_cpuset_parse_list(d, "4000-4100");
	wq_cpuset_or(d, s);
	l = wq_cpuset_format_list(d);
	ok(l && !strcmp(l, "5,4000-4100,7936-8191"), "or of sets stored from different words: %s", l ? l : "?");
	free(l);
	wq_cpuset_free(s);
	s = wq_cpuset_new();
	wq_cpuset_parse_list(s, "4032-4095");
	ok(wq_cpuset_subset(s, d) && !wq_cpuset_subset(d, s) && wq_cpuset_count_and(s, d) == 64,
	   "a one-word set against a wider one: subset, count of both");
	wq_cpuset_copy(d, s);
	ok(wq_cpuset_equal(d, s) && d->nbits / BPL - d->base >= 1 && wq_cpuset_count(d) == 64,
	   "a copy into a set that stores more words is equal");
	wq_cpuset_set(s, 8191);
	wq_cpuset_set(s, 0);
	ok(wq_cpuset_count(s) == 66 && wq_cpuset_test(s, 0) && wq_cpuset_test(s, 8191) && wq_cpuset_test(s, 4032) &&
	       !wq_cpuset_test(s, 4031),
	   "grown up, then down, to the whole range: 66 CPUs");
	wq_cpuset_free(s);
	wq_cpuset_free(d);

	/*
	 * The kernel's text of node 31's mask on 8,192 CPUs (32 nodes of 256):
	 * 256 chunks of 8 digits, the first 8 (most significant) all ones. Its
	 * CPUs 7936-8191 are words 124-127: 4 words stored, not the 128 the
	 * text's length would take.
	 */
	{
		char text[256 * 9];

		for (int i = 0; i < 256; i++)
			memcpy(text + 9 * i, i < 8 ? "ffffffff," : "00000000,", 9);
		text[sizeof(text) - 1] = '\0';
		s = wq_cpuset_new();
		ok(wq_cpuset_parse_hex(s, text) == 0 && wq_cpuset_count(s) == 256 && wq_cpuset_test(s, 7936) &&
		       !wq_cpuset_test(s, 7935) && s->base == 124 && s->nbits / BPL - s->base == 4,
		   "node 31's mask of 8,192 CPUs parsed from its text: words %u-%u stored", s->base,
		   (unsigned int)(s->nbits / BPL - 1));
		for (int i = 0; i < 256; i++)
			memcpy(text + 9 * i, "ffffffff", 8);
		ok(wq_cpuset_parse_hex(s, text) == 0 && wq_cpuset_count(s) == 8192 && s->base == 0 && s->nbits == 8192,
		   "then every CPU: all 128 words, parsed into the same set");
		wq_cpuset_free(s);
	}
}

/* A CPU-to-value table: store() fills the CPUs of a set, store_absent() the others below n, nothing past n. */
static void tables(void)
{
	struct wq_cpuset *s = wq_cpuset_new(), *all = wq_cpuset_new(), *b = wq_cpuset_new();
	int16_t map[264];
	int good = 0;

	for (int i = 0; i < 264; i++)
		map[i] = 99;
	wq_cpuset_parse_list(s, "3,64-127,190,250");
	wq_cpuset_store(s, map, 200, 7);
	wq_cpuset_store_absent(s, map, 200, -1);
	for (int c = 0; c < 200; c++)
		good += map[c] == (c == 3 || (c >= 64 && c <= 127) || c == 190 ? 7 : -1);
	ok(good == 200, "CPUs of the set 7, the other 192 of 200 -1 (%d right)", good);
	good = 0;
	for (int c = 200; c < 264; c++)
		good += map[c] == 99;
	ok(good == 64, "nothing at or past n = 200, CPU 250 of the set included");
	wq_cpuset_store_absent(s, map, 64, 5);
	ok(map[3] == 7 && map[0] == 5 && map[63] == 5 && map[64] == 7 && map[65] == 7,
	   "n = 64: a whole last word, and no word past it");
	wq_cpuset_zero(s);
	wq_cpuset_store_absent(s, map, 1, 4);
	ok(map[0] == 4 && map[1] == 5, "an empty set and n = 1: CPU 0 alone");

	/* counts of whole words (all ones, all zeros) and of mixed ones */
	wq_cpuset_parse_list(all, "0-8191");
	ok(wq_cpuset_count(all) == 8192, "8,192 CPUs counted");
	wq_cpuset_clear(all, 5);
	wq_cpuset_clear(all, 8191);
	ok(wq_cpuset_count(all) == 8190, "two cleared: 8,190");
	wq_cpuset_parse_list(b, "0-63,100,4000-4159");
	ok(wq_cpuset_count_and(all, b) == 63 + 1 + 160, "and: a word less CPU 5, one CPU, 2.5 words");
	{
		/* int16_t tables hold the largest pod index of 8,192 CPUs and -1 */
		static int16_t big[8192];

		wq_cpuset_store(b, big, 8192, 8191);
		wq_cpuset_store_absent(b, big, 8192, -1);
		ok(big[0] == 8191 && big[4159] == 8191 && big[64] == -1 && big[8191] == -1,
		   "8,192-entry table: pod 8191 on the set's CPUs, -1 elsewhere");
	}
	wq_cpuset_free(s);
	wq_cpuset_free(all);
	wq_cpuset_free(b);
}

int main(void)
{
	tables();
	storage();
	char *w;

	hex_all(2, "3");
	hex_all(33, "1,ffffffff");
	hex_all(40, "ff,ffffffff");
	hex_all(64, "ffffffff,ffffffff");
	hex_all(96, "ffffffff,ffffffff,ffffffff");
	w = repeat_chunks("ffffffff", "ffffffff", 31);
	hex_all(1024, w);
	free(w);
	w = repeat_chunks("ffffffff", "ffffffff", 255);
	hex_all(8192, w);
	free(w);

	/* single high CPU of 8192: top chunk 80000000, then 255 zero chunks */
	{
		struct wq_cpuset *s = wq_cpuset_new();
		char *h;

		wq_cpuset_set(s, 8191);
		h = wq_cpuset_format_hex(s, 8192);
		w = repeat_chunks("80000000", "00000000", 255);
		is_str(h, w, "CPU 8191 of 8192");
		free(h);
		free(w);
		h = wq_cpuset_format_hex(s, 33); /* bits beyond nr_cpu_ids are not printed */
		is_str(h, "0,00000000", "CPU 8191 outside 33 CPUs prints nothing");
		free(h);
		wq_cpuset_free(s);
	}
	{
		struct wq_cpuset *s = wq_cpuset_new();
		char *h;

		wq_cpuset_set(s, 0);
		h = wq_cpuset_format_hex(s, 33);
		is_str(h, "0,00000001", "CPU 0 of 33 keeps the zero top chunk");
		free(h);
		wq_cpuset_free(s);
	}
	{
		/* 40 CPUs: a top chunk of 8 bits within the first word; CPUs 40-63 of that word are cut off */
		struct wq_cpuset *s = wq_cpuset_new();
		char *h;

		wq_cpuset_set(s, 4);
		wq_cpuset_set(s, 35);
		wq_cpuset_set(s, 39);
		wq_cpuset_set(s, 45);
		wq_cpuset_set(s, 70);
		h = wq_cpuset_format_hex(s, 40);
		is_str(h, "88,00000010", "CPUs 4, 35 and 39 of 40 (45 and 70 are past the end)");
		free(h);
		h = wq_cpuset_format_hex(s, 96);
		is_str(h, "00000040,00002088,00000010", "the same CPUs of 96");
		free(h);
		/* every digit, in both halves of a word */
		wq_cpuset_parse_hex(s, "ffffffff,fedcba98,76543210,0000a5f0");
		h = wq_cpuset_format_hex(s, 128);
		is_str(h, "ffffffff,fedcba98,76543210,0000a5f0", "every hex digit prints back");
		free(h);
		wq_cpuset_free(s);
	}

	list_rt("0-3,8", "0-3,8");
	list_rt("8,0-3", "0-3,8");
	list_rt("1,2,3", "1-3");
	list_rt("0-62:2", "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62");
	list_rt("", "");
	{
		struct wq_cpuset *s = wq_cpuset_new();
		char *l;

		ok(wq_cpuset_parse_list(s, " 5\n") == 0, "list with blanks and a newline parses");
		l = wq_cpuset_format_list(s);
		is_str(l, "5", "blanks and newline ignored");
		free(l);
		wq_cpuset_free(s);
	}
	list_rt("4095", "4095");

	bad_list("abc", -EINVAL);
	bad_list("3-1", -EINVAL);
	bad_list("1,,2", -EINVAL);
	bad_list("1-", -EINVAL);
	bad_list("-1", -EINVAL);
	bad_list("0-7:0", -EINVAL);
	bad_list("1 2", -EINVAL);
	bad_list("99999999", -ERANGE);

	hex_in("3", "0-1");
	hex_in("0000,55555555,55555555",
	       "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62");
	hex_in("f,1", "0,32-35");
	hex_in("00000f00", "8-11");
	hex_in("ffffffffff", "0-39"); /* one long number without commas */
	hex_in("FF", "0-7");
	bad_hex("", -EINVAL);
	bad_hex("xyz", -EINVAL);
	bad_hex("1,", -EINVAL);
	bad_hex(",1", -EINVAL);
	bad_hex("123456789,0", -ERANGE); /* a chunk over 32 bits: the kernel's EOVERFLOW */
	/* the word-at-a-time parse: short chunks in the middle, long numbers, the last CPU */
	hex_in("1,0,1", "0,64");
	hex_in("80000000,00000001", "0,63");
	hex_in("100000000", "32"); /* nine digits without commas: one number */
	hex_in("10000000000000000", "64");
	hex_in("aBcD", "0,2-3,6-9,11,13,15"); /* d=1101 c=1100 b=1011 a=1010 */
	bad_hex("1,,1", -EINVAL);
	bad_hex("x23456789,0", -EINVAL); /* a bad digit is found before the ninth digit counts */
	bad_hex("12345678g", -EINVAL);
	/*
	 * Eight digits are read as one word: every digit and letter in every
	 * place of the word, each byte next to a digit or letter refused in
	 * each place, and chunks that hold commas inside the last eight bytes.
	 */
	/* by hand: F=1111 E=1110 D=1101 C=1100 B=1011 A=1010 9=1001 8=1000, the low digit first */
	hex_in("0123cdef,89ABCDEF", "0-3,5-8,10-11,14-17,19,21,23-24,27,31-35,37-40,42-43,46-49,53,56");
	hex_in("FEDCBA98,76543210", "4,9,12-13,18,20,22,25-26,28-30,35-36,39,41,43-45,47,50-52,54-55,57-63");
	hex_in("f,ff,fff", "0-11,32-39,64-67");
	hex_in("ff,0000000f", "0-3,32-39");
	/* chunks of all zeros or all ones take a shortcut; near misses and upper case do not */
	hex_in("ffffffff,00000000,FFFFFFFF,ffffffff", "0-63,96-127");
	hex_in("0000000f,ffffffff", "0-35");
	hex_in("fffffff0,7fffffff,00000001", "0,32-62,68-95");
	hex_in("00000000ffffffff", "0-31"); /* one number without commas */
	bad_hex("ffffffff,0000000g", -EINVAL);
	bad_hex("0000000g,ffffffff", -EINVAL);
	for (int place = 0; place < 8; place++) {
		static const char bad[] = {'/', ':', '@', 'G', '`', 'g', (char)0x80, (char)0xb0, (char)0xe6};

		for (size_t b = 0; b < sizeof(bad); b++) {
			struct wq_cpuset *s = wq_cpuset_new();
			char in[32] = "1,00000000";

			in[2 + place] = bad[b];
			ok(wq_cpuset_parse_hex(s, in) == -EINVAL, "hex '1,0..0' with byte 0x%02x at digit %d refused",
			   (unsigned char)bad[b], place);
			wq_cpuset_free(s);
		}
	}
	{
		/* CPU 8191 is the last one a set holds; 8192 is out of range (WQ_CPUSET_MAX_CPUS) */
		char top[2400], over[2410];
		size_t n = 0;

		n += (size_t)snprintf(top + n, sizeof(top) - n, "80000000");
		for (int i = 1; i < 256; i++)
			n += (size_t)snprintf(top + n, sizeof(top) - n, ",00000000");
		hex_in(top, "8191");
		snprintf(over, sizeof(over), "1,%s", top);
		bad_hex(over, -ERANGE);
		snprintf(over, sizeof(over), "0,%s", top);
		hex_in(over, "8191"); /* a zero chunk past the end passes: set bits are what is checked */
		snprintf(over, sizeof(over), "ffffffff,%s", top);
		bad_hex(over, -ERANGE); /* a chunk of all ones past the end */
	}

	{
		/* a shared set: each holder frees it, and it lives until the last one does (ASan: no leak, no use after free) */
		struct wq_cpuset *a = wq_cpuset_new(), *b;

		wq_cpuset_set(a, 5);
		b = wq_cpuset_ref(wq_cpuset_ref(a));
		ok(b == a, "a reference is the same set");
		wq_cpuset_free(a);
		wq_cpuset_free(a);
		ok(wq_cpuset_test(b, 5) && wq_cpuset_count(b) == 1, "a shared set outlives two of its three holders");
		{
			/* hold: a copy of a set of one holder (which may change it), the set itself once shared */
			struct wq_cpuset *c = wq_cpuset_hold(b), *d;

			ok(c != b && wq_cpuset_equal(c, b), "holding an unshared set copies it");
			d = wq_cpuset_hold(wq_cpuset_ref(b));
			ok(d == b && b->refs == 2, "holding a shared set adds a holder");
			wq_cpuset_free(d);
			wq_cpuset_free(b);
			wq_cpuset_free(c);
		}
		wq_cpuset_free(b);
	}

	/* set algebra */
	{
		struct wq_cpuset *a = wq_cpuset_new(), *b = wq_cpuset_new();

		wq_cpuset_parse_list(a, "0-7");
		wq_cpuset_parse_list(b, "4-11");
		ok(wq_cpuset_intersects(a, b), "0-7 meets 4-11");
		wq_cpuset_and(a, b);
		w = wq_cpuset_format_list(a);
		is_str(w, "4-7", "0-7 & 4-11");
		free(w);
		ok(wq_cpuset_subset(a, b), "4-7 inside 4-11");
		wq_cpuset_andnot(b, a);
		w = wq_cpuset_format_list(b);
		is_str(w, "8-11", "4-11 minus 4-7");
		free(w);
		wq_cpuset_parse_list(a, "8-11");
		ok(wq_cpuset_equal(a, b), "equal as bitmaps");
		wq_cpuset_set(a, 4000);
		wq_cpuset_clear(a, 4000);
		ok(wq_cpuset_equal(a, b), "equal as bitmaps whatever the capacity");
		ok(wq_cpuset_last(a) == 11 && wq_cpuset_count(a) == 4, "last and count");
		wq_cpuset_free(a);
		wq_cpuset_free(b);
	}

	/*
	 * The word-at-a-time paths (issue 15): ranges and runs that start,
	 * end or cross 64-bit words, checked bit by bit against the CPU
	 * numbers they must hold.
	 */
	{
		static const unsigned int cases[][2] = {{0, 0},	   {0, 63},	 {0, 64},     {1, 62},
							{63, 64},  {60, 130},	 {64, 127},   {100, 8191},
							{0, 8191}, {4095, 4096}, {8128, 8191}};
		struct wq_cpuset *a = wq_cpuset_new();
		int good = 0;

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			char in[32], out[32];
			bool exact = true;

			snprintf(in, sizeof(in), "%u-%u", cases[i][0], cases[i][1]);
			if (cases[i][0] == cases[i][1])
				snprintf(out, sizeof(out), "%u", cases[i][0]);
			else
				snprintf(out, sizeof(out), "%s", in);
			wq_cpuset_parse_list(a, in);
			for (unsigned int c = 0; c < 8192; c++)
				exact = exact && wq_cpuset_test(a, c) == (c >= cases[i][0] && c <= cases[i][1]);
			w = wq_cpuset_format_list(a);
			good += exact && w && !strcmp(w, out) && wq_cpuset_count(a) == cases[i][1] - cases[i][0] + 1;
			if (!exact || !w || strcmp(w, out))
				printf("#   range %s: parsed exactly %d, formatted %s\n", in, exact, w ? w : "(null)");
			free(w);
		}
		ok(good == (int)(sizeof(cases) / sizeof(cases[0])),
		   "ranges across word edges parse and format exactly");
		ok(wq_cpuset_parse_list(a, "0-8192") == -ERANGE, "a range past 8,191 is refused");
		wq_cpuset_parse_list(a, "1-200:3");
		{
			bool exact = true;

			for (unsigned int c = 0; c < 256; c++)
				exact = exact && wq_cpuset_test(a, c) == (c >= 1 && c <= 200 && (c - 1) % 3 == 0);
			ok(exact && wq_cpuset_count(a) == 67, "strided range 1-200:3 holds 67 CPUs");
		}
		/* the kernel's 8,192-bit mask: 255 full chunks of ffffffff and a top one */
		{
			char mask[8192 / 32 * 9];
			size_t len = 0;

			for (int i = 0; i < 256; i++)
				len += (size_t)snprintf(mask + len, sizeof(mask) - len, "%s%s", i ? "," : "",
							i == 0	   ? "80000000"
							: i == 255 ? "00000001"
								   : "00000000");
			ok(wq_cpuset_parse_hex(a, mask) == 0 && wq_cpuset_count(a) == 2 && wq_cpuset_test(a, 0) &&
			       wq_cpuset_test(a, 8191),
			   "an 8,192-bit mask with CPUs 0 and 8191");
		}
		wq_cpuset_free(a);
	}

	/* equal sets hash alike whatever their capacity; different ones (here) do not */
	{
		struct wq_cpuset *a = wq_cpuset_new(), *b = wq_cpuset_new();

		wq_cpuset_parse_list(a, "0-15");
		wq_cpuset_parse_list(b, "0-15");
		wq_cpuset_set(b, 5000);
		wq_cpuset_clear(b, 5000);
		ok(wq_cpuset_hash(a, 1) == wq_cpuset_hash(b, 1), "hash ignores capacity");
		wq_cpuset_parse_list(b, "0-14");
		ok(wq_cpuset_hash(a, 1) != wq_cpuset_hash(b, 1), "0-15 and 0-14 hash apart");
		wq_cpuset_free(a);
		wq_cpuset_free(b);
	}
	model_ops();
	return tap_done();
}
