/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tail.h - the latency distributions of two configurations compared:
 * per phase and op class, the histograms of every repetition (and every
 * instance of the phase) merged exactly, then p50/p90/p99/p99.9 with
 * distribution-free 95 % intervals (stats/quantci.h) for each side, and
 * a tail verdict from the p99 intervals: "slower tail" when B's interval
 * lies wholly above A's, "faster tail" when wholly below, else "no tail
 * change".  Pooled samples are not independent when repetitions differ
 * (a noisy VM gives each repetition its own level), so with two or more
 * repetitions a side the verdict also needs the repetitions to agree:
 * Welch's t-test on the log of each repetition's own p99, its p Holm-
 * adjusted over the rows of the comparison, below alpha.  Without it an
 * A/A of 4 repetitions on this VM showed disjoint pooled p90 intervals.  Next to it, per phase, the Brown-Forsythe test
 * (stats/levene.h) of the per-repetition key metric: did the spread
 * across repetitions change?  Pure: records in, figures out.
 */
#ifndef FSLAB_COMPARE_TAIL_H
#define FSLAB_COMPARE_TAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/compare.h"
#include "stats/lathist.h"
#include "stats/levene.h"
#include "stats/quantci.h"

#define TAIL_NQ 4
extern const double tail_quantiles[TAIL_NQ];  /* 0.5 0.9 0.99 0.999 */
#define TAIL_VERDICT_Q 2                      /* p99 decides */

enum tail_verdict {
	TAIL_NA = 0,     /* too few samples for the p99 interval */
	TAIL_SAME,       /* the p99 intervals overlap */
	TAIL_SLOWER,     /* B's p99 interval wholly above A's */
	TAIL_FASTER,     /* wholly below */
};

struct tail_row {
	char *phase, *op;
	char *unit;                      /* of the histogram, "ns" */
	struct quantci ci[2][TAIL_NQ];   /* [0] A (baseline), [1] B */
	size_t reps[2];                  /* repetitions with >= 100 ops */
	bool rep_tested;                 /* >= 2 a side: rep_p is set */
	double rep_p, rep_p_adj;         /* Welch on log per-rep p99 */
	enum tail_verdict verdict;
};

struct tail_var {
	char *phase, *metric;
	size_t n[2];                     /* repetitions */
	bool ok;                         /* >= 3 each and the test ran */
	struct levene_result r;
	double p_adj;                    /* Holm over the phases */
};

struct tail_cmp {
	size_t group;                    /* B's group index in the table */
	struct tail_row *rows;
	size_t nr_rows;
	struct tail_var *vars;           /* one per phase with rows */
	size_t nr_vars;
};

#define TAIL_MIN_REPS 3

/*
 * One tail_cmp per group g >= 1 of t against group 0, for the phases
 * with histograms of the same op in both; *nr may be 0.  alpha sets the
 * intervals (1 - alpha).  Free with tail_cmp_free.
 */
struct tail_cmp *tail_build(const struct cmp_table *t,
			    const struct cmp_group *groups, double alpha,
			    size_t *nr);
void tail_cmp_free(struct tail_cmp *c, size_t nr);

/*
 * Merge grp's histograms of op in every instance of phase (every
 * repetition) into h, tmp a scratch histogram; false when none had any
 * sample.  What a row's intervals were computed from, for a plot.
 */
bool tail_pool(const struct cmp_group *grp, const char *phase,
	       const char *op, struct lathist *h, struct lathist *tmp);
const char *tail_verdict_text(enum tail_verdict v);

#endif
