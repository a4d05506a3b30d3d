// SPDX-License-Identifier: GPL-2.0-or-later
/* experiment's statistics: medians, quartiles, the verdict, the seeded shuffle. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of sorted s[lo..hi). */
static double median_of(const double *s, size_t lo, size_t hi)
{
	size_t n = hi - lo;

	return n % 2 ? s[lo + n / 2] : (s[lo + n / 2 - 1] + s[lo + n / 2]) / 2.0;
}

int wq_stat_compute(const double *v, size_t n, struct wq_stat *out)
{
	double *s, sum = 0;

	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -EINVAL;
	s = malloc(sizeof(*s) * n);
	if (!s)
		return -ENOMEM;
	memcpy(s, v, sizeof(*s) * n);
	qsort(s, n, sizeof(*s), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->mean = sum / (double)n;
	out->median = median_of(s, 0, n);
	if (n == 1) {
		out->q1 = out->q3 = s[0];
	} else {
		out->q1 = median_of(s, 0, n / 2);
		out->q3 = median_of(s, n - n / 2, n);
	}
	free(s);
	return 0;
}

double wq_stat_reldiff(double base, double v)
{
	if (base == 0)
		return NAN;
	return (v - base) / fabs(base) * 100.0;
}

bool wq_stat_overlap(const struct wq_stat *a, const struct wq_stat *b)
{
	return a->min <= b->max && b->min <= a->max;
}

enum wq_verdict wq_stat_verdict(const struct wq_stat *base, const struct wq_stat *now, bool higher_is_better,
				double threshold_pct)
{
	double pad = fabs(base->median) * threshold_pct / 100.0;

	if (now->median > base->max + pad)
		return higher_is_better ? WQ_VERDICT_BETTER : WQ_VERDICT_WORSE;
	if (now->median < base->min - pad)
		return higher_is_better ? WQ_VERDICT_WORSE : WQ_VERDICT_BETTER;
	return WQ_VERDICT_SAME;
}

const char *wq_verdict_name(enum wq_verdict v)
{
	switch (v) {
	case WQ_VERDICT_BETTER: return "improved";
	case WQ_VERDICT_WORSE: return "regressed";
	case WQ_VERDICT_SAME:
	default: return "within noise";
	}
}

uint64_t wq_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t wq_rng_below(uint64_t *state, uint64_t bound)
{
	/* reject the top partial range so that every residue is equally likely */
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound, x;

	do
		x = wq_rng_next(state);
	while (x >= limit);
	return x % bound;
}

void wq_shuffle(size_t *v, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)wq_rng_below(state, i), t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}
