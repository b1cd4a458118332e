/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - group runs into configurations and compute, per (phase,
 * metric), one figure per repetition, descriptive statistics, the
 * comparison with the baseline, the adjusted significance verdict and
 * the roll-up.  The rules are documented in compare.h; the t machinery
 * is in stats/ttest.c, the adjustment in stats/padjust.c, the per
 * repetition figure and mean in stats/repmean.c; which runs form the
 * configurations is sets.c, what differs between them diff.c.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/internal.h"
#include "stats/padjust.h"
#include "stats/repmean.h"
#include "stats/stats.h"
#include "stats/ttest.h"
#include "util/util.h"

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = COMPARE_ALPHA;
	o->min_change_pct = COMPARE_MIN_CHANGE_PCT;
	o->min_wall_s = COMPARE_MIN_WALL_S;
	o->power = COMPARE_POWER;
	o->adjust = CMP_ADJUST_HOLM;
}

const char *compare_mean_name(const struct cmp_row *row)
{
	return rep_mean_name(row->hmean ? REP_MEAN_HARMONIC
					: REP_MEAN_ARITHMETIC);
}

const char *compare_adjust_name(enum cmp_adjust a)
{
	return a == CMP_ADJUST_BH ? "Benjamini-Hochberg" :
	       a == CMP_ADJUST_NONE ? "none" : "Holm";
}

static bool compare_default_metric(const char *metric)
{
	return !strcmp(metric, "MiB/s") || !strcmp(metric, "files/s") ||
	       !strcmp(metric, "wall_s");
}

bool compare_traced_metric(const char *metric)
{
	for (const char *const *m = trace_key_metrics; *m; m++)
		if (!strcmp(metric, *m))
			return true;
	return false;
}

/* ---- rows ---- */

static bool key_match(const struct compare_opts *o, const char *phase,
		      const char *metric)
{
	for (const char *const *k = o->key_metrics; k && *k; k++)
		if (key_metric_match(*k, phase, metric))
			return true;
	return false;
}

/* Is phase named by a key metric ("create/files/s": create)? */
static bool key_phase(const struct compare_opts *o, const char *phase)
{
	for (const char *const *k = o->key_metrics; k && *k; k++)
		if (key_metric_match(*k, phase, NULL))
			return true;
	return false;
}

static bool want_shown(const struct compare_opts *o, const char *phase,
		       const char *metric, bool key, bool traced)
{
	if (o->phase && fnmatch(o->phase, phase, 0))
		return false;
	if (o->metric)
		return !fnmatch(o->metric, metric, 0);
	return o->all || key || traced || compare_default_metric(metric);
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

static void add_row(struct cmp_table *t, const struct compare_opts *o,
		    const struct phase_rec *ph, const struct metric *mt)
{
	struct cmp_row *row;
	bool key, traced;

	if (!mt->name || find_row(t, ph->name, mt->name))
		return;
	if (t->key_from_workload)
		key = key_match(o, ph->name, mt->name);
	else
		key = mt->better == BETTER_HIGHER && rep_unit_is_rate(mt->unit);
	/* Traced phases: the modelled disk time (src/disk/). */
	key = key || !strcmp(mt->name, "disk.time_s");
	traced = compare_traced_metric(mt->name) &&
		 (!t->key_from_workload || key_phase(o, ph->name));
	if (!key && !traced &&
	    !want_shown(o, ph->name, mt->name, false, false))
		return;
	ALLOC_GROW(t->rows, t->nr_rows + 1, t->alloc_rows);
	row = &t->rows[t->nr_rows++];
	memset(row, 0, sizeof(*row));
	row->phase = xstrdup(ph->name);
	row->metric = xstrdup(mt->name);
	row->unit = xstrdup(mt->unit ? mt->unit : "");
	row->better = mt->better;
	row->key = key;
	row->traced = traced;
	row->shown = want_shown(o, ph->name, mt->name, key, traced);
}

static void add_rows(struct cmp_table *t, const struct cmp_group *groups,
		     const struct compare_opts *o)
{
	for (size_t g = 0; g < t->nr_groups; g++)
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const struct wlrun_rec *w = groups[g].reps[r];

			for (size_t p = 0; p < w->nr_phases; p++) {
				const struct phase_rec *ph = &w->phases[p];

				if (ph->status != PHASE_OK || !ph->name)
					continue;
				for (size_t m = 0; m < ph->nr_metrics; m++)
					add_row(t, o, ph, &ph->metrics[m]);
			}
		}
}

