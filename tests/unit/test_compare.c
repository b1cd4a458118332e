/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_compare.c - the comparison rules on synthetic runs: grouping by
 * target and matching by name across runs, one figure per repetition,
 * harmonic means for rates with finite intervals, direction-aware
 * verdicts, the significance rule (adjusted p AND practical threshold),
 * the family adjustment, A/A, too few samples, too short to judge, the
 * minimum detectable change, BETTER_NONE, the key-metric roll-up and
 * regression flag, what differs, mismatched workload options.
 *
 * One job past 800 lines: the verdict rules of compare/ and the runs
 * they are judged on belong in one place to be read against each other.
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
		p->m.wall_ns = 1000000000;  /* long enough to judge */
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

/* base with every rate and every time scaled: a consistent change. */
static struct cfg scaled(double rate, double secs)
{
	struct cfg c = base;

	for (int i = 0; i < NREP; i++) {
		c.rate[i] = base.rate[i] * rate;
		c.secs[i] = base.secs[i] * secs;
	}
	return c;
}

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

/* One run's targets, built and adjusted as compare does. */
static void build(const struct run_rec *r, const struct compare_opts *o,
		  struct cmp_table *t)
{
	const struct run_rec *runs[] = { r };
	const size_t arg_of[] = { 0 };
	const char *labels[] = { "run" };
	struct cmp_set *s;
	size_t ns;

	s = compare_sets(runs, arg_of, 1, labels, 1, "synth", &ns, NULL,
			 NULL);
	assert_int_equal(ns, 1);
	compare_build("synth", s[0].groups, s[0].nr_groups, o, t);
	compare_finish(t, 1, o);
	compare_sets_free(s, ns);
}

static void test_groups_by_target(void **state)
{
	struct run_rec *r = make_run(&base, &base, 3);
	const struct run_rec *runs[] = { r };
	const size_t arg_of[] = { 0 };
	const char *labels[] = { "run" };
	struct cmp_set *s;
	size_t ns;
	(void)state;

	s = compare_sets(runs, arg_of, 1, labels, 1, "synth", &ns, NULL,
			 NULL);
	assert_int_equal(ns, 1);
	assert_null(s[0].name);
	assert_int_equal(s[0].nr_groups, 2);
	assert_int_equal(s[0].groups[0].nr_reps, 3);
	assert_int_equal(s[0].groups[1].nr_reps, 3);
	assert_string_equal(s[0].groups[0].label, "base");
	assert_ptr_equal(s[0].groups[1].reps[0], &r->wlruns[3]);
	assert_ptr_equal(s[0].groups[1].rep_runs[0], r);
	compare_sets_free(s, ns);
	s = compare_sets(runs, arg_of, 1, labels, 1, "other", &ns, NULL,
			 NULL);
	assert_int_equal(ns, 0);
	compare_sets_free(s, ns);
	run_rec_free(r);
}

/* Across arguments a target name is matched with the same name. */
static void test_groups_by_run(void **state)
{
	struct run_rec *a = make_run(&base, NULL, 2);
	struct run_rec *b = make_run(&base, &base, 2);
	const struct run_rec *runs[] = { a, b };
	const size_t arg_of[] = { 0, 1 };
	const char *labels[] = { "A", "B" };
	struct cmp_set *s;
	size_t ns;
	(void)state;

	s = compare_sets(runs, arg_of, 2, labels, 2, "synth", &ns, NULL,
			 NULL);
	assert_int_equal(ns, 1);
	assert_string_equal(s[0].name, "base");
	assert_int_equal(s[0].nr_groups, 2);
	assert_string_equal(s[0].groups[0].label, "A");
	assert_int_equal(s[0].groups[0].nr_reps, 2);
	/* Both of B's targets are named "base". */
	assert_int_equal(s[0].groups[1].nr_reps, 4);
	compare_sets_free(s, ns);
	run_rec_free(a);
	run_rec_free(b);
}

static struct cfg named(const char *name)
{
	struct cfg c = base;

	c.name = name;
	return c;
}

/* Two filesystems per run, three runs of which two share a tag: ext4
 * with ext4, xfs with xfs; the tag's runs pool their repetitions; a name
 * in one argument only is a note. */
