/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.h - `fslab plan RUN|TAG --change PCT`: how many repetitions a
 * comparison needs, from a stored pilot run's spread.
 *
 * Per key metric and configuration of the pilot (compare's tables, so
 * the figure per repetition is the one compare tests): the CoV between
 * repetitions, and the repetitions per configuration a fixed design
 * needs to detect a change of PCT at 80 % power at Holm's first-step
 * level alpha / m (m: the key metrics times the comparisons against
 * the baseline, at least one), which is what compare's mdc promises.
 *
 * Levels of variation (Kalibera and Jones 2013): where a phase runs
 * several instances inside one repetition (compilebench's create x30),
 * the variance of the per-repetition figure splits into the part
 * between repetitions (a fresh filesystem each: image, mkfs and mount
 * belong to it) and the part between instances, S_w^2 / k.  With the
 * cost c_r of a repetition (every phase of it) and c_i of one instance
 * the optimal instances per repetition are sqrt(c_r S_w^2 / (c_i
 * S_b^2)); above what the run used, more instances pay, else more
 * repetitions.  One instance per repetition: repetitions are the only
 * lever.  A run with --reuse shares one filesystem among repetitions:
 * its image variance is not measured at all, which the plan says.
 *
 * The expected repetitions under --until decided come from
 * seq_simulate (stats/sequential.h) at the largest CoV, every key
 * metric changing by PCT, and for an A/A (nothing changes).
 */
#ifndef FSLAB_COMPARE_PLAN_H
#define FSLAB_COMPARE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/session.h"
#include "stats/sequential.h"

struct plan_row {
	const char *workload, *phase, *metric, *label;  /* the session's */
	size_t n;                /* repetitions in the pilot */
	double cov_pct;          /* between the per-repetition figures */
	int fixed_n;             /* per configuration; 0: above the limit */
	double inst;             /* mean instances per repetition */
	double between_pct;      /* CoV of the repetition level, % */
	double within_pct;       /* CoV of one instance inside one, % */
	double cost_rep_s, cost_inst_s;
	int best_inst;           /* optimal instances per repetition, 0: - */
	bool reused;             /* one filesystem for all repetitions */
};

struct plan {
	double change_pct, alpha, min_change_pct;
	int min_n, max_n;
	size_t family;           /* m */
	struct plan_row *rows;
	size_t nr, alloc;
	int fixed_n;             /* the largest of the rows' */
	double worst_cov_pct;
	size_t nsim;
	uint64_t seed;
	struct seq_sim change;   /* every key metric changes by change_pct */
	struct seq_sim same;     /* nothing changes */
	size_t var_n80;          /* repetitions a side for compare's
				  * Brown-Forsythe to see a 2x sigma at 80 %
				  * (simulated; 0: more than 200) */
	double var_power;        /* its power at fixed_n, NaN: no fixed_n */
};

/*
 * Fill p from a session built over the pilot (compare_session_build).
 * nsim sequences from seed for the simulation (0: none).
 */
void plan_build(const struct cmp_session *s, double change_pct,
		double alpha, double min_change_pct, int min_n, int max_n,
		size_t nsim, uint64_t seed, struct plan *p);
void plan_release(struct plan *p);

/* Pure, for the tests: the Kalibera-Jones optimal instances. */
int plan_best_instances(double between_var, double within_var,
			double cost_rep, double cost_inst);

#endif
