// SPDX-License-Identifier: GPL-2.0-or-later
/* experiment's statistics: medians, quartiles, the rank test and the change's interval, the seeded shuffle. */
#define _GNU_SOURCE /* M_PI, M_SQRT2 */
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

/* the exact test's limit: counts of U up to 50 x 50 = 2,500 fit a double exactly */
#define EXACT_MAX 50

/*
 * The counts of U = #(a > b) over the C(n+m, n) orders of n a's and m b's,
 * into freq[0 .. n*m] (the largest element is an a, above all m b's, or a
 * b, above none: f(i, j)[u] = f(i-1, j)[u-j] + f(i, j-1)[u]). -ENOMEM.
 */
static int mwu_counts(size_t n, size_t m, double *freq)
{
	size_t len = n * m + 1;
	double *prev = calloc((m + 1) * len, sizeof(double)), *cur = calloc((m + 1) * len, sizeof(double)), *t;

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -ENOMEM;
	}
	for (size_t j = 0; j <= m; j++)
		prev[j * len] = 1;
	for (size_t i = 1; i <= n; i++) {
		memset(cur, 0, (m + 1) * len * sizeof(double));
		cur[0] = 1;
		for (size_t j = 1; j <= m; j++)
			for (size_t u = 0; u <= i * j; u++)
				cur[j * len + u] = (u >= j ? prev[j * len + u - j] : 0) + cur[(j - 1) * len + u];
		t = prev;
		prev = cur;
		cur = t;
	}
	memcpy(freq, prev + m * len, len * sizeof(double));
	free(prev);
	free(cur);
	return 0;
}

/* U (#(a > b) + half the ties) and whether any value is shared */
static double u_stat(const double *a, size_t n, const double *b, size_t m, bool *ties)
{
	double u = 0;

	*ties = false;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++) {
			if (a[i] > b[j])
				u += 1;
			else if (a[i] == b[j])
				u += 0.5, *ties = true;
		}
	for (size_t i = 0; i < n && !*ties; i++)
		for (size_t k = i + 1; k < n && !*ties; k++)
			*ties = a[i] == a[k];
	for (size_t j = 0; j < m && !*ties; j++)
		for (size_t k = j + 1; k < m && !*ties; k++)
			*ties = b[j] == b[k];
	return u;
}

/* sum of t^3 - t over the groups of equal values of a and b together */
static double tie_sum(const double *a, size_t n, const double *b, size_t m)
{
	size_t N = n + m, t;
	double *all = malloc(N * sizeof(double)), sum = 0;

	if (!all)
		return 0;
	memcpy(all, a, n * sizeof(double));
	memcpy(all + n, b, m * sizeof(double));
	qsort(all, N, sizeof(double), cmp_double);
	for (size_t i = 0; i < N; i += t) {
		for (t = 1; i + t < N && all[i + t] == all[i]; t++)
			;
		sum += (double)t * t * t - (double)t;
	}
	free(all);
	return sum;
}

static bool exact_ok(size_t n, size_t m, bool ties)
{
	return !ties && n <= EXACT_MAX && m <= EXACT_MAX;
}

/*
 * The exact distribution of U for n and m runs (n*m + 1 counts, malloc'ed),
 * or NULL where the normal approximation serves instead (ties, more than
 * EXACT_MAX a side, no memory). The p-value and the interval share it.
 */
static double *exact_counts(size_t n, size_t m, bool ties)
{
	double *f;

	if (!exact_ok(n, m, ties) || !(f = malloc((n * m + 1) * sizeof(double))))
		return NULL;
	if (mwu_counts(n, m, f) < 0) {
		free(f);
		return NULL;
	}
	return f;
}

