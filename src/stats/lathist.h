/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lathist.h - a log-linear latency histogram: fixed memory (15 KiB),
 * O(1) add with no allocation, and percentiles within 1/32 (3.1 %) of
 * the true sample, exact below 64.  Threads keep one each and merge
 * them at the end, so the hot path never shares a cache line.
 */
#ifndef FSLAB_LATHIST_H
#define FSLAB_LATHIST_H

#include <stddef.h>
#include <stdint.h>

/* 2^LATHIST_SUB_BITS linear sub-buckets per power of two. */
#define LATHIST_SUB_BITS 5
#define LATHIST_SUB (1u << LATHIST_SUB_BITS)
/* Values 0..SUB-1 exactly, then SUB buckets for each exponent SUB_BITS..63. */
#define LATHIST_NR (LATHIST_SUB + (64 - LATHIST_SUB_BITS) * LATHIST_SUB)

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
/* Mean of the samples, 0 when empty. */
double lathist_mean(const struct lathist *h);

/* Bucket arithmetic, exposed for the unit test. */
size_t lathist_index(uint64_t v);
uint64_t lathist_bucket_low(size_t idx);
uint64_t lathist_bucket_high(size_t idx);

#endif
