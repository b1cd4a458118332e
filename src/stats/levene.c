/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * levene.c - Brown-Forsythe test (see levene.h).  With z_ij = |x_ij -
 * median_i|, F = ((N - k) sum n_i (zbar_i - zbar)^2) /
 * ((k - 1) sum sum (z_ij - zbar_i)^2), referred to F(k - 1, N - k).
 */
#include "stats/levene.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/stats.h"
#include "util/util.h"

int levene_brown_forsythe(const double *const *x, const size_t *n, size_t k,
			  struct levene_result *r)
{
	double *zbar, grand = 0, between = 0, within = 0;
	size_t total = 0;

	if (k < 2)
		return -1;
	for (size_t i = 0; i < k; i++) {
		if (!n[i])
			return -1;
		total += n[i];
	}
	if (total <= k)
		return -1;
	zbar = xmalloc(k * sizeof(*zbar));
	for (size_t i = 0; i < k; i++) {
		double med = stats_median(x[i], n[i]), s = 0;

		for (size_t j = 0; j < n[i]; j++)
			s += fabs(x[i][j] - med);
		zbar[i] = s / (double)n[i];
		grand += s;
	}
	grand /= (double)total;
	for (size_t i = 0; i < k; i++) {
		double med = stats_median(x[i], n[i]);

		between += (double)n[i] * (zbar[i] - grand) * (zbar[i] - grand);
		for (size_t j = 0; j < n[i]; j++) {
			double d = fabs(x[i][j] - med) - zbar[i];

			within += d * d;
		}
	}
	free(zbar);
	if (!(within > 0))
		return -1;
	r->df1 = (double)(k - 1);
	r->df2 = (double)(total - k);
	r->f = (between / r->df1) / (within / r->df2);
	r->p = gsl_cdf_fdist_Q(r->f, r->df1, r->df2);
	return 0;
}

double levene_bf_power(size_t n, double sd_ratio, double alpha,
		       size_t nsim, uint64_t seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *a = xcalloc(2 * n, sizeof(*a)), *b = a + n;
	const double *x[2] = { a, b };
	size_t nn[2] = { n, n }, hits = 0, ran = 0;
	struct levene_result r;

	gsl_rng_set(rng, (unsigned long)seed);
	for (size_t s = 0; s < nsim; s++) {
		for (size_t i = 0; i < n; i++) {
			a[i] = gsl_ran_gaussian_ziggurat(rng, 1.0);
			b[i] = gsl_ran_gaussian_ziggurat(rng, sd_ratio);
		}
		if (levene_brown_forsythe(x, nn, 2, &r))
			continue;
		ran++;
		hits += r.p < alpha;
	}
	free(a);
	gsl_rng_free(rng);
	return ran ? (double)hits / (double)ran : NAN;
}

size_t levene_bf_n_for(double sd_ratio, double alpha, double power,
		       size_t nsim, uint64_t seed, size_t max_n)
{
	/* power grows with n: bisect rather than walk every n */
	size_t lo = 3, hi = max_n;

	if (max_n < 3 ||
	    !(levene_bf_power(max_n, sd_ratio, alpha, nsim, seed) >= power))
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (levene_bf_power(mid, sd_ratio, alpha, nsim, seed) >= power)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
