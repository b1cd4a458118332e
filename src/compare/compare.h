/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - the statistics behind `fslab compare` and `fslab report`.
 * Pure: run records in, tables out; no store, no I/O.
 *
 * Configurations ("groups"): within one RUN|TAG, its targets by
 * command-line index (the repetitions of a target being the instances
 * built for each --repeat, and those of every run of a TAG that names
 * several: one tag, one command line); across several
 * RUN|TAG arguments, one comparison per target name present in more than
 * one of them (ext4 with ext4, xfs with xfs), each argument one group;
 * when no name is shared and every argument has one target, those are
 * compared.  groups[0] is the baseline.
 *
 * The sample is the repetition.  For a (phase, metric) a group has one
 * figure per repetition: the phase's instances inside that repetition
 * (compilebench's create runs 30 times) are folded into one figure by
 * rep_fold() (stats/repmean.h: total work over total time for rates, the
 * mean otherwise); n counts repetitions.  The instances stay in
 * cmp_stat.inst for the every-sample scatter.
 *
 * Means (stats/repmean.h): rates averaged harmonically when every figure
 * is positive, with the inference on the reciprocals (time per unit of
 * work); everything else arithmetic.  sigma, CoV, min and max describe
 * the figures as they are.
 *
 * Intervals, all finite: an arithmetic mean gets the Student t interval;
 * a harmonic mean the log-scale interval of the mean time per work,
 * inverted; the ratio of means (shown as % change) the log-scale delta
 * interval with Welch-Satterthwaite df (ttest_ratio_ci_log), or the
 * linear delta method when a mean is not positive.
 *
 * Tests: per row (raw p) the log-ratio test belonging to that interval
 * (ttest_log_ratio_p: t = log ratio / its SE, Welch-Satterthwaite df;
 * under "no change" this is Welch's test on the relative scale), or
 * Welch's t-test of the difference when a mean is not positive; so a
 * verdict never contradicts the change's interval.  Then, over one
 * family, Holm's
 * step-down adjustment (or BH with --adjust bh).  The deciding family is
 * every key metric tested in the invocation (all workloads, target names
 * and configurations), because --fail-on-regression makes one decision
 * from all of them; the other rows shown are adjusted together with the
 * keys as a second, informational family.  A change is significant when
 * the adjusted p < alpha AND |change| >= min_change_pct.  A change
 * that is not significant is "equivalent within min_change_pct" when
 * its printed interval lies inside +-min_change_pct: two one-sided
 * tests (TOST), each at alpha / 2 since the printed interval is the
 * 1 - alpha one; "not shown different" alone is never "the same".
 *
 * No verdict: fewer than COMPARE_MIN_N repetitions on either side ("too
 * few samples"); a phase whose mean wall time per instance is below
 * min_wall_s in both configurations ("too short to judge"); a metric
 * without a direction; a failed repetition.  Next to "no significant
 * change" the minimum detectable change at 80 % power (ttest_mdc on the
 * log ratio, at the family's Bonferroni level alpha/m, which is Holm's
 * first step) says how large a change this comparison could have seen.
 *
 * Roll-up (as mmtests does): per group, the geometric mean over the key
 * metrics of the baseline-relative ratios, oriented so > 1 is better.
 *
 * Failed runs: a configuration with a failed repetition did less work,
 * so every row gets CMP_FAILED for it (and for all when the baseline
 * failed), no ratio, no roll-up, and it counts as a regression.
 */
#ifndef FSLAB_COMPARE_H
#define FSLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/result.h"
#include "phase/workload.h"

#define COMPARE_ALPHA 0.05
#define COMPARE_MIN_CHANGE_PCT 2.0
#define COMPARE_MIN_WALL_S 0.050
#define COMPARE_POWER 0.80
#define COMPARE_MIN_N 3

enum cmp_adjust {
	CMP_ADJUST_HOLM = 0,
	CMP_ADJUST_BH,
	CMP_ADJUST_NONE,
};

struct compare_opts {
	double alpha;            /* significance level, 0.05 */
	double min_change_pct;   /* practical threshold, 2 (%) */
	double min_wall_s;       /* "too short to judge" floor, 0.05 s */
	double power;            /* for the minimum detectable change */
	enum cmp_adjust adjust;
	bool all;                /* show every metric, not just the default */
	bool allow_option_mismatch; /* compare different workload options */
	const char *phase;       /* fnmatch pattern on phase names, or NULL */
	const char *metric;      /* fnmatch pattern on metric names, or NULL */
	const char *const *key_metrics; /* "phase/metric", NULL-terminated */
	/* --factor: what the configurations are meant to differ in (a
	 * factor, "sysctl", or a field or fact, "sysctl.vm.dirty_ratio");
	 * any other difference is undeclared (diff.c). */
	const char *const *factors;
	size_t nr_factors;
};

enum cmp_verdict {
	CMP_NA = 0,       /* too few samples */
	CMP_INFO,         /* BETTER_NONE: shown without a verdict */
	CMP_SAME,         /* no significant change */
	CMP_BETTER,       /* significant improvement */
	CMP_WORSE,        /* significant regression */
	CMP_FAILED,       /* a repetition of it (or the baseline) failed */
	CMP_SHORT,        /* too short to judge */
	CMP_EQUIVALENT,   /* the change's interval inside +-min_change
			   * (set by the equivalence test) */
};

struct cmp_stat {
	size_t n;                /* repetitions with a figure */
	double *x;               /* the figure of each repetition */
	double mean;             /* harmonic when the row says so */
	double sd, cov_pct, min, max;
	double ci_lo, ci_hi;     /* 1 - alpha CI of the mean, finite or NaN */
	double *inst;            /* every instance's value (for drawing) */
	size_t nr_inst;
	double wall_s;           /* mean wall time of one instance */
};

struct cmp_delta {
	double ratio, ratio_lo, ratio_hi;  /* group mean / baseline mean */
	double pct, pct_lo, pct_hi;        /* the same as % change */
	double p;                          /* Welch two-sided p-value, raw */
	double p_adj;                      /* adjusted over its family */
	double se_log, df;                 /* of log(ratio), for the MDC */
	double mdc_pct;                    /* smallest detectable |change| */
	double equiv_pct;                  /* CMP_EQUIVALENT: within +-this % */
	size_t family;                     /* tests in its family */
	bool tested;                       /* took part in a family */
	bool significant;
	enum cmp_verdict verdict;
};

struct cmp_row {
	char *phase, *metric, *unit;
	enum better better;
	bool key;                /* counts for roll-up and regressions */
	bool traced;             /* a block-trace figure of a key phase */
	bool shown;              /* selected by the options */
	bool hmean;              /* mean is harmonic */
	char *wall_phase;        /* whose wall time the too-short floor
				  * judged (see compare_build), or NULL */
	struct cmp_stat *st;     /* [nr_groups] */
	struct cmp_delta *d;     /* [nr_groups]; d[0] compares with itself */
};

/* A field that differs between the compared configurations. */
struct cmp_diff {
	char *field;             /* "kernel", "mount options", a recorded
				  * fact "sysctl.vm.dirty_ratio", ... */
	char **values;           /* [nr_groups]; "a | b" when mixed inside */
	const char *factor;      /* what --factor names it: "mount",
				  * "sysctl", "kernel"... (static) */
	bool declared;           /* named with --factor, or the targets of
				  * one run (their specs declare them) */
};

struct cmp_table {
	char *workload;
	char *name;              /* matched target name, or NULL */
	bool name_is_options;    /* name is a workload option set */
	size_t nr_groups;
	char **labels;           /* [nr_groups] */
	struct cmp_row *rows;
	size_t nr_rows, alloc_rows;
	double *rollup;          /* [nr_groups] geomean of oriented ratios */
	size_t *rollup_n;        /* [nr_groups] ratios that went into it */
	double rollup_alpha;           /* the alpha of that interval */
	double *rollup_lo, *rollup_hi; /* [nr_groups] its 1 - alpha interval
				  * (metrics taken as independent), or NaN */
	bool key_from_workload;  /* else: all rate metrics are key */
	bool regression;         /* some key metric regressed significantly,
				  * or a compared configuration failed */
	bool *failed;            /* [nr_groups] a repetition failed */
	size_t *nr_reps;         /* [nr_groups] */
	struct cmp_diff *diffs;
	size_t nr_diffs;
	char *option_mismatch;   /* "files: 20000 (a) vs 1000 (b)", or NULL */
	size_t nr_undeclared;    /* diffs not declared */
	char **invalid;          /* [nr_groups] "invalid setup: ..." when a
				  * run of it failed a check at level invalid
				  * (compare_mark_invalid), else NULL */
};

/* Whether name is a factor, or a fact key's group ("sysctl.vm.x"). */
bool compare_factor_known(const char *name);

/*
 * Group g of t has an invalid setup (check/check.h): its rows get no
 * verdict (shown as "-"), nor the whole table's when g is the baseline;
 * no roll-up, no regression from them.  reason is copied.
 */
void compare_mark_invalid(struct cmp_table *t, size_t g, const char *reason);

void compare_opts_init(struct compare_opts *o);

/* "harmonic" or "arithmetic". */
const char *compare_mean_name(const struct cmp_row *row);
const char *compare_adjust_name(enum cmp_adjust a);

/* A block-trace figure shown among the key metrics of a traced phase. */
bool compare_traced_metric(const char *metric);

/*
 * Build the table for one workload over groups (groups[0] = baseline):
 * statistics, raw p-values, the verdicts that need no test.  Never
 * fails; rows with no samples anywhere do not appear.  The verdicts of
 * tested rows, the regression flag and the roll-up come from
 * compare_finish().
 */
void compare_build(const char *workload, const struct cmp_group *groups,
		   size_t nr_groups, const struct compare_opts *o,
		   struct cmp_table *out);
/* Adjust the p-values over the families of all nr tables (one
 * invocation), then set verdicts, regressions and roll-ups. */
void compare_finish(struct cmp_table *tabs, size_t nr,
		    const struct compare_opts *o);
void compare_table_release(struct cmp_table *t);

/*
 * The distinct workload names of the runs, in first-seen order.  Free
 * the array (not the strings: they belong to the runs).
 */
const char **compare_workloads(const struct run_rec *const *runs,
			       size_t nr_runs, size_t *nr);

/* One comparison: a matched target name and its groups. */
struct cmp_set {
	char *name;              /* target name, or NULL (one run's targets,
				  * or unmatched single targets) */
	bool name_is_options;    /* name is the workload options instead */
	struct cmp_group *groups;
	size_t nr_groups;
};

/*
 * The comparisons of workload over nr_args arguments, argument a being
 * runs[i] for every i with arg_of[i] == a (labels[a] its label).  Notes
 * ("xfs: only in t1, not compared") go to *notes (may be NULL), one
 * malloc'd string each.  Release with compare_sets_free.
 */
struct cmp_set *compare_sets(const struct run_rec *const *runs,
			     const size_t *arg_of, size_t nr_runs,
			     const char *const *labels, size_t nr_args,
			     const char *workload, size_t *nr, char ***notes,
			     size_t *nr_notes);
void compare_sets_free(struct cmp_set *s, size_t nr);

#endif
