/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_treemodel.c - the tree model parser, lookups, set operations, and
 * compilebench's derived sets over the shared data files (skipped when
 * they are absent: set FSLAB_CB_DATA or keep ../shared/compilebench-data).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/compilebench/cbstate.h"
#include "model/treemodel.h"

static const char *data_dir(void)
{
	const char *d = getenv("FSLAB_CB_DATA");

	if (d && *d)
		return d;
	return "../shared/compilebench-data";
}

static bool have_data(void)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/dataset-unpatched", data_dir());
	if (access(path, R_OK)) {
		printf("skip: no compilebench data in '%s'\n", data_dir());
		return false;
	}
	return true;
}

static void test_parse_good(void **state)
{
	static const char text[] = "a/b.c 10\n\n  a/c.h\t20  \nMakefile 3";
	struct treemodel m;

	(void)state;
	treemodel_init(&m);
	assert_int_equal(treemodel_parse(&m, text, strlen(text), "t"), 0);
	assert_int_equal(m.nr, 3);
	assert_int_equal(m.bytes, 33);
	assert_string_equal(m.e[0].path, "a/b.c");
	assert_string_equal(m.e[1].path, "a/c.h");
	assert_int_equal(m.e[1].size, 20);
	assert_string_equal(m.e[2].path, "Makefile");
	assert_int_equal(treemodel_get(&m, "a/c.h")->size, 20);
	assert_null(treemodel_get(&m, "a/x"));
	assert_int_equal(treemodel_dir_count(&m), 1);
	treemodel_release(&m);
}

/* A repeated path keeps its first position and takes the later size. */
static void test_parse_duplicates(void **state)
{
	static const char text[] = "x 1\ny 2\nx 5\n";
	struct treemodel m;

	(void)state;
	treemodel_init(&m);
	assert_int_equal(treemodel_parse(&m, text, strlen(text), "t"), 0);
	assert_int_equal(m.nr, 2);
	assert_string_equal(m.e[0].path, "x");
	assert_int_equal(m.e[0].size, 5);
	assert_int_equal(m.bytes, 7);
	treemodel_release(&m);
}

static void test_parse_malformed(void **state)
{
	static const char *const bad[] = {
		"a 1\nb\n", "a 1\nb x\n", "a 1\nb 1 2\n", "a 1\n/b 1\n",
		"a 1\nb/ 1\n", "a 1\nb -1\n",
		/* a path leaving the tree would make a workload write
		 * outside its directory */
		"a 1\nx/../../etc/y 1\n", "a 1\n.. 1\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct treemodel m;

		treemodel_init(&m);
		fprintf(stderr, "expect an error at t:2: ");
		assert_int_equal(treemodel_parse(&m, bad[i], strlen(bad[i]),
						 "t"), -1);
		treemodel_release(&m);
	}
}

/* A NUL inside a path (found by fuzz_treemodel) must not shorten it. */
static void test_parse_nul_and_dotdot_names(void **state)
{
	static const char nul[] = "a 1\nb\0c 1\n";
	static const char ok[] = "a/..b 1\n...c 2\n";
	struct treemodel m;

	(void)state;
	treemodel_init(&m);
	fprintf(stderr, "expect an error at t:2: ");
	assert_int_equal(treemodel_parse(&m, nul, sizeof(nul) - 1, "t"), -1);
	treemodel_release(&m);
	treemodel_init(&m);
	/* names that only look like '..' are fine */
	assert_int_equal(treemodel_parse(&m, ok, strlen(ok), "t"), 0);
	assert_int_equal(m.nr, 2);
	treemodel_release(&m);
}

static void test_parse_empty(void **state)
{
	struct treemodel m;

	(void)state;
	treemodel_init(&m);
	assert_int_equal(treemodel_parse(&m, "", 0, "t"), 0);
	assert_int_equal(treemodel_parse(&m, "\n \n", 3, "t"), 0);
	assert_int_equal(m.nr, 0);
	assert_int_equal(m.bytes, 0);
	assert_null(treemodel_get(&m, "a"));
	assert_int_equal(treemodel_dir_count(&m), 0);
	treemodel_release(&m);
}

static void test_load_missing(void **state)
{
	struct treemodel m;

	(void)state;
	treemodel_init(&m);
	fprintf(stderr, "expect an error: ");
	assert_int_equal(treemodel_load(&m, "/nonexistent/fslab/x"), -1);
	treemodel_release(&m);
}

