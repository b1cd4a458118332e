/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare.c - the comparison rules on synthetic runs: grouping by
 * target spec and by run, harmonic means for rates, direction-aware
 * verdicts, the significance rule (p AND practical threshold), A/A,
 * too few samples, BETTER_NONE, the key-metric roll-up and regression
 * flag.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare/compare.h"
#include "stats/stats.h"
#include "util/util.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))
#define NREP 5

/* Per-rep values of one configuration: rate (MiB/s), time (wall_s),
 * a count without direction. */
struct cfg {
	const char *name;
	double rate[NREP], secs[NREP], count[NREP];
};

static void add_cfg(struct run_rec *r, const struct cfg *c, int idx,
		    size_t nrep)
{
	for (size_t k = 0; k < nrep; k++) {
		struct target_rec *t = run_rec_new_target(r);
		struct wlrun_rec *w;
		struct phase_rec *p;

		t->idx = idx;
		t->rep = (int)k;
		t->name = xstrdup(c->name);
		w = run_rec_new_wlrun(r);
		w->workload = xstrdup("synth");
		w->target_idx = (int)r->nr_targets - 1;
		w->rep = (int)k;
		p = wlrun_rec_new_phase(w);
		p->name = xstrdup("read");
		phase_rec_add_metric(p, "MiB/s", c->rate[k], "MiB/s",
				     BETTER_HIGHER);
		phase_rec_add_metric(p, "wall_s", c->secs[k], "s",
				     BETTER_LOWER);
		phase_rec_add_metric(p, "files", c->count[k], "files",
				     BETTER_NONE);
	}
}

static struct run_rec *make_run(const struct cfg *a, const struct cfg *b,
				size_t nrep)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));

	add_cfg(r, a, 0, nrep);
	if (b)
		add_cfg(r, b, 1, nrep);
	return r;
}

static const struct cfg base = {
	"base", { 100, 102, 98, 101, 99 }, { 10, 10.2, 9.8, 10.1, 9.9 },
	{ 7, 7, 7, 7, 7 },
};

static const struct cmp_row *row(const struct cmp_table *t,
				 const char *metric)
{
	for (size_t i = 0; i < t->nr_rows; i++)
		if (!strcmp(t->rows[i].metric, metric))
			return &t->rows[i];
	fail_msg("no row '%s'", metric);
	return NULL;
}

static bool has_row(const struct cmp_table *t, const char *metric)
{
	for (size_t i = 0; i < t->nr_rows; i++)
		if (!strcmp(t->rows[i].metric, metric))
			return true;
	return false;
}

static void build(const struct run_rec *r, const struct compare_opts *o,
		  struct cmp_table *t)
{
	const struct run_rec *runs[] = { r };
	struct cmp_group *g;
	size_t ng;

	g = compare_groups(runs, NULL, 1, "synth", &ng);
	compare_build("synth", g, ng, o, t);
	compare_groups_free(g, ng);
}

static void test_groups_by_target(void **state)
{
	struct run_rec *r = make_run(&base, &base, 3);
	const struct run_rec *runs[] = { r };
	struct cmp_group *g;
	size_t ng;
	(void)state;

	g = compare_groups(runs, NULL, 1, "synth", &ng);
	assert_int_equal(ng, 2);
	assert_int_equal(g[0].nr_reps, 3);
	assert_int_equal(g[1].nr_reps, 3);
	assert_string_equal(g[0].label, "base");
	assert_ptr_equal(g[1].reps[0], &r->wlruns[3]);
	compare_groups_free(g, ng);
	g = compare_groups(runs, NULL, 1, "other", &ng);
	assert_int_equal(ng, 0);
	compare_groups_free(g, ng);
	run_rec_free(r);
}

static void test_groups_by_run(void **state)
{
	struct run_rec *a = make_run(&base, NULL, 2);
	struct run_rec *b = make_run(&base, &base, 2);
	const struct run_rec *runs[] = { a, b };
	const char *labels[] = { "A", "B" };
	struct cmp_group *g;
	size_t ng;
	(void)state;

	g = compare_groups(runs, labels, 2, "synth", &ng);
	assert_int_equal(ng, 2);
	assert_string_equal(g[0].label, "A");
	assert_int_equal(g[0].nr_reps, 2);
	/* Every wlrun of the run, whatever its target. */
	assert_int_equal(g[1].nr_reps, 4);
	compare_groups_free(g, ng);
	run_rec_free(a);
	run_rec_free(b);
}

