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
