// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_calibrate.c - are compare's error rates what it prints?  fslab's
 * own comparison code (compare_sets, compare_build, compare_finish: the
 * functions `compare` runs; cmp_seq_look: what `run --until decided`
 * runs) fed with synthetic per-repetition samples: log-normal noise at
 * CoV 1-10 %, 2-5 configurations, 3-10 key metrics, correlated and
 * independent, rates (harmonic means) and scores (arithmetic means).
 *
 *  - family-wise false alarms on A/A (Holm) at most alpha;
 *  - every printed interval (each configuration's mean, the change)
 *    covers the true value 95 % +- 1 % of the time;
 *  - a true change equal to the printed mdc is found 80 % +- 5 %;
 *  - --until decided: false alarms at most alpha over sequential A/A
 *    sequences, power >= 80 % for 5 % at CoV 3 %, and mean repetitions
 *    at least 30 % below the fixed design of equal power.
 *
 * Seeded and deterministic.  The counts here are the fast ones `make
 * check` runs; FSLAB_CALIBRATE=N multiplies them (bench/calibrate.sh)
 * and FSLAB_CALIBRATE_TABLE=1 prints the figures.  Tolerances are three
 * simulation standard errors above the nominal rate where the claim is
 * "at most", and the issue's +-1 % / +-5 % bands where it is "equal".
 */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare/compare.h"
#include "compare/sequential.h"
#include "stats/sequential.h"
#include "util/util.h"

#define MAXC 5
#define MAXM 10
#define MAXN 20

static size_t scale = 1;
static bool table;

struct sim {
	size_t nc, nm;           /* configurations, key metrics */
	double cov[MAXM];        /* % per repetition */
	bool harm[MAXM];         /* a rate (harmonic mean) or a score */
	double rho;              /* correlation between a rep's metrics */
	double change[MAXC][MAXM]; /* true relative change, e.g. 0.05 */
	double x[MAXC][MAXN][MAXM];
};

static void draw(gsl_rng *rng, struct sim *s, int nrep)
{
	for (size_t c = 0; c < s->nc; c++)
		for (int r = 0; r < nrep; r++) {
			double common = gsl_ran_gaussian_ziggurat(rng, 1);

			for (size_t m = 0; m < s->nm; m++) {
				double sg = sqrt(log(1 + s->cov[m] * s->cov[m]
						     / 1e4));
				double z = sqrt(s->rho) * common +
					   sqrt(1 - s->rho) *
					   gsl_ran_gaussian_ziggurat(rng, 1);

				s->x[c][r][m] = 100.0 * (1 + s->change[c][m]) *
						exp(sg * z);
			}
		}
}

/* The run a `fslab run -t c0 -t c1 ... -n nrep` would have stored. */
static struct run_rec *make_run(const struct sim *s, int nrep)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));

	for (size_t c = 0; c < s->nc; c++)
		for (int k = 0; k < nrep; k++) {
			struct target_rec *t = run_rec_new_target(r);
			struct wlrun_rec *w = run_rec_new_wlrun(r);

			t->idx = (int)c;
			t->rep = k;
			t->name = xasprintf("c%zu", c);
			w->workload = xstrdup("synth");
			w->target_idx = (int)r->nr_targets - 1;
			w->rep = k;
			for (size_t m = 0; m < s->nm; m++) {
				struct phase_rec *p = wlrun_rec_new_phase(w);

				p->name = xasprintf("p%zu", m);
				p->m.wall_ns = 1000000000;
				phase_rec_add_metric(p, s->harm[m] ? "MiB/s" :
						     "score", s->x[c][k][m],
						     s->harm[m] ? "MiB/s" :
						     "points", BETTER_HIGHER);
			}
		}
	return r;
}

static char *keys_buf[MAXM + 1];