static void test_aa(void **state)
{
	struct run_rec *r = make_run(&base, &base, NREP);
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	compare_opts_init(&o);
	build(r, &o, &t);
	assert_int_equal(t.nr_groups, 2);
	for (size_t i = 0; i < t.nr_rows; i++) {
		const struct cmp_delta *d = &t.rows[i].d[1];

		assert_false(d->significant);
		near(d->pct, 0, 1e-9);
		near(d->p, 1, 1e-9);
		assert_true(d->verdict == CMP_SAME ||
			    d->verdict == CMP_INFO);
	}
	assert_false(t.regression);
	near(t.rollup[1], 1, 1e-12);
	compare_table_release(&t);
	run_rec_free(r);
}

static void test_hmean_and_stats(void **state)
{
	struct run_rec *r = make_run(&base, NULL, NREP);
	struct compare_opts o;
	struct cmp_table t;
	const struct cmp_row *rate, *secs;
	(void)state;

	compare_opts_init(&o);
	build(r, &o, &t);
	rate = row(&t, "MiB/s");
	secs = row(&t, "wall_s");
	assert_true(rate->hmean);
	assert_false(secs->hmean);
	assert_string_equal(compare_mean_name(rate), "harmonic");
	assert_int_equal(rate->st[0].n, NREP);
	near(rate->st[0].mean, stats_hmean(base.rate, NREP), 1e-9);
	near(secs->st[0].mean, 10.0, 1e-9);
	near(rate->st[0].sd, stats_stddev(base.rate, NREP), 1e-9);
	assert_true(rate->st[0].min == 98 && rate->st[0].max == 102);
	assert_true(rate->st[0].ci_lo < rate->st[0].mean &&
		    rate->st[0].mean < rate->st[0].ci_hi);
	/* Rates are key when the workload names none. */
	assert_true(rate->key);
	assert_false(secs->key);
	assert_false(t.key_from_workload);
	compare_table_release(&t);
	run_rec_free(r);
}

/* Higher rate = better, higher time = worse, counts: no verdict. */
static void test_direction(void **state)
{
	struct cfg b = base;
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	for (int i = 0; i < NREP; i++) {
		b.rate[i] = base.rate[i] * 1.2;
		b.secs[i] = base.secs[i] * 1.2;
		b.count[i] = 9;
	}
	r = make_run(&base, &b, NREP);
	compare_opts_init(&o);
	o.all = true;
	build(r, &o, &t);
	assert_int_equal(row(&t, "MiB/s")->d[1].verdict, CMP_BETTER);
	near(row(&t, "MiB/s")->d[1].pct, 20, 1e-9);
	assert_true(row(&t, "MiB/s")->d[1].pct_lo > 0);
	assert_int_equal(row(&t, "wall_s")->d[1].verdict, CMP_WORSE);
	assert_int_equal(row(&t, "files")->d[1].verdict, CMP_INFO);
	assert_true(row(&t, "files")->d[1].significant);
	/* wall_s is not key (rates are), so no regression. */
	assert_false(t.regression);
	near(t.rollup[1], 1.2, 1e-9);
	compare_table_release(&t);
	run_rec_free(r);
}

/* A tiny but consistent change: significant only below the threshold. */
static void test_practical_threshold(void **state)
{
	struct cfg b = base;
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	const struct cmp_delta *d;
	(void)state;

	/* Almost no noise: clearly significant, but only -1 %. */
	for (int i = 0; i < NREP; i++) {
		b.rate[i] = 99.0 + 0.01 * i;
		b.secs[i] = 10.0 + 0.001 * i;
	}
	{
		struct cfg a = base;

		for (int i = 0; i < NREP; i++) {
			a.rate[i] = 100.0 + 0.01 * i;
			a.secs[i] = 10.0 + 0.001 * i;
		}
		r = make_run(&a, &b, NREP);
	}
	compare_opts_init(&o);
	build(r, &o, &t);
	d = &row(&t, "MiB/s")->d[1];
	assert_true(d->p < 1e-6);
	near(d->pct, -1.0, 0.01);
	assert_false(d->significant);
	assert_int_equal(d->verdict, CMP_SAME);
	assert_false(t.regression);
	compare_table_release(&t);

	o.min_change_pct = 0.5;
	build(r, &o, &t);
	d = &row(&t, "MiB/s")->d[1];
	assert_true(d->significant);
	assert_int_equal(d->verdict, CMP_WORSE);
	assert_true(t.regression);
	compare_table_release(&t);
	run_rec_free(r);
}

