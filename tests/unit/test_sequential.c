// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sequential.c - the group-sequential design against published
 * boundaries, its spending by simulation of the score process, the
 * decisions of one look, the fixed-design sample size against the
 * textbook formula, and the plan's optimal instances (Kalibera and
 * Jones) on a hand-worked case.
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compare/compare.h"
#include "compare/plan.h"
#include "util/util.h"
#include "stats/sequential.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/*
 * Lan-DeMets Pocock-type spending, 5 equally spaced looks, two-sided
 * 0.05: 2.4380 2.4268 2.4101 2.3966 2.3859 (the R package ldbounds,
 * bounds(seq(0.2, 1, 0.2), iuse = 2, alpha = 0.025), and gsDesign's
 * sfLDPocock).
 */
static void test_published_bounds(void **state)
{
	static const double want[] = { 2.4380, 2.4268, 2.4101, 2.3966,
				       2.3859 };
	struct seq_design d;
	(void)state;

	assert_int_equal(seq_design_init(&d, 1, 5, 0.05), 0);
	for (int n = 1; n <= 5; n++)
		near(seq_zbound(&d, 0.05, n), want[n - 1], 0.0015);
	assert_true(isnan(seq_zbound(&d, 0.05, 6)));
	near(seq_nominal_p(&d, 0.05, 1), 2 * (1 - 0.99262), 0.0002);
	seq_design_release(&d);
	assert_int_equal(seq_design_init(&d, 0, 5, 0.05), -1);
	assert_int_equal(seq_design_init(&d, 5, 4, 0.05), -1);
}

/* Brownian motion at the looks: crossing any boundary has chance alpha
 * (known variance: the design's own claim, before the t step). */
static void test_spending_by_simulation(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct seq_design d;
	size_t nsim = 200000, cross = 0;
	(void)state;

	gsl_rng_set(rng, 7);
	assert_int_equal(seq_design_init(&d, 3, 15, 0.05), 0);
	for (size_t s = 0; s < nsim; s++) {
		double sum = 0;

		for (int n = 1; n <= 15; n++) {
			sum += gsl_ran_gaussian_ziggurat(rng, 1);
			if (n >= 3 && fabs(sum / sqrt(n)) >=
				      seq_zbound(&d, 0.05, n)) {
				cross++;
				break;
			}
		}
	}
	near((double)cross / (double)nsim, 0.05, 0.0015);
	near(seq_spend(0.05, 1), 0.05, 1e-12);
	near(seq_spend(0.05, 0.5), 0.05 * log(1 + (M_E - 1) / 2), 1e-12);
	seq_design_release(&d);
	gsl_rng_free(rng);
}

static void test_look_decisions(void **state)
{
	struct seq_design d;
	struct seq_cmp c[3];
	(void)state;

	assert_int_equal(seq_design_init(&d, 3, 10, 0.05), 0);
	memset(c, 0, sizeof(c));
	/* -50 % with a 2 % SE: different */
	c[0].log_ratio = log(0.5);
	c[0].se = 0.02;
	c[0].df = 4;
	/* +0.1 % with a 0.5 % SE: inside +-2 %, equivalent */
	c[1].log_ratio = log(1.001);
	c[1].se = 0.002;
	c[1].df = 4;
	/* +1 % with a 5 % SE: undecided */
	c[2].log_ratio = log(1.01);
	c[2].se = 0.05;
	c[2].df = 4;
	assert_int_equal(seq_look(&d, 3, c, 3, 2.0, 0.8), 1);
	assert_int_equal(c[0].decision, SEQ_DIFFERENT);
	assert_int_equal(c[0].decided_n, 3);
	assert_true(c[0].rejected);
	near(c[0].pct, -50, 1e-9);
	assert_true(c[0].hi_pct < 0);
	assert_int_equal(c[1].decision, SEQ_EQUIVALENT);
	assert_true(c[1].lo_pct > -2 && c[1].hi_pct < 2);
	assert_int_equal(c[2].decision, SEQ_UNDECIDED);
	assert_true(c[2].mdc_pct > 2);
	assert_string_equal(seq_decision_name(c[2].decision), "undecided");
	/* a decision stays made whatever the next look shows */
	c[0].log_ratio = 0;
	c[2].log_ratio = log(0.7);
	c[2].se = 0.01;
	c[2].df = 6;
	assert_int_equal(seq_look(&d, 4, c, 3, 2.0, 0.8), 0);
	assert_int_equal(c[0].decision, SEQ_DIFFERENT);
	assert_int_equal(c[0].decided_n, 3);
	assert_int_equal(c[2].decision, SEQ_DIFFERENT);
	assert_int_equal(c[2].decided_n, 4);
	/* significant but below the practical threshold: not different */
	memset(c, 0, sizeof(c));
	c[0].log_ratio = log(1.01);
	c[0].se = 0.0005;
	c[0].df = 8;
	assert_int_equal(seq_look(&d, 5, c, 1, 2.0, 0.8), 0);
	assert_true(c[0].rejected);
	assert_int_equal(c[0].decision, SEQ_EQUIVALENT);
	seq_design_release(&d);
}

