/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sequential.c - alpha-spending boundaries by numerical integration,
 * the Holm-sequential look, and the pilot simulation (see sequential.h
 * for the method and the references).
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sequential.h"
#include "util/util.h"

/* Grid points over the continuation region (odd, for Simpson). */
#define GRID 401

int seq_design_init(struct seq_design *d, int min_n, int max_n,
		    double alpha)
{
	memset(d, 0, sizeof(*d));
	if (min_n < 1 || max_n < min_n || max_n - min_n + 1 > SEQ_MAX_LOOKS ||
	    !(alpha > 0 && alpha < 1))
		return -1;
	d->min_n = min_n;
	d->max_n = max_n;
	d->nr_looks = (size_t)(max_n - min_n + 1);
	d->alpha = alpha;
	return 0;
}

void seq_design_release(struct seq_design *d)
{
	for (size_t i = 0; i < d->nr_lv; i++)
		free(d->lv[i].z);
	free(d->lv);
	memset(d, 0, sizeof(*d));
}

double seq_spend(double a, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return a;
	return a * log(1.0 + (M_E - 1.0) * t);
}

static double simpson_w(size_t i, size_t n, double h)
{
	if (i == 0 || i == n - 1)
		return h / 3.0;
	return (i % 2 ? 4.0 : 2.0) * h / 3.0;
}

/* P(|S_k| >= b) for S_k = S_{k-1} + N(0, delta), S_{k-1} ~ f on x. */
static double crossing(const double *x, const double *f, double b,
		       double delta)
{
	double sd = sqrt(delta), p = 0;

	for (size_t i = 0; i < GRID; i++)
		p += f[i] * (gsl_cdf_ugaussian_P((-b - x[i]) / sd) +
			     gsl_cdf_ugaussian_Q((b - x[i]) / sd));
	return p;
}

/*
 * The boundaries of level a, look by look.  f holds the sub-density of
 * the score S_k = Z_k sqrt(t_k) on the continuation region, already
 * multiplied by the Simpson weights of its grid x.
 */
static void compute_level(const struct seq_design *d, double a, double *z)
{
	double *x = xcalloc(GRID, sizeof(*x)), *f = xcalloc(GRID, sizeof(*f));
	double *y = xcalloc(GRID, sizeof(*y)), *g = xcalloc(GRID, sizeof(*g));
	double tprev = 0;

	for (size_t k = 0; k < d->nr_looks; k++) {
		double t = (double)(d->min_n + (int)k) / (double)d->max_n;
		double target = seq_spend(a, t) - seq_spend(a, tprev);
		double delta = t - tprev, lo = 0, hi = 40, c, b, h, sd;

		if (k == 0) {
			c = target > 0 ? gsl_cdf_ugaussian_Qinv(target / 2)
				       : hi;
		} else if (!(target > 0)) {
			c = hi;
		} else {
			for (int it = 0; it < 60; it++) {
				c = (lo + hi) / 2;
				if (crossing(x, f, c * sqrt(t), delta) > target)
					lo = c;
				else
					hi = c;
			}
			c = (lo + hi) / 2;
		}
		z[k] = c;
		/* The density on the new continuation region. */
		b = fmin(c, 12.0) * sqrt(t);
		h = 2 * b / (GRID - 1);
		sd = sqrt(delta);
		for (size_t j = 0; j < GRID; j++) {
			double s = 0, u;

			y[j] = -b + (double)j * h;
			if (k == 0) {
				u = y[j] / sd;
				s = exp(-0.5 * u * u);
			} else {
				for (size_t i = 0; i < GRID; i++) {
					u = (y[j] - x[i]) / sd;
					s += f[i] * exp(-0.5 * u * u);
				}
			}
			g[j] = s / (sd * sqrt(2 * M_PI)) *
			       simpson_w(j, GRID, h);
		}
		memcpy(x, y, GRID * sizeof(*x));
		memcpy(f, g, GRID * sizeof(*f));
		tprev = t;
	}
	free(x);
	free(f);
	free(y);
	free(g);
}

static const double *level_bounds(struct seq_design *d, double a)
{
	struct seq_level *l;

	for (size_t i = 0; i < d->nr_lv; i++)
		if (d->lv[i].level == a)
			return d->lv[i].z;
	ALLOC_GROW(d->lv, d->nr_lv + 1, d->alloc_lv);
	l = &d->lv[d->nr_lv++];
	l->level = a;
	l->z = xcalloc(d->nr_looks, sizeof(*l->z));
	compute_level(d, a, l->z);
	return l->z;
}

