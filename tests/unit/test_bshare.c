/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_bshare.c - the culprit's share of the change (stats/bshare.h):
 * a hand-computed example, the degenerate cases, and seeded simulations
 * of one culprit (the share is 1; doubted at about the level's rate) and
 * of two culprits of half the change each (the share is 1/2; doubted
 * nearly always).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/bshare.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/*
 * Steps 0..3, logs {0, 1} | {0.5} | {2.5} | {2, 3}: R = (2.5 - 0.5) /
 * (2.5 - 0.5) = 1; pooled s^2 = (0.5 + 0.5) / 2 = 0.5 with 2 df; no step
 * is shared, so var R = (0.5 + 0.5 + 0.25 + 0.25) / 2^2 = 0.375, and
 * t_{0.995, 2} = 9.924843 (scipy.stats.t.ppf(0.995, 2)).
 */
static void test_hand_computed(void **state)
{
	struct bshare_step s[4] = {
		{ 2, 0.5, 0.5 }, { 1, 0.5, 0 }, { 1, 2.5, 0 }, { 2, 2.5, 0.5 },
	};
	struct bshare_result r;
	(void)state;

	assert_int_equal(bshare_explained(s, 4, 0, 2, 3, 0.01, 0.1, &r), 0);
	near(r.share, 1, 1e-12);
	near(r.df, 2, 0);
	near(r.sigma, sqrt(0.5), 1e-12);
	near(r.hi - r.share, 9.924843 * sqrt(0.375), 1e-5);
	assert_false(r.partial);
	/* culprit 1: R = 0 / 2, var = (0.5 + 0.25 - 0 + 0) / 4 with the
	 * good end shared (cov = 0.25): (0.5 + 0.25) / 4 */
	assert_int_equal(bshare_explained(s, 4, 0, 1, 3, 0.01, 0.1, &r), 0);
	near(r.share, 0, 1e-12);
	near(r.hi, 9.924843 * sqrt(0.75 / 4), 1e-5);
	assert_false(r.partial);        /* 2 df: too wide to exclude 1 */
}

static void test_degenerate(void **state)
{
	struct bshare_step s[3] = { { 2, 1, 0.1 }, { 0, 0, 0 }, { 2, 2, 0.1 } };
	struct bshare_step same[2] = { { 2, 1, 0.1 }, { 2, 1, 0.1 } };
	struct bshare_step one[2] = { { 1, 1, 0 }, { 1, 2, 0 } };
	struct bshare_result r;
	(void)state;

	/* the step before the culprit never measured */
	assert_int_equal(bshare_explained(s, 3, 0, 2, 2, 0.01, 0.1, &r), -1);
	assert_int_equal(bshare_explained(s, 3, 0, 0, 2, 0.01, 0.1, &r), -1);
	assert_int_equal(bshare_explained(s, 3, 0, 3, 2, 0.01, 0.1, &r), -1);
	assert_int_equal(bshare_explained(same, 2, 0, 1, 1, 0.01, 0.1, &r),
			 -1);
	assert_int_equal(bshare_explained(one, 2, 0, 1, 1, 0.01, 0.1, &r), -1);
	/* the culprit next to both ends: the share is 1 exactly */
	same[1].mean = 2;
	assert_int_equal(bshare_explained(same, 2, 0, 1, 1, 0.01, 0.1, &r),
			 0);
	near(r.share, 1, 1e-12);
	near(r.hi - r.lo, 0, 1e-12);
	assert_false(r.partial);
}

/*
 * A bisection's runs of 10 steps, log-normal noise sigma: 6 runs at
 * each end, 2 at the culprit and the step before, 1 at a few others;
 * means from mean[] (logs).  The share of `culprit`.
 */
static struct bshare_result simulate(gsl_rng *rng, const double *mean,
				     double sigma, size_t culprit)
{
	size_t runs[10] = { 6, 0, 1, 0, 1, 0, 1, 0, 0, 6 };
	struct bshare_step s[10];
	struct bshare_result r;

	runs[culprit] = 2;
	runs[culprit - 1] = culprit - 1 == 0 ? 6 : 2;
	for (size_t k = 0; k < 10; k++) {
		double x[8], sum = 0, ss = 0;

		for (size_t i = 0; i < runs[k]; i++) {
			x[i] = mean[k] + gsl_ran_gaussian(rng, sigma);
			sum += x[i];
		}
		s[k].n = runs[k];
		s[k].mean = runs[k] ? sum / (double)runs[k] : 0;
		for (size_t i = 0; i < runs[k]; i++)
			ss += (x[i] - s[k].mean) * (x[i] - s[k].mean);
		s[k].ss = ss;
	}
	assert_int_equal(bshare_explained(s, 10, 0, culprit, 9, 0.01, 0.1,
					  &r), 0);
	return r;
}

static void test_one_culprit(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double mean[10] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 };
	size_t doubted = 0, covered = 0, reps = 2000;
	(void)state;

	gsl_rng_set(rng, 7500);
	for (size_t i = 0; i < reps; i++) {
		/* from a clear 10-sigma jump to a barely seen 3-sigma one */
		double sigma = i % 2 ? 0.1 : 1.0 / 3;
		struct bshare_result r = simulate(rng, mean, sigma, 5);

		doubted += r.partial;
		covered += r.lo <= 1 && r.hi >= 1;
	}
	/* the interval's level is 99 %: within 3 binomial sigma of it */
	assert_true(covered >= reps * 0.99 - 3 * sqrt(reps * 0.0099));
	assert_true(doubted <= reps * 0.01 + 3 * sqrt(reps * 0.0099));
	gsl_rng_free(rng);
}

static void test_two_culprits(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double mean[10] = { 0, 0, 0, 0.5, 0.5, 0.5, 0.5, 1, 1, 1 };
	double sum = 0;
	size_t doubted = 0, reps = 1000;
	(void)state;

	gsl_rng_set(rng, 7510);
	for (size_t i = 0; i < reps; i++) {
		struct bshare_result r = simulate(rng, mean, 0.05, 3);

		doubted += r.partial;
		sum += r.share;
	}
	near(sum / (double)reps, 0.5, 0.01);
	assert_true(doubted >= reps * 0.99);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_one_culprit),
		cmocka_unit_test(test_two_culprits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
