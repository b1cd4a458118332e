/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - group runs into configurations and compute, per (phase,
 * metric), descriptive statistics, the comparison with the baseline, the
 * significance verdict and the roll-up.  The rules are documented in
 * compare.h; the t machinery is in stats/ttest.c.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "stats/stats.h"
#include "stats/ttest.h"
#include "util/util.h"

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = COMPARE_ALPHA;
	o->min_change_pct = COMPARE_MIN_CHANGE_PCT;
}

const char *compare_mean_name(const struct cmp_row *row)
{
	return row->hmean ? "harmonic" : "arithmetic";
}

const char *compare_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_INFO:
		return "no verdict";
	case CMP_SAME:
		return "no significant change";
	case CMP_BETTER:
		return "improvement";
	case CMP_WORSE:
		return "regression";
	case CMP_FAILED:
		return "failed";
	case CMP_NA:
		break;
	}
	return "too few samples";
}

bool compare_default_metric(const char *metric)
{
	return !strcmp(metric, "MiB/s") || !strcmp(metric, "files/s") ||
	       !strcmp(metric, "wall_s");
}

static bool is_rate(const char *unit)
{
	size_t l = unit ? strlen(unit) : 0;

	return l > 2 && !strcmp(unit + l - 2, "/s");
}

/* ---- groups ---- */

const char **compare_workloads(const struct run_rec *const *runs,
			       size_t nr_runs, size_t *nr)
{
	const char **names = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < nr_runs; i++) {
		for (size_t j = 0; j < runs[i]->nr_wlruns; j++) {
			const char *w = runs[i]->wlruns[j].workload;
			bool seen = false;

			if (!w)
				continue;
			for (size_t k = 0; k < n && !seen; k++)
				seen = !strcmp(names[k], w);
			if (seen)
				continue;
			ALLOC_GROW(names, n + 1, alloc);
			names[n++] = w;
		}
	}
	*nr = n;
	return names;
}

static void group_add(struct cmp_group *g, size_t *alloc,
		      const struct wlrun_rec *w)
{
	const struct wlrun_rec **reps = (const struct wlrun_rec **)g->reps;

	ALLOC_GROW(reps, g->nr_reps + 1, *alloc);
	reps[g->nr_reps++] = w;
	g->reps = reps;
}

static int target_spec_idx(const struct run_rec *r, const struct wlrun_rec *w)
{
	const struct target_rec *t = run_rec_target(r, w);

	return t ? t->idx : 0;
}

struct cmp_group *compare_groups(const struct run_rec *const *runs,
				 const char *const *labels, size_t nr_runs,
				 const char *workload, size_t *nr)
{
	struct cmp_group *g = NULL;
	size_t n = 0, alloc = 0, *ralloc = NULL;

	if (nr_runs == 1) {
		const struct run_rec *r = runs[0];
		int max_idx = -1;

		for (size_t j = 0; j < r->nr_targets; j++)
			if (r->targets[j].idx > max_idx)
				max_idx = r->targets[j].idx;
		for (int idx = 0; idx <= max_idx; idx++) {
			size_t ra = 0;
			struct cmp_group cg = { .run = r };

			for (size_t j = 0; j < r->nr_wlruns; j++) {
				const struct wlrun_rec *w = &r->wlruns[j];
				const struct target_rec *t;

				if (!w->workload ||
				    strcmp(w->workload, workload) ||
				    target_spec_idx(r, w) != idx)
					continue;
				t = run_rec_target(r, w);
				if (!cg.label)
					cg.label = t && t->name ? t->name
								: "?";
				group_add(&cg, &ra, w);
			}
			if (!cg.nr_reps)
				continue;
			ALLOC_GROW(g, n + 1, alloc);
			g[n++] = cg;
		}
		*nr = n;
		return g;
	}
	ralloc = xcalloc(nr_runs, sizeof(*ralloc));
	g = xcalloc(nr_runs, sizeof(*g));
	for (size_t i = 0; i < nr_runs; i++) {
		struct cmp_group cg = { .run = runs[i], .label = labels[i] };

		for (size_t j = 0; j < runs[i]->nr_wlruns; j++) {
			const struct wlrun_rec *w = &runs[i]->wlruns[j];

			if (w->workload && !strcmp(w->workload, workload))
				group_add(&cg, &ralloc[i], w);
		}
		if (cg.nr_reps)
			g[n++] = cg;
	}
	free(ralloc);
	*nr = n;
	return g;
}

