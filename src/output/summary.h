/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h - the readable end-of-run table `fslab run` prints: one row
 * per (target, workload, phase name) with the count and the mean rates.
 */
#ifndef FSLAB_SUMMARY_H
#define FSLAB_SUMMARY_H

#include <stdio.h>

#include "result.h"

/* dbpath may be NULL (nothing stored). */
void summary_print(FILE *out, const struct run_rec *r, const char *dbpath);

#endif
