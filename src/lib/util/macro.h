/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small macros shared by the library: cleanup attributes, ARRAY_SIZE, streq. */
#ifndef WQ_MACRO_H
#define WQ_MACRO_H

#include <dirent.h>
#include <stdint.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_closedir_ _cleanup_(closedirp)

#define streq(a, b) (strcmp((a), (b)) == 0)

/*
 * v in decimal, ending with a NUL at end (20 digits at most fit before it in
 * a WQ_UDEC_MAX buffer); returns its first digit. Without printf, for hot paths.
 */
#define WQ_UDEC_MAX 21
static inline char *udec(char *end, unsigned long v)
{
	char *p = end;

	*p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	return p;
}

/*
 * Strings and paths without the format engine (a thousand instructions a
 * snprintf, on paths built for every workqueue and CPU group): s appended
 * at pos, cut short as snprintf would, never past size; the new end.
 */
static inline size_t str_put(char *buf, size_t pos, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (pos >= size)
		return pos;
	if (n > size - 1 - pos)
		n = size - 1 - pos;
	memcpy(buf + pos, s, n);
	buf[pos + n] = '\0';
	return pos + n;
}

/* snprintf(dst, size, "%s", src) */
static inline void copy_str(char *dst, size_t size, const char *src)
{
	str_put(dst, 0, size, src);
}

static inline uint64_t load64(const char *s)
{
	uint64_t w;

	memcpy(&w, s, 8);
	return w;
}

/*
 * FNV-1a over 8-byte words in four lanes, 32 bytes a step (a cpumask text
 * is 2.3 KB at 8,192 CPUs). For look-ups that compare a hit in full: equal
 * texts have equal hashes, and a collision costs only a compare.
 */
static inline uint64_t wq_text_hash(const char *s, size_t n)
{
	const uint64_t p = UINT64_C(0x100000001b3);
	uint64_t h0 = UINT64_C(0xcbf29ce484222325), h1 = 1, h2 = 2, h3 = 3;
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		h0 = (h0 ^ load64(s + i)) * p;
		h1 = (h1 ^ load64(s + i + 8)) * p;
		h2 = (h2 ^ load64(s + i + 16)) * p;
		h3 = (h3 ^ load64(s + i + 24)) * p;
	}
	for (; i < n; i++)
		h0 = (h0 ^ (unsigned char)s[i]) * p;
	return ((h0 * p ^ h1) * p ^ h2) * p ^ h3;
}

/* Seconds on the monotonic clock: what the run loops of experiment, audit and sampler time with. */
static inline double wq_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