static void test_matched_sets(void **state)
{
	struct cfg e = named("ext4"), x = named("xfs"), z = named("btrfs");
	struct run_rec *t1 = make_run(&e, &x, 2), *t1b = make_run(&e, &x, 2);
	struct run_rec *t2 = make_run(&x, &e, 3);
	struct run_rec *t3 = make_run(&z, NULL, 1);
	const struct run_rec *runs[] = { t1, t1b, t2, t3 };
	const size_t arg_of[] = { 0, 0, 1, 1 };
	const char *labels[] = { "t1", "t2" };
	struct cmp_set *s;
	char **notes;
	size_t ns, nn;
	(void)state;

	s = compare_sets(runs, arg_of, 4, labels, 2, "synth", &ns, &notes,
			 &nn);
	assert_int_equal(ns, 2);
	assert_string_equal(s[0].name, "ext4");
	assert_string_equal(s[1].name, "xfs");
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(s[i].nr_groups, 2);
		assert_string_equal(s[i].groups[0].label, "t1");
		assert_string_equal(s[i].groups[1].label, "t2");
		assert_int_equal(s[i].groups[0].nr_reps, 4);
		assert_int_equal(s[i].groups[1].nr_reps, 3);
		for (size_t k = 0; k < s[i].groups[1].nr_reps; k++) {
			const struct run_rec *rr = s[i].groups[1].rep_runs[k];
			const struct target_rec *tr =
				run_rec_target(rr, s[i].groups[1].reps[k]);

			assert_string_equal(tr->name, s[i].name);
		}
	}
	assert_int_equal(nn, 1);
	assert_non_null(strstr(notes[0], "btrfs only in t2"));
	free(notes[0]);
	free(notes);
	compare_sets_free(s, ns);
	run_rec_free(t1);
	run_rec_free(t1b);
	run_rec_free(t2);
	run_rec_free(t3);
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
	struct cfg b = scaled(1.2, 1.2);
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	for (int i = 0; i < NREP; i++)
		b.count[i] = 9;
	r = make_run(&base, &b, NREP);
	compare_opts_init(&o);
	o.all = true;
	build(r, &o, &t);
	assert_int_equal(row(&t, "MiB/s")->d[1].verdict, CMP_BETTER);
	near(row(&t, "MiB/s")->d[1].pct, 20, 1e-9);
	assert_true(row(&t, "MiB/s")->d[1].pct_lo > 0);
	assert_int_equal(row(&t, "wall_s")->d[1].verdict, CMP_WORSE);
	assert_int_equal(row(&t, "files")->d[1].verdict, CMP_INFO);
	assert_false(row(&t, "files")->d[1].significant);
	/* wall_s is not key (rates are), so no regression. */
	assert_false(t.regression);
	near(t.rollup[1], 1.2, 1e-9);
	/* One key metric: the roll-up's interval is that metric's. */
	near(t.rollup_lo[1], row(&t, "MiB/s")->d[1].ratio_lo, 1e-9);
	near(t.rollup_hi[1], row(&t, "MiB/s")->d[1].ratio_hi, 1e-9);
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
	/* its whole interval lies inside +-2 %: equivalent, not "same" */
	assert_int_equal(d->verdict, CMP_EQUIVALENT);
	near(d->equiv_pct, 2.0, 1e-12);
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
	struct cfg b = scaled(1.21, 1.1);
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

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
	assert_true(t.rollup_lo[1] < t.rollup[1] &&
		    t.rollup[1] < t.rollup_hi[1]);
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


/*
 * A run of one target "cfg" whose every repetition k runs phase "write"
 * twice: instance i moves mib[k][i] MiB in secs[k][i] seconds.
 */
static void add_instances(struct run_rec *r, const char *name, int idx,
			  size_t nrep, const double (*mib)[2],
			  const double (*secs)[2], const char *options)
{
	for (size_t k = 0; k < nrep; k++) {
		struct target_rec *t = run_rec_new_target(r);
		struct wlrun_rec *w;

		t->idx = idx;
		t->rep = (int)k;
		t->name = xstrdup(name);
		t->fstype = xstrdup("ext4");
		t->mount_opts = xstrdup(idx ? "sync" : "");
		w = run_rec_new_wlrun(r);
		w->workload = xstrdup("synth");
		w->options = xstrdup(options);
		w->target_idx = (int)r->nr_targets - 1;
		w->rep = (int)k;
		for (int i = 0; i < 2; i++) {
			struct phase_rec *p = wlrun_rec_new_phase(w);

			p->name = xstrdup("write");
			p->bytes = (uint64_t)(mib[k][i] * 1048576);
			p->m.wall_ns = (uint64_t)(secs[k][i] * 1e9);
			phase_rec_add_metric(p, "MiB/s",
					     mib[k][i] / secs[k][i], "MiB/s",
					     BETTER_HIGHER);
		}
	}
}

