/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbisect.h - noise-aware probabilistic bisection (`fslab bisect`): which
 * step of an ordered axis (commits, kernel versions, a tunable's values)
 * made a benchmark metric change, when a single run is too noisy to call
 * a step good or bad.
 *
 * Positions 0 .. nr_steps - 1; 0 is known good, nr_steps - 1 known bad.
 * "Culprit = c" (c in 1 .. nr_steps - 1) means steps 0 .. c-1 behave like
 * the good end and c .. nr_steps - 1 like the bad one: one change point.
 *
 * Model: the Bayesian single change-point posterior for normal data with
 * two unknown means and one unknown shared variance, prior
 * p(mu1, mu2, sigma^2) ∝ 1 / sigma^2 and uniform on c (Smith 1975, "A
 * Bayesian approach to inference about a change-point in a sequence of
 * random variables", Biometrika 62:407-416; the same integral as Lee,
 * "Bayesian Statistics: An Introduction", the two-sample normal model).
 * Integrating the means and the variance out leaves
 *
 *   P(c | x) ∝ (n1(c) n2(c))^(-1/2) SSE(c)^(-(n-2)/2),
 *
 * n1, n2 the runs on either side of c, n = n1 + n2, SSE(c) the within-
 * side sum of squares.  Why this model: it is exact - no plug-in of an
 * estimated sigma that would make the posterior over-confident with the
 * few runs a bisection has (the marginal over sigma is a t, not a
 * normal, likelihood); the runs are x = log(metric), where run-to-run
 * noise of a benchmark is close to normal with one spread on both sides
 * of a change; the posterior stays valid however adaptively the steps
 * were chosen (the likelihood principle), so the stopping rule "P >=
 * target" keeps its calibration.  Computed in log space (log-sum-exp),
 * O(nr_steps + nr_obs) per update from prefix sums over the steps.
 *
 * The next step to measure is the unskipped s whose P(c <= s) is nearest
 * one half: a run at s says whether the culprit is <= s (s looks bad) or
 * > s (s looks good), the noisy analogue of halving (Horstein's scheme,
 * Waeber, Frazier, Henderson 2013).  A skipped step (its build or step
 * command failed) carries no data, so the culprit cannot be told apart
 * from its skipped predecessors: pbisect_range() gives the smallest run
 * of adjacent culprits holding the wanted probability.  Pure, no I/O.
 */
#ifndef FSLAB_PBISECT_H
#define FSLAB_PBISECT_H

#include <stdbool.h>
#include <stddef.h>

struct pbisect_obs {
	size_t step;
	double x;                /* the metric's log, one run */
};

struct pbisect {
	size_t nr_steps;         /* 0 is good, nr_steps - 1 is bad */
	struct pbisect_obs *obs;
	size_t nr_obs, alloc_obs;
	double *post;            /* [nr_steps]: P(culprit = i) after
				  * pbisect_update; post[0] = 0 */
	unsigned char *skip;     /* [nr_steps]: untestable steps */
};

/* 0, or -1 when nr_steps < 2 or out of memory.  post starts uniform. */
int pbisect_init(struct pbisect *b, size_t nr_steps);
void pbisect_free(struct pbisect *b);

/* One run at step.  0, or -1 (step out of range, out of memory). */
int pbisect_add(struct pbisect *b, size_t step, double x);

/* Mark step untestable; its runs, if any, are ignored from now on. */
void pbisect_skip(struct pbisect *b, size_t step);

/* Runs counted at step (skipped steps count 0). */
size_t pbisect_count(const struct pbisect *b, size_t step);

/*
 * Recompute post from every run.  -1 (post left as it was) when either
 * end has fewer than 2 runs or an end is skipped.
 */
int pbisect_update(struct pbisect *b);

/*
 * The step to measure next: the unskipped s with P(c <= s) nearest 1/2,
 * ties to the step with fewer runs.  Never a skipped step; nr_steps when
 * every step is skipped.
 */
size_t pbisect_next(const struct pbisect *b);

/* The MAP culprit (1 .. nr_steps - 1), *p (may be NULL) its probability. */
size_t pbisect_best(const struct pbisect *b, double *p);

/*
 * The smallest window lo .. hi of adjacent culprits whose probabilities
 * add up to >= p_target (of the smallest, the most probable).  Returns
 * that probability.  lo == hi is an exact culprit; a window whose steps
 * lo .. hi-1 are all skipped is as far as the data can go, like git
 * bisect skip's "one of these".
 */
double pbisect_range(const struct pbisect *b, double p_target, size_t *lo,
		     size_t *hi);

/* True when the steps lo .. hi-1 are all skipped (lo == hi included). */
bool pbisect_range_final(const struct pbisect *b, size_t lo, size_t hi);

/*
 * The driver that `fslab bisect` and bench/bisect-sim.c share.  Each call
 * looks at the runs so far and says what to do next:
 *
 *  1. runs >= budget: PBISECT_BUDGET (with the MAP culprit so far when
 *     the ends differ, ends_differ false otherwise).
 *  2. either end below max(ends_min, 2) runs: measure it (the one with
 *     fewer runs first, the good end on a tie).
 *  3. the ends not yet different by Welch's t-test at p < 0.01
 *     (PBISECT_ENDS_ALPHA): another run at the end with fewer runs; a
 *     metric that did not change is never bisected.
 *  4. the smallest window holding >= target_p is one culprit, or only
 *     skipped steps keep it from being one: PBISECT_DONE.
 *  5. else measure pbisect_next().
 *
 * One run per PBISECT_MEASURE.  An end that is skipped is
 * PBISECT_UNTESTABLE.  Updates b->post as a side effect.
 */
#define PBISECT_ENDS_ALPHA 0.01

struct pbisect_policy {
	double target_p;         /* e.g. 0.95 */
	size_t budget;           /* runs in all, the ends' included */
	size_t ends_min;         /* runs at each end before anything else */
};

enum pbisect_verdict {
	PBISECT_MEASURE = 0,
	PBISECT_DONE,
	PBISECT_BUDGET,
	PBISECT_UNTESTABLE,
};

struct pbisect_decision {
	enum pbisect_verdict verdict;
	size_t step;             /* MEASURE: the step to run */
	size_t culprit;          /* DONE, BUDGET: the MAP culprit */
	double p;                /* ... its probability */
	size_t lo, hi;           /* ... the window holding target_p */
	double p_range;          /* ... and its probability */
	bool ends_differ;        /* the Welch gate of step 3 passed */
};

void pbisect_decide(struct pbisect *b, const struct pbisect_policy *pol,
		    struct pbisect_decision *d);

/* Welch's two-sided p of the two ends' runs; NaN below 2 runs each. */
double pbisect_ends_p(const struct pbisect *b);

#endif
