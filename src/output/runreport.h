/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runreport.h - the workloads' run-level classic results: for every
 * workload with a report_run, its runs in one fslab run grouped by
 * options and target, repetitions in order.
 */
#ifndef FSLAB_RUNREPORT_H
#define FSLAB_RUNREPORT_H

#include <stdio.h>

#include "measure/result.h"

void runreport_print(FILE *out, const struct run_rec *run);


#endif
