/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html.c - the HTML report (see html.h).  The page must work from a
 * mail attachment or a CI artifact store, hence everything inline.
 * The block-I/O figures are htmltrace.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "phase/order.h"
#include "output/chart.h"
#include "output/checks.h"
#include "output/fmt.h"
#include "output/html.h"
#include "output/explain.h"
#include "output/html_internal.h"
#include "output/provenance.h"
#include "output/svgglyph.h"
#include "util/util.h"
#include "workloads/registry.h"

static const char html_css[] =
	"body{font-family:sans-serif;margin:2em;color:#222;max-width:1400px}"
	"h1{font-size:1.6em}h2{border-bottom:2px solid #0072b2;"
	"padding-bottom:.2em;margin-top:2em}h3{font-size:1.05em;"
	"margin:1.4em 0 .3em}"
	"table{border-collapse:collapse;font-size:.85em;margin:.3em 0}"
	"td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}"
	"th{background:#eef}td.l,th.l{text-align:left}"
	"tr.better td.v{background:#d9f2d9}tr.worse td.v{background:#f8d0d0}"
	"pre{background:#f6f6f6;padding:.6em;overflow-x:auto}"
	"section.provenance pre{white-space:pre-wrap;"
	"overflow-wrap:anywhere}"
	"table.summary{font-size:.95em}"
	".charts{display:flex;flex-wrap:wrap;gap:8px}"
	".charts svg{border:1px solid #ddd;width:calc(50% - 10px);"
	"min-width:320px;height:auto}"
	".note{color:#555;font-size:.9em}"
	"figure.trace{margin:0;width:calc(50% - 10px);min-width:420px}"
	"figure.trace svg,figure.trace img{width:100%;height:auto;"
	"border:1px solid #ddd}"
	"figcaption{font-size:.85em;color:#555}";

void html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

/* Four significant digits (output/fmt.h); "-" for no value. */
static void num(FILE *out, double v)
{
	char buf[48];

	if (!isfinite(v)) {
		fputs("&ndash;", out);
		return;
	}
	fmt_sig4(buf, sizeof(buf), v);
	fputs(buf, out);
}

static void pct(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%+.1f%%", v);
	else
		fputs("&ndash;", out);
}

/* The verdict in the words of every renderer (output/fmt.h), marked
 * for the eye. */
static void verdict_cell(FILE *out, const struct cmp_delta *d,
			 const struct compare_opts *o)
{
	char v[64];

	verdict_text(v, sizeof(v), d, o);
	if (d->verdict == CMP_BETTER)
		fputs("&#9733; ", out);
	else if (d->verdict == CMP_WORSE || d->verdict == CMP_FAILED)
		fputs("&#9888; ", out);
	html_escape(out, v);
}

