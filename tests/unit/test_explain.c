// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_explain.c - `compare --explain`'s engine: Benjamini-Hochberg on
 * the 15 p-values of Benjamini & Hochberg (1995), the ranking of leads
 * on constructed samples (normalised per file, floors, appearing from
 * nothing, the cut, the chain), and the share of A/A comparisons listing
 * anything, by seeded simulation.
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
#include "compare/explain.h"
#include "output/explain.h"
#include "util/util.h"

#define NREP 5

/* A small deterministic normal generator (xorshift64 + Box-Muller). */
static uint64_t rng = 88172645463325252ULL;

static double unif(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

/* One configuration: per metric its level and relative noise. */
struct level {
	const char *metric, *unit;
	double v, noise;
	enum better better;
};

/* Poisson(lambda) by Knuth's product of uniforms (lambda up to ~500). */
static double poisson(double lambda)
{
	double l = exp(-lambda), p = 1;
	int k = -1;

	do {
		k++;
		p *= unif();
	} while (p > l);
	return k;
}

static int nrep = NREP; /* repetitions per configuration */

static void add_cfg(struct run_rec *r, const char *name, int idx,
		    uint64_t files, const struct level *lv, size_t nlv)
{
	for (int k = 0; k < nrep; k++) {
		struct target_rec *t = run_rec_new_target(r);
		struct wlrun_rec *w;
		struct phase_rec *p;

		t->idx = idx;
		t->rep = k;
		t->name = xstrdup(name);
		w = run_rec_new_wlrun(r);
		w->workload = xstrdup("synth");
		w->target_idx = (int)r->nr_targets - 1;
		w->rep = k;
		p = wlrun_rec_new_phase(w);
		p->name = xstrdup("create");
		p->m.wall_ns = 2000000000;
		p->files = files;
		p->bytes = files * 16384;
		for (size_t i = 0; i < nlv; i++) {
			double v = lv[i].v;

			/* a count that appears: 5, 6, 7, 5, 6 */
			if (lv[i].noise == -2)
				v = poisson(v);
			else if (lv[i].noise < 0)
				v = v ? v + k % 3 : 0;
			else
				v *= 1 + lv[i].noise * gauss();
			phase_rec_add_metric(p, lv[i].metric, v, lv[i].unit,
					     lv[i].better);
		}
	}
}

static const char *const keys[] = { "create/files/s", NULL };

/* Build, adjust and explain r's two targets. */
static void explain_run(const struct run_rec *r, struct explain_opts *eo,
			struct explain *e, struct cmp_table *t)
{
	const struct run_rec *runs[] = { r };
	const size_t arg_of[] = { 0 };
	const char *labels[] = { "run" };
	const struct cmp_group *groups[1];
	struct compare_opts o;
	struct cmp_set *s;
	size_t ns;

	compare_opts_init(&o);
	o.key_metrics = keys;
	s = compare_sets(runs, arg_of, 1, labels, 1, "synth", &ns, NULL,
			 NULL);
	assert_int_equal(ns, 1);
	compare_build("synth", s[0].groups, s[0].nr_groups, &o, t);
	compare_finish(t, 1, &o);
	groups[0] = s[0].groups;
	explain_build(t, groups, 1, eo, e);
	compare_sets_free(s, ns);
}

static void test_bh_1995(void **state)
{
	/* Benjamini & Hochberg (1995), section 4: 15 p-values; at q = 0.05
	 * the step-up procedure rejects the four smallest (0.0095 <= 4/15
	 * x 0.05 = 0.0133, 0.0201 > 5/15 x 0.05 = 0.0167, and no larger
	 * p(i) is below i/15 x 0.05). */
	static const double p[15] = {
		0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298,
		0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590,
		1.0000,
	};
	bool lead[15];
	double q[15];
	(void)state;

	assert_int_equal(explain_fdr(p, 15, 0.05, lead, q), 4);
	for (int i = 0; i < 15; i++)
		assert_int_equal(lead[i], i < 4);
	/* the fourth's adjusted p: 0.0095 x 15 / 4 */
	assert_true(fabs(q[3] - 0.0095 * 15 / 4) < 1e-12);
	/* Bonferroni would have stopped at three: 0.0095 x 15 > 0.05 */
	assert_true(0.0095 * 15 > 0.05);
}

static void test_candidates(void **state)
{
	double fl;
	bool pw;
	(void)state;

	assert_true(explain_candidate("jbd2.blocks_logged", &fl, &pw));
	assert_true(pw);
	assert_true(fl == 5);
	assert_true(explain_candidate("psi.io_some_s", &fl, &pw));
	assert_true(fl == 20);
	assert_true(explain_candidate("dev.util_pct", &fl, &pw));
	assert_false(pw);
	assert_true(explain_candidate("trace.seeks", &fl, &pw));
	assert_true(explain_candidate("dev_write_MiB", &fl, &pw));
	assert_false(explain_candidate("files/s", &fl, &pw));
	assert_false(explain_candidate("wall_s", &fl, &pw));
	assert_false(explain_candidate("dev.wr_ios", &fl, &pw)); /* raw */
	assert_false(explain_candidate("vm.nonsense", &fl, &pw));
}

static void test_ranking(void **state)
{
	/* B does twice the files: per-file figures are what counts. */
	const struct level a[] = {
		{ "files/s", "files/s", 1000, 0.01, BETTER_HIGHER },
		{ "jbd2.blocks_logged", "blocks", 3000, 0.01, BETTER_NONE },
		{ "trace.seeks", "seeks", 100, 0.01, BETTER_NONE },
		{ "trace.layout_score", "", 0.9, 0.01, BETTER_NONE },
		{ "disk.time_s", "s", 1.0, 0.01, BETTER_LOWER },
		{ "dev.write_merges", "requests", 500, 0.01, BETTER_NONE },
		{ "dev.util_pct", "%", 50, 0.01, BETTER_NONE },
		{ "vm.dirtied_B", "B", 4e6, 0.01, BETTER_NONE },
		{ "vm.pgfault", "faults", 1e5, 0.0002, BETTER_NONE },
		{ "psi.io_some_s", "s", 1.0, 0.3, BETTER_NONE },
		{ "vm.allocstall", "stalls", 0, -1, BETTER_NONE },
		{ "not.a_cometric", "x", 1, 0.01, BETTER_NONE },
	};
	const struct level b[] = {
		{ "files/s", "files/s", 600, 0.01, BETTER_HIGHER },
		{ "jbd2.blocks_logged", "blocks", 18000, 0.01, BETTER_NONE },
		{ "trace.seeks", "seeks", 400, 0.01, BETTER_NONE },
		{ "trace.layout_score", "", 0.6, 0.01, BETTER_NONE },
		{ "disk.time_s", "s", 2.0, 0.01, BETTER_LOWER },
		{ "dev.write_merges", "requests", 1300, 0.01, BETTER_NONE },
		{ "dev.util_pct", "%", 55, 0.01, BETTER_NONE },
		{ "vm.dirtied_B", "B", 8e6, 0.01, BETTER_NONE },
		{ "vm.pgfault", "faults", 2.006e5, 0.0002, BETTER_NONE },
		{ "psi.io_some_s", "s", 2.0, 0.3, BETTER_NONE },
		{ "vm.allocstall", "stalls", 5, -1, BETTER_NONE },
		{ "not.a_cometric", "x", 9, 0.01, BETTER_NONE },
	};
	static const char *const want[] = {
		"vm.allocstall", "jbd2.blocks_logged", "trace.seeks",
		"trace.layout_score", "dev.write_merges", "dev.util_pct",
	};
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct explain_opts eo;
	struct explain e;
	struct cmp_table t;
	const struct explain_item *it;
	(void)state;

	rng = 42;
	add_cfg(r, "A", 0, 1000, a, ARRAY_SIZE(a));
	add_cfg(r, "B", 1, 2000, b, ARRAY_SIZE(b));
	explain_opts_init(&eo);
	explain_run(r, &eo, &e, &t);
	assert_int_equal(e.nr, 1);
	it = &e.items[0];
	assert_string_equal(it->phase, "create");
	assert_string_equal(it->per, "file");
	assert_true(it->changed);
	/* files/s and disk.time_s are keys, not co-metrics of themselves */
	assert_int_equal(it->nr_tested, 9);
	assert_int_equal(it->nr_leads, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_string_equal(it->leads[i].metric, want[i]);
	/* per file: 3 -> 9 blocks, +200 %, an interval around it */
	assert_true(fabs(it->leads[1].pct - 200) < 10);
	assert_true(it->leads[1].pct_lo < it->leads[1].pct &&
		    it->leads[1].pct < it->leads[1].pct_hi);
	assert_string_equal(it->leads[1].unit, "blocks/file");
	assert_true(fabs(it->leads[1].base - 3) < 0.1);
	assert_true(isinf(it->leads[0].pct));
	assert_string_equal(it->leads[5].unit, "%");
	assert_null(it->leads[5].per);
	/* the chain: 0.9 -> 0.6, 6.4 -> 12.8 seeks/MiB, 1 -> 2 s */
	assert_true(it->layout.have && it->seeks_per_mib.have &&
		    it->disk_s.have);
	assert_true(fabs(it->seeks_per_mib.base - 6.4) < 0.2);
	assert_true(fabs(it->seeks_per_mib.pct - 100) < 5);
	assert_true(fabs(it->disk_s.pct - 100) < 5);

	/* the renderers: text, HTML, JSON and CSV carry the same list */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		json_t *j;

		explain_print_text(f, &e, &t);
		explain_print_html(f, &e, 0, &t);
		explain_write_csv(f, &e, &t);
		fclose(f);
		if (getenv("EXPLAIN_DUMP"))
			fputs(buf, stderr);
		assert_non_null(strstr(buf, "explain: co-metrics that moved"));
		assert_non_null(strstr(buf, "    files/s -39.1% [-40.6, -37.6] "
					    "REGRESSION\n"));
		assert_non_null(strstr(buf, " 1. vm.allocstall"));
		assert_non_null(strstr(buf, " 2. jbd2.blocks_logged"));
		/* 1 % noise on 3000 blocks is below the Poisson floor
		 * (1.8 %): the interval is the normal one */
		assert_non_null(strstr(buf, "blocks/file  +201.9% [+196.0, "
					    "+207.9]  q="));
		assert_non_null(strstr(buf, "chain: layout score 0.899 -> 0.605 "
					    "(-32.7%) -> seeks/MiB 6.383 -> "
					    "12.79 (+100.4%) -> modelled disk"));
		assert_non_null(strstr(buf, "<h3>Why: co-metrics that moved"));
		assert_non_null(strstr(buf, "<td>jbd2.blocks_logged</td>"));
		assert_non_null(strstr(buf, "\nsynth,,B,A,create,1,2,"
					    "jbd2.blocks_logged,blocks/file,"));
		free(buf);
		j = explain_json(&e, &t);
		assert_int_equal(json_array_size(json_object_get(j, "items")),
				 1);
		assert_string_equal(json_string_value(json_object_get(
			json_array_get(json_object_get(json_array_get(
				json_object_get(j, "items"), 0), "leads"), 1),
			"metric")), "jbd2.blocks_logged");
		json_decref(j);
	}
	explain_release(&e);
	compare_table_release(&t);

	/* at most max_leads, the rest counted */
	eo.max_leads = 3;
	explain_run(r, &eo, &e, &t);
	assert_int_equal(e.items[0].nr_leads, 3);
	assert_int_equal(e.items[0].nr_leads_all, ARRAY_SIZE(want));
	assert_string_equal(e.items[0].leads[2].metric, "trace.seeks");
	explain_release(&e);
	compare_table_release(&t);
	run_rec_free(r);
}

/*
 * Counts without spread: 2, 2, 2 context switches against 1, 1, 1 has
 * no variance and would give p = 0; a count is known to half a unit, so
 * that is no lead, while 0 against 40 journal commits still is.
 */
static void test_resolution(void **state)
{
	const struct level a[] = {
		{ "files/s", "files/s", 1000, 0.01, BETTER_HIGHER },
		{ "proc.voluntary_switches", "switches", 2, 0, BETTER_NONE },
		{ "jbd2.commits", "transactions", 0, 0, BETTER_NONE },
		{ "dev.queue_depth", "requests", 1.5, 0, BETTER_NONE },
	};
	const struct level b[] = {
		{ "files/s", "files/s", 1000, 0.01, BETTER_HIGHER },
		{ "proc.voluntary_switches", "switches", 1, 0, BETTER_NONE },
		{ "jbd2.commits", "transactions", 40, 0, BETTER_NONE },
		{ "dev.queue_depth", "requests", 1.8, 0, BETTER_NONE },
	};
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct explain_opts eo;
	struct explain e;
	struct cmp_table t;
	(void)state;

	rng = 3;
	add_cfg(r, "A", 0, 1000, a, ARRAY_SIZE(a));
	add_cfg(r, "B", 1, 1000, b, ARRAY_SIZE(b));
	explain_opts_init(&eo);
	explain_run(r, &eo, &e, &t);
	assert_int_equal(e.items[0].nr_tested, 3);
	assert_int_equal(e.items[0].nr_leads, 2);
	assert_string_equal(e.items[0].leads[0].metric, "jbd2.commits");
	/* a derived level is continuous: no resolution floor */
	assert_string_equal(e.items[0].leads[1].metric, "dev.queue_depth");
	explain_release(&e);
	compare_table_release(&t);
	run_rec_free(r);
}

/*
 * A/A: identical distributions (noise 1 % to 30 %, 8 co-metrics, 5
 * repetitions): Benjamini-Hochberg at q = 0.05 under the global null
 * lists anything in at most 5 % of comparisons, the floors make it
 * rarer still.  300 seeded trials: at most 5 % (15) list anything.
 */
static void test_aa_share(void **state)
{
	const struct level a[] = {
		{ "files/s", "files/s", 1000, 0.02, BETTER_HIGHER },
		{ "jbd2.blocks_logged", "blocks", 3000, 0.02, BETTER_NONE },
		{ "jbd2.commits", "transactions", 30, 0.1, BETTER_NONE },
		{ "dev.write_merges", "requests", 500, 0.05, BETTER_NONE },
		{ "dev.util_pct", "%", 50, 0.03, BETTER_NONE },
		{ "vm.dirtied_B", "B", 4e6, 0.01, BETTER_NONE },
		{ "vm.pgfault", "faults", 1e5, 0.001, BETTER_NONE },
		{ "psi.io_some_s", "s", 1.0, 0.3, BETTER_NONE },
		{ "proc.voluntary_switches", "switches", 200, 0.1,
		  BETTER_NONE },
	};
	size_t listed = 0, trials = 300;
	(void)state;

	rng = 7;
	for (size_t i = 0; i < trials; i++) {
		struct run_rec *r = xcalloc(1, sizeof(*r));
		struct explain_opts eo;
		struct explain e;
		struct cmp_table t;

		add_cfg(r, "A", 0, 1000, a, ARRAY_SIZE(a));
		add_cfg(r, "B", 1, 1000, a, ARRAY_SIZE(a));
		explain_opts_init(&eo);
		explain_run(r, &eo, &e, &t);
		assert_int_equal(e.nr, 1);
		assert_int_equal(e.items[0].nr_tested, 8);
		listed += e.items[0].nr_leads > 0;
		explain_release(&e);
		compare_table_release(&t);
		run_rec_free(r);
	}
	print_message("A/A: %zu of %zu comparisons listed a co-metric\n",
		      listed, trials);
	assert_true(listed <= trials / 20);
}

/*
 * Timer-driven counts have no spread at all: 4, 4, 4 journal commits
 * in 10 s at the default commit=5 against 12, 12, 12 at commit=1.  The
 * Poisson floor stands in for the missing variance; being a model
 * value, not an estimate, it is tested against the normal (the exact
 * conditional test of two Poisson rates, 12 of 48 events in A when
 * each is equally likely, gives p = 0.0009), not the t of three
 * repetitions (3.2 df, p = 0.04, too weak for BH over many).
 */
static void test_timer_counts(void **state)
{
	const struct level a[] = {
		{ "files/s", "files/s", 1000, 0.01, BETTER_HIGHER },
		{ "jbd2.commits", "transactions", 4, 0, BETTER_NONE },
	};
	const struct level b[] = {
		{ "files/s", "files/s", 1000, 0.01, BETTER_HIGHER },
		{ "jbd2.commits", "transactions", 12, 0, BETTER_NONE },
	};
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct explain_opts eo;
	struct explain e;
	struct cmp_table t;
	double exact = 0, c = 1;
	(void)state;

	/* two-sided exact: 2 P(X <= 12), X ~ Binomial(48, 1/2) */
	for (int k = 0; k <= 12; k++) {
		exact += c;
		c = c * (48 - k) / (k + 1);
	}
	exact = 2 * exact / pow(2, 48);
	rng = 11;
	nrep = 3;
	add_cfg(r, "A", 0, 1000, a, ARRAY_SIZE(a));
	add_cfg(r, "B", 1, 1000, b, ARRAY_SIZE(b));
	nrep = NREP;
	explain_opts_init(&eo);
	explain_run(r, &eo, &e, &t);
	assert_int_equal(e.items[0].nr_tested, 1);
	assert_int_equal(e.items[0].nr_leads, 1);
	assert_true(fabs(e.items[0].leads[0].pct - 200) < 1e-9);
	assert_true(e.items[0].leads[0].p > exact / 2 &&
		    e.items[0].leads[0].p < exact * 2);
	/* the interval is the normal one: 3 * exp(+-1.96 / 3) */
	assert_true(fabs(e.items[0].leads[0].pct_lo -
			 100 * (3 * exp(-1.959964 / 3) - 1)) < 0.01);
	explain_release(&e);
	compare_table_release(&t);
	run_rec_free(r);
}

/*
 * A machine-wide count (vm.) without spread keeps the t's doubt: other
 * processes overdisperse it, so its floor is no model.  The same 4, 4, 4
 * against 12, 12, 12 gives the t's p at Welch's 3.2 df (about 0.04), not
 * the normal's 0.001.
 */
static void test_machine_counts(void **state)
{
	const struct level a[] = {
		{ "files/s", "files/s", 1000, 0.01, BETTER_HIGHER },
		{ "vm.pgmajfault", "faults", 4, 0, BETTER_NONE },
	};
	const struct level b[] = {
		{ "files/s", "files/s", 1000, 0.01, BETTER_HIGHER },
		{ "vm.pgmajfault", "faults", 12, 0, BETTER_NONE },
	};
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct explain_opts eo;
	struct explain e;
	struct cmp_table t;
	(void)state;

	rng = 11;
	nrep = 3;
	add_cfg(r, "A", 0, 1000, a, ARRAY_SIZE(a));
	add_cfg(r, "B", 1, 1000, b, ARRAY_SIZE(b));
	nrep = NREP;
	explain_opts_init(&eo);
	explain_run(r, &eo, &e, &t);
	assert_int_equal(e.items[0].nr_tested, 1);
	assert_true(e.items[0].nr_leads <= 1);
	if (e.items[0].nr_leads)
		assert_true(e.items[0].leads[0].p > 0.02);
	explain_release(&e);
	compare_table_release(&t);
	run_rec_free(r);
}

/*
 * The price of that: Poisson counts A/A (the model the floor stands
 * for), 3 and 5 repetitions, means 1 to 300 events per repetition.  One
 * co-metric per comparison, so a lead is p < 0.05: seeded simulation,
 * 600 comparisons per cell, at most 5 % plus two binomial standard
 * errors (1.8 points) in each.
 */
static void test_poisson_aa(void **state)
{
	static const double means[] = { 1, 3, 10, 30, 300 };
	static const int reps[] = { 3, 5 };
	(void)state;

	rng = 5;
	for (size_t ri = 0; ri < ARRAY_SIZE(reps); ri++)
		for (size_t mi = 0; mi < ARRAY_SIZE(means); mi++) {
			const struct level a[] = {
				{ "files/s", "files/s", 1000, 0.01,
				  BETTER_HIGHER },
				{ "jbd2.commits", "transactions", means[mi],
				  -2, BETTER_NONE },
			};
			size_t listed = 0, trials = 600;

			nrep = reps[ri];
			for (size_t i = 0; i < trials; i++) {
				struct run_rec *r = xcalloc(1, sizeof(*r));
				struct explain_opts eo;
				struct explain e;
				struct cmp_table t;

				add_cfg(r, "A", 0, 1000, a, ARRAY_SIZE(a));
				add_cfg(r, "B", 1, 1000, a, ARRAY_SIZE(a));
				explain_opts_init(&eo);
				explain_run(r, &eo, &e, &t);
				listed += e.nr && e.items[0].nr_leads > 0;
				explain_release(&e);
				compare_table_release(&t);
				run_rec_free(r);
			}
			print_message("Poisson A/A, %d reps, mean %g: %zu of "
				      "%zu listed\n", reps[ri], means[mi],
				      listed, trials);
			assert_true(listed <= 41);
		}
	nrep = NREP;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bh_1995),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_resolution),
		cmocka_unit_test(test_aa_share),
		cmocka_unit_test(test_timer_counts),
		cmocka_unit_test(test_machine_counts),
		cmocka_unit_test(test_poisson_aa),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