static void set_keys(const struct sim *s, struct compare_opts *o)
{
	for (size_t m = 0; m < MAXM; m++) {
		free(keys_buf[m]);
		keys_buf[m] = NULL;
	}
	for (size_t m = 0; m < s->nm; m++)
		keys_buf[m] = xasprintf("p%zu/%s", m,
					s->harm[m] ? "MiB/s" : "score");
	o->key_metrics = (const char *const *)keys_buf;
}

/* compare's table for the first nrep repetitions, adjusted. */
static struct run_rec *build(const struct sim *s, int nrep,
			     struct compare_opts *o, struct cmp_table *t)
{
	struct run_rec *r = make_run(s, nrep);
	const struct run_rec *runs[] = { r };
	const size_t arg_of[] = { 0 };
	const char *labels[] = { "run" };
	struct cmp_set *set;
	size_t ns;

	set_keys(s, o);
	set = compare_sets(runs, arg_of, 1, labels, 1, "synth", &ns, NULL,
			   NULL);
	assert_int_equal(ns, 1);
	compare_build("synth", set[0].groups, set[0].nr_groups, o, t);
	compare_finish(t, 1, o);
	compare_sets_free(set, ns);
	return r;
}

static const struct cmp_row *row_of(const struct cmp_table *t, size_t m)
{
	char name[16];

	snprintf(name, sizeof(name), "p%zu", m);
	for (size_t i = 0; i < t->nr_rows; i++)
		if (!strcmp(t->rows[i].phase, name) && t->rows[i].key)
			return &t->rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

/* A varied family: 2-5 configurations, 3-10 metrics, CoV 1-10 %. */
static void vary(gsl_rng *rng, struct sim *s, size_t i)
{
	memset(s, 0, sizeof(*s));
	s->nc = 2 + i % 4;
	s->nm = 3 + (i / 4) % 8;
	s->rho = i % 3 == 0 ? 0.0 : i % 3 == 1 ? 0.5 : 0.9;
	for (size_t m = 0; m < s->nm; m++) {
		s->cov[m] = 1 + 9 * gsl_rng_uniform(rng);
		s->harm[m] = (m + i) % 2 == 0;
	}
}

static double sim_se(double p, size_t n)
{
	return sqrt(p * (1 - p) / (double)n);
}

/* ---- fixed n ---- */

static void test_aa_familywise(void **state)
{
	size_t nfam = 10000 * scale, alarms = 0, tests = 0;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct compare_opts o;
	double rate;
	(void)state;

	gsl_rng_set(rng, 31);
	compare_opts_init(&o);
	o.min_change_pct = 0;     /* Holm alone, no practical threshold */
	for (size_t f = 0; f < nfam; f++) {
		struct sim s;
		struct cmp_table t;
		struct run_rec *r;
		bool any = false;

		vary(rng, &s, f);
		draw(rng, &s, 5);
		r = build(&s, 5, &o, &t);
		for (size_t m = 0; m < s.nm; m++) {
			const struct cmp_row *row = row_of(&t, m);

			for (size_t g = 1; g < s.nc; g++) {
				tests += row->d[g].tested;
				any |= row->d[g].verdict == CMP_BETTER ||
				       row->d[g].verdict == CMP_WORSE;
			}
		}
		alarms += any;
		compare_table_release(&t);
		run_rec_free(r);
	}
	gsl_rng_free(rng);
	rate = (double)alarms / (double)nfam;
	if (table)
		printf("calibrate: A/A family-wise false alarms (Holm, %zu "
		       "families, %zu tests): %.4f (alpha 0.05)\n", nfam,
		       tests, rate);
	assert_true(tests >= nfam * 6);
	assert_true(rate <= 0.05 + 3 * sim_se(0.05, nfam));
}

static void test_interval_coverage(void **state)
{
	size_t nfam = 2500 * scale, n_mean = 0, c_mean = 0, n_chg = 0,
	       c_chg = 0, n_h = 0, c_h = 0;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct compare_opts o;
	double pm, pc, ph;
	(void)state;

	gsl_rng_set(rng, 32);
	compare_opts_init(&o);
	for (size_t f = 0; f < nfam; f++) {
		struct sim s;
		struct cmp_table t;
		struct run_rec *r;
		int nrep = 3 + (int)(f % 6);

		vary(rng, &s, f);
		for (size_t c = 1; c < s.nc; c++)
			for (size_t m = 0; m < s.nm; m++)
				s.change[c][m] = 0.1 * gsl_rng_uniform(rng) -
						 0.05;
		draw(rng, &s, nrep);
		r = build(&s, nrep, &o, &t);
		for (size_t m = 0; m < s.nm; m++) {
			const struct cmp_row *row = row_of(&t, m);
			double sg2 = log(1 + s.cov[m] * s.cov[m] / 1e4);

			for (size_t c = 0; c < s.nc; c++) {
				const struct cmp_stat *st = &row->st[c];
				/* harmonic: 1 / E[1/X]; arithmetic: E[X] */
				double mu = 100.0 * (1 + s.change[c][m]) *
					    exp((s.harm[m] ? -0.5 : 0.5) * sg2);
				bool in = st->ci_lo <= mu && mu <= st->ci_hi;

				assert_true(row->hmean == s.harm[m]);
				n_mean++;
				c_mean += in;
				n_h += s.harm[m];
				c_h += s.harm[m] && in;
				if (!c)
					continue;
				mu = (1 + s.change[c][m]) /
				     (1 + s.change[0][m]);
				n_chg++;
				c_chg += row->d[c].ratio_lo <= mu &&
					 mu <= row->d[c].ratio_hi;
			}
		}
		compare_table_release(&t);
		run_rec_free(r);
	}
	gsl_rng_free(rng);
	pm = (double)c_mean / (double)n_mean;
	pc = (double)c_chg / (double)n_chg;
	ph = (double)c_h / (double)n_h;
	if (table)
		printf("calibrate: coverage of the 95 %% intervals: mean %.4f "
		       "(%zu; harmonic alone %.4f), change %.4f (%zu)\n", pm,
		       n_mean, ph, pc, n_chg);
	assert_true(fabs(pm - 0.95) <= 0.01);
	assert_true(fabs(ph - 0.95) <= 0.01);
	assert_true(fabs(pc - 0.95) <= 0.01);
}

/*
 * The printed mdc: first its typical value for a design (A/A runs),
 * then runs whose metric 0 truly changes by that much.
 */
static void mdc_power(gsl_rng *rng, size_t nc, size_t nm, double cov,
		      bool harm, int nrep, size_t nsim, double *mdc,
		      double *power)
{
	struct compare_opts o;
	struct sim s;
	double sum = 0;
	size_t found = 0;

	compare_opts_init(&o);
	o.min_change_pct = 0;
	memset(&s, 0, sizeof(s));
	s.nc = nc;
	s.nm = nm;
	s.rho = 0.5;
	for (size_t m = 0; m < nm; m++) {
		s.cov[m] = cov;
		s.harm[m] = harm;
	}
	for (size_t i = 0; i < nsim; i++) {
		struct cmp_table t;
		struct run_rec *r;

		draw(rng, &s, nrep);
		r = build(&s, nrep, &o, &t);
		sum += row_of(&t, 0)->d[1].mdc_pct;
		compare_table_release(&t);
		run_rec_free(r);
	}
	*mdc = sum / (double)nsim;
	s.change[1][0] = *mdc / 100.0;
	for (size_t i = 0; i < nsim; i++) {
		struct cmp_table t;
		struct run_rec *r;

		draw(rng, &s, nrep);
		r = build(&s, nrep, &o, &t);
		found += row_of(&t, 0)->d[1].verdict == CMP_BETTER;
		compare_table_release(&t);
		run_rec_free(r);
	}
	*power = (double)found / (double)nsim;
}

static void test_mdc_power(void **state)
{
	static const struct {
		size_t nc, nm;
		double cov;
		bool harm;
		int nrep;
	} cases[] = {
		{ 2, 3, 3, true, 5 },
		{ 3, 5, 5, false, 8 },
		{ 2, 10, 10, true, 10 },
	};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t nsim = 1000 * scale;
	(void)state;

	gsl_rng_set(rng, 33);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		double mdc, power;

		mdc_power(rng, cases[i].nc, cases[i].nm, cases[i].cov,
			  cases[i].harm, cases[i].nrep, nsim, &mdc, &power);
		if (table)
			printf("calibrate: mdc %.2f %% (%zu configs, %zu "
			       "metrics, CoV %.0f %%, %s, n %d): power %.4f "
			       "(%zu runs)\n", mdc, cases[i].nc, cases[i].nm,
			       cases[i].cov, cases[i].harm ? "harmonic" :
			       "arithmetic", cases[i].nrep, power, nsim);
		assert_true(fabs(power - 0.80) <= 0.05);
	}
	gsl_rng_free(rng);
}