void compare_groups_free(struct cmp_group *g, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free((void *)g[i].reps);
	free(g);
}

/* ---- rows ---- */

static bool key_match(const struct compare_opts *o, const char *phase,
		      const char *metric)
{
	size_t pl = strlen(phase);

	for (const char *const *k = o->key_metrics; k && *k; k++)
		if (!strncmp(*k, phase, pl) && (*k)[pl] == '/' &&
		    !strcmp(*k + pl + 1, metric))
			return true;
	return false;
}

static bool want_shown(const struct compare_opts *o, const char *phase,
		       const char *metric, bool key)
{
	if (o->phase && fnmatch(o->phase, phase, 0))
		return false;
	if (o->metric)
		return !fnmatch(o->metric, metric, 0);
	return o->all || key || compare_default_metric(metric);
}

static struct cmp_row *find_row(struct cmp_table *t, const char *phase,
				const char *metric)
{
	for (size_t i = 0; i < t->nr_rows; i++)
		if (!strcmp(t->rows[i].phase, phase) &&
		    !strcmp(t->rows[i].metric, metric))
			return &t->rows[i];
	return NULL;
}

static void add_rows(struct cmp_table *t, const struct cmp_group *groups,
		     const struct compare_opts *o)
{
	for (size_t g = 0; g < t->nr_groups; g++) {
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const struct wlrun_rec *w = groups[g].reps[r];

			for (size_t p = 0; p < w->nr_phases; p++) {
				const struct phase_rec *ph = &w->phases[p];

				if (ph->status != PHASE_OK || !ph->name)
					continue;
				for (size_t m = 0; m < ph->nr_metrics; m++) {
					const struct metric *mt =
						&ph->metrics[m];
					struct cmp_row *row;
					bool key;

					if (!mt->name ||
					    find_row(t, ph->name, mt->name))
						continue;
					if (t->key_from_workload)
						key = key_match(o, ph->name,
								mt->name);
					else
						key = mt->better ==
						      BETTER_HIGHER &&
						      is_rate(mt->unit);
					/* Traced phases: modelled disk time. */
					key = key || !strcmp(mt->name,
							     "disk.time_s");
					if (!key && !want_shown(o, ph->name,
								mt->name,
								false))
						continue;
					ALLOC_GROW(t->rows, t->nr_rows + 1,
						   t->alloc_rows);
					row = &t->rows[t->nr_rows++];
					memset(row, 0, sizeof(*row));
					row->phase = xstrdup(ph->name);
					row->metric = xstrdup(mt->name);
					row->unit = xstrdup(mt->unit ? mt->unit
								     : "");
					row->better = mt->better;
					row->key = key;
					row->shown = want_shown(o, ph->name,
								mt->name, key);
				}
			}
		}
	}
}

static void collect(struct cmp_row *row, const struct cmp_group *g,
		    struct cmp_stat *st)
{
	size_t alloc = 0;

	for (size_t r = 0; r < g->nr_reps; r++) {
		const struct wlrun_rec *w = g->reps[r];

		for (size_t p = 0; p < w->nr_phases; p++) {
			const struct phase_rec *ph = &w->phases[p];
			const struct metric *m;

			if (ph->status != PHASE_OK || !ph->name ||
			    strcmp(ph->name, row->phase))
				continue;
			m = phase_rec_metric(ph, row->metric);
			if (!m || !isfinite(m->value))
				continue;
			ALLOC_GROW(st->x, st->n + 1, alloc);
			st->x[st->n++] = m->value;
		}
	}
}

