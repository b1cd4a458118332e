/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chart.c - bar, scatter and line charts on cairo's SVG surface (see
 * chart.h).  Text uses cairo's toy API: the report needs labels, not
 * typography.
 */
#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/chart.h"
#include "util/util.h"

#define CHART_W 640.0
#define CHART_H 300.0
#define PLOT_L 70.0
#define PLOT_R 20.0
#define PLOT_T 34.0
#define PLOT_B 60.0

struct buf {
	char *s;
	size_t len, alloc;
};

static cairo_status_t buf_write(void *closure, const unsigned char *data,
				unsigned int len)
{
	struct buf *b = closure;

	ALLOC_GROW(b->s, b->len + len + 1, b->alloc);
	memcpy(b->s + b->len, data, len);
	b->len += len;
	b->s[b->len] = '\0';
	return CAIRO_STATUS_SUCCESS;
}

/* Colours for groups, colour-blind safe (Okabe-Ito). */
static void set_colour(cairo_t *cr, size_t i, double alpha)
{
	static const double pal[][3] = {
		{ 0.00, 0.45, 0.70 }, { 0.90, 0.62, 0.00 },
		{ 0.00, 0.62, 0.45 }, { 0.80, 0.47, 0.65 },
		{ 0.34, 0.71, 0.91 }, { 0.84, 0.37, 0.00 },
		{ 0.94, 0.89, 0.26 }, { 0.30, 0.30, 0.30 },
	};
	const double *c = pal[i % ARRAY_SIZE(pal)];

	cairo_set_source_rgba(cr, c[0], c[1], c[2], alpha);
}

struct frame {
	cairo_surface_t *sf;
	cairo_t *cr;
	struct buf out;
	double ymin, ymax;       /* value range of the plot area */
	enum chart_file file;    /* CHART_INLINE but for a file of its own */
};

static double y_of(const struct frame *f, double v)
{
	double h = CHART_H - PLOT_T - PLOT_B;

	return CHART_H - PLOT_B - (v - f->ymin) / (f->ymax - f->ymin) * h;
}

/* A "nice" tick step (1, 2, 5 x 10^k) for about five ticks. */
static double nice_step(double range)
{
	double raw = range / 5, mag = pow(10, floor(log10(raw)));
	double r = raw / mag;

	return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

static void text_at(cairo_t *cr, double x, double y, const char *s,
		    double align)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - e.x_advance * align, y);
	cairo_show_text(cr, s);
}

