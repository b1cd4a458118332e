// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * changepoint.c - E-divisive means with a t-test for significance (see
 * changepoint.h for the method and its sources).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "stats/changepoint.h"
#include "stats/stats.h"
#include "util/util.h"

void cp_opts_init(struct cp_opts *o)
{
	o->min_seg = CP_MIN_SEG;
	o->alpha = CP_ALPHA;
	o->min_step_pct = CP_MIN_STEP_PCT;
	o->log = false;
}

size_t cp_best_split(const double *x, size_t s, size_t e, size_t min_seg,
		     double *q)
{
	double a = 0, b = 0, c = 0, best = -INFINITY;
	size_t arg = s;

	*q = NAN;
	if (min_seg < 1)
		min_seg = 1;
	if (e < s + 2 * min_seg)
		return s;
	/* tau = s: everything on the right. */
	for (size_t j = s; j < e; j++)
		for (size_t k = j + 1; k < e; k++)
			c += fabs(x[j] - x[k]);
	/* Move point tau from the right side to the left one. */
	for (size_t tau = s; tau + 1 < e; tau++) {
		double l = 0, r = 0, n1, n2, e_stat, qq;

		for (size_t i = s; i < tau; i++)
			l += fabs(x[i] - x[tau]);
		for (size_t j = tau + 1; j < e; j++)
			r += fabs(x[tau] - x[j]);
		b += l;
		c -= r;
		a += r - l;
		n1 = (double)(tau + 1 - s);
		n2 = (double)(e - tau - 1);
		if (tau + 1 - s < min_seg || e - tau - 1 < min_seg)
			continue;
		e_stat = 2 * a / (n1 * n2) -
			 (n1 > 1 ? b / (n1 * (n1 - 1) / 2) : 0) -
			 (n2 > 1 ? c / (n2 * (n2 - 1) / 2) : 0);
		qq = n1 * n2 / (n1 + n2) * e_stat;
		/* Strictly greater: ties go to the earliest split, always. */
		if (qq > best) {
			best = qq;
			arg = tau + 1;
		}
	}
	*q = best;
	return arg;
}

/*
 * Is the change at tau between [s, tau) and [tau, e) real?  Student's
 * t-test with the pooled variance: a short segment's own standard
 * deviation, from three or four points, is too often tiny by chance for
 * Welch's test to be trusted there, while the noise of one benchmark
 * on one machine is much the same on both sides of a change.
 */
static bool significant(const double *x, size_t s, size_t tau, size_t e,
			const struct cp_opts *o, struct cp_point *pt)
{
	double n1 = (double)(tau - s), n2 = (double)(e - tau);
	double m1 = stats_mean(x + s, tau - s), m2 = stats_mean(x + tau, e - tau);
	double v1 = 0, v2 = 0, sp, t, step;

	pt->at = tau;
	pt->before = m1;
	pt->after = m2;
	pt->p = NAN;
	if (n1 < 2 || n2 < 2)
		return false;
	for (size_t i = s; i < tau; i++)
		v1 += (x[i] - m1) * (x[i] - m1);
	for (size_t i = tau; i < e; i++)
		v2 += (x[i] - m2) * (x[i] - m2);
	sp = sqrt((v1 + v2) / (n1 + n2 - 2));
	if (sp > 0) {
		t = (m2 - m1) / (sp * sqrt(1 / n1 + 1 / n2));
		pt->p = 2 * gsl_cdf_tdist_Q(fabs(t), n1 + n2 - 2);
	} else {
		pt->p = m1 == m2 ? 1 : 0;
	}
	if (o->log) {
		step = fabs(expm1(m2 - m1)) * 100;
		pt->before = exp(m1);
		pt->after = exp(m2);
	} else {
		step = m1 ? fabs(m2 - m1) / fabs(m1) * 100 :
		       m2 != m1 ? INFINITY : 0;
	}
	return pt->p < o->alpha && step >= o->min_step_pct;
}

/*
 * E-divisive finds the segment's change well but, being a statistic of
 * all pairwise distances, places it less precisely than the Gaussian
 * likelihood does when the change is a shift of the mean: near tau,
 * within min_seg runs, take the split that maximises the between-
 * segment sum of squares n1 n2 / n (mean1 - mean2)^2.
 */
static size_t refine(const double *x, size_t s, size_t e, size_t m,
		     size_t tau)
{
	size_t lo = tau > s + 2 * m ? tau - m : s + m;
	size_t hi = tau + m + m <= e ? tau + m : e - m;
	double total = 0, left = 0, best = -1;
	size_t arg = tau;

	for (size_t i = s; i < e; i++)
		total += x[i];
	for (size_t i = s; i < lo; i++)
		left += x[i];
	for (size_t t = lo; t <= hi; t++) {
		double n1 = (double)(t - s), n2 = (double)(e - t);
		double d = left / n1 - (total - left) / n2;
		double ss = n1 * n2 / (n1 + n2) * d * d;

		if (ss > best) {
			best = ss;
			arg = t;
		}
		left += x[t];
	}
	return arg;
}

