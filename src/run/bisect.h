/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bisect.h - the mechanics of `fslab bisect`: the axis file, one
 * measurement of one step (an ordinary run through runner_execute,
 * read back from the store), and a bisection's runs reloaded from the
 * store for --resume.  The statistics are stats/pbisect.h's.
 *
 * Each measurement is a run of its own, tagged "TAG:step=K" (so
 * `fslab compare TAG:step=4 TAG:step=5` and `fslab history` see it as
 * any other run), with facts of scope "bisect" saying what the
 * bisection is: the axis file, workload, metric, ends and step count.
 * --resume needs nothing else.
 */
#ifndef FSLAB_RUN_BISECT_H
#define FSLAB_RUN_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/runner.h"
#include "util/util.h"

struct store;

/* What the steps are (run/bisect_axis.h for git: and steps:). */
enum bisect_kind {
	BISECT_TARGETS,       /* targets:FILE, one target SPEC a line */
	BISECT_GIT,           /* git:REPO, revisions built by --build */
	BISECT_STEPS,         /* steps:FILE, lines set up by --step */
};

/* The axis: the steps' labels (a target SPEC, a commit id, a line),
 * numbered from 1. */
struct bisect_axis {
	char **specs;
	unsigned *lines;      /* each spec's line in the file */
	size_t nr, alloc;
};

/*
 * FILE's lines, '#' comments and blank lines skipped; with targets each
 * must be a target spec (a steps: file holds any text).  0, or -1 with
 * the reason (naming the file and line) in err.
 */
int bisect_axis_load(const char *path, bool targets,
		     struct bisect_axis *ax, char *err, size_t errlen);
void bisect_axis_release(struct bisect_axis *ax);

/* What a bisection is; every field owned. */
struct bisect_setup {
	enum bisect_kind kind;
	char *tag, *axis, *workload, *metric;
	char *src;            /* git: the repo, steps: the file (absolute) */
	char *target;         /* git:, steps: the one target SPEC (-t) */
	char *command;        /* git: --build, steps: --step */
	char *good_rev, *bad_rev; /* git: the ends' commit ids */
	bool aa;              /* measure the good end as two halves first */
	char *phase, *name;   /* metric split at its first '/' */
	size_t good, bad;     /* steps, from 1 */
	size_t nr_steps;      /* lines of the axis file */
};

/* Split setup->metric into phase and name: 0, or -1 with err. */
int bisect_setup_metric(struct bisect_setup *s, char *err, size_t errlen);
void bisect_setup_release(struct bisect_setup *s);

/* The tag of step k's runs (newly allocated). */
char *bisect_step_tag(const char *tag, size_t k);

enum bisect_outcome {
	BISECT_MEASURED,      /* value holds the metric */
	BISECT_FAILED,        /* the run failed: the step is untestable */
	BISECT_INTERRUPTED,   /* cut short: not a measurement */
	BISECT_NO_METRIC,     /* ran, but has no such metric (why says) */
};

struct bisect_meas {
	size_t step;          /* from 1 */
	int64_t run_id;       /* 0: no run was stored */
	enum bisect_outcome outcome;
	double value;
	char why[512];
};

/*
 * Measure step k once: one run of w on target spec with base's
 * settings (db, scratch, seed, cmdline), stored with the step's tag and
 * the bisection's facts (label: the step's, a commit id for git:).  The
 * exit code of the run is *rc.  -1 only when the store cannot be read.
 */
int bisect_measure(struct store *st, const struct run_config *base,
		   const struct bisect_setup *s, struct run_workload *w,
		   const char *spec, const char *label, size_t k,
		   struct bisect_meas *m, int *rc) MUST_CHECK;

/*
 * The bisection tag as stored: its setup from the facts of its first
 * run and every run's measurement, oldest first (interrupted ones
 * included, for the caller to drop).  *nr 0: none (not an error).
 */
int bisect_load(struct store *st, const char *tag, struct bisect_setup *s,
		struct bisect_meas **ms, size_t *nr) MUST_CHECK;

#endif