static bool did_work(const struct phase_rec *p)
{
	return p->bytes || p->files || p->ops;
}

/* Mean wall time of phase's successful instances in w; *work whether any
 * of them recorded work.  NaN when there is none. */
static double instance_wall(const struct wlrun_rec *w, const char *phase,
			    bool *work)
{
	double sum = 0;
	size_t n = 0;

	*work = false;
	for (size_t p = 0; p < w->nr_phases; p++) {
		const struct phase_rec *ph = &w->phases[p];

		if (ph->status != PHASE_OK || !ph->name ||
		    strcmp(ph->name, phase))
			continue;
		sum += (double)ph->m.wall_ns / 1e9;
		n++;
		*work |= did_work(ph);
	}
	return n ? sum / (double)n : NAN;
}

/*
 * The wall time that says whether a row's figure is long enough to
 * judge: its phase's, or, for a figure of a bookkeeping phase that did no
 * work itself (compilebench's summary/create.avg_MiB/s), the phase it names
 * before the dot when there is one.  *used gets that phase's name.
 */
static double rep_wall(const struct wlrun_rec *w, const struct cmp_row *row,
		       char **used)
{
	const char *dot = strchr(row->metric, '.');
	double wall;
	bool work;
	char *named;

	wall = instance_wall(w, row->phase, &work);
	if (work) {
		if (used && !*used)
			*used = xstrdup(row->phase);
		return wall;
	}
	if (dot) {
		double nw;
		bool nwork;

		named = xstrndup(row->metric, (size_t)(dot - row->metric));
		nw = instance_wall(w, named, &nwork);
		if (nwork) {
			if (used && !*used)
				*used = named;
			else
				free(named);
			return nw;
		}
		free(named);
	}
	/* a phase timed for itself (fsck): its own wall time */
	if (used && !*used)
		*used = xstrdup(row->phase);
	return wall;
}

static void collect(struct cmp_row *row, const struct cmp_group *g,
		    struct cmp_stat *st)
{
	size_t alloc = 0, ialloc = 0, nw = 0;
	double wsum = 0;

	for (size_t r = 0; r < g->nr_reps; r++) {
		const struct wlrun_rec *w = g->reps[r];
		double *v = xcalloc(w->nr_phases + 1, sizeof(*v));
		double *wall = xcalloc(w->nr_phases + 1, sizeof(*wall));
		size_t k = 0;
		double rw;

		for (size_t p = 0; p < w->nr_phases; p++) {
			const struct phase_rec *ph = &w->phases[p];
			const struct metric *m;

			if (ph->status != PHASE_OK || !ph->name ||
			    strcmp(ph->name, row->phase))
				continue;
			m = phase_rec_metric(ph, row->metric);
			if (!m || !isfinite(m->value))
				continue;
			v[k] = m->value;
			wall[k++] = (double)ph->m.wall_ns / 1e9;
			ALLOC_GROW(st->inst, st->nr_inst + 1, ialloc);
			st->inst[st->nr_inst++] = m->value;
		}
		if (k) {
			ALLOC_GROW(st->x, st->n + 1, alloc);
			st->x[st->n++] = rep_fold(row->unit, v, wall, k);
		}
		free(v);
		free(wall);
		rw = k ? rep_wall(w, row, &row->wall_phase) : NAN;
		if (isfinite(rw)) {
			wsum += rw;
			nw++;
		}
	}
	st->wall_s = nw ? wsum / (double)nw : NAN;
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
	if (!row->hmean) {
		ttest_mean_ci(&s, alpha, &lo, &hi);
		st->mean = s.mean;
		st->ci_lo = lo;
		st->ci_hi = hi;
		return;
	}
	/* Log scale of the mean time per work, back to a rate: finite. */
	ttest_mean_ci_log(&s, alpha, &lo, &hi);
	st->mean = 1.0 / s.mean;
	st->ci_lo = 1.0 / hi;
	st->ci_hi = 1.0 / lo;
}