/* the two-sided p of U = u: from the exact counts f, else the normal approximation */
static double mwu_p(const double *a, size_t n, const double *b, size_t m, double u, const double *f)
{
	double nm = (double)n * (double)m, p;

	if (f) {
		size_t len = n * m + 1, k = (size_t)u;
		double total = 0, lo = 0, hi = 0;

		for (size_t i = 0; i < len; i++) {
			total += f[i];
			if (i <= k)
				lo += f[i];
			if (i >= k)
				hi += f[i];
		}
		p = 2 * fmin(lo, hi) / total;
		return p > 1 ? 1 : p;
	}
	{
		double N = (double)(n + m), var = nm / 12.0 * ((N + 1) - tie_sum(a, n, b, m) / (N * (N - 1))), z;

		if (var <= 0)
			return 1;
		z = (fabs(u - nm / 2) - 0.5) / sqrt(var);
		if (z < 0)
			z = 0;
		p = erfc(z / M_SQRT2);
		/*
		 * No order of the runs is rarer than one of C(n+m, n): with ties
		 * (3 equal runs against 3 others) the approximation would go below
		 * the 2/20 the exact test gives at best.
		 */
		return fmax(
		    p, fmin(1, 2 * exp(lgamma((double)n + 1) + lgamma((double)m + 1) - lgamma((double)(n + m) + 1))));
	}
}

double wq_stat_mwu(const double *a, size_t n, const double *b, size_t m)
{
	double u, p, *f;
	bool ties;

	if (!n || !m)
		return 1;
	u = u_stat(a, n, b, m, &ties);
	f = exact_counts(n, m, ties);
	p = mwu_p(a, n, b, m, u, f);
	free(f);
	return p;
}

size_t wq_stat_min_runs(void)
{
	/* two-sided: 2 / C(2k, k) < alpha; C(6,3) = 20 gives 0.1, C(8,4) = 70 gives 0.029 */
	size_t k = 1;
	double c = 2; /* C(2k, k) */

	while (2 / c >= WQ_STAT_ALPHA) {
		c = c * (2.0 * k + 1) * (2.0 * k + 2) / ((k + 1.0) * (k + 1.0));
		k++;
	}
	return k;
}

/*
 * k of the Moses interval [d(k), d(nm - k + 1)] (1-based, d the sorted
 * differences): the largest k with P(U <= k - 1) <= alpha / 2. 0 when the
 * runs are too few for any.
 */
static size_t moses_k(size_t n, size_t m, const double *f)
{
	double nm = (double)n * (double)m;

	if (f) {
		size_t len = n * m + 1, k = 0;
		double total = 0, cum = 0;

		for (size_t i = 0; i < len; i++)
			total += f[i];
		while (k < len && (cum + f[k]) / total <= WQ_STAT_ALPHA / 2)
			cum += f[k++];
		return k;
	}
	{
		/* the normal quantile of 1 - alpha / 2 */
		double k = floor(nm / 2 - 1.959964 * sqrt(nm * (double)(n + m + 1) / 12.0));

		return k < 1 ? 0 : (size_t)k;
	}
}

