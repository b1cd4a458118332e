/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stats_infer.c - the inference behind compare's verdicts against
 * published values: p-value adjustment on the 15 p-values of Benjamini &
 * Hochberg (1995, section 4: Holm/Bonferroni reject 3, BH rejects 4;
 * adjusted values as R's p.adjust prints them), the t interval and
 * Welch's test on Student's sleep data (Cushny & Peebles, R's `sleep`:
 * t.test paired CI [-2.4598858, -0.7001142]; Welch t = -1.8608,
 * df = 17.776, p = 0.07939, CI [-3.3654832, 0.2054832]), and the
 * log-scale intervals and minimum detectable change against t-table
 * quantiles (t_.975,10 = 2.228139, t_.80,10 = 0.879058).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/padjust.h"
#include "stats/stats.h"
#include "stats/ttest.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static const double bh95[15] = {
	0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
	0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000,
};

static size_t rejected(const double *adj, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += adj[i] < 0.05;
	return k;
}

static void test_holm_bh95(void **state)
{
	const double want[15] = { 0.0015, 0.0056, 0.0247, 0.114, 0.2211,
				  0.278, 0.278, 0.278, 0.3213, 1, 1, 1, 1, 1,
				  1 };
	double adj[15];
	(void)state;

	padjust_holm(bh95, 15, adj);
	for (int i = 0; i < 15; i++)
		near(adj[i], want[i], 1e-9);
	assert_int_equal(rejected(adj, 15), 3);
}

static void test_bh_bh95(void **state)
{
	const double want[15] = { 0.0015, 0.003, 0.0095, 0.035625, 0.0603,
				  0.0638571, 0.0638571, 0.0645, 0.0765,
				  0.486, 0.5811818, 0.714875, 0.7532308,
				  0.8132143, 1 };
	double adj[15];
	(void)state;

	padjust_bh(bh95, 15, adj);
	for (int i = 0; i < 15; i++)
		near(adj[i], want[i], 1e-6);
	assert_int_equal(rejected(adj, 15), 4);
}

/* Order does not matter, NaNs are not tests, adj may alias p. */
static void test_padjust_shuffled_nan(void **state)
{
	double p[5] = { 0.04, NAN, 0.01, 0.03, NAN };
	(void)state;

	padjust_holm(p, 5, p);
	near(p[2], 0.03, 1e-12);   /* 3 * 0.01 */
	near(p[3], 0.06, 1e-12);   /* 2 * 0.03 */
	near(p[0], 0.06, 1e-12);   /* max(1 * 0.04, 0.06) */
	assert_true(isnan(p[1]) && isnan(p[4]));
}

static const double sleep1[10] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7,
				   0.8, 0.0, 2.0 };
static const double sleep2[10] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6,
				   4.6, 3.4 };

static void test_sleep_paired_ci(void **state)
{
	double d[10], lo, hi;
	struct ttest_sample s;
	(void)state;

	for (int i = 0; i < 10; i++)
		d[i] = sleep1[i] - sleep2[i];
	s = (struct ttest_sample){ 10, stats_mean(d, 10),
				   stats_stddev(d, 10) };
	assert_int_equal(ttest_mean_ci(&s, 0.05, &lo, &hi), 0);
	near(lo, -2.4598858, 1e-6);
	near(hi, -0.7001142, 1e-6);
}

static void test_sleep_welch(void **state)
{
	struct ttest_sample a = { 10, stats_mean(sleep1, 10),
				  stats_stddev(sleep1, 10) };
	struct ttest_sample b = { 10, stats_mean(sleep2, 10),
				  stats_stddev(sleep2, 10) };
	struct welch_result w;
	(void)state;

	/* R: t.test(extra ~ group) is group 1 - group 2. */
	assert_int_equal(ttest_welch(&b, &a, 0.05, &w), 0);
	near(w.t, -1.8608, 1e-4);
	near(w.df, 17.776, 1e-3);
	near(w.p, 0.07939, 1e-5);
	near(w.lo, -3.3654832, 1e-6);
	near(w.hi, 0.2054832, 1e-6);
}

