/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_repmean.c - the one mean over repetitions the workloads' classic
 * blocks use: harmonic for rates as compare's rows, arithmetic otherwise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "workloads/repmean.h"

static void test_rep_mean(void **state)
{
	const double x[] = { 1, 3 }, z[] = { 0, 4 };

	(void)state;
	/* 1 and 3 MiB/s over equal work: 2 units in 4/3 s */
	assert_float_equal(wl_rep_mean(x, 2, "MiB/s"), 1.5, 1e-12);
	assert_float_equal(wl_rep_mean(x, 2, "files/s"), 1.5, 1e-12);
	assert_float_equal(wl_rep_mean(x, 2, "s"), 2, 1e-12);
	assert_float_equal(wl_rep_mean(x, 2, "%"), 2, 1e-12);
	assert_float_equal(wl_rep_mean(x, 2, NULL), 2, 1e-12);
	/* a zero rate: no harmonic mean, the arithmetic one */
	assert_float_equal(wl_rep_mean(z, 2, "MiB/s"), 2, 1e-12);
	assert_float_equal(wl_rep_mean(x, 0, "MiB/s"), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rep_mean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
