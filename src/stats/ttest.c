/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ttest.c - Student t intervals, Welch's t-test and the delta-method
 * ratio interval (see ttest.h for the reasoning), on GSL's t CDF.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "stats/ttest.h"

double ttest_tcrit(double alpha, double df)
{
	if (!(df > 0) || !(alpha > 0 && alpha < 1))
		return NAN;
	return gsl_cdf_tdist_Pinv(1.0 - alpha / 2.0, df);
}

int ttest_mean_ci(const struct ttest_sample *s, double alpha, double *lo,
		  double *hi)
{
	double half;

	*lo = *hi = NAN;
	if (s->n < 2 || !isfinite(s->sd))
		return -1;
	half = ttest_tcrit(alpha, (double)s->n - 1) * s->sd /
	       sqrt((double)s->n);
	*lo = s->mean - half;
	*hi = s->mean + half;
	return 0;
}

/* Welch-Satterthwaite: df of a sum of two scaled chi-square variances. */
static double welch_df(double va, size_t na, double vb, size_t nb)
{
	double num = (va + vb) * (va + vb);
	double den = va * va / ((double)na - 1) + vb * vb / ((double)nb - 1);

	return den > 0 ? num / den : NAN;
}

int ttest_welch(const struct ttest_sample *a, const struct ttest_sample *b,
		double alpha, struct welch_result *out)
{
	double va, vb, half;

	out->diff = out->se = out->t = out->df = out->p = NAN;
	out->lo = out->hi = NAN;
	if (a->n < 2 || b->n < 2 || !isfinite(a->sd) || !isfinite(b->sd))
		return -1;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	out->diff = b->mean - a->mean;
	out->se = sqrt(va + vb);
	if (out->se == 0) {
		/* Identical repetitions: nothing to test against. */
		out->p = out->diff == 0 ? 1.0 : 0.0;
		out->lo = out->hi = out->diff;
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		return 0;
	}
	out->t = out->diff / out->se;
	out->df = welch_df(va, a->n, vb, b->n);
	/* GSL's default handler aborts on domain errors: never feed it one. */
	if (!(out->df > 0) || !isfinite(out->df) || !isfinite(out->t))
		return -1;
	out->p = 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
	half = ttest_tcrit(alpha, out->df) * out->se;
	out->lo = out->diff - half;
	out->hi = out->diff + half;
	return 0;
}

int ttest_ratio_ci(const struct ttest_sample *a, const struct ttest_sample *b,
		   double alpha, double *ratio, double *lo, double *hi)
{
	double r, ra, rb, se, df, half;

	*ratio = *lo = *hi = NAN;
	if (a->mean == 0 || !isfinite(a->mean) || !isfinite(b->mean))
		return -1;
	r = b->mean / a->mean;
	*ratio = r;
	if (a->n < 2 || b->n < 2 || !isfinite(a->sd) || !isfinite(b->sd))
		return -1;
	/* Squared relative standard errors of each mean. */
	ra = a->sd * a->sd / ((double)a->n * a->mean * a->mean);
	rb = b->mean != 0 ?
	     b->sd * b->sd / ((double)b->n * b->mean * b->mean) : 0;
	se = fabs(r) * sqrt(ra + rb);
	if (se == 0) {
		*lo = *hi = r;
		return 0;
	}
	df = welch_df(ra, a->n, rb, b->n);
	half = ttest_tcrit(alpha, df) * se;
	*lo = r - half;
	*hi = r + half;
	return 0;
}

int ttest_mean_ci_log(const struct ttest_sample *s, double alpha, double *lo,
		      double *hi)
{
	double h;

	*lo = *hi = NAN;
	if (s->n < 2 || !isfinite(s->sd) || !(s->mean > 0) ||
	    !isfinite(s->mean))
		return -1;
	h = ttest_tcrit(alpha, (double)s->n - 1) * s->sd /
	    (sqrt((double)s->n) * s->mean);
	*lo = s->mean * exp(-h);
	*hi = s->mean * exp(h);
	return 0;
}

int ttest_ratio_ci_log(const struct ttest_sample *a,
		       const struct ttest_sample *b, double alpha,
		       double *ratio, double *lo, double *hi, double *se_log,
		       double *df)
{
	double ra, rb, se, d, h;

	*ratio = *lo = *hi = NAN;
	if (se_log)
		*se_log = NAN;
	if (df)
		*df = NAN;
	if (!(a->mean > 0) || !(b->mean > 0) || !isfinite(a->mean) ||
	    !isfinite(b->mean))
		return -1;
	*ratio = b->mean / a->mean;
	if (a->n < 2 || b->n < 2 || !isfinite(a->sd) || !isfinite(b->sd))
		return -1;
	ra = a->sd * a->sd / ((double)a->n * a->mean * a->mean);
	rb = b->sd * b->sd / ((double)b->n * b->mean * b->mean);
	se = sqrt(ra + rb);
	if (se_log)
		*se_log = se;
	if (se == 0) {
		*lo = *hi = *ratio;
		return 0;
	}
	d = welch_df(ra, a->n, rb, b->n);
	if (df)
		*df = d;
	h = ttest_tcrit(alpha, d) * se;
	if (!isfinite(h))
		return -1;
	*lo = *ratio * exp(-h);
	*hi = *ratio * exp(h);
	return 0;
}

double ttest_mdc(double se, double df, double alpha, double power)
{
	if (!(se >= 0) || !isfinite(se) || !(df > 0) || !isfinite(df) ||
	    !(power > 0 && power < 1))
		return NAN;
	return (ttest_tcrit(alpha, df) + gsl_cdf_tdist_Pinv(power, df)) * se;
}

double ttest_log_ratio_p(double ratio, double se_log, double df)
{
	double t;

	if (!(ratio > 0) || !isfinite(ratio) || !(se_log >= 0))
		return NAN;
	if (se_log == 0)
		return ratio == 1 ? 1.0 : 0.0;
	if (!(df > 0) || !isfinite(df))
		return NAN;
	t = fabs(log(ratio)) / se_log;
	if (!isfinite(t))
		return NAN;
	return fmin(1.0, 2.0 * gsl_cdf_tdist_Q(t, df));
}