/* a: n 6, mean 10, sd 1; b: n 6, mean 12, sd 1.2.  Equal relative
 * errors 1/600 each, so se_log = sqrt(2/600) and df = 10 exactly. */
static void test_ratio_log(void **state)
{
	struct ttest_sample a = { 6, 10, 1 }, b = { 6, 12, 1.2 };
	double r, lo, hi, se, df;
	(void)state;

	assert_int_equal(ttest_ratio_ci_log(&a, &b, 0.05, &r, &lo, &hi, &se,
					    &df), 0);
	near(r, 1.2, 1e-12);
	near(df, 10, 1e-9);
	near(se, sqrt(2.0 / 600), 1e-12);
	near(lo, 1.2 * exp(-2.228139 * sqrt(2.0 / 600)), 1e-6);
	near(hi, 1.2 * exp(2.228139 * sqrt(2.0 / 600)), 1e-6);
	/* Multiplicative: symmetric in log r. */
	near(log(hi / r), log(r / lo), 1e-12);
}

/* A noisy small sample whose t interval of the time reaches below 0:
 * the log-scale interval stays finite and positive. */
static void test_mean_log_finite(void **state)
{
	struct ttest_sample s = { 3, 1.0, 2.0 };
	double lo, hi;
	(void)state;

	assert_int_equal(ttest_mean_ci(&s, 0.05, &lo, &hi), 0);
	assert_true(lo < 0);
	assert_int_equal(ttest_mean_ci_log(&s, 0.05, &lo, &hi), 0);
	assert_true(lo > 0 && isfinite(hi) && lo < 1 && hi > 1);
	near(lo * hi, 1.0, 1e-12);
	s.n = 1;
	assert_int_equal(ttest_mean_ci_log(&s, 0.05, &lo, &hi), -1);
}

/* The log-ratio test is the interval's test: at level p the interval
 * just reaches 1. */
static void test_log_ratio_p(void **state)
{
	struct ttest_sample a = { 6, 10, 1 }, b = { 6, 12, 1.2 };
	double r, lo, hi, se, df, p;
	(void)state;

	assert_int_equal(ttest_ratio_ci_log(&a, &b, 0.05, &r, &lo, &hi, &se,
					    &df), 0);
	p = ttest_log_ratio_p(r, se, df);
	assert_true(p > 0 && p < 0.05);
	assert_int_equal(ttest_ratio_ci_log(&a, &b, p, &r, &lo, &hi, NULL,
					    NULL), 0);
	near(lo, 1.0, 1e-9);
	/* symmetric in the direction of the change */
	near(ttest_log_ratio_p(1 / r, se, df), p, 1e-12);
	near(ttest_log_ratio_p(1.0, se, df), 1.0, 1e-12);
	near(ttest_log_ratio_p(1.0, 0, NAN), 1.0, 0);
	near(ttest_log_ratio_p(2.0, 0, NAN), 0.0, 0);
	assert_true(isnan(ttest_log_ratio_p(-1, se, df)));
}

static void test_mdc(void **state)
{
	(void)state;
	near(ttest_mdc(1.0, 10, 0.05, 0.8), 2.228139 + 0.879058, 1e-5);
	near(ttest_mdc(0.5, 10, 0.05, 0.8), (2.228139 + 0.879058) / 2, 1e-5);
	assert_true(isnan(ttest_mdc(1.0, 0, 0.05, 0.8)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holm_bh95),
		cmocka_unit_test(test_bh_bh95),
		cmocka_unit_test(test_padjust_shuffled_nan),
		cmocka_unit_test(test_sleep_paired_ci),
		cmocka_unit_test(test_sleep_welch),
		cmocka_unit_test(test_ratio_log),
		cmocka_unit_test(test_mean_log_finite),
		cmocka_unit_test(test_log_ratio_p),
		cmocka_unit_test(test_mdc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
