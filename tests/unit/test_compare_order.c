/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare_order.c - the counterbalanced target order: a permutation
 * every repetition, deterministic from the seed, every target in every
 * position equally often over a full cycle, and (even n, the Williams
 * property) every ordered pair of neighbours equally often.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "phase/order.h"

#define MAXN 8

static void test_cycle(void **state)
{
	(void)state;
	assert_int_equal(order_cycle(1), 1);
	assert_int_equal(order_cycle(2), 2);
	assert_int_equal(order_cycle(3), 6);
	assert_int_equal(order_cycle(4), 4);
}

static void test_balanced_positions(void **state)
{
	(void)state;
	for (size_t n = 1; n <= MAXN; n++) {
		for (uint64_t seed = 0; seed < 20; seed++) {
			size_t cnt[MAXN][MAXN] = { { 0 } };
			size_t pair[MAXN][MAXN] = { { 0 } };
			size_t cyc = order_cycle(n);

			for (size_t rep = 0; rep < cyc; rep++) {
				size_t o[MAXN], seen[MAXN] = { 0 };

				order_for_rep(ORDER_BALANCED, n, seed, rep, o);
				for (size_t p = 0; p < n; p++) {
					assert_true(o[p] < n);
					assert_int_equal(seen[o[p]]++, 0);
					cnt[o[p]][p]++;
					if (p)
						pair[o[p - 1]][o[p]]++;
				}
			}
			for (size_t t = 0; t < n; t++)
				for (size_t p = 0; p < n; p++)
					assert_int_equal(cnt[t][p], cyc / n);
			if (n % 2 || n < 2)
				continue;
			for (size_t a = 0; a < n; a++)
				for (size_t b = 0; b < n; b++)
					assert_int_equal(pair[a][b],
							 a == b ? 0 : 1);
		}
	}
}

static void test_deterministic(void **state)
{
	size_t a[5], b[5], differ = 0;
	(void)state;

	for (size_t rep = 0; rep < 12; rep++) {
		order_for_rep(ORDER_BALANCED, 5, 42, rep, a);
		order_for_rep(ORDER_BALANCED, 5, 42, rep, b);
		assert_memory_equal(a, b, sizeof(a));
		order_for_rep(ORDER_BALANCED, 5, 43, rep, b);
		differ += memcmp(a, b, sizeof(a)) != 0;
		/* the cycle repeats */
		order_for_rep(ORDER_BALANCED, 5, 42, rep + 10, b);
		assert_memory_equal(a, b, sizeof(a));
	}
	assert_true(differ > 0);
}

static void test_fixed(void **state)
{
	size_t o[4];
	enum target_order m;
	(void)state;

	for (size_t rep = 0; rep < 5; rep++) {
		order_for_rep(ORDER_FIXED, 4, 7, rep, o);
		for (size_t p = 0; p < 4; p++)
			assert_int_equal(o[p], p);
	}
	assert_int_equal(order_parse("fixed", &m), 0);
	assert_int_equal(m, ORDER_FIXED);
	assert_int_equal(order_parse("balanced", &m), 0);
	assert_int_equal(m, ORDER_BALANCED);
	assert_int_equal(order_parse("random", &m), -1);
	assert_string_equal(order_name(ORDER_FIXED), "fixed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_balanced_positions),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_fixed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
