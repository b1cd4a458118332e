/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * histblob.h - the compact encoding of a latency histogram's buckets
 * (struct hist_rec, measure/result.h), as the store keeps it in
 * hists.buckets and as MPI ranks send theirs to rank 0.  Pure.
 *
 * A bucket blob is one format byte (1), then for each non-empty bucket
 * in index order two unsigned LEB128 varints: the index delta (the
 * first bucket's index itself, then the distance from the previous
 * non-empty one, >= 1) and the count (>= 1).  An empty histogram is
 * the format byte alone; a 200-sample phase takes a few dozen bytes.
 *
 * Decoding refuses rather than guesses: a truncated or overlong
 * varint, an index outside the scheme, a zero count, trailing bytes,
 * counts that do not add up to the row's count, and above all a
 * histogram of another bucket scheme (nr_buckets != LATHIST_NR): its
 * indices mean other bucket edges, so it is never read as ours.
 */
#ifndef FSLAB_HISTBLOB_H
#define FSLAB_HISTBLOB_H

#include <stddef.h>
#include <stdint.h>

#include "measure/result.h"

#define HISTBLOB_FORMAT 1

/* h's buckets as a blob (newly allocated), *len its size. */
unsigned char *histblob_encode(const struct hist_rec *h, size_t *len);
/*
 * Fill h's buckets from blob; h->nr_buckets and h->count are the row's
 * (the caller's).  0, or -1 with the reason in why (h's buckets left
 * empty).
 */
int histblob_decode(struct hist_rec *h, const unsigned char *blob,
		    size_t len, char *why, size_t whylen);

/*
 * Whole histograms (op, unit, count, sum, min, max, nr_buckets and the
 * bucket blob) in one buffer, for another process of the same job.
 * unpack appends them to p->hists: 0, or -1 with why.
 */
unsigned char *histblob_pack(const struct hist_rec *h, size_t n,
			     size_t *len);
int histblob_unpack(struct phase_rec *p, const unsigned char *buf,
		    size_t len, char *why, size_t whylen);

/*
 * A completion series (phase_rec.series): one format byte (1), then each
 * count as an unsigned LEB128 varint, in order.  decode refuses a
 * blob of other than nr counts, a count over 32 bits, or a sum of the
 * counts over total; *out newly allocated.
 */
unsigned char *seriesblob_encode(const uint32_t *v, size_t nr, size_t *len);
int seriesblob_decode(const unsigned char *blob, size_t len, size_t nr,
		      uint64_t total, uint32_t **out, char *why,
		      size_t whylen);

#endif
