/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_diskmodel.c - the disk service-time model (src/disk/) against
 * answers known by construction: a sequential stream costs its transfer
 * plus one positioning, alternating far ends cost full strokes, the
 * fitted seek curve averages to the datasheet figure over all seek
 * combinations, the elevator never loses to FIFO; and the profile
 * parser's errors.
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

#include "disk/diskmodel.h"
#include "disk/diskphase.h"
#include "util/util.h"

/* A desktop-like disk without overhead and without a buffer unless the
 * test adds one. */
static const char base_text[] =
	"rpm 7200\ncapacity_gb 500\nheads 10\ntrack_to_track_ms 1.0\n"
	"average_seek_ms 8.5\nfull_stroke_ms 20\nouter_mb_s 64.8\n"
	"inner_mb_s 31\n";

static void load(struct disk_profile *p, const char *extra)
{
	char *t = xasprintf("%s%s", base_text, extra ? extra : "");

	assert_int_equal(disk_profile_parse(t, "test", p), 0);
	free(t);
}

/* xorshift: the same streams on every machine */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double unif(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

static void test_shipped(void **state)
{
	(void)state;
	for (const char *const *n = disk_profile_names; *n; n++) {
		struct disk_profile p;
		char *path = xasprintf("examples/disks/%s.disk", *n);
		char *file = read_file(path, NULL);

		assert_non_null(file);
		/* The embedded copy is the file, byte for byte. */
		assert_string_equal(file, disk_profile_builtin(*n));
		assert_int_equal(disk_profile_load(*n, &p), 0);
		assert_string_equal(p.name, *n);
		assert_true(fabs(disk_seek_ms(&p, 1) - p.t2t_ms) < 1e-9);
		assert_true(fabs(disk_seek_ms(&p, p.ncyl) - p.full_ms) < 1e-6);
		assert_true(fabs(disk_seek_mean_ms(&p) - p.avg_ms) < 1e-6);
		/* monotone */
		for (double d = 1, prev = 0; d < p.ncyl; d *= 1.5) {
			assert_true(disk_seek_ms(&p, d) >= prev - 1e-9);
			prev = disk_seek_ms(&p, d);
		}
		disk_profile_release(&p);
		free(file);
		free(path);
	}
	assert_null(disk_profile_builtin("nosuch"));
}

static void test_geometry(void **state)
{
	struct disk_profile p;
	uint64_t last;

	(void)state;
	load(&p, NULL);
	last = (uint64_t)(p.capacity / 512);
	assert_true(disk_rate(&p, 0) == 64.8e6);
	assert_true(fabs(disk_rate(&p, last) - 31e6) < 1);
	assert_true(disk_cyl(&p, 0) == 0);
	assert_true(fabs(disk_cyl(&p, last) - p.ncyl) < 1e-6);
	/* Outer cylinders hold more: half the LBAs are in less than half
	 * of the cylinders. */
	assert_true(disk_cyl(&p, last / 2) < p.ncyl / 2);
	for (double c = 0; c < p.ncyl; c += p.ncyl / 7) {
		uint64_t s = disk_sector_of_cyl(&p, c);

		assert_true(fabs(disk_cyl(&p, s) - c) < 0.01);
	}
	disk_profile_release(&p);
}

static double xfer_sum(const struct disk_profile *p,
		       const struct disk_req *r, size_t n)
{
	double t = 0;

	for (size_t i = 0; i < n; i++)
		t += r[i].nr_sector * 512.0 / disk_rate(p, r[i].sector);
	return t;
}

static void test_sequential(void **state)
{
	static const char *const extras[] = {
		"", "readahead_kib 256\ncache_segments 4\n",
		"queue_depth 8\nscheduler elevator\nreadahead_kib 64\n",
	};
	struct disk_req r[2000];
	const uint64_t start = 400000000; /* far from the head's sector 0 */

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		r[i] = (struct disk_req){ start + i * 256, 256, false };
	for (size_t k = 0; k < ARRAY_SIZE(extras); k++) {
		struct disk_profile p;
		struct disk_result res;
		double want;

		load(&p, extras[k]);
		disk_model_run(&p, r, ARRAY_SIZE(r), &res);
		want = disk_seek_ms(&p, floor(disk_cyl(&p, start))) / 1e3 +
		       p.rev_ms / 2e3 + xfer_sum(&p, r, ARRAY_SIZE(r));
		if (fabs(res.time_s - want) > 1e-6 * want)
			fail_msg("profile extra %zu: %.9f s, want %.9f s", k,
				 res.time_s, want);
		assert_int_equal(res.positionings, 1);
		assert_int_equal(res.seeks, 1);
		assert_int_equal(res.reqs, ARRAY_SIZE(r));
		assert_int_equal(res.bytes, ARRAY_SIZE(r) * 256 * 512);
		disk_profile_release(&p);
	}
}

static void test_full_stroke(void **state)
{
	struct disk_profile p;
	struct disk_result res;
	struct disk_req r[200];
	uint64_t last;
	double want = 0;

	(void)state;
	load(&p, "readahead_kib 0\n");
	last = (uint64_t)(p.capacity / 512) - 64;
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		r[i] = (struct disk_req){ i % 2 ? last - i * 8 : i * 8, 8,
					  false };
	disk_model_run(&p, r, ARRAY_SIZE(r), &res);
	/* The first starts where the head is (sector 0): no positioning. */
	assert_int_equal(res.seeks, ARRAY_SIZE(r) - 1);
	for (size_t i = 1; i < ARRAY_SIZE(r); i++)
		want += p.full_ms / 1e3 + p.rev_ms / 2e3;
	want += xfer_sum(&p, r, ARRAY_SIZE(r));
	assert_true(fabs(res.time_s - want) < 0.001 * want);
	assert_true(fabs(res.seek_s / res.seeks - p.full_ms / 1e3) <
		    0.001 * p.full_ms / 1e3);
	disk_profile_release(&p);
}

/* Uniform over all seek combinations = uniform over cylinders. */
static void random_cyl_stream(const struct disk_profile *p,
			      struct disk_req *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		r[i] = (struct disk_req){
			disk_sector_of_cyl(p, unif() * p->ncyl), 8, false };
}

static void test_average_seek(void **state)
{
	enum { N = 50000 };
	struct disk_req *r = calloc(N, sizeof(*r));

	(void)state;
	for (const char *const *n = disk_profile_names; *n; n++) {
		struct disk_profile p;
		struct disk_result res;
		double mean;

		assert_int_equal(disk_profile_load(*n, &p), 0);
		rng_state = 0x9e3779b97f4a7c15ULL;
		random_cyl_stream(&p, r, N);
		disk_model_run(&p, r, N, &res);
		mean = res.seek_s * 1e3 / (double)res.positionings;
		print_message("%s: average seek %.3f ms (datasheet %.3f)\n",
			      *n, mean, p.avg_ms);
		assert_true(fabs(mean - p.avg_ms) < 0.05 * p.avg_ms);
		disk_profile_release(&p);
	}
	free(r);
}

static void test_angular(void **state)
{
	enum { N = 20000 };
	struct disk_req *r = calloc(N, sizeof(*r));
	struct disk_profile p;
	struct disk_result res;
	double rot;

	(void)state;
	load(&p, "rotation angular\n");
	rng_state = 12345;
	random_cyl_stream(&p, r, N);
	disk_model_run(&p, r, N, &res);
	rot = res.rot_s * 1e3 / (double)res.positionings;
	assert_true(fabs(rot - p.rev_ms / 2) < 0.05 * p.rev_ms / 2);
	disk_profile_release(&p);
	free(r);
}

static double run_with(const char *extra, const struct disk_req *r,
		       size_t n)
{
	struct disk_profile p;
	struct disk_result res, again;

	load(&p, extra);
	disk_model_run(&p, r, n, &res);
	disk_model_run(&p, r, n, &again);
	assert_true(res.time_s == again.time_s); /* deterministic */
	disk_profile_release(&p);
	return res.time_s;
}

static void test_elevator(void **state)
{
	enum { N = 3000 };
	struct disk_req *r = calloc(N, sizeof(*r));
	static const char *const depths[] = { "4", "16", "64" };

	(void)state;
	for (int kind = 0; kind < 4; kind++) {
		rng_state = 777 + (uint64_t)kind;
		for (size_t i = 0; i < N; i++) {
			uint64_t span = kind == 0 ? 976562500ULL /* disk */
				      : 2097152; /* a 1 GiB filesystem */

			r[i].sector = rng() % span;
			r[i].nr_sector = 8 << (rng() % 5);
			r[i].write = kind == 2 && rng() % 2;
			if (kind == 3 && i % 3 && i > 0) /* runs + jumps */
				r[i].sector = r[i - 1].sector +
					      r[i - 1].nr_sector;
		}
		for (size_t d = 0; d < ARRAY_SIZE(depths); d++) {
			char *fifo = xasprintf("readahead_kib 128\n"
					       "cache_segments 8\n"
					       "queue_depth %s\n", depths[d]);
			char *elev = xasprintf("%sscheduler elevator\n", fifo);
			char *sstf = xasprintf("%sscheduler sstf\n", fifo);
			double tf = run_with(fifo, r, N);
			double te = run_with(elev, r, N);
			double ts = run_with(sstf, r, N);

			print_message("stream %d depth %s: fifo %.3f s, "
				      "elevator %.3f s, sstf %.3f s\n", kind,
				      depths[d], tf, te, ts);
			assert_true(te <= tf);
			assert_true(ts <= tf);
			free(fifo);
			free(elev);
			free(sstf);
		}
	}
	free(r);
}

static void test_load_overrides(void **state)
{
	struct disk_profile p;

	(void)state;
	assert_int_equal(disk_profile_load("desktop-7200:queue_depth=32,"
					   "scheduler=elevator", &p), 0);
	assert_int_equal(p.queue_depth, 32);
	assert_int_equal(p.sched, DISK_ELEVATOR);
	assert_true(p.rpm == 7200);
	disk_profile_release(&p);
	assert_int_equal(disk_profile_load("nosuch", &p), -1);
	assert_non_null(strstr(last_error(), "unknown disk profile"));
	assert_int_equal(disk_profile_load("desktop-7200:rpm=1", &p), -1);
	assert_int_equal(disk_profile_load("/nonexistent/x.disk", &p), -1);
}

static void test_parse_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "rpm 7200\nrpm 5400\n", "t:2: 'rpm' given twice" },
		{ "bogus 1\n", "t:1: unknown key 'bogus'" },
		{ "rpm\n", "t:1: expected 'KEY VALUE'" },
		{ "rpm 72 00\n", "t:1: expected 'KEY VALUE'" },
		{ "# c\nrpm fast\n", "t:2: bad rpm 'fast'" },
		{ "rpm 7200\n", "t: no 'capacity_gb'" },
		{ "scheduler cfq\n", "t:1: unknown scheduler 'cfq'" },
		{ "rotation full\n", "t:1: unknown rotation 'full'" },
		{ "queue_depth 2.5\n", "t:1: queue_depth must be a whole" },
		{ "name a/b\n", "t:1: bad name 'a/b'" },
		/* Cross-key checks name the line of the figure at fault. */
		{ "rpm 7200\ncapacity_gb 500\nheads 10\ntrack_to_track_ms 1.0\n"
		  "average_seek_ms 8.5\nfull_stroke_ms 20\nouter_mb_s 64.8\n"
		  "inner_mb_s 70\n", "t:8: inner_mb_s 70 is above" },
		{ "rpm 7200\ncapacity_gb 500\nheads 10\ntrack_to_track_ms 1.0\n"
		  "average_seek_ms 8.5\nfull_stroke_ms 5\nouter_mb_s 64.8\n"
		  "inner_mb_s 31\n", "t:5: want track_to_track_ms" },
	};
	struct disk_profile p;
	char *t;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(disk_profile_parse(bad[i].text, "t", &p), -1);
		if (!strstr(last_error(), bad[i].msg))
			fail_msg("'%s': got '%s', want '%s'", bad[i].text,
				 last_error(), bad[i].msg);
	}
	/* The seek curve checked against base_text's other figures. */
	t = xasprintf("%s", base_text);
	*strstr(t, "8.5") = '2';
	assert_int_equal(disk_profile_parse(t, "t", &p), -1);
	assert_non_null(strstr(last_error(), "t:5: no seek curve"));
	free(t);
}

