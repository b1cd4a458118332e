/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tail.c - latency distributions compared (see tail.h).
 *
 * The sample of a quantile interval is the latency of one operation, so
 * the repetitions pool: their histograms add bucket by bucket, which is
 * exact (lathist_merge), unlike averaging per-repetition percentiles.
 * That treats every operation as independent; operations of one
 * repetition share its state (the cache, the journal), so the interval
 * describes the pooled operations; the verdict therefore also asks the
 * repetitions (each one's p99, Welch on the log), and the variance line
 * beside it watches the repetitions' key metric.
 */
#include "compare/tail.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/padjust.h"
#include "stats/ttest.h"
#include "util/util.h"

const double tail_quantiles[TAIL_NQ] = { 0.5, 0.9, 0.99, 0.999 };

const char *tail_verdict_text(enum tail_verdict v)
{
	switch (v) {
	case TAIL_SAME:
		return "no tail change";
	case TAIL_SLOWER:
		return "slower tail";
	case TAIL_FASTER:
		return "faster tail";
	case TAIL_NA:
		break;
	}
	return "too few samples for p99";
}

/* Merge grp's histograms of op in every instance of phase into h;
 * false when there were none. */
static bool pool(const struct cmp_group *grp, const char *phase,
		 const char *op, struct lathist *h, struct lathist *tmp,
		 const char **unit)
{
	bool any = false;

	lathist_init(h);
	for (size_t r = 0; r < grp->nr_reps; r++) {
		const struct wlrun_rec *w = grp->reps[r];

		for (size_t i = 0; i < w->nr_phases; i++) {
			const struct phase_rec *p = &w->phases[i];
			const struct hist_rec *hr;

			if (p->status != PHASE_OK || strcmp(p->name, phase))
				continue;
			hr = phase_rec_hist(p, op);
			if (!hr || hist_rec_to_lathist(hr, tmp))
				continue;
			lathist_merge(h, tmp);
			if (hr->unit)
				*unit = hr->unit;
			any = true;
		}
	}
	return any && h->count;
}

bool tail_pool(const struct cmp_group *grp, const char *phase,
	       const char *op, struct lathist *h, struct lathist *tmp)
{
	const char *unit = NULL;

	return pool(grp, phase, op, h, tmp, &unit);
}

static bool seen(const struct tail_cmp *c, const char *phase, const char *op)
{
	for (size_t i = 0; i < c->nr_rows; i++)
		if (!strcmp(c->rows[i].phase, phase) &&
		    !strcmp(c->rows[i].op, op))
			return true;
	return false;
}

static enum tail_verdict judge(const struct tail_row *r, double alpha)
{
	const struct quantci *a = &r->ci[0][TAIL_VERDICT_Q];
	const struct quantci *b = &r->ci[1][TAIL_VERDICT_Q];

	if (!a->ok || !b->ok)
		return TAIL_NA;
	if (r->rep_tested && !(r->rep_p_adj < alpha))
		return TAIL_SAME;
	if (b->lo > a->hi)
		return TAIL_SLOWER;
	if (b->hi < a->lo)
		return TAIL_FASTER;
	return TAIL_SAME;
}

/*
 * The log p99 of each repetition of grp with enough ops of its own for
 * one (100), as a t-test sample.  h and tmp are scratch histograms.
 */
static void rep_sample(const struct cmp_group *grp, const char *phase,
		       const char *op, struct lathist *h, struct lathist *tmp,
		       struct ttest_sample *s)
{
	double sum = 0, sum2 = 0;
	size_t n = 0;

	for (size_t r = 0; r < grp->nr_reps; r++) {
		struct cmp_group one = *grp;
		const char *unit = NULL;
		double x;

		one.reps = &grp->reps[r];
		one.nr_reps = 1;
		if (!pool(&one, phase, op, h, tmp, &unit) || h->count < 100)
			continue;
		x = log((double)lathist_quantile(h, 0.99));
		sum += x;
		sum2 += x * x;
		n++;
	}
	s->n = n;
	s->mean = n ? sum / (double)n : NAN;
	s->sd = n > 1 ? sqrt(fmax(0, (sum2 - sum * sum / (double)n) /
				  (double)(n - 1))) : NAN;
}

static void rep_test(struct tail_row *row, const struct cmp_group *side[2],
		     double alpha, struct lathist *h)
{
	struct ttest_sample s[2];
	struct welch_result w;

	for (int k = 0; k < 2; k++) {
		rep_sample(side[k], row->phase, row->op, h, h + 1, &s[k]);
		row->reps[k] = s[k].n;
	}
	row->rep_tested = s[0].n >= 2 && s[1].n >= 2 &&
			  !ttest_welch(&s[0], &s[1], alpha, &w);
	row->rep_p = row->rep_tested ? w.p : NAN;
}

static void add_row(struct tail_cmp *c, size_t *alloc,
		    const struct cmp_group *groups, const char *phase,
		    const char *op, double alpha, struct lathist *h)
{
	struct lathist *tmp = h + 1;
	const struct cmp_group *side[2] = { &groups[0], &groups[c->group] };
	const char *unit = "ns";
	struct tail_row *row;

	if (!pool(side[1], phase, op, h, tmp, &unit))
		return;
	ALLOC_GROW(c->rows, c->nr_rows + 1, *alloc);
	row = &c->rows[c->nr_rows++];
	memset(row, 0, sizeof(*row));
	row->phase = xstrdup(phase);
	row->op = xstrdup(op);
	for (int s = 1; s >= 0; s--) {
		if (s == 0)
			pool(side[0], phase, op, h, tmp, &unit);
		for (int k = 0; k < TAIL_NQ; k++)
			quantci_lathist(h, tail_quantiles[k], alpha,
					&row->ci[s][k]);
	}
	row->unit = xstrdup(unit);
	rep_test(row, side, alpha, h);
}

/* Holm over the rows' repetition tests and over the variance tests:
 * each is a family of looks at one comparison. */
static void adjust(struct tail_cmp *c, double alpha)
{
	double *p = xcalloc(c->nr_rows + c->nr_vars + 1, sizeof(*p));
	double *adj = xcalloc(c->nr_rows + c->nr_vars + 1, sizeof(*adj));
	size_t n = 0;

	for (size_t i = 0; i < c->nr_rows; i++)
		if (c->rows[i].rep_tested)
			p[n++] = c->rows[i].rep_p;
	padjust_holm(p, n, adj);
	n = 0;
	for (size_t i = 0; i < c->nr_rows; i++) {
		struct tail_row *r = &c->rows[i];

		r->rep_p_adj = r->rep_tested ? adj[n++] : NAN;
		r->verdict = judge(r, alpha);
	}
	n = 0;
	for (size_t i = 0; i < c->nr_vars; i++)
		if (c->vars[i].ok)
			p[n++] = c->vars[i].r.p;
	padjust_holm(p, n, adj);
	n = 0;
	for (size_t i = 0; i < c->nr_vars; i++)
		c->vars[i].p_adj = c->vars[i].ok ? adj[n++] : NAN;
	free(p);
	free(adj);
}

/* Brown-Forsythe on the phase's first key metric, per repetition. */
static void add_var(struct tail_cmp *c, const struct cmp_table *t,
		    const char *phase)
{
	const struct cmp_row *row = NULL;
	struct tail_var *v;

	for (size_t i = 0; i < c->nr_vars; i++)
		if (!strcmp(c->vars[i].phase, phase))
			return;
	for (size_t i = 0; i < t->nr_rows && !row; i++)
		if (t->rows[i].key && !strcmp(t->rows[i].phase, phase))
			row = &t->rows[i];
	if (!row)
		return;
	c->vars = xrealloc(c->vars, (c->nr_vars + 1) * sizeof(*c->vars));
	v = &c->vars[c->nr_vars++];
	memset(v, 0, sizeof(*v));
	v->phase = xstrdup(phase);
	v->metric = xstrdup(row->metric);
	v->n[0] = row->st[0].n;
	v->n[1] = row->st[c->group].n;
	if (v->n[0] >= TAIL_MIN_REPS && v->n[1] >= TAIL_MIN_REPS) {
		const double *x[2] = { row->st[0].x, row->st[c->group].x };

		v->ok = !levene_brown_forsythe(x, v->n, 2, &v->r);
	}
}

static void build_one(struct tail_cmp *c, const struct cmp_table *t,
		      const struct cmp_group *groups, double alpha,
		      struct lathist *h)
{
	const struct cmp_group *a = &groups[0];
	size_t alloc = 0;

	for (size_t r = 0; r < a->nr_reps; r++) {
		const struct wlrun_rec *w = a->reps[r];

		for (size_t i = 0; i < w->nr_phases; i++) {
			const struct phase_rec *p = &w->phases[i];

			for (size_t k = 0; k < p->nr_hists; k++) {
				const char *op = p->hists[k].op ?
						 p->hists[k].op : "";

				if (seen(c, p->name, op))
					continue;
				add_row(c, &alloc, groups, p->name, op, alpha,
					h);
			}
		}
	}
	for (size_t i = 0; i < c->nr_rows; i++)
		add_var(c, t, c->rows[i].phase);
	adjust(c, alpha);
}

static void release_one(struct tail_cmp *one)
{
	for (size_t i = 0; i < one->nr_rows; i++) {
		free(one->rows[i].phase);
		free(one->rows[i].op);
		free(one->rows[i].unit);
	}
	free(one->rows);
	for (size_t i = 0; i < one->nr_vars; i++) {
		free(one->vars[i].phase);
		free(one->vars[i].metric);
	}
	free(one->vars);
	memset(one, 0, sizeof(*one));
}

struct tail_cmp *tail_build(const struct cmp_table *t,
			    const struct cmp_group *groups, double alpha,
			    size_t *nr)
{
	struct tail_cmp *c;
	struct lathist *h;
	size_t n = 0;

	*nr = 0;
	if (t->nr_groups < 2)
		return NULL;
	/* two whole histograms (30 KiB): the pool and a decoded one */
	h = xmalloc(2 * sizeof(*h));
	c = xcalloc(t->nr_groups - 1, sizeof(*c));
	for (size_t g = 1; g < t->nr_groups; g++) {
		c[n].group = g;
		build_one(&c[n], t, groups, alpha, h);
		if (c[n].nr_rows)
			n++;
		else
			release_one(&c[n]);
	}
	free(h);
	*nr = n;
	if (!n) {
		free(c);
		return NULL;
	}
	return c;
}

void tail_cmp_free(struct tail_cmp *c, size_t nr)
{
	for (size_t k = 0; k < nr; k++)
		release_one(&c[k]);
	free(c);
}
