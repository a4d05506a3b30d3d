// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics of `wqctl experiment`; expected figures worked out by hand. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/stats.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void order_statistics(void)
{
	const double odd[] = {5, 1, 4, 2, 3}, even[] = {10, 40, 20, 30}, one[] = {7};
	const double bad[] = {1, NAN};
	double keep[5];
	struct wq_stat s;

	memcpy(keep, odd, sizeof(keep));
	ok(wq_stat_compute(odd, 5, &s) == 0, "five values");
	/* sorted 1 2 3 4 5: halves {1,2} and {4,5} leave the middle 3 out */
	ok(s.n == 5 && near(s.min, 1) && near(s.max, 5) && near(s.median, 3) && near(s.mean, 3),
	   "min 1, median 3, max 5, mean 3");
	ok(near(s.q1, 1.5) && near(s.q3, 4.5), "quartiles 1.5 and 4.5");
	ok(!memcmp(keep, odd, sizeof(keep)), "the input is not reordered");
	ok(wq_stat_compute(even, 4, &s) == 0, "four values");
	/* sorted 10 20 30 40: median (20+30)/2, halves {10,20} {30,40} */
	ok(near(s.median, 25) && near(s.q1, 15) && near(s.q3, 35) && near(s.mean, 25), "median 25, quartiles 15/35");
	ok(wq_stat_compute(one, 1, &s) == 0 && near(s.median, 7) && near(s.q1, 7) && near(s.q3, 7),
	   "one value is its own median and quartiles");
	ok(wq_stat_compute(one, 0, &s) == -EINVAL, "no values: EINVAL");
	ok(wq_stat_compute(bad, 2, &s) == -EINVAL, "a NaN is refused");
}

static void differences(void)
{
	struct wq_stat a = {.min = 1, .max = 3}, b = {.min = 3, .max = 5}, c = {.min = 3.5, .max = 4};

	ok(near(wq_stat_reldiff(200, 150), -25), "150 against 200 is -25%%");
	ok(near(wq_stat_reldiff(-50, -25), 50), "against a negative base the sign follows the value");
	ok(isnan(wq_stat_reldiff(0, 1)), "against 0: NaN");
	ok(wq_stat_overlap(&a, &b), "ranges that touch overlap");
	ok(!wq_stat_overlap(&a, &c) && !wq_stat_overlap(&c, &a), "[1,3] and [3.5,4] do not");
}

static void verdicts(void)
{
	/* base runs 98, 100, 102: band [98 - 5, 102 + 5] with 5% of the median 100 */
	struct wq_stat base = {.n = 3, .min = 98, .median = 100, .max = 102};
	struct wq_stat now = {.n = 3};

	now.median = 92.9;
	ok(wq_stat_verdict(&base, &now, true, 5) == WQ_VERDICT_WORSE, "92.9 < 93, higher is better: regressed");
	ok(wq_stat_verdict(&base, &now, false, 5) == WQ_VERDICT_BETTER, "the same, lower is better: improved");
	now.median = 93.1;
	ok(wq_stat_verdict(&base, &now, true, 5) == WQ_VERDICT_SAME, "93.1 is inside the band");
	now.median = 107.5;
	ok(wq_stat_verdict(&base, &now, false, 5) == WQ_VERDICT_WORSE, "107.5 > 107, lower is better: regressed");
	ok(wq_stat_verdict(&base, &now, false, 10) == WQ_VERDICT_SAME, "inside with a 10%% threshold (band to 112)");
	now.median = 102.5;
	ok(wq_stat_verdict(&base, &now, true, 0) == WQ_VERDICT_BETTER, "threshold 0: just above the baseline's max");
	is_str(wq_verdict_name(WQ_VERDICT_WORSE), "regressed", "name of a regression");
}

static void shuffle(void)
{
	/* splitmix64 from state 0: Vigna's reference output */
	uint64_t st = 0, seen[6] = {0};
	size_t v[8];
	int perm = 1, same = 1, differs = 0;

	ok(wq_rng_next(&st) == 0xe220a8397b1dcdafULL, "splitmix64(0) first output");
	ok(wq_rng_next(&st) == 0x6e789e6aa1b965f4ULL, "second output");
	for (uint64_t seed = 1; seed <= 200; seed++) {
		size_t w[8], mark[8] = {0};
		uint64_t s1 = seed, s2 = seed;

		for (size_t i = 0; i < 8; i++)
			v[i] = w[i] = i;
		wq_shuffle(v, 8, &s1);
		wq_shuffle(w, 8, &s2);
		for (size_t i = 0; i < 8; i++) {
			mark[v[i]]++;
			same &= v[i] == w[i];
		}
		for (size_t i = 0; i < 8; i++)
			perm &= mark[i] == 1;
		for (size_t i = 0; i < 8; i++)
			differs |= v[i] != i;
	}
	ok(perm, "every shuffle is a permutation");
	ok(same, "the same seed gives the same order");
	ok(differs, "orders differ from the identity");
	/* three settings, 60,000 seeds: each of the 6 orders near 10,000 (binomial sd ~91) */
	for (uint64_t seed = 0; seed < 60000; seed++) {
		size_t w[3] = {0, 1, 2};
		uint64_t s = seed * 7919 + 13;

		wq_shuffle(w, 3, &s);
		seen[w[0] * 2 + (w[1] > w[2])]++;
	}
	{
		int flat = 1;

		for (int i = 0; i < 6; i++)
			flat &= seen[i] > 9500 && seen[i] < 10500;
		ok(flat, "orders of 3 are uniform: %llu %llu %llu %llu %llu %llu", (unsigned long long)seen[0],
		   (unsigned long long)seen[1], (unsigned long long)seen[2], (unsigned long long)seen[3],
		   (unsigned long long)seen[4], (unsigned long long)seen[5]);
	}
	st = 5;
	for (int i = 0; i < 1000; i++)
		if (wq_rng_below(&st, 3) >= 3)
			same = 0;
	ok(same, "below(3) stays below 3");
}

int main(void)
{
	order_statistics();
	differences();
	verdicts();
	shuffle();
	return tap_done();
}
