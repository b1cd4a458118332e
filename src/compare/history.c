// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * history.c - series of per-run means over many runs and their change
 * points (see history.h).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare/history.h"
#include "compare/internal.h"
#include "stats/repmean.h"
#include "stats/stats.h"
#include "stats/ttest.h"
#include "util/util.h"
#include "workloads/registry.h"

void history_init(struct history *h, const struct hist_opts *o)
{
	memset(h, 0, sizeof(*h));
	h->o = *o;
}

static const char *str_or(const char *s, const char *d)
{
	return s && *s ? s : d;
}

static bool is_key(const char *workload, const char *phase,
		   const char *metric)
{
	const struct workload *wl = wl_find(workload);
	size_t pl = strlen(phase);

	for (const char *const *k = wl ? wl->key_metrics : NULL; k && *k; k++)
		if (!strncmp(*k, phase, pl) && (*k)[pl] == '/' &&
		    !strcmp(*k + pl + 1, metric))
			return true;
	return false;
}

static size_t series_of(struct history *h, const char *wl, const char *tgt,
			const struct phase_rec *p, const struct metric *m)
{
	struct hist_series *s;

	for (size_t i = h->nr_series; i-- > 0;) {
		s = &h->series[i];
		if (!strcmp(s->metric, m->name) && !strcmp(s->phase, p->name) &&
		    !strcmp(s->target, tgt) && !strcmp(s->workload, wl))
			return i;
	}
	ALLOC_GROW(h->series, h->nr_series + 1, h->alloc_series);
	s = &h->series[h->nr_series];
	memset(s, 0, sizeof(*s));
	s->workload = xstrdup(wl);
	s->target = xstrdup(tgt);
	s->phase = xstrdup(p->name);
	s->metric = xstrdup(m->name);
	s->unit = m->unit ? xstrdup(m->unit) : NULL;
	s->better = m->better;
	return h->nr_series++;
}

static char *point_key(const struct history *h, const struct run_rec *r)
{
	time_t t = (time_t)r->started;
	char day[16] = "-";
	struct tm tm;

	switch (h->o.by) {
	case HIST_BY_KERNEL:
		return xstrdup(str_or(r->kernel, "-"));
	case HIST_BY_VERSION:
		return xstrdup(str_or(r->version, "-"));
	case HIST_BY_DATE:
		if (gmtime_r(&t, &tm))
			strftime(day, sizeof(day), "%Y-%m-%d", &tm);
		return xstrdup(day);
	case HIST_BY_RUN:
		break;
	}
	if (h->o.nr_dbs > 1)
		return xasprintf("%lld@%zu", (long long)r->id, h->db + 1);
	return xasprintf("%lld", (long long)r->id);
}

static char **fields_of(const struct run_rec *r, const struct wlrun_rec *w)
{
	size_t nf = compare_nr_fields();
	char **v = xcalloc(nf, sizeof(*v));

	for (size_t f = 0; f < nf; f++)
		v[f] = compare_field_value(r, w, f);
	return v;
}

static void fields_free(char **v)
{
	for (size_t f = 0; v && f < compare_nr_fields(); f++)
		free(v[f]);
	free(v);
}

/* Runs started in the same second: by store, then by id. */
static bool run_before(size_t db1, int64_t id1, size_t db2, int64_t id2)
{
	return db1 != db2 ? db1 < db2 : id1 < id2;
}

static struct hist_point *point_of(struct history *h, struct hist_series *s,
				   const char *key, const struct run_rec *r,
				   const struct wlrun_rec *w)
{
	struct hist_point *pt = NULL;

	if (s->nr_pts && !strcmp(s->pts[s->nr_pts - 1].label, key))
		pt = &s->pts[s->nr_pts - 1];
	for (size_t i = 0; !pt && h->o.by != HIST_BY_RUN && i < s->nr_pts; i++)
		if (!strcmp(s->pts[i].label, key))
			pt = &s->pts[i];
	if (!pt) {
		ALLOC_GROW(s->pts, s->nr_pts + 1, s->alloc_pts);
		pt = &s->pts[s->nr_pts++];
		memset(pt, 0, sizeof(*pt));
		pt->label = xstrdup(key);
		pt->first_run = pt->last_run = r->id;
		pt->first_db = pt->last_db = h->db;
		pt->first_started = pt->last_started = r->started;
		pt->first_fields = fields_of(r, w);
		pt->last_fields = fields_of(r, w);
		pt->nr_runs = 1;
		return pt;
	}
	/* Run ids are per store: a run is its store and its id. */
	if ((pt->last_run == r->id && pt->last_db == h->db) ||
	    (pt->first_run == r->id && pt->first_db == h->db))
		return pt;
	pt->nr_runs++;
	if (r->started < pt->first_started ||
	    (r->started == pt->first_started &&
	     run_before(h->db, r->id, pt->first_db, pt->first_run))) {
		pt->first_run = r->id;
		pt->first_db = h->db;
		pt->first_started = r->started;
		fields_free(pt->first_fields);
		pt->first_fields = fields_of(r, w);
	}
	if (r->started > pt->last_started ||
	    (r->started == pt->last_started &&
	     run_before(pt->last_db, pt->last_run, h->db, r->id))) {
		pt->last_run = r->id;
		pt->last_db = h->db;
		pt->last_started = r->started;
		fields_free(pt->last_fields);
		pt->last_fields = fields_of(r, w);
	}
	return pt;
}

