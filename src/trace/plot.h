/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.h - seekwatcher's three panels for one block-I/O trace, drawn
 * with cairo: disk offset against time (reads and writes in different
 * colours), throughput over time, seeks per second over time.
 *
 * trace_plot_draw() draws into any cairo context, so the HTML report can
 * put the panels into its own surface; trace_plot_svg() writes them as an
 * SVG stream through a cairo write function; trace_plot_png() is what
 * `fslab trace --png` uses.
 */
#ifndef FSLAB_TRACE_PLOT_H
#define FSLAB_TRACE_PLOT_H

#include <stddef.h>

#include <cairo.h>

#include "trace/analyze.h"

#define TRACE_PLOT_WIDTH 900
#define TRACE_PLOT_HEIGHT 780

/*
 * Draw the three panels into the rectangle (0, 0, width, height) of cr's
 * user space.  rq (in issue order) and s come from the same trace
 * (trace_analyze()); title may be NULL.  cr's state is saved and
 * restored.
 */
void trace_plot_draw(cairo_t *cr, double width, double height,
		     const struct trace_rq *rq, size_t nr,
		     const struct trace_stats *s, const char *title);
/* The lower two panels' data: value i covers [i, i+1) * bin_s. */
struct trace_plot_series {
	double bin_s;
	size_t nr;
	const double *mib_s;                /* total; NULL: none */
	const double *rd_mib_s, *wr_mib_s;  /* NULL: not split */
	const double *seeks_s;              /* NULL: none */
};

/*
 * Axis ranges; 0 (or hi <= lo) takes the range from the data.  Several
 * traces drawn with the same axes compare at a glance.
 */
struct trace_plot_axes {
	double t_max_s;
	double off_lo_mib, off_hi_mib;
	double mib_s_max, seeks_s_max;
};

/*
 * The three panels from a request list (times relative to t0_ns) and
 * series given separately, e.g. a stored sample and the stored
 * trace.ts.* metrics (the HTML report).  title may be NULL.
 */
void trace_plot_draw_series(cairo_t *cr, double width, double height,
			    const struct trace_rq *rq, size_t nr,
			    uint64_t t0_ns,
			    const struct trace_plot_series *ser,
			    const struct trace_plot_axes *ax,
			    const char *title);
/* Write a PNG of TRACE_PLOT_WIDTH x TRACE_PLOT_HEIGHT to write(closure,
 * ...).  0 or -1. */
int trace_plot_png(cairo_write_func_t write, void *closure,
		   const struct trace_rq *rq, size_t nr,
		   const struct trace_stats *s, const char *title);
/* Write an SVG of width x height points to write(closure, ...).  0 or -1. */
int trace_plot_svg(cairo_write_func_t write, void *closure, double width,
		   double height, const struct trace_rq *rq, size_t nr,
		   const struct trace_stats *s, const char *title);
/*
 * Release cairo's and fontconfig's caches before exit (so leak checkers
 * stay quiet).  No cairo call may follow.
 */
void trace_plot_cleanup(void);

#endif