/* The sample the inference works on: x, or 1/x for harmonic rows. */
static void infer_sample(const struct cmp_row *row, const struct cmp_stat *st,
			 struct ttest_sample *s)
{
	double *y = xcalloc(st->n + 1, sizeof(*y));

	for (size_t i = 0; i < st->n; i++)
		y[i] = row->hmean ? 1.0 / st->x[i] : st->x[i];
	s->n = st->n;
	s->mean = st->n ? stats_mean(y, st->n) : NAN;
	s->sd = st->n > 1 ? stats_stddev(y, st->n) : NAN;
	free(y);
}

static void describe(const struct cmp_row *row, struct cmp_stat *st,
		     double alpha)
{
	struct stats_summary sum;
	struct ttest_sample s;
	double lo, hi;

	stats_summarize(st->x, st->n, &sum);
	st->sd = sum.stddev;
	st->cov_pct = sum.cov_pct;
	st->min = sum.min;
	st->max = sum.max;
	infer_sample(row, st, &s);
	ttest_mean_ci(&s, alpha, &lo, &hi);
	if (!row->hmean) {
		st->mean = s.mean;
		st->ci_lo = lo;
		st->ci_hi = hi;
		return;
	}
	/* Back from time per work to rate: the interval flips. */
	st->mean = 1.0 / s.mean;
	st->ci_lo = hi > 0 ? 1.0 / hi : NAN;
	st->ci_hi = lo > 0 ? 1.0 / lo : isnan(lo) ? NAN : INFINITY;
}

static void against(const struct cmp_row *row, const struct cmp_stat *base,
		    const struct cmp_stat *st, const struct compare_opts *o,
		    struct cmp_delta *d)
{
	struct ttest_sample a, b;
	struct welch_result w;
	double r, lo, hi, oriented;

	infer_sample(row, base, &a);
	infer_sample(row, st, &b);
	ttest_ratio_ci(&a, &b, o->alpha, &r, &lo, &hi);
	if (row->hmean) {
		/* ratio of rates = inverse ratio of times per work */
		double ir = 1.0 / r, ilo = hi > 0 ? 1.0 / hi : NAN;
		double ihi = lo > 0 ? 1.0 / lo : isnan(lo) ? NAN : INFINITY;

		r = ir;
		lo = ilo;
		hi = ihi;
	}
	d->ratio = r;
	d->ratio_lo = lo;
	d->ratio_hi = hi;
	d->pct = 100.0 * (r - 1.0);
	d->pct_lo = 100.0 * (lo - 1.0);
	d->pct_hi = 100.0 * (hi - 1.0);
	ttest_welch(&a, &b, o->alpha, &w);
	d->p = w.p;
	d->significant = isfinite(d->p) && d->p < o->alpha &&
			 isfinite(d->pct) &&
			 fabs(d->pct) >= o->min_change_pct;
	if (row->better == BETTER_NONE) {
		d->verdict = CMP_INFO;
		return;
	}
	if (base->n < 2 || st->n < 2 || !isfinite(d->p)) {
		d->verdict = CMP_NA;
		return;
	}
	oriented = row->better == BETTER_HIGHER ? r : 1.0 / r;
	if (!d->significant)
		d->verdict = CMP_SAME;
	else
		d->verdict = oriented > 1 ? CMP_BETTER : CMP_WORSE;
}

static bool all_positive(const struct cmp_row *row, size_t nr_groups)
{
	size_t total = 0;

	for (size_t g = 0; g < nr_groups; g++) {
		for (size_t i = 0; i < row->st[g].n; i++)
			if (!(row->st[g].x[i] > 0))
				return false;
		total += row->st[g].n;
	}
	return total > 0;
}

