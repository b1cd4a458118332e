/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_registry.c - the workload table keeps its promises: sorted and
 * unique names, every callback a workload needs, help for every option,
 * defaults that parse, and canonical option strings that read back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runner.h"
#include "workloads/registry.h"

static void test_table(void **state)
{
	(void)state;
	assert_non_null(workloads[0]);
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];

		assert_non_null(wl->name);
		assert_non_null(wl->summary);
		assert_true(strlen(wl->summary) > 10);
		assert_non_null(wl->run);
		assert_non_null(wl->report);
		assert_non_null(wl->phases);
		assert_non_null(wl->phases[0]);
		if (workloads[i + 1])
			assert_true(strcmp(wl->name, workloads[i + 1]->name) <
				    0);
		assert_ptr_equal(wl_find(wl->name), wl);
		for (const struct opt *o = wl->opts; o && o->name; o++) {
			assert_non_null(o->help);
			assert_true(strlen(o->help) > 3);
			for (const struct opt *p = o + 1; p->name; p++)
				assert_true(strcmp(o->name, p->name) != 0);
		}
	}
	assert_null(wl_find("no-such-workload"));
}

static void test_defaults_roundtrip(void **state)
{
	(void)state;
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];
		void *a = calloc(1, wl->opts_size ? wl->opts_size : 1);
		void *b = calloc(1, wl->opts_size ? wl->opts_size : 1);
		char err[256];
		char *s1, *s2;

		opt_defaults(wl->opts, a);
		if (wl->check)
			assert_int_equal(wl->check(a, err, sizeof(err)), 0);
		s1 = opt_format(wl->opts, a);
		opt_defaults(wl->opts, b);
		assert_int_equal(opt_parse(wl->opts, b, s1, err, sizeof(err)),
				 0);
		s2 = opt_format(wl->opts, b);
		assert_string_equal(s1, s2);
		free(s1);
		free(s2);
		opt_release(wl->opts, a);
		opt_release(wl->opts, b);
		free(a);
		free(b);
	}
}

static void test_workload_spec(void **state)
{
	struct run_workload w;
	char err[512];
	(void)state;

	assert_int_equal(run_workload_parse("compilebench:initial-dirs=2,"
					    "runs=6", &w, err, sizeof(err)),
			 0);
	assert_ptr_equal(w.wl, &wl_compilebench);
	run_workload_release(&w);
	assert_int_equal(run_workload_parse("compilbench", &w, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "did you mean 'compilebench'"));
	assert_int_equal(run_workload_parse("compilebench:rusn=1", &w, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "did you mean 'runs'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_defaults_roundtrip),
		cmocka_unit_test(test_workload_spec),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
