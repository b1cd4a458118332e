/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bshare.h - does a bisection's culprit explain the whole change?
 *
 * A probabilistic bisection fits one jump.  When two steps each move
 * the figure, it still names one of them, and the answer is half a
 * truth.  The check: the share of the ends' change that the culprit's
 * jump explains, R = (mean[culprit] - mean[before]) / (mean[bad] -
 * mean[good]), on the logs of the runs.  One culprit makes R = 1;
 * another step moving the figure too makes the jump smaller (or larger)
 * than the ends' change.
 *
 * The steps' runs share one noise sigma (the bisection's own model),
 * so sigma^2 is pooled over every step with two or more runs, and a
 * step measured once still has a standard error.  The interval of R is
 * the delta method's, with the covariance the two differences share
 * when the step before is the good end or the culprit the bad end, and
 * Student's t at the pooled degrees of freedom.  The culprit is doubted
 * only when the interval excludes 1 and R is off 1 by at least tol:
 * a statistically sure but tiny miss is noise in the model, not a
 * second culprit.
 */
#ifndef FSLAB_STATS_BSHARE_H
#define FSLAB_STATS_BSHARE_H

#include <stdbool.h>
#include <stddef.h>

/* One step's runs (their logs): count, mean, sum of squared deviations. */
struct bshare_step {
	size_t n;
	double mean, ss;
};

struct bshare_result {
	double share, lo, hi;  /* R and its CI at level 1 - alpha */
	double sigma, df;      /* the pooled noise and its df */
	bool partial;          /* the CI excludes 1 and |R - 1| >= tol */
};

/*
 * The share of steps[good]..steps[bad]'s change explained by the jump
 * from steps[culprit - 1] to steps[culprit] (good < culprit <= bad).
 * -1 when it cannot be told: a step of the four without runs, no
 * pooled df, or ends with equal means.
 */
int bshare_explained(const struct bshare_step *steps, size_t nr, size_t good,
		     size_t culprit, size_t bad, double alpha, double tol,
		     struct bshare_result *r);

#endif
