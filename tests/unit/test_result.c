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

#include "measure/result.h"
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
	phase_rec_add_metric(b, "transactions/s", 12.5, "transactions/s",
			     BETTER_HIGHER);
	a = &w->phases[0];  /* the array may have moved */
	assert_ptr_equal(wlrun_rec_phase(w, "run", false), a);
	assert_ptr_equal(wlrun_rec_phase(w, "run", true), &w->phases[1]);
	assert_null(wlrun_rec_phase(w, "setup", false));
	assert_true(phase_rec_value(&w->phases[1], "transactions/s", 0) == 12.5);
	assert_true(phase_rec_value(&w->phases[1], "cpu_pct", -1) == -1);
	assert_true(isnan(phase_rec_value(NULL, "transactions/s", NAN)));
	run_rec_free(r);
}

/* The naming rule of result.h, by examples on both sides of it. */
static void test_name_rule(void **state)
{
	static const struct { const char *name, *unit; } good[] = {
		{ "MiB/s", "MiB/s" }, { "files/s", "files/s" },
		{ "fsyncs/s", "ops/s" }, { "transactions/s", "transactions/s" },
		{ "read.transactions/s", "transactions/s" },
		{ "trace.seeks/s", "seeks/s" }, { "disk.MiB/s", "MiB/s" },
		{ "trace.ts.3.requests/s", "requests/s" },
		{ "interval.2.files/s", "files/s" },
		{ "rank_min_MiB/s", "MiB/s" }, { "host:c1_files/s", "files/s" },
		{ "summary/patch.avg_MiB/s", "MiB/s" }, /* a key metric */
		{ "wall_s", "s" }, { "disk.seek_s", "s" }, { "trace.ts.bin_s", "s" },
		{ "interval.2.time_s", "s" }, { "read.lat_p99_ms", "ms" },
		{ "lat_mean_ms", "ms" }, { "free_B", "B" }, { "trace.data_B", "B" },
		{ "dev_read_MiB", "MiB" }, { "sys_cpu_pct", "%" },
		{ "fragmented_bytes_pct", "%" }, { "cpu_MHz", "MHz" },
		{ "seeks", "seeks" }, { "trace.requests", "requests" },
		{ "layout_score", "ratio" }, { "drained", "bool" },
		{ "bin 4K-8K files", "files" }, { "fullness", "" },
	};
	static const struct { const char *name, *unit; } bad[] = {
		{ "trace.seeks_s", "seeks/s" },   /* _s is seconds */
		{ "disk.mib_s", "MiB/s" }, { "interval.2.files_s", "files/s" },
		{ "tps", "transactions/s" }, { "trace.iops", "ops/s" },
		{ "rate", "KiB/s" }, { "rank_min", "files/s" },
		{ "read_bytes", "B" }, { "free_max_extent", "B" },
		{ "peak_rss", "B" }, { "delivered", "MiB" },
		{ "interval.2.s", "s" }, { "patch.avg", "s" }, { "wall", "s" },
		{ "lat_p99", "ms" }, { "free_group_frag_mean", "%" },
		{ "seeks_B", "seeks" }, { "files/s", "files" },
		{ "wall_s", "files" }, { "cpu_pct", "ratio" }, { "", "s" },
		{ " wall_s", "s" }, { "dev_read_mib", "" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *why = metric_name_check(good[i].name, good[i].unit);

		if (why)
			fail_msg("'%s' (%s): %s", good[i].name, good[i].unit,
				 why);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!metric_name_check(bad[i].name, bad[i].unit))
			fail_msg("'%s' (%s) passed", bad[i].name, bad[i].unit);
	/* without a unit (key metrics): only the retired spellings */
	assert_null(metric_name_check("rate_KiB/s", NULL));
	assert_null(metric_name_check("avg_s", NULL));
	assert_non_null(metric_name_check("trace.seeks_s", NULL));
	assert_non_null(metric_name_check("tps", NULL));
	assert_non_null(metric_name_check("model_bytes", NULL));
}

/*
 * Every name a store written before the rule holds reads as the name a
 * run stores today (the writers' spellings, not a restatement of the
 * rewriting rules), and current names read unchanged.
 */
static void test_name_upgrade(void **state)
{
	static const struct { const char *old, *unit, *now, *now_unit; } t[] = {
		{ "trace.seeks_s", "seeks/s", "trace.seeks/s", NULL },
		{ "trace.iops", "ops/s", "trace.requests/s", "requests/s" },
		{ "trace.bytes", "B", "trace.data_B", NULL },
		{ "trace.read_bytes", "B", "trace.read_B", NULL },
		{ "trace.write_bytes", "B", "trace.write_B", NULL },
		{ "trace.ts.7.mib_s", "MiB/s", "trace.ts.7.MiB/s", NULL },
		{ "trace.ts.7.seeks_s", "seeks/s", "trace.ts.7.seeks/s", NULL },
		{ "trace.ts.7.iops", "ops/s", "trace.ts.7.requests/s",
		  "requests/s" },
		{ "disk.mib_s", "MiB/s", "disk.MiB/s", NULL },
		{ "disk.files_s", "files/s", "disk.files/s", NULL },
		{ "interval.12.files_s", "files/s", "interval.12.files/s", NULL },
		{ "interval.12.s", "s", "interval.12.time_s", NULL },
		{ "tps", "transactions/s", "transactions/s", NULL },
		{ "read.tps", "transactions/s", "read.transactions/s", NULL },
		{ "read.bytes", "B", "read.data_B", NULL },
		{ "read_bytes", "B", "read_B", NULL },
		{ "write_bytes", "B", "write_B", NULL },
		{ "free_bytes", "B", "free_B", NULL },
		{ "free_max_extent", "B", "free_max_extent_B", NULL },
		{ "free_group_frag_p95", "%", "free_group_frag_p95_pct", NULL },
		{ "bytes_scanned", "B", "scanned_B", NULL },
		{ "fragmented_bytes", "B", "fragmented_B", NULL },
		{ "locality_mean_gap", "B", "locality_mean_gap_B", NULL },
		{ "model_bytes", "B", "model_B", NULL },
		{ "peak_rss", "B", "peak_rss_B", NULL },
		{ "rate", "KiB/s", "rate_KiB/s", NULL },
		{ "rate", "seeks/s", "rate_seeks/s", NULL },
		{ "rate", "files/s", "rate_files/s", NULL },
		{ "patch.avg", "MiB/s", "patch.avg_MiB/s", NULL },
		{ "delete.avg", "s", "delete.avg_s", NULL },
		{ "rank_min", "files/s", "rank_min_files/s", NULL },
		{ "rank_sd", "MiB/s", "rank_sd_MiB/s", NULL },
		{ "host_mean", "files/s", "host_mean_files/s", NULL },
		{ "host:node-1.lab", "files/s", "host:node-1.lab_files/s", NULL },
	};
	static const char *const current[][2] = {
		{ "MiB/s", "MiB/s" }, { "wall_s", "s" }, { "seeks", "seeks" },
		{ "lat_p50_ms", "ms" }, { "read_MiB/s", "MiB/s" },
		{ "lat_max_us", "us" },  /* pre-rule latency: its own reader */
	};
	char buf[128];
	const char *u;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_true(metric_name_upgrade(t[i].old, t[i].unit, buf,
						sizeof(buf), &u));
		assert_string_equal(buf, t[i].now);
		assert_string_equal(u, t[i].now_unit ? t[i].now_unit
						     : t[i].unit);
		assert_null(metric_name_check(buf, u));
	}
	for (size_t i = 0; i < sizeof(current) / sizeof(current[0]); i++) {
		assert_false(metric_name_upgrade(current[i][0], current[i][1],
						 buf, sizeof(buf), &u));
		assert_ptr_equal(u, current[i][1]);
	}
}

/* The traced key figures are stored names, under the rule. */
static void test_trace_keys(void **state)
{
	size_t n = 0;

	(void)state;
	for (const char *const *k = trace_key_metrics; *k; k++, n++) {
		assert_null(metric_name_check(*k, NULL));
		assert_int_equal(strncmp(*k, "trace.", 6), 0);
	}
	assert_int_equal(n, NR_TRACE_KEY_METRICS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_rule),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_name_rule),
		cmocka_unit_test(test_name_upgrade),
		cmocka_unit_test(test_trace_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
