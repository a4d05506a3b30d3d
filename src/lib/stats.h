/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The statistics of `wqctl experiment`: order statistics of a handful of
 * runs, the seeded shuffle that interleaves settings, and the verdicts
 * (a difference beyond the spread, a regression against a baseline).
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
/* Do the ranges [min, max] of a and b meet? Then no difference is claimed. */
bool wq_stat_overlap(const struct wq_stat *a, const struct wq_stat *b);

enum wq_verdict {
	WQ_VERDICT_SAME, /* within the baseline's noise */
	WQ_VERDICT_BETTER,
	WQ_VERDICT_WORSE, /* a regression */
};
/*
 * A new result against a baseline of the same setting: the noise band is
 * the baseline's [min, max] widened on both sides by threshold_pct percent
 * of its median. A new median outside it is better or worse, by the
 * metric's direction.
 */
enum wq_verdict wq_stat_verdict(const struct wq_stat *base, const struct wq_stat *now, bool higher_is_better,
				double threshold_pct);
const char *wq_verdict_name(enum wq_verdict v);

/* splitmix64: the next number of the sequence seeded by *state. */
uint64_t wq_rng_next(uint64_t *state);
/* A uniform number in [0, bound) (bound > 0), without modulo bias. */
uint64_t wq_rng_below(uint64_t *state, uint64_t bound);
/* Fisher-Yates shuffle of v[0..n) driven by *state. */
void wq_shuffle(size_t *v, size_t n, uint64_t *state);

#endif