/* a robust standard deviation: the MAD of each set about its own median, pooled, x 1.4826 */
static double pooled_sd(const double *a, size_t n, const double *b, size_t m)
{
	size_t N = n + m;
	double *d = malloc((N ? N : 1) * sizeof(double)), *s = malloc((N ? N : 1) * sizeof(double)), ma, mb, r;

	if (!d || !s || !n || !m) {
		free(d);
		free(s);
		return NAN;
	}
	memcpy(s, a, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	ma = median_of(s, 0, n);
	memcpy(s, b, m * sizeof(double));
	qsort(s, m, sizeof(double), cmp_double);
	mb = median_of(s, 0, m);
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(a[i] - ma);
	for (size_t j = 0; j < m; j++)
		d[n + j] = fabs(b[j] - mb);
	qsort(d, N, sizeof(double), cmp_double);
	r = 1.4826 * median_of(d, 0, N);
	free(d);
	free(s);
	return r;
}

enum wq_verdict wq_stat_judge(const double *a, size_t n, const double *b, size_t m, bool higher_is_better,
			      double threshold_pct, struct wq_diff *out)
{
	size_t nm = n * m, k;
	double *d, *f, ma, sd, need, u;
	bool ties, worse;

	out->p = 1;
	out->est = out->lo = out->hi = out->pct = out->pct_lo = out->pct_hi = out->cv = NAN;
	out->runs_needed = 0;
	if (!n || !m || !(d = malloc(nm * sizeof(double))))
		return WQ_VERDICT_INCONCLUSIVE;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			d[i * m + j] = b[j] - a[i];
	qsort(d, nm, sizeof(double), cmp_double);
	out->est = median_of(d, 0, nm);
	u = u_stat(a, n, b, m, &ties);
	f = exact_counts(n, m, ties);
	k = moses_k(n, m, f);
	if (k >= 1 && k <= nm - k + 1) {
		out->lo = d[k - 1];
		out->hi = d[nm - k];
	}
	free(d);
	out->p = mwu_p(a, n, b, m, u, f);
	free(f);
	{
		struct wq_stat st;

		ma = wq_stat_compute(a, n, &st) == 0 ? fabs(st.median) : NAN;
	}
	if (ma > 0) {
		out->pct = out->est / ma * 100;
		out->pct_lo = out->lo / ma * 100;
		out->pct_hi = out->hi / ma * 100;
		sd = pooled_sd(a, n, b, m);
		out->cv = sd / ma;
		/*
		 * Runs a side for a change of the threshold to reach alpha with 80%
		 * power: 2 ((z(1 - alpha/2) + z(0.8)) cv / threshold)^2 over the
		 * test's efficiency against the t-test on normal runs (3 / pi).
		 */
		if (threshold_pct > 0 && isfinite(out->cv)) {
			need = 2 * pow((1.959964 + 0.841621) * out->cv * 100 / threshold_pct, 2) / (3 / M_PI);
			out->runs_needed = need < (double)wq_stat_min_runs() ? wq_stat_min_runs() : (size_t)ceil(need);
		}
	}
	if (!(ma > 0))
		return WQ_VERDICT_INCONCLUSIVE;
	worse = (out->est < 0) == higher_is_better;
	if (out->p < WQ_STAT_ALPHA && fabs(out->pct) >= threshold_pct && out->est != 0)
		return worse ? WQ_VERDICT_WORSE : WQ_VERDICT_BETTER;
	if (isfinite(out->pct_lo) && out->pct_lo > -threshold_pct && out->pct_hi < threshold_pct)
		return WQ_VERDICT_SAME;
	if (out->runs_needed <= n && out->runs_needed <= m && out->runs_needed)
		out->runs_needed = (n > m ? n : m) + 1;
	return WQ_VERDICT_INCONCLUSIVE;
}

const char *wq_verdict_name(enum wq_verdict v)
{
	switch (v) {
	case WQ_VERDICT_BETTER: return "improved";
	case WQ_VERDICT_WORSE: return "regressed";
	case WQ_VERDICT_INCONCLUSIVE: return "inconclusive";
	case WQ_VERDICT_SAME:
	default: return "no change";
	}
}

size_t wq_stat_outliers(const double *v, size_t n, bool *out)
{
	double *s, med, mad;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		out[i] = false;
	if (n < 5 || !(s = malloc(n * sizeof(double))))
		return 0;
	memcpy(s, v, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	med = median_of(s, 0, n);
	for (size_t i = 0; i < n; i++)
		s[i] = fabs(v[i] - med);
	qsort(s, n, sizeof(double), cmp_double);
	mad = median_of(s, 0, n);
	free(s);
	if (mad <= 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (fabs(0.6745 * (v[i] - med) / mad) > WQ_STAT_OUTLIER_Z)
			out[i] = true, k++;
	return k;
}

double wq_stat_trend(const double *v, size_t n, double *tau)
{
	double S = 0, pairs = (double)n * ((double)n - 1) / 2, var, ties = 0, z;
	size_t t;
	double *s;

	*tau = 0;
	if (n < 4 || !(s = malloc(n * sizeof(double))))
		return 1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			S += (v[j] > v[i]) - (v[j] < v[i]);
	memcpy(s, v, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	for (size_t i = 0; i < n; i += t) {
		for (t = 1; i + t < n && s[i + t] == s[i]; t++)
			;
		ties += (double)t * (t - 1) * (2.0 * t + 5);
	}
	free(s);
	*tau = S / pairs;
	var = ((double)n * (n - 1) * (2.0 * n + 5) - ties) / 18;
	if (var <= 0)
		return 1;
	z = (fabs(S) - 1) / sqrt(var);
	if (z < 0)
		z = 0;
	return erfc(z / M_SQRT2);
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