static void row_table(FILE *out, const struct cmp_table *t,
		      const struct cmp_row *row, const struct compare_opts *o)
{
	fputs("<table><tr><th class=l>config</th><th>n reps</th>"
	      "<th>instances</th><th>mean</th>"
	      "<th>&sigma;</th><th>CoV %</th><th>min</th><th>max</th>"
	      "<th>95% CI of mean</th><th>change</th>"
	      "<th>95% CI of change</th><th>p</th><th>p adj</th>"
	      "<th>mdc</th><th class=l>verdict</th></tr>\n", out);
	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_stat *s = &row->st[g];
		const struct cmp_delta *d = &row->d[g];
		const char *cls = g && d->verdict == CMP_BETTER ? "better" :
				  g && d->verdict == CMP_WORSE ? "worse" : "";

		fprintf(out, "<tr class=\"%s\"><td class=l>", cls);
		html_escape(out, t->labels[g]);
		fprintf(out, "</td><td>%zu</td><td>%zu</td><td>", s->n,
			s->nr_inst);
		num(out, s->mean);
		fputs("</td><td>", out);
		num(out, s->sd);
		fputs("</td><td>", out);
		if (isfinite(s->cov_pct))
			fprintf(out, "%.1f", s->cov_pct);
		else
			fputs("&ndash;", out);
		fputs("</td><td>", out);
		num(out, s->min);
		fputs("</td><td>", out);
		num(out, s->max);
		fputs("</td><td>", out);
		if (isfinite(s->ci_lo)) {
			fputc('[', out);
			num(out, s->ci_lo);
			fputs(", ", out);
			num(out, s->ci_hi);
			fputc(']', out);
		} else {
			fputs("&ndash;", out);
		}
		if (!g) {
			fputs("</td><td></td><td></td><td></td><td></td><td>"
			      "</td><td class=l>baseline</td></tr>\n", out);
			continue;
		}
		fputs("</td><td class=v>", out);
		pct(out, d->pct);
		fputs("</td><td>", out);
		if (isfinite(d->pct_lo) && isfinite(d->pct_hi)) {
			fputc('[', out);
			pct(out, d->pct_lo);
			fputs(", ", out);
			pct(out, d->pct_hi);
			fputc(']', out);
		} else {
			fputs("&ndash;", out);
		}
		fputs("</td><td>", out);
		if (isfinite(d->p))
			fprintf(out, "%.4f", d->p);
		else
			fputs("&ndash;", out);
		fputs("</td><td>", out);
		if (d->tested && isfinite(d->p_adj))
			fprintf(out, "%.4f", d->p_adj);
		else
			fputs("&ndash;", out);
		fputs("</td><td>", out);
		if (isfinite(verdict_mdc_pct(d)))
			fprintf(out, "%.1f%%", verdict_mdc_pct(d));
		else
			fputs("&ndash;", out);
		fputs("</td><td class=\"l v\">", out);
		verdict_cell(out, d, o);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static int put_svg(FILE *out, char *svg)
{
	if (!svg)
		return -1;
	svg_glyphs_put(out, svg);
	fputc('\n', out);
	free(svg);
	return 0;
}

static int row_charts(FILE *out, const struct cmp_table *t,
		      const struct cmp_row *row, int *id)
{
	size_t n = t->nr_groups;
	double *mean = xcalloc(n + 1, sizeof(double));
	double *lo = xcalloc(n + 1, sizeof(double));
	double *hi = xcalloc(n + 1, sizeof(double));
	const double **x = xcalloc(n + 1, sizeof(*x));
	size_t *nx = xcalloc(n + 1, sizeof(*nx));
	char *title = xasprintf("%s %s (%s mean, 95%% CI)", row->phase,
				row->metric, compare_mean_name(row));
	char *title2 = xasprintf("%s %s: every instance", row->phase,
				 row->metric);
	int rc = 0;

	for (size_t g = 0; g < n; g++) {
		mean[g] = row->st[g].mean;
		lo[g] = row->st[g].ci_lo;
		hi[g] = row->st[g].ci_hi;
		/* the scatter draws every instance; the bars and whiskers
		 * the mean over repetitions and its (finite) CI */
		x[g] = row->st[g].inst;
		nx[g] = row->st[g].nr_inst;
	}
	fputs("<div class=charts>\n", out);
	if (put_svg(out, chart_bars((*id)++, title, row->unit,
				    (const char *const *)t->labels, mean, lo,
				    hi, n)) ||
	    put_svg(out, chart_scatter((*id)++, title2, row->unit,
				       (const char *const *)t->labels, x, nx,
				       n)))
		rc = -1;
	fputs("</div>\n", out);
	free(title);
	free(title2);
	free(mean);
	free(lo);
	free(hi);
	free(x);
	free(nx);
	return rc;
}

/*
 * "interval.N.NAME" (a workload's own series) or "trace.ts.N.NAME" (the
 * block tracer's throughput, IOPS, seeks/s and queue depth per bin, so a
 * traced phase gets seekwatcher's time panels, targets overlaid): N into
 * *idx, NAME returned; NULL if the metric is not a series point.
 */
static const char *interval_name(const char *metric, long *idx)
{
	static const char *const prefixes[] = { "interval.", "trace.ts." };
	const char *start = NULL;
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(prefixes) && !start; i++)
		if (!strncmp(metric, prefixes[i], strlen(prefixes[i])))
			start = metric + strlen(prefixes[i]);
	if (!start)
		return NULL;
	*idx = strtol(start, &end, 10);
	if (end == start || *end != '.' || *idx < 0 || *idx > 100000)
		return NULL;
	return end + 1;
}