/* The repetition is the sample: two instances a repetition make one
 * figure (total MiB over total time), n counts repetitions, and the
 * instances stay for the scatter. */
static void test_per_repetition(void **state)
{
	const double mib[3][2] = { { 100, 300 }, { 100, 300 }, { 100, 300 } };
	const double secs[3][2] = { { 1, 2 }, { 1, 3 }, { 2, 2 } };
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct compare_opts o;
	struct cmp_table t;
	const struct cmp_row *w;
	(void)state;

	add_instances(r, "a", 0, 3, mib, secs, "");
	compare_opts_init(&o);
	build(r, &o, &t);
	w = row(&t, "MiB/s");
	assert_int_equal(w->st[0].n, 3);
	assert_int_equal(w->st[0].nr_inst, 6);
	near(w->st[0].x[0], 400.0 / 3, 1e-9);
	near(w->st[0].x[1], 400.0 / 4, 1e-9);
	near(w->st[0].x[2], 400.0 / 4, 1e-9);
	/* harmonic over repetitions: 1200 MiB in 11 s */
	near(w->st[0].mean, 1200.0 / 11, 1e-9);
	near(w->st[0].wall_s, (1.5 + 2 + 2) / 3, 1e-9);
	compare_table_release(&t);
	run_rec_free(r);
}

/* Phases whose mean wall time is under the floor get no verdict, even
 * with a large and consistent difference; above it they do. */
static void test_too_short(void **state)
{
	const double mib[3][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 } };
	const double fast[3][2] = { { .010, .011 }, { .012, .010 },
				    { .011, .012 } };
	const double slow[3][2] = { { .020, .022 }, { .024, .020 },
				    { .022, .024 } };
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	add_instances(r, "a", 0, 3, mib, fast, "");
	add_instances(r, "b", 1, 3, mib, slow, "");
	compare_opts_init(&o);
	build(r, &o, &t);
	assert_int_equal(row(&t, "MiB/s")->d[1].verdict, CMP_SHORT);
	assert_false(row(&t, "MiB/s")->d[1].tested);
	assert_false(t.regression);
	compare_table_release(&t);
	o.min_wall_s = 0.005;
	build(r, &o, &t);
	assert_int_equal(row(&t, "MiB/s")->d[1].verdict, CMP_WORSE);
	assert_true(t.regression);
	compare_table_release(&t);
	run_rec_free(r);
}

/* Two repetitions are too few, however clear the difference. */
static void test_two_reps_too_few(void **state)
{
	struct cfg b = scaled(2, 1);
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	r = make_run(&base, &b, 2);
	compare_opts_init(&o);
	build(r, &o, &t);
	assert_int_equal(row(&t, "MiB/s")->d[1].verdict, CMP_NA);
	assert_true(isfinite(row(&t, "MiB/s")->st[0].ci_lo));
	compare_table_release(&t);
	run_rec_free(r);
}

/* Noisy rates: the harmonic mean's interval is finite (it used to reach
 * infinity when the t interval of the times crossed 0) and contains the
 * mean; the change's interval is finite too. */
static void test_finite_intervals(void **state)
{
	struct cfg a = base, b = base;
	const double ra[] = { 10, 200, 15, 300, 12 };
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t;
	const struct cmp_row *w;
	(void)state;

	memcpy(a.rate, ra, sizeof(ra));
	memcpy(b.rate, ra, sizeof(ra));
	b.rate[0] = 400;
	r = make_run(&a, &b, NREP);
	compare_opts_init(&o);
	build(r, &o, &t);
	w = row(&t, "MiB/s");
	for (int g = 0; g < 2; g++) {
		assert_true(isfinite(w->st[g].ci_lo) &&
			    isfinite(w->st[g].ci_hi));
		assert_true(w->st[g].ci_lo > 0);
		assert_true(w->st[g].ci_lo < w->st[g].mean &&
			    w->st[g].mean < w->st[g].ci_hi);
	}
	assert_true(isfinite(w->d[1].pct_lo) && isfinite(w->d[1].pct_hi));
	assert_true(w->d[1].pct_lo < w->d[1].pct && w->d[1].pct < w->d[1].pct_hi);
	compare_table_release(&t);
	run_rec_free(r);
}

