/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * changepoint.h - change points in a series of per-run means, by
 * E-divisive means (Matteson & James, "A Nonparametric Approach for
 * Multiple Change Point Analysis of Multivariate Data", JASA 2014) with
 * the deterministic significance test of MongoDB's signal processing
 * and Hunter (Daly et al., ICPE 2020; Fleming et al., 2023): instead of
 * a random permutation test, a Student t-test (pooled variance) between
 * the two segments a candidate splits, so a rerun on the same data gives
 * the same answer.
 *
 * Divisive: in a segment [s, e) the split tau maximising
 *   Q(tau) = n1 n2 / (n1 + n2) * E(X, Y),
 *   E = 2/(n1 n2) sum|x - y| - 1/C(n1,2) sum|x - x'| - 1/C(n2,2) sum|y - y'|
 * (alpha = 1; X = [s, tau), Y = [tau, e), both at least min_seg long)
 * is a candidate, moved to the best split by the sum of squares within
 * min_seg of it; it is kept when Student's p between X and Y is below
 * alpha and the step |mean Y - mean X| / |mean X| is at least
 * min_step_pct, and both halves are searched again.  Then every kept
 * point is re-tested between its neighbouring points (Hunter's second
 * pass) and the weakest failing one dropped, until all pass.  Before
 * each round of that pass every point is moved to the least-squares
 * split of the stretch between its neighbours (the maximum likelihood
 * place of one mean shift in Gaussian noise, as in binary segmentation
 * and CUSUM): E-divisive placed it while its segment could still hold
 * other changes, which pull the split towards them.  Q over every tau
 * of a segment takes O(n^2) time and O(1) memory.
 *
 * With log (what `history` uses for positive figures), all of this runs
 * on log(x): benchmark figures are ratio-scale, their noise grows with
 * their size, and a change from 20000 files/s of wide spread to 60 of
 * narrow one is plain on the log scale but drowned by the larger
 * spread on the linear one (as compare tests log ratios).
 */
#ifndef FSLAB_CHANGEPOINT_H
#define FSLAB_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>

#define CP_MIN_SEG 4
#define CP_ALPHA 0.001
#define CP_MIN_STEP_PCT 2.0

struct cp_opts {
	size_t min_seg;       /* points on each side at least (>= 2) */
	double alpha;         /* Student's p below this */
	double min_step_pct;  /* relative step at least this, in % */
	bool log;             /* on log values when every point is > 0 */
};

struct cp_point {
	size_t at;            /* index of the first point after the change */
	double p;             /* Student's p between its neighbouring segments */
	double before, after; /* the two segments' means (geometric with
			       * log) */
};

/* Defaults above. */
void cp_opts_init(struct cp_opts *o);

/*
 * The change points of x[0..n), in order; *out is NULL when none (free
 * it).  Non-finite points must not be passed.
 */
size_t cp_edivisive(const double *x, size_t n, const struct cp_opts *o,
		    struct cp_point **out);

/*
 * Move each of the change points pts[0..np) of x[0..n) (in order, at
 * least min_seg apart and from either end) to the split of the stretch
 * between its neighbours with the largest between-segment sum of
 * squares, in sweeps until none moves; only .at is read and written.
 * cp_edivisive does this before its second pass.  For tests.
 */
void cp_refine(const double *x, size_t n, size_t min_seg,
	       struct cp_point *pts, size_t np);

/*
 * The best split of x[s, e) by Q (above) with both sides >= min_seg,
 * and its Q in *q; returns s when none exists.  For tests.
 */
size_t cp_best_split(const double *x, size_t s, size_t e, size_t min_seg,
		     double *q);

#endif
