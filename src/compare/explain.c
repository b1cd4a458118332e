// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain.c - the co-metrics that moved with a key metric (explain.h):
 * per-repetition samples normalised per unit of work, log-ratio tests,
 * Benjamini-Hochberg per configuration and phase, floors, ranking.
 */
#include "compare/explain.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cometric/cometric.h"
#include "stats/padjust.h"
#include "stats/stats.h"
#include "stats/ttest.h"
#include "util/util.h"

void explain_opts_init(struct explain_opts *o)
{
	o->q = EXPLAIN_Q;
	o->alpha = COMPARE_ALPHA;
	o->max_leads = EXPLAIN_MAX_LEADS;
}

/*
 * Practical floors per family, in %: below it a change is not a lead
 * however significant.  Machine-wide figures (vm., psi., proc.) see
 * every other process, pressure stalls most of all; the filesystem's and
 * the device's own counters count this target's work alone ("own"), so a
 * small floor suffices and their Poisson floor is a model (test_one).
 */
static const struct {
	const char *prefix;
	double floor_pct;
	bool own;
} floors[] = {
	{ "vm.", 5, false },   { "proc.", 10, false }, { "dev.", 5, true },
	{ "psi.", 20, false }, { "jbd2.", 5, true },   { "ext4.", 5, true },
	{ "xfs.", 5, true },   { "btrfs.", 5, true },  { "cpu.", 2, true },
};

/* Figures every phase or every traced phase has, read as evidence too. */
static const struct {
	const char *name;
	double floor_pct;
	bool per_work;
} others[] = {
	{ "dev_read_ios", 5, true },  { "dev_read_MiB", 5, true },
	{ "dev_write_ios", 5, true }, { "dev_write_MiB", 5, true },
	{ "user_s", 10, true },       { "sys_s", 10, true },
	{ "sys_cpu_pct", 10, false }, { "trace.seeks", 5, true },
	{ "trace.layout_score", 5, false }, { "disk.time_s", 5, true },
};

bool explain_candidate(const char *metric, double *floor_pct,
		       bool *per_work)
{
	const struct cometric_def *def;

	for (size_t i = 0; i < ARRAY_SIZE(others); i++)
		if (!strcmp(metric, others[i].name)) {
			*floor_pct = others[i].floor_pct;
			*per_work = others[i].per_work;
			return true;
		}
	def = cometric_def(metric);
	if (!def || def->kind == CO_RAW)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(floors); i++)
		if (!strncmp(metric, floors[i].prefix,
			     strlen(floors[i].prefix))) {
			*floor_pct = floors[i].floor_pct;
			*per_work = def->per_work;
			return true;
		}
	return false;
}

/*
 * The unit a co-metric's raw value counts in: events (faults, requests,
 * commits), 512-byte sectors, pages; 0 for continuous figures (times,
 * levels, ratios).  A count of events varies between repetitions by
 * at least about its square root (Poisson), whatever the handful of
 * repetitions shows: without that floor 2, 2, 2 context switches
 * against 1, 1, 1 have no spread at all and a p-value of 0, a lead out
 * of nothing.
 */
static double quantum(const char *metric, const char *unit)
{
	static const char *const continuous[] = { "s", "%", "ms", "MHz", "" };
	const struct cometric_def *def = cometric_def(metric);

	if (def && def->kind == CO_DERIVED) /* ratios of counters */
		return 0;
	if (!strcmp(unit, "B"))
		return !strncmp(metric, "vm.", 3) ? 4096 : 512;
	if (!strcmp(unit, "MiB"))
		return 512.0 / 1048576.0;
	for (size_t i = 0; i < ARRAY_SIZE(continuous); i++)
		if (!strcmp(unit, continuous[i]))
			return 0;
	return 1;
}

size_t explain_fdr(const double *p, size_t n, double q, bool *lead,
		   double *q_adj)
{
	double *adj = xcalloc(n + 1, sizeof(*adj));
	size_t k = 0;

	padjust_bh(p, n, adj);
	for (size_t i = 0; i < n; i++) {
		lead[i] = isfinite(adj[i]) && adj[i] < q;
		k += lead[i];
		if (q_adj)
			q_adj[i] = adj[i];
	}
	free(adj);
	return k;
}

