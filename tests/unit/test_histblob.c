/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_histblob.c - latency histograms kept whole (measure/result.c,
 * store/histblob.c): a phase's compact copy holds every bucket of the
 * histogram it came from; blobs round-trip exactly for seeded random
 * histograms of several shapes; truncated, corrupt and overlong blobs
 * and histograms of another bucket scheme are refused, never misread;
 * packs of several histograms (what MPI ranks send) round-trip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/result.h"
#include "stats/lathist.h"
#include "store/histblob.h"
#include "util/splitmix.h"
#include "util/util.h"

/* n seeded samples: shape 0 uniform ns..ms, 1 log-uniform, 2 a few values. */
static void fill(struct lathist *h, uint64_t seed, int shape, size_t n)
{
	lathist_init(h);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = splitmix64(seed * 1000003u + i), v;

		if (shape == 0)
			v = 1000 + r % 5000000;
		else if (shape == 1)
			v = (uint64_t)1 << (r % 40) | (r >> 40);
		else
			v = (r % 3) * 100000;
		lathist_add(h, v);
	}
}

static void assert_same(const struct lathist *a, const struct lathist *b)
{
	assert_true(a->count == b->count);
	assert_true(a->sum == b->sum);
	assert_true(a->min == b->min);
	assert_true(a->max == b->max);
	assert_memory_equal(a->b, b->b, sizeof(a->b));
}

static void test_phase_copy(void **state)
{
	struct lathist *h = xmalloc(sizeof(*h)), *back = xmalloc(sizeof(*h));
	struct phase_rec p = { 0 };
	const struct hist_rec *r;

	(void)state;
	fill(h, 7, 0, 1000);
	phase_rec_add_latency(&p, "read", h);
	phase_rec_add_latency(&p, NULL, h);
	assert_int_equal(p.nr_hists, 2);
	r = phase_rec_hist(&p, "read");
	assert_non_null(r);
	assert_string_equal(r->unit, "ns");
	assert_true(r->nr < LATHIST_NR);  /* compact: the non-empty range */
	assert_true(r->b[0] && r->b[r->nr - 1]);
	assert_int_equal(hist_rec_to_lathist(r, back), 0);
	assert_same(h, back);
	assert_string_equal(phase_rec_hist(&p, "")->op, "");
	/* the same op again merges into one histogram, exactly */
	phase_rec_add_latency(&p, "read", h);
	assert_int_equal(p.nr_hists, 2);
	assert_int_equal(hist_rec_to_lathist(phase_rec_hist(&p, "read"),
					     back), 0);
	lathist_merge(h, h);
	assert_same(h, back);
	/* an empty histogram is not kept */
	lathist_init(h);
	phase_rec_add_latency(&p, "write", h);
	assert_null(phase_rec_hist(&p, "write"));
	phase_rec_release(&p);
	free(h);
	free(back);
}

static void roundtrip(const struct lathist *h)
{
	struct hist_rec r = { 0 }, d = { 0 };
	struct lathist *back = xmalloc(sizeof(*back));
	unsigned char *blob;
	size_t len;
	char why[200];

	hist_rec_from_lathist(&r, h);
	blob = histblob_encode(&r, &len);
	d.nr_buckets = LATHIST_NR;
	d.count = h->count;
	d.sum = h->sum;
	d.min = h->min;
	d.max = h->max;
	assert_int_equal(histblob_decode(&d, blob, len, why, sizeof(why)), 0);
	assert_int_equal(hist_rec_to_lathist(&d, back), 0);
	assert_same(h, back);
	/* every proper prefix is refused (truncated) */
	for (size_t cut = 0; cut < len; cut++)
		assert_int_equal(histblob_decode(&d, blob, cut, why,
						 sizeof(why)), -1);
	free(blob);
	hist_rec_release(&r);
	hist_rec_release(&d);
	free(back);
}

static void test_roundtrip(void **state)
{
	struct lathist *h = xmalloc(sizeof(*h));

	(void)state;
	for (int shape = 0; shape < 3; shape++)
		for (size_t n = 0; n <= 10000; n = n ? n * 10 : 1) {
			fill(h, 100 + (uint64_t)n, shape, n);
			roundtrip(h);
		}
	/* the extremes: bucket 0 and the last bucket, huge counts */
	lathist_init(h);
	lathist_add_n(h, 0, 1);
	lathist_add_n(h, UINT64_MAX, UINT64_MAX / 2);
	roundtrip(h);
	free(h);
}