/* One line per (group, rep): the first occurrence of phase's series. */
static int series_chart(FILE *out, const struct html_section *sec,
			const char *phase, const char *name, int *id)
{
	const struct cmp_table *t = sec->table;
	const char **names = NULL;
	double **y = NULL;
	size_t *ny = NULL, n = 0, alloc = 0, a2 = 0, a3 = 0;
	char *title;
	int rc;

	for (size_t g = 0; g < t->nr_groups; g++) {
		for (size_t r = 0; r < sec->groups[g].nr_reps; r++) {
			const struct wlrun_rec *w = sec->groups[g].reps[r];
			const struct phase_rec *p = NULL;
			double *v = NULL;
			size_t len = 0;

			for (size_t i = 0; i < w->nr_phases && !p; i++)
				if (w->phases[i].name &&
				    !strcmp(w->phases[i].name, phase))
					p = &w->phases[i];
			for (size_t m = 0; p && m < p->nr_metrics; m++) {
				const char *nm;
				long idx;

				nm = interval_name(p->metrics[m].name, &idx);
				if (!nm || strcmp(nm, name))
					continue;
				if ((size_t)idx >= len) {
					v = xrealloc(v, ((size_t)idx + 1) *
						     sizeof(*v));
					for (size_t k = len; k <= (size_t)idx;
					     k++)
						v[k] = NAN;
					len = (size_t)idx + 1;
				}
				v[idx] = p->metrics[m].value;
			}
			if (!len)
				continue;
			ALLOC_GROW(names, n + 1, alloc);
			ALLOC_GROW(y, n + 1, a2);
			ALLOC_GROW(ny, n + 1, a3);
			names[n] = xasprintf("%s rep %zu", t->labels[g], r + 1);
			y[n] = v;
			ny[n++] = len;
		}
	}
	title = xasprintf("%s %s over time", phase, name);
	rc = n ? put_svg(out, chart_lines((*id)++, title, name, names,
					  (const double *const *)y, ny, n))
	       : 0;
	free(title);
	for (size_t i = 0; i < n; i++) {
		free((char *)names[i]);
		free(y[i]);
	}
	free(names);
	free(y);
	free(ny);
	return rc;
}

bool keyset_add(struct keyset *s, const char *k)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], k))
			return false;
	ALLOC_GROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = xstrdup(k);
	return true;
}

