/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_trace.c - the block-trace analysis (src/trace/analyze.c) on
 * synthetic request streams whose seeks, histograms, layout score, time
 * bins and queue depth are known by construction; and the plot code on
 * an in-memory surface (it must draw without errors, also for an empty
 * trace).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "measure/result.h"
#include "trace/analyze.h"
#include "trace/blktrace.h"
#include "trace/plot.h"

#define MS 1000000ULL
#define ARRAY_SIZE_T(a) (sizeof(a) / sizeof((a)[0]))

static struct trace_rq rq(uint64_t t_ms, uint64_t sector, uint32_t n,
			  uint32_t flags)
{
	struct trace_rq r = { t_ms * MS, t_ms * MS + MS / 2, sector, n,
			      flags };
	return r;
}

static void test_bins(void **state)
{
	char buf[16];
	(void)state;

	assert_int_equal(trace_log2_bin(0), 0);
	assert_int_equal(trace_log2_bin(1), 0);
	assert_int_equal(trace_log2_bin(4095), 11);
	assert_int_equal(trace_log2_bin(4096), 12);
	assert_int_equal(trace_log2_bin(UINT64_MAX), TRACE_HIST_BINS - 1);
	trace_bin_label(9, buf, sizeof(buf));
	assert_string_equal(buf, "512");
	trace_bin_label(12, buf, sizeof(buf));
	assert_string_equal(buf, "4k");
	trace_bin_label(20, buf, sizeof(buf));
	assert_string_equal(buf, "1m");
}

static void test_seek_rule(void **state)
{
	struct trace_rq a = rq(0, 1000, 8, TRQ_READ), b;
	int64_t d;
	(void)state;

	assert_false(trace_is_seek(NULL, &a, &d));
	b = rq(1, 1008, 8, TRQ_READ);              /* contiguous */
	assert_false(trace_is_seek(&a, &b, &d));
	assert_int_equal(d, 0);
	b = rq(1, 1008 + 128, 8, TRQ_READ);        /* exactly 128: no */
	assert_false(trace_is_seek(&a, &b, &d));
	b = rq(1, 1008 + 129, 8, TRQ_READ);        /* 129 ahead: seek */
	assert_true(trace_is_seek(&a, &b, &d));
	assert_int_equal(d, 129);
	b = rq(1, 1008 - 129, 8, TRQ_READ);        /* 129 back: seek */
	assert_true(trace_is_seek(&a, &b, &d));
	assert_int_equal(d, -129);
}

/* A sequential read: no seek, layout score 1 - 0/blocks = 1. */
static void test_sequential(void **state)
{
	struct trace_rq r[64];
	struct trace_stats s;
	(void)state;

	for (int i = 0; i < 64; i++)
		r[i] = rq((uint64_t)i, 2048 + (uint64_t)i * 256, 256, TRQ_READ);
	trace_analyze(r, 64, 0, 0, &s);
	assert_int_equal(s.reqs, 64);
	assert_int_equal(s.rd_reqs, 64);
	assert_int_equal(s.bytes, 64ULL * 256 * 512);
	assert_int_equal(s.seeks, 0);
	assert_int_equal(s.rd_blocks, 64 * 32);
	assert_int_equal(s.rd_discontig, 0);
	assert_true(s.layout_score == 1.0);
	assert_int_equal(s.rqsize_hist[17], 64);   /* 128 KiB */
	assert_int_equal(s.min_sector, 2048);
	assert_int_equal(s.max_sector, 2048 + 64 * 256);
	trace_stats_release(&s);
}

/*
 * Alternating far jumps: 8 KiB reads at 0, 100000, 16, 100016, ... so
 * every request after the first is a seek, alternately forward by
 * 99984 and backward by 100000 sectors; every read is discontiguous.
 */
static void test_seeky(void **state)
{
	struct trace_rq r[10];
	struct trace_stats s;
	(void)state;

	for (int i = 0; i < 10; i++)
		r[i] = rq((uint64_t)i,
			  (i % 2 ? 100000 : 0) + (uint64_t)(i / 2) * 16, 16,
			  TRQ_READ);
	trace_analyze(r, 10, 0, 0, &s);
	assert_int_equal(s.seeks, 9);
	assert_int_equal(s.fwd_seeks, 5);
	assert_int_equal(s.bwd_seeks, 4);
	/* forward 99984, backward 100000: both in [65536, 131072) */
	assert_int_equal(s.seekdist_hist[16], 9);
	assert_true(fabs(s.seek_mean - (5 * 99984.0 + 4 * 100000) / 9) <
		    1e-6);
	assert_true(fabs(s.seek_median - 99984) < 1e-9);
	assert_int_equal(s.rd_blocks, 20);
	assert_int_equal(s.rd_discontig, 9);
	assert_true(fabs(s.layout_score - (1 - 9.0 / 20)) < 1e-12);
	trace_stats_release(&s);
}

