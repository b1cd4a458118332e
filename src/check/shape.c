// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shape.c - the checks of a run's shape (see check.h, doc/validity.md):
 * enough repetitions for the change asked for, no warm-up repetition,
 * phases long enough to time, interval series in steady state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/internal.h"
#include "stats/stats.h"
#include "stats/ttest.h"
#include "workloads/registry.h"

#define TREND_MIN_POINTS 6
#define TREND_MIN_CHANGE 0.25
#define TREND_MIN_T 3.0

/* ---- repetitions ---- */

/* The figure repetitions are judged by: the workload's first key metric
 * ("phase/metric"), else the workload run's total wall time. */
static double rep_value(const struct wlrun_rec *w, const char **what)
{
	const struct workload *wl = wl_find(w->workload);
	const char *key = wl && wl->key_metrics ? wl->key_metrics[0] : NULL;
	double v = 0;

	if (key && strchr(key, '/')) {
		const char *slash = strchr(key, '/');
		char *phase = xstrndup(key, (size_t)(slash - key));
		const struct phase_rec *p = wlrun_rec_phase(w, phase, true);

		free(phase);
		*what = key;
		return p ? phase_rec_value(p, slash + 1, NAN) : NAN;
	}
	*what = "wall time";
	for (size_t k = 0; k < w->nr_phases; k++)
		v += (double)w->phases[k].m.wall_ns / 1e9;
	return w->nr_phases ? v : NAN;
}

void shape_series(const struct run_rec *r, struct series **out, size_t *nr)
{
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	/* In repetition order: wlruns are stored as they ran. */
	for (int rep = 0;; rep++) {
		bool any = false;

		for (size_t i = 0; i < r->nr_wlruns; i++) {
			const struct wlrun_rec *w = &r->wlruns[i];
			const struct target_rec *t = run_rec_target(r, w);
			struct series *s = NULL;
			const char *what;
			double v;

			if (w->rep != rep)
				continue;
			any = true;
			if (!w->status || strcmp(w->status, "complete"))
				continue;
			v = rep_value(w, &what);
			if (!isfinite(v))
				continue;
			for (size_t k = 0; k < *nr; k++)
				if ((*out)[k].tidx == (t ? t->idx : -1) &&
				    !strcmp((*out)[k].wl, w->workload))
					s = &(*out)[k];
			if (!s) {
				ALLOC_GROW(*out, *nr + 1, alloc);
				s = &(*out)[(*nr)++];
				memset(s, 0, sizeof(*s));
				s->tidx = t ? t->idx : -1;
				s->tname = t && t->name ? t->name : "?";
				s->wl = w->workload;
				s->what = what;
			}
			ALLOC_GROW(s->x, s->n + 1, s->alloc);
			s->x[s->n++] = v;
		}
		if (!any)
			break;
	}
}

/* Minimum detectable change (%) of comparing two configurations of n
 * repetitions each with this coefficient of variation (log scale). */
static double mdc_pct(double cov_pct, size_t n, const struct check_opts *o)
{
	double sl = sqrt(log1p(pow(cov_pct / 100, 2)));
	double m = ttest_mdc(sl * sqrt(2.0 / (double)n), 2.0 * (double)n - 2,
			     o->alpha, o->power);

	return isfinite(m) ? 100 * (exp(m) - 1) : NAN;
}