void keyset_release(struct keyset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void html_each_phase(const struct html_section *sec,
		     void (*fn)(const struct phase_rec *p, void *data),
		     void *data)
{
	for (size_t g = 0; g < sec->table->nr_groups; g++) {
		const struct cmp_group *grp = &sec->groups[g];

		for (size_t r = 0; r < grp->nr_reps; r++)
			for (size_t i = 0; i < grp->reps[r]->nr_phases; i++)
				fn(&grp->reps[r]->phases[i], data);
	}
}

/* "PHASE\nNAME" of each interval.N.NAME metric of p. */
static void add_series(const struct phase_rec *p, void *data)
{
	for (size_t m = 0; m < p->nr_metrics; m++) {
		long idx;
		const char *nm = interval_name(p->metrics[m].name, &idx);
		char *k;

		if (!nm || !p->name)
			continue;
		k = xasprintf("%s\n%s", p->name, nm);
		keyset_add(data, k);
		free(k);
	}
}

/* Every distinct (phase, NAME) of interval.N.NAME metrics. */
static int time_series(FILE *out, const struct html_section *sec, int *id)
{
	struct keyset seen = { 0 };
	int rc = 0;

	html_each_phase(sec, add_series, &seen);
	if (seen.n)
		fputs("<h3>time series</h3>\n<div class=charts>\n", out);
	for (size_t i = 0; i < seen.n; i++) {
		char *nl = strchr(seen.v[i], '\n');

		*nl = '\0';
		if (!rc && series_chart(out, sec, seen.v[i], nl + 1, id))
			rc = -1;
	}
	if (seen.n)
		fputs("</div>\n", out);
	keyset_release(&seen);
	return rc;
}

static void classic(FILE *out, const struct html_section *sec)
{
	const struct workload *wl = wl_find(sec->table->workload);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (!wl || !wl->report_compare || !sec->table->nr_groups)
		return;
	mem = open_memstream(&buf, &len);
	if (!mem)
		return;
	wl->report_compare(mem, sec->groups, sec->table->nr_groups);
	fclose(mem);
	fputs("<h3>classic comparison</h3>\n<pre>", out);
	html_escape(out, buf);
	fputs("</pre>\n", out);
	free(buf);
}

/* What differs between the configurations, before any figure. */
static void differences(FILE *out, const struct cmp_table *t)
{
	if (!t->nr_diffs)
		return;
	fputs("<table><tr><th class=l>differs</th>", out);
	for (size_t g = 0; g < t->nr_groups; g++) {
		fputs("<th class=l>", out);
		html_escape(out, t->labels[g]);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t i = 0; i < t->nr_diffs; i++) {
		fputs("<tr><td class=l>", out);
		html_escape(out, t->diffs[i].field);
		if (!t->diffs[i].declared)
			fputs(" (undeclared)", out);
		fputs("</td>", out);
		for (size_t g = 0; g < t->nr_groups; g++) {
			fputs("<td class=l>", out);
			html_escape(out, t->diffs[i].values[g]);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	for (size_t g = 0; t->invalid && g < t->nr_groups; g++)
		if (t->invalid[g]) {
			fputs("<p>invalid setup: ", out);
			html_escape(out, t->invalid[g]);
			fputs("; no verdict</p>\n", out);
		}
}

/* Each compared run's target order, once: "run 7 target order: ...". */
static void orders(FILE *out, const struct html_section *secs, size_t nr)
{
	const struct run_rec **seen = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < nr; i++)
		for (size_t g = 0; g < secs[i].table->nr_groups; g++) {
			const struct cmp_group *grp = &secs[i].groups[g];

			for (size_t r = 0; r < grp->nr_reps; r++) {
				const struct run_rec *run = grp->rep_runs ?
					grp->rep_runs[r] : grp->run;
				char *buf = NULL;
				size_t len = 0, k;
				FILE *m;

				for (k = 0; k < n && seen[k] != run; k++)
					;
				if (k < n || !run)
					continue;
				ALLOC_GROW(seen, n + 1, alloc);
				seen[n++] = run;
				m = open_memstream(&buf, &len);
				if (!m)
					continue;
				order_print_run(m, run);
				fclose(m);
				if (len) {
					fprintf(out, "<p class=note>run %lld ",
						(long long)run->id);
					html_escape(out, buf);
					fputs("</p>\n", out);
				}
				free(buf);
			}
		}
	free(seen);
}

static void rollup(FILE *out, const struct cmp_table *t,
		   const struct compare_opts *o)
{
	fprintf(out, "<h3>roll-up</h3>\n<p class=note>Geometric mean of the "
		"baseline-relative ratios of the %s, each oriented so that "
		"&gt; 1 is better.  Significant: %s-adjusted Welch p &lt; %g "
		"and |change| &ge; %g%%.</p>\n<table><tr><th class=l>config</th>"
		"<th>geomean ratio</th><th>change</th><th>metrics</th></tr>\n",
		t->key_from_workload ? "workload's key metrics" :
		"rate metrics", compare_adjust_name(o->adjust), o->alpha,
		o->min_change_pct);
	for (size_t g = 1; g < t->nr_groups; g++) {
		fputs("<tr><td class=l>", out);
		html_escape(out, t->labels[g]);
		fputs("</td><td>", out);
		num(out, t->rollup[g]);
		fputs("</td><td>", out);
		pct(out, 100 * (t->rollup[g] - 1));
		fprintf(out, "</td><td>%zu</td></tr>\n", t->rollup_n[g]);
	}
	fputs("</table>\n", out);
}

/* ---- the answer first: one summary table at the top ---- */

static void interval(FILE *out, double lo, double hi, bool percent)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		fputs("&ndash;", out);
		return;
	}
	fputc('[', out);
	if (percent)
		pct(out, lo);
	else
		num(out, lo);
	fputs(", ", out);
	if (percent)
		pct(out, hi);
	else
		num(out, hi);
	fputc(']', out);
}

