/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lathist.c - log-linear latency histogram (see lathist.h).
 *
 * Layout: fio's (stat.c plat_val_to_idx / plat_idx_to_val), so that a
 * fio json+ histogram maps bucket for bucket.  A value v < 2 SUB (128)
 * is its own bucket.  Above, let m be the index of v's top bit (m >= 7)
 * and e = m - SUB_BITS the low bits dropped: v falls in group e + 1,
 * whose SUB buckets split [2^m, 2^(m+1)) into widths of 2^e, the
 * SUB_BITS bits below the top bit choosing one.  Group 28 is the last;
 * anything above it lands in its top bucket (min and max stay exact).
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
	unsigned m, e;
	size_t idx;

	if (v < 2 * LATHIST_SUB)
		return (size_t)v;
	m = 63u - (unsigned)__builtin_clzll(v);
	e = m - LATHIST_SUB_BITS;
	idx = (size_t)(e + 1) * LATHIST_SUB +
	      (size_t)((v >> e) & (LATHIST_SUB - 1));
	return idx < LATHIST_NR ? idx : LATHIST_NR - 1;
}

uint64_t lathist_bucket_low(size_t idx)
{
	unsigned e;

	if (idx < 2 * LATHIST_SUB)
		return idx;
	e = (unsigned)(idx / LATHIST_SUB) - 1;
	return (1ULL << (e + LATHIST_SUB_BITS)) +
	       (uint64_t)(idx % LATHIST_SUB) * (1ULL << e);
}

uint64_t lathist_bucket_high(size_t idx)
{
	unsigned e;

	if (idx < 2 * LATHIST_SUB)
		return idx;
	if (idx >= LATHIST_NR - 1)
		return UINT64_MAX;
	e = (unsigned)(idx / LATHIST_SUB) - 1;
	return lathist_bucket_low(idx) + ((1ULL << e) - 1);
}

uint64_t lathist_bucket_value(size_t idx)
{
	unsigned e;

	if (idx < 2 * LATHIST_SUB)
		return idx;
	e = (unsigned)(idx / LATHIST_SUB) - 1;
	/* fio: base + (k + 0.5) * 2^e, truncated; e >= 1 here */
	return lathist_bucket_low(idx) + (1ULL << (e - 1));
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

size_t lathist_cdf(const struct lathist *h, double *x, double *y)
{
	uint64_t cum = 0;
	size_t n = 0;

	for (size_t b = 0; b < LATHIST_NR; b++) {
		uint64_t hi = lathist_bucket_high(b);

		if (!h->b[b])
			continue;
		cum += h->b[b];
		x[n] = (double)(hi < h->max ? hi : h->max);
		if (x[n] < 1)
			x[n] = 1;
		y[n++] = (double)cum / (double)h->count;
	}
	return n;
}
