/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pbisect.c - the change-point posterior of stats/pbisect.h against
 * a hand-computed 4-step example of Smith's formula, its invariants (sums
 * to 1, symmetric data give a symmetric posterior, noiseless data pin
 * the culprit), skipped steps, and a seeded simulation of the whole
 * policy: 200 bisections of 64 steps at 3 sigma find the culprit.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/pbisect.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static double post_sum(const struct pbisect *b)
{
	double s = 0;

	for (size_t c = 0; c < b->nr_steps; c++)
		s += b->post[c];
	return s;
}

/*
 * Steps 0..3, runs 0 1 | 1 | 3 | 3 4 (n = 6).  By hand:
 * c = 1: {0,1} SSE 1/2, {1,3,3,4} mean 11/4 SSE 4.75, total 5.25;
 * c = 2: {0,1,1} SSE 2/3, {3,3,4} SSE 2/3, total 4/3; c = 3 mirrors 1.
 * w(c) = (n1 n2)^-1/2 SSE^-2: w1 = w3 = 8^-1/2 / 5.25^2 = 0.0128277,
 * w2 = 3^-1 * (3/4)^2 = 3/16.  In python:
 *   d = {0: [0, 1], 1: [1], 2: [3], 3: [3, 4]}
 *   xs = [(s, x) for s in d for x in d[s]]; n = len(xs); w = []
 *   for c in (1, 2, 3):
 *       a = [x for s, x in xs if s < c]; b = [x for s, x in xs if s >= c]
 *       sse = sum((x - sum(a)/len(a))**2 for x in a) + \
 *             sum((x - sum(b)/len(b))**2 for x in b)
 *       w.append((len(a) * len(b))**-0.5 * sse**(-(n - 2) / 2))
 *   [v / sum(w) for v in w]
 *   -> 0.06017852684897639, 0.8796429463020472, 0.06017852684897639
 */
static void test_hand_computed(void **state)
{
	struct pbisect b;
	double p;
	(void)state;

	assert_int_equal(pbisect_init(&b, 4), 0);
	assert_int_equal(pbisect_update(&b), -1);
	pbisect_add(&b, 0, 0);
	pbisect_add(&b, 0, 1);
	pbisect_add(&b, 1, 1);
	pbisect_add(&b, 2, 3);
	pbisect_add(&b, 3, 3);
	assert_int_equal(pbisect_update(&b), -1);  /* one run at the bad end */
	pbisect_add(&b, 3, 4);
	assert_int_equal(pbisect_add(&b, 4, 1), -1);
	assert_int_equal(pbisect_update(&b), 0);
	near(b.post[0], 0, 0);
	near(b.post[1], 0.06017852684897639, 1e-12);
	near(b.post[2], 0.8796429463020472, 1e-12);
	near(b.post[3], 0.06017852684897639, 1e-12);
	assert_int_equal(pbisect_best(&b, &p), 2);
	near(p, 0.8796429463020472, 1e-12);
	/*
	 * Welch on the ends {0,1} and {3,4}: t = 3 / sqrt(1/4 + 1/4) =
	 * 3 sqrt 2, df 2, and t with 2 df has the closed form
	 * p = 1 - t / sqrt(t^2 + 2) = 1 - 3 / sqrt 10.
	 */
	near(pbisect_ends_p(&b), 1 - 3 / sqrt(10), 1e-9);
	pbisect_free(&b);
	assert_int_equal(pbisect_init(&b, 1), -1);
}

static void test_sum_and_symmetry(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct pbisect b;
	(void)state;

	gsl_rng_set(rng, 7);
	assert_int_equal(pbisect_init(&b, 9), 0);
	/* x at step i mirrored as -x at step 8 - i: culprit c <-> 9 - c */
	for (size_t i = 0; i <= 4; i++) {
		for (int k = 0; k < 3; k++) {
			double x = gsl_ran_gaussian(rng, 1) +
				   (i == 4 ? 0 : -1);

			pbisect_add(&b, i, x);
			pbisect_add(&b, 8 - i, -x);
		}
	}
	assert_int_equal(pbisect_update(&b), 0);
	near(post_sum(&b), 1, 1e-12);
	for (size_t c = 1; c <= 8; c++)
		near(b.post[c], b.post[9 - c], 1e-9);
	pbisect_free(&b);
	gsl_rng_free(rng);
}