static void frame_begin(struct frame *f, const char *title, const char *unit,
			double lo, double hi)
{
	double step, t;
	char lab[32];

	memset(&f->out, 0, sizeof(f->out));
	if (f->file == CHART_PNG) {
		/* twice the points, so the text stays legible */
		f->sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
						   2 * (int)CHART_W,
						   2 * (int)CHART_H);
		f->cr = cairo_create(f->sf);
		cairo_scale(f->cr, 2, 2);
	} else {
		f->sf = cairo_svg_surface_create_for_stream(buf_write, &f->out,
							    CHART_W, CHART_H);
		f->cr = cairo_create(f->sf);
	}
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (lo > 0)
		lo = 0;
	if (hi <= lo)
		hi = lo + 1;
	step = nice_step(hi - lo);
	f->ymin = floor(lo / step) * step;
	f->ymax = ceil(hi * 1.05 / step) * step;
	if (f->ymax <= f->ymin)
		f->ymax = f->ymin + step;

	cairo_set_source_rgb(f->cr, 1, 1, 1);
	cairo_paint(f->cr);
	cairo_select_font_face(f->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(f->cr, 14);
	cairo_set_source_rgb(f->cr, 0.1, 0.1, 0.1);
	text_at(f->cr, CHART_W / 2, 20, title, 0.5);
	cairo_select_font_face(f->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(f->cr, 11);
	cairo_set_line_width(f->cr, 1);
	for (t = f->ymin; t <= f->ymax + step / 2; t += step) {
		double y = y_of(f, t);

		cairo_set_source_rgb(f->cr, 0.88, 0.88, 0.88);
		cairo_move_to(f->cr, PLOT_L, y);
		cairo_line_to(f->cr, CHART_W - PLOT_R, y);
		cairo_stroke(f->cr);
		cairo_set_source_rgb(f->cr, 0.2, 0.2, 0.2);
		snprintf(lab, sizeof(lab), "%g", fabs(t) < step / 1e6 ? 0 : t);
		text_at(f->cr, PLOT_L - 6, y + 4, lab, 1);
	}
	cairo_set_source_rgb(f->cr, 0.2, 0.2, 0.2);
	cairo_move_to(f->cr, PLOT_L, PLOT_T);
	cairo_line_to(f->cr, PLOT_L, CHART_H - PLOT_B);
	cairo_line_to(f->cr, CHART_W - PLOT_R, CHART_H - PLOT_B);
	cairo_stroke(f->cr);
	cairo_save(f->cr);
	cairo_move_to(f->cr, 14, (CHART_H - PLOT_B + PLOT_T) / 2);
	cairo_rotate(f->cr, -M_PI / 2);
	text_at(f->cr, 0, 0, unit && *unit ? unit : "value", 0.5);
	cairo_restore(f->cr);
}

/* Rewrite ids so several charts can live in one HTML document. */
static char *prefix_ids(const char *svg, int id)
{
	static const char *const pats[] = { "id=\"", "href=\"#", "url(#" };
	char pre[24];
	size_t plen, alloc, len = 0;
	char *out;
	const char *s = strstr(svg, "<svg");

	if (!s)
		s = svg;
	plen = (size_t)snprintf(pre, sizeof(pre), "c%d-", id);
	alloc = strlen(s) + 1;
	out = xmalloc(alloc);
	while (*s) {
		size_t m = 0;

		for (size_t i = 0; i < ARRAY_SIZE(pats) && !m; i++)
			if (!strncmp(s, pats[i], strlen(pats[i])))
				m = strlen(pats[i]);
		ALLOC_GROW(out, len + m + plen + 2, alloc);
		if (m) {
			memcpy(out + len, s, m);
			len += m;
			memcpy(out + len, pre, plen);
			len += plen;
			s += m;
		} else {
			out[len++] = *s++;
		}
	}
	out[len] = '\0';
	return out;
}

static char *frame_end(struct frame *f, int id)
{
	cairo_status_t st = CAIRO_STATUS_SUCCESS;
	char *svg = NULL;

	cairo_destroy(f->cr);
	if (f->file == CHART_PNG)
		st = cairo_surface_write_to_png_stream(f->sf, buf_write,
						       &f->out);
	else
		cairo_surface_finish(f->sf);
	if (f->file != CHART_PNG || st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(f->sf);
	cairo_surface_destroy(f->sf);
	if (st != CAIRO_STATUS_SUCCESS || !f->out.s)
		error("cannot draw chart: %s", cairo_status_to_string(st));
	else if (f->file == CHART_INLINE)
		svg = prefix_ids(f->out.s, id);
	else
		return f->out.s;   /* the file's bytes, NUL after them */
	free(f->out.s);
	return svg;
}

static void range(const double *v, size_t n, double *lo, double *hi)
{
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (!isfinite(*lo) || v[i] < *lo)
			*lo = v[i];
		if (!isfinite(*hi) || v[i] > *hi)
			*hi = v[i];
	}
}

static void x_labels(cairo_t *cr, const char *const *labels, size_t n,
		     double slot)
{
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	for (size_t i = 0; i < n; i++)
		text_at(cr, PLOT_L + slot * ((double)i + 0.5),
			CHART_H - PLOT_B + 16, labels[i], 0.5);
}

char *chart_custom(int id, double w, double h,
		   void (*draw)(cairo_t *cr, double w, double h,
				void *closure),
		   void *closure)
{
	struct frame f;

	memset(&f, 0, sizeof(f));
	f.sf = cairo_svg_surface_create_for_stream(buf_write, &f.out, w, h);
	f.cr = cairo_create(f.sf);
	draw(f.cr, w, h, closure);
	return frame_end(&f, id);
}

void chart_cleanup(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}

static void legend(struct frame *f, const char *const *names, size_t n)
{
	double slot = 150, w = CHART_W - PLOT_L - PLOT_R;
	size_t cols;

	/* as many a row as the longest name lets, rows upwards */
	for (size_t i = 0; i < n; i++) {
		cairo_text_extents_t e;

		cairo_text_extents(f->cr, names[i], &e);
		if (e.x_advance + 24 > slot)
			slot = e.x_advance + 24;
	}
	cols = (size_t)(w / slot) ? (size_t)(w / slot) : 1;
	for (size_t i = 0; i < n; i++) {
		double x = PLOT_L + slot * (double)(i % cols);
		double y = CHART_H - 24 - 14.0 * (double)(i / cols);

		set_colour(f->cr, i, 1);
		cairo_rectangle(f->cr, x, y, 10, 10);
		cairo_fill(f->cr);
		cairo_set_source_rgb(f->cr, 0.2, 0.2, 0.2);
		cairo_move_to(f->cr, x + 14, y + 9);
		cairo_show_text(f->cr, names[i]);
	}
}

/* "1us", "100ms": a decade of nanoseconds as people say it. */
static void decade_label(char *buf, size_t len, int e)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	int u = e / 3 > 3 ? 3 : e / 3;

	snprintf(buf, len, "%.0f%s", pow(10, e - 3 * u), units[u]);
}