/* ---- samples ---- */

enum per { PER_NONE, PER_FILE, PER_MIB, PER_OP };

static const char *per_name(enum per p)
{
	return p == PER_FILE ? "file" : p == PER_MIB ? "MiB" :
	       p == PER_OP ? "op" : NULL;
}

static bool phase_ok(const struct phase_rec *ph, const char *phase)
{
	return ph->status == PHASE_OK && ph->name && !strcmp(ph->name, phase);
}

/* The unit of work every repetition of both groups did some of. */
static enum per pick_per(const struct cmp_group *const gs[2],
			 const char *phase)
{
	bool files = true, bytes = true, ops = true, any = false;

	for (int g = 0; g < 2; g++)
		for (size_t r = 0; r < gs[g]->nr_reps; r++) {
			const struct wlrun_rec *w = gs[g]->reps[r];
			uint64_t f = 0, b = 0, o = 0;

			for (size_t p = 0; p < w->nr_phases; p++)
				if (phase_ok(&w->phases[p], phase)) {
					f += w->phases[p].files;
					b += w->phases[p].bytes;
					o += w->phases[p].ops;
				}
			files &= f > 0;
			bytes &= b > 0;
			ops &= o > 0;
			any = true;
		}
	if (!any)
		return PER_NONE;
	return files ? PER_FILE : bytes ? PER_MIB : ops ? PER_OP : PER_NONE;
}

static double work_of(const struct phase_rec *ph, enum per per)
{
	return per == PER_FILE ? (double)ph->files :
	       per == PER_MIB ? (double)ph->bytes / 1048576.0 :
	       per == PER_OP ? (double)ph->ops : 1;
}

/*
 * One figure per repetition of metric in phase: the phase's instances
 * summed and divided by their work (per_work), else their mean.
 */
static size_t sample(const struct cmp_group *g, const char *phase,
		     const char *metric, bool per_work, enum per per,
		     double **out, double *mean_work)
{
	double *x = xcalloc(g->nr_reps + 1, sizeof(*x));
	double wsum = 0;
	size_t n = 0;

	for (size_t r = 0; r < g->nr_reps; r++) {
		const struct wlrun_rec *w = g->reps[r];
		double sum = 0, work = 0;
		size_t k = 0;

		for (size_t p = 0; p < w->nr_phases; p++) {
			const struct phase_rec *ph = &w->phases[p];
			const struct metric *m;

			if (!phase_ok(ph, phase))
				continue;
			m = phase_rec_metric(ph, metric);
			if (!m || !isfinite(m->value))
				continue;
			sum += m->value;
			work += work_of(ph, per);
			k++;
		}
		if (!k)
			continue;
		if (per_work && per != PER_NONE)
			x[n++] = work > 0 ? sum / work : NAN;
		else
			x[n++] = sum / (double)k;
		if (!isfinite(x[n - 1]))
			n--;
		else
			wsum += per_work && per != PER_NONE ? work : (double)k;
	}
	*out = x;
	if (mean_work)
		*mean_work = n ? wsum / (double)n : 0;
	return n;
}

static void to_sample(const double *x, size_t n, struct ttest_sample *s)
{
	s->n = n;
	s->mean = n ? stats_mean(x, n) : NAN;
	s->sd = n > 1 ? stats_stddev(x, n) : NAN;
}

/*
 * Test one co-metric; false when it cannot be tested (too few
 * repetitions, zero in both).  The standard deviations are at least
 * the Poisson floor of a count (see quantum()).  Fills base/mean/pct/
 * interval/p/effect.
 */
/* The Poisson floor of a sample's sd: q the counting unit, w the work
 * one figure is divided by. */
static double count_floor(const struct ttest_sample *s, double q, double w)
{
	double raw;

	if (!(q > 0) || !(w > 0) || !isfinite(s->mean))
		return 0;
	raw = s->mean * w / q; /* units counted in one repetition */
	return q * sqrt(fmax(raw, 0.25)) / w;
}