static void summary_name(FILE *out, const struct cmp_table *t)
{
	html_escape(out, t->workload);
	if (t->name) {
		fputs(t->name_is_options ? " with " : " on ", out);
		html_escape(out, t->name);
	}
}

/*
 * Each comparison's key metrics, per configuration: mean and its 95 %
 * interval, the change and its interval, the verdict (the words of
 * output/fmt.h); then the roll-up with its interval.  The first table
 * of the page (tests/t/t7100-report.sh opens it in a browser).
 */
static void summary(FILE *out, const struct html_section *secs, size_t nr,
		    const struct compare_opts *o)
{
	fputs("<section class=summary>\n<h2>summary</h2>\n"
	      "<table class=summary id=summary><tr><th class=l>workload</th>"
	      "<th class=l>key metric [unit]</th><th class=l>config</th>"
	      "<th>mean</th><th>95% CI of mean</th><th>change</th>"
	      "<th>95% CI of change</th><th class=l>verdict</th></tr>\n", out);
	for (size_t i = 0; i < nr; i++) {
		const struct cmp_table *t = secs[i].table;

		for (size_t r = 0; r < t->nr_rows; r++) {
			const struct cmp_row *row = &t->rows[r];

			if (!row->key)
				continue;
			for (size_t g = 0; g < t->nr_groups; g++) {
				const struct cmp_stat *st = &row->st[g];
				const struct cmp_delta *d = &row->d[g];
				const char *cls = g && d->verdict == CMP_BETTER
						  ? "better" : g && d->verdict ==
						  CMP_WORSE ? "worse" : "";

				fprintf(out, "<tr class=\"%s\"><td class=l>",
					cls);
				summary_name(out, t);
				fputs("</td><td class=l>", out);
				html_escape(out, row->phase);
				fputc(' ', out);
				html_escape(out, row->metric);
				fputs(" [", out);
				html_escape(out, row->unit);
				fputs("]</td><td class=l>", out);
				html_escape(out, t->labels[g]);
				fputs("</td><td>", out);
				num(out, st->mean);
				fputs("</td><td>", out);
				interval(out, st->ci_lo, st->ci_hi, false);
				fputs("</td><td class=v>", out);
				if (g)
					pct(out, d->pct);
				fputs("</td><td>", out);
				if (g)
					interval(out, d->pct_lo, d->pct_hi,
						 true);
				fputs("</td><td class=\"l v\">", out);
				if (g)
					verdict_cell(out, d, o);
				else
					fputs("baseline", out);
				fputs("</td></tr>\n", out);
			}
		}
		for (size_t g = 1; g < t->nr_groups; g++) {
			fputs("<tr><td class=l>", out);
			summary_name(out, t);
			fputs("</td><td class=l>roll-up: geometric mean of the "
			      "key metrics' ratios (&gt; 1 is better)</td>"
			      "<td class=l>", out);
			html_escape(out, t->labels[g]);
			fputs("</td><td>", out);
			num(out, t->rollup[g]);
			fputs("</td><td>", out);
			interval(out, t->rollup_lo[g], t->rollup_hi[g], false);
			fputs("</td><td class=v>", out);
			pct(out, 100 * (t->rollup[g] - 1));
			fputs("</td><td>", out);
			interval(out, 100 * (t->rollup_lo[g] - 1),
				 100 * (t->rollup_hi[g] - 1), true);
			fprintf(out, "</td><td class=l>over %zu key metrics%s"
				"</td></tr>\n", t->rollup_n[g],
				t->failed[0] || t->failed[g] ?
				"; a run FAILED" : "");
		}
	}
	fputs("</table>\n<p class=note>Intervals are 95 %; the roll-up's "
	      "takes the metrics as independent.  Details follow per "
	      "workload.</p>\n</section>\n", out);
}

