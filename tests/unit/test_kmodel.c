/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_kmodel.c - the built-in model must have the shape of the real
 * compilebench data: counts, bytes, directories and median of the clean
 * set, and the derived totals through the same cb_derive() code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "workloads/compilebench/cbstate.h"
#include "model/treemodel.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void gen(struct treemodel raw[4])
{
	for (int i = 0; i < 4; i++)
		treemodel_init(&raw[i]);
	kmodel_generate(&raw[0], &raw[1], &raw[2], &raw[3]);
}

static void release(struct treemodel raw[4])
{
	for (int i = 0; i < 4; i++)
		treemodel_release(&raw[i]);
}

static void test_clean_shape(void **state)
{
	struct treemodel raw[4];
	uint64_t *v, median, sum = 0;
	int depth = 0;

	(void)state;
	gen(raw);
	assert_int_equal(raw[0].nr, 21280);
	assert_int_equal(raw[0].bytes, 233176153ULL);
	assert_int_equal(treemodel_dir_count(&raw[0]), 1263);
	v = malloc(raw[0].nr * sizeof(*v));
	for (size_t i = 0; i < raw[0].nr; i++) {
		const char *p = raw[0].e[i].path;
		int d = 0;

		v[i] = raw[0].e[i].size;
		sum += v[i];
		for (; *p; p++)
			d += *p == '/';
		if (d > depth)
			depth = d;
	}
	assert_int_equal(sum, 233176153ULL);
	qsort(v, raw[0].nr, sizeof(*v), cmp_u64);
	median = (v[raw[0].nr / 2 - 1] + v[raw[0].nr / 2]) / 2;
	assert_in_range(median, 3650, 4460);
	assert_true(v[raw[0].nr - 1] > 200000); /* a few large files */
	assert_in_range(depth, 4, 6);
	free(v);
	release(raw);
}

static void test_derived_totals(void **state)
{
	struct treemodel raw[4], dropped;
	struct cb_sets s;
	size_t resized = 0, added = 0;

	(void)state;
	gen(raw);
	cb_derive(&s, &raw[0], &raw[1], &raw[2], &raw[3]);
	assert_int_equal(s.d[CB_DATA_PS].nr, 6136);
	assert_int_equal(s.d[CB_DATA_PS].bytes, 114997799ULL);
	assert_int_equal(s.d[CB_DATA_UCS].nr, 3263);
	assert_int_equal(s.d[CB_DATA_UCS].bytes, 713696760ULL);
	assert_int_equal(s.d[CB_DATA_PCS].nr, 2573);
	assert_int_equal(s.d[CB_DATA_PCS].bytes, 725190942ULL);
	for (size_t i = 0; i < s.d[CB_DATA_PS].nr; i++) {
		if (treemodel_get(&raw[0], s.d[CB_DATA_PS].e[i].path))
			resized++;
		else
			added++;
	}
	assert_int_equal(resized, 5526);
	assert_int_equal(added, 610);
	treemodel_init(&dropped);
	treemodel_subtract(&dropped, &raw[0], &raw[1], false);
	assert_true(dropped.nr > 0);
	/* link outputs of 20-65 MB */
	assert_non_null(treemodel_get(&s.d[CB_DATA_UCS], "vmlinux"));
	assert_in_range(treemodel_get(&s.d[CB_DATA_UCS], "vmlinux")->size,
			20 << 20, 65 << 20);
	treemodel_release(&dropped);
	cb_sets_release(&s);
	release(raw);
}

static void test_deterministic(void **state)
{
	struct treemodel a[4], b[4];

	(void)state;
	gen(a);
	gen(b);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(a[k].nr, b[k].nr);
		for (size_t i = 0; i < a[k].nr; i++) {
			assert_string_equal(a[k].e[i].path, b[k].e[i].path);
			assert_int_equal(a[k].e[i].size, b[k].e[i].size);
		}
	}
	/* pin the sequence: a changed generator is a changed benchmark */
	assert_string_equal(a[0].e[0].path, "COPYING");
	assert_int_equal(a[0].e[0].size, 3772);
	release(a);
	release(b);
}

/* No file may sit where another path needs a directory. */
static void test_no_file_dir_clash(void **state)
{
	struct treemodel raw[4];

	(void)state;
	gen(raw);
	for (int k = 0; k < 4; k++) {
		for (size_t i = 0; i < raw[k].nr; i++) {
			char *d = strdup(raw[k].e[i].path), *slash;

			while ((slash = strrchr(d, '/'))) {
				*slash = '\0';
				if (treemodel_get(&raw[k], d))
					fail_msg("'%s' is a file and a "
						 "directory", d);
			}
			free(d);
		}
	}
	release(raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_shape),
		cmocka_unit_test(test_derived_totals),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_no_file_dir_clash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
