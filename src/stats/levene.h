/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * levene.h - the Brown-Forsythe test for equal variances: Levene's
 * one-way ANOVA on the absolute deviations from each group's median
 * (not mean), robust when the groups are skewed or heavy-tailed, as
 * per-repetition benchmark figures are.  Pure.
 */
#ifndef FSLAB_LEVENE_H
#define FSLAB_LEVENE_H

#include <stddef.h>
#include <stdint.h>

struct levene_result {
	double f;               /* the statistic */
	double df1, df2;        /* k - 1, N - k */
	double p;               /* P(F(df1, df2) >= f) */
};

/*
 * Groups x[0..k) of n[i] values each.  0, or -1 when there are fewer
 * than two groups, an empty group, no residual degree of freedom, or no
 * spread at all (every deviation zero: the test has nothing to weigh).
 */
int levene_brown_forsythe(const double *const *x, const size_t *n, size_t k,
			  struct levene_result *r);

/*
 * The power of the two-group test at level alpha, n values a side, when
 * one side's sigma is sd_ratio times the other's: the share of nsim
 * seeded normal draws it rejects.  Simulated because the statistic's
 * distribution under the alternative has no closed form.
 */
double levene_bf_power(size_t n, double sd_ratio, double alpha,
		       size_t nsim, uint64_t seed);

/* The smallest n (3..max_n) with that power >= power; 0 when none. */
size_t levene_bf_n_for(double sd_ratio, double alpha, double power,
		       size_t nsim, uint64_t seed, size_t max_n);

#endif