/*
 * What was measured, at the top: the provenance of every run the report
 * draws from (configurations of one run share it).
 */
static void html_provenance(FILE *out, const struct html_section *secs,
			    size_t nr)
{
	const struct run_rec **seen = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; i < nr; i++)
		for (size_t g = 0; g < secs[i].table->nr_groups; g++) {
			const struct run_rec *r = secs[i].groups[g].run;
			bool dup = !r;

			for (size_t j = 0; j < n && !dup; j++)
				dup = seen[j] == r || seen[j]->id == r->id;
			if (dup)
				continue;
			ALLOC_GROW(seen, n + 1, alloc);
			seen[n++] = r;
		}
	if (!n)
		return;
	fputs("<section class=provenance>\n<h2>provenance</h2>\n", out);
	for (size_t i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);

		if (!mem)
			continue;
		provenance_text(mem, seen[i]);
		checks_print_run_brief(mem, seen[i]);
		fclose(mem);
		fputs("<pre>", out);
		html_escape(out, buf);
		fputs("</pre>\n", out);
		free(buf);
	}
	fputs("</section>\n", out);
	free(seen);
}

/* ---- modelled disk time next to the measured one ---- */

static bool same_phase(const struct phase_rec *a, const struct phase_rec *b)
{
	return !strcmp(a->name, b->name) &&
	       !strcmp(a->label ? a->label : "", b->label ? b->label : "");
}

/* Mean wall time and disk.time_s of the phases like key in group g. */
static void disk_means(const struct cmp_group *g, const struct phase_rec *key,
		       double *wall, double *disk)
{
	double sw = 0, sd = 0;
	size_t n = 0;

	for (size_t r = 0; r < g->nr_reps; r++)
		for (size_t i = 0; i < g->reps[r]->nr_phases; i++) {
			const struct phase_rec *p = &g->reps[r]->phases[i];
			const struct metric *m;

			if (!p->name || !same_phase(p, key) ||
			    !(m = phase_rec_metric(p, "disk.time_s")))
				continue;
			sw += (double)p->m.wall_ns / 1e9;
			sd += m->value;
			n++;
		}
	*wall = n ? sw / (double)n : NAN;
	*disk = n ? sd / (double)n : NAN;
}

/*
 * Per traced phase (name and label) and configuration: the measured wall
 * time and the modelled disk time (disk.*, src/disk/), means over the
 * repetitions.  Nothing without modelled phases.
 */
