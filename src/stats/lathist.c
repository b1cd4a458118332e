/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lathist.c - log-linear latency histogram (see lathist.h).
 *
 * Layout, in the manner of HdrHistogram: a value v < SUB (32) has its
 * own bucket.  Above, let e be the index of v's top bit (e >= 5); the
 * SUB_BITS bits below the top bit pick one of SUB equal sub-buckets of
 * [2^e, 2^(e+1)), each 2^(e-5) wide.  So a bucket is never wider than
 * 1/32 of its lowest value, whatever the magnitude: a 3 % resolution
 * from nanoseconds to centuries in 1920 counters.
 */
#include "stats/lathist.h"

#include <math.h>
#include <string.h>

void lathist_init(struct lathist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

size_t lathist_index(uint64_t v)
{
	unsigned e, g;

	if (v < LATHIST_SUB)
		return (size_t)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	g = e - LATHIST_SUB_BITS;
	/* v >> g lies in [SUB, 2 SUB): its low bits are the sub-bucket */
	return LATHIST_SUB + (size_t)g * LATHIST_SUB +
	       (size_t)((v >> g) - LATHIST_SUB);
}

uint64_t lathist_bucket_low(size_t idx)
{
	size_t g, sub;

	if (idx < LATHIST_SUB)
		return idx;
	g = (idx - LATHIST_SUB) / LATHIST_SUB;
	sub = (idx - LATHIST_SUB) % LATHIST_SUB;
	return (uint64_t)(LATHIST_SUB + sub) << g;
}

uint64_t lathist_bucket_high(size_t idx)
{
	size_t g;

	if (idx < LATHIST_SUB)
		return idx;
	g = (idx - LATHIST_SUB) / LATHIST_SUB;
	return lathist_bucket_low(idx) + ((1ULL << g) - 1);
}

void lathist_add(struct lathist *h, uint64_t v)
{
	h->b[lathist_index(v)]++;
	h->count++;
	h->sum = h->sum + v < h->sum ? UINT64_MAX : h->sum + v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void lathist_add_n(struct lathist *h, uint64_t v, uint64_t n)
{
	uint64_t add;

	if (!n)
		return;
	h->b[lathist_index(v)] += n;
	h->count += n;
	add = v && n > UINT64_MAX / v ? UINT64_MAX : v * n;
	h->sum = h->sum + add < h->sum ? UINT64_MAX : h->sum + add;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void lathist_merge(struct lathist *dst, const struct lathist *src)
{
	for (size_t i = 0; i < LATHIST_NR; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum = dst->sum + src->sum < dst->sum ? UINT64_MAX :
		   dst->sum + src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t lathist_quantile(const struct lathist *h, double q)
{
	uint64_t rank, seen = 0, v;

	if (!h->count)
		return 0;
	if (!(q > 0))
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (size_t i = 0; i < LATHIST_NR; i++) {
		seen += h->b[i];
		if (seen < rank)
			continue;
		v = lathist_bucket_high(i);
		if (v > h->max)
			v = h->max;
		if (v < h->min)
			v = h->min;
		return v;
	}
	return h->max;
}

double lathist_mean(const struct lathist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}