/* Large but noisy: p decides, whatever the size. */
static void test_noise_not_significant(void **state)
{
	struct cfg a = base, b = base;
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	const double ra[] = { 50, 150, 80, 120, 100 };
	const double rb[] = { 60, 170, 90, 140, 110 };
	(void)state;

	memcpy(a.rate, ra, sizeof(ra));
	memcpy(b.rate, rb, sizeof(rb));
	r = make_run(&a, &b, NREP);
	compare_opts_init(&o);
	build(r, &o, &t);
	assert_true(fabs(row(&t, "MiB/s")->d[1].pct) > 2);
	assert_true(row(&t, "MiB/s")->d[1].p > 0.05);
	assert_int_equal(row(&t, "MiB/s")->d[1].verdict, CMP_SAME);
	compare_table_release(&t);
	run_rec_free(r);
}

static void test_too_few(void **state)
{
	struct cfg b = base;
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	b.rate[0] = 200;
	r = make_run(&base, &b, 1);
	compare_opts_init(&o);
	build(r, &o, &t);
	assert_int_equal(row(&t, "MiB/s")->st[0].n, 1);
	assert_true(isnan(row(&t, "MiB/s")->st[0].ci_lo));
	assert_int_equal(row(&t, "MiB/s")->d[1].verdict, CMP_NA);
	near(row(&t, "MiB/s")->d[1].pct, 100, 1e-9);
	compare_table_release(&t);
	run_rec_free(r);
}

/* Workload key metrics: oriented ratios, geometric mean, regression. */
static void test_key_rollup(void **state)
{
	static const char *const keys[] = { "read/MiB/s", "read/wall_s",
					    NULL };
	struct cfg b = base;
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	for (int i = 0; i < NREP; i++) {
		b.rate[i] = base.rate[i] * 1.21;
		b.secs[i] = base.secs[i] * 1.1;
	}
	r = make_run(&base, &b, NREP);
	compare_opts_init(&o);
	o.key_metrics = keys;
	o.all = true;
	build(r, &o, &t);
	assert_true(t.key_from_workload);
	assert_true(row(&t, "MiB/s")->key && row(&t, "wall_s")->key);
	assert_false(row(&t, "files")->key);
	assert_int_equal(t.rollup_n[1], 2);
	near(t.rollup[1], sqrt(1.21 / 1.1), 1e-9);
	assert_true(t.regression);
	compare_table_release(&t);
	run_rec_free(r);
}

static void test_filters(void **state)
{
	struct run_rec *r = make_run(&base, &base, 2);
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	compare_opts_init(&o);
	build(r, &o, &t);
	assert_false(has_row(&t, "files"));  /* not a default metric */
	assert_true(row(&t, "wall_s")->shown);
	compare_table_release(&t);
	o.all = true;
	build(r, &o, &t);
	assert_true(row(&t, "files")->shown);
	compare_table_release(&t);
	o.all = false;
	o.metric = "wall*";
	build(r, &o, &t);
	assert_true(row(&t, "wall_s")->shown);
	assert_false(row(&t, "MiB/s")->shown);
	/* Hidden key rows still count for the roll-up. */
	assert_int_equal(t.rollup_n[1], 1);
	compare_table_release(&t);
	o.metric = NULL;
	o.phase = "nope";
	build(r, &o, &t);
	for (size_t i = 0; i < t.nr_rows; i++)
		assert_false(t.rows[i].shown);
	compare_table_release(&t);
	run_rec_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_by_target),
		cmocka_unit_test(test_groups_by_run),
		cmocka_unit_test(test_aa),
		cmocka_unit_test(test_hmean_and_stats),
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_practical_threshold),
		cmocka_unit_test(test_noise_not_significant),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_key_rollup),
		cmocka_unit_test(test_filters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
