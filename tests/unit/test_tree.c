/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tree.c - the pure parts of the `tree` workload: order lists and
 * sorting, the m:ss.s formatter, the atime mode; and the tree model's
 * extended lines (directories, links) with the capture -> replay ->
 * capture round trip through a real directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/treemodel.h"
#include "workloads/tree/tree.h"

static void test_orders(void **state)
{
	enum tree_order o[TREE_MAX_ORDERS];
	char err[128];
	size_t nr;

	(void)state;
	assert_int_equal(tree_parse_orders("readdir", o, &nr, err,
					   sizeof(err)), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(o[0], TREE_READDIR);
	assert_int_equal(tree_parse_orders("inode+disk+readdir", o, &nr, err,
					   sizeof(err)), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(o[0], TREE_INODE);
	assert_int_equal(o[1], TREE_DISK);
	assert_int_equal(o[2], TREE_READDIR);
	assert_string_equal(tree_order_name(o[1]), "disk");
	assert_int_equal(tree_parse_orders("inode+bogus", o, &nr, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "'bogus'"));
	assert_int_equal(tree_parse_orders("inode+inode", o, &nr, err,
					   sizeof(err)), -1);
	assert_int_equal(tree_parse_orders("inode+", o, &nr, err,
					   sizeof(err)), -1);
	assert_int_equal(tree_parse_orders("", o, &nr, err, sizeof(err)), -1);
}

static void test_sort(void **state)
{
	struct tree_file v[] = {
		{ (char *)"d", 40, 100 }, { (char *)"a", 30, 0 },
		{ (char *)"c", 10, 900 }, { (char *)"b", 30, 100 },
		{ (char *)"e", 20, 5 },
	};
	const char *by_ino = "ceabd", *by_phys = "aebdc";
	size_t n = sizeof(v) / sizeof(v[0]);

	(void)state;
	tree_sort_ino(v, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i].path[0], by_ino[i]);
	tree_sort_phys(v, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i].path[0], by_phys[i]);
	tree_sort_ino(v, 0);
}

static void test_fmt_mss(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 86), "1:26.0");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 61.5), "1:01.5");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 42.94), "0:42.9");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 5.3), "0:05.3");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 59.96), "1:00.0");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 3600), "60:00.0");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 0.1), "0:00.1");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 0.04), "<0:00.1");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), 0), "<0:00.1");
	assert_string_equal(tree_fmt_mss(b, sizeof(b), -1), "-");
}

static void test_atime(void **state)
{
	(void)state;
	assert_string_equal(tree_atime_mode("rw,relatime"), "relatime");
	assert_string_equal(tree_atime_mode("rw,noatime,nodiratime"),
			    "noatime");
	assert_string_equal(tree_atime_mode("rw"), "strictatime");
	assert_string_equal(tree_atime_mode(NULL), "strictatime");
	assert_string_equal(tree_atime_mode("rw,norelatime"), "strictatime");
	assert_int_equal(tree_atime_code("noatime"), 0);
	assert_int_equal(tree_atime_code("relatime"), 1);
	assert_int_equal(tree_atime_code("strictatime"), 2);
}

static char *model_text(const struct treemodel *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(treemodel_write(m, f), 0);
	fclose(f);
	return buf;
}