bool check_repetitions(struct ctx *c, struct series *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		char *subj = xasprintf("%s %s", s[i].tname, s[i].wl);
		struct stats_summary st;
		double mdc;
		size_t need;

		if (s[i].n < CHECK_MIN_REPS) {
			check_add(c, "repetitions", CHECK_WARNING, subj,
			    "%zu repetition%s: no confidence interval and no "
			    "verdict from compare, which needs %d; --repeat "
			    "%d or more", s[i].n, s[i].n == 1 ? "" : "s",
			    CHECK_MIN_REPS, CHECK_MIN_REPS);
			free(subj);
			continue;
		}
		stats_summarize(s[i].x, s[i].n, &st);
		mdc = mdc_pct(st.cov_pct, s[i].n, c->o);
		if (!isfinite(mdc) || mdc <= c->o->min_change_pct) {
			free(subj);
			continue;
		}
		for (need = s[i].n; need < 10000 &&
		     mdc_pct(st.cov_pct, need, c->o) > c->o->min_change_pct;)
			need = need < 64 ? need + 1 : need * 2;
		/* One configuration measured with no change named: the
		 * resolution is information for the next comparison, not
		 * a flaw of this run. */
		if (!c->planned)
			check_add(c, "repetitions", CHECK_NOTE, subj,
			    "%s varies by CoV %.1f %% over %zu repetitions: "
			    "comparing two such runs sees changes above "
			    "%.1f %% (mdc); for %.1f %%: --repeat %zu (fslab "
			    "plan)", s[i].what, st.cov_pct, s[i].n, mdc,
			    c->o->min_change_pct, need);
		else
			check_add(c, "repetitions", CHECK_WARNING, subj,
			    "%s varies by CoV %.1f %% over %zu repetitions: a "
			    "comparison could only see changes above %.1f %% "
			    "(mdc), not the %.1f %% asked for; --repeat %zu, "
			    "or a quieter machine", s[i].what, st.cov_pct,
			    s[i].n, mdc, c->o->min_change_pct, need);
		free(subj);
	}
	if (!nr)
		check_unchecked(c, "repetitions", "no complete workload run");
	return nr > 0;
}

bool check_warmup(struct ctx *c, struct series *s, size_t nr)
{
	bool any = false;

	for (size_t i = 0; i < nr; i++) {
		struct stats_summary st;
		double dev, lim;
		char *subj;

		if (s[i].n < CHECK_MIN_REPS)
			continue;
		any = true;
		stats_summarize(s[i].x + 1, s[i].n - 1, &st);
		if (!(st.mean != 0))
			continue;
		dev = 100 * (s[i].x[0] / st.mean - 1);
		lim = fmax(2 * c->o->min_change_pct,
			   4 * (isfinite(st.cov_pct) ? st.cov_pct : 0));
		if (fabs(dev) <= lim)
			continue;
		subj = xasprintf("%s %s", s[i].tname, s[i].wl);
		check_add(c, "warm-up", CHECK_WARNING, subj,
		    "first repetition's %s is %+.1f %% off the mean of the "
		    "other %zu (CoV %.1f %%): a warm-up; discard it or run one "
		    "unrecorded repetition first", s[i].what, dev, s[i].n - 1,
		    isfinite(st.cov_pct) ? st.cov_pct : 0);
		free(subj);
	}
	if (!any)
		check_unchecked(c, "warm-up", "fewer than %d repetitions", CHECK_MIN_REPS);
	return any;
}

bool check_short(struct ctx *c)
{
	bool any = false;

	for (size_t i = 0; i < c->nr_g; i++) {
		const struct pgroup *g = &c->g[i];
		double mean;
		char *s;

		/* A phase that reported no work and moved no device bytes
		 * is bookkeeping (compilebench's summary): its wall time is
		 * no rate's denominator, so its length is no finding. */
		if (!g->inst || (!g->work && !(g->device > 0)))
			continue;
		any = true;
		mean = g->wall / (double)g->inst;
		if (!g->too_short && mean >= c->o->min_wall_s)
			continue;
		s = check_subject(g);
		check_add(c, "short-phase", CHECK_WARNING, s,
		    "mean wall time %.1f ms%s, below the %.0f ms compare "
		    "needs to judge it; give the workload more work (files=, "
		    "size=, runs=)", 1e3 * mean,
		    g->too_short ? " (below the clock's resolution)" : "",
		    1e3 * c->o->min_wall_s);
		free(s);
	}
	if (!any)
		check_unchecked(c, "short-phase", "no timed phase");
	return any;
}