double seq_zbound(struct seq_design *d, double a, int n)
{
	if (n < d->min_n || n > d->max_n || !(a > 0 && a < 1))
		return NAN;
	return level_bounds(d, a)[n - d->min_n];
}

double seq_nominal_p(struct seq_design *d, double a, int n)
{
	double z = seq_zbound(d, a, n);

	return isnan(z) ? NAN : 2 * gsl_cdf_ugaussian_Q(z);
}

static double seq_tcrit(struct seq_design *d, double a, int n, double df)
{
	double p = seq_nominal_p(d, a, n);

	if (isnan(p) || !(df > 0))
		return NAN;
	if (!(p > 0))
		return INFINITY;
	return gsl_cdf_tdist_Qinv(p / 2, df);
}

const char *seq_decision_name(enum seq_decision d)
{
	return d == SEQ_DIFFERENT ? "different" :
	       d == SEQ_EQUIVALENT ? "equivalent" : "undecided";
}

static double raw_p(const struct seq_cmp *c)
{
	if (c->se == 0)
		return c->log_ratio == 0 ? 1.0 : 0.0;
	return 2 * gsl_cdf_tdist_Q(fabs(c->log_ratio) / c->se, c->df);
}

static bool testable(const struct seq_cmp *c)
{
	return isfinite(c->log_ratio) && isfinite(c->se) && c->se >= 0 &&
	       (c->se == 0 || c->df > 0);
}