/*
 * n per group: the smallest with (t_{1-a/2,df} + t_{power,df}) s
 * sqrt(2/n) <= log(1 + change), df = 2 (n - 1).  CoV 3 % (s = 0.02999),
 * a change of 5 % (0.04879), alpha 0.05, 80 %: n = 7 gives (2.179 +
 * 0.873) * 0.02999 * 0.5345 = 0.04892, just short; n = 8 gives (2.145
 * + 0.868) * 0.02999 * 0.5 = 0.04518.  (With z: 2 (1.96 + 0.8416)^2
 * 0.03^2 / 0.04879^2 = 5.9.)
 */
static void test_fixed_n(void **state)
{
	(void)state;
	assert_int_equal(seq_fixed_n(3, 5, 0.05, 0.80, 1000), 8);
	assert_true(seq_fixed_n(3, 5, 0.05 / 3, 0.80, 1000) > 8);
	assert_true(seq_fixed_n(3, 5, 0.05, 0.95, 1000) > 8);
	assert_int_equal(seq_fixed_n(300, 1, 0.05, 0.80, 50), 0);
}

/*
 * Kalibera and Jones: within-variance 4, between-variance 1, a
 * repetition costing 100 s and an instance 1 s: sqrt(100 * 4 / 1) = 20
 * instances per repetition.
 */
static void test_best_instances(void **state)
{
	(void)state;
	assert_int_equal(plan_best_instances(1, 4, 100, 1), 20);
	/* the instance is most of a repetition: one is enough */
	assert_int_equal(plan_best_instances(1, 0.01, 10, 9), 1);
	assert_int_equal(plan_best_instances(0, 1, 10, 1), 1000);
	assert_int_equal(plan_best_instances(1, 1, 0, 1), 0);
}

/*
 * The plan's levels on a run built by hand: per repetition five
 * instances m_r + (-2, -1, 0, 1, 2), repetition means 100, 110, 90,
 * 100.  Within: sample variance 2.5, relative 2.5e-4 (1.58 %).
 * Between: var of the means 66.67, relative 6.667e-3, less 2.5e-4 / 5:
 * 6.617e-3 (8.13 %).  A repetition costs 5 s, an instance 1 s: best
 * ceil(sqrt(5 * 2.5e-4 / 6.617e-3)) = 1 instance: repetitions pay.
 */
static void test_plan_levels(void **state)
{
	static const double means[] = { 100, 110, 90, 100 };
	static const char *const keys[] = { "p/files/s", NULL };
	struct run_rec *r = xcalloc(1, sizeof(*r));
	const struct run_rec *runs[] = { r };
	const size_t arg_of[] = { 0 };
	const char *labels[] = { "run" };
	const struct cmp_group *groups[1];
	struct compare_opts o;
	struct cmp_session s;
	struct cmp_set *set;
	struct cmp_table t;
	struct plan p;
	size_t ns;
	(void)state;

	for (int c = 0; c < 2; c++)
		for (int k = 0; k < 4; k++) {
			struct target_rec *tr = run_rec_new_target(r);
			struct wlrun_rec *w = run_rec_new_wlrun(r);

			tr->idx = c;
			tr->rep = k;
			tr->name = xstrdup(c ? "b" : "a");
			w->workload = xstrdup("synth");
			w->target_idx = (int)r->nr_targets - 1;
			w->target_id = (int64_t)r->nr_targets;
			w->rep = k;
			for (int i = 0; i < 5; i++) {
				struct phase_rec *ph = wlrun_rec_new_phase(w);

				ph->name = xstrdup("p");
				ph->m.wall_ns = 1000000000;
				phase_rec_add_metric(ph, "files/s",
						     means[k] + i - 2,
						     "files/s", BETTER_HIGHER);
			}
		}
	compare_opts_init(&o);
	o.key_metrics = keys;
	set = compare_sets(runs, arg_of, 1, labels, 1, "synth", &ns, NULL,
			   NULL);
	assert_int_equal(ns, 1);
	compare_build("synth", set[0].groups, set[0].nr_groups, &o, &t);
	compare_finish(&t, 1, &o);
	memset(&s, 0, sizeof(s));
	groups[0] = set[0].groups;
	s.tabs = &t;
	s.groups = groups;
	s.nr = 1;
	plan_build(&s, 10, 0.05, 2, 3, 10, 0, 1, &p);
	assert_int_equal(p.family, 1);
	assert_int_equal(p.nr, 2);
	near(p.rows[0].inst, 5, 1e-12);
	near(p.rows[0].within_pct, 100 * sqrt(2.5e-4), 1e-6);
	near(p.rows[0].between_pct, 100 * sqrt(2.0 / 300 - 2.5e-4 / 5),
	     1e-6);
	near(p.rows[0].cost_rep_s, 5, 1e-12);
	near(p.rows[0].cost_inst_s, 1, 1e-12);
	assert_int_equal(p.rows[0].best_inst, 1);
	assert_false(p.rows[0].reused);
	assert_true(p.rows[0].fixed_n > 3);
	assert_int_equal(p.fixed_n, p.rows[0].fixed_n);
	assert_true(isnan(p.change.mean_n));
	plan_release(&p);
	compare_table_release(&t);
	compare_sets_free(set, ns);
	run_rec_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_published_bounds),
		cmocka_unit_test(test_spending_by_simulation),
		cmocka_unit_test(test_look_decisions),
		cmocka_unit_test(test_fixed_n),
		cmocka_unit_test(test_best_instances),
		cmocka_unit_test(test_plan_levels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
