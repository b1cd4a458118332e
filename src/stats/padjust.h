/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * padjust.h - multiplicity adjustment of p-values, as R's p.adjust():
 * the adjusted p-value of a test is the smallest family-wise level (Holm)
 * or false discovery rate (Benjamini-Hochberg) at which it would be
 * rejected, so "adjusted p < alpha" is the procedure's decision.
 * NaN entries are not tests: they stay NaN and do not count in n.
 * Pure functions; adj may alias p.
 */
#ifndef FSLAB_PADJUST_H
#define FSLAB_PADJUST_H

#include <stddef.h>

/* Holm (1979), step-down Bonferroni: controls the family-wise error
 * rate under any dependence. */
void padjust_holm(const double *p, size_t n, double *adj);
/* Benjamini & Hochberg (1995), step-up: controls the false discovery
 * rate for independent or positively dependent tests. */
void padjust_bh(const double *p, size_t n, double *adj);

#endif
