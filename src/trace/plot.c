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
#include <stdlib.h>
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
		    size_t nr, uint64_t t0_ns, const struct trace_plot_axes *ax)
{
	f->y_min = floor(ax->off_lo_mib);
	f->y_max = ax->off_hi_mib > f->y_min ? ceil(ax->off_hi_mib)
					      : f->y_min + 1;
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
			t = (double)(r->issue_ns > t0_ns ? r->issue_ns - t0_ns
							 : 0) / 1e9;
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

static void line(cairo_t *cr, const struct frame *f,
		 const struct trace_plot_series *ser, const double *v,
		 const double *c)
{
	cairo_save(cr);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, c[0], c[1], c[2]);
	cairo_set_line_width(cr, 1.5);
	for (size_t i = 0; i < ser->nr; i++) {
		double x0 = fx(f, (double)i * ser->bin_s);
		double x1 = fx(f, (double)(i + 1) * ser->bin_s);
		double y = fy(f, isfinite(v[i]) ? v[i] : 0);

		if (!i)
			cairo_move_to(cr, x0, y);
		else
			cairo_line_to(cr, x0, y);
		cairo_line_to(cr, x1, y);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

static double series_max(const double *v, size_t n)
{
	double m = 0;

	for (size_t i = 0; v && i < n; i++)
		if (isfinite(v[i]) && v[i] > m)
			m = v[i];
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

void trace_plot_draw_series(cairo_t *cr, double width, double height,
			    const struct trace_rq *rq, size_t nr,
			    uint64_t t0_ns,
			    const struct trace_plot_series *ser,
			    const struct trace_plot_axes *axp,
			    const char *title)
{
	double ph = (height - MARGIN_T - MARGIN_B - 2 * GAP) / 3;
	struct trace_plot_axes ax = *axp;
	struct frame f;

	/* Unset ranges come from the data. */
	if (!(ax.t_max_s > 0))
		ax.t_max_s = (double)ser->nr * ser->bin_s;
	for (size_t i = 0; i < nr; i++) {
		double t = (double)(rq[i].issue_ns > t0_ns ?
				    rq[i].issue_ns - t0_ns : 0) / 1e9;

		if (t > ax.t_max_s)
			ax.t_max_s = t;
	}
	if (!(ax.off_hi_mib > ax.off_lo_mib)) {
		double lo = INFINITY, hi = 0;

		for (size_t i = 0; i < nr; i++) {
			double a = (double)rq[i].sector * 512 / 1048576.0;
			double b = (double)(rq[i].sector + rq[i].nr_sector) *
				   512 / 1048576.0;

			if (a < lo)
				lo = a;
			if (b > hi)
				hi = b;
		}
		ax.off_lo_mib = isfinite(lo) ? lo : 0;
		ax.off_hi_mib = hi;
	}
	if (!(ax.mib_s_max > 0))
		ax.mib_s_max = series_max(ser->mib_s, ser->nr);
	if (!(ax.seeks_s_max > 0))
		ax.seeks_s_max = series_max(ser->seeks_s, ser->nr);

	f = (struct frame){ MARGIN_L, MARGIN_T, width - MARGIN_L - MARGIN_R,
			    ph, ax.t_max_s > 0 ? ax.t_max_s : 1, 0, 1 };
	cairo_save(cr);
	cairo_set_source_rgb(cr, 0.97, 0.97, 0.97);
	cairo_rectangle(cr, 0, 0, width, height);
	cairo_fill(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 13);
	if (title)
		text(cr, width / 2, 20, title, 0.5);

	scatter(cr, &f, rq, nr, t0_ns, &ax);
	cairo_set_font_size(cr, 10);
	legend(cr, f.x + f.w - 110, f.y - 4, c_read, "reads");
	legend(cr, f.x + f.w - 55, f.y - 4, c_write, "writes");

	f.y += ph + GAP;
	f.y_min = 0;
	f.y_max = ax.mib_s_max;
	axes(cr, &f, "throughput (MiB/s)", false);
	if (ser->mib_s)
		line(cr, &f, ser, ser->mib_s, c_total);
	if (ser->rd_mib_s)
		line(cr, &f, ser, ser->rd_mib_s, c_read);
	if (ser->wr_mib_s)
		line(cr, &f, ser, ser->wr_mib_s, c_write);
	legend(cr, f.x + f.w - (ser->rd_mib_s ? 165 : 55), f.y - 4, c_total,
	       "total");
	if (ser->rd_mib_s) {
		legend(cr, f.x + f.w - 110, f.y - 4, c_read, "reads");
		legend(cr, f.x + f.w - 55, f.y - 4, c_write, "writes");
	}

	f.y += ph + GAP;
	f.y_max = ax.seeks_s_max;
	axes(cr, &f, "seeks/s", true);
	if (ser->seeks_s)
		line(cr, &f, ser, ser->seeks_s, c_total);
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, f.x + f.w / 2, f.y + f.h + 28, "time (s)", 0.5);
	cairo_restore(cr);
}

void trace_plot_draw(cairo_t *cr, double width, double height,
		     const struct trace_rq *rq, size_t nr,
		     const struct trace_stats *s, const char *title)
{
	size_t n = s->nr_bins;
	double *v = xcalloc(4 * (n ? n : 1), sizeof(double));
	double bw = (double)s->bin_ns / 1e9;
	struct trace_plot_series ser = { bw, n, v, v + n, v + 2 * n,
					 v + 3 * n };
	struct trace_plot_axes ax = {
		(double)(s->last_ns - s->first_ns) / 1e9,
		(double)s->min_sector * 512 / 1048576.0,
		(double)s->max_sector * 512 / 1048576.0, 0, 0,
	};
	char buf[160];

	for (size_t i = 0; i < n; i++) {
		v[n + i] = s->bins[i].rd_bytes / 1048576.0 / bw;
		v[2 * n + i] = s->bins[i].wr_bytes / 1048576.0 / bw;
		v[i] = v[n + i] + v[2 * n + i];
		v[3 * n + i] = s->bins[i].seeks / bw;
	}
	if (!(ax.off_hi_mib > ax.off_lo_mib))
		ax.off_hi_mib = ax.off_lo_mib + 1;
	snprintf(buf, sizeof(buf), "%s%s%llu requests, %llu seeks",
		 title ? title : "", title ? ": " : "",
		 (unsigned long long)s->reqs, (unsigned long long)s->seeks);
	trace_plot_draw_series(cr, width, height, rq, nr, s->first_ns, &ser,
			       &ax, buf);
	free(v);
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

int trace_plot_png(cairo_write_func_t write, void *closure,
		   const struct trace_rq *rq, size_t nr,
		   const struct trace_stats *s, const char *title)
{
	cairo_surface_t *sf = cairo_image_surface_create(
		CAIRO_FORMAT_RGB24, TRACE_PLOT_WIDTH, TRACE_PLOT_HEIGHT);
	cairo_t *cr = cairo_create(sf);
	cairo_status_t st;

	trace_plot_draw(cr, TRACE_PLOT_WIDTH, TRACE_PLOT_HEIGHT, rq, nr, s,
			title);
	st = cairo_surface_write_to_png_stream(sf, write, closure);
	if (st != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(cr);
		cairo_surface_destroy(sf);
		return error("cannot write the PNG: %s",
			     cairo_status_to_string(st));
	}
	return finish_surface(sf, cr, "png");
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