/*
 * Welch-Satterthwaite degrees of freedom of the log ratio when a
 * group's variance is the Poisson floor rather than its own estimate.
 * The t distribution's few degrees of freedom stand for the doubt in a
 * variance estimated from a handful of repetitions; a floor is a model
 * value, not an estimate, so its term carries no such doubt (infinite
 * df).  With both groups floored the statistic is the normal test of
 * two Poisson rates: 4, 4, 4 timer commits against 12, 12, 12 gives
 * p = 0.001 (the exact conditional binomial test of 12 in 48: 0.0009),
 * where the t with the samples' 3.2 df gave 0.04, too weak to pass BH
 * over forty-odd co-metrics.
 */
static double floored_df(const struct ttest_sample *a, bool fa,
			 const struct ttest_sample *b, bool fb)
{
	double ra = a->sd * a->sd / ((double)a->n * a->mean * a->mean);
	double rb = b->sd * b->sd / ((double)b->n * b->mean * b->mean);
	double den = (fa ? 0 : ra * ra / ((double)a->n - 1)) +
		     (fb ? 0 : rb * rb / ((double)b->n - 1));

	return den > 0 ? (ra + rb) * (ra + rb) / den : INFINITY;
}

/*
 * Is the Poisson floor a fair model of metric's spread?  For the
 * filesystem's and the device's own counters, yes (floors[].own).
 * Machine-wide figures also count every other process, overdispersed
 * beyond Poisson: their floor keeps the t's doubt (measured: with the
 * model floor for them, 8 of 100 real A/A comparisons listed a lead, 4
 * without).
 */
static bool floor_is_model(const char *metric)
{
	for (size_t i = 0; i < ARRAY_SIZE(floors); i++)
		if (!strncmp(metric, floors[i].prefix,
			     strlen(floors[i].prefix)))
			return floors[i].own;
	return true;
}

static bool test_one(const double *xa, size_t na, const double *xb,
		     size_t nb, double q, double wa, double wb, double alpha,
		     bool model_floor, struct explain_lead *l)
{
	struct ttest_sample a, b;
	double r, lo, hi, se, df, fla, flb;
	bool fa, fb;

	if (na < 2 || nb < 2)
		return false;
	to_sample(xa, na, &a);
	to_sample(xb, nb, &b);
	fla = count_floor(&a, q, wa);
	flb = count_floor(&b, q, wb);
	fa = fla > a.sd;
	fb = flb > b.sd;
	a.sd = fmax(a.sd, fla);
	b.sd = fmax(b.sd, flb);
	l->base = a.mean;
	l->mean = b.mean;
	l->pct = l->pct_lo = l->pct_hi = NAN;
	if (a.mean > 0 && b.mean > 0) {
		if (ttest_ratio_ci_log(&a, &b, alpha, &r, &lo, &hi, &se,
				       &df) < 0)
			return false;
		if ((fa || fb) && se > 0 && model_floor) {
			double h;

			df = floored_df(&a, fa, &b, fb);
			if (isinf(df)) {
				h = gsl_cdf_ugaussian_Qinv(alpha / 2) * se;
				l->p = fmin(1.0, 2 * gsl_cdf_ugaussian_Q(
							 fabs(log(r)) / se));
			} else {
				h = ttest_tcrit(alpha, df) * se;
				l->p = ttest_log_ratio_p(r, se, df);
			}
			lo = r * exp(-h);
			hi = r * exp(h);
		} else {
			l->p = ttest_log_ratio_p(r, se, df);
		}
		l->pct = 100 * (r - 1);
		l->pct_lo = 100 * (lo - 1);
		l->pct_hi = 100 * (hi - 1);
		l->effect = fabs(log(r));
	} else if (a.mean == 0 && b.mean == 0) {
		return false;
	} else {
		/* From or to nothing (allocation stalls that appear): no
		 * ratio, Welch's test of the difference. */
		struct welch_result w;

		if (ttest_welch(&a, &b, alpha, &w) < 0)
			return false;
		l->p = w.p;
		l->pct = a.mean > 0 && b.mean == 0 ? -100 : INFINITY;
		l->effect = INFINITY;
	}
	return isfinite(l->p);
}