/* Writes do not count for the layout score, flushes not for seeks. */
static void test_mixed(void **state)
{
	struct trace_rq r[] = {
		rq(0, 0, 8, TRQ_WRITE),
		rq(1, 0, 0, TRQ_FLUSH | TRQ_WRITE),   /* no data */
		rq(2, 8, 8, TRQ_WRITE),               /* contiguous */
		rq(3, 5000, 8, TRQ_READ),             /* seek, fwd */
		rq(4, 5008, 8, TRQ_READ),
		rq(5, 100, 1, TRQ_DISCARD | TRQ_WRITE),
	};
	struct trace_stats s;
	struct phase_rec p;
	(void)state;

	trace_analyze(r, ARRAY_SIZE_T(r), 0, 0, &s);
	assert_int_equal(s.reqs, 6);
	assert_int_equal(s.other_reqs, 2);
	assert_int_equal(s.wr_reqs, 2);
	assert_int_equal(s.rd_reqs, 2);
	assert_int_equal(s.seeks, 1);
	assert_int_equal(s.fwd_seeks, 1);
	assert_int_equal(s.rd_discontig, 0);
	assert_true(s.layout_score == 1.0);
	memset(&p, 0, sizeof(p));
	trace_stats_to_metrics(&s, 1.0, &p);
	assert_non_null(phase_rec_metric(&p, "trace.rqsize.4k"));
	assert_true(phase_rec_metric(&p, "trace.rqsize.4k")->value == 4);
	assert_true(phase_rec_metric(&p, "trace.seeks")->value == 1);
	assert_true(phase_rec_metric(&p, "trace.layout_score")->value == 1);
	assert_non_null(phase_rec_metric(&p, "trace.ts.0.MiB/s"));
	phase_rec_release(&p);
	trace_stats_release(&s);
}

/*
 * Time bins: one 1 MiB write every 10 ms for 1 s, each 5 ms in flight:
 * 10 bins of 100 ms with 10 MiB each (100 MiB/s), queue depth 0.5.
 */
static void test_time_bins(void **state)
{
	struct trace_rq r[100];
	struct trace_stats s;
	struct phase_rec p;
	(void)state;

	for (int i = 0; i < 100; i++) {
		r[i] = rq((uint64_t)i * 10, (uint64_t)i * 2048, 2048,
			  TRQ_WRITE);
		r[i].complete_ns = r[i].issue_ns + 5 * MS;
	}
	trace_analyze(r, 100, 0, 1000 * MS, &s);
	assert_int_equal(s.bin_ns, TRACE_BIN_NS);
	assert_int_equal(s.nr_bins, 11);     /* [0, 1000 ms], last is empty */
	for (int b = 0; b < 10; b++) {
		assert_true(s.bins[b].wr_bytes == 10.0 * 1048576);
		assert_true(s.bins[b].ios == 10);
		assert_true(fabs(s.bins[b].qd_avg - 0.5) < 1e-9);
		assert_true(s.bins[b].qd_max == 1);
	}
	assert_true(fabs(s.lat_p50_ms - 5) < 1e-9);
	assert_true(fabs(s.lat_max_ms - 5) < 1e-9);
	memset(&p, 0, sizeof(p));
	trace_stats_to_metrics(&s, 1.0, &p);
	assert_true(fabs(phase_rec_metric(&p, "trace.ts.3.MiB/s")->value -
			 100) < 1e-9);
	assert_true(fabs(phase_rec_metric(&p, "trace.ts.3.qd")->value -
			 0.5) < 1e-9);
	phase_rec_release(&p);
	trace_stats_release(&s);

	/* An hour is bounded: wider bins, at most TRACE_MAX_BINS. */
	trace_analyze(r, 100, 0, 3600000 * MS, &s);
	assert_true(s.nr_bins <= TRACE_MAX_BINS);
	assert_true(s.bin_ns > TRACE_BIN_NS);
	memset(&p, 0, sizeof(p));
	trace_stats_to_metrics(&s, 3600.0, &p);
	assert_null(phase_rec_metric(&p, "trace.ts.100.MiB/s"));
	assert_non_null(phase_rec_metric(&p, "trace.ts.0.MiB/s"));
	phase_rec_release(&p);
	trace_stats_release(&s);
}