static void test_noiseless(void **state)
{
	struct pbisect b;
	double p;
	(void)state;

	assert_int_equal(pbisect_init(&b, 17), 0);
	for (size_t st = 0; st < 17; st += 4)
		for (int k = 0; k < 2; k++)
			pbisect_add(&b, st, st >= 10 ? 2.0 : 1.0);
	pbisect_add(&b, 9, 1.0);
	pbisect_add(&b, 10, 2.0);
	assert_int_equal(pbisect_update(&b), 0);
	near(post_sum(&b), 1, 1e-12);
	assert_int_equal(pbisect_best(&b, &p), 10);
	assert_true(p > 1 - 1e-9);
	pbisect_free(&b);
}

static void test_skip(void **state)
{
	struct pbisect_policy pol = { 0.95, 100, 2 };
	struct pbisect_decision d;
	struct pbisect b;
	size_t lo, hi;
	double p;
	(void)state;

	assert_int_equal(pbisect_init(&b, 9), 0);
	for (size_t st = 3; st <= 7; st++)
		pbisect_skip(&b, st);
	pbisect_add(&b, 5, 100);    /* a skipped step's runs are ignored */
	for (int k = 0; k < 3; k++) {
		pbisect_add(&b, 0, 0);
		pbisect_add(&b, 1, 0);
		pbisect_add(&b, 2, 0);
		pbisect_add(&b, 8, 1);
	}
	assert_int_equal(pbisect_count(&b, 5), 0);
	assert_int_equal(pbisect_update(&b), 0);
	near(post_sum(&b), 1, 1e-12);
	/* Culprit 3 .. 8 alike: nothing tells them apart. */
	for (size_t c = 4; c <= 8; c++)
		near(b.post[c], b.post[3], 1e-12);
	p = pbisect_range(&b, 0.95, &lo, &hi);
	assert_int_equal(lo, 3);
	assert_int_equal(hi, 8);
	assert_true(p >= 0.95);
	assert_true(pbisect_range_final(&b, lo, hi));
	pbisect_decide(&b, &pol, &d);
	assert_int_equal(d.verdict, PBISECT_DONE);
	assert_int_equal(d.lo, 3);
	assert_int_equal(d.hi, 8);
	pbisect_skip(&b, 0);
	pbisect_decide(&b, &pol, &d);
	assert_int_equal(d.verdict, PBISECT_UNTESTABLE);
	pbisect_free(&b);
}

static void test_next_not_skipped(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct pbisect b;
	(void)state;

	gsl_rng_set(rng, 3);
	for (int t = 0; t < 200; t++) {
		size_t ns = 3 + gsl_rng_uniform_int(rng, 30), st;

		assert_int_equal(pbisect_init(&b, ns), 0);
		for (size_t i = 0; i < ns; i++)
			if (gsl_rng_uniform(rng) < 0.5)
				pbisect_skip(&b, i);
		b.skip[0] = b.skip[ns - 1] = 0;
		for (int k = 0; k < 20; k++) {
			st = gsl_rng_uniform_int(rng, ns);
			pbisect_add(&b, st, gsl_ran_gaussian(rng, 1) +
				    (st > ns / 2));
		}
		for (int k = 0; k < 2; k++) {
			pbisect_add(&b, 0, gsl_ran_gaussian(rng, 1));
			pbisect_add(&b, ns - 1, 1 + gsl_ran_gaussian(rng, 1));
		}
		assert_int_equal(pbisect_update(&b), 0);
		st = pbisect_next(&b);
		assert_true(st < ns);
		assert_false(b.skip[st]);
		pbisect_free(&b);
	}
	gsl_rng_free(rng);
}

static void test_simulation(void **state)
{
	struct pbisect_policy pol = { 0.95, 300, 5 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct pbisect_decision d;
	struct pbisect b;
	int right = 0;
	(void)state;

	gsl_rng_set(rng, 11);
	for (int t = 0; t < 200; t++) {
		size_t culprit = 1 + gsl_rng_uniform_int(rng, 64);

		assert_int_equal(pbisect_init(&b, 65), 0);
		for (;;) {
			pbisect_decide(&b, &pol, &d);
			if (d.verdict != PBISECT_MEASURE)
				break;
			assert_false(b.skip[d.step]);
			pbisect_add(&b, d.step, gsl_ran_gaussian(rng, 1) +
				    (d.step >= culprit ? 3 : 0));
		}
		right += d.culprit == culprit;
		pbisect_free(&b);
	}
	assert_true(right >= 180);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_sum_and_symmetry),
		cmocka_unit_test(test_noiseless),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_next_not_skipped),
		cmocka_unit_test(test_simulation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