static void rollup(struct cmp_table *t)
{
	t->rollup = xcalloc(t->nr_groups, sizeof(*t->rollup));
	t->rollup_n = xcalloc(t->nr_groups, sizeof(*t->rollup_n));
	for (size_t g = 0; g < t->nr_groups; g++) {
		double logsum = 0;
		size_t n = 0;

		for (size_t i = 0; i < t->nr_rows; i++) {
			const struct cmp_row *row = &t->rows[i];
			double r = row->d[g].ratio;

			if (!row->key || row->better == BETTER_NONE ||
			    !(r > 0) || !isfinite(r))
				continue;
			if (row->better == BETTER_LOWER)
				r = 1.0 / r;
			logsum += log(r);
			n++;
			if (g && row->d[g].verdict == CMP_WORSE)
				t->regression = true;
		}
		t->rollup[g] = n ? exp(logsum / (double)n) : NAN;
		t->rollup_n[g] = n;
	}
}

static bool group_failed(const struct cmp_group *g)
{
	for (size_t r = 0; r < g->nr_reps; r++)
		if (g->reps[r]->status && !strcmp(g->reps[r]->status,
						  "failed"))
			return true;
	return false;
}

/* A failed run is never "faster": no ratio, verdict failed. */
static void mark_failed(struct cmp_table *t, const struct cmp_group *groups)
{
	t->failed = xcalloc(t->nr_groups + 1, sizeof(*t->failed));
	for (size_t g = 0; g < t->nr_groups; g++)
		t->failed[g] = group_failed(&groups[g]);
	for (size_t g = 1; g < t->nr_groups; g++) {
		if (!t->failed[0] && !t->failed[g])
			continue;
		t->regression = true;
		for (size_t i = 0; i < t->nr_rows; i++) {
			struct cmp_delta *d = &t->rows[i].d[g];

			d->ratio = d->ratio_lo = d->ratio_hi = NAN;
			d->pct = d->pct_lo = d->pct_hi = d->p = NAN;
			d->significant = false;
			d->verdict = CMP_FAILED;
		}
	}
}

void compare_build(const char *workload, const struct cmp_group *groups,
		   size_t nr_groups, const struct compare_opts *o,
		   struct cmp_table *t)
{
	memset(t, 0, sizeof(*t));
	t->workload = xstrdup(workload);
	t->nr_groups = nr_groups;
	t->labels = xcalloc(nr_groups + 1, sizeof(*t->labels));
	for (size_t g = 0; g < nr_groups; g++)
		t->labels[g] = xstrdup(groups[g].label ? groups[g].label : "?");
	t->key_from_workload = o->key_metrics && o->key_metrics[0];
	add_rows(t, groups, o);
	for (size_t i = 0; i < t->nr_rows; i++) {
		struct cmp_row *row = &t->rows[i];

		row->st = xcalloc(nr_groups + 1, sizeof(*row->st));
		row->d = xcalloc(nr_groups + 1, sizeof(*row->d));
		for (size_t g = 0; g < nr_groups; g++)
			collect(row, &groups[g], &row->st[g]);
		row->hmean = is_rate(row->unit) &&
			     all_positive(row, nr_groups);
		for (size_t g = 0; g < nr_groups; g++)
			describe(row, &row->st[g], o->alpha);
		for (size_t g = 0; g < nr_groups; g++)
			against(row, &row->st[0], &row->st[g], o, &row->d[g]);
	}
	mark_failed(t, groups);
	rollup(t);
}

void compare_table_release(struct cmp_table *t)
{
	for (size_t i = 0; i < t->nr_rows; i++) {
		struct cmp_row *row = &t->rows[i];

		for (size_t g = 0; g < t->nr_groups; g++)
			free(row->st[g].x);
		free(row->st);
		free(row->d);
		free(row->phase);
		free(row->metric);
		free(row->unit);
	}
	free(t->rows);
	for (size_t g = 0; g < t->nr_groups; g++)
		free(t->labels[g]);
	free(t->labels);
	free(t->rollup);
	free(t->rollup_n);
	free(t->failed);
	free(t->workload);
	memset(t, 0, sizeof(*t));
}
