/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect_int.h - what src/cmd/bisect.c shares with bisect_step.c, the
 * parts of `fslab bisect` that depend on the kind of axis (a step made
 * ready, its run) and the checks of the setup and of the answer (the
 * A/A test, the culprit's share of the change).
 */
#ifndef FSLAB_CMD_BISECT_INT_H
#define FSLAB_CMD_BISECT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cmd.h"
#include "run/bisect.h"
#include "run/bisect_axis.h"
#include "stats/pbisect.h"
#include "stats/sequential.h"

/* The A/A test: each half of the good step's runs this many, Welch at
 * AA_ALPHA, a difference counted only from the practical threshold. */
#define AA_RUNS 3
#define AA_ALPHA 0.01
/* The culprit's share of the change (stats/bshare.h): its interval at
 * this level, and doubted only when 10 % or more of the change is left
 * to another step. */
#define SHARE_ALPHA 0.01
#define SHARE_TOL 0.1

struct bisect_args {
	struct cmdopt_store store;
	const char *axis, *workload, *metric, *tag, *resume, *scratch;
	const char *target, *build, *step, *good, *bad;
	long long budget;
	double prob;
	bool verbose, aa, no_aa;
};

/* What the bisection knows so far. */
struct bisection {
	struct bisect_setup s;
	struct bisect_axis ax;
	struct pbisect pb;
	size_t nr_pos;          /* bad - good + 1 */
	size_t *n;              /* [nr_pos] measured runs */
	double *sum;            /* [nr_pos] their logs' sum */
	double *ssq;            /* [nr_pos] their logs' sum of squares */
	char **why;             /* [nr_pos] why a skipped step is untestable */
	struct bisect_prep *prep; /* [nr_pos] git: the built revisions */
	const char *scratch;
	double *ends[2];        /* logs of the good and the bad end, in order */
	size_t nr_ends[2], alloc_ends[2];
	size_t runs;            /* completed runs, failed ones included */
	bool decided;           /* the ends differ */
	int looked;             /* the last look of the ends' test */
	struct seq_design d;
	struct seq_cmp c;
	char *db;               /* for the hints printed */
};

/* Step k's label: its target SPEC, commit id or line. */
static inline const char *step_spec(const struct bisection *b, size_t k)
{
	return b->ax.specs[k - 1];
}

/* The options of the axis kind: 0, or the usage error's exit code. */
int bisect_kind_opts(struct bisect_setup *s, const struct bisect_args *a);

/*
 * Make step k ready: build its revision (once a session) or run its
 * step command (before every measurement).  0 ready, -1 untestable (m
 * says why), else the exit code (128 + N: interrupted by signal N).
 */
int bisect_prepare_step(struct bisection *b, size_t k, struct bisect_meas *m);

/* One run of step k, on its target, {prefix} put into the workload. */
int bisect_measure_step(struct bisection *b, struct store *st,
			const struct run_config *base, struct run_workload *w,
			size_t k, struct bisect_meas *m, int *rc);

/* The A/A verdict on the good step's first 2 * AA_RUNS runs: 0 or the
 * exit code (it prints either). */
int bisect_aa_verdict(const struct bisection *b);

/*
 * Does the culprit at position c explain the whole change (see
 * stats/bshare.h)?  0, or EXIT_NO_VERDICT when another step changes
 * the figure too.
 */
int bisect_check_share(const struct bisection *b, size_t c);

#endif
