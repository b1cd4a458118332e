/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * quantci.h - distribution-free confidence interval for a quantile by
 * order statistics.  Of n independent samples, the count B at or below
 * the true q-quantile is binomial(n, q), whatever the distribution; so
 * the l-th and u-th smallest samples bracket it with probability
 * P(l <= B <= u - 1), and l, u are picked to make that >= 1 - alpha with
 * alpha/2 in each tail.  Pure: no I/O, no allocation.
 */
#ifndef FSLAB_QUANTCI_H
#define FSLAB_QUANTCI_H

#include <stddef.h>
#include <stdint.h>

#include "stats/lathist.h"

struct quantci {
	double q, alpha;
	uint64_t n;             /* samples */
	uint64_t need;          /* samples the interval needs (>= 1) */
	int ok;                 /* 0: too few samples, lo/hi unset */
	uint64_t l, u;          /* ranks (1-based) when ok */
	uint64_t est;           /* point estimate (lathist_quantile) */
	uint64_t lo, hi;        /* the interval when ok */
};

/*
 * Samples needed for a two-sided 1 - alpha interval of the q-quantile:
 * the upper rank must exist (q^n <= alpha/2) and so must the lower one
 * ((1-q)^n <= alpha/2).  For alpha 0.05: 368 for q 0.99, 3688 for 0.999.
 */
uint64_t quantci_min_n(double q, double alpha);
/* Ranks l <= u of n samples: 0, or -1 when n is below quantci_min_n. */
int quantci_ranks(uint64_t n, double q, double alpha,
		  uint64_t *l, uint64_t *u);
/*
 * The interval from a histogram: the lower edge of the bucket holding
 * rank l, the upper edge of the one holding rank u (clamped to the exact
 * min and max), so bucketing only widens it.  Returns ci->ok.
 */
int quantci_lathist(const struct lathist *h, double q, double alpha,
		    struct quantci *ci);
/* "p99.9" for 0.999, "p50" for 0.5. */
void quantci_name(double q, char *buf, size_t len);
/* "too few samples for p99.9 (N, needs 3688)". */
void quantci_refusal(const struct quantci *ci, char *buf, size_t len);

#endif