static double metric(const struct phase_rec *p, const char *name)
{
	const struct metric *m = phase_rec_metric(p, name);

	return m ? m->value : NAN;
}

static size_t count_disk_metrics(const struct phase_rec *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr_metrics; i++)
		n += !strncmp(p->metrics[i].name, "disk.", 5);
	return n;
}

/* A phase's disk.* metrics: the sample's model, scaled when thinned,
 * replaced (not added) when re-applied; none for untraced phases. */
static void test_phase_apply(void **state)
{
	struct disk_profile p, fast;
	struct phase_rec rec;
	struct disk_result res;
	struct disk_req r[100];
	size_t n;

	(void)state;
	load(&p, NULL);
	assert_int_equal(disk_profile_load("enterprise-15k", &fast), 0);
	memset(&rec, 0, sizeof(rec));
	rec.bytes = 100 * 4096;
	rec.files = 100;
	disk_phase_apply(&p, &rec);
	assert_int_equal(rec.nr_metrics, 0); /* not traced */
	phase_rec_add_metric(&rec, "trace.requests", 0, "requests",
			     BETTER_NONE);
	disk_phase_apply(&p, &rec);
	assert_int_equal(count_disk_metrics(&rec), 0); /* no data request */
	rec.rqs = calloc(100, sizeof(*rec.rqs));
	rec.nr_rqs = 100;
	rec.rqs_total = 100;
	rng_state = 99;
	for (size_t i = 0; i < 100; i++) {
		rec.rqs[i] = (struct rq_sample){ i * 1000, rng() % 2000000,
						 4096, i % 4 ? 'R' : 'W' };
		r[i] = (struct disk_req){ rec.rqs[i].sector, 8,
					  rec.rqs[i].rw == 'W' };
	}
	disk_model_run(&p, r, 100, &res);
	disk_phase_apply(&p, &rec);
	n = count_disk_metrics(&rec);
	assert_true(metric(&rec, "disk.time_s") == res.time_s);
	assert_true(fabs(metric(&rec, "disk.files/s") - 100 / res.time_s) <
		    1e-9);
	assert_true(fabs(metric(&rec, "disk.MiB/s") -
			 100 * 4096 / 1048576.0 / res.time_s) < 1e-9);
	assert_true(fabs(metric(&rec, "disk.seek_share") -
			 (res.seek_s + res.rot_s) / res.time_s) < 1e-12);
	assert_true(fabs(metric(&rec, "disk.seek_share") +
			 metric(&rec, "disk.transfer_share") +
			 res.overhead_s / res.time_s - 1) < 1e-12);
	assert_true(isnan(metric(&rec, "disk.sample_scale")));
	/* Re-applied with another profile: replaced, same names. */
	disk_phase_apply(&fast, &rec);
	assert_int_equal(count_disk_metrics(&rec), n);
	assert_true(metric(&rec, "disk.time_s") < res.time_s);
	/* A thinned sample stands for total/stored requests each. */
	rec.rqs_total = 250;
	disk_phase_apply(&p, &rec);
	assert_true(fabs(metric(&rec, "disk.time_s") - 2.5 * res.time_s) <
		    1e-9);
	assert_true(metric(&rec, "disk.sample_scale") == 2.5);
	phase_rec_release(&rec);
	disk_profile_release(&p);
	disk_profile_release(&fast);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_full_stroke),
		cmocka_unit_test(test_average_seek),
		cmocka_unit_test(test_angular),
		cmocka_unit_test(test_elevator),
		cmocka_unit_test(test_load_overrides),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_phase_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
