/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_quantci.c - order-statistic quantile intervals against published
 * values and by seeded simulation.
 *
 * Thresholds: a two-sided 95 % interval of the p99 needs 368 samples and
 * of the p99.9 3688 (issue 39; ceil(ln 0.025 / ln q)).  Textbook ranks:
 * W. J. Conover, Practical Nonparametric Statistics (3rd ed., Wiley
 * 1999), section 3.2, the quantile test's confidence interval, table A3:
 * for n = 20 and the median at 95 % the ranks are r = 6 and s = 15
 * (exact coverage 1 - 2 * 0.0207 = 0.9586).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/lathist.h"
#include "stats/quantci.h"

static void test_thresholds(void **state)
{
	uint64_t l, u;
	(void)state;

	assert_int_equal(quantci_min_n(0.99, 0.05), 368);
	assert_int_equal(quantci_min_n(0.999, 0.05), 3688);
	/* the rank search agrees: one sample fewer has no upper rank */
	assert_int_equal(quantci_ranks(367, 0.99, 0.05, &l, &u), -1);
	assert_int_equal(quantci_ranks(368, 0.99, 0.05, &l, &u), 0);
	assert_int_equal(u, 368);
	assert_int_equal(quantci_ranks(3687, 0.999, 0.05, &l, &u), -1);
	assert_int_equal(quantci_ranks(3688, 0.999, 0.05, &l, &u), 0);
	assert_int_equal(u, 3688);
	/* the median needs only 6: (1/2)^6 <= 0.025 < (1/2)^5 */
	assert_int_equal(quantci_min_n(0.5, 0.05), 6);
}

static void test_conover_median(void **state)
{
	uint64_t l, u;
	(void)state;

	assert_int_equal(quantci_ranks(20, 0.5, 0.05, &l, &u), 0);
	assert_int_equal(l, 6);
	assert_int_equal(u, 15);
}

static void test_refusal(void **state)
{
	struct lathist h;
	struct quantci ci;
	char buf[80];
	(void)state;

	lathist_init(&h);
	for (uint64_t i = 1; i <= 1000; i++)
		lathist_add(&h, i);
	assert_int_equal(quantci_lathist(&h, 0.999, 0.05, &ci), 0);
	quantci_refusal(&ci, buf, sizeof(buf));
	assert_string_equal(buf, "too few samples for p99.9 (1000, needs 3688)");
	/* values below 32 are exact, so ranks map to themselves */
	lathist_init(&h);
	for (uint64_t i = 1; i <= 20; i++)
		lathist_add(&h, i);
	assert_int_equal(quantci_lathist(&h, 0.5, 0.05, &ci), 1);
	assert_int_equal(ci.lo, 6);
	assert_int_equal(ci.hi, 15);
	assert_int_equal(ci.est, 10);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Fraction of 10,000 intervals (raw ranks and via a histogram of the
 * samples in units of 1e-4) that hold the true quantile xi. */
static void coverage(gsl_rng *r, int lognormal, double q, double xi,
		     double *raw, double *hist, double *exact)
{
	enum { N = 500, DRAWS = 10000 };
	static double x[N];
	static struct lathist h;
	struct quantci ci;
	size_t in_raw = 0, in_hist = 0;
	uint64_t l, u;

	assert_int_equal(quantci_ranks(N, q, 0.05, &l, &u), 0);
	for (int d = 0; d < DRAWS; d++) {
		lathist_init(&h);
		for (int i = 0; i < N; i++) {
			x[i] = lognormal ? gsl_ran_lognormal(r, 0, 1) :
					   gsl_ran_exponential(r, 1);
			lathist_add(&h, (uint64_t)(x[i] * 1e4));
		}
		qsort(x, N, sizeof(x[0]), cmp_dbl);
		in_raw += x[l - 1] <= xi && xi <= x[u - 1];
		assert_int_equal(quantci_lathist(&h, q, 0.05, &ci), 1);
		in_hist += (double)ci.lo <= xi * 1e4 &&
			   xi * 1e4 <= (double)ci.hi + 1;
	}
	*exact = gsl_cdf_binomial_P((unsigned)(u - 1), q, N) -
		 gsl_cdf_binomial_P((unsigned)(l - 1), q, N);
	*raw = (double)in_raw / DRAWS;
	*hist = (double)in_hist / DRAWS;
}

/*
 * Seeded (mt19937, seed 39), n = 500, 10,000 draws each; measured
 * coverage, raw ranks / histogram (exact binomial coverage of the ranks):
 *   exponential q 0.90: 0.9643 / 0.9757 (0.9634)
 *   exponential q 0.99: 0.9783 / 0.9787 (0.9802)
 *   lognormal   q 0.90: 0.9622 / 0.9762 (0.9634)
 *   lognormal   q 0.99: 0.9799 / 0.9837 (0.9802)
 * q 0.90 lies in 93-97 %; q 0.99 is above it, not by chance: with 500
 * samples B ~ binomial(500, 0.99) takes few values, so an equal-tailed
 * interval that guarantees 95 % covers 98.0 % exactly.  The test holds
 * the simulated coverage to the exact one within 3 standard errors, which
 * checks the rank rule on real order statistics whatever the
 * distribution.  The histogram's 3 % buckets can only widen the interval.
 */
static void test_coverage(void **state)
{
	static const double qs[] = { 0.90, 0.99 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double raw, hist, exact;
	(void)state;

	gsl_rng_set(r, 39);
	for (int ln = 0; ln < 2; ln++) {
		for (size_t k = 0; k < 2; k++) {
			double q = qs[k];
			double xi = ln ? exp(gsl_cdf_ugaussian_Pinv(q)) :
					 -log1p(-q);

			coverage(r, ln, q, xi, &raw, &hist, &exact);
			print_message("%s q %.2f: raw %.4f hist %.4f "
				      "binomial %.4f\n",
				      ln ? "lognormal" : "exponential", q,
				      raw, hist, exact);
			/* 3 standard errors of a 10,000-draw proportion */
			assert_true(fabs(raw - exact) <= 0.0065);
			assert_true(raw >= 0.93);
			assert_true(hist >= raw && hist <= 0.99);
		}
	}
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_conover_median),
		cmocka_unit_test(test_refusal),
		cmocka_unit_test(test_coverage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
