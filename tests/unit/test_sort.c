/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_sort.c - stable_sort: sorted by key, and equal keys keep their
 * input order (checked with the input position carried along), for every
 * length up to 64 and a large random input; nothing for n of 0 or 1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "util/sort.h"

struct item {
	int key;
	size_t pos;
};

static int by_key(const void *a, const void *b, void *arg)
{
	const struct item *x = a, *y = b;

	++*(size_t *)arg;
	return (x->key > y->key) - (x->key < y->key);
}

static void check_sorted(const struct item *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		assert_true(v[i - 1].key <= v[i].key);
		if (v[i - 1].key == v[i].key)
			assert_true(v[i - 1].pos < v[i].pos);
	}
}

/* A fixed LCG: the same inputs everywhere. */
static unsigned next(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

static void test_stable(void **state)
{
	unsigned seed = 42;
	struct item v[64];

	(void)state;
	for (size_t n = 0; n <= 64; n++) {
		size_t calls = 0;

		for (size_t i = 0; i < n; i++) {
			v[i].key = (int)(next(&seed) % 5);  /* many ties */
			v[i].pos = i;
		}
		stable_sort(v, n, sizeof(*v), by_key, &calls);
		check_sorted(v, n);
		if (n < 2)
			assert_int_equal(calls, 0);
	}
}

static void test_large(void **state)
{
	size_t n = 100000, calls = 0;
	struct item *v = calloc(n, sizeof(*v));
	unsigned seed = 7;

	(void)state;
	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		v[i].key = (int)(next(&seed) % 1000);
		v[i].pos = i;
	}
	stable_sort(v, n, sizeof(*v), by_key, &calls);
	check_sorted(v, n);
	/* merge sort: at most n * ceil(log2 n) comparisons */
	assert_true(calls <= n * 17);
	free(v);
}

static void test_presorted_and_reversed(void **state)
{
	struct item v[10];
	size_t calls = 0;

	(void)state;
	for (size_t i = 0; i < 10; i++)
		v[i] = (struct item){ (int)(10 - i), i };
	stable_sort(v, 10, sizeof(*v), by_key, &calls);
	for (size_t i = 0; i < 10; i++) {
		assert_int_equal(v[i].key, (int)i + 1);
		assert_int_equal(v[i].pos, 9 - i);
	}
	stable_sort(v, 10, sizeof(*v), by_key, &calls);
	for (size_t i = 0; i < 10; i++)
		assert_int_equal(v[i].pos, 9 - i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stable),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_presorted_and_reversed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
