/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lathist.c - the log-linear latency histogram (src/stats/lathist.c):
 * bucket boundaries tile the whole range, they are fio's (a table worked
 * by hand from fio's formula), the relative error bound holds, merged
 * histograms give the pooled samples' percentiles to the bucket, and
 * percentiles of known inputs come out where they must.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

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
	/* exact below 128 */
	for (uint64_t x = 0; x < 128; x++)
		assert_true(lathist_bucket_low(lathist_index(x)) == x &&
			    lathist_bucket_high(lathist_index(x)) == x);
	for (int i = 0; i < 2000; i++) {
		size_t idx = lathist_index(v);
		uint64_t lo = lathist_bucket_low(idx);
		uint64_t hi = lathist_bucket_high(idx);

		assert_true(lo <= v && v <= hi);
		if (idx == LATHIST_NR - 1)
			break;  /* the open-ended overflow bucket */
		/* fio's bound: the midpoint is within 1/128 of the bucket */
		if (v >= 128)
			assert_true((double)(hi - lo + 1) / 2 <=
				    (double)lo * 0.0078125);
		v = v * 1.013 + 1;
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
	/* below 128 every value is its own bucket */
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
		    lathist_quantile(h, 0.50) <= 10000 * 65 / 64);
	assert_true(lathist_quantile(h, 0.99) >= 10000 &&
		    lathist_quantile(h, 0.99) <= 10000 * 65 / 64);
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

/*
 * fio's stat.c: a value v with top bit m <= 6 is index v; above, with
 * e = m - 6 low bits dropped, index = (e + 1) * 64 + ((v >> e) & 63),
 * capped at 1855; the bucket of index i >= 128 (e = i / 64 - 1, k =
 * i % 64) starts at 2^(e + 6) + k * 2^e and json+ prints it as
 * 2^(e + 6) + (k + 0.5) * 2^e.  The rows below are that, by hand.
 */
static void test_fio_table(void **state)
{
	static const struct {
		uint64_t v, idx, lo, hi, val;
	} t[] = {
		{ 0, 0, 0, 0, 0 },
		{ 127, 127, 127, 127, 127 },
		/* m = 7, e = 1: 2 * 64 + (64 & 63) */
		{ 128, 128, 128, 129, 129 },
		{ 129, 128, 128, 129, 129 },
		{ 255, 191, 254, 255, 255 },
		/* m = 9, e = 3: 4 * 64 + (125 & 63) = 317 */
		{ 1000, 317, 1000, 1007, 1004 },
		/* 1 ms: m = 19, e = 13: 14 * 64 + (122 & 63) = 954 */
		{ 1000000, 954, 999424, 1007615, 1003520 },
		/* the last bucket, 2^33 + 63 * 2^27, e = 27 */
		{ 17045651456ULL, 1855, 17045651456ULL, UINT64_MAX,
		  17112760320ULL },
		/* 2^34 would be index 1856: capped */
		{ 1ULL << 34, 1855, 17045651456ULL, UINT64_MAX,
		  17112760320ULL },
	};

	(void)state;
	assert_int_equal(LATHIST_NR, 1856);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		size_t idx = lathist_index(t[i].v);

		assert_int_equal(idx, t[i].idx);
		assert_true(lathist_bucket_low(idx) == t[i].lo);
		assert_true(lathist_bucket_high(idx) == t[i].hi);
		assert_true(lathist_bucket_value(idx) == t[i].val);
		/* fio's printed value maps back to the same bucket */
		assert_int_equal(lathist_index(t[i].val), idx);
	}
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(uint64_t *s)
{
	return sqrt(-2 * log(rng_unit(s))) * cos(6.283185307179586 *
						 rng_unit(s));
}

/* a latency in ns: 0 exponential (mean 50 us), 1 lognormal, 2 bimodal */
static uint64_t draw(int dist, uint64_t *s)
{
	switch (dist) {
	case 0:
		return (uint64_t)(-log(rng_unit(s)) * 50000);
	case 1:
		return (uint64_t)exp(log(200000) + 1.2 * rng_normal(s));
	default:
		if (rng_next(s) % 10)
			return (uint64_t)(-log(rng_unit(s)) * 20000);
		return (uint64_t)fabs(5e6 + 5e5 * rng_normal(s));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* percentiles of k merged histograms: the pooled samples', to the bucket */
static void test_merged_percentiles(void **state)
{
	static const int parts[] = { 1, 2, 8, 64 };
	static const double qs[] = { 0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 1 };
	enum { PER = 700 };
	struct lathist *h = malloc(sizeof(*h)), *all = malloc(sizeof(*all));
	uint64_t *raw = malloc(64 * PER * sizeof(*raw));

	(void)state;
	for (int dist = 0; dist < 3; dist++) {
		for (size_t p = 0; p < 4; p++) {
			uint64_t seed = 42 + (uint64_t)dist * 4 + p;
			size_t n = 0;

			lathist_init(all);
			for (int k = 0; k < parts[p]; k++) {
				lathist_init(h);
				for (int i = 0; i < PER; i++) {
					raw[n] = draw(dist, &seed);
					lathist_add(h, raw[n++]);
				}
				lathist_merge(all, h);
			}
			qsort(raw, n, sizeof(*raw), cmp_u64);
			for (size_t j = 0; j < 7; j++) {
				size_t r = (size_t)ceil(qs[j] * (double)n);
				uint64_t exact = raw[(r ? r : 1) - 1];

				assert_int_equal(
					lathist_index(lathist_quantile(all, qs[j])),
					lathist_index(exact));
			}
		}
	}
	free(raw);
	free(h);
	free(all);
}

/*
 * The CDF of 1..100 ns, each once: values below 128 have buckets of
 * their own, so the points are (k, k / 100) exactly; a sample of 1000 ns
 * and one of 0 add the bucket edge clamped to the max and the floor of
 * 1 a log axis needs.
 */
static void test_cdf(void **state)
{
	static double x[LATHIST_NR], y[LATHIST_NR];
	struct lathist h;
	size_t n;
	(void)state;

	lathist_init(&h);
	for (uint64_t v = 1; v <= 100; v++)
		lathist_add(&h, v);
	n = lathist_cdf(&h, x, y);
	assert_int_equal(n, 100);
	for (size_t i = 0; i < n; i++) {
		assert_true(x[i] == (double)(i + 1));
		assert_true(fabs(y[i] - (double)(i + 1) / 100) < 1e-12);
	}
	lathist_add(&h, 0);
	lathist_add(&h, 1000);
	n = lathist_cdf(&h, x, y);
	assert_int_equal(n, 102);
	assert_true(x[0] == 1 && fabs(y[0] - 1.0 / 102) < 1e-12);
	/* 1000's bucket (width 8) runs to 1007: clamped to the max */
	assert_true(x[101] == 1000 && y[101] == 1);
	lathist_init(&h);
	assert_int_equal(lathist_cdf(&h, x, y), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_tile),
		cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_fio_table),
		cmocka_unit_test(test_merged_percentiles),
		cmocka_unit_test(test_known_percentiles),
		cmocka_unit_test(test_add_n),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_cdf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
