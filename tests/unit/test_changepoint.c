/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_changepoint.c - E-divisive means against hand-computed values of
 * Q, no change point in a flat noisy series, and seeded simulations:
 * single steps of 5 % and 10 % at known runs in series of 100 points
 * with CoV 2, 2.5 and 3 % (the noise of a good benchmark), scored by
 * F1 at the exact run and within one and two runs beside the bound no
 * method can beat (a maximum-likelihood oracle, itself checked against
 * Spitzer's formula), with at most one false change point per 100
 * points; the least-squares refinement by hand.  The same input gives
 * the same output.
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

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/changepoint.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/*
 * x = 1 2 10 11.  tau = 2: cross sum 9+10+8+9 = 36, within 1 and 1:
 * E = 2*36/4 - 1 - 1 = 16, Q = (2*2/4) * 16 = 16.  tau = 1 (and 3 by
 * symmetry): cross 1+9+10 = 20, within right 8+9+1 = 18:
 * E = 40/3 - 18/3 = 22/3, Q = (1*3/4) * 22/3 = 5.5.
 */
static void test_hand_computed(void **state)
{
	const double x[] = { 1, 2, 10, 11 };
	const double y[] = { 0, 0, 0, 3, 3 };
	double q;
	(void)state;

	assert_int_equal(cp_best_split(x, 0, 4, 1, &q), 2);
	near(q, 16, 1e-12);
	assert_int_equal(cp_best_split(x, 0, 4, 2, &q), 2);
	near(q, 16, 1e-12);
	/* Only tau = 1 or 3 allowed when the middle is excluded: 0..3 of
	 * length 3 with min_seg 1: tau 1 -> X={1},Y={2,10}: cross 1+9=10,
	 * within right 8: E = 2*10/2 - 8 = 2, Q = 2/3*2; tau 2 ->
	 * X={1,2},Y={10}: cross 9+8=17, within left 1: E = 17 - 1 = 16,
	 * Q = 2/3*16. */
	assert_int_equal(cp_best_split(x, 0, 3, 1, &q), 2);
	near(q, 32.0 / 3, 1e-12);
	/* 0 0 0 | 3 3: cross 6*3 = 18, E = 2*18/6 = 6, Q = 6/5 * 6. */
	assert_int_equal(cp_best_split(y, 0, 5, 1, &q), 3);
	near(q, 7.2, 1e-12);
	/* Too short for two segments of 3. */
	assert_int_equal(cp_best_split(y, 0, 5, 3, &q), 0);
}

static void test_clear_step(void **state)
{
	const double x[] = { 100, 101, 99, 100, 102, 98, 100, 80, 81, 79,
			     80, 82, 78, 80 };
	struct cp_opts o;
	struct cp_point *p;
	size_t n;
	(void)state;

	cp_opts_init(&o);
	n = cp_edivisive(x, 14, &o, &p);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].at, 7);
	near(p[0].before, 100, 1e-9);
	near(p[0].after, 80, 1e-9);
	free(p);
}

/* A flat series with realistic noise (seeded, CoV 2.5 %) has none. */
static void test_flat_none(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cp_opts o;
	struct cp_point *p;
	double x[60];
	(void)state;

	gsl_rng_set(rng, 1);
	for (size_t i = 0; i < 60; i++)
		x[i] = 500 * (1 + gsl_ran_gaussian(rng, 0.025));
	cp_opts_init(&o);
	assert_int_equal(cp_edivisive(x, 60, &o, &p), 0);
	assert_null(p);
	o.log = true;
	assert_int_equal(cp_edivisive(x, 60, &o, &p), 0);
	/* A single spike is no change: min_seg points on each side. */
	x[30] *= 1.5;
	assert_int_equal(cp_edivisive(x, 60, &o, &p), 0);
	gsl_rng_free(rng);
}

static void noise(gsl_rng *rng, double *x, size_t n, double cov)
{
	for (size_t i = 0; i < n; i++)
		x[i] = 1000 * (1 + gsl_ran_gaussian(rng, cov));
}