/*
 * The family: one key metric at raw p ~ 0.03 is significant alone, but
 * not when the invocation tests two such keys (Holm: 2 * 0.03 > 0.05);
 * the minimum detectable change is reported for "no change".
 */
static void test_family_adjustment(void **state)
{
	struct cfg a = base, b = base;
	const double ra[] = { 100, 104, 96, 102, 98 };
	const double rb[] = { 105, 109, 101, 107, 103 };
	struct run_rec *r;
	struct compare_opts o;
	struct cmp_table t[2];
	const struct cmp_delta *d;
	double p;
	(void)state;

	memcpy(a.rate, ra, sizeof(ra));
	memcpy(b.rate, rb, sizeof(rb));
	r = make_run(&a, &b, NREP);
	compare_opts_init(&o);
	build(r, &o, &t[0]);
	d = &row(&t[0], "MiB/s")->d[1];
	p = d->p;
	assert_true(p > 0.025 && p < 0.05);
	near(d->p_adj, p, 1e-12);
	assert_int_equal(d->family, 1);
	assert_int_equal(d->verdict, CMP_BETTER);
	compare_table_release(&t[0]);

	/* The same comparison twice in one invocation. */
	{
		const struct run_rec *runs[] = { r };
		const size_t arg_of[] = { 0 };
		const char *labels[] = { "run" };
		struct cmp_set *s;
		size_t ns;

		s = compare_sets(runs, arg_of, 1, labels, 1, "synth", &ns,
				 NULL, NULL);
		compare_build("synth", s[0].groups, s[0].nr_groups, &o,
			      &t[0]);
		compare_build("synth", s[0].groups, s[0].nr_groups, &o,
			      &t[1]);
		compare_finish(t, 2, &o);
		compare_sets_free(s, ns);
	}
	d = &row(&t[0], "MiB/s")->d[1];
	near(d->p_adj, 2 * p, 1e-12);
	assert_int_equal(d->family, 2);
	assert_int_equal(d->verdict, CMP_SAME);
	assert_false(t[0].regression);
	assert_true(isfinite(d->mdc_pct) && d->mdc_pct > fabs(d->pct));
	compare_table_release(&t[0]);
	compare_table_release(&t[1]);
	run_rec_free(r);
}

/* Two arguments, one run each, matched by target name. */
static void build2(const struct run_rec *r1, const struct run_rec *r2,
		   const struct compare_opts *o, struct cmp_table *t)
{
	const struct run_rec *runs[] = { r1, r2 };
	const size_t arg_of[] = { 0, 1 };
	const char *labels[] = { "a", "b" };
	struct cmp_set *s;
	size_t ns;

	s = compare_sets(runs, arg_of, 2, labels, 2, "synth", &ns, NULL,
			 NULL);
	assert_int_equal(ns, 1);
	compare_build("synth", s[0].groups, s[0].nr_groups, o, t);
	compare_finish(t, 1, o);
	compare_sets_free(s, ns);
}

/* What differs is listed; different workload options are found by key. */
static void test_diffs_and_options(void **state)
{
	const double mib[3][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 } };
	const double secs[3][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 } };
	struct run_rec *r1 = xcalloc(1, sizeof(*r1));
	struct run_rec *r2 = xcalloc(1, sizeof(*r2));
	struct compare_opts o;
	struct cmp_table t;
	bool mount = false;
	(void)state;

	/* idx 1 mounts with "sync" (add_instances) */
	add_instances(r1, "x", 0, 3, mib, secs, "files=20000,sync=fsync");
	add_instances(r2, "x", 1, 3, mib, secs, "files=1000,sync=fsync");
	compare_opts_init(&o);
	build2(r1, r2, &o, &t);
	for (size_t i = 0; i < t.nr_diffs; i++)
		if (!strcmp(t.diffs[i].field, "mount options")) {
			mount = true;
			assert_string_equal(t.diffs[i].values[0],
					    "(default)");
			assert_string_equal(t.diffs[i].values[1], "sync");
		}
	assert_true(mount);
	assert_non_null(t.option_mismatch);
	assert_non_null(strstr(t.option_mismatch, "files: 20000 (a), "
				"1000 (b)"));
	compare_table_release(&t);
	run_rec_free(r1);
	run_rec_free(r2);

	r1 = xcalloc(1, sizeof(*r1));
	r2 = xcalloc(1, sizeof(*r2));
	add_instances(r1, "x", 0, 3, mib, secs, "files=20,x=a\\,b");
	add_instances(r2, "x", 0, 3, mib, secs, "files=20,x=a\\,b");
	build2(r1, r2, &o, &t);
	assert_null(t.option_mismatch);
	assert_int_equal(t.nr_diffs, 0);
	compare_table_release(&t);
	run_rec_free(r1);
	run_rec_free(r2);
}

