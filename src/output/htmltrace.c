/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * htmltrace.c - the report's block-I/O figures: per traced phase,
 * seekwatcher's panels (offset scatter, throughput, seeks/s) for every
 * configuration side by side on shared axes, embedded as PNG.
 */
#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/html.h"
#include "output/html_internal.h"
#include "trace/plot.h"
#include "util/util.h"

/* ---- seekwatcher's panels per traced phase ---- */

#define TRACE_FIG_W 900.0
#define TRACE_FIG_H 640.0

/* ---- rasters: dense figures as embedded PNG ---- */

struct membuf {
	unsigned char *p;
	size_t len, alloc;
};

static cairo_status_t membuf_write(void *closure, const unsigned char *d,
				   unsigned int n)
{
	struct membuf *b = closure;

	ALLOC_GROW(b->p, b->len + n, b->alloc);
	memcpy(b->p + b->len, d, n);
	b->len += n;
	return CAIRO_STATUS_SUCCESS;
}

static void put_base64(FILE *out, const unsigned char *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		fputc(tab[v >> 18 & 63], out);
		fputc(tab[v >> 12 & 63], out);
		fputc(i + 1 < n ? tab[v >> 6 & 63] : '=', out);
		fputc(i + 2 < n ? tab[v & 63] : '=', out);
	}
}

/*
 * A figure as an <img> with a PNG data URI: a scatter of 20,000 requests
 * costs 170 bytes each as SVG elements (3.4 MB a figure) but a fixed
 * ~100 KB as pixels, which keeps a traced report small enough to mail.
 * Drawn at 1.5x so it stays sharp on high-density screens.  0 or -1.
 */
static int put_png(FILE *out, double w, double h,
		   void (*draw)(cairo_t *cr, double w, double h, void *closure),
		   void *closure, const char *alt)
{
	const double scale = 1.5;
	cairo_surface_t *sf = cairo_image_surface_create(
		CAIRO_FORMAT_RGB24, (int)(w * scale), (int)(h * scale));
	struct membuf b = { 0 };
	cairo_t *cr = cairo_create(sf);
	int rc = 0;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_scale(cr, scale, scale);
	draw(cr, w, h, closure);
	cairo_destroy(cr);
	cairo_surface_flush(sf);
	if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS ||
	    cairo_surface_write_to_png_stream(sf, membuf_write, &b) !=
	    CAIRO_STATUS_SUCCESS)
		rc = error("cannot draw a PNG figure");
	cairo_surface_destroy(sf);
	if (!rc) {
		fprintf(out, "<img width=%.0f height=%.0f alt=\"", w, h);
		html_escape(out, alt);
		fputs("\" src=\"data:image/png;base64,", out);
		put_base64(out, b.p, b.len);
		fputs("\">\n", out);
	}
	free(b.p);
	return rc;
}

/* One traced phase of one configuration, ready to draw. */
struct trace_fig {
	const char *label;
	size_t rep;
	const struct phase_rec *p;
	struct trace_rq *rq;         /* the stored sample */
	double *mib_s, *seeks_s;     /* trace.ts.N.* */
	struct trace_plot_series ser;
	const struct trace_plot_axes *ax;
	char *title;
};

/* trace.ts.N.NAME: N, or -1. */
static long ts_index(const char *metric, const char *name)
{
	const char *p = metric;
	char *end;
	long n;

	if (strncmp(p, "trace.ts.", 9))
		return -1;
	p += 9;
	n = strtol(p, &end, 10);
	if (end == p || *end != '.' || strcmp(end + 1, name) || n < 0 ||
	    n > 100000)
		return -1;
	return n;
}

