/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - the statistics behind `fslab compare` and `fslab report`.
 * Pure: run records in, a table out; no store, no I/O.
 *
 * Configurations ("groups"): within one run, the target specs of the
 * command line (target_rec.idx), their repetitions being the target
 * instances built for each --repeat; across runs, each RUN|TAG argument
 * is one group.  groups[0] is the baseline.
 *
 * Samples: for a (phase, metric) a group's samples are the metric's
 * values in every successful occurrence of that phase in every
 * repetition.  Phases that run once per repetition (compilebench's
 * summary) so give one sample per repetition; phases a workload repeats
 * within a run (compilebench's create/patch/...) add each occurrence.
 *
 * Means: rates (a unit ending in "/s") are averaged harmonically when
 * every sample is positive, since the phases of one name do the same
 * amount of work and the harmonic mean of their rates is total work over
 * total time.  The inference is then done on the reciprocals (time per
 * unit of work, which adds up) and mapped back, so the CI, the Welch
 * test and the ratio all describe the harmonic mean.  Everything else
 * uses the arithmetic mean.  sigma, CoV, min and max always describe the
 * raw samples.
 *
 * Against the baseline: the ratio of means with its delta-method 95 % CI
 * (ttest_ratio_ci), shown as % change, and Welch's t-test p-value.
 *
 * Significance rule: a difference counts when p < alpha (0.05) AND
 * |change| >= min_change_pct (2 %): statistically real and large enough
 * to matter.  Direction comes from the metric's `better`: a significant
 * change of a BETTER_HIGHER metric upwards is an improvement, of a
 * BETTER_LOWER one upwards a regression; BETTER_NONE metrics get no
 * verdict.  Fewer than two samples on either side: no verdict either.
 *
 * Roll-up (as mmtests does): per group, the geometric mean over the key
 * metrics of the baseline-relative ratios, each oriented so > 1 is
 * better (baseline/group for lower-is-better metrics).  Key metrics are
 * the workload's key_metrics ("phase/metric"), or every rate metric
 * (BETTER_HIGHER, unit "/s") when it names none.
 *
 * Failed runs: a configuration with a failed repetition (ENOSPC, an
 * error) did less work than the others, so its phases that did finish
 * say nothing about speed: every row gets CMP_FAILED for it (and for
 * all when the baseline failed), no ratio, no roll-up, and it counts as
 * a regression.
 */
#ifndef FSLAB_COMPARE_H
#define FSLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"
#include "workload.h"

#define COMPARE_ALPHA 0.05
#define COMPARE_MIN_CHANGE_PCT 2.0

struct compare_opts {
	double alpha;            /* significance level, 0.05 */
	double min_change_pct;   /* practical threshold, 2 (%) */
	bool all;                /* show every metric, not just the default */
	const char *phase;       /* fnmatch pattern on phase names, or NULL */
	const char *metric;      /* fnmatch pattern on metric names, or NULL */
	const char *const *key_metrics; /* "phase/metric", NULL-terminated */
};

enum cmp_verdict {
	CMP_NA = 0,       /* not enough samples to say */
	CMP_INFO,         /* BETTER_NONE: shown without a verdict */
	CMP_SAME,         /* no significant change */
	CMP_BETTER,       /* significant improvement */
	CMP_WORSE,        /* significant regression */
	CMP_FAILED,       /* a repetition of it (or the baseline) failed */
};

struct cmp_stat {
	size_t n;
	double *x;               /* the samples */
	double mean;             /* harmonic when the row says so */
	double sd, cov_pct, min, max;
	double ci_lo, ci_hi;     /* 95 % (1 - alpha) CI of the mean */
};

struct cmp_delta {
	double ratio, ratio_lo, ratio_hi;  /* group mean / baseline mean */
	double pct, pct_lo, pct_hi;        /* the same as % change */
	double p;                          /* Welch two-sided p-value */
	bool significant;
	enum cmp_verdict verdict;
};

struct cmp_row {
	char *phase, *metric, *unit;
	enum better better;
	bool key;                /* counts for roll-up and regressions */
	bool shown;              /* selected by the options */
	bool hmean;              /* mean is harmonic */
	struct cmp_stat *st;     /* [nr_groups] */
	struct cmp_delta *d;     /* [nr_groups]; d[0] compares with itself */
};

struct cmp_table {
	char *workload;
	size_t nr_groups;
	char **labels;           /* [nr_groups] */
	struct cmp_row *rows;
	size_t nr_rows, alloc_rows;
	double *rollup;          /* [nr_groups] geomean of oriented ratios */
	size_t *rollup_n;        /* [nr_groups] ratios that went into it */
	bool key_from_workload;  /* else: all rate metrics are key */
	bool regression;         /* some key metric regressed significantly,
				  * or a compared configuration failed */
	bool *failed;            /* [nr_groups] a repetition failed */
};

void compare_opts_init(struct compare_opts *o);

/* "cmp" suffix labels for display: "harmonic" or "arithmetic". */
const char *compare_mean_name(const struct cmp_row *row);
const char *compare_verdict_name(enum cmp_verdict v);

/* The metric/phase names that `compare` shows by default. */
bool compare_default_metric(const char *metric);

/*
 * Build the table for one workload over groups (groups[0] = baseline).
 * Never fails; rows with no samples anywhere do not appear.
 */
void compare_build(const char *workload, const struct cmp_group *groups,
		   size_t nr_groups, const struct compare_opts *o,
		   struct cmp_table *out);
void compare_table_release(struct cmp_table *t);

/*
 * The distinct workload names of the runs, in first-seen order.  Free
 * the array (not the strings: they belong to the runs).
 */
const char **compare_workloads(const struct run_rec *const *runs,
			       size_t nr_runs, size_t *nr);

/*
 * Groups for workload: one per target spec of run (nr_runs == 1), or one
 * per run (labels[i] naming runs[i]).  Release with compare_groups_free.
 * *nr may be 0 when no run has that workload.
 */
struct cmp_group *compare_groups(const struct run_rec *const *runs,
				 const char *const *labels, size_t nr_runs,
				 const char *workload, size_t *nr);
void compare_groups_free(struct cmp_group *g, size_t nr);

#endif
