/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repmean.h - the mean over repetitions of one figure, by the rule
 * `fslab compare` applies to the same stored metric (src/compare/
 * compare.h): a rate (a unit ending in "/s") harmonically when every
 * value is positive, so it is total work over total time; anything else
 * arithmetically.  Every workload's classic block (compilebench's
 * "Average NAME results", tree's table, frag's side by side) averages
 * through it.  Local to the workloads until the statistics work (issue
 * 15) gives the program one such definition.
 */
#ifndef FSLAB_WL_REPMEAN_H
#define FSLAB_WL_REPMEAN_H

#include <stddef.h>

/* 0 when n is 0; unit may be NULL (not a rate). */
double wl_rep_mean(const double *x, size_t n, const char *unit);

#endif
