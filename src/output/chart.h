/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chart.h - the report's charts, drawn with cairo on its SVG surface
 * (cairo_svg_surface_create_for_stream) into memory and handed back as
 * SVG text ready to inline into HTML: no XML declaration, and every id
 * the surface made (glyphs, clips) prefixed with "c<id>-", since several
 * inline SVGs share one document's id namespace.
 *
 * Each function returns a newly allocated string, or NULL after printing
 * the cairo error.  NaN values are skipped.
 */
#ifndef FSLAB_CHART_H
#define FSLAB_CHART_H

#include <stddef.h>

/* Where a chart goes: inline in HTML, or a file of its own. */
enum chart_file { CHART_INLINE = 0, CHART_SVG, CHART_PNG };

#include <cairo.h>

/* One bar per group, at mean, with a whisker from lo to hi (its CI). */
char *chart_bars(int id, const char *title, const char *unit,
		 const char *const *labels, const double *mean,
		 const double *lo, const double *hi, size_t n);

/* Every sample of each group as a dot, to show the spread. */
char *chart_scatter(int id, const char *title, const char *unit,
		    const char *const *labels, const double *const *x,
		    const size_t *nx, size_t n);

/* Series i is y[i][0..ny[i]) plotted against its index (a time series). */
char *chart_lines(int id, const char *title, const char *unit,
		  const char *const *names, const double *const *y,
		  const size_t *ny, size_t n);

/*
 * Series i's cumulative distribution: the fraction y[i][j] of samples at
 * or below x[i][j] (> 0, ascending), x on a log scale so that a tail an
 * order of magnitude out stays in view (latencies in ns: the ticks say
 * 1us, 10ms); names label the legend.
 */
char *chart_cdf(int id, const char *title, const char *const *names,
		const double *const *x, const double *const *y,
		const size_t *nxy, size_t n);

/* The same as a file's bytes (SVG with its XML declaration, or PNG at
 * twice the size), *len of them; NULL after the cairo error. */
char *chart_cdf_file(enum chart_file file, const char *title,
		     const char *const *names, const double *const *x,
		     const double *const *y, const size_t *nxy, size_t n,
		     size_t *len);

/*
 * Anything else drawn with cairo (history's trend charts): draw() paints
 * the w x h points of its context; the SVG text comes back like the
 * charts' (ids prefixed).
 */
char *chart_custom(int id, double w, double h,
		   void (*draw)(cairo_t *cr, double w, double h,
				void *closure),
		   void *closure);

/*
 * Release cairo's and fontconfig's process-wide caches once no chart
 * is drawn any more, so leak checkers see only real leaks.
 */
void chart_cleanup(void);

#endif
