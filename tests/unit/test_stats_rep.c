/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stats_rep.c - the figure per repetition and the mean over
 * repetitions (stats/repmean.h): rates are total work over total time
 * inside a repetition and harmonic across repetitions; everything else
 * arithmetic.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/repmean.h"

static void test_kind(void **state)
{
	const double pos[] = { 10, 20 }, zero[] = { 10, 0 };
	(void)state;

	assert_true(rep_unit_is_rate("MiB/s"));
	assert_true(rep_unit_is_rate("files/s"));
	assert_false(rep_unit_is_rate("s"));
	assert_false(rep_unit_is_rate("/s"));
	assert_false(rep_unit_is_rate(NULL));
	assert_int_equal(rep_mean_kind("MiB/s", pos, 2), REP_MEAN_HARMONIC);
	assert_int_equal(rep_mean_kind("MiB/s", zero, 2),
			 REP_MEAN_ARITHMETIC);
	assert_int_equal(rep_mean_kind("s", pos, 2), REP_MEAN_ARITHMETIC);
	assert_string_equal(rep_mean_name(REP_MEAN_HARMONIC), "harmonic");
}

static void test_mean(void **state)
{
	/* The same work at 60/s and at 40/s: 2 units in 1/60 + 1/40 s. */
	const double r[] = { 60, 40 }, t[] = { 1, 2, 6 };
	enum rep_mean_kind k;
	(void)state;

	assert_true(fabs(rep_mean("MiB/s", r, 2, &k) - 48.0) < 1e-12);
	assert_int_equal(k, REP_MEAN_HARMONIC);
	assert_true(fabs(rep_mean("s", t, 3, &k) - 3.0) < 1e-12);
	assert_int_equal(k, REP_MEAN_ARITHMETIC);
	assert_true(isnan(rep_mean("s", t, 0, NULL)));
}

static void test_fold(void **state)
{
	/* Two instances of one phase in one repetition: 100 MiB in 1 s and
	 * 300 MiB in 2 s are 400 MiB in 3 s, not (100 + 150) / 2. */
	const double rate[] = { 100, 150 }, wall[] = { 1, 2 };
	const double bad_wall[] = { 1, 0 };
	const double secs[] = { 1, 2 };
	(void)state;

	assert_true(fabs(rep_fold("MiB/s", rate, wall, 2) - 400.0 / 3) <
		    1e-12);
	assert_true(fabs(rep_fold("MiB/s", rate, NULL, 2) - 125) < 1e-12);
	assert_true(fabs(rep_fold("MiB/s", rate, bad_wall, 2) - 125) < 1e-12);
	assert_true(fabs(rep_fold("s", secs, wall, 2) - 1.5) < 1e-12);
	assert_true(rep_fold("MiB/s", rate, wall, 1) == 100);
	assert_true(isnan(rep_fold("s", secs, wall, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_mean),
		cmocka_unit_test(test_fold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