/* The instances of one (series, repetition) inside the run being added. */
struct cell {
	size_t series;
	int rep;
	size_t wlrun;
	double *x, *wall;
	size_t n, alloc, walloc;
};

static struct cell *cell_of(struct cell **cells, size_t *nr, size_t *alloc,
			    size_t series, int rep, size_t wlrun)
{
	struct cell *c;

	for (size_t i = 0; i < *nr; i++)
		if ((*cells)[i].series == series && (*cells)[i].rep == rep)
			return &(*cells)[i];
	ALLOC_GROW(*cells, *nr + 1, *alloc);
	c = &(*cells)[(*nr)++];
	memset(c, 0, sizeof(*c));
	c->series = series;
	c->rep = rep;
	c->wlrun = wlrun;
	return c;
}

static bool wanted(const struct history *h, const char *wl,
		   const char *tgt, const struct phase_rec *p,
		   const struct metric *m)
{
	if (h->o.workload && fnmatch(h->o.workload, wl, 0))
		return false;
	if (h->o.target && fnmatch(h->o.target, tgt, 0))
		return false;
	if (!isfinite(m->value))
		return false;
	if (h->o.metric)
		return !fnmatch(h->o.metric, m->name, 0);
	return is_key(wl, p->name, m->name);
}

void history_add_run(struct history *h, const struct run_rec *r)
{
	struct cell *cells = NULL;
	size_t nc = 0, ac = 0;
	char *key;

	if (!r->status || strcmp(r->status, "complete"))
		return; /* a failed run did less work: not a point */
	h->nr_runs++;
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];
		const struct target_rec *t = run_rec_target(r, w);
		const char *tgt = str_or(t ? t->name : NULL, "-");
		const char *wl = str_or(w->workload, "?");

		for (size_t k = 0; k < w->nr_phases; k++) {
			const struct phase_rec *p = &w->phases[k];

			if (p->status != PHASE_OK || !p->name)
				continue;
			for (size_t j = 0; j < p->nr_metrics; j++) {
				const struct metric *m = &p->metrics[j];
				struct cell *c;

				if (!m->name || !wanted(h, wl, tgt, p, m))
					continue;
				c = cell_of(&cells, &nc, &ac,
					    series_of(h, wl, tgt, p, m),
					    w->rep, i);
				ALLOC_GROW(c->x, c->n + 1, c->alloc);
				ALLOC_GROW(c->wall, c->n + 1, c->walloc);
				c->x[c->n] = m->value;
				c->wall[c->n++] = (double)p->m.wall_ns / 1e9;
			}
		}
	}
	key = point_key(h, r);
	for (size_t i = 0; i < nc; i++) {
		struct cell *c = &cells[i];
		struct hist_series *s = &h->series[c->series];
		struct hist_point *pt = point_of(h, s, key, r,
						 &r->wlruns[c->wlrun]);

		ALLOC_GROW(pt->figs, pt->nr_figs + 1, pt->alloc_figs);
		pt->figs[pt->nr_figs++] = rep_fold(s->unit, c->x, c->wall,
						   c->n);
		free(c->x);
		free(c->wall);
	}
	free(key);
	free(cells);
}

static int cmp_points(const void *a, const void *b)
{
	const struct hist_point *x = a, *y = b;

	if (x->first_started != y->first_started)
		return x->first_started < y->first_started ? -1 : 1;
	if (x->first_db != y->first_db)
		return x->first_db < y->first_db ? -1 : 1;
	return (x->first_run > y->first_run) - (x->first_run < y->first_run);
}

