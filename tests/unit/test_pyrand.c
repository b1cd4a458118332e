/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pyrand.c - pyrand must draw exactly what CPython 3's
 * random.Random draws; the expected values were printed by python3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/pyrand.h"

static void test_getrandbits32(void **state)
{
	struct pyrand r;

	(void)state;
	pyrand_seed(&r, 555);
	assert_int_equal(pyrand_getrandbits(&r, 32), 830411535U);
	assert_int_equal(pyrand_getrandbits(&r, 32), 1179161746U);
	assert_int_equal(pyrand_getrandbits(&r, 32), 691729750U);
}

static void test_random(void **state)
{
	struct pyrand r;

	(void)state;
	pyrand_seed(&r, 555);
	assert_true(pyrand_random(&r) == 0.19334525074470776);
	assert_true(pyrand_random(&r) == 0.1610558787597327);
}

static void test_randint(void **state)
{
	static const int64_t want[] = { 25442, 36085, 21209, 16900, 73660 };
	struct pyrand r;

	(void)state;
	pyrand_seed(&r, 555);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(pyrand_randint(&r, 100, 100000), want[i]);
}

static void test_shuffle(void **state)
{
	static const int want[] = { 5, 7, 9, 6, 0, 8, 1, 2, 4, 3 };
	int v[10];
	struct pyrand r;

	(void)state;
	for (int i = 0; i < 10; i++)
		v[i] = i;
	pyrand_seed(&r, 555);
	pyrand_shuffle(&r, v, 10, sizeof(v[0]));
	for (int i = 0; i < 10; i++)
		assert_int_equal(v[i], want[i]);
}

/* choice(range(7)) is randbelow(7). */
static void test_choice(void **state)
{
	static const int want[] = { 1, 2, 1, 1, 4, 5, 0, 1, 2, 3 };
	struct pyrand r;

	(void)state;
	pyrand_seed(&r, 555);
	for (int i = 0; i < 10; i++)
		assert_int_equal(pyrand_below(&r, 7), want[i]);
}

/* randbelow(1) still takes getrandbits(1) draws until one is 0. */
static void test_below_one_draws(void **state)
{
	struct pyrand r;

	(void)state;
	pyrand_seed(&r, 555);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pyrand_below(&r, 1), 0);
	assert_int_equal(pyrand_getrandbits(&r, 32), 550506513U);
}

static void test_other_seeds(void **state)
{
	struct pyrand r;

	(void)state;
	pyrand_seed(&r, (1ULL << 40) + 7);
	assert_int_equal(pyrand_getrandbits(&r, 32), 2635837658U);
	assert_int_equal(pyrand_getrandbits(&r, 48), 229380233143394ULL);
	pyrand_seed(&r, 0);
	assert_int_equal(pyrand_getrandbits(&r, 32), 3626764237U);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_getrandbits32),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_randint),
		cmocka_unit_test(test_shuffle),
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_below_one_draws),
		cmocka_unit_test(test_other_seeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