/* The exact series the capture stored (every request, not the sample). */
static double *ts_series(const struct phase_rec *p, const char *name,
			 size_t *nr)
{
	double *v = NULL;
	size_t len = 0;

	for (size_t m = 0; m < p->nr_metrics; m++) {
		long i = ts_index(p->metrics[m].name, name);

		if (i < 0)
			continue;
		if ((size_t)i >= len) {
			v = xrealloc(v, ((size_t)i + 1) * sizeof(*v));
			for (size_t k = len; k <= (size_t)i; k++)
				v[k] = NAN;
			len = (size_t)i + 1;
		}
		v[i] = p->metrics[m].value;
	}
	if (*nr < len)
		*nr = len;
	return v;
}

static void fig_fill(struct trace_fig *f)
{
	const struct phase_rec *p = f->p;
	const struct metric *bs = phase_rec_metric(p, "trace.ts.bin_s");
	const struct metric *seeks = phase_rec_metric(p, "trace.seeks");
	size_t n = 0, n2 = 0;

	f->rq = xcalloc(p->nr_rqs ? p->nr_rqs : 1, sizeof(*f->rq));
	for (size_t i = 0; i < p->nr_rqs; i++) {
		f->rq[i].issue_ns = p->rqs[i].t_ns;
		f->rq[i].sector = p->rqs[i].sector;
		f->rq[i].nr_sector = p->rqs[i].bytes / 512;
		f->rq[i].flags = p->rqs[i].rw == 'R' ? TRQ_READ : TRQ_WRITE;
	}
	f->mib_s = ts_series(p, "MiB/s", &n);
	f->seeks_s = ts_series(p, "seeks/s", &n2);
	/* Both have the same bins; pad the shorter one should one lack a
	 * point (NaN is drawn as 0). */
	if (n2 > n)
		n = n2;
	f->mib_s = xrealloc(f->mib_s, (n ? n : 1) * sizeof(double));
	f->seeks_s = xrealloc(f->seeks_s, (n ? n : 1) * sizeof(double));
	f->ser.bin_s = bs && isfinite(bs->value) && bs->value > 0 ? bs->value
								  : 0.1;
	f->ser.nr = n;
	f->ser.mib_s = f->mib_s;
	f->ser.seeks_s = f->seeks_s;
	if (p->rqs_total > p->nr_rqs)
		f->title = xasprintf("%s on %s, rep %zu: %llu requests "
				     "(%zu drawn), %.0f seeks", p->name,
				     f->label, f->rep + 1,
				     (unsigned long long)p->rqs_total,
				     p->nr_rqs, seeks ? seeks->value : 0);
	else
		f->title = xasprintf("%s on %s, rep %zu: %llu requests, "
				     "%.0f seeks", p->name, f->label, f->rep + 1,
				     (unsigned long long)p->rqs_total,
				     seeks ? seeks->value : 0);
}

static void fig_release(struct trace_fig *f)
{
	free(f->rq);
	free(f->mib_s);
	free(f->seeks_s);
	free(f->title);
}

static void fig_draw(cairo_t *cr, double w, double h, void *closure)
{
	const struct trace_fig *f = closure;

	trace_plot_draw_series(cr, w, h, f->rq, f->p->nr_rqs, 0, &f->ser,
			       f->ax, f->title);
}

/* The first phase of that name in w with a sample; NULL if none. */
static const struct phase_rec *traced_phase(const struct wlrun_rec *w,
					    const char *name)
{
	for (size_t i = 0; i < w->nr_phases; i++)
		if (w->phases[i].name && !strcmp(w->phases[i].name, name) &&
		    w->phases[i].nr_rqs)
			return &w->phases[i];
	return NULL;
}

/*
 * One figure per configuration for the phase, side by side and on the
 * same axes (time, offset, throughput and seeks/s ranges shared), so
 * the targets compare at a glance; the overlaid throughput and seeks/s
 * lines are in the time series charts.
 */