char *chart_bars(int id, const char *title, const char *unit,
		 const char *const *labels, const double *mean,
		 const double *lo, const double *hi, size_t n)
{
	double vlo = NAN, vhi = NAN, slot;
	struct frame f;

	range(mean, n, &vlo, &vhi);
	range(lo, n, &vlo, &vhi);
	range(hi, n, &vlo, &vhi);
	frame_begin(&f, title, unit, vlo, vhi);
	slot = (CHART_W - PLOT_L - PLOT_R) / (double)(n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		double cx = PLOT_L + slot * ((double)i + 0.5), w = slot * 0.6;

		if (!isfinite(mean[i]))
			continue;
		set_colour(f.cr, i, 0.85);
		cairo_rectangle(f.cr, cx - w / 2, y_of(&f, mean[i]), w,
				y_of(&f, f.ymin > 0 ? f.ymin : 0) -
				y_of(&f, mean[i]));
		cairo_fill(f.cr);
		if (isfinite(lo[i]) && isfinite(hi[i])) {
			cairo_set_source_rgb(f.cr, 0.1, 0.1, 0.1);
			cairo_set_line_width(f.cr, 1.5);
			cairo_move_to(f.cr, cx, y_of(&f, lo[i]));
			cairo_line_to(f.cr, cx, y_of(&f, hi[i]));
			cairo_move_to(f.cr, cx - 8, y_of(&f, lo[i]));
			cairo_line_to(f.cr, cx + 8, y_of(&f, lo[i]));
			cairo_move_to(f.cr, cx - 8, y_of(&f, hi[i]));
			cairo_line_to(f.cr, cx + 8, y_of(&f, hi[i]));
			cairo_stroke(f.cr);
		} else {
			/* no interval (fewer than two repetitions): say so,
			 * so the bar does not look exact */
			cairo_set_source_rgb(f.cr, 0.6, 0.1, 0.1);
			text_at(f.cr, cx, y_of(&f, mean[i]) - 4, "no CI", 0.5);
		}
	}
	x_labels(f.cr, labels, n, slot);
	return frame_end(&f, id);
}

char *chart_scatter(int id, const char *title, const char *unit,
		    const char *const *labels, const double *const *x,
		    const size_t *nx, size_t n)
{
	double vlo = NAN, vhi = NAN, slot;
	struct frame f;

	for (size_t i = 0; i < n; i++)
		range(x[i], nx[i], &vlo, &vhi);
	frame_begin(&f, title, unit, vlo, vhi);
	slot = (CHART_W - PLOT_L - PLOT_R) / (double)(n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		double cx = PLOT_L + slot * ((double)i + 0.5);

		for (size_t j = 0; j < nx[i]; j++) {
			/* Spread the dots sideways in sample order. */
			double dx = nx[i] > 1 ? ((double)j / (double)(nx[i] - 1)
						 - 0.5) * slot * 0.5 : 0;

			if (!isfinite(x[i][j]))
				continue;
			set_colour(f.cr, i, 0.8);
			cairo_arc(f.cr, cx + dx, y_of(&f, x[i][j]), 4, 0,
				  2 * M_PI);
			cairo_fill(f.cr);
		}
	}
	x_labels(f.cr, labels, n, slot);
	return frame_end(&f, id);
}

