/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sequential.h - a group-sequential test of the log ratio of two
 * configurations, looked at after every repetition from min_n to max_n,
 * that keeps its error rates at the nominal level although it looks
 * many times (`fslab run --until decided`, `fslab plan`).
 *
 * Design: Lan and DeMets' alpha spending with the Pocock-type function
 * alpha * ln(1 + (e - 1) t), t = n / max_n the information fraction
 * (information grows with the repetitions).  The two-sided z boundaries
 * c_k are found look by look so that the chance of crossing first at
 * look k under "no change" is exactly what the function spends there
 * (Armitage-McPherson-Rowe recursion, numerical integration of the
 * score's density over the continuation region).  The variance is
 * estimated, so a look compares the t statistic of the log ratio (its
 * Welch-Satterthwaite df) with the t quantile of the boundary's nominal
 * level, 2 (1 - Phi(c_k)) (Jennison and Turnbull 2000, section 3.8).
 * Pocock-type rather than O'Brien-Fleming-type: with 3 to 10
 * repetitions the early looks have few df, and a boundary that spends
 * almost nothing early would never stop before the cap; the price, a
 * slightly wider last look, is paid only by changes close to the mdc.
 *
 * A family of m comparisons (key metrics x configurations) is tested by
 * Holm's procedure carried into the sequential setting (Maurer and
 * Bretz 2013): a hypothesis is rejected at look k when its nominal p is
 * below the boundary of level alpha / (m - r), r the number rejected so
 * far (at this look or earlier), each level's boundaries computed from
 * the start with the same spending function.  The family-wise error
 * stays at alpha under any dependence between the metrics.
 *
 * Decisions per comparison, final once made: DIFFERENT when rejected
 * and |change| >= min_change; EQUIVALENT when the repeated confidence
 * interval (Jennison and Turnbull) at level 1 - 2 alpha / m - two one-
 * sided tests at alpha / m each, Bonferroni over the family - lies
 * inside +-min_change; else UNDECIDED.  Pure, no I/O.
 */
#ifndef FSLAB_SEQUENTIAL_H
#define FSLAB_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most looks a design has: --max-repeat minus --min-repeat, + 1. */
#define SEQ_MAX_LOOKS 200

struct seq_level {
	double level;            /* two-sided alpha of these boundaries */
	double *z;               /* [nr_looks] */
};

struct seq_design {
	int min_n, max_n;        /* looks at n = min_n .. max_n */
	size_t nr_looks;
	double alpha;
	struct seq_level *lv;    /* boundaries computed so far */
	size_t nr_lv, alloc_lv;
};

/* 0, or -1 when min_n < 1, max_n < min_n or too many looks. */
int seq_design_init(struct seq_design *d, int min_n, int max_n,
		    double alpha);
void seq_design_release(struct seq_design *d);

/* Alpha spent by information fraction t at level a (Pocock type). */
double seq_spend(double a, double t);

/*
 * The two-sided z boundary at look n (min_n <= n <= max_n) of the design
 * at level a (cached per level).  NaN when n is not a look.
 */
double seq_zbound(struct seq_design *d, double a, int n);
/* Its nominal two-sided p-value, 2 (1 - Phi(z)). */
double seq_nominal_p(struct seq_design *d, double a, int n);

enum seq_decision {
	SEQ_UNDECIDED = 0,
	SEQ_DIFFERENT,
	SEQ_EQUIVALENT,
};

const char *seq_decision_name(enum seq_decision d);

/* One comparison in the family, carried from look to look. */
struct seq_cmp {
	/* in, at every look: */
	double log_ratio;        /* log(b / a) */
	double se, df;           /* of log_ratio; NaN: not testable now */
	/* carried: */
	bool rejected;           /* "no change" rejected (Holm) */
	double level;            /* ... at this two-sided level */
	enum seq_decision decision;
	int decided_n;           /* the look it was decided at, or 0 */
	/* out, at every look (kept once decided): */
	double pct;              /* change, % */
	double lo_pct, hi_pct;   /* repeated CI at level 1 - alpha / m, or
				  * 1 - the level it was rejected at */
	double mdc_pct;          /* what the last look could detect at
				  * the given power */
};

/*
 * One look after n repetitions over the family c[0..m).  Comparisons
 * already decided keep their decision.  Returns how many are still
 * undecided.
 */
size_t seq_look(struct seq_design *d, int n, struct seq_cmp *c, size_t m,
		double min_change_pct, double power);

/*
 * The pilot simulation behind `fslab plan` and the calibration: the
 * sequential test of two configurations on m independent key metrics,
 * log-normal noise of cov_pct per repetition, the second changed by
 * change_pct on every metric; nsim sequences from seed.
 */
struct seq_sim {
	double power;            /* all m decided DIFFERENT, right sign */
	double false_alarm;      /* any DIFFERENT (meaningful at change 0) */
	double equivalent;       /* all m decided EQUIVALENT */
	double mean_n;           /* repetitions to the stop, cap counted */
};

void seq_simulate(int min_n, int max_n, double alpha, size_t m,
		  double cov_pct, double change_pct, double min_change_pct,
		  size_t nsim, uint64_t seed, struct seq_sim *out);

/*
 * Repetitions per configuration a fixed design needs to detect
 * change_pct with the given power at two-sided level a, for a
 * per-repetition CoV of cov_pct on both sides (t quantiles, Welch df of
 * equal samples); 0 when beyond max_n.
 */
int seq_fixed_n(double cov_pct, double change_pct, double a, double power,
		int max_n);

#endif
