/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_measure.c - /proc and /sys parsers and derived figures. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/measure.h"

static void test_procstat(void **state)
{
	const char *text =
		"cpu  100 5 50 800 20 3 2 10 7 0\n"
		"cpu0 50 2 25 400 10 1 1 5 3 0\n"
		"intr 12345\n";
	uint64_t busy, total;
	(void)state;

	assert_int_equal(measure_parse_procstat(text, &busy, &total), 0);
	assert_int_equal(total, 100 + 5 + 50 + 800 + 20 + 3 + 2 + 10);
	assert_int_equal(busy, total - 800 - 20);
	assert_int_equal(measure_parse_procstat("intr 1\n", &busy, &total),
			 -1);
	assert_int_equal(measure_parse_procstat("cpu  1 2\n", &busy, &total),
			 -1);
}

static void test_blkstat(void **state)
{
	const char *text = "    1500        0    24000      300     2000"
			   "      100    64000     900        0      700     1200"
			   "        0        0        0        0\n";
	uint64_t ri, rs, wi, ws;
	(void)state;

	assert_int_equal(measure_parse_blkstat(text, &ri, &rs, &wi, &ws), 0);
	assert_int_equal(ri, 1500);
	assert_int_equal(rs, 24000);
	assert_int_equal(wi, 2000);
	assert_int_equal(ws, 64000);
	assert_int_equal(measure_parse_blkstat("garbage", &ri, &rs, &wi, &ws),
			 -1);
}

static void test_diff(void **state)
{
	struct measure_snap b, e;
	struct measure m;
	(void)state;

	memset(&b, 0, sizeof(b));
	memset(&e, 0, sizeof(e));
	b.mono_ns = 1000;
	e.mono_ns = 2000001000;
	b.have_cpu = e.have_cpu = true;
	b.cpu_busy = 100;
	b.cpu_total = 1000;
	e.cpu_busy = 150;
	e.cpu_total = 1200;
	b.have_dev = e.have_dev = true;
	e.rd_ios = 10;
	e.rd_sectors = 2048;
	measure_diff(&b, &e, &m);
	assert_int_equal(m.wall_ns, 2000000000);
	assert_true(fabs(m.sys_busy_pct - 25.0) < 1e-9);
	assert_true(m.have_dev);
	assert_int_equal(m.rd_bytes, 1 << 20);

	/* A counter that went backwards (device re-created) reads as 0. */
	e.rd_ios = 0;
	b.rd_ios = 5;
	measure_diff(&b, &e, &m);
	assert_int_equal(m.rd_ios, 0);
}

static void test_derive(void **state)
{
	struct phase_rec p;
	const struct metric *mm;
	(void)state;

	memset(&p, 0, sizeof(p));
	p.m.wall_ns = 2000000000;
	p.m.sys_busy_pct = -1;
	p.bytes = 100 << 20;
	p.files = 1000;
	measure_derive(&p);
	mm = phase_rec_metric(&p, "MiB/s");
	assert_non_null(mm);
	assert_true(fabs(mm->value - 50.0) < 1e-9);
	assert_int_equal(mm->better, BETTER_HIGHER);
	assert_string_equal(mm->unit, "MiB/s");
	assert_true(fabs(phase_rec_metric(&p, "files/s")->value - 500) < 1e-9);
	assert_null(phase_rec_metric(&p, "ops/s"));
	assert_null(phase_rec_metric(&p, "sys_cpu_pct"));
	assert_int_equal(phase_rec_metric(&p, "wall_s")->better, BETTER_LOWER);
	assert_false(p.too_short);
	phase_rec_release(&p);

	/* Shorter than the clock can resolve: flagged, no rates, no
	 * division by zero. */
	memset(&p, 0, sizeof(p));
	p.m.wall_ns = 0;
	p.bytes = 4096;
	measure_derive(&p);
	assert_true(p.too_short);
	assert_null(phase_rec_metric(&p, "MiB/s"));
	assert_non_null(phase_rec_metric(&p, "wall_s"));
	phase_rec_release(&p);
}

static void test_derive_workers(void **state)
{
	struct phase_rec p;
	(void)state;

	/* Two threads busy from 1 s to 3 s and 2 s to 5 s: the rate is over
	 * the 4 s span, not the phase's 10 s clock. */
	memset(&p, 0, sizeof(p));
	p.m.wall_ns = 10000000000ULL;
	p.m.sys_busy_pct = -1;
	p.files = 800;
	p.workers = calloc(2, sizeof(*p.workers));
	p.nr_workers = p.alloc_workers = 2;
	p.workers[0].start_ns = 1000000000ULL;
	p.workers[0].end_ns = 3000000000ULL;
	p.workers[1].start_ns = 2000000000ULL;
	p.workers[1].end_ns = 5000000000ULL;
	measure_derive(&p);
	assert_true(fabs(phase_rec_metric(&p, "files/s")->value - 200) < 1e-9);
	assert_true(fabs(phase_rec_metric(&p, "span_s")->value - 4) < 1e-9);
	assert_true(fabs(phase_rec_metric(&p, "wall_s")->value - 10) < 1e-9);
	phase_rec_release(&p);
}

static void test_snap_live(void **state)
{
	struct measure_snap a, b;
	struct measure m;
	(void)state;

	measure_snap(&a, NULL);
	measure_snap(&b, NULL);
	measure_diff(&a, &b, &m);
	assert_true(a.have_cpu);
	assert_false(a.have_dev);
	assert_true(m.start_ns > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_procstat),
		cmocka_unit_test(test_blkstat),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_derive_workers),
		cmocka_unit_test(test_snap_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
