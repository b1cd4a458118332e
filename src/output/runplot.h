/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runplot.h - one run's latency distributions drawn to a file: per
 * target, workload, phase and op class, every repetition's histogram
 * merged and drawn as a CDF on a log latency axis (the busiest 8 with
 * at least 20 operations), PNG or SVG by the file name's extension.
 */
#ifndef FSLAB_OUTPUT_RUNPLOT_H
#define FSLAB_OUTPUT_RUNPLOT_H

#include <stdbool.h>

#include "measure/result.h"

/* Does path end in .png or .svg? */
bool runplot_name_ok(const char *path);

/* 0, or -1 after an error message (nothing to plot, bad name, I/O). */
int runplot_write(const struct run_rec *r, const char *path);

#endif