static void test_extended_lines(void **state)
{
	static const char text[] = "a/b.c 10\nempty/\nlink -> a/b.c\n"
				   "a/deep/er/ 0x\n";
	static const char good[] = "a/b.c 10\nempty/\nlink -> a/b.c\n"
				   "x/y/\n";
	struct treemodel m;
	char *out;

	(void)state;
	treemodel_init(&m);
	/* "a/deep/er/ 0x" is neither a directory nor a file line */
	fprintf(stderr, "expect an error at t:4: ");
	assert_int_equal(treemodel_parse(&m, text, strlen(text), "t"), -1);
	treemodel_release(&m);
	treemodel_init(&m);
	assert_int_equal(treemodel_parse(&m, good, strlen(good), "t"), 0);
	assert_int_equal(m.nr, 4);
	assert_int_equal(m.bytes, 10);
	assert_int_equal(m.e[1].type, TM_DIR);
	assert_string_equal(m.e[1].path, "empty");
	assert_int_equal(m.e[2].type, TM_LINK);
	assert_string_equal(m.e[2].target, "a/b.c");
	assert_int_equal(treemodel_count(&m, TM_FILE), 1);
	assert_int_equal(treemodel_count(&m, TM_DIR), 2);
	/* a, empty, x, x/y */
	assert_int_equal(treemodel_dir_count(&m), 4);
	out = model_text(&m);
	assert_string_equal(out, good);
	free(out);
	fprintf(stderr, "expect an error at t:1: ");
	assert_int_equal(treemodel_parse(&m, "l -> \n", 6, "t"), -1);
	/* a file line replaces a link of the same path */
	assert_int_equal(treemodel_parse(&m, "link 5\n", 7, "t"), 0);
	assert_int_equal(treemodel_get(&m, "link")->type, TM_FILE);
	assert_null(treemodel_get(&m, "link")->target);
	assert_int_equal(m.bytes, 15);
	treemodel_release(&m);
}

static void rm_rf(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_capture_round_trip(void **state)
{
	static const char text[] =
		"src/main.c 1234\nsrc/util/util.h 0\nsrc/util/big.c 300000\n"
		"doc/\nbuild/out/\nREADME 77\nsrc/link -> main.c\n"
		"dangling -> no/such/file\n";
	char d1[] = "/tmp/fslab-tree-XXXXXX", d2[] = "/tmp/fslab-tree-XXXXXX";
	struct treemodel m, c1, c2;
	char *t1, *t2;

	(void)state;
	assert_non_null(mkdtemp(d1));
	assert_non_null(mkdtemp(d2));
	treemodel_init(&m);
	treemodel_init(&c1);
	treemodel_init(&c2);
	assert_int_equal(treemodel_parse(&m, text, strlen(text), "t"), 0);
	assert_int_equal(tree_replay(d1, &m), 0);
	assert_int_equal(treemodel_capture(&c1, d1), 0);
	assert_int_equal(treemodel_diff(&m, &c1, 5), 0);
	/* build/ is implied by build/out/, so only the empty one shows */
	assert_non_null(treemodel_get(&c1, "build/out"));
	assert_null(treemodel_get(&c1, "build"));
	assert_int_equal(treemodel_get(&c1, "src/util/big.c")->size, 300000);
	assert_string_equal(treemodel_get(&c1, "dangling")->target,
			    "no/such/file");
	assert_int_equal(c1.bytes, m.bytes);
	assert_int_equal(tree_replay(d2, &c1), 0);
	assert_int_equal(treemodel_capture(&c2, d2), 0);
	t1 = model_text(&c1);
	t2 = model_text(&c2);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);

	/* a changed size, a missing file and an extra one are all seen */
	{
		char p[4200];
		FILE *f;

		snprintf(p, sizeof(p), "%s/README", d2);
		assert_int_equal(truncate(p, 3), 0);
		snprintf(p, sizeof(p), "%s/src/main.c", d2);
		assert_int_equal(unlink(p), 0);
		snprintf(p, sizeof(p), "%s/extra", d2);
		f = fopen(p, "w");
		assert_non_null(f);
		fclose(f);
		treemodel_release(&c2);
		treemodel_init(&c2);
		assert_int_equal(treemodel_capture(&c2, d2), 0);
		fprintf(stderr, "expect three differences:\n");
		assert_int_equal(treemodel_diff(&m, &c2, 5), 3);
	}
	treemodel_release(&m);
	treemodel_release(&c1);
	treemodel_release(&c2);
	rm_rf(d1);
	rm_rf(d2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_fmt_mss),
		cmocka_unit_test(test_atime),
		cmocka_unit_test(test_extended_lines),
		cmocka_unit_test(test_capture_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