/* Overlapping requests: depth 2 for the overlap. */
static void test_queue_depth(void **state)
{
	struct trace_rq r[2] = { rq(0, 0, 8, TRQ_READ),
				 rq(0, 64, 8, TRQ_READ) };
	struct trace_stats s;
	(void)state;

	r[0].complete_ns = 100 * MS;   /* [0, 100) */
	r[1].issue_ns = 50 * MS;       /* [50, 100) */
	r[1].complete_ns = 100 * MS;
	trace_analyze(r, 2, 0, 200 * MS, &s);
	assert_true(fabs(s.bins[0].qd_avg - 1.5) < 1e-9);
	assert_true(s.bins[0].qd_max == 2);
	assert_true(s.bins[1].qd_avg == 0);
	trace_stats_release(&s);
}

/* Pairing: FIFO per sector; orphans handled. */
static void test_pairing(void **state)
{
	const struct trace_ev ev[] = {
		{ 10, 100, 8, TRQ_READ, 0 },
		{ 5, 900, 8, TRQ_READ, 1 },      /* completion, no issue */
		{ 20, 200, 8, TRQ_WRITE, 0 },
		{ 25, 100, 8, TRQ_READ, 0 },     /* same sector again */
		{ 30, 100, 8, TRQ_READ, 1 },     /* completes the first */
		{ 40, 100, 8, TRQ_READ, 1 },     /* completes the second */
		{ 35, 300, 8, TRQ_READ, 0 },     /* never completes */
	};
	size_t n;
	struct trace_rq *r = trace_pair_events(ev, 7, &n);
	(void)state;

	assert_int_equal(n, 4);
	assert_int_equal(r[0].issue_ns, 10);
	assert_int_equal(r[0].complete_ns, 30);
	assert_int_equal(r[1].sector, 200);
	assert_int_equal(r[1].complete_ns, 0);
	assert_int_equal(r[2].issue_ns, 25);
	assert_int_equal(r[2].complete_ns, 40);
	assert_int_equal(r[3].sector, 300);
	assert_int_equal(r[3].complete_ns, 0);
	free(r);
}

static cairo_status_t count_bytes(void *closure, const unsigned char *d,
				  unsigned int len)
{
	(void)d;
	*(size_t *)closure += len;
	return CAIRO_STATUS_SUCCESS;
}

/* Data requests only, times from t0, thinned evenly over the whole
 * trace when over the cap. */
static void test_sample(void **state)
{
	struct trace_rq v[1000];
	struct rq_sample *out;
	uint64_t total;
	size_t n;
	(void)state;

	for (size_t i = 0; i < 1000; i++)
		v[i] = rq(10 + i, 8 * i, 8, i % 2 ? TRQ_WRITE : TRQ_READ);
	v[3].flags = TRQ_FLUSH | TRQ_WRITE;   /* flush: no data */
	v[3].nr_sector = 0;
	v[5].flags = TRQ_DISCARD | TRQ_WRITE; /* discard: not data */

	n = trace_sample(v, 6, 5 * MS, 100, &out, &total);
	assert_int_equal(n, 4);
	assert_true(total == 4);
	assert_true(out[0].t_ns == 5 * MS);
	assert_int_equal(out[0].rw, 'R');
	assert_int_equal(out[1].rw, 'W');
	assert_true(out[2].sector == 16);
	assert_true(out[3].sector == 32);     /* 3 was skipped */
	assert_int_equal(out[3].bytes, 4096);
	free(out);

	n = trace_sample(v, 1000, 0, 100, &out, &total);
	assert_int_equal(n, 100);
	assert_true(total == 998);
	assert_true(out[0].sector == 0);
	/* Evenly: the last one near the end, the middle one in the middle. */
	assert_true(out[99].sector >= 8 * 980);
	assert_true(out[50].sector >= 8 * 490 && out[50].sector <= 8 * 510);
	for (size_t i = 1; i < n; i++)
		assert_true(out[i].t_ns > out[i - 1].t_ns);
	free(out);

	assert_int_equal(trace_sample(v, 0, 0, 100, &out, &total), 0);
	assert_null(out);
	assert_true(total == 0);
}