static void against(const struct cmp_row *row, const struct cmp_stat *base,
		    const struct cmp_stat *st, const struct compare_opts *o,
		    struct cmp_delta *d)
{
	struct ttest_sample a, b;
	struct welch_result w;
	double r, lo, hi, big;

	infer_sample(row, base, &a);
	infer_sample(row, st, &b);
	d->se_log = d->df = NAN;
	if (a.mean > 0 && b.mean > 0)
		ttest_ratio_ci_log(&a, &b, o->alpha, &r, &lo, &hi, &d->se_log,
				   &d->df);
	else
		ttest_ratio_ci(&a, &b, o->alpha, &r, &lo, &hi);
	if (row->hmean) {
		/* ratio of rates = inverse ratio of times per work */
		double ir = 1.0 / r, ilo = 1.0 / hi, ihi = 1.0 / lo;

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
	/* Positive means: the log-ratio test, consistent with the interval;
	 * otherwise Welch's test of the difference. */
	if (isfinite(d->se_log)) {
		d->p = ttest_log_ratio_p(d->ratio, d->se_log, d->df);
	} else {
		ttest_welch(&a, &b, o->alpha, &w);
		d->p = w.p;
	}
	d->p_adj = d->mdc_pct = NAN;
	d->significant = false;
	d->tested = false;
	if (row->better == BETTER_NONE) {
		d->verdict = CMP_INFO;
		return;
	}
	if (base->n < COMPARE_MIN_N || st->n < COMPARE_MIN_N ||
	    !isfinite(d->p)) {
		d->verdict = CMP_NA;
		return;
	}
	big = fmax(isfinite(base->wall_s) ? base->wall_s : -1,
		   isfinite(st->wall_s) ? st->wall_s : -1);
	if (big >= 0 && big < o->min_wall_s) {
		d->verdict = CMP_SHORT;
		return;
	}
	d->tested = true;
	d->verdict = CMP_SAME;
}

static bool all_positive(const struct cmp_row *row, size_t nr_groups)
{
	size_t total = 0;

	for (size_t g = 0; g < nr_groups; g++) {
		if (rep_mean_kind(row->unit, row->st[g].x, row->st[g].n) !=
		    REP_MEAN_HARMONIC && row->st[g].n)
			return false;
		total += row->st[g].n;
	}
	return total > 0;
}

/*
 * The roll-up and its interval: log of the geometric mean = the mean of
 * the k oriented log ratios; its standard error sqrt(sum se_i^2) / k
 * treats the metrics as independent (they seldom are: read it as a
 * guide), with the smallest df of the k; the interval is exp(mean +-
 * t se), NaN when a ratio has no standard error.
 */
static void rollup(struct cmp_table *t, double alpha)
{
	t->rollup_alpha = alpha;
	free(t->rollup);
	free(t->rollup_n);
	free(t->rollup_lo);
	free(t->rollup_hi);
	t->rollup = xcalloc(t->nr_groups + 1, sizeof(*t->rollup));
	t->rollup_n = xcalloc(t->nr_groups + 1, sizeof(*t->rollup_n));
	t->rollup_lo = xcalloc(t->nr_groups + 1, sizeof(*t->rollup_lo));
	t->rollup_hi = xcalloc(t->nr_groups + 1, sizeof(*t->rollup_hi));
	for (size_t g = 0; g < t->nr_groups; g++) {
		double logsum = 0, var = 0, df = INFINITY, m, h;
		size_t n = 0;

		for (size_t i = 0; i < t->nr_rows; i++) {
			const struct cmp_row *row = &t->rows[i];
			double r = row->d[g].ratio;

			if (g && row->key && row->d[g].verdict == CMP_WORSE)
				t->regression = true;
			if (!row->key || row->better == BETTER_NONE ||
			    !(r > 0) || !isfinite(r) ||
			    row->d[g].verdict == CMP_FAILED)
				continue;
			if (row->better == BETTER_LOWER)
				r = 1.0 / r;
			logsum += log(r);
			var += row->d[g].se_log * row->d[g].se_log;
			df = fmin(df, row->d[g].df);
			n++;
		}
		m = n ? logsum / (double)n : NAN;
		t->rollup[g] = exp(m);
		t->rollup_n[g] = n;
		h = n && g ? ttest_tcrit(alpha, df) * sqrt(var) / (double)n
			   : NAN;
		t->rollup_lo[g] = isfinite(h) ? exp(m - h) : NAN;
		t->rollup_hi[g] = isfinite(h) ? exp(m + h) : NAN;
	}
}

void compare_mark_invalid(struct cmp_table *t, size_t g, const char *reason)
{
	if (g >= t->nr_groups)
		return;
	if (!t->invalid)
		t->invalid = xcalloc(t->nr_groups + 1, sizeof(*t->invalid));
	if (!t->invalid[g])
		t->invalid[g] = xstrdup(reason);
	for (size_t i = 0; i < t->nr_rows; i++)
		for (size_t k = 1; k < t->nr_groups; k++) {
			struct cmp_delta *d = &t->rows[i].d[k];

			if ((k == g || g == 0) && d->verdict != CMP_FAILED) {
				d->verdict = CMP_INFO;
				d->significant = false;
			}
		}
	t->regression = false;
	for (size_t k = 1; k < t->nr_groups; k++)
		if (t->failed[0] || t->failed[k])
			t->regression = true;
	rollup(t, t->rollup_alpha);
	for (size_t k = 0; k < t->nr_groups; k++)
		if (t->invalid[k] || t->invalid[0])
			t->rollup[k] = NAN;
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
			d->p_adj = d->mdc_pct = NAN;
			d->significant = d->tested = false;
			d->verdict = CMP_FAILED;
		}
	}
}