static void test_no_step(void **state)
{
	double x[100];
	struct cp_opts o;
	struct cp_point *p;
	size_t total = 0;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	(void)state;

	cp_opts_init(&o);
	gsl_rng_set(rng, 42);
	for (int s = 0; s < 200; s++) {
		noise(rng, x, 100, 0.02 + 0.01 * gsl_rng_uniform(rng));
		total += cp_edivisive(x, 100, &o, &p);
		free(p);
	}
	printf("# no step: %zu false change points in 200 series of 100\n",
	       total);
	/* At most one per 100 points. */
	assert_true(total <= 200);
	gsl_rng_free(rng);
}

/*
 * What no method can beat.  Place one mean shift of delta noise
 * standard deviations by maximum likelihood, knowing both means: moving
 * the split k runs too far to one side changes the log-likelihood by a
 * random walk with drift -delta^2/2 and standard deviation delta, and the
 * split is exact only when the walks on both sides never go positive.
 * For one walk that probability is, by the Sparre Andersen-Spitzer
 * formula (Spitzer, "A combinatorial lemma and its application to
 * probability theory", Trans. AMS 82, 1956; Feller vol. II, XII.7),
 *   P(S_k < 0 for all k >= 1) = exp(-sum_k P(S_k >= 0) / k)
 *                              = exp(-sum_k Phi(-delta sqrt(k) / 2) / k),
 * checked here against a simulation of the walks; squared, it is the
 * chance of the exact run for a long series.  A 5 % step in noise of
 * CoV 2, 2.5 and 3 % is delta = 2.5, 2 and 1.67.
 */
static double spitzer(double delta)
{
	double sum = 0;

	for (int k = 1; k < 100000; k++)
		sum += gsl_cdf_ugaussian_P(-delta * sqrt(k) / 2) / k;
	return exp(-sum);
}

