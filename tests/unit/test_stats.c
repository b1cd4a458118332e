/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stats.c - descriptive statistics against certified values
 * (NIST StRD univariate data sets NumAcc1, NumAcc3, NumAcc4, which are
 * built to break naive variance formulas) and textbook cases.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats.h"

static void test_numacc1(void **state)
{
	const double x[] = { 10000001, 10000003, 10000002 };
	struct stats_summary s;
	(void)state;

	stats_summarize(x, 3, &s);
	assert_true(s.mean == 10000002.0);
	assert_true(fabs(s.stddev - 1.0) < 1e-12);
	assert_true(s.min == 10000001 && s.max == 10000003);
	assert_true(s.median == 10000002);
}

/* NumAcc3/4: c+0.2 followed by 1000 values alternating c+0.1, c+0.3. */
static void numacc(double c, double want_mean)
{
	double x[1001];
	struct stats_summary s;

	x[0] = c + 0.2;
	for (int i = 1; i <= 1000; i++)
		x[i] = c + (i % 2 ? 0.1 : 0.3);
	stats_summarize(x, 1001, &s);
	assert_true(fabs(s.mean - want_mean) < 1e-6);
	assert_true(fabs(s.stddev - 0.1) < 1e-6);
}

static void test_numacc34(void **state)
{
	(void)state;
	numacc(1000000.0, 1000000.2);
	numacc(10000000.0, 10000000.2);
}

static void test_means(void **state)
{
	const double rates[] = { 60, 40 };   /* same work at 60 and 40/s */
	const double ratios[] = { 2, 8 };
	const double bad[] = { 1, 0 };
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	(void)state;

	assert_true(fabs(stats_hmean(rates, 2) - 48.0) < 1e-12);
	assert_true(fabs(stats_gmean(ratios, 2) - 4.0) < 1e-12);
	assert_true(isnan(stats_hmean(bad, 2)));
	assert_true(isnan(stats_gmean(bad, 2)));
	assert_true(stats_mean(x, 8) == 5.0);
	assert_true(fabs(stats_stddev(x, 8) - sqrt(32.0 / 7.0)) < 1e-12);
	assert_true(stats_median(x, 8) == 4.5);
}

static void test_degenerate(void **state)
{
	const double one[] = { 3.5 };
	struct stats_summary s;
	(void)state;

	stats_summarize(one, 1, &s);
	assert_true(s.mean == 3.5);
	assert_true(isnan(s.stddev));
	assert_true(isnan(s.cov_pct));
	stats_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));
	assert_true(isnan(stats_median(NULL, 0)));
}

static void test_cov(void **state)
{
	const double x[] = { 90, 100, 110 };
	struct stats_summary s;
	(void)state;

	stats_summarize(x, 3, &s);
	assert_true(fabs(s.cov_pct - 10.0) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numacc1),
		cmocka_unit_test(test_numacc34),
		cmocka_unit_test(test_means),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_cov),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