static int by_effect(const void *pa, const void *pb)
{
	const struct explain_lead *a = pa, *b = pb;

	if (a->effect != b->effect)
		return a->effect > b->effect ? -1 : 1;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return strcmp(a->metric, b->metric);
}

static void lead_release(struct explain_lead *l)
{
	free(l->metric);
	free(l->unit);
}

/* The names of every candidate co-metric phase has in group g. */
static void candidates(const struct cmp_group *g, const char *phase,
		       const char ***names, size_t *nr, size_t *alloc)
{
	for (size_t r = 0; r < g->nr_reps; r++) {
		const struct wlrun_rec *w = g->reps[r];

		for (size_t p = 0; p < w->nr_phases; p++) {
			const struct phase_rec *ph = &w->phases[p];

			if (!phase_ok(ph, phase))
				continue;
			for (size_t m = 0; m < ph->nr_metrics; m++) {
				const char *name = ph->metrics[m].name;
				double fl;
				bool pw, dup = false;

				if (!name || !explain_candidate(name, &fl, &pw))
					continue;
				for (size_t k = 0; k < *nr && !dup; k++)
					dup = !strcmp((*names)[k], name);
				if (dup)
					continue;
				ALLOC_GROW(*names, *nr + 1, *alloc);
				(*names)[(*nr)++] = name;
			}
		}
	}
}

static const char *metric_unit(const struct cmp_group *g, const char *phase,
			       const char *metric)
{
	for (size_t r = 0; r < g->nr_reps; r++)
		for (size_t p = 0; p < g->reps[r]->nr_phases; p++) {
			const struct phase_rec *ph = &g->reps[r]->phases[p];
			const struct metric *m;

			if (phase_ok(ph, phase) &&
			    (m = phase_rec_metric(ph, metric)) && m->unit)
				return m->unit;
		}
	return "";
}

static void link_of(const struct cmp_group *const gs[2], const char *phase,
		    const char *metric, bool per_work, enum per per,
		    struct explain_link *l)
{
	double *x[2];
	size_t n[2];

	for (int g = 0; g < 2; g++)
		n[g] = sample(gs[g], phase, metric, per_work, per, &x[g],
			      NULL);
	l->have = n[0] && n[1];
	if (l->have) {
		l->base = stats_mean(x[0], n[0]);
		l->mean = stats_mean(x[1], n[1]);
		l->pct = l->base != 0 ? 100 * (l->mean / l->base - 1) : NAN;
	}
	free(x[0]);
	free(x[1]);
}