static void test_oracle_walk(void **state)
{
	const double deltas[] = { 2.5, 2.0, 5.0 / 3 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	(void)state;

	gsl_rng_set(rng, 2014);
	for (size_t d = 0; d < 3; d++) {
		double delta = deltas[d], p = spitzer(delta), sim, se;
		int never = 0, nwalk = 10000;

		for (int w = 0; w < nwalk; w++) {
			double sum = 0;
			bool pos = false;

			/* After 200 steps the walk is 200 delta^2/2 below
			 * zero, tens of its standard deviations. */
			for (int k = 0; k < 200 && !pos; k++) {
				sum += -delta * delta / 2 +
				       gsl_ran_gaussian(rng, delta);
				pos = sum >= 0;
			}
			never += !pos;
		}
		sim = (double)never / nwalk;
		se = sqrt(p * (1 - p) / nwalk);
		printf("# oracle, delta %.2f sd: one side never ahead %.3f "
		       "(Spitzer %.4f), exact run %.3f\n", delta, sim, p,
		       p * p);
		assert_true(fabs(sim - p) <= 5 * se);
	}
	/* The published figure the series' oracle below must come near. */
	near(spitzer(2.0) * spitzer(2.0), 0.642, 0.002);
	gsl_rng_free(rng);
}

struct score {
	size_t tp[3], fp[3], fn[3]; /* by tolerance 0, 1, 2 runs */
	size_t oracle[3];           /* oracle within 0, 1, 2 runs */
	size_t nser;
};

static double f1(const struct score *sc, int tol)
{
	double tp = (double)sc->tp[tol];

	return 2 * tp / (2 * tp + (double)sc->fp[tol] + (double)sc->fn[tol]);
}

/* False change points per 100 points (every series has 100). */
static double fp100(const struct score *sc, int tol)
{
	return (double)sc->fp[tol] / (double)sc->nser;
}

/*
 * The maximum-likelihood split of x[lo..hi] into N(m1, (cov m1)^2) and
 * N(m2, (cov m2)^2), the true means and noise: the oracle knows all
 * but the noise itself.  Ties go to the earliest split.
 */
static size_t oracle_split(const double *x, size_t lo, size_t hi, double m1,
			   double m2, double cov)
{
	double s1 = cov * m1, s2 = cov * m2, sum = 0, best = INFINITY;
	size_t arg = lo;

	/* Cost of a split at t, less a constant: sum over i < t of
	 * nll1(x_i) - nll2(x_i). */
	for (size_t i = 0; i < lo; i++)
		sum += ((x[i] - m1) * (x[i] - m1) / (2 * s1 * s1) + log(s1)) -
		       ((x[i] - m2) * (x[i] - m2) / (2 * s2 * s2) + log(s2));
	for (size_t t = lo; t <= hi; t++) {
		if (sum < best) {
			best = sum;
			arg = t;
		}
		sum += ((x[t] - m1) * (x[t] - m1) / (2 * s1 * s1) + log(s1)) -
		       ((x[t] - m2) * (x[t] - m2) / (2 * s2 * s2) + log(s2));
	}
	return arg;
}

/*
 * nser seeded series of 100 points, CoV cov, one step of step_pct up or
 * down at a run drawn from 10..90.  A change point is found when it is
 * within tol runs of the step (the first such counts; any other is a
 * false change point), for tol 0 (the exact run), 1 and 2.
 */
static void score_steps(double step_pct, double cov, bool log, size_t nser,
			unsigned long seed, struct score *sc)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cp_opts o;
	double x[100];

	memset(sc, 0, sizeof(*sc));
	sc->nser = nser;
	cp_opts_init(&o);
	o.log = log;
	gsl_rng_set(rng, seed);
	for (size_t s = 0; s < nser; s++) {
		size_t at = 10 + gsl_rng_uniform_int(rng, 81), ot;
		double f = 1 + (gsl_rng_uniform(rng) < 0.5 ? -1 : 1) *
			       step_pct / 100;
		struct cp_point *p;
		size_t n;

		noise(rng, x, 100, cov);
		for (size_t i = at; i < 100; i++)
			x[i] *= f;
		ot = oracle_split(x, 10, 90, 1000, 1000 * f, cov);
		n = cp_edivisive(x, 100, &o, &p);
		for (int tol = 0; tol < 3; tol++) {
			bool found = false;

			sc->oracle[tol] += (ot > at ? ot - at : at - ot) <=
					   (size_t)tol;
			for (size_t k = 0; k < n; k++) {
				size_t d = p[k].at > at ? p[k].at - at :
					   at - p[k].at;

				if (!found && d <= (size_t)tol) {
					found = true;
					sc->tp[tol]++;
				} else {
					sc->fp[tol]++;
				}
			}
			sc->fn[tol] += !found;
		}
		free(p);
	}
	gsl_rng_free(rng);
}

/*
 * The detection table, on the log scale `history` uses.  The oracle
 * places the one step it knows of and so scores F1 = its hit rate; it
 * bounds what any method can do.  A 5 % step in CoV 2.5 % noise is two
 * standard deviations: the oracle itself hits the exact run only about
 * 64 % of the time and within one run 88 %, so the goal (F1 0.9
 * at 5 %) is attainable within two runs only, and that is asserted.
 * Asserted too, with margins of several standard errors (so the seeded
 * test passes for other seeds as well): the detector within 0.06 of the
 * oracle everywhere, a 10 % step within one run at F1 >= 0.9, and at
 * most one false change point per 100 points even at the exact run.
 */