static int by_p(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Holm, carried across looks: reject in order of p while each p is
 * below the boundary of level alpha / (m - rejected so far). */
static void holm_step(struct seq_design *d, int n, struct seq_cmp *c,
		      size_t m)
{
	double (*ord)[2] = xcalloc(m + 1, sizeof(*ord));
	size_t r = 0, k = 0;

	for (size_t i = 0; i < m; i++) {
		if (c[i].rejected) {
			r++;
			continue;
		}
		if (c[i].decision != SEQ_UNDECIDED || !testable(&c[i]))
			continue;
		ord[k][0] = raw_p(&c[i]);
		ord[k++][1] = (double)i;
	}
	qsort(ord, k, sizeof(*ord), by_p);
	for (size_t j = 0; j < k && r < m; j++) {
		double a = d->alpha / (double)(m - r);

		if (!(ord[j][0] < seq_nominal_p(d, a, n)))
			break;
		c[(size_t)ord[j][1]].rejected = true;
		c[(size_t)ord[j][1]].level = a;
		r++;
	}
	free(ord);
}

static double pct_of(double l)
{
	return 100.0 * (exp(l) - 1.0);
}

size_t seq_look(struct seq_design *d, int n, struct seq_cmp *c, size_t m,
		double min_change_pct, double power)
{
	double a = d->alpha / (double)(m ? m : 1);
	size_t open = 0;

	holm_step(d, n, c, m);
	for (size_t i = 0; i < m; i++) {
		struct seq_cmp *x = &c[i];
		double tc, te, tp, lo_e, hi_e;

		if (x->decision != SEQ_UNDECIDED)
			continue;
		if (!testable(x)) {
			x->pct = x->lo_pct = x->hi_pct = x->mdc_pct = NAN;
			open++;
			continue;
		}
		x->pct = pct_of(x->log_ratio);
		/* the interval belonging to the test: Holm's level when
		 * rejected (it excludes no change), else the first step's */
		tc = x->se ? seq_tcrit(d, x->rejected ? x->level : a, n,
				       x->df) : 0;
		te = x->se ? seq_tcrit(d, fmin(2 * a, 0.5), n, x->df) : 0;
		tp = x->se ? gsl_cdf_tdist_Pinv(power, x->df) : 0;
		x->lo_pct = pct_of(x->log_ratio - tc * x->se);
		x->hi_pct = pct_of(x->log_ratio + tc * x->se);
		x->mdc_pct = fmax(pct_of(((x->se ? seq_tcrit(d, a, n, x->df)
					   : 0) + tp) * x->se),
				  min_change_pct);
		lo_e = pct_of(x->log_ratio - te * x->se);
		hi_e = pct_of(x->log_ratio + te * x->se);
		if (x->rejected && fabs(x->pct) >= min_change_pct)
			x->decision = SEQ_DIFFERENT;
		else if (lo_e > -min_change_pct && hi_e < min_change_pct)
			x->decision = SEQ_EQUIVALENT;
		if (x->decision != SEQ_UNDECIDED)
			x->decided_n = n;
		else
			open++;
	}
	return open;
}

/* ---- simulation ---- */

/* Mean and sample sd of the first n of x. */
static void mean_sd(const double *x, int n, double *mean, double *sd)
{
	double s = 0, ss = 0;

	for (int i = 0; i < n; i++)
		s += x[i];
	*mean = s / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = sqrt(ss / (n - 1));
}

/* The log ratio of two log-scale samples: estimate, SE, Welch df. */
static void log_ratio(const double *la, const double *lb, int n,
		      struct seq_cmp *c)
{
	double ma, sa, mb, sb, va, vb;

	mean_sd(la, n, &ma, &sa);
	mean_sd(lb, n, &mb, &sb);
	va = sa * sa / n;
	vb = sb * sb / n;
	c->log_ratio = mb - ma;
	c->se = sqrt(va + vb);
	c->df = va + vb > 0 ? (va + vb) * (va + vb) /
		(va * va / (n - 1) + vb * vb / (n - 1)) : NAN;
}

void seq_simulate(int min_n, int max_n, double alpha, size_t m,
		  double cov_pct, double change_pct, double min_change_pct,
		  size_t nsim, uint64_t seed, struct seq_sim *out)
{
	double sigma = sqrt(log(1 + cov_pct * cov_pct / 1e4));
	double shift = log(1 + change_pct / 100.0);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *la = xcalloc(m * (size_t)max_n + 1, sizeof(*la));
	double *lb = xcalloc(m * (size_t)max_n + 1, sizeof(*lb));
	struct seq_cmp *c = xcalloc(m + 1, sizeof(*c));
	size_t pow = 0, fa = 0, eq = 0, sum_n = 0;
	struct seq_design d;

	memset(out, 0, sizeof(*out));
	if (seq_design_init(&d, min_n, max_n, alpha) < 0 || !m || !nsim) {
		out->power = out->false_alarm = out->equivalent = NAN;
		out->mean_n = NAN;
		goto done;
	}
	gsl_rng_set(rng, (unsigned long)seed);
	for (size_t s = 0; s < nsim; s++) {
		size_t open = m, ndiff = 0, nright = 0, neq = 0;
		int n;

		memset(c, 0, m * sizeof(*c));
		for (n = 1; n <= max_n; n++) {
			for (size_t j = 0; j < m; j++) {
				la[j * max_n + n - 1] =
					gsl_ran_gaussian_ziggurat(rng, sigma);
				lb[j * max_n + n - 1] = shift +
					gsl_ran_gaussian_ziggurat(rng, sigma);
			}
			if (n < min_n)
				continue;
			for (size_t j = 0; j < m; j++)
				log_ratio(la + j * max_n, lb + j * max_n, n,
					  &c[j]);
			open = seq_look(&d, n, c, m, min_change_pct, 0.8);
			if (!open)
				break;
		}
		sum_n += (size_t)(n > max_n ? max_n : n);
		for (size_t j = 0; j < m; j++) {
			ndiff += c[j].decision == SEQ_DIFFERENT;
			nright += c[j].decision == SEQ_DIFFERENT &&
				  (c[j].pct > 0) == (shift > 0);
			neq += c[j].decision == SEQ_EQUIVALENT;
		}
		pow += nright == m;
		fa += ndiff > 0;
		eq += neq == m;
	}
	out->power = (double)pow / (double)nsim;
	out->false_alarm = (double)fa / (double)nsim;
	out->equivalent = (double)eq / (double)nsim;
	out->mean_n = (double)sum_n / (double)nsim;
done:
	seq_design_release(&d);
	gsl_rng_free(rng);
	free(la);
	free(lb);
	free(c);
}

int seq_fixed_n(double cov_pct, double change_pct, double a, double power,
		int max_n)
{
	double s = sqrt(log(1 + cov_pct * cov_pct / 1e4));
	double eff = fabs(log(1 + change_pct / 100.0));

	if (!(s > 0) || !(eff > 0))
		return 0;
	for (int n = 2; n <= max_n; n++) {
		double df = 2.0 * (n - 1);
		double need = gsl_cdf_tdist_Qinv(a / 2, df) +
			      gsl_cdf_tdist_Pinv(power, df);

		if (need * s * sqrt(2.0 / n) <= eff)
			return n;
	}
	return 0;
}
