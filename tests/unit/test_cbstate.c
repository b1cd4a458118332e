/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cbstate.c - the compilebench state machine against sequences an
 * independent Python 3 re-implementation of compilebench 0.6's draws
 * printed (tests/data/cb-dryrun-i30-r30.txt and the constants below).
 *
 * The op sequence depends on the data only through the UCS shuffle,
 * i.e. its entry count, so the built-in model (same 3,263 entries) must
 * give the same sequence as the shared data set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/compilebench/cbstate.h"
#include "util/util.h"

static struct cb_sets sets;

static int setup(void **state)
{
	(void)state;
	cb_sets_builtin(&sets);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	cb_sets_release(&sets);
	return 0;
}

/* A fresh copy: cb_state_init shuffles the UCS in place. */
static void start(struct cb_state *st, struct cb_sets *s, int i, int r,
		  bool makej, enum cb_compat compat)
{
	struct cb_params par = {
		.initial_dirs = i, .runs = r, .makej = makej,
		.compat = compat, .seed = 555,
	};

	for (int k = 0; k < CB_NR_DATA; k++) {
		treemodel_init(&s->d[k]);
		treemodel_copy(&s->d[k], &sets.d[k]);
	}
	cb_state_init(st, &par, s);
}

static char *dry_run(int i, int r, bool makej, enum cb_compat compat)
{
	struct cb_state st;
	struct cb_sets s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	start(&st, &s, i, r, makej, compat);
	cb_dry_run(f, &st);
	fclose(f);
	cb_state_release(&st);
	cb_sets_release(&s);
	return buf;
}

/*
 * tests/data/NAME, wherever the test runs from: $FSLAB_TEST_DATA, else
 * the directory the Makefile compiled in.  Allocated.
 */
static char *test_data(const char *name)
{
	const char *dir = getenv("FSLAB_TEST_DATA");

	if (!dir || !*dir)
		dir = FSLAB_TEST_DATA_DIR;
	return xasprintf("%s/%s", dir, name);
}

static void test_dryrun_i30_r30(void **state)
{
	char *path = test_data("cb-dryrun-i30-r30.txt");
	char *want = read_file(path, NULL), *got;

	(void)state;
	if (!want)
		fail_msg("cannot read '%s' (set FSLAB_TEST_DATA to tests/data)",
			 path);
	free(path);
	got = dry_run(30, 30, false, CB_COMPAT_PY3);
	assert_string_equal(got, want);
	assert_true(!strncmp(got, "stat kernel-22\npatch kernel-24\n", 30));
	free(got);
	free(want);
}

struct counts {
	int n[16];
};

static const char *const kinds[] = {
	"initial-create", "create", "patch", "compile", "clean", "read",
	"read-compiled", "delete", "delete-compiled", "stat", "stat-compiled",
};

static void count_run(int i, int r, bool makej, enum cb_compat compat,
		      struct counts *c, int *syncs, int *drops)
{
	struct cb_state st;
	struct cb_sets s;
	struct cb_action a;
	enum cb_event ev;

	memset(c, 0, sizeof(*c));
	*syncs = *drops = 0;
	start(&st, &s, i, r, makej, compat);
	while ((ev = cb_state_next(&st, &a)) != CB_EV_DONE) {
		if (ev == CB_EV_SYNC)
			(*syncs)++;
		if (ev == CB_EV_DROP)
			(*drops)++;
		if (ev != CB_EV_OP)
			continue;
		assert_true(a.sync == (!makej && !a.initial));
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++)
			if (!strcmp(cb_phase_name(&a), kinds[k]))
				c->n[k]++;
	}
	cb_state_release(&st);
	cb_sets_release(&s);
}

static void test_counts_i30_r30(void **state)
{
	/* initial, create, patch, compile, clean, read, read-compiled,
	 * delete, delete-compiled, stat, stat-compiled */
	static const int want[] = { 30, 5, 6, 3, 2, 3, 1, 2, 0, 7, 1 };
	struct counts c;
	int syncs, drops;

	(void)state;
	count_run(30, 30, false, CB_COMPAT_PY3, &c, &syncs, &drops);
	for (size_t k = 0; k < ARRAY_SIZE(want); k++)
		assert_int_equal(c.n[k], want[k]);
	assert_int_equal(syncs, 1);
	assert_true(drops >= 30);
}

static void test_counts_i2_r200(void **state)
{
	static const int want[] = { 2, 32, 22, 31, 24, 30, 10, 14, 6, 26, 5 };
	struct counts c, f;
	int syncs, drops;

	(void)state;
	count_run(2, 200, false, CB_COMPAT_PY3, &c, &syncs, &drops);
	for (size_t k = 0; k < ARRAY_SIZE(want); k++)
		assert_int_equal(c.n[k], want[k]);
	/* fixed draws the same; it may only move deletes between kinds */
	count_run(2, 200, false, CB_COMPAT_FIXED, &f, &syncs, &drops);
	assert_int_equal(f.n[7] + f.n[8], c.n[7] + c.n[8]);
	assert_true(f.n[8] <= c.n[8]);
}

static void test_makej(void **state)
{
	char *got = dry_run(3, 0, true, CB_COMPAT_PY3);
	struct counts c;
	int syncs, drops;

	(void)state;
	assert_string_equal(got, "compile kernel-2\ncompile kernel-1\n"
			    "compile kernel-0\nread kernel-1\nread kernel-2\n"
			    "read kernel-1\ndelete kernel-1\ndelete kernel-0\n"
			    "delete kernel-2\n");
	free(got);
	count_run(3, 0, true, CB_COMPAT_PY3, &c, &syncs, &drops);
	assert_int_equal(syncs, 4);
	assert_int_equal(drops, 2);
	assert_int_equal(c.n[3], 3);
	assert_int_equal(c.n[6], 3);
	assert_int_equal(c.n[8], 3);
}

