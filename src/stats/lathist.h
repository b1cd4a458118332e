/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lathist.h - a log-linear latency histogram in fio's bucket scheme
 * (stat.h FIO_IO_U_PLAT_*), so fio's json+ "bins" import losslessly:
 * fixed memory (15 KiB), O(1) add with no allocation, exact below 128,
 * then 64 buckets per power of two, so a bucket's midpoint is within
 * 1/128 (0.78 %) of any value in it.  Threads keep one each and merge
 * them at the end, so the hot path never shares a cache line.
 */
#ifndef FSLAB_LATHIST_H
#define FSLAB_LATHIST_H

#include <stddef.h>
#include <stdint.h>

/* fio's FIO_IO_U_PLAT_BITS: 2^6 linear buckets per power of two. */
#define LATHIST_SUB_BITS 6
#define LATHIST_SUB (1u << LATHIST_SUB_BITS)
/*
 * fio's FIO_IO_U_PLAT_GROUP_NR: 29 groups of SUB, 1856 buckets.  Values
 * 0..127 exactly (the first two groups), the last bucket holds every
 * value from 2^33 + 63 * 2^27 ns (about 17 s) up.
 */
#define LATHIST_GROUPS 29
#define LATHIST_NR (LATHIST_GROUPS * LATHIST_SUB)

struct lathist {
	uint64_t count;
	uint64_t sum;           /* saturates at UINT64_MAX */
	uint64_t min, max;      /* exact; min is UINT64_MAX while empty */
	uint64_t b[LATHIST_NR];
};

void lathist_init(struct lathist *h);
void lathist_add(struct lathist *h, uint64_t v);
/* n samples of value v at once (a histogram read from another tool). */
void lathist_add_n(struct lathist *h, uint64_t v, uint64_t n);
/* dst += src. */
void lathist_merge(struct lathist *dst, const struct lathist *src);
/*
 * The q-quantile (0 <= q <= 1) by nearest rank: the highest value of the
 * bucket holding the ceil(q * count)-th smallest sample, clamped to the
 * exact min and max.  0 when empty.
 */
uint64_t lathist_quantile(const struct lathist *h, double q);
/*
 * The cumulative distribution at each non-empty bucket: x[i] its upper
 * edge in the unit (clamped to the exact max, at least 1, so a log axis
 * takes it), y[i] the fraction of samples at or below; x and y hold
 * LATHIST_NR.  The number of points.
 */
size_t lathist_cdf(const struct lathist *h, double *x, double *y);
/* Mean of the samples, 0 when empty. */
double lathist_mean(const struct lathist *h);

/* Bucket arithmetic, exposed for the unit test and the fio import. */
size_t lathist_index(uint64_t v);
/* The value fio prints for a bucket in json+ (its midpoint, truncated). */
uint64_t lathist_bucket_value(size_t idx);
uint64_t lathist_bucket_low(size_t idx);
uint64_t lathist_bucket_high(size_t idx);

#endif
