/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.c - descriptive statistics (see stats.h).
 *
 * The mean and variance use Welford's one-pass update, which stays exact
 * to rounding even when the samples are large and close together (e.g.
 * ns timings), where the naive sum-of-squares formula cancels.
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void welford(const double *x, size_t n, double *mean, double *m2)
{
	double mu = 0, s = 0;

	for (size_t i = 0; i < n; i++) {
		double d = x[i] - mu;

		mu += d / (double)(i + 1);
		s += d * (x[i] - mu);
	}
	*mean = mu;
	*m2 = s;
}

double stats_mean(const double *x, size_t n)
{
	double mu, m2;

	if (!n)
		return NAN;
	welford(x, n, &mu, &m2);
	return mu;
}

double stats_stddev(const double *x, size_t n)
{
	double mu, m2;

	if (n < 2)
		return NAN;
	welford(x, n, &mu, &m2);
	return sqrt(m2 / (double)(n - 1));
}

static double recip(double v)
{
	return 1.0 / v;
}

/* The sum of f(x[i]); NAN for no samples or any not above 0. */
static double positive_sum(const double *x, size_t n, double (*f)(double))
{
	double s = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		s += f(x[i]);
	}
	return s;
}

double stats_hmean(const double *x, size_t n)
{
	return (double)n / positive_sum(x, n, recip);
}

double stats_gmean(const double *x, size_t n)
{
	return exp(positive_sum(x, n, log) / (double)n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *x, size_t n)
{
	double *c, m;

	if (!n)
		return NAN;
	c = xmalloc(n * sizeof(*c));
	memcpy(c, x, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

void stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	out->n = n;
	out->mean = stats_mean(x, n);
	out->stddev = stats_stddev(x, n);
	out->cov_pct = n >= 2 && out->mean != 0
			       ? 100.0 * out->stddev / fabs(out->mean)
			       : NAN;
	out->min = out->max = n ? x[0] : NAN;
	for (size_t i = 1; i < n; i++) {
		if (x[i] < out->min)
			out->min = x[i];
		if (x[i] > out->max)
			out->max = x[i];
	}
	out->median = stats_median(x, n);
}