/* Traced figures of a key phase join the key rows in the compact table
 * (traced, shown); other trace counters and other phases do not. */
static void test_traced_rows(void **state)
{
	static const char *const keys[] = { "read/MiB/s", NULL };
	struct run_rec *r = make_run(&base, &base, 3);
	struct compare_opts o;
	struct cmp_table t;
	(void)state;

	for (size_t i = 0; i < r->nr_wlruns; i++) {
		struct phase_rec *q = wlrun_rec_new_phase(&r->wlruns[i]);
		/* after the append: the array may have moved */
		struct phase_rec *p = &r->wlruns[i].phases[0];

		phase_rec_add_metric(p, "trace.layout_score", 0.9, "ratio",
				     BETTER_HIGHER);
		phase_rec_add_metric(p, "trace.requests", 10, "requests",
				     BETTER_NONE);
		q->name = xstrdup("other");
		q->m.wall_ns = 1000000000;
		phase_rec_add_metric(q, "trace.layout_score", 0.5, "ratio",
				     BETTER_HIGHER);
	}
	compare_opts_init(&o);
	o.key_metrics = keys;
	build(r, &o, &t);
	for (size_t i = 0; i < t.nr_rows; i++) {
		const struct cmp_row *w = &t.rows[i];
		bool want = !strcmp(w->phase, "read") &&
			    !strcmp(w->metric, "trace.layout_score");

		assert_int_equal(w->traced, want);
		if (want) {
			assert_true(w->shown);
			assert_false(w->key);
		}
	}
	assert_true(compare_traced_metric("trace.lat_p99_ms"));
	assert_false(compare_traced_metric("trace.requests"));
	compare_table_release(&t);
	run_rec_free(r);
}

/* One run, the workload twice with different options: one comparison
 * per option set, never pooled. */
static void test_option_sets_split(void **state)
{
	const double mib[3][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 } };
	const double secs[3][2] = { { 1, 1 }, { 1, 1 }, { 1, 1 } };
	struct run_rec *r = xcalloc(1, sizeof(*r));
	const struct run_rec *runs[] = { r };
	const size_t arg_of[] = { 0 };
	const char *labels[] = { "run" };
	struct cmp_set *s;
	size_t ns;
	(void)state;

	add_instances(r, "a", 0, 3, mib, secs, "files=100");
	add_instances(r, "b", 1, 3, mib, secs, "files=100");
	add_instances(r, "a", 0, 3, mib, secs, "files=1000");
	add_instances(r, "b", 1, 3, mib, secs, "files=1000");
	s = compare_sets(runs, arg_of, 1, labels, 1, "synth", &ns, NULL,
			 NULL);
	assert_int_equal(ns, 2);
	assert_string_equal(s[0].name, "files=100");
	assert_string_equal(s[1].name, "files=1000");
	for (size_t i = 0; i < ns; i++) {
		assert_int_equal(s[i].nr_groups, 2);
		assert_int_equal(s[i].groups[0].nr_reps, 3);
		assert_int_equal(s[i].groups[1].nr_reps, 3);
	}
	compare_sets_free(s, ns);
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
		cmocka_unit_test(test_matched_sets),
		cmocka_unit_test(test_per_repetition),
		cmocka_unit_test(test_too_short),
		cmocka_unit_test(test_two_reps_too_few),
		cmocka_unit_test(test_finite_intervals),
		cmocka_unit_test(test_family_adjustment),
		cmocka_unit_test(test_diffs_and_options),
		cmocka_unit_test(test_traced_rows),
		cmocka_unit_test(test_option_sets_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
