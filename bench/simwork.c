// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A simulated workload for bench/stats.sh: prints "value: X", X drawn from a
 * seeded distribution, a new draw each time it runs.
 *   simwork DIR [SETTING_FILE]
 * DIR/params holds "DIST CV SEED SHIFT [ONLY]" (one line), DIR/count the number of
 * runs so far (missing: 0; this run increments it). Run k of seed s draws
 * from the generator seeded with (s, k), so a sequence of runs repeats, and
 * X = 1000 * SHIFT * D, where D is
 *   normal     normal, mean 1, standard deviation CV;
 *   lognormal  exp(N(0, s)), s chosen so that its CV is CV (median 1);
 *   bimodal    one of two normal modes at 1 - CV and 1 + CV, each with
 *              standard deviation CV / 3, picked with equal odds (a cache
 *              hit or miss);
 *   outlier    normal with CV, but one run in 20 at half the value (a
 *              background job took the machine).
 * SHIFT 0.9 is a 10% slowdown of a metric that is better higher. With ONLY,
 * SHIFT applies only to runs under the setting whose SETTING_FILE (such as
 * a workqueue's max_active) holds ONLY: one setting slowed, the others not.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in (0, 1) */
static double unif(uint64_t *s)
{
	return ((double)(next(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* standard normal (Box-Muller) */
static double gauss(uint64_t *s)
{
	double u = unif(s), v = unif(s);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

int main(int argc, char **argv)
{
	char path[4096], dist[32], only[64] = "", now[64] = "";
	double cv, shift, d;
	unsigned long long seed;
	long count = 0;
	uint64_t st;
	FILE *f;

	if (argc != 2 && argc != 3)
		return 2;
	snprintf(path, sizeof(path), "%s/params", argv[1]);
	if (!(f = fopen(path, "re")) || fscanf(f, "%31s %lf %llu %lf %63s", dist, &cv, &seed, &shift, only) < 4)
		return 2;
	fclose(f);
	if (*only && argc == 3) {
		if (!(f = fopen(argv[2], "re")) || fscanf(f, "%63s", now) != 1)
			return 2;
		fclose(f);
		if (strcmp(now, only))
			shift = 1;
	}
	snprintf(path, sizeof(path), "%s/count", argv[1]);
	if ((f = fopen(path, "re"))) {
		if (fscanf(f, "%ld", &count) != 1)
			count = 0;
		fclose(f);
	}
	if (!(f = fopen(path, "we")))
		return 1;
	fprintf(f, "%ld\n", count + 1);
	fclose(f);

	st = seed * 1000003ULL + (uint64_t)count;
	next(&st);
	if (!strcmp(dist, "normal")) {
		d = 1 + cv * gauss(&st);
	} else if (!strcmp(dist, "lognormal")) {
		d = exp(sqrt(log(1 + cv * cv)) * gauss(&st));
	} else if (!strcmp(dist, "bimodal")) {
		double mode = unif(&st) < 0.5 ? 1 - cv : 1 + cv;

		d = mode + cv / 3 * gauss(&st);
	} else if (!strcmp(dist, "outlier")) {
		d = (unif(&st) < 0.05 ? 0.5 : 1) * (1 + cv * gauss(&st));
	} else {
		return 2;
	}
	printf("value: %.3f\n", 1000 * shift * d);
	return 0;
}