static void test_subtract(void **state)
{
	static const char ta[] = "a 1\nb 2\nc 3\nd 4\n", tb[] = "b 2\nc 9\n";
	struct treemodel a, b, all, same;

	(void)state;
	treemodel_init(&a);
	treemodel_init(&b);
	treemodel_init(&all);
	treemodel_init(&same);
	assert_int_equal(treemodel_parse(&a, ta, strlen(ta), "a"), 0);
	assert_int_equal(treemodel_parse(&b, tb, strlen(tb), "b"), 0);
	treemodel_subtract(&all, &a, &b, false);
	treemodel_subtract(&same, &a, &b, true);
	assert_int_equal(all.nr, 2);
	assert_string_equal(all.e[0].path, "a");
	assert_string_equal(all.e[1].path, "d");
	assert_int_equal(all.bytes, 5);
	assert_int_equal(same.nr, 3);
	assert_string_equal(same.e[1].path, "c");
	assert_int_equal(same.e[1].size, 3);
	treemodel_release(&a);
	treemodel_release(&b);
	treemodel_release(&all);
	treemodel_release(&same);
}

static void test_many_and_sort(void **state)
{
	struct treemodel m;
	char path[64];

	(void)state;
	treemodel_init(&m);
	for (int i = 0; i < 5000; i++) {
		snprintf(path, sizeof(path), "d%d/sub%d/f%d.c", i % 7, i % 3,
			 i);
		assert_int_equal(treemodel_set(&m, path, (uint64_t)i), 1);
	}
	treemodel_set(&m, "top", 1);
	treemodel_sort(&m, treemodel_pathcmp);
	assert_int_equal(m.nr, 5001);
	assert_string_equal(m.e[0].path, "top");
	for (size_t i = 1; i < m.nr; i++)
		assert_true(treemodel_pathcmp(m.e[i - 1].path,
					      m.e[i].path) < 0);
	assert_int_equal(treemodel_get(&m, "d3/sub0/f24.c")->size, 24);
	assert_int_equal(treemodel_dir_count(&m), 7 + 21);
	treemodel_release(&m);
}

static void test_pathcmp(void **state)
{
	(void)state;
	assert_true(treemodel_pathcmp("Makefile", "a/b") < 0);
	assert_true(treemodel_pathcmp("a/z.c", "a/b/c.c") < 0);
	assert_true(treemodel_pathcmp("a/b/c.c", "a/c/a.c") < 0);
	assert_true(treemodel_pathcmp("a/b.c", "a/c.c") < 0);
	assert_true(treemodel_pathcmp("ab/x", "a/x") > 0);
	assert_int_equal(treemodel_pathcmp("a/b", "a/b"), 0);
}

static void test_shared_derived(void **state)
{
	struct cb_sets s;

	(void)state;
	if (!have_data()) {
		skip();
		return;
	}
	assert_int_equal(cb_sets_load(&s, data_dir()), 0);
	assert_int_equal(s.d[CB_DATA_CLEAN].nr, 21280);
	assert_int_equal(s.d[CB_DATA_CLEAN].bytes, 233176153ULL);
	assert_int_equal(treemodel_dir_count(&s.d[CB_DATA_CLEAN]), 1263);
	assert_int_equal(s.d[CB_DATA_UCS].nr, 3263);
	assert_int_equal(s.d[CB_DATA_UCS].bytes, 713696760ULL);
	assert_int_equal(s.d[CB_DATA_PCS].nr, 2573);
	assert_int_equal(s.d[CB_DATA_PCS].bytes, 725190942ULL);
	assert_int_equal(s.d[CB_DATA_PS].nr, 6136);
	assert_int_equal(s.d[CB_DATA_PS].bytes, 114997799ULL);
	assert_non_null(treemodel_get(&s.d[CB_DATA_CLEAN],
				      "arch/alpha/boot/bootp.c"));
	assert_int_equal(treemodel_get(&s.d[CB_DATA_CLEAN],
				       "arch/alpha/boot/bootp.c")->size, 5689);
	cb_sets_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_duplicates),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_parse_nul_and_dotdot_names),
		cmocka_unit_test(test_parse_empty),
		cmocka_unit_test(test_load_missing),
		cmocka_unit_test(test_subtract),
		cmocka_unit_test(test_many_and_sort),
		cmocka_unit_test(test_pathcmp),
		cmocka_unit_test(test_shared_derived),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
