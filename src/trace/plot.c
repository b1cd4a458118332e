/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.c - seekwatcher-style pictures of a block-I/O trace with cairo
 * (see plot.h).  Three panels share the time axis: offset vs time as a
 * scatter of requests (reads blue, writes red), throughput in MiB/s and
 * seeks/s per time bin of trace_analyze().
 */
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "trace/plot.h"
#include "util/util.h"

#define MARGIN_L 72.0
#define MARGIN_R 16.0
#define MARGIN_T 36.0
#define GAP 40.0
#define MARGIN_B 40.0

struct frame {
	double x, y, w, h;       /* plot area in user space */
	double t_max;            /* s */
	double y_min, y_max;
};

static const double c_read[3] = { 0.12, 0.35, 0.80 };
static const double c_write[3] = { 0.85, 0.15, 0.15 };
static const double c_total[3] = { 0.15, 0.55, 0.20 };

/* A "nice" tick step (1, 2, 5 x 10^k) for about n ticks over range. */
static double tick_step(double range, int n)
{
	double raw = range / n, mag, f;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

static double fx(const struct frame *f, double t)
{
	return f->x + (f->t_max > 0 ? t / f->t_max : 0) * f->w;
}

static double fy(const struct frame *f, double v)
{
	double r = f->y_max - f->y_min;

	return f->y + f->h - (r > 0 ? (v - f->y_min) / r : 0) * f->h;
}

static void text(cairo_t *cr, double x, double y, const char *s,
		 double align)
{
	cairo_text_extents_t te;

	cairo_text_extents(cr, s, &te);
	cairo_move_to(cr, x - te.width * align - te.x_bearing, y);
	cairo_show_text(cr, s);
}

static void axes(cairo_t *cr, const struct frame *f, const char *ylabel,
		 bool xlabels)
{
	double step, v;
	char buf[32];

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_fill(cr);
	cairo_set_line_width(cr, 0.5);
	cairo_set_font_size(cr, 10);
	step = tick_step(f->y_max - f->y_min, 5);
	for (v = ceil(f->y_min / step) * step; v <= f->y_max + step * 1e-9;
	     v += step) {
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		cairo_move_to(cr, f->x, fy(f, v));
		cairo_line_to(cr, f->x + f->w, fy(f, v));
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(buf, sizeof(buf), "%g", v);
		text(cr, f->x - 4, fy(f, v) + 3, buf, 1);
	}
	step = tick_step(f->t_max, 8);
	for (v = 0; v <= f->t_max + step * 1e-9; v += step) {
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		cairo_move_to(cr, fx(f, v), f->y);
		cairo_line_to(cr, fx(f, v), f->y + f->h);
		cairo_stroke(cr);
		if (xlabels) {
			cairo_set_source_rgb(cr, 0, 0, 0);
			snprintf(buf, sizeof(buf), "%g", v);
			text(cr, fx(f, v), f->y + f->h + 12, buf, 0.5);
		}
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_stroke(cr);
	cairo_save(cr);
	cairo_translate(cr, f->x - MARGIN_L + 14, f->y + f->h / 2);
	cairo_rotate(cr, -M_PI / 2);
	text(cr, 0, 0, ylabel, 0.5);
	cairo_restore(cr);
}

static void scatter(cairo_t *cr, struct frame *f, const struct trace_rq *rq,
		    size_t nr, const struct trace_stats *s)
{
	double lo = (double)s->min_sector * 512 / 1048576.0;
	double hi = (double)s->max_sector * 512 / 1048576.0;

	f->y_min = floor(lo);
	f->y_max = hi > f->y_min ? ceil(hi) : f->y_min + 1;
	axes(cr, f, "disk offset (MiB)", false);
	cairo_save(cr);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_clip(cr);
	for (int pass = 0; pass < 2; pass++) {
		const double *c = pass ? c_read : c_write;

		cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.7);
		for (size_t i = 0; i < nr; i++) {
			const struct trace_rq *r = &rq[i];
			double t, y, y2;

			if (!r->nr_sector ||
			    !(r->flags & (pass ? TRQ_READ : TRQ_WRITE)))
				continue;
			t = (double)(r->issue_ns - s->first_ns) / 1e9;
			y = fy(f, (double)r->sector * 512 / 1048576.0);
			y2 = fy(f, (double)(r->sector + r->nr_sector) * 512 /
				       1048576.0);
			cairo_rectangle(cr, fx(f, t) - 1, y2 - 1, 2,
					y - y2 + 2);
		}
		cairo_fill(cr);
	}
	cairo_restore(cr);
}

static double bin_mib_s(const struct trace_stats *s, size_t i, int which)
{
	const struct trace_bin *b = &s->bins[i];
	double v = which == 0 ? b->rd_bytes : which == 1 ? b->wr_bytes
			      : b->rd_bytes + b->wr_bytes;

	return v / 1048576.0 / ((double)s->bin_ns / 1e9);
}

static void line(cairo_t *cr, const struct frame *f,
		 const struct trace_stats *s, const double *c,
		 double (*val)(const struct trace_stats *, size_t, int),
		 int which)
{
	double bw = (double)s->bin_ns / 1e9;

	cairo_save(cr);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, c[0], c[1], c[2]);
	cairo_set_line_width(cr, 1.5);
	for (size_t i = 0; i < s->nr_bins; i++) {
		double x0 = fx(f, (double)i * bw);
		double x1 = fx(f, (double)(i + 1) * bw);
		double y = fy(f, val(s, i, which));

		if (!i)
			cairo_move_to(cr, x0, y);
		else
			cairo_line_to(cr, x0, y);
		cairo_line_to(cr, x1, y);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

static double bin_seeks_s(const struct trace_stats *s, size_t i, int which)
{
	(void)which;
	return s->bins[i].seeks / ((double)s->bin_ns / 1e9);
}

static double series_max(const struct trace_stats *s,
			 double (*val)(const struct trace_stats *, size_t,
				       int), int which)
{
	double m = 0;

	for (size_t i = 0; i < s->nr_bins; i++)
		if (val(s, i, which) > m)
			m = val(s, i, which);
	return m > 0 ? m * 1.1 : 1;
}

static void legend(cairo_t *cr, double x, double y, const double *c,
		   const char *s)
{
	cairo_set_source_rgb(cr, c[0], c[1], c[2]);
	cairo_rectangle(cr, x, y - 8, 10, 8);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, x + 14, y, s, 0);
}

void trace_plot_draw(cairo_t *cr, double width, double height,
		     const struct trace_rq *rq, size_t nr,
		     const struct trace_stats *s, const char *title)
{
	double ph = (height - MARGIN_T - MARGIN_B - 2 * GAP) / 3;
	double t_max = (double)(s->last_ns - s->first_ns) / 1e9;
	struct frame f = { MARGIN_L, MARGIN_T, width - MARGIN_L - MARGIN_R,
			   ph, t_max > 0 ? t_max : 1, 0, 1 };
	char buf[160];

	cairo_save(cr);
	cairo_set_source_rgb(cr, 0.97, 0.97, 0.97);
	cairo_rectangle(cr, 0, 0, width, height);
	cairo_fill(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 13);
	snprintf(buf, sizeof(buf), "%s%s%llu requests, %llu seeks",
		 title ? title : "", title ? ": " : "",
		 (unsigned long long)s->reqs, (unsigned long long)s->seeks);
	text(cr, width / 2, 20, buf, 0.5);

	scatter(cr, &f, rq, nr, s);
	cairo_set_font_size(cr, 10);
	legend(cr, f.x + f.w - 110, f.y - 4, c_read, "reads");
	legend(cr, f.x + f.w - 55, f.y - 4, c_write, "writes");

	f.y += ph + GAP;
	f.y_min = 0;
	f.y_max = series_max(s, bin_mib_s, 2);
	axes(cr, &f, "throughput (MiB/s)", false);
	line(cr, &f, s, c_total, bin_mib_s, 2);
	line(cr, &f, s, c_read, bin_mib_s, 0);
	line(cr, &f, s, c_write, bin_mib_s, 1);
	legend(cr, f.x + f.w - 165, f.y - 4, c_total, "total");

	f.y += ph + GAP;
	f.y_max = series_max(s, bin_seeks_s, 0);
	axes(cr, &f, "seeks/s", true);
	line(cr, &f, s, c_total, bin_seeks_s, 0);
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, f.x + f.w / 2, f.y + f.h + 28, "time (s)", 0.5);
	cairo_restore(cr);
}