static void explain_phase(const struct cmp_table *t,
			  const struct cmp_group *groups, size_t ti,
			  size_t g, const char *phase,
			  const struct explain_opts *o, struct explain *out)
{
	const struct cmp_group *gs[2] = { &groups[0], &groups[g] };
	struct explain_item *it;
	const char **names = NULL;
	size_t nr_names = 0, alloc = 0;
	struct explain_lead *all;
	double *p;
	bool *lead;
	enum per per = pick_per(gs, phase);
	size_t n = 0;

	ALLOC_GROW(out->items, out->nr + 1, out->alloc);
	it = &out->items[out->nr++];
	memset(it, 0, sizeof(*it));
	it->table = ti;
	it->group = g;
	it->phase = xstrdup(phase);
	it->per = per_name(per);
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct cmp_row *row = &t->rows[i];
		struct explain_key *k;

		if (!row->key || strcmp(row->phase, phase) ||
		    !row->d[g].tested)
			continue;
		it->keys = xrealloc(it->keys, (it->nr_keys + 1) *
						      sizeof(*it->keys));
		k = &it->keys[it->nr_keys++];
		k->metric = xstrdup(row->metric);
		k->pct = row->d[g].pct;
		k->pct_lo = row->d[g].pct_lo;
		k->pct_hi = row->d[g].pct_hi;
		k->verdict = row->d[g].verdict;
		k->mdc_pct = row->d[g].mdc_pct;
		it->changed |= row->d[g].significant;
	}

	candidates(gs[0], phase, &names, &nr_names, &alloc);
	all = xcalloc(nr_names + 1, sizeof(*all));
	p = xcalloc(nr_names + 1, sizeof(*p));
	lead = xcalloc(nr_names + 1, sizeof(*lead));
	for (size_t i = 0; i < nr_names; i++) {
		struct explain_lead l = { 0 };
		double *xa, *xb, fl, wa, wb, qu;
		const char *u;
		size_t na, nb;
		bool pw;

		explain_candidate(names[i], &fl, &pw);
		for (size_t k = 0; k < it->nr_keys && fl >= 0; k++)
			if (!strcmp(it->keys[k].metric, names[i]))
				fl = -1; /* a key metric does not explain itself */
		if (fl < 0)
			continue;
		na = sample(gs[0], phase, names[i], pw, per, &xa, &wa);
		nb = sample(gs[1], phase, names[i], pw, per, &xb, &wb);
		u = metric_unit(gs[0], phase, names[i]);
		qu = quantum(names[i], u);
		if (test_one(xa, na, xb, nb, qu, wa, wb, o->alpha,
			     floor_is_model(names[i]), &l)) {
			l.metric = xstrdup(names[i]);
			l.per = pw ? per_name(per) : NULL;
			l.unit = l.per ? xasprintf("%s/%s", u, l.per)
				       : xstrdup(u);
			l.floor_pct = fl;
			all[n] = l;
			p[n++] = l.p;
		}
		free(xa);
		free(xb);
	}
	it->nr_tested = n;
	{
		double *qa = xcalloc(n + 1, sizeof(*qa));

		explain_fdr(p, n, o->q, lead, qa);
		for (size_t i = 0; i < n; i++)
			all[i].q = qa[i];
		free(qa);
	}
	it->leads = xcalloc(n + 1, sizeof(*it->leads));
	for (size_t i = 0; i < n; i++) {
		if (lead[i] && fabs(all[i].pct) >= all[i].floor_pct)
			it->leads[it->nr_leads++] = all[i];
		else
			lead_release(&all[i]);
	}
	qsort(it->leads, it->nr_leads, sizeof(*it->leads), by_effect);
	it->nr_leads_all = it->nr_leads;
	while (it->nr_leads > o->max_leads)
		lead_release(&it->leads[--it->nr_leads]);

	/* Layout -> seeks per MiB -> modelled time, when all three exist. */
	link_of(gs, phase, "trace.layout_score", false, PER_NONE, &it->layout);
	link_of(gs, phase, "trace.seeks", true,
		per == PER_NONE ? PER_NONE : PER_MIB, &it->seeks_per_mib);
	link_of(gs, phase, "disk.time_s", false, PER_NONE, &it->disk_s);
	free(all);
	free(p);
	free(lead);
	free(names);
}

void explain_build(const struct cmp_table *tabs,
		   const struct cmp_group *const *groups, size_t nr,
		   const struct explain_opts *o, struct explain *out)
{
	memset(out, 0, sizeof(*out));
	out->q = o->q;
	for (size_t ti = 0; ti < nr; ti++) {
		const struct cmp_table *t = &tabs[ti];

		for (size_t g = 1; g < t->nr_groups; g++) {
			const char **done = NULL;
			size_t nd = 0, ad = 0;

			if (t->failed[0] || t->failed[g])
				continue;
			for (size_t i = 0; i < t->nr_rows; i++) {
				const struct cmp_row *row = &t->rows[i];
				bool seen = false;

				if (!row->key || !row->d[g].tested)
					continue;
				for (size_t k = 0; k < nd && !seen; k++)
					seen = !strcmp(done[k], row->phase);
				if (seen)
					continue;
				ALLOC_GROW(done, nd + 1, ad);
				done[nd++] = row->phase;
				explain_phase(t, groups[ti], ti, g, row->phase,
					      o, out);
			}
			free(done);
		}
	}
}

void explain_release(struct explain *e)
{
	for (size_t i = 0; i < e->nr; i++) {
		struct explain_item *it = &e->items[i];

		for (size_t k = 0; k < it->nr_keys; k++)
			free(it->keys[k].metric);
		free(it->keys);
		for (size_t l = 0; l < it->nr_leads; l++)
			lead_release(&it->leads[l]);
		free(it->leads);
		free(it->phase);
	}
	free(e->items);
	memset(e, 0, sizeof(*e));
}
