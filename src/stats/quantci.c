/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quantci.c - order-statistic quantile intervals (see quantci.h).
 *
 * With F the binomial(n, q) CDF, l is the largest rank with
 * F(l - 1) <= alpha/2 and u the smallest with F(u - 1) >= 1 - alpha/2.
 * F is monotone in its argument, so both are found by bisection: a few
 * dozen CDF calls even for millions of samples.
 */
#include "stats/quantci.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

/* P(B <= k), B ~ binomial(n, q); GSL's CDF takes unsigned int counts. */
static double binom_cdf(uint64_t k, double q, uint64_t n)
{
	if (k >= n)
		return 1.0;
	if (n <= UINT_MAX)
		return gsl_cdf_binomial_P((unsigned)k, q, (unsigned)n);
	/* beyond 4e9 samples the normal approximation is exact enough */
	return gsl_cdf_gaussian_P((double)k + 0.5 - (double)n * q,
				  sqrt((double)n * q * (1 - q)));
}

uint64_t quantci_min_n(double q, double alpha)
{
	double a = log(alpha / 2), hi, lo;

	if (!(q > 0 && q < 1 && alpha > 0 && alpha < 1))
		return UINT64_MAX;
	hi = ceil(a / log(q));
	lo = ceil(a / log1p(-q));
	return (uint64_t)(hi > lo ? hi : lo);
}

int quantci_ranks(uint64_t n, double q, double alpha,
		  uint64_t *l, uint64_t *u)
{
	uint64_t a, b, m;

	if (n < quantci_min_n(q, alpha))
		return -1;
	/* largest l in [1, n] with F(l - 1) <= alpha/2; F(0) qualifies */
	a = 1;
	b = n;
	while (a < b) {
		m = a + (b - a + 1) / 2;
		if (binom_cdf(m - 1, q, n) <= alpha / 2)
			a = m;
		else
			b = m - 1;
	}
	*l = a;
	/* smallest u in [1, n] with F(u - 1) >= 1 - alpha/2; F(n-1) does */
	a = 1;
	b = n;
	while (a < b) {
		m = a + (b - a) / 2;
		if (binom_cdf(m - 1, q, n) >= 1 - alpha / 2)
			b = m;
		else
			a = m + 1;
	}
	*u = a;
	return 0;
}

/* Index of the bucket holding the rank-th smallest sample. */
static size_t bucket_of_rank(const struct lathist *h, uint64_t rank)
{
	uint64_t seen = 0;

	for (size_t i = 0; i < LATHIST_NR; i++) {
		seen += h->b[i];
		if (seen >= rank)
			return i;
	}
	return LATHIST_NR - 1;
}

static uint64_t clamp(const struct lathist *h, uint64_t v)
{
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

int quantci_lathist(const struct lathist *h, double q, double alpha,
		    struct quantci *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->q = q;
	ci->alpha = alpha;
	ci->n = h->count;
	ci->need = quantci_min_n(q, alpha);
	ci->est = lathist_quantile(h, q);
	if (quantci_ranks(h->count, q, alpha, &ci->l, &ci->u))
		return 0;
	ci->lo = clamp(h, lathist_bucket_low(bucket_of_rank(h, ci->l)));
	ci->hi = clamp(h, lathist_bucket_high(bucket_of_rank(h, ci->u)));
	ci->ok = 1;
	return 1;
}

void quantci_name(double q, char *buf, size_t len)
{
	snprintf(buf, len, "p%.4g", q * 100);
}

void quantci_refusal(const struct quantci *ci, char *buf, size_t len)
{
	char name[16];

	quantci_name(ci->q, name, sizeof(name));
	snprintf(buf, len, "too few samples for %s (%llu, needs %llu)", name,
		 (unsigned long long)ci->n, (unsigned long long)ci->need);
}