static void point_stats(const struct hist_series *s, struct hist_point *pt,
			bool *harmonic)
{
	enum rep_mean_kind kind;
	struct ttest_sample t;

	pt->n = pt->nr_figs;
	pt->mean = rep_mean(s->unit, pt->figs, pt->n, &kind);
	pt->lo = pt->hi = NAN;
	if (pt->n < 2)
		return;
	if (kind == REP_MEAN_HARMONIC) {
		double *inv = xcalloc(pt->n, sizeof(*inv)), lo, hi;

		*harmonic = true;
		for (size_t i = 0; i < pt->n; i++)
			inv[i] = 1 / pt->figs[i];
		t.n = pt->n;
		t.mean = stats_mean(inv, pt->n);
		t.sd = stats_stddev(inv, pt->n);
		if (!ttest_mean_ci(&t, 0.05, &lo, &hi) && lo > 0) {
			pt->lo = 1 / hi;
			pt->hi = 1 / lo;
		}
		free(inv);
		return;
	}
	t.n = pt->n;
	t.mean = stats_mean(pt->figs, pt->n);
	t.sd = stats_stddev(pt->figs, pt->n);
	ttest_mean_ci(&t, 0.05, &pt->lo, &pt->hi);
}

/* What differs between the last run before a change and the first after. */
static void name_changes(struct hist_change *c, const struct hist_point *a,
			 const struct hist_point *b)
{
	size_t nf = compare_nr_fields(), alloc = 0;

	for (size_t f = 0; f < nf; f++) {
		if (!strcmp(a->last_fields[f], b->first_fields[f]))
			continue;
		ALLOC_GROW(c->changed, c->nr_changed + 2, alloc);
		c->changed[c->nr_changed++] = xasprintf(
			"%s: %s -> %s", compare_field_name(f),
			a->last_fields[f], b->first_fields[f]);
		c->changed[c->nr_changed] = NULL;
	}
}

static void series_finish(struct history *h, struct hist_series *s)
{
	struct cp_point *cp;
	double *x;
	size_t n = 0, ncp;

	qsort(s->pts, s->nr_pts, sizeof(*s->pts), cmp_points);
	for (size_t i = 0; i < s->nr_pts; i++)
		point_stats(s, &s->pts[i], &s->harmonic);
	/* Points without a figure stay listed but out of the search. */
	x = xcalloc(s->nr_pts + 1, sizeof(*x));
	for (size_t i = 0; i < s->nr_pts; i++)
		if (isfinite(s->pts[i].mean))
			x[n++] = s->pts[i].mean;
	ncp = cp_edivisive(x, n, &h->o.cp, &cp);
	/* before/after: the segments' geometric means with log. */
	s->cps = ncp ? xcalloc(ncp, sizeof(*s->cps)) : NULL;
	for (size_t k = 0; k < ncp; k++) {
		struct hist_change *c = &s->cps[s->nr_cps++];
		size_t seen = 0, at = 0;

		/* Back from the finite-only index to the point index. */
		for (size_t i = 0; i < s->nr_pts; i++) {
			if (!isfinite(s->pts[i].mean))
				continue;
			if (seen++ == cp[k].at) {
				at = i;
				break;
			}
		}
		c->at = at;
		c->before = cp[k].before;
		c->after = cp[k].after;
		c->p = cp[k].p;
		c->pct = c->before ? (c->after - c->before) / fabs(c->before) *
				     100 : NAN;
		c->worse = s->better == BETTER_HIGHER ? c->after < c->before :
			   s->better == BETTER_LOWER ? c->after > c->before :
			   false;
		if (at > 0)
			name_changes(c, &s->pts[at - 1], &s->pts[at]);
	}
	free(cp);
	free(x);
}

static int cmp_series(const void *a, const void *b)
{
	const struct hist_series *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);

	if (!c)
		c = strcmp(x->target, y->target);
	if (!c)
		c = strcmp(x->phase, y->phase);
	return c ? c : strcmp(x->metric, y->metric);
}

void history_finish(struct history *h)
{
	/* Name order: the output does not depend on the runs' order. */
	qsort(h->series, h->nr_series, sizeof(*h->series), cmp_series);
	for (size_t i = 0; i < h->nr_series; i++)
		series_finish(h, &h->series[i]);
}

bool history_newest_worse(const struct history *h)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct hist_series *s = &h->series[i];

		if (s->nr_cps && s->cps[s->nr_cps - 1].worse)
			return true;
	}
	return false;
}

void history_release(struct history *h)
{
	for (size_t i = 0; i < h->nr_series; i++) {
		struct hist_series *s = &h->series[i];

		for (size_t k = 0; k < s->nr_pts; k++) {
			free(s->pts[k].label);
			free(s->pts[k].figs);
			fields_free(s->pts[k].first_fields);
			fields_free(s->pts[k].last_fields);
		}
		for (size_t k = 0; k < s->nr_cps; k++) {
			for (size_t j = 0; j < s->cps[k].nr_changed; j++)
				free(s->cps[k].changed[j]);
			free(s->cps[k].changed);
		}
		free(s->pts);
		free(s->cps);
		free(s->workload);
		free(s->target);
		free(s->phase);
		free(s->metric);
		free(s->unit);
	}
	free(h->series);
	memset(h, 0, sizeof(*h));
}
