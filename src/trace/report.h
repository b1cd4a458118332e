/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - a block trace's figures out (text, JSON, SVG) and its
 * modelled disk time; used by `fslab trace`.
 */
#ifndef FSLAB_TRACE_REPORT_H
#define FSLAB_TRACE_REPORT_H

#include <stdio.h>

#include "disk/diskphase.h"
#include "trace/analyze.h"
#include "trace/blktrace.h"

/* The modelled disk: every data request, in issue order. */
struct trace_modelled {
	const char *profile;
	struct disk_result r;
};

void trace_model_disk(const struct disk_profile *p,
		      const struct trace_result *res,
		      struct trace_modelled *md);
void trace_print_disk(FILE *out, const struct trace_modelled *md,
		      double wall_s);
void trace_print_stats(FILE *out, const char *dev,
		       const struct trace_result *res,
		       const struct trace_stats *s, double wall_s);
/* The figures and time series as JSON to path ("-" = stdout). */
int trace_write_json(const char *path, const char *dev,
		     const struct trace_result *res,
		     const struct trace_stats *s, double wall_s,
		     const struct trace_modelled *md);
/* seekwatcher's panels as SVG, and as PNG. */
int trace_write_svg(const char *path, const struct trace_result *res,
		    const struct trace_stats *s, const char *title);
int trace_write_png(const char *path, const struct trace_result *res,
		    const struct trace_stats *s, const char *title);

#endif