/* "interval.N.NAME" or "trace.ts.N.NAME" with a rate NAME: N, NAME. */
static const char *series_point(const char *metric, long *idx, size_t *plen)
{
	static const char *const pre[] = { "interval.", "trace.ts." };

	for (size_t i = 0; i < ARRAY_SIZE(pre); i++) {
		size_t pl = strlen(pre[i]);
		char *end;

		if (strncmp(metric, pre[i], pl))
			continue;
		*idx = strtol(metric + pl, &end, 10);
		if (end == metric + pl || *end != '.' || *idx < 0)
			return NULL;
		end++;
		*plen = pl;
		if (strstr(end, "/s") || (strlen(end) > 2 &&
					  !strcmp(end + strlen(end) - 2, "_s")))
			return end;
		return NULL;
	}
	return NULL;
}

/* Least-squares slope of y over 0..n-1, its t statistic and the mean. */
static void fit(const double *y, size_t n, double *slope, double *t,
		double *mean)
{
	double mx = (double)(n - 1) / 2, my = stats_mean(y, n), sxx = 0,
	       sxy = 0, sse = 0, b, a;

	for (size_t i = 0; i < n; i++) {
		sxx += ((double)i - mx) * ((double)i - mx);
		sxy += ((double)i - mx) * (y[i] - my);
	}
	b = sxx > 0 ? sxy / sxx : 0;
	a = my - b * mx;
	for (size_t i = 0; i < n; i++) {
		double e = y[i] - (a + b * (double)i);

		sse += e * e;
	}
	*slope = b;
	*mean = my;
	*t = sse > 0 && n > 2 ? b / sqrt(sse / (double)(n - 2) / sxx)
			      : (b != 0 ? INFINITY : 0);
}

static void trend_phase(struct ctx *c, const struct target_rec *t,
			const struct wlrun_rec *w, const struct phase_rec *p,
			bool *any, bool *reported)
{
	for (size_t m = 0; m < p->nr_metrics && !*reported; m++) {
		long idx;
		size_t pl = 0;
		const char *mname = p->metrics[m].name;
		const char *name = series_point(mname, &idx, &pl);
		double *y = NULL, slope, tt, mean, change;
		size_t n = 0, alloc = 0;

		if (!name || idx != 0)
			continue;
		/* Gather the series N = 0, 1, ... with the same name. */
		for (long k = 0;; k++) {
			char *want = xasprintf("%.*s%ld.%s", (int)pl, mname, k,
					       name);
			const struct metric *mm = phase_rec_metric(p, want);

			free(want);
			if (!mm)
				break;
			ALLOC_GROW(y, n + 1, alloc);
			y[n++] = mm->value;
		}
		if (n < TREND_MIN_POINTS) {
			free(y);
			continue;
		}
		*any = true;
		fit(y, n, &slope, &tt, &mean);
		change = mean != 0 ? slope * (double)(n - 1) / mean : 0;
		if (fabs(change) >= TREND_MIN_CHANGE && fabs(tt) >= TREND_MIN_T) {
			char *s = xasprintf("%s %s/%s", t && t->name ? t->name
							      : "?",
					    w->workload, p->name);

			check_add(c, "trend", CHECK_WARNING, s,
			    "%s %s by %.0f %% from first to last of %zu "
			    "intervals (t %.1f): no steady state; run it "
			    "longer, or judge the steady part", name,
			    change < 0 ? "falls" : "rises", 100 * fabs(change),
			    n, tt);
			free(s);
			*reported = true;
		}
		free(y);
	}
}

bool check_trend(struct ctx *c)
{
	bool any = false;

	for (size_t i = 0; i < c->r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &c->r->wlruns[i];
		const struct target_rec *t = run_rec_target(c->r, w);
		bool reported = false;

		/* One finding per workload run at most: the first series
		 * that trends says enough. */
		for (size_t k = 0; k < w->nr_phases && !reported; k++)
			if (w->phases[k].status == PHASE_OK)
				trend_phase(c, t, w, &w->phases[k], &any,
					    &reported);
	}
	if (!any)
		check_unchecked(c, "trend", "no interval series recorded");
	return any;
}

void shape_series_free(struct series *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(s[i].x);
	free(s);
}
