/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - descriptive statistics over samples.  Pure functions: no I/O,
 * no allocation visible to the caller.  NaN inputs are the caller's bug.
 */
#ifndef FSLAB_STATS_H
#define FSLAB_STATS_H

#include <stddef.h>

/* Summary of n samples.  With n == 0 every field is NaN; with n == 1
 * stddev and cov are NaN (a single sample has no spread). */
struct stats_summary {
	size_t n;
	double mean;     /* arithmetic */
	double stddev;   /* sample standard deviation (n - 1) */
	double cov_pct;  /* 100 * stddev / |mean| */
	double min, max;
	double median;
};

void stats_summarize(const double *x, size_t n, struct stats_summary *out);
double stats_mean(const double *x, size_t n);
/* Sample standard deviation (Bessel's correction). */
double stats_stddev(const double *x, size_t n);
/* Harmonic mean: the right mean for rates over equal amounts of work.
 * NaN if any sample is <= 0. */
double stats_hmean(const double *x, size_t n);
/* Geometric mean: the right mean for ratios.  NaN if any sample <= 0. */
double stats_gmean(const double *x, size_t n);
double stats_median(const double *x, size_t n);

#endif
