// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics of `wqctl experiment`; expected figures worked out by hand. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/obs/stats.h"
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
	ok(near(wq_stat_reldiff(200, 150), -25), "150 against 200 is -25%%");
	ok(near(wq_stat_reldiff(-50, -25), 50), "against a negative base the sign follows the value");
	ok(isnan(wq_stat_reldiff(0, 1)), "against 0: NaN");
}

static void rank_test(void)
{
	const double a3[] = {1, 2, 3}, b3[] = {4, 5, 6}, a4[] = {1, 2, 3, 4}, b4[] = {5, 6, 7, 8};
	const double ta[] = {1, 1, 2}, tb[] = {2, 3, 3};

	/* 3 and 3 runs, completely apart: 1 order of C(6,3) = 20 gives U = 0, both tails 2/20 */
	ok(near(wq_stat_mwu(a3, 3, b3, 3), 0.1), "3 vs 3 apart: p = 2/20 = 0.1");
	ok(near(wq_stat_mwu(b3, 3, a3, 3), 0.1), "the other way round: the same");
	/* 4 and 4: 2/C(8,4) = 2/70 */
	ok(near(wq_stat_mwu(a4, 4, b4, 4), 2.0 / 70), "4 vs 4 apart: p = 2/70");
	ok(wq_stat_min_runs() == 4, "the fewest runs a side that can reach p < 0.05: 4");
	/*
	 * with ties, the normal approximation: U = 0.5 (a's 2 ties b's 2), mean 4.5,
	 * variance 9/12 (7 - 18/30) = 4.8 (three pairs of equal values, t^3 - t = 6
	 * each), z = (4 - 0.5) / sqrt(4.8) = 1.5975, p = erfc(z / sqrt 2) = 0.110149
	 */
	ok(fabs(wq_stat_mwu(ta, 3, tb, 3) - 0.110149) < 1e-5, "ties: the corrected normal approximation, p = 0.110149");
	ok(near(wq_stat_mwu(a3, 0, b3, 3), 1), "no runs on one side: p = 1");
	/*
	 * 3 equal runs against 3 equal others: the approximation gives z = 4 /
	 * sqrt(4.05) (variance 9/12 (7 - 48/30)), p = 0.047, but no order is rarer
	 * than 1 of 20: p = 0.1, as without ties
	 */
	ok(near(wq_stat_mwu((const double[]){25, 25, 25}, 3, (const double[]){385, 385, 385}, 3), 0.1),
	   "3 equal vs 3 equal: p = 2/20, not below");
}

static void judge(void)
{
	const double a[] = {10, 11, 12, 13, 14}, b[] = {20, 21, 22, 23, 24};
	const double s1[] = {99, 100, 101, 99.5, 100.5}, s2[] = {99.2, 100.2, 101.2, 99.7, 100.7};
	const double n1[] = {90, 100, 110}, n2[] = {95, 105, 115};
	struct wq_diff ch;

	/*
	 * b - a: 10 + (j - i), so 6..14 with counts 1 2 3 4 5 4 3 2 1; the median
	 * 10. 5 vs 5: P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252, so k = 3 and
	 * the interval is [d(3), d(23)] = [7, 13]; a's median is 12
	 */
	ok(wq_stat_judge(a, 5, b, 5, true, 5, &ch) == WQ_VERDICT_BETTER, "5 vs 5 apart, higher is better: better");
	ok(near(ch.est, 10) && near(ch.lo, 7) && near(ch.hi, 13), "change 10, interval 7 to 13");
	ok(near(ch.pct, 1000.0 / 12) && near(ch.pct_lo, 700.0 / 12) && near(ch.pct_hi, 1300.0 / 12),
	   "in percent of 12");
	ok(near(ch.p, 2.0 / 252), "p = 2/252");
	ok(wq_stat_judge(a, 5, b, 5, false, 5, &ch) == WQ_VERDICT_WORSE, "lower is better: worse");
	ok(wq_stat_judge(a, 5, b, 5, true, 90, &ch) == WQ_VERDICT_INCONCLUSIVE,
	   "a threshold of 90%%, above the 83%% change whose interval reaches 108%%: inconclusive");
	/* b = a + 0.2: differences 0.2 + (a_j - a_i), -1.8 to 2.2, all inside +-5% of 100 */
	ok(wq_stat_judge(s1, 5, s2, 5, true, 5, &ch) == WQ_VERDICT_SAME,
	   "a 0.2%% shift, interval inside +-5%%: no change");
	ok(ch.pct_lo > -5 && ch.pct_hi < 5 && ch.pct_lo <= ch.pct && ch.pct <= ch.pct_hi,
	   "its interval holds the estimate");
	/*
	 * 3 vs 3: no 95% interval exists (P(U = 0) = 1/20 > 0.025). The noise: MADs
	 * about each median 10 0 10 and 10 0 10, pooled median 10, x 1.4826 = 14.826,
	 * 14.826% of 100. Runs a side for 5% at 80% power: 2 (2.8016 x 14.826 / 5)^2
	 * / (3 / pi) = 144.54, so 145
	 */
	ok(wq_stat_judge(n1, 3, n2, 3, true, 5, &ch) == WQ_VERDICT_INCONCLUSIVE,
	   "3 vs 3 with 15%% noise: inconclusive");
	ok(isnan(ch.lo) && isnan(ch.pct_lo), "no interval from 3 runs");
	ok(fabs(ch.cv - 0.14826) < 1e-9, "noise 14.826%%");
	ok(ch.runs_needed == 145, "145 runs a setting would tell 5%%");
	ok(wq_stat_judge(n1, 0, n2, 3, true, 5, &ch) == WQ_VERDICT_INCONCLUSIVE, "no old runs: inconclusive");
	is_str(wq_verdict_name(WQ_VERDICT_WORSE), "regressed", "name of a regression");
	is_str(wq_verdict_name(WQ_VERDICT_INCONCLUSIVE), "inconclusive", "name of too few runs");
}

static void outliers_and_trends(void)
{
	const double v[] = {100, 101, 99, 100, 250}, up[] = {1, 2, 3, 4, 5, 6, 7, 8}, flat[] = {5, 5, 5, 5, 5};
	bool o[8];
	double tau, p;

	/* median 100, deviations 0 1 1 0 150: MAD 1; 250 scores 0.6745 x 150 = 101 > 14, 101 scores 0.67 */
	ok(wq_stat_outliers(v, 5, o) == 1 && o[4] && !o[0] && !o[1], "250 among 99..101 is the one outlier");
	ok(wq_stat_outliers(flat, 5, o) == 0, "equal runs (MAD 0): none");
	/* 100 101 99 100 + 120: MAD 1, 120 scores 0.6745 x 20 = 13.5, under 14 */
	ok(wq_stat_outliers((const double[]){100, 101, 99, 100, 120}, 5, o) == 0, "13.5 is not far enough");
	ok(wq_stat_outliers(v, 4, o) == 0, "4 runs: too few to name one");
	/* 1..8 rising: S = 28 of 28 pairs, tau 1; var 8 x 7 x 21 / 18, z = 27 / 8.083, p = 0.000837 */
	p = wq_stat_trend(up, 8, &tau);
	ok(near(tau, 1) && fabs(p - 0.000837) < 1e-6, "1..8: tau 1, p 0.000837");
	ok(wq_stat_trend(flat, 5, &tau) == 1 && near(tau, 0), "no change over the runs: p 1");
	ok(wq_stat_trend(up, 3, &tau) == 1, "3 runs: no trend is named");
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
	rank_test();
	judge();
	outliers_and_trends();
	shuffle();
	return tap_done();
}