static void test_check_phases(void **state)
{
	static const char *const a[] = { "create", "read", NULL };
	static const char *const b[] = { "read", "patch", NULL };
	const char *const *known[] = { a, b };
	char err[256];
	(void)state;

	assert_int_equal(trace_check_phases(NULL, known, 2, err, sizeof(err)),
			 0);
	assert_int_equal(trace_check_phases("", known, 2, err, sizeof(err)),
			 0);
	assert_int_equal(trace_check_phases("patch,create", known, 2, err,
					    sizeof(err)), 0);
	assert_int_equal(trace_check_phases("read,bogus", known, 2, err,
					    sizeof(err)), -1);
	/* "read" is listed once although both workloads have it. */
	assert_string_equal(err, "unknown phase 'bogus' for --trace (valid: "
			    "create, read, patch)");
	/* A phase of a workload not in the run is unknown too. */
	assert_int_equal(trace_check_phases("patch", known, 1, err,
					    sizeof(err)), -1);
	assert_string_equal(err, "unknown phase 'patch' for --trace (valid: "
			    "create, read)");
	/* A short buffer truncates, never overflows. */
	assert_int_equal(trace_check_phases("x", known, 2, err, 20), -1);
	assert_int_equal(strlen(err), 19);
}

/* The blktrace stream: Q, M, I, D, C per I/O in time order, with the
 * action codes and categories blkparse and btt decode. */
static void test_write_blk(void **state)
{
	struct trace_rq r = { 2000, 3000, 64, 8, TRQ_WRITE | TRQ_SYNC };
	struct trace_qev q[] = {
		{ 1500, 64, 8, TRQ_WRITE, 'I' },
		{ 1000, 64, 4, TRQ_WRITE, 'Q' },
		{ 1200, 68, 4, TRQ_WRITE, 'M' },
	};
	struct trace_result res = { &r, 1, q, 3, 0, 500, 4000,
				    (7u << 20) | 1 };
	char path[] = "/tmp/test_trace_blk.XXXXXX";
	static const unsigned want[] = { 1, 2, 5, 7, 8 };
	static const uint64_t want_t[] = { 500, 700, 1000, 1500, 2500 };
	uint32_t rec[12];
	FILE *f;
	int fd = mkstemp(path);
	(void)state;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(trace_write_blk(path, &res), 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	for (size_t i = 0; i < ARRAY_SIZE_T(want); i++) {
		uint64_t t;

		assert_int_equal(fread(rec, 48, 1, f), 1);
		assert_int_equal(rec[0], 0x65617407u);
		memcpy(&t, &rec[2], 8);
		assert_int_equal(t, want_t[i]);           /* from start_ns */
		assert_int_equal(rec[7] & 0xffff, want[i]);
		/* write category bit; queue (bit 4) for Q/M/I */
		assert_true(rec[7] >> 16 & 2);
		assert_int_equal(!!(rec[7] >> 16 & 16), i < 3);
		assert_int_equal(rec[9], (7u << 20) | 1);
	}
	assert_int_equal(fread(rec, 48, 1, f), 0);
	fclose(f);
	unlink(path);
}

static void test_plot(void **state)
{
	struct trace_rq r[50];
	struct trace_stats s;
	cairo_surface_t *sf;
	cairo_t *cr;
	size_t bytes = 0;
	(void)state;

	for (int i = 0; i < 50; i++)
		r[i] = rq((uint64_t)i * 7, (uint64_t)(i * 7919 % 5000) * 64, 64,
			  i % 3 ? TRQ_READ : TRQ_WRITE);
	trace_analyze(r, 50, 0, 0, &s);
	sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 300);
	cr = cairo_create(sf);
	trace_plot_draw(cr, 400, 300, r, 50, &s, "test");
	assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
	cairo_destroy(cr);
	cairo_surface_destroy(sf);
	assert_int_equal(trace_plot_svg(count_bytes, &bytes, 400, 300, r, 50,
					&s, NULL), 0);
	assert_true(bytes > 1000);
	trace_stats_release(&s);

	trace_analyze(NULL, 0, 0, 0, &s);     /* empty trace */
	assert_int_equal(s.nr_bins, 1);
	assert_true(isnan(s.layout_score));
	bytes = 0;
	assert_int_equal(trace_plot_svg(count_bytes, &bytes, 400, 300, NULL, 0,
					&s, NULL), 0);
	trace_stats_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_seek_rule),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_seeky),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_time_bins),
		cmocka_unit_test(test_queue_depth),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_check_phases),
		cmocka_unit_test(test_write_blk),
		cmocka_unit_test(test_plot),
	};

	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	trace_plot_cleanup();
	return rc;
}