static void disk_model_table(FILE *out, const struct html_section *sec)
{
	const struct cmp_table *t = sec->table;
	const struct phase_rec **rows = NULL;
	size_t nr = 0, alloc = 0;

	for (size_t g = 0; g < t->nr_groups; g++)
		for (size_t r = 0; r < sec->groups[g].nr_reps; r++) {
			const struct wlrun_rec *w = sec->groups[g].reps[r];

			for (size_t i = 0; i < w->nr_phases; i++) {
				const struct phase_rec *p = &w->phases[i];
				size_t k;

				if (!p->name ||
				    !phase_rec_metric(p, "disk.time_s"))
					continue;
				for (k = 0; k < nr; k++)
					if (same_phase(rows[k], p))
						break;
				if (k == nr) {
					ALLOC_GROW(rows, nr + 1, alloc);
					rows[nr++] = p;
				}
			}
		}
	if (!nr)
		return;
	fputs("<h3>modelled disk time</h3>\n<p class=note>What each traced "
	      "phase's block requests would cost on a rotating disk "
	      "(disk.time_s: seek curve, rotation, zoned transfer, track "
	      "buffer; README \"Modelled disk time\"), next to the measured "
	      "wall time; means over repetitions.</p>\n<table>\n<tr><th "
	      "class=l>phase</th><th class=l>label</th>", out);
	for (size_t g = 0; g < t->nr_groups; g++) {
		fputs("<th>", out);
		html_escape(out, t->labels[g]);
		fputs(" measured s</th><th>modelled s</th><th>modelled / "
		      "measured</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t k = 0; k < nr; k++) {
		fputs("<tr><td class=l>", out);
		html_escape(out, rows[k]->name);
		fputs("</td><td class=l>", out);
		html_escape(out, rows[k]->label ? rows[k]->label : "");
		fputs("</td>", out);
		for (size_t g = 0; g < t->nr_groups; g++) {
			double wall, disk;

			disk_means(&sec->groups[g], rows[k], &wall, &disk);
			fputs("<td>", out);
			num(out, wall);
			fputs("</td><td class=v>", out);
			num(out, disk);
			fputs("</td><td>", out);
			num(out, wall > 0 ? disk / wall : NAN);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	free(rows);
}

int html_write_report(FILE *out, const char *title,
		      const struct html_section *secs, size_t nr,
		      const struct compare_opts *o)
{
	int id = 0, rc = 0;

	svg_glyphs_reset();
	fputs("<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>"
	      "\n<title>", out);
	html_escape(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>",
		html_css);
	html_escape(out, title);
	fputs("</h1>\n", out);
	summary(out, secs, nr, o);
	html_provenance(out, secs, nr);
	fprintf(out, "<p class=note>The sample is the repetition: "
		"each phase gives one figure per repetition (its instances "
		"folded as total work over total time), n counts "
		"repetitions.  Means of rates are harmonic; CIs are 95%%: "
		"Student t for arithmetic means, log scale for harmonic means "
		"and for the change (a ratio of means).  p is the t-test of "
		"the log ratio (Welch-Satterthwaite df), "
		"%s-adjusted over the key metrics; mdc is the smallest change "
		"detectable at %.0f%% power; phases under %.0f ms are too "
		"short to judge.</p>\n", compare_adjust_name(o->adjust),
		100 * o->power, 1e3 * o->min_wall_s);
	orders(out, secs, nr);
	for (size_t i = 0; i < nr && !rc; i++) {
		const struct cmp_table *t = secs[i].table;

		fputs("<h2>", out);
		html_escape(out, t->workload);
		if (t->name) {
			fputs(t->name_is_options ? " with " : " on ", out);
			html_escape(out, t->name);
		}
		fprintf(out, "</h2>\n<p>%zu configuration%s; baseline <b>",
			t->nr_groups, t->nr_groups == 1 ? "" : "s");
		html_escape(out, t->nr_groups ? t->labels[0] : "-");
		fputs("</b>.</p>\n", out);
		differences(out, t);
		classic(out, &secs[i]);
		disk_model_table(out, &secs[i]);
		if (t->nr_groups > 1)
			rollup(out, t, o);
		if (secs[i].explain)
			explain_print_html(out, secs[i].explain,
					   secs[i].table_idx, t);
		/* the key metrics first, then the rest (pass 1) */
		for (size_t k = 0; k < 2 * t->nr_rows && !rc; k++) {
			const struct cmp_row *row = &t->rows[k % t->nr_rows];
			bool pass2 = k >= t->nr_rows;
			long idx;

			if (!row->shown || interval_name(row->metric, &idx) ||
			    row->key == pass2)
				continue;
			fputs("<h3>", out);
			html_escape(out, row->phase);
			fputc(' ', out);
			html_escape(out, row->metric);
			fputs(" [", out);
			html_escape(out, row->unit);
			fprintf(out, "] <span class=note>(%s mean%s)</span>"
				"</h3>\n", compare_mean_name(row),
				row->key ? ", key metric" : "");
			row_table(out, t, row, o);
			rc = row_charts(out, t, row, &id);
		}
		if (!rc)
			rc = html_tail_figures(out, &secs[i], o->alpha, &id);
		if (!rc)
			rc = html_stall_figures(out, &secs[i], &id);
		if (!rc)
			rc = time_series(out, &secs[i], &id);
		if (!rc)
			rc = html_trace_figures(out, &secs[i], &id);
	}
	fputs("</body>\n</html>\n", out);
	return rc;
}
