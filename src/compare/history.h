/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history.h - a figure over many runs: per key metric (or every metric
 * matching a glob), per workload and target name, the series of per-run
 * means with their 95 % intervals in run order, its change points
 * (stats/changepoint.h) and, at each, the recorded fields that changed
 * between the runs on either side.  Pure: runs in, series out; the
 * runs are fed one at a time so ten thousand need not be in memory.
 *
 * A point is a run (or, with --by, every run of one kernel, fslab
 * version or day, in order of their first run).  Its figure is the mean
 * over repetitions of stats/repmean.h, as compare computes it: the
 * instances of a phase in one repetition folded, the repetitions
 * averaged (harmonically for rates); its interval the Student t
 * interval of the repetitions' figures (of their reciprocals for a
 * harmonic mean, inverted), NaN with fewer than two.
 */
#ifndef FSLAB_COMPARE_HISTORY_H
#define FSLAB_COMPARE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/result.h"
#include "stats/changepoint.h"

enum hist_by { HIST_BY_RUN = 0, HIST_BY_KERNEL, HIST_BY_VERSION,
	       HIST_BY_DATE };

struct hist_opts {
	const char *workload;   /* glob, NULL: every workload */
	const char *metric;     /* glob, NULL: the workloads' key metrics */
	const char *target;     /* target name (glob), NULL: every one */
	enum hist_by by;
	struct cp_opts cp;
	size_t nr_dbs;          /* stores read; with more than one a run's
				 * point is labelled ID@N, as compare names
				 * it */
};

struct hist_point {
	char *label;            /* run id, kernel, version or date */
	int64_t first_run, last_run;    /* store ids */
	size_t first_db, last_db;       /* of the store (from 0) */
	int64_t first_started, last_started;
	size_t nr_runs;
	double mean, lo, hi;    /* lo, hi NaN with fewer than 2 figures */
	size_t n;               /* figures (repetitions) */
	double *figs;           /* per repetition */
	size_t nr_figs, alloc_figs;
	char **first_fields, **last_fields; /* compare_field_value()s */
};

struct hist_change {
	size_t at;              /* index of the first point after it */
	double before, after;   /* segment means */
	double pct;             /* (after - before) / before * 100 */
	double p;               /* Student's p between the segments */
	bool worse;             /* against the metric's direction */
	char **changed;         /* "kernel: A -> B", NULL-terminated */
	size_t nr_changed;
};

struct hist_series {
	char *workload, *target, *phase, *metric, *unit;
	enum better better;
	bool harmonic;          /* rep_mean chose the harmonic mean */
	struct hist_point *pts;
	size_t nr_pts, alloc_pts;
	struct hist_change *cps;
	size_t nr_cps;
};

struct history {
	struct hist_opts o;
	struct hist_series *series;
	size_t nr_series, alloc_series;
	size_t nr_runs;         /* runs fed */
	size_t db;              /* the store (from 0) history_add_run's
				 * runs come from, set by the caller */
};

void history_init(struct history *h, const struct hist_opts *o);
/* Add the figures of one run (any order; hist_finish sorts). */
void history_add_run(struct history *h, const struct run_rec *r);
/* Means, intervals, change points and what changed at each. */
void history_finish(struct history *h);
/* Is the newest segment of any series worse than the one before? */
bool history_newest_worse(const struct history *h);
void history_release(struct history *h);

#endif