/* A blob from raw bytes, for a hist_rec of count samples. */
static int decode_raw(const unsigned char *b, size_t len, uint64_t count,
		      uint32_t nr_buckets, char *why, size_t whylen)
{
	struct hist_rec d = { .nr_buckets = nr_buckets, .count = count };
	int rc = histblob_decode(&d, b, len, why, whylen);

	hist_rec_release(&d);
	return rc;
}

static void test_refused(void **state)
{
	/* format 1: bucket 5 x3, bucket 7 x1 */
	const unsigned char ok[] = { 1, 5, 3, 2, 1 };
	const unsigned char zero_delta[] = { 1, 5, 3, 0, 1 };
	const unsigned char zero_count[] = { 1, 5, 0 };
	const unsigned char overlong[] = { 1, 0x85, 0x00, 3 };
	const unsigned char too_long[] = { 1, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0xff, 0xff, 0x7f, 1 };
	const unsigned char format2[] = { 2, 5, 3 };
	const unsigned char trailing[] = { 1, 5, 3, 2 };
	unsigned char beyond[8] = { 1 };
	size_t n = 1;
	uint64_t v = LATHIST_NR;
	char why[200];

	(void)state;
	assert_int_equal(decode_raw(ok, sizeof(ok), 4, LATHIST_NR, why,
				    sizeof(why)), 0);
	assert_int_equal(decode_raw(ok, sizeof(ok), 5, LATHIST_NR, why,
				    sizeof(why)), -1);
	assert_non_null(strstr(why, "count says 5"));
	assert_int_equal(decode_raw(ok, sizeof(ok), 4, LATHIST_NR + 64, why,
				    sizeof(why)), -1);
	assert_non_null(strstr(why, "different bucket scheme"));
	assert_int_equal(decode_raw(zero_delta, sizeof(zero_delta), 4,
				    LATHIST_NR, why, sizeof(why)), -1);
	assert_int_equal(decode_raw(zero_count, sizeof(zero_count), 0,
				    LATHIST_NR, why, sizeof(why)), -1);
	assert_int_equal(decode_raw(overlong, sizeof(overlong), 3, LATHIST_NR,
				    why, sizeof(why)), -1);
	assert_int_equal(decode_raw(too_long, sizeof(too_long), 1, LATHIST_NR,
				    why, sizeof(why)), -1);
	assert_int_equal(decode_raw(format2, sizeof(format2), 3, LATHIST_NR,
				    why, sizeof(why)), -1);
	assert_non_null(strstr(why, "format 2"));
	assert_int_equal(decode_raw(trailing, sizeof(trailing), 3, LATHIST_NR,
				    why, sizeof(why)), -1);
	assert_int_equal(decode_raw(NULL, 0, 0, LATHIST_NR, why, sizeof(why)),
			 -1);
	/* an index past the scheme's last bucket */
	do {
		beyond[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	beyond[n++] = 1;
	assert_int_equal(decode_raw(beyond, n, 1, LATHIST_NR, why,
				    sizeof(why)), -1);
	assert_non_null(strstr(why, "beyond"));
	/* an empty histogram is the format byte alone */
	assert_int_equal(decode_raw(ok, 1, 0, LATHIST_NR, why, sizeof(why)),
			 0);
}

static void test_pack(void **state)
{
	struct lathist *h = xmalloc(sizeof(*h)), *back = xmalloc(sizeof(*h));
	struct phase_rec p = { 0 }, q = { 0 };
	unsigned char *buf;
	size_t len;
	char why[200];

	(void)state;
	fill(h, 1, 1, 5000);
	phase_rec_add_latency(&p, "create", h);
	fill(h, 2, 2, 30);
	phase_rec_add_latency(&p, NULL, h);
	buf = histblob_pack(p.hists, p.nr_hists, &len);
	assert_int_equal(histblob_unpack(&q, buf, len, why, sizeof(why)), 0);
	assert_int_equal(q.nr_hists, 2);
	for (size_t i = 0; i < 2; i++) {
		struct lathist *a = xmalloc(sizeof(*a));

		assert_string_equal(q.hists[i].op, p.hists[i].op);
		assert_string_equal(q.hists[i].unit, "ns");
		assert_int_equal(hist_rec_to_lathist(&p.hists[i], a), 0);
		assert_int_equal(hist_rec_to_lathist(&q.hists[i], back), 0);
		assert_same(a, back);
		free(a);
	}
	phase_rec_release(&q);
	/* a cut pack is refused and adds nothing whole */
	for (size_t cut = 0; cut < len; cut += 7) {
		assert_int_equal(histblob_unpack(&q, buf, cut, why,
						 sizeof(why)), -1);
		phase_rec_release(&q);
	}
	free(buf);
	phase_rec_release(&p);
	free(h);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phase_copy),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_pack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
