/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The statistics of `wqctl experiment`: order statistics of a handful of
 * runs, the seeded shuffle that interleaves settings, and the verdicts
 * (a rank test and the change's interval; outliers and trends).
 * Pure functions, no I/O.
 */
#ifndef WQ_STATS_H
#define WQ_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wq_stat {
	size_t n;
	double min, q1, median, q3, max, mean;
};

/*
 * Summarise n values (not changed). The median of an even count is the
 * mean of the middle two; q1 and q3 are the medians of the lower and upper
 * halves (the middle value left out of both when n is odd), q1 = q3 =
 * median for n = 1. 0, or -EINVAL for n = 0 or a value that is not finite;
 * -ENOMEM.
 */
int wq_stat_compute(const double *v, size_t n, struct wq_stat *out);
/* (v - base) / |base| in percent; NAN when base is 0. */
double wq_stat_reldiff(double base, double v);
/*
 * Two sets of runs compared (issue 62): the two-sided Mann-Whitney U test
 * (exact for up to 50 runs a side without ties, else the normal
 * approximation with the ties' correction), and the change as the
 * Hodges-Lehmann estimate (the median of every difference new - old) with
 * its distribution-free 95% interval (Moses), also in percent of the old
 * median. The verdict at level WQ_STAT_ALPHA, with THRESHOLD the smallest
 * change that matters:
 *   better / worse  p < alpha and the estimate at least THRESHOLD percent
 *                   on that side;
 *   same            no difference of THRESHOLD: p >= alpha, or a smaller
 *                   change, with the whole interval inside +-THRESHOLD;
 *   inconclusive    anything else: the runs cannot tell (runs_needed says
 *                   how many a side would, at the noise they show).
 * "worse" comes from one side of a two-sided test: with nothing changed it
 * is said in at most alpha / 2 of comparisons (2.5%), whatever the runs.
 */
#define WQ_STAT_ALPHA 0.05

enum wq_verdict {
	WQ_VERDICT_SAME, /* no change of the threshold's size */
	WQ_VERDICT_BETTER,
	WQ_VERDICT_WORSE, /* a regression */
	WQ_VERDICT_INCONCLUSIVE, /* too few runs for this noise */
};

struct wq_diff {
	double p; /* two-sided Mann-Whitney */
	double est, lo, hi; /* new - old: the estimate and its 95% interval (NAN: too few runs for one) */
	double pct, pct_lo, pct_hi; /* the same in percent of the old median */
	double cv; /* the noise: the runs' pooled robust spread (MAD x 1.4826) over the old median */
	size_t runs_needed; /* runs a side that would tell a change of the threshold from this noise */
};

/* The two-sided p-value of the Mann-Whitney U test of a (n runs) against b (m). 1 when either is empty. */
double wq_stat_mwu(const double *a, size_t n, const double *b, size_t m);
/* The fewest runs a side with which the exact test can reach p < WQ_STAT_ALPHA (4). */
size_t wq_stat_min_runs(void);
/*
 * Judge b (the new runs, m) against a (the old ones, n): fills *out, returns
 * the verdict. -EINVAL is not possible: empty sets are inconclusive.
 */
enum wq_verdict wq_stat_judge(const double *a, size_t n, const double *b, size_t m, bool higher_is_better,
			      double threshold_pct, struct wq_diff *out);
const char *wq_verdict_name(enum wq_verdict v);

/*
 * Runs far from the others: a modified z-score |0.6745 (x - median) / MAD|
 * (Iglewicz and Hoaglin) above WQ_STAT_OUTLIER_Z, hyperfine's threshold:
 * their 3.5 named one run in a few of every handful of normal runs, whose
 * MAD can be tiny. Sets out[i] for each; returns how many. None when the
 * MAD is 0 or n < 5.
 */
#define WQ_STAT_OUTLIER_Z 14.0
size_t wq_stat_outliers(const double *v, size_t n, bool *out);
/*
 * A trend over the runs in the order they ran: Kendall's tau of value
 * against order, and its two-sided p (normal approximation, ties
 * corrected). p = 1 for fewer than 4 runs.
 */
double wq_stat_trend(const double *v, size_t n, double *tau);

/* splitmix64: the next number of the sequence seeded by *state. */
uint64_t wq_rng_next(uint64_t *state);
/* A uniform number in [0, bound) (bound > 0), without modulo bias. */
uint64_t wq_rng_below(uint64_t *state, uint64_t bound);
/* Fisher-Yates shuffle of v[0..n) driven by *state. */
void wq_shuffle(size_t *v, size_t n, uint64_t *state);

#endif
