/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_result.c - the shared record helpers: the one latency naming rule
 * and unit, the phase and metric lookups reports use, the run builder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "stats/lathist.h"

static void test_latency_rule(void **state)
{
	struct phase_rec p;
	struct lathist h;
	const struct metric *m;
	char name[64];

	(void)state;
	memset(&p, 0, sizeof(p));
	lathist_init(&h);
	phase_rec_add_latency(&p, "read", &h);   /* empty: nothing */
	assert_int_equal(p.nr_metrics, 0);
	for (uint64_t v = 1; v <= 100; v++)
		lathist_add(&h, v * 1000000);         /* 1 .. 100 ms */
	phase_rec_add_latency(&p, "read", &h);
	phase_rec_add_latency(&p, NULL, &h);
	assert_int_equal(p.nr_metrics, 10);
	m = phase_rec_metric(&p, "read.lat_p50_ms");
	assert_non_null(m);
	assert_string_equal(m->unit, "ms");
	assert_int_equal(m->better, BETTER_LOWER);
	assert_true(fabs(m->value - 50) <= 50 / 32.0);  /* lathist's bound */
	assert_true(phase_rec_value(&p, "read.lat_max_ms", 0) == 100);
	assert_true(phase_rec_value(&p, "lat_mean_ms", 0) > 49);
	assert_non_null(phase_rec_metric(&p, "lat_p95_ms"));
	assert_non_null(phase_rec_metric(&p, "lat_p99_ms"));
	assert_string_equal(latency_metric_name(name, sizeof(name), "create",
						"p99"), "create.lat_p99_ms");
	assert_string_equal(latency_metric_name(name, sizeof(name), NULL,
						"max"), "lat_max_ms");
	phase_rec_release(&p);
}

static void test_lookups(void **state)
{
	struct run_rec *r = run_rec_begin("fslab run -t ext4", "tag", 555);
	struct wlrun_rec *w = run_rec_new_wlrun(r);
	struct phase_rec *a = wlrun_rec_new_phase(w), *b;

	(void)state;
	assert_string_equal(r->status, "running");
	assert_string_equal(r->cmdline, "fslab run -t ext4");
	assert_int_equal(r->seed, 555);
	assert_true(r->started > 0);
	assert_non_null(r->host);
	assert_non_null(r->version);
	a->name = strdup("run");
	a->status = PHASE_FAILED;
	b = wlrun_rec_new_phase(w);
	b->name = strdup("run");
	b->status = PHASE_OK;
	phase_rec_add_metric(b, "tps", 12.5, "transactions/s", BETTER_HIGHER);
	a = &w->phases[0];  /* the array may have moved */
	assert_ptr_equal(wlrun_rec_phase(w, "run", false), a);
	assert_ptr_equal(wlrun_rec_phase(w, "run", true), &w->phases[1]);
	assert_null(wlrun_rec_phase(w, "setup", false));
	assert_true(phase_rec_value(&w->phases[1], "tps", 0) == 12.5);
	assert_true(phase_rec_value(&w->phases[1], "cpu_pct", -1) == -1);
	assert_true(isnan(phase_rec_value(NULL, "tps", NAN)));
	run_rec_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_rule),
		cmocka_unit_test(test_lookups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
