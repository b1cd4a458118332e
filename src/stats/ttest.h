/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ttest.h - inference on means for small samples: Student t confidence
 * intervals, Welch's unequal-variance t-test and a confidence interval
 * for the ratio of two means.  Benchmarks give a handful of repetitions
 * with unknown and unequal spread, which is exactly Welch's setting.
 * The t distribution comes from GSL (gsl_cdf_tdist_Pinv/_Q), not from a
 * hand-written incomplete beta function.  Pure functions, no I/O.
 */
#ifndef FSLAB_TTEST_H
#define FSLAB_TTEST_H

#include <stddef.h>

/* A sample as the tests need it: size, mean, sample standard deviation. */
struct ttest_sample {
	size_t n;
	double mean;
	double sd;
};

/* Two-sided critical value t_{1-alpha/2, df}; NaN when df <= 0. */
double ttest_tcrit(double alpha, double df);

/*
 * Confidence interval of the mean at level 1 - alpha:
 * mean +- t_{1-alpha/2, n-1} * sd / sqrt(n).  Needs n >= 2, else both
 * ends are NaN and -1 is returned.
 */
int ttest_mean_ci(const struct ttest_sample *s, double alpha, double *lo,
		  double *hi);

struct welch_result {
	double diff;       /* b.mean - a.mean */
	double se;         /* sqrt(sa^2/na + sb^2/nb) */
	double t;          /* diff / se */
	double df;         /* Welch-Satterthwaite degrees of freedom */
	double p;          /* two-sided p-value */
	double lo, hi;     /* CI of diff at level 1 - alpha */
};

/*
 * Welch's t-test of b against a.  Needs n >= 2 in both; -1 (every field
 * NaN) otherwise.  With no spread at all (se == 0) the test degenerates:
 * p is 1 when the means are equal and 0 when they differ.
 */
int ttest_welch(const struct ttest_sample *a, const struct ttest_sample *b,
		double alpha, struct welch_result *out);

/*
 * Ratio r = b.mean / a.mean with its CI at level 1 - alpha, by the delta
 * method: var(r) ~= r^2 (sa^2/(na ma^2) + sb^2/(nb mb^2)), with the
 * Welch-Satterthwaite df of the two relative variances.  Chosen over
 * Fieller because it never yields an unbounded interval and is accurate
 * when both CoVs are small, which is the case we care about (a few %);
 * for noisy data the interval is approximate and says so by being wide.
 * -1 (NaN fields) when a.mean is 0 or either n < 2.
 */
int ttest_ratio_ci(const struct ttest_sample *a, const struct ttest_sample *b,
		   double alpha, double *ratio, double *lo, double *hi);

/*
 * Confidence interval of a positive mean on the log scale:
 * mean * exp(+-t_{1-alpha/2, n-1} * sd / (sqrt(n) * mean)) (the delta
 * method for log(mean)).  Always finite and positive, asymmetric like the
 * statistic it serves: the reciprocal of a mean of times per unit of work
 * (a harmonic mean rate) maps it to a finite interval of the rate, where
 * the symmetric t interval of the time can reach 0 and make the rate's
 * upper end infinite.  -1 (NaN) when n < 2 or mean <= 0.
 */
int ttest_mean_ci_log(const struct ttest_sample *s, double alpha, double *lo,
		      double *hi);

/*
 * Ratio r = b.mean / a.mean of two positive means with its CI on the log
 * scale: log r +- t * sqrt(ra + rb), ra and rb the squared relative
 * standard errors, t with their Welch-Satterthwaite df.  Finite and
 * positive whenever both means are; a ratio's uncertainty is
 * multiplicative, so the interval is symmetric in log r, not in r.
 * *se_log (may be NULL) gets sqrt(ra + rb), *df the df.  -1 (NaN) when a
 * mean is not positive or either n < 2.
 */
int ttest_ratio_ci_log(const struct ttest_sample *a,
		       const struct ttest_sample *b, double alpha,
		       double *ratio, double *lo, double *hi, double *se_log,
		       double *df);

/*
 * Two-sided p-value of "ratio = 1" from ttest_ratio_ci_log()'s log ratio,
 * its standard error and df: the test whose acceptance region is that
 * interval, so the verdict and the interval never disagree.  Under the
 * null (equal means) it is Welch's test on the relative scale; against
 * a large change it does not lose power to the spread of the slower
 * side's absolute values.  1 when se_log is 0 and the ratio 1, 0 when
 * se_log is 0 and the ratio not; NaN when unusable.
 */
double ttest_log_ratio_p(double ratio, double se_log, double df);

/*
 * Minimum detectable change of a two-sided level-alpha test with the
 * given power, for an effect whose estimate has standard error se and
 * df degrees of freedom: (t_{1-alpha/2, df} + t_{power, df}) * se (the
 * usual normal-approximation formula with t quantiles).  NaN when df or
 * se is unusable.
 */
double ttest_mdc(double se, double df, double alpha, double power);

#endif
