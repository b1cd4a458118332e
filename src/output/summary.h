/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h - the readable end-of-run table `fslab run` prints: one row
 * per (target, workload, phase name) with the count and the mean rates.
 */
#ifndef FSLAB_SUMMARY_H
#define FSLAB_SUMMARY_H

#include <stdio.h>

#include "measure/result.h"

/* dbpath may be NULL (nothing stored). */
void summary_print(FILE *out, const struct run_rec *r, const char *dbpath);

/* What the user can do next with stored run r: check, compare, report
 * (db: the --db the run was given, repeated in each line; NULL: the
 * default store). */
void summary_print_next(FILE *out, const struct run_rec *r, const char *db);

/*
 * "traced: 1234 seeks, 56.7 seeks/s, median seek 2048 sectors, layout
 * score 0.930, latency p50 0.120 ms p99 3.400 ms" for a traced phase
 * (nothing for an untraced one), after indent.
 */
void summary_phase_trace(FILE *out, const char *indent,
			 const struct phase_rec *p);

#endif