static int finish_surface(cairo_surface_t *sf, cairo_t *cr, const char *what)
{
	cairo_status_t st = cairo_status(cr);

	cairo_destroy(cr);
	cairo_surface_finish(sf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	if (st != CAIRO_STATUS_SUCCESS)
		return error("cannot draw '%s': %s", what,
			     cairo_status_to_string(st));
	return 0;
}

int trace_plot_png(const char *path, const struct trace_rq *rq, size_t nr,
		   const struct trace_stats *s, const char *title)
{
	cairo_surface_t *sf = cairo_image_surface_create(
		CAIRO_FORMAT_RGB24, TRACE_PLOT_WIDTH, TRACE_PLOT_HEIGHT);
	cairo_t *cr = cairo_create(sf);
	cairo_status_t st;

	trace_plot_draw(cr, TRACE_PLOT_WIDTH, TRACE_PLOT_HEIGHT, rq, nr, s,
			title);
	st = cairo_surface_write_to_png(sf, path);
	if (st != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(cr);
		cairo_surface_destroy(sf);
		return error("cannot write '%s': %s", path,
			     cairo_status_to_string(st));
	}
	return finish_surface(sf, cr, path);
}

int trace_plot_svg(cairo_write_func_t write, void *closure, double width,
		   double height, const struct trace_rq *rq, size_t nr,
		   const struct trace_stats *s, const char *title)
{
	cairo_surface_t *sf = cairo_svg_surface_create_for_stream(
		write, closure, width, height);
	cairo_t *cr = cairo_create(sf);

	trace_plot_draw(cr, width, height, rq, nr, s, title);
	return finish_surface(sf, cr, "svg");
}

void trace_plot_cleanup(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}
