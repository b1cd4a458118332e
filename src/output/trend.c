// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trend.c - trend charts of `fslab report --history` (see trend.h),
 * drawn with cairo through chart_custom() like the report's other
 * charts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "output/chart.h"
#include "output/html.h"
#include "output/trend.h"
#include "util/util.h"

#define TW 720.0
#define TH 300.0
#define ML 70.0
#define MR 20.0
#define MT 30.0
#define MB 40.0

struct trend {
	const struct hist_series *s;
	const char *by;
};

static void text(cairo_t *cr, double x, double y, const char *s, double align)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - e.width * align, y);
	cairo_show_text(cr, s);
}

static void draw(cairo_t *cr, double w, double h, void *closure)
{
	const struct trend *t = closure;
	const struct hist_series *s = t->s;
	double lo = INFINITY, hi = -INFINITY, pw = w - ML - MR, ph = h - MT - MB;
	size_t n = s->nr_pts;
	char buf[64];

	for (size_t i = 0; i < n; i++) {
		const struct hist_point *p = &s->pts[i];
		double a = isfinite(p->lo) ? p->lo : p->mean;
		double b = isfinite(p->hi) ? p->hi : p->mean;

		if (!isfinite(p->mean))
			continue;
		lo = fmin(lo, a);
		hi = fmax(hi, b);
	}
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 11);
	cairo_set_source_rgb(cr, 0, 0, 0);
	snprintf(buf, sizeof(buf), "%s %s [%s]", s->phase, s->metric,
		 s->unit ? s->unit : "");
	text(cr, ML, 16, buf, 0);
	if (!(lo <= hi) || !n)
		return;
	if (lo == hi) {
		lo -= fabs(lo) * 0.05 + 1e-9;
		hi += fabs(hi) * 0.05 + 1e-9;
	}
#define X(i) (ML + pw * (n > 1 ? (double)(i) / (double)(n - 1) : 0.5))
#define Y(v) (MT + ph * (1 - ((v) - lo) / (hi - lo)))
	/* Axes with the range and the first and last point's label. */
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, ML, MT);
	cairo_line_to(cr, ML, MT + ph);
	cairo_line_to(cr, ML + pw, MT + ph);
	cairo_stroke(cr);
	snprintf(buf, sizeof(buf), "%.4g", hi);
	text(cr, ML - 4, MT + 4, buf, 1);
	snprintf(buf, sizeof(buf), "%.4g", lo);
	text(cr, ML - 4, MT + ph, buf, 1);
	snprintf(buf, sizeof(buf), "%s %s", t->by, s->pts[0].label);
	text(cr, ML, h - MB + 16, buf, 0);
	snprintf(buf, sizeof(buf), "%s %s", t->by, s->pts[n - 1].label);
	text(cr, ML + pw, h - MB + 16, buf, 1);
	/* Change points: dashed, between the two points. */
	cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
	cairo_set_dash(cr, (const double[]){ 4, 3 }, 2, 0);
	for (size_t k = 0; k < s->nr_cps; k++) {
		double x = (X(s->cps[k].at - 1) + X(s->cps[k].at)) / 2;

		cairo_move_to(cr, x, MT);
		cairo_line_to(cr, x, MT + ph);
		cairo_stroke(cr);
		snprintf(buf, sizeof(buf), "%+.1f%%", s->cps[k].pct);
		text(cr, x + 3, MT + 10, buf, 0);
	}
	cairo_set_dash(cr, NULL, 0, 0);
	/* Each segment's mean (the change points' before/after). */
	cairo_set_source_rgb(cr, 0.9, 0.5, 0.1);
	cairo_set_line_width(cr, 2);
	for (size_t k = 0; k <= s->nr_cps; k++) {
		size_t a = k ? s->cps[k - 1].at : 0;
		size_t b = k < s->nr_cps ? s->cps[k].at : n;
		double m = k < s->nr_cps ? s->cps[k].before :
			   s->nr_cps ? s->cps[k - 1].after : NAN;

		if (!isfinite(m))
			continue;
		cairo_move_to(cr, X(a), Y(m));
		cairo_line_to(cr, X(b - 1), Y(m));
		cairo_stroke(cr);
	}
	/* The points with their intervals. */
	cairo_set_source_rgb(cr, 0.1, 0.3, 0.7);
	cairo_set_line_width(cr, 1);
	for (size_t i = 0; i < n; i++) {
		const struct hist_point *p = &s->pts[i];

		if (!isfinite(p->mean))
			continue;
		if (isfinite(p->lo) && isfinite(p->hi)) {
			cairo_move_to(cr, X(i), Y(p->lo));
			cairo_line_to(cr, X(i), Y(p->hi));
			cairo_stroke(cr);
		}
		cairo_arc(cr, X(i), Y(p->mean), n > 200 ? 1 : 2.5, 0,
			  2 * M_PI);
		cairo_fill(cr);
	}
#undef X
#undef Y
}

static const char *by_word(enum hist_by by)
{
	return by == HIST_BY_KERNEL ? "kernel" : by == HIST_BY_VERSION ?
	       "version" : by == HIST_BY_DATE ? "date" : "run";
}

char *trend_chart(int id, const struct hist_series *s, enum hist_by by)
{
	struct trend t = { s, by_word(by) };

	return chart_custom(id, TW, TH, draw, &t);
}

int trend_write_report(FILE *out, const char *title, const struct history *h)
{
	int id = 0;

	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>",
	      out);
	html_escape(out, title);
	fputs("</title><style>body{font-family:sans-serif;max-width:60em;"
	      "margin:1em auto}li{font-family:monospace}</style></head>"
	      "<body>\n<h1>", out);
	html_escape(out, title);
	fprintf(out, "</h1>\n<p>%zu runs, one point per %s: the mean over "
		"repetitions with its 95%% interval; dashed lines are change "
		"points (E-divisive means, Student's t-test between the "
		"segments), orange lines the segments' means.</p>\n",
		h->nr_runs, by_word(h->o.by));
	if (!h->nr_series)
		fputs("<p>No figures to follow.</p>\n", out);
	for (size_t i = 0; i < h->nr_series; i++) {
		const struct hist_series *s = &h->series[i];
		struct trend t = { s, by_word(h->o.by) };
		char *svg = chart_custom(++id, TW, TH, draw, &t);

		fputs("<h2>", out);
		html_escape(out, s->workload);
		fputs(", target ", out);
		html_escape(out, s->target);
		fputs(": ", out);
		html_escape(out, s->phase);
		fputc(' ', out);
		html_escape(out, s->metric);
		fputs("</h2>\n", out);
		if (!svg)
			return -1;
		fputs(svg, out);
		free(svg);
		fputs("\n<ul>\n", out);
		if (!s->nr_cps)
			fputs("<li>no change point</li>\n", out);
		for (size_t k = 0; k < s->nr_cps; k++) {
			const struct hist_change *c = &s->cps[k];

			fprintf(out, "<li>between %s ", t.by);
			html_escape(out, s->pts[c->at - 1].label);
			fprintf(out, " and %s ", t.by);
			html_escape(out, s->pts[c->at].label);
			fprintf(out, ": %+.1f %%%s; ", c->pct,
				c->worse ? " (REGRESSION)" : "");
			if (!c->nr_changed)
				fputs("nothing recorded changed", out);
			for (size_t j = 0; j < c->nr_changed; j++) {
				if (j)
					fputs("; ", out);
				html_escape(out, c->changed[j]);
			}
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	fputs("</body></html>\n", out);
	return ferror(out) ? error("cannot write the report") : 0;
}