/* ---- --until decided ---- */

struct seq_run {
	size_t false_alarm, right, equivalent, seqs;
	double sum_n;
};

/* One sequence: draw max_n repetitions, look after each from min_n. */
static void one_sequence(gsl_rng *rng, struct sim *s, struct cmp_seq *q,
			 struct compare_opts *o, struct seq_run *out)
{
	int n, min_n = q->d.min_n, max_n = q->d.max_n;
	bool any = false, all_right = true, all_eq = true;

	cmp_seq_reset(q);
	draw(rng, s, max_n);
	for (n = min_n; n <= max_n; n++) {
		struct cmp_table t;
		struct run_rec *r = build(s, n, o, &t);
		bool done = cmp_seq_look(q, &t, 1, n);

		compare_table_release(&t);
		run_rec_free(r);
		if (done)
			break;
	}
	out->sum_n += n > max_n ? max_n : n;
	for (size_t i = 0; i < q->nr; i++) {
		const struct cmp_seq_item *it = &q->items[i];
		bool changed = s->change[it->label[1] - '0'][it->phase[1] -
							      '0'] != 0;

		if (it->c.decision == SEQ_DIFFERENT && !changed)
			any = true;
		all_right &= it->c.decision == SEQ_DIFFERENT && changed &&
			     !strcmp(cmp_seq_item_verdict(it), "improvement");
		all_eq &= it->c.decision == SEQ_EQUIVALENT;
	}
	out->false_alarm += any;
	out->right += all_right && q->nr;
	out->equivalent += all_eq && q->nr;
	out->seqs++;
}