/* ---- the table ---- */

void compare_build(const char *workload, const struct cmp_group *groups,
		   size_t nr_groups, const struct compare_opts *o,
		   struct cmp_table *t)
{
	memset(t, 0, sizeof(*t));
	t->workload = xstrdup(workload);
	t->nr_groups = nr_groups;
	t->labels = xcalloc(nr_groups + 1, sizeof(*t->labels));
	t->nr_reps = xcalloc(nr_groups + 1, sizeof(*t->nr_reps));
	for (size_t g = 0; g < nr_groups; g++) {
		t->labels[g] = xstrdup(groups[g].label ? groups[g].label : "?");
		t->nr_reps[g] = groups[g].nr_reps;
	}
	t->key_from_workload = o->key_metrics && o->key_metrics[0];
	add_rows(t, groups, o);
	for (size_t i = 0; i < t->nr_rows; i++) {
		struct cmp_row *row = &t->rows[i];

		row->st = xcalloc(nr_groups + 1, sizeof(*row->st));
		row->d = xcalloc(nr_groups + 1, sizeof(*row->d));
		for (size_t g = 0; g < nr_groups; g++)
			collect(row, &groups[g], &row->st[g]);
		row->hmean = rep_unit_is_rate(row->unit) &&
			     all_positive(row, nr_groups);
		for (size_t g = 0; g < nr_groups; g++)
			describe(row, &row->st[g], o->alpha);
		for (size_t g = 0; g < nr_groups; g++)
			against(row, &row->st[0], &row->st[g], o, &row->d[g]);
		row->d[0].tested = false;
	}
	mark_failed(t, groups);
	compare_find_diffs(t, groups, o);
	rollup(t, o->alpha);
}

/* ---- families ---- */

struct fam {
	struct cmp_delta **d;
	double *p, *adj;
	size_t n, alloc, palloc;
};

static void fam_add(struct fam *f, struct cmp_delta *d)
{
	ALLOC_GROW(f->d, f->n + 1, f->alloc);
	ALLOC_GROW(f->p, f->n + 1, f->palloc);
	f->d[f->n] = d;
	f->p[f->n++] = d->p;
}

static void fam_adjust(struct fam *f, const struct compare_opts *o)
{
	f->adj = xcalloc(f->n + 1, sizeof(*f->adj));
	if (o->adjust == CMP_ADJUST_BH)
		padjust_bh(f->p, f->n, f->adj);
	else if (o->adjust == CMP_ADJUST_NONE)
		memcpy(f->adj, f->p, f->n * sizeof(*f->adj));
	else
		padjust_holm(f->p, f->n, f->adj);
}

static void fam_release(struct fam *f)
{
	free(f->d);
	free(f->p);
	free(f->adj);
}

