/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_ttest.c - Student t intervals, Welch's test and the delta-method
 * ratio interval against published values: the NIST/SEMATECH
 * e-Handbook of Statistical Methods (1.3.5.2 ZARR13 confidence limits,
 * 1.3.5.3 AUTO83B two-sample t-test), t tables, and the Welch example
 * of the Wikipedia article (t = -2.46, p = 0.021; df 24.99 recomputed
 * with Python's statistics module).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats.h"
#include "stats/ttest.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void test_tcrit_table(void **state)
{
	(void)state;
	near(ttest_tcrit(0.05, 10), 2.228139, 1e-6);
	near(ttest_tcrit(0.05, 1), 12.7062, 1e-4);
	near(ttest_tcrit(0.10, 30), 1.697261, 1e-6);
	near(ttest_tcrit(0.05, 194), 1.972267, 1e-5);
	assert_true(isnan(ttest_tcrit(0.05, 0)));
}

/* NIST 1.3.5.2: ZARR13.DAT, n 195, mean 9.261460, s 0.022789. */
static void test_ci_nist_zarr13(void **state)
{
	struct ttest_sample s = { 195, 9.261460, 0.022789 };
	double lo, hi;
	(void)state;

	assert_int_equal(ttest_mean_ci(&s, 0.05, &lo, &hi), 0);
	near(lo, 9.258242, 2e-6);
	near(hi, 9.264679, 2e-6);
}

static void test_ci_too_few(void **state)
{
	struct ttest_sample s = { 1, 5.0, NAN };
	double lo, hi;
	(void)state;

	assert_int_equal(ttest_mean_ci(&s, 0.05, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
}

/* NIST 1.3.5.3: AUTO83B, US vs Japanese cars' mpg, unequal variances:
 * T = -12.94627, df = 136.8750 (the handbook's pooled T is -12.62059). */
static void test_welch_nist_auto83b(void **state)
{
	struct ttest_sample us = { 249, 20.14458, 6.41470 };
	struct ttest_sample jp = { 79, 30.48101, 6.10771 };
	struct welch_result w;
	(void)state;

	assert_int_equal(ttest_welch(&jp, &us, 0.05, &w), 0);
	near(w.t, -12.94627, 1e-4);
	near(w.df, 136.8750, 1e-3);
	assert_true(w.p < 1e-20);
	near(w.diff, 20.14458 - 30.48101, 1e-9);
	assert_true(w.lo < w.diff && w.diff < w.hi && w.hi < 0);
}

/* Wikipedia, Welch's t-test, example 1. */
static void test_welch_wikipedia(void **state)
{
	const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
			      21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
			      24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	struct ttest_sample s1 = { 15, stats_mean(a1, 15),
				   stats_stddev(a1, 15) };
	struct ttest_sample s2 = { 15, stats_mean(a2, 15),
				   stats_stddev(a2, 15) };
	struct welch_result w;
	(void)state;

	assert_int_equal(ttest_welch(&s2, &s1, 0.05, &w), 0);
	near(w.t, -2.46, 0.005);
	near(w.df, 24.9885, 1e-3);
	near(w.p, 0.021, 0.0005);
}

/* p of t = t_{0.975,10} is exactly 0.05 by definition. */
static void test_welch_p_consistent(void **state)
{
	struct ttest_sample a = { 6, 0.0, 1.0 }, b = { 6, 0.0, 1.0 };
	struct welch_result w;
	(void)state;

	/* se = sqrt(2/6); df = 10 for equal n and sd. */
	b.mean = 2.228139 * sqrt(2.0 / 6.0);
	assert_int_equal(ttest_welch(&a, &b, 0.05, &w), 0);
	near(w.df, 10, 1e-9);
	near(w.p, 0.05, 1e-6);
	near(w.lo, 0, 1e-5);
}

static void test_welch_degenerate(void **state)
{
	struct ttest_sample a = { 3, 5.0, 0.0 }, b = { 3, 5.0, 0.0 };
	struct ttest_sample c = { 3, 6.0, 0.0 }, one = { 1, 5.0, NAN };
	struct welch_result w;
	(void)state;

	assert_int_equal(ttest_welch(&a, &b, 0.05, &w), 0);
	assert_true(w.p == 1.0);
	assert_int_equal(ttest_welch(&a, &c, 0.05, &w), 0);
	assert_true(w.p == 0.0);
	assert_int_equal(ttest_welch(&a, &one, 0.05, &w), -1);
	assert_true(isnan(w.p));
}

/* Delta method by hand: r = 110/100, relative variances 4/(5*100^2)
 * and 9/(5*110^2), Welch-Satterthwaite df of those two. */
static void test_ratio_delta(void **state)
{
	struct ttest_sample a = { 5, 100.0, 2.0 }, b = { 5, 110.0, 3.0 };
	double r, lo, hi, ra = 4.0 / 5 / 1e4, rb = 9.0 / 5 / 12100.0;
	double df = (ra + rb) * (ra + rb) / (ra * ra / 4 + rb * rb / 4);
	double half = ttest_tcrit(0.05, df) * 1.1 * sqrt(ra + rb);
	(void)state;

	assert_int_equal(ttest_ratio_ci(&a, &b, 0.05, &r, &lo, &hi), 0);
	near(r, 1.1, 1e-12);
	near(lo, 1.1 - half, 1e-12);
	near(hi, 1.1 + half, 1e-12);
	assert_true(lo > 1.0);
	a.mean = 0;
	assert_int_equal(ttest_ratio_ci(&a, &b, 0.05, &r, &lo, &hi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcrit_table),
		cmocka_unit_test(test_ci_nist_zarr13),
		cmocka_unit_test(test_ci_too_few),
		cmocka_unit_test(test_welch_nist_auto83b),
		cmocka_unit_test(test_welch_wikipedia),
		cmocka_unit_test(test_welch_p_consistent),
		cmocka_unit_test(test_welch_degenerate),
		cmocka_unit_test(test_ratio_delta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