static void test_until_decided_aa(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t nseq = 2000 * scale;
	struct seq_run res = { 0 };
	struct compare_opts o;
	struct cmp_seq q;
	double fa;
	(void)state;

	gsl_rng_set(rng, 34);
	compare_opts_init(&o);
	o.min_change_pct = 0;   /* no practical threshold: Holm alone */
	assert_int_equal(cmp_seq_init(&q, SEQ_DEFAULT_MIN_REPEAT, 10, &o), 0);
	for (size_t i = 0; i < nseq; i++) {
		struct sim s;

		vary(rng, &s, i);
		s.nc = 2 + i % 2;
		s.nm = 3 + i % 3;
		one_sequence(rng, &s, &q, &o, &res);
	}
	cmp_seq_release(&q);
	gsl_rng_free(rng);
	fa = (double)res.false_alarm / (double)res.seqs;
	if (table)
		printf("calibrate: --until decided A/A false alarms (%zu "
		       "sequences, looks at 3..10): %.4f (alpha 0.05)\n",
		       res.seqs, fa);
	assert_true(fa <= 0.05 + 3 * sim_se(0.05, res.seqs));
}

static void test_until_decided_power(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t nseq = 1000 * scale;
	struct seq_run res = { 0 };
	struct compare_opts o;
	double power, asn;
	int fixed, fixed80;
	struct cmp_seq q;
	(void)state;

	gsl_rng_set(rng, 35);
	compare_opts_init(&o);
	assert_int_equal(cmp_seq_init(&q, SEQ_DEFAULT_MIN_REPEAT,
				      SEQ_DEFAULT_MAX_REPEAT, &o), 0);
	for (size_t i = 0; i < nseq; i++) {
		struct sim s;

		memset(&s, 0, sizeof(s));
		s.nc = 2;
		s.nm = 1;
		s.cov[0] = 3;
		s.harm[0] = i % 2 == 0;
		s.change[1][0] = 0.05;
		one_sequence(rng, &s, &q, &o, &res);
	}
	cmp_seq_release(&q);
	gsl_rng_free(rng);
	power = (double)res.right / (double)res.seqs;
	asn = res.sum_n / (double)res.seqs;
	fixed = seq_fixed_n(3, 5, o.alpha, power, 1000);
	fixed80 = seq_fixed_n(3, 5, o.alpha, 0.80, 1000);
	if (table)
		printf("calibrate: --until decided, +5 %% at CoV 3 %% (%zu "
		       "sequences, cap %d): power %.4f, mean repetitions "
		       "%.2f; fixed design of equal power %d (%.0f %% "
		       "fewer), of 80 %% power %d\n", res.seqs,
		       SEQ_DEFAULT_MAX_REPEAT, power, asn, fixed,
		       100 * (1 - asn / fixed), fixed80);
	assert_true(power >= 0.80);
	assert_true(asn <= 0.70 * fixed);
	/* the bench's table: the same at other caps (pure simulation) */
	for (int cap = 8; table && cap <= 20; cap += cap < 12 ? 2 : 4) {
		struct seq_sim ss;
		int f;

		seq_simulate(SEQ_DEFAULT_MIN_REPEAT, cap, o.alpha, 1, 3, 5,
			     o.min_change_pct, 4000, 37, &ss);
		f = seq_fixed_n(3, 5, o.alpha, ss.power, 1000);
		printf("calibrate: --until decided, +5 %% at CoV 3 %%, cap "
		       "%d (pure simulation, 4000): power %.3f, mean "
		       "repetitions %.2f, fixed design of equal power %d "
		       "(%.0f %% fewer)\n", cap, ss.power, ss.mean_n, f,
		       100 * (1 - ss.mean_n / f));
	}
}

