/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_levene.c - the Brown-Forsythe test against the NIST/SEMATECH
 * e-Handbook of Statistical Methods, 1.3.5.10 "Levene Test for Equality
 * of Variances": GEAR.DAT, ten batches of ten gear diameters, median
 * variant, W = 1.705910 with 9 and 90 degrees of freedom, below the 5 %
 * critical value 1.985595, so equal variances are not rejected.  The
 * p-value 0.0991 is the one the Julia package HypothesisTests reports for
 * the same data.
 *
 * The power simulation is checked against an independent one: a
 * Python script (random.gauss, seed 1, 3000 draws, F(1, 2n - 2) critical
 * value from t tables) gave for sigma ratio 2 at alpha 0.05: n 5 0.034,
 * 10 0.317, 15 0.520, 20 0.720, 25 0.819, 30 0.896.  With 4000 draws the
 * binomial sd is below 0.008, so +-0.035 holds both simulations' error.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/levene.h"

/* GEAR.DAT, batch by batch (public NIST data). */
static const double gear[10][10] = {
	{ 1.006, 0.996, 0.998, 1.000, 0.992, 0.993, 1.002, 0.999, 0.994, 1.000 },
	{ 0.998, 1.006, 1.000, 1.002, 0.997, 0.998, 0.996, 1.000, 1.006, 0.988 },
	{ 0.991, 0.987, 0.997, 0.999, 0.995, 0.994, 1.000, 0.999, 0.996, 0.996 },
	{ 1.005, 1.002, 0.994, 1.000, 0.995, 0.994, 0.998, 0.996, 1.002, 0.996 },
	{ 0.998, 0.998, 0.982, 0.990, 1.002, 0.984, 0.996, 0.993, 0.980, 0.996 },
	{ 1.009, 1.013, 1.009, 0.997, 0.988, 1.002, 0.995, 0.998, 0.981, 0.996 },
	{ 0.990, 1.004, 0.996, 1.001, 0.998, 1.000, 1.018, 1.010, 0.996, 1.002 },
	{ 0.998, 1.000, 1.006, 1.000, 1.002, 0.996, 0.998, 0.996, 1.002, 1.006 },
	{ 1.002, 0.998, 0.996, 0.995, 0.996, 1.004, 1.004, 0.998, 0.999, 0.991 },
	{ 0.991, 0.995, 0.984, 0.994, 0.997, 0.997, 0.991, 0.998, 1.004, 0.997 },
};

static void test_nist_gear(void **state)
{
	const double *x[10];
	size_t n[10];
	struct levene_result r;
	(void)state;

	for (int i = 0; i < 10; i++) {
		x[i] = gear[i];
		n[i] = 10;
	}
	assert_int_equal(levene_brown_forsythe(x, n, 10, &r), 0);
	assert_true(fabs(r.f - 1.705910) < 1e-5);
	assert_true(r.df1 == 9 && r.df2 == 90);
	assert_true(r.f < 1.985595);
	assert_true(fabs(r.p - 0.0991) < 1e-4);
}

static void test_refusals(void **state)
{
	static const double a[] = { 1, 2, 3 }, c[] = { 5, 5, 5 };
	const double *x[2] = { a, a };
	const double *same[2] = { c, c };
	size_t n[2] = { 3, 3 }, one[2] = { 1, 1 }, empty[2] = { 3, 0 };
	struct levene_result r;
	(void)state;

	assert_int_equal(levene_brown_forsythe(x, n, 1, &r), -1);
	assert_int_equal(levene_brown_forsythe(x, one, 2, &r), -1);
	assert_int_equal(levene_brown_forsythe(x, empty, 2, &r), -1);
	assert_int_equal(levene_brown_forsythe(same, n, 2, &r), -1);
	/* identical groups: no difference at all, F 0 and p 1 */
	assert_int_equal(levene_brown_forsythe(x, n, 2, &r), 0);
	assert_true(r.f == 0 && fabs(r.p - 1) < 1e-12);
}

static void test_power(void **state)
{
	(void)state;
	/* the level: equal sigmas reject at most alpha of the time; the
	 * median-centred test is conservative in small samples (the Python
	 * simulation, 6000 draws: 0.005 at n 5, 0.040 at n 10 and 25) */
	assert_true(fabs(levene_bf_power(10, 1.0, 0.05, 4000, 7) - 0.040)
		    < 0.012);
	assert_true(levene_bf_power(5, 1.0, 0.05, 4000, 7) < 0.015);
	assert_true(fabs(levene_bf_power(10, 2.0, 0.05, 4000, 7) - 0.317)
		    < 0.035);
	assert_true(fabs(levene_bf_power(25, 2.0, 0.05, 4000, 7) - 0.819)
		    < 0.035);
	/* 80 % between 20 (0.72) and 30 (0.90) */
	size_t n = levene_bf_n_for(2.0, 0.05, 0.80, 4000, 7, 60);

	assert_true(n >= 22 && n <= 27);
	assert_int_equal(levene_bf_n_for(2.0, 0.05, 0.80, 500, 7, 5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nist_gear),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_power),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
