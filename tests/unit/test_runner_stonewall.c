/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_runner_stonewall.c - the stonewall helpers of the phase API
 * (src/phase/phase.c) in a world of one rank: an armed phase reports the
 * deadline only once it has passed, an unarmed one never, and the
 * agreement returns the largest worker count and records the stonewall
 * figures with units and better-direction, while the phase's own work
 * stays what the workload reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "measure/result.h"
#include "phase/workload.h"

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static const char *const test_phases[] = { "create", NULL };
static const struct workload test_wl = { .name = "test",
					 .phases = test_phases };

/* A world of one rank whose phases record into a new wlrun of RUN
 * (in memory: no run writer). */
static void ctx_init(struct wl_ctx *ctx, struct run_rec *run)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->wl = &test_wl;
	ctx->dir = ctx->shared_dir = "/nonexistent";
	ctx->nranks = 1;
	ctx->wlrun = run_rec_new_wlrun(run);
}

static void expect_metric(const struct phase_rec *p, const char *name,
			  double value, const char *unit, enum better better)
{
	const struct metric *m = phase_rec_metric(p, name);

	if (!m)
		fail_msg("no metric '%s'", name);
	assert_true(m->value == value);
	assert_string_equal(m->unit, unit);
	assert_int_equal(m->better, better);
}

static void test_stonewall(void **state)
{
	struct run_rec *run = calloc(1, sizeof(*run));
	struct wl_ctx ctx;
	const struct phase_rec *rec;
	const struct metric *s, *rate;
	uint64_t done[3] = { 3, 7, 5 };
	struct phase *ph;

	(void)state;
	ctx_init(&ctx, run);

	ph = phase_begin(&ctx, "create", NULL);
	assert_false(phase_stonewall_hit(ph));  /* not armed */
	phase_stonewall_arm(ph, 0.05);
	assert_false(phase_stonewall_hit(ph));
	nap_ms(80);
	assert_true(phase_stonewall_hit(ph));
	assert_true(phase_stonewall_agree(&ctx, ph, done, 3, "files") == 7);
	phase_work(ph, 0, 21, 21);  /* wear-out took every worker to 7 */
	assert_int_equal(phase_end(&ctx, ph, &rec), 0);

	assert_int_equal(rec->files, 21);
	expect_metric(rec, "stonewall_files", 15, "files", BETTER_HIGHER);
	expect_metric(rec, "stonewall_min", 3, "files", BETTER_NONE);
	expect_metric(rec, "stonewall_max", 7, "files", BETTER_NONE);
	s = phase_rec_metric(rec, "stonewall_s");
	rate = phase_rec_metric(rec, "stonewall_files/s");
	assert_non_null(s);
	assert_non_null(rate);
	assert_string_equal(s->unit, "s");
	assert_int_equal(s->better, BETTER_NONE);
	assert_true(s->value >= 0.05);
	assert_true(s->value <= (double)rec->m.wall_ns / 1e9);
	assert_string_equal(rate->unit, "files/s");
	assert_int_equal(rate->better, BETTER_HIGHER);
	assert_true(rate->value > 0 && rate->value * s->value > 14.9 &&
		    rate->value * s->value < 15.1);
	run_rec_free(run);
}

/* An unarmed phase (or seconds <= 0) never hits; no workers: zeros. */
static void test_unarmed(void **state)
{
	struct run_rec *run = calloc(1, sizeof(*run));
	struct wl_ctx ctx;
	const struct phase_rec *rec;
	struct phase *ph;

	(void)state;
	ctx_init(&ctx, run);
	ph = phase_begin(&ctx, "create", NULL);
	phase_stonewall_arm(ph, 0);
	nap_ms(5);
	assert_false(phase_stonewall_hit(ph));
	assert_true(phase_stonewall_agree(&ctx, ph, NULL, 0, "files") == 0);
	assert_int_equal(phase_end(&ctx, ph, &rec), 0);
	expect_metric(rec, "stonewall_files", 0, "files", BETTER_HIGHER);
	expect_metric(rec, "stonewall_min", 0, "files", BETTER_NONE);
	run_rec_free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stonewall),
		cmocka_unit_test(test_unarmed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
