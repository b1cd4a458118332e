/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_exec.c - the exec workload's output parsers: the lines and JSON
 * contracts, and dbench 4.00 and fs_mark 3.3 output captured from the
 * Debian packages (tests/data/exec/); expected figures read off them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "workloads/exec/internal.h"

static const struct exec_metric *find(const struct exec_metrics *m,
				      const char *name)
{
	for (size_t i = 0; i < m->nr; i++)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

static void test_lines(void **state)
{
	struct exec_metrics m;
	const struct exec_metric *e;
	char err[256];

	(void)state;
	assert_int_equal(exec_parse_lines("# header\n\nops/s 1234.5 ops/s "
					  "higher\nlat_p99_ms 3.25 ms lower\n"
					  "count 7\nsize_B 42 B\nwarm 1 none\n",
					  &m, err, sizeof(err)), 0);
	assert_int_equal(m.nr, 5);
	e = find(&m, "cmd.ops/s");
	assert_non_null(e);
	assert_true(e->value == 1234.5);
	assert_string_equal(e->unit, "ops/s");
	assert_int_equal(e->better, BETTER_HIGHER);
	e = find(&m, "cmd.lat_p99_ms");
	assert_int_equal(e->better, BETTER_LOWER);
	e = find(&m, "cmd.count");
	assert_string_equal(e->unit, "");
	assert_int_equal(e->better, BETTER_NONE);
	e = find(&m, "cmd.size_B");
	assert_string_equal(e->unit, "B");
	e = find(&m, "cmd.warm");
	assert_string_equal(e->unit, "");
	exec_metrics_release(&m);

	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "justaname\n", "line 1" },
		{ "ok 1\nx notanumber\n", "line 2" },
		{ "x 1 u sideways\n", "not higher" },
		{ "x inf\n", "finite" },
		{ "x 1\nx 2\n", "twice" },
		{ "a 1 b c d\n", "line 1" },
		{ "size 42 B\n", "Metric names" },
		{ "tps 9 transactions/s higher\n", "/s" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		assert_int_equal(exec_parse_lines(bad[i].text, &m, err,
						  sizeof(err)), -1);
		if (!strstr(err, bad[i].want))
			fail_msg("'%s': '%s'", bad[i].text, err);
	}
}

static void test_json(void **state)
{
	struct exec_metrics m;
	const struct exec_metric *e;
	char err[256];

	(void)state;
	assert_int_equal(exec_parse_json("{\"transactions/s\": {\"value\": 99.5, \"unit\":"
					 " \"transactions/s\", \"better\": "
					 "\"higher\"}, \"files\": 12}", &m,
					 err, sizeof(err)), 0);
	assert_int_equal(m.nr, 2);
	e = find(&m, "cmd.transactions/s");
	assert_true(e->value == 99.5);
	assert_string_equal(e->unit, "transactions/s");
	assert_int_equal(e->better, BETTER_HIGHER);
	e = find(&m, "cmd.files");
	assert_true(e->value == 12);
	assert_int_equal(e->better, BETTER_NONE);
	exec_metrics_release(&m);

	assert_int_equal(exec_parse_json("[1,2]", &m, err, sizeof(err)), -1);
	assert_int_equal(exec_parse_json("{\"a\": \"x\"}", &m, err,
					 sizeof(err)), -1);
	assert_int_equal(exec_parse_json("{\"a b\": 1}", &m, err,
					 sizeof(err)), -1);
	assert_int_equal(exec_parse_json("{\"a\": {\"value\": 1, \"better\": "
					 "\"up\"}}", &m, err, sizeof(err)),
			 -1);
	assert_int_equal(exec_parse_json("not json", &m, err, sizeof(err)),
			 -1);
}

static char *data(const char *name)
{
	char *path = xasprintf("%s/exec/%s", FSLAB_TEST_DATA_DIR, name);
	char *s = read_file(path, NULL);

	assert_non_null(s);
	free(path);
	return s;
}

static void test_dbench(void **state)
{
	struct exec_metrics m;
	char err[256], *s = data("dbench-4.00.out");

	(void)state;
	assert_int_equal(exec_parse_dbench(s, &m, err, sizeof(err)), 0);
	assert_true(find(&m, "dbench.MB/s")->value == 139.381);
	assert_int_equal(find(&m, "dbench.MB/s")->better, BETTER_HIGHER);
	assert_true(find(&m, "dbench.clients")->value == 2);
	assert_true(find(&m, "dbench.lat_max_ms")->value == 27.184);
	exec_metrics_release(&m);
	free(s);
	assert_int_equal(exec_parse_dbench("   2  11875  162.02 MB/sec  "
					   "execute 1 sec\n", &m, err,
					   sizeof(err)), -1);
}

static void test_fs_mark(void **state)
{
	struct exec_metrics m;
	char err[256], *s = data("fs_mark-3.3.out");
	double want;

	(void)state;
	assert_int_equal(exec_parse_fs_mark(s, &m, err, sizeof(err)), 0);
	assert_true(find(&m, "fs_mark.1.files/s")->value == 63512.2);
	assert_true(find(&m, "fs_mark.2.files/s")->value == 57836.9);
	assert_true(find(&m, "fs_mark.iterations")->value == 2);
	/* 200 files each: the overall rate is their harmonic mean. */
	want = 2 / (1 / 63512.2 + 1 / 57836.9);
	assert_true(fabs(find(&m, "fs_mark.files/s")->value - want) < 1e-9);
	exec_metrics_release(&m);
	free(s);
	assert_int_equal(exec_parse_fs_mark("nothing here", &m, err,
					    sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_dbench),
		cmocka_unit_test(test_fs_mark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