static void test_f1(void **state)
{
	const double covs[] = { 0.02, 0.025, 0.03 }, steps[] = { 5, 10 };
	const size_t nser = 2000;
	struct score sc;
	(void)state;

	printf("# %zu seeded series of 100 points per row, one step at a "
	       "run in 10..90,\n# found = within 0/1/2 runs; F1 (oracle "
	       "hit rate), false change points per 100 points\n", nser);
	printf("# step  CoV   exact F1 (oracle)   fp | +-1 F1 (oracle)   "
	       "fp | +-2 F1 (oracle)   fp\n");
	for (size_t si = 0; si < 2; si++) {
		for (size_t ci = 0; ci < 3; ci++) {
			score_steps(steps[si], covs[ci], true, nser,
				    100 + 10 * si + ci, &sc);
			printf("# %3.0f%%  %3.1f%%", steps[si], covs[ci] * 100);
			for (int tol = 0; tol < 3; tol++) {
				double orc = (double)sc.oracle[tol] /
					     (double)nser;

				printf(" %s %.3f (%.3f) %.3f", tol ? " |" : "  ",
				       f1(&sc, tol), orc, fp100(&sc, tol));
				assert_true(f1(&sc, tol) >= orc - 0.06);
				assert_true(fp100(&sc, tol) <= 1.0);
			}
			printf("\n");
			if (steps[si] == 5 && covs[ci] <= 0.025)
				assert_true(f1(&sc, 2) >= 0.9);
			if (steps[si] == 10)
				assert_true(f1(&sc, 1) >= 0.9);
		}
	}
	printf("# the issue's goal, F1 >= 0.9 for a 5%% step at the exact "
	       "run, is above what even the oracle reaches (0.54-0.78 at "
	       "CoV 3-2%%): asserted instead within 2 runs at CoV <= 2.5%%\n");
	/* The linear scale does as well on such series. */
	score_steps(5, 0.025, false, nser, 200, &sc);
	printf("# linear scale, 5%% CoV 2.5%%: F1 %.3f / %.3f / %.3f, fp "
	       "%.3f / %.3f / %.3f\n", f1(&sc, 0), f1(&sc, 1), f1(&sc, 2),
	       fp100(&sc, 0), fp100(&sc, 1), fp100(&sc, 2));
	assert_true(f1(&sc, 2) >= 0.9);
}

/*
 * Two or three steps of 5-10 % at least 10 runs apart, CoV 2-3 %:
 * each point must be placed between its neighbours, not against a
 * segment that still held another step.
 */
static void test_multi_step(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t tp[3] = { 0 }, fp[3] = { 0 }, fn[3] = { 0 }, nser = 2000;
	struct cp_opts o;
	double f[3];
	(void)state;

	cp_opts_init(&o);
	o.log = true;
	gsl_rng_set(rng, 5);
	for (size_t s = 0; s < nser; s++) {
		size_t at[3], ns = 2 + gsl_rng_uniform_int(rng, 2), n;
		double x[100], lvl = 1000;
		double cov = 0.02 + 0.01 * gsl_rng_uniform(rng);
		struct cp_point *p;

		at[0] = 8 + gsl_rng_uniform_int(rng, 20);
		for (size_t k = 1; k < ns; k++)
			at[k] = at[k - 1] + 10 + gsl_rng_uniform_int(rng, 20);
		for (size_t i = 0, k = 0; i < 100; i++) {
			if (k < ns && i == at[k]) {
				lvl *= 1 + (gsl_rng_uniform(rng) < 0.5 ? -1 : 1) *
					   (5 + 5 * gsl_rng_uniform(rng)) / 100;
				k++;
			}
			x[i] = lvl * (1 + gsl_ran_gaussian(rng, cov));
		}
		n = cp_edivisive(x, 100, &o, &p);
		for (size_t tol = 0; tol < 3; tol++) {
			bool used[3] = { false, false, false };

			for (size_t j = 0; j < n; j++) {
				bool hit = false;

				for (size_t k = 0; k < ns && !hit; k++) {
					size_t d = p[j].at > at[k] ?
						   p[j].at - at[k] :
						   at[k] - p[j].at;

					if (!used[k] && d <= tol)
						used[k] = hit = true;
				}
				if (hit)
					tp[tol]++;
				else
					fp[tol]++;
			}
			for (size_t k = 0; k < ns; k++)
				fn[tol] += !used[k];
		}
		free(p);
	}
	for (int tol = 0; tol < 3; tol++)
		f[tol] = 2.0 * (double)tp[tol] /
			 (2.0 * (double)tp[tol] + (double)fp[tol] +
			  (double)fn[tol]);
	printf("# 2-3 steps of 5-10%%, CoV 2-3%%, %zu series of 100: F1 "
	       "%.3f / %.3f / %.3f (exact / +-1 / +-2), false per 100 "
	       "points %.3f / %.3f / %.3f\n", nser, f[0], f[1], f[2],
	       (double)fp[0] / (double)nser, (double)fp[1] / (double)nser,
	       (double)fp[2] / (double)nser);
	assert_true(f[2] >= 0.9);
	assert_true((double)fp[0] / (double)nser <= 1.0);
	gsl_rng_free(rng);
}