static void crafted(struct cb_state *st, struct cb_sets *s,
		    enum cb_compat compat)
{
	struct cb_params par = { .compat = compat, .seed = 555 };

	for (int k = 0; k < CB_NR_DATA; k++)
		treemodel_init(&s->d[k]);
	cb_state_init(st, &par, s); /* empty UCS: the shuffle draws nothing */
}

/* Deleting the last clean tree while UC/PC are empty: py3 quirk. */
static void test_delete_compiled_quirk(void **state)
{
	struct cb_state st;
	struct cb_sets s;
	struct cb_action a;

	(void)state;
	crafted(&st, &s, CB_COMPAT_PY3);
	cb_state_add(&st, CB_SET_U, "kernel-0");
	assert_true(cb_state_plan(&st, CB_OP_DELETE, &a));
	assert_string_equal(a.tree, "kernel-0");
	assert_true(a.compiled);
	assert_string_equal(cb_phase_name(&a), "delete-compiled");
	assert_false(cb_state_plan(&st, CB_OP_DELETE, &a));
	cb_state_release(&st);

	crafted(&st, &s, CB_COMPAT_FIXED);
	cb_state_add(&st, CB_SET_U, "kernel-0");
	assert_true(cb_state_plan(&st, CB_OP_DELETE, &a));
	assert_false(a.compiled);
	assert_string_equal(cb_phase_name(&a), "delete");
	cb_state_release(&st);

	/* with a compiled tree left, deleting from U counts as clean */
	crafted(&st, &s, CB_COMPAT_PY3);
	cb_state_add(&st, CB_SET_U, "kernel-0");
	cb_state_add(&st, CB_SET_UC, "kernel-1");
	cb_state_add(&st, CB_SET_PC, "kernel-2");
	while (cb_state_count(&st, CB_SET_U)) {
		assert_true(cb_state_plan(&st, CB_OP_DELETE, &a));
		assert_true(a.compiled ==
			    (strcmp(a.tree, "kernel-0") != 0));
	}
	cb_state_release(&st);
	cb_sets_release(&s);
}

static bool exists_first(void *arg, const char *name)
{
	int *calls = arg;

	(*calls)++;
	return !strcmp(name, "kernel-25442");
}

/* random.Random(555).randint(100, 100000) gives 25442, then 36085. */
static void test_create_redraw(void **state)
{
	struct cb_state st;
	struct cb_sets s;
	struct cb_action a;
	int calls = 0;

	(void)state;
	crafted(&st, &s, CB_COMPAT_PY3);
	assert_true(cb_state_plan(&st, CB_OP_CREATE, &a));
	assert_string_equal(a.tree, "kernel-25442");
	assert_int_equal(a.data, CB_DATA_CLEAN);
	assert_int_equal(cb_state_count(&st, CB_SET_U), 1);
	cb_state_release(&st);

	crafted(&st, &s, CB_COMPAT_PY3);
	cb_state_add(&st, CB_SET_P, "kernel-25442");
	assert_true(cb_state_plan(&st, CB_OP_CREATE, &a));
	assert_string_equal(a.tree, "kernel-36085");
	cb_state_release(&st);

	/* a deleted tree's empty directory keeps its name taken */
	crafted(&st, &s, CB_COMPAT_PY3);
	st.exists = exists_first;
	st.exists_arg = &calls;
	assert_true(cb_state_plan(&st, CB_OP_CREATE, &a));
	assert_string_equal(a.tree, "kernel-36085");
	assert_int_equal(calls, 2);
	cb_state_release(&st);
	cb_sets_release(&s);
}

static void test_moves(void **state)
{
	struct cb_state st;
	struct cb_sets s;
	struct cb_action a;

	(void)state;
	crafted(&st, &s, CB_COMPAT_PY3);
	assert_false(cb_state_plan(&st, CB_OP_PATCH, &a));
	assert_false(cb_state_plan(&st, CB_OP_COMPILE, &a));
	assert_false(cb_state_plan(&st, CB_OP_CLEAN, &a));
	assert_false(cb_state_plan(&st, CB_OP_READ, &a));
	assert_false(cb_state_plan(&st, CB_OP_STAT, &a));
	cb_state_add(&st, CB_SET_U, "kernel-0");
	assert_true(cb_state_plan(&st, CB_OP_COMPILE, &a));
	assert_int_equal(a.data, CB_DATA_UCS);
	assert_int_equal(cb_state_count(&st, CB_SET_UC), 1);
	assert_true(cb_state_plan(&st, CB_OP_PATCH, &a));
	assert_int_equal(a.data, CB_DATA_PCS);
	assert_int_equal(cb_state_count(&st, CB_SET_PC), 1);
	assert_true(cb_state_plan(&st, CB_OP_CLEAN, &a));
	assert_int_equal(a.data, CB_DATA_PCS);
	assert_int_equal(cb_state_count(&st, CB_SET_P), 1);
	assert_true(cb_state_plan(&st, CB_OP_READ, &a));
	assert_false(a.compiled);
	assert_int_equal(cb_state_count(&st, CB_SET_P), 1);
	cb_state_release(&st);
	cb_sets_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dryrun_i30_r30),
		cmocka_unit_test(test_counts_i30_r30),
		cmocka_unit_test(test_counts_i2_r200),
		cmocka_unit_test(test_makej),
		cmocka_unit_test(test_delete_compiled_quirk),
		cmocka_unit_test(test_create_redraw),
		cmocka_unit_test(test_moves),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
