/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - is this run's setup honest?  Every run is checked against
 * the recommendations of the file-system benchmarking literature
 * (doc/validity.md names the source of each): a figure served from the
 * page cache, a CPU-bound phase, a memory-backed target, a debug kernel,
 * too few repetitions for the change asked for, a warm-up repetition...
 *
 * Pure: a loaded run record (with its facts, result.h) in, findings out;
 * no store, no I/O.  Each finding has a stable id (the check's), a
 * level, what it is about and a one-line reason that names the figure
 * that triggered it and how to fix it.  A check that the run's records
 * cannot answer (no kernel config, no cpufreq, one repetition) is listed
 * as not checked, so "nothing found" never means "nothing looked at".
 */
#ifndef FSLAB_CHECK_H
#define FSLAB_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/result.h"

enum check_level {
	CHECK_NONE = 0,
	CHECK_NOTE,     /* worth knowing; the figures stand */
	CHECK_WARNING,  /* the figures may not mean what they seem */
	CHECK_INVALID,  /* the figures do not measure the filesystem: compare
			 * gives no verdict unless --allow-invalid */
};

struct check_def {
	const char *id;       /* stable: "cache-fit" */
	const char *what;     /* one line: what it looks for */
	const char *source;   /* whose recommendation (doc/validity.md) */
};

struct check_finding {
	const char *id;
	enum check_level level;
	char *subject;        /* "ext4 bonnie/block-read", "machine" */
	char *reason;         /* the figure, then the fix */
	bool accepted;        /* silenced with --accept */
};

struct check_report {
	int64_t run_id;
	struct check_finding *f;
	size_t nr, alloc;
	size_t nr_checks;     /* recommendations */
	size_t nr_checked;    /* of them, answerable from this run */
	char **unchecked;     /* "cpu-governor (no cpufreq)" */
	size_t nr_unchecked, alloc_unchecked;
};

struct check_opts {
	double min_change_pct;    /* the change a comparison should see;
				   * NAN: the one the run was planned for
				   * (its fact plan/min_change_pct), else
				   * CHECK_MIN_CHANGE_PCT */
	double min_wall_s;        /* shorter phases are too short to judge */
	double alpha, power;      /* for the minimum detectable change */
	const char *const *accept; /* ids silenced besides the run's own */
	size_t nr_accept;
};

#define CHECK_MIN_CHANGE_PCT 2.0

/* The defaults of compare (compare.h): the run's planned change or 2 %,
 * 50 ms, 0.05, 0.80. */
void check_opts_init(struct check_opts *o);

/* Every check, in report order. */
const struct check_def *check_defs(size_t *nr);
/* The check with that id, or NULL. */
const struct check_def *check_def_find(const char *id);

const char *check_level_name(enum check_level l);

/* Check run r; release *out with check_report_release. */
void check_run(const struct run_rec *r, const struct check_opts *o,
	       struct check_report *out);
void check_report_release(struct check_report *rep);

/* The worst level among the findings not accepted; CHECK_NONE if none. */
enum check_level check_worst(const struct check_report *rep);
/* The first not-accepted finding at level, or NULL. */
const struct check_finding *check_first(const struct check_report *rep,
					enum check_level level);

#endif
