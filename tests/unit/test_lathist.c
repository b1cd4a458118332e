/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lathist.c - the log-linear latency histogram (src/stats/lathist.c):
 * bucket boundaries tile the whole range, the relative error bound holds,
 * and percentiles of known inputs come out where they must.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats/lathist.h"

static void test_buckets_tile(void **state)
{
	(void)state;
	assert_int_equal(lathist_bucket_low(0), 0);
	for (size_t i = 0; i + 1 < LATHIST_NR; i++) {
		/* contiguous, non-overlapping, and each maps back to itself */
		assert_true(lathist_bucket_high(i) + 1 ==
			    lathist_bucket_low(i + 1));
		assert_int_equal(lathist_index(lathist_bucket_low(i)), i);
		assert_int_equal(lathist_index(lathist_bucket_high(i)), i);
	}
	assert_int_equal(lathist_index(UINT64_MAX), LATHIST_NR - 1);
	assert_true(lathist_bucket_high(LATHIST_NR - 1) == UINT64_MAX);
}

static void test_relative_error(void **state)
{
	uint64_t v = 1;

	(void)state;
	/* exact below 64 */
	for (uint64_t x = 0; x < 64; x++)
		assert_true(lathist_bucket_low(lathist_index(x)) == x &&
			    lathist_bucket_high(lathist_index(x)) == x);
	for (int i = 0; i < 2000; i++) {
		size_t idx = lathist_index(v);
		uint64_t lo = lathist_bucket_low(idx);
		uint64_t hi = lathist_bucket_high(idx);

		assert_true(lo <= v && v <= hi);
		assert_true((double)(hi - lo) <= (double)lo / 32.0);
		v = v * 1.013 + 1;
		if (v > UINT64_MAX / 2)
			break;
	}
}

/* n samples at once are n samples one by one; a sum past 2^64 saturates. */
static void test_add_n(void **state)
{
	struct lathist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));

	(void)state;
	lathist_init(a);
	lathist_init(b);
	lathist_add_n(a, 7000, 1000);
	lathist_add_n(a, 90, 3);
	lathist_add_n(a, 5, 0);
	for (int i = 0; i < 1000; i++)
		lathist_add(b, 7000);
	for (int i = 0; i < 3; i++)
		lathist_add(b, 90);
	assert_memory_equal(a, b, sizeof(*a));
	lathist_add_n(a, UINT64_MAX / 2, 4);
	assert_true(a->sum == UINT64_MAX);
	assert_int_equal(a->count, 1007);
	free(a);
	free(b);
}

static void test_known_percentiles(void **state)
{
	struct lathist *h = malloc(sizeof(*h));

	(void)state;
	lathist_init(h);
	assert_int_equal(lathist_quantile(h, 0.5), 0);
	assert_true(lathist_mean(h) == 0.0);
	/* 1..100: exact ranks for the small values */
	for (uint64_t x = 1; x <= 100; x++)
		lathist_add(h, x);
	assert_int_equal(h->count, 100);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 100);
	assert_int_equal(lathist_quantile(h, 0.0), 1);
	assert_int_equal(lathist_quantile(h, 0.50), 50);
	assert_int_equal(lathist_quantile(h, 0.01), 1);
	/* 95 and 99 fall in 2-wide buckets [94,95] and [98,99] */
	assert_int_equal(lathist_quantile(h, 0.95), 95);
	assert_int_equal(lathist_quantile(h, 0.99), 99);
	assert_int_equal(lathist_quantile(h, 1.0), 100);
	assert_true(lathist_mean(h) == 50.5);

	/* 990 fast ops at 10 us, 10 slow at 5 ms: p99 fast, max slow */
	lathist_init(h);
	for (int i = 0; i < 990; i++)
		lathist_add(h, 10000);
	for (int i = 0; i < 10; i++)
		lathist_add(h, 5000000);
	assert_true(lathist_quantile(h, 0.50) >= 10000 &&
		    lathist_quantile(h, 0.50) <= 10000 * 33 / 32);
	assert_true(lathist_quantile(h, 0.99) >= 10000 &&
		    lathist_quantile(h, 0.99) <= 10000 * 33 / 32);
	assert_int_equal(lathist_quantile(h, 0.995), 5000000);
	assert_int_equal(lathist_quantile(h, 1.0), 5000000);
	free(h);
}

static void test_merge(void **state)
{
	struct lathist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct lathist *all = malloc(sizeof(*all));

	(void)state;
	lathist_init(a);
	lathist_init(b);
	lathist_init(all);
	for (uint64_t x = 0; x < 5000; x++) {
		uint64_t v = x * 7919 % 100003;

		lathist_add(x % 2 ? a : b, v);
		lathist_add(all, v);
	}
	lathist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	/* merging an empty histogram changes nothing, min included */
	lathist_init(b);
	lathist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	free(a);
	free(b);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_tile),
		cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_known_percentiles),
		cmocka_unit_test(test_add_n),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