char *chart_lines(int id, const char *title, const char *unit,
		  const char *const *names, const double *const *y,
		  const size_t *ny, size_t n)
{
	double vlo = NAN, vhi = NAN, w = CHART_W - PLOT_L - PLOT_R;
	size_t maxn = 1;
	struct frame f;

	for (size_t i = 0; i < n; i++) {
		range(y[i], ny[i], &vlo, &vhi);
		if (ny[i] > maxn)
			maxn = ny[i];
	}
	frame_begin(&f, title, unit, vlo, vhi);
	for (size_t i = 0; i < n; i++) {
		bool pen = false;

		set_colour(f.cr, i, 1);
		cairo_set_line_width(f.cr, 2);
		for (size_t j = 0; j < ny[i]; j++) {
			double px = PLOT_L + (maxn > 1 ? w * (double)j /
					      (double)(maxn - 1) : w / 2);

			if (!isfinite(y[i][j])) {
				pen = false;
				continue;
			}
			if (pen)
				cairo_line_to(f.cr, px, y_of(&f, y[i][j]));
			else
				cairo_move_to(f.cr, px, y_of(&f, y[i][j]));
			pen = true;
		}
		cairo_stroke(f.cr);
	}
	legend(&f, names, n);
	cairo_set_source_rgb(f.cr, 0.2, 0.2, 0.2);
	text_at(f.cr, CHART_W - PLOT_R, CHART_H - PLOT_B + 16, "interval",
		1);
	return frame_end(&f, id);
}

static char *cdf(enum chart_file file, int id, const char *title,
		 const char *const *names,
		 const double *const *x, const double *const *y,
		 const size_t *nxy, size_t n, size_t *len)
{
	char *b;
	double lo = INFINITY, hi = -INFINITY, w = CHART_W - PLOT_L - PLOT_R;
	struct frame f = { .file = file };
	char lab[32];
	int e0, e1;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < nxy[i]; j++)
			if (x[i][j] > 0 && isfinite(x[i][j])) {
				lo = fmin(lo, x[i][j]);
				hi = fmax(hi, x[i][j]);
			}
	if (!isfinite(lo)) {
		lo = 1;
		hi = 10;
	}
	e0 = (int)floor(log10(lo));
	e1 = (int)ceil(log10(hi));
	if (e1 <= e0)
		e1 = e0 + 1;
	/* frame_begin pads the top by 5 %: this keeps the axis at 1 */
	frame_begin(&f, title, "fraction at or below", 0, 1 / 1.05);
#define XP(v) (PLOT_L + w * (log10(v) - e0) / (double)(e1 - e0))
	for (int e = e0; e <= e1; e++) {
		cairo_set_source_rgb(f.cr, 0.88, 0.88, 0.88);
		cairo_move_to(f.cr, XP(pow(10, e)), PLOT_T);
		cairo_line_to(f.cr, XP(pow(10, e)), CHART_H - PLOT_B);
		cairo_stroke(f.cr);
		cairo_set_source_rgb(f.cr, 0.2, 0.2, 0.2);
		decade_label(lab, sizeof(lab), e);
		text_at(f.cr, XP(pow(10, e)), CHART_H - PLOT_B + 14, lab, 0.5);
	}
	for (size_t i = 0; i < n; i++) {
		bool pen = false;

		set_colour(f.cr, i, 1);
		cairo_set_line_width(f.cr, 2);
		for (size_t j = 0; j < nxy[i]; j++) {
			if (!(x[i][j] > 0) || !isfinite(y[i][j]))
				continue;
			if (pen)
				cairo_line_to(f.cr, XP(x[i][j]),
					      y_of(&f, y[i][j]));
			else
				cairo_move_to(f.cr, XP(x[i][j]),
					      y_of(&f, y[i][j]));
			pen = true;
		}
		cairo_stroke(f.cr);
	}
#undef XP
	legend(&f, names, n);
	b = frame_end(&f, id);
	*len = b ? f.out.len : 0;
	return b;
}

char *chart_cdf(int id, const char *title, const char *const *names,
		const double *const *x, const double *const *y,
		const size_t *nxy, size_t n)
{
	size_t len;

	return cdf(CHART_INLINE, id, title, names, x, y, nxy, n, &len);
}

char *chart_cdf_file(enum chart_file file, const char *title,
		     const char *const *names, const double *const *x,
		     const double *const *y, const size_t *nxy, size_t n,
		     size_t *len)
{
	return cdf(file, 0, title, names, x, y, nxy, n, len);
}
