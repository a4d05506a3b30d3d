// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpuset.h"
#include "tap.h"

/* Expected masks are spelled out by hand from the %*pb rules (KERNEL.md §1). */
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

int main(void)
{
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
	return tap_done();
}
