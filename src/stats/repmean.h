/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repmean.h - the one definition of "a figure per repetition" and of
 * "the mean over repetitions", used by compare, report, the run summary
 * and every workload's classic averaged block (compilebench's "Average
 * ... results", ffsb's tps@%CPU), so one comparison never reads -28 % in
 * one place and -65 % in another.
 *
 * The repetition is the sample.  Instances of one phase name inside one
 * repetition share a filesystem and a moment; they are first folded into
 * one figure per repetition (rep_fold), then the repetitions are averaged
 * (rep_mean).
 *
 * Rates (a unit ending in "/s") with every value positive: work over
 * time.  Inside a repetition that is total work / total time (each
 * instance's rate weighted by its wall time); across repetitions, which
 * repeat the same work, it is the harmonic mean.  Everything else
 * (times, counts, percentages, latencies): the arithmetic mean.
 * Pure functions, no allocation visible to the caller.
 */
#ifndef FSLAB_REPMEAN_H
#define FSLAB_REPMEAN_H

#include <stdbool.h>
#include <stddef.h>

enum rep_mean_kind {
	REP_MEAN_ARITHMETIC = 0,
	REP_MEAN_HARMONIC,
};

/* Does unit name a rate ("MiB/s", "files/s", "ops/s")? */
bool rep_unit_is_rate(const char *unit);

/* The mean rep_mean() uses for these values of a metric with unit. */
enum rep_mean_kind rep_mean_kind(const char *unit, const double *x,
				 size_t n);
/* "harmonic" or "arithmetic", as every output names it. */
const char *rep_mean_name(enum rep_mean_kind k);

/*
 * The mean over repetitions of x[0..n) (one figure per repetition) for a
 * metric with unit; *kind (may be NULL) says which mean it was.  NaN
 * when n == 0.
 */
double rep_mean(const char *unit, const double *x, size_t n,
		enum rep_mean_kind *kind);

/*
 * Fold the n instances of one phase name inside ONE repetition into
 * that repetition's figure: for a rate, sum(x[i] * wall_s[i]) /
 * sum(wall_s[i]) (total work over total time; plain mean when a wall
 * time is missing or not positive); else the arithmetic mean.  wall_s
 * may be NULL.  NaN when n == 0.
 */
double rep_fold(const char *unit, const double *x, const double *wall_s,
		size_t n);

#endif