/*
 * The between-segment sum of squares of splitting x[s, e) at t,
 * n1 n2 / n (mean1 - mean2)^2, from the prefix sums c (c[i] = x[0] +
 * ... + x[i - 1]).
 */
static double between_ss(const double *c, size_t s, size_t t, size_t e)
{
	double n1 = (double)(t - s), n2 = (double)(e - t);
	double d = (c[t] - c[s]) / n1 - (c[e] - c[t]) / n2;

	return n1 * n2 / (n1 + n2) * d * d;
}

/*
 * Once the change points are known, each is placed where it splits the
 * stretch between its neighbours best by least squares, over all of
 * that stretch (at least min_seg points from either neighbour), not
 * only within min_seg of where E-divisive put it: a point placed while
 * its segment still held another change was placed against the wrong
 * means.  A
 * point moves only when that is strictly better, and every move lowers
 * the series' total within-segment sum of squares, so the sweeps end;
 * the order is fixed, so the result is deterministic (the cap on sweeps
 * only guards against rounding making two splits trade places forever).
 */
void cp_refine(const double *x, size_t n, size_t min_seg,
	       struct cp_point *pts, size_t np)
{
	size_t m = min_seg < 1 ? 1 : min_seg;
	double *c = xcalloc(n + 1, sizeof(*c));
	bool moved = true;

	for (size_t i = 0; i < n; i++)
		c[i + 1] = c[i] + x[i];
	for (int sweep = 0; moved && sweep < 100; sweep++) {
		moved = false;
		for (size_t k = 0; k < np; k++) {
			size_t s = k ? pts[k - 1].at : 0;
			size_t e = k + 1 < np ? pts[k + 1].at : n;
			size_t arg = pts[k].at;
			double best = between_ss(c, s, arg, e);

			for (size_t t = s + m; t + m <= e; t++) {
				double ss = between_ss(c, s, t, e);

				if (ss > best) {
					best = ss;
					arg = t;
				}
			}
			moved |= arg != pts[k].at;
			pts[k].at = arg;
		}
	}
	free(c);
}

static int cmp_at(const void *a, const void *b)
{
	const struct cp_point *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

static size_t edivisive(const double *x, size_t n, const struct cp_opts *o,
			struct cp_point **out)
{
	struct seg {
		size_t s, e;
	} *stack = NULL;
	struct cp_point *pts = NULL;
	size_t nst = 0, ast = 0, np = 0, ap = 0;
	size_t m = o->min_seg < 2 ? 2 : o->min_seg;

	*out = NULL;
	ALLOC_GROW(stack, 1, ast);
	stack[nst++] = (struct seg){ 0, n };
	while (nst) {
		struct seg g = stack[--nst];
		struct cp_point pt;
		double q;
		size_t tau = cp_best_split(x, g.s, g.e, m, &q);

		if (tau != g.s)
			tau = refine(x, g.s, g.e, m, tau);
		if (tau == g.s || !significant(x, g.s, tau, g.e, o, &pt))
			continue;
		ALLOC_GROW(pts, np + 1, ap);
		pts[np++] = pt;
		ALLOC_GROW(stack, nst + 2, ast);
		stack[nst++] = (struct seg){ g.s, tau };
		stack[nst++] = (struct seg){ tau, g.e };
	}
	free(stack);
	if (!np)
		return 0;
	qsort(pts, np, sizeof(*pts), cmp_at);
	/*
	 * Second pass: each point placed between its neighbours, then
	 * tested against their segments; the weakest failing one is
	 * dropped, which widens its neighbours' stretches, so they are
	 * placed again.
	 */
	for (;;) {
		size_t worst = np;
		double worst_p = -1;

		cp_refine(x, n, m, pts, np);
		for (size_t k = 0; k < np; k++) {
			size_t s = k ? pts[k - 1].at : 0;
			size_t e = k + 1 < np ? pts[k + 1].at : n;

			if (!significant(x, s, pts[k].at, e, o, &pts[k]) &&
			    !(pts[k].p <= worst_p)) {
				worst = k;
				worst_p = isnan(pts[k].p) ? INFINITY : pts[k].p;
			}
		}
		if (worst == np)
			break;
		for (size_t k = worst; k + 1 < np; k++)
			pts[k] = pts[k + 1];
		np--;
	}
	if (!np) {
		free(pts);
		return 0;
	}
	*out = pts;
	return np;
}

size_t cp_edivisive(const double *x, size_t n, const struct cp_opts *o,
		    struct cp_point **out)
{
	struct cp_opts lin = *o;
	double *lx;
	size_t nr;
	bool pos = true;

	for (size_t i = 0; i < n && pos; i++)
		pos = x[i] > 0;
	if (!o->log || !pos) {
		lin.log = false;
		return edivisive(x, n, &lin, out);
	}
	lx = xcalloc(n + 1, sizeof(*lx));
	for (size_t i = 0; i < n; i++)
		lx[i] = log(x[i]);
	nr = edivisive(lx, n, o, out);
	free(lx);
	return nr;
}
