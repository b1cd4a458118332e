/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cbavg.c - compilebench's classic "avg" (the mean of per-operation
 * MB/s) against fslab's total MiB over total seconds (issue 34): equal
 * when every operation moves the same bytes in the same time, and not
 * merely when the bytes are equal (then the avg is the larger, AM >= HM).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/result.h"
#include "workloads/compilebench/internal.h"

static struct phase_rec op(uint64_t bytes, uint64_t wall_ns)
{
	struct phase_rec p;

	memset(&p, 0, sizeof(p));
	p.name = (char *)"initial-create";
	p.status = PHASE_OK;
	p.bytes = bytes;
	p.m.wall_ns = wall_ns;
	return p;
}

static void both(const uint64_t *bytes, const uint64_t *ns, size_t n,
		 double *avg, double *total)
{
	struct kind_stats st[K_NR];

	memset(st, 0, sizeof(st));
	for (size_t i = 0; i < n; i++) {
		struct phase_rec p = op(bytes[i], ns[i]);

		cb_stats_add(st, &p);
	}
	assert_int_equal(st[0].runs, (int)n);
	*avg = st[0].sum / st[0].runs;
	*total = cb_op_rate(st[0].bytes, st[0].wall_ns);
}

static void test_same_bytes_same_time(void **state)
{
	/* 222.4 MB ten times, each in 0.7264 s */
	uint64_t b[10], t[10];
	double avg, total;
	(void)state;

	for (int i = 0; i < 10; i++) {
		b[i] = 222400000;
		t[i] = 726400000;
	}
	both(b, t, 10, &avg, &total);
	assert_true(fabs(avg - total) <= 1e-12 * total);
}

static void test_same_rate(void **state)
{
	/* different sizes at one rate: still equal */
	const uint64_t b[] = { 1 << 20, 4 << 20, 16 << 20 };
	const uint64_t t[] = { 10000000, 40000000, 160000000 };
	double avg, total;
	(void)state;

	both(b, t, 3, &avg, &total);
	assert_true(fabs(avg - total) <= 1e-12 * total);
}

static void test_same_bytes_other_times(void **state)
{
	/* what the doc used to call agreement: equal bytes, unequal times */
	const uint64_t b[] = { 222400000, 222400000 };
	const uint64_t t[] = { 500000000, 1500000000 };
	double avg, total, mb = 222400000 / 1048576.0;
	(void)state;

	both(b, t, 2, &avg, &total);
	assert_true(fabs(avg - (mb / 0.5 + mb / 1.5) / 2) < 1e-9);
	assert_true(fabs(total - 2 * mb / 2.0) < 1e-9);
	assert_true(avg > total * 1.3);
}

static void test_line(void **state)
{
	const uint64_t b[] = { 1 << 20, 1 << 20 };
	const uint64_t t[] = { 500000000, 1500000000 };
	struct kind_stats st[K_NR];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	(void)state;

	memset(st, 0, sizeof(st));
	for (size_t i = 0; i < 2; i++) {
		struct phase_rec p = op(b[i], t[i]);

		cb_stats_add(st, &p);
	}
	cb_print_definitions(f, st);
	fclose(f);
	assert_non_null(strstr(buf, "(initial-create: 1.33 vs 1.00 MiB/s); "
				    "they differ by definition"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes_same_time),
		cmocka_unit_test(test_same_rate),
		cmocka_unit_test(test_same_bytes_other_times),
		cmocka_unit_test(test_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