static int trace_phase_figs(FILE *out, const struct html_section *sec,
			    const char *phase, int *id)
{
	const struct cmp_table *t = sec->table;
	struct trace_fig *figs = xcalloc(t->nr_groups + 1, sizeof(*figs));
	struct trace_plot_axes ax = { 0, INFINITY, 0, 0, 0 };
	size_t n = 0;
	int rc = 0;

	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_group *grp = &sec->groups[g];

		for (size_t r = 0; r < grp->nr_reps; r++) {
			const struct phase_rec *p = traced_phase(grp->reps[r],
								 phase);

			if (!p)
				continue;
			figs[n].label = t->labels[g];
			figs[n].rep = r;
			figs[n].p = p;
			fig_fill(&figs[n++]);
			break;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct trace_fig *f = &figs[i];
		double span = (double)f->p->m.wall_ns / 1e9;

		if ((double)f->ser.nr * f->ser.bin_s > span)
			span = (double)f->ser.nr * f->ser.bin_s;
		if (span > ax.t_max_s)
			ax.t_max_s = span;
		for (size_t k = 0; k < f->p->nr_rqs; k++) {
			double a = (double)f->rq[k].sector * 512 / 1048576.0;
			double b = (double)(f->rq[k].sector +
					    f->rq[k].nr_sector) * 512 /
				   1048576.0;
			double ts = (double)f->rq[k].issue_ns / 1e9;

			if (a < ax.off_lo_mib)
				ax.off_lo_mib = a;
			if (b > ax.off_hi_mib)
				ax.off_hi_mib = b;
			if (ts > ax.t_max_s)
				ax.t_max_s = ts;
		}
		for (size_t k = 0; k < f->ser.nr; k++) {
			if (isfinite(f->mib_s[k]) &&
			    f->mib_s[k] * 1.1 > ax.mib_s_max)
				ax.mib_s_max = f->mib_s[k] * 1.1;
			if (isfinite(f->seeks_s[k]) &&
			    f->seeks_s[k] * 1.1 > ax.seeks_s_max)
				ax.seeks_s_max = f->seeks_s[k] * 1.1;
		}
	}
	if (!isfinite(ax.off_lo_mib))
		ax.off_lo_mib = 0;
	fputs("<h3>block I/O: ", out);
	html_escape(out, phase);
	fputs("</h3>\n<p class=note>seekwatcher's panels of the first traced "
	      "phase of that name per configuration, on shared axes: every "
	      "data request at its disk offset (reads blue, writes red; a "
	      "phase with more than 20000 requests shows an even sample of "
	      "them), and throughput and seeks/s of all requests.</p>\n"
	      "<div class=charts>\n", out);
	for (size_t i = 0; i < n && !rc; i++) {
		figs[i].ax = &ax;
		(*id)++;
		fputs("<figure class=trace data-phase=\"", out);
		html_escape(out, phase);
		fputs("\" data-config=\"", out);
		html_escape(out, figs[i].label);
		fputs("\">\n", out);
		if (put_png(out, TRACE_FIG_W, TRACE_FIG_H, fig_draw, &figs[i],
			    figs[i].title) < 0) {
			rc = -1;
			fputs("</figure>\n", out);
			break;
		}
		fputs("<figcaption>", out);
		html_escape(out, figs[i].title);
		if (figs[i].p->rqs_total > figs[i].p->nr_rqs)
			fprintf(out, "; the scatter shows an even sample of "
				"%zu of them", figs[i].p->nr_rqs);
		fputs("</figcaption></figure>\n", out);
	}
	fputs("</div>\n", out);
	for (size_t i = 0; i < n; i++)
		fig_release(&figs[i]);
	free(figs);
	return rc;
}

static void add_traced(const struct phase_rec *p, void *data)
{
	if (p->nr_rqs && p->name)
		keyset_add(data, p->name);
}

/* Every phase name with a stored request sample, in order of appearance. */
int html_trace_figures(FILE *out, const struct html_section *sec, int *id)
{
	struct keyset seen = { 0 };
	int rc = 0;

	html_each_phase(sec, add_traced, &seen);
	for (size_t i = 0; i < seen.n && !rc; i++)
		rc = trace_phase_figs(out, sec, seen.v[i], id);
	keyset_release(&seen);
	return rc;
}