/*
 * Refinement, by hand.  0 0 0 0 1 1 1 1 5 5 5 5 with points at 5 and 8,
 * min_seg 2: between 0 and 8 the between-segment sum of squares
 * n1 n2 / n (m1 - m2)^2 is 0.67, 1.2, 2, 1.2, 0.67 at t = 2..6, so the
 * first goes to 4; between 4 and 12 it is 10.7, 19.2, 32, 19.2, 10.7 at
 * 6..10, so the second stays at 8.
 */
static void test_refine(void **state)
{
	const double x[] = { 0, 0, 0, 0, 1, 1, 1, 1, 5, 5, 5, 5 };
	const double y[] = { 0, 0, 0, 9, 9, 9, 9, 9 };
	/* 0 0 1 1 2 2: 3 at t = 2, 2.67 at 3, 3 at 4 (8/6 * 1.5^2 both) */
	const double z[] = { 0, 0, 1, 1, 2, 2 };
	/* Noiseless staircase: exact steps, whatever E-divisive's split. */
	const double w[] = { 10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11,
			     13, 13, 13, 13, 13, 13 };
	/* Two steps, noiseless: without the refinement before the second
	 * pass only the one at 9 is kept (found by trying every such
	 * staircase of 24 points). */
	const double v[] = { 100, 100, 100, 100, 130, 130, 130, 130, 130,
			     150, 150, 150, 150, 150, 150, 150, 150, 150,
			     150, 150, 150, 150, 150, 150 };
	struct cp_point p[2] = { { .at = 5 }, { .at = 8 } }, *q;
	struct cp_opts o;
	(void)state;

	cp_refine(x, 12, 2, p, 2);
	assert_int_equal(p[0].at, 4);
	assert_int_equal(p[1].at, 8);
	/* min_seg 3 keeps the split in 3..5. */
	p[0].at = 5;
	cp_refine(y, 8, 3, p, 1);
	assert_int_equal(p[0].at, 3);
	/* A tie moves nothing; from elsewhere the earliest best wins. */
	p[0].at = 4;
	cp_refine(z, 6, 2, p, 1);
	assert_int_equal(p[0].at, 4);
	p[0].at = 3;
	cp_refine(z, 6, 2, p, 1);
	assert_int_equal(p[0].at, 2);
	cp_opts_init(&o);
	assert_int_equal(cp_edivisive(w, 18, &o, &q), 2);
	assert_int_equal(q[0].at, 6);
	assert_int_equal(q[1].at, 12);
	free(q);
	assert_int_equal(cp_edivisive(v, 24, &o, &q), 2);
	assert_int_equal(q[0].at, 4);
	assert_int_equal(q[1].at, 9);
	free(q);
}

static void test_deterministic(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct cp_point *a, *b;
	struct cp_opts o;
	double x[300];
	size_t na, nb;
	(void)state;

	gsl_rng_set(rng, 3);
	noise(rng, x, 300, 0.025);
	for (size_t i = 100; i < 300; i++)
		x[i] *= i < 200 ? 0.9 : 0.85;
	cp_opts_init(&o);
	na = cp_edivisive(x, 300, &o, &a);
	nb = cp_edivisive(x, 300, &o, &b);
	assert_int_equal(na, nb);
	assert_true(na >= 2);
	assert_memory_equal(a, b, na * sizeof(*a));
	free(a);
	free(b);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_clear_step),
		cmocka_unit_test(test_flat_none),
		cmocka_unit_test(test_no_step),
		cmocka_unit_test(test_refine),
		cmocka_unit_test(test_oracle_walk),
		cmocka_unit_test(test_f1),
		cmocka_unit_test(test_multi_step),
		cmocka_unit_test(test_deterministic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