static void test_until_decided_equivalent(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct seq_run res = { 0 };
	struct compare_opts o;
	struct cmp_seq q;
	(void)state;

	/* A/A at CoV 2 % with a 20 % margin: equivalent at the first look,
	 * and never "different". */
	gsl_rng_set(rng, 36);
	compare_opts_init(&o);
	o.min_change_pct = 20;
	assert_int_equal(cmp_seq_init(&q, 3, 10, &o), 0);
	for (size_t i = 0; i < 200; i++) {
		struct sim s;

		memset(&s, 0, sizeof(s));
		s.nc = 2;
		s.nm = 4;
		s.rho = 0.5;
		for (size_t m = 0; m < s.nm; m++) {
			s.cov[m] = 2;
			s.harm[m] = m % 2;
		}
		one_sequence(rng, &s, &q, &o, &res);
	}
	cmp_seq_release(&q);
	gsl_rng_free(rng);
	assert_int_equal(res.equivalent, res.seqs);
	assert_int_equal(res.false_alarm, 0);
	assert_true(res.sum_n / (double)res.seqs < 3.2);
}

int main(void)
{
	const char *env = getenv("FSLAB_CALIBRATE");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aa_familywise),
		cmocka_unit_test(test_interval_coverage),
		cmocka_unit_test(test_mdc_power),
		cmocka_unit_test(test_until_decided_aa),
		cmocka_unit_test(test_until_decided_power),
		cmocka_unit_test(test_until_decided_equivalent),
	};
	int rc;

	if (env && atoi(env) > 0)
		scale = (size_t)atoi(env);
	table = getenv("FSLAB_CALIBRATE_TABLE") != NULL;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	for (size_t m = 0; m < MAXM; m++)
		free(keys_buf[m]);
	return rc;
}