static void decide(struct cmp_delta *d, enum better better, double p_adj,
		   size_t family, const struct compare_opts *o)
{
	double oriented, a = o->alpha / (double)(family ? family : 1), m;

	d->p_adj = p_adj;
	d->family = family;
	d->significant = isfinite(p_adj) && p_adj < o->alpha &&
			 isfinite(d->pct) &&
			 fabs(d->pct) >= o->min_change_pct;
	oriented = better == BETTER_HIGHER ? d->ratio : 1.0 / d->ratio;
	d->verdict = !d->significant ? CMP_SAME
		     : oriented > 1 ? CMP_BETTER : CMP_WORSE;
	d->equiv_pct = NAN;
	if (d->verdict == CMP_SAME && o->min_change_pct > 0 &&
	    d->pct_lo > -o->min_change_pct && d->pct_hi < o->min_change_pct) {
		d->verdict = CMP_EQUIVALENT;
		d->equiv_pct = o->min_change_pct;
	}
	/* How large a change could this comparison have seen? */
	if (d->se_log == 0) {
		m = 0;
	} else {
		m = ttest_mdc(d->se_log, d->df, a, o->power);
		m = isfinite(m) ? 100.0 * (exp(m) - 1.0) : NAN;
	}
	d->mdc_pct = isfinite(m) ? fmax(m, o->min_change_pct) : NAN;
}

void compare_finish(struct cmp_table *tabs, size_t nr,
		    const struct compare_opts *o)
{
	struct fam key = { 0 }, all = { 0 };

	for (size_t i = 0; i < nr; i++)
		for (size_t r = 0; r < tabs[i].nr_rows; r++) {
			struct cmp_row *row = &tabs[i].rows[r];

			for (size_t g = 1; g < tabs[i].nr_groups; g++) {
				if (!row->d[g].tested)
					continue;
				if (row->key)
					fam_add(&key, &row->d[g]);
				if (row->key || row->shown)
					fam_add(&all, &row->d[g]);
			}
		}
	fam_adjust(&key, o);
	fam_adjust(&all, o);
	for (size_t k = 0; k < all.n; k++) {
		all.d[k]->p_adj = all.adj[k];
		all.d[k]->family = all.n;
	}
	for (size_t k = 0; k < key.n; k++) {
		key.d[k]->p_adj = key.adj[k];
		key.d[k]->family = key.n;
	}
	for (size_t i = 0; i < nr; i++) {
		for (size_t r = 0; r < tabs[i].nr_rows; r++) {
			struct cmp_row *row = &tabs[i].rows[r];

			for (size_t g = 1; g < tabs[i].nr_groups; g++)
				if (row->d[g].tested)
					decide(&row->d[g], row->better,
					       row->d[g].p_adj,
					       row->d[g].family, o);
		}
		tabs[i].regression = false;
		for (size_t g = 1; g < tabs[i].nr_groups; g++)
			if (tabs[i].failed[0] || tabs[i].failed[g])
				tabs[i].regression = true;
		rollup(&tabs[i], o->alpha);
	}
	fam_release(&key);
	fam_release(&all);
}

void compare_table_release(struct cmp_table *t)
{
	for (size_t i = 0; i < t->nr_rows; i++) {
		struct cmp_row *row = &t->rows[i];

		for (size_t g = 0; g < t->nr_groups; g++) {
			free(row->st[g].x);
			free(row->st[g].inst);
		}
		free(row->st);
		free(row->d);
		free(row->phase);
		free(row->metric);
		free(row->unit);
		free(row->wall_phase);
	}
	free(t->rows);
	for (size_t g = 0; t->invalid && g < t->nr_groups; g++)
		free(t->invalid[g]);
	free(t->invalid);
	for (size_t d = 0; d < t->nr_diffs; d++) {
		for (size_t g = 0; g < t->nr_groups; g++)
			free(t->diffs[d].values[g]);
		free(t->diffs[d].values);
		free(t->diffs[d].field);
	}
	free(t->diffs);
	free(t->option_mismatch);
	for (size_t g = 0; g < t->nr_groups; g++)
		free(t->labels[g]);
	free(t->labels);
	free(t->rollup);
	free(t->rollup_n);
	free(t->rollup_lo);
	free(t->rollup_hi);
	free(t->failed);
	free(t->nr_reps);
	free(t->workload);
	free(t->name);
	memset(t, 0, sizeof(*t));
}
