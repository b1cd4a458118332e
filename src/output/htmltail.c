/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * htmltail.c - the report's latency distributions: per phase and op
 * class, the CDF of every configuration's pooled histogram on a log
 * axis, and the quantile table with intervals and the tail verdict
 * that `compare` prints (compare/tail.h).  The histograms are drawn
 * bucket by bucket, so the curve is the stored distribution itself.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/tail.h"
#include "output/chart.h"
#include "output/fmt.h"
#include "output/html_internal.h"
#include "util/util.h"

/* At least this many operations a side before a curve is worth a look. */
#define CDF_MIN_OPS 20

static int cdf_figure(FILE *out, const struct html_section *sec,
		      const struct tail_row *row, struct lathist *h, int *id)
{
	const struct cmp_table *t = sec->table;
	size_t ng = t->nr_groups, *nxy = xcalloc(ng, sizeof(*nxy));
	double **x = xcalloc(ng, sizeof(*x)), **y = xcalloc(ng, sizeof(*y));
	char title[160], *svg;
	int rc = 0;

	for (size_t g = 0; g < ng; g++) {
		x[g] = xcalloc(LATHIST_NR, sizeof(**x));
		y[g] = xcalloc(LATHIST_NR, sizeof(**y));
		if (tail_pool(&sec->groups[g], row->phase, row->op, h, h + 1)
		    && h->count >= CDF_MIN_OPS)
			nxy[g] = lathist_cdf(h, x[g], y[g]);
	}
	snprintf(title, sizeof(title), "%s%s%s latency (log scale), "
		 "repetitions pooled",
		 row->phase, *row->op ? "/" : "", row->op);
	svg = chart_cdf(++*id, title, (const char *const *)t->labels,
			(const double *const *)x, (const double *const *)y,
			nxy, ng);
	if (!svg) {
		rc = -1;
	} else {
		fprintf(out, "<figure>%s</figure>\n", svg);
		free(svg);
	}
	for (size_t g = 0; g < ng; g++) {
		free(x[g]);
		free(y[g]);
	}
	free(x);
	free(y);
	free(nxy);
	return rc;
}

static void ci_cell(FILE *out, const struct quantci *ci)
{
	char why[80], e[16], lo[16], hi[16];

	if (!ci->ok) {
		quantci_refusal(ci, why, sizeof(why));
		fputs("<td>", out);
		html_escape(out, why);
		fputs("</td>", out);
		return;
	}
	fmt_ns(e, sizeof(e), ci->est, true);
	fmt_ns(lo, sizeof(lo), ci->lo, true);
	fmt_ns(hi, sizeof(hi), ci->hi, true);
	fprintf(out, "<td>%s [%s, %s]</td>", e, lo, hi);
}

static void quantile_table(FILE *out, const struct cmp_table *t,
			   const struct tail_cmp *c)
{
	char name[16];

	fputs("<table><tr><th class=l>phase/op</th><th>quantile</th><th>",
	      out);
	html_escape(out, t->labels[0]);
	fputs("</th><th>", out);
	html_escape(out, t->labels[c->group]);
	fputs("</th><th>verdict</th></tr>\n", out);
	for (size_t r = 0; r < c->nr_rows; r++) {
		const struct tail_row *row = &c->rows[r];

		for (int k = 0; k < TAIL_NQ; k++) {
			/* past the first refused quantile, all are refused */
			if (k && (!row->ci[0][k - 1].ok ||
				  !row->ci[1][k - 1].ok))
				break;
			fputs("<tr><td class=l>", out);
			html_escape(out, row->phase);
			if (*row->op) {
				fputc('/', out);
				html_escape(out, row->op);
			}
			quantci_name(tail_quantiles[k], name, sizeof(name));
			fprintf(out, "</td><td>%s</td>", name);
			ci_cell(out, &row->ci[0][k]);
			ci_cell(out, &row->ci[1][k]);
			fprintf(out, "<td>%s</td></tr>\n",
				k == TAIL_VERDICT_Q ?
				tail_verdict_text(row->verdict) : "");
		}
	}
	fputs("</table>\n", out);
}

int html_tail_figures(FILE *out, const struct html_section *sec,
		      double alpha, int *id)
{
	size_t nr;
	struct tail_cmp *c = tail_build(sec->table, sec->groups, alpha, &nr);
	struct lathist *h;
	int rc = 0;

	if (!nr)
		return 0;
	h = xmalloc(2 * sizeof(*h));
	fprintf(out, "<h3>latency distributions</h3>\n<p class=note>Every "
		"repetition's histogram of a phase and op class merged "
		"(exact: the buckets add); %g%% order-statistic intervals; "
		"the tail verdict is on p99 and needs the repetitions to "
		"agree.</p>\n", 100 * (1 - alpha));
	for (size_t r = 0; r < c[0].nr_rows && !rc; r++)
		if (c[0].rows[r].ci[0][0].n >= CDF_MIN_OPS)
			rc = cdf_figure(out, sec, &c[0].rows[r], h, id);
	for (size_t i = 0; i < nr && !rc; i++)
		quantile_table(out, sec->table, &c[i]);
	free(h);
	tail_cmp_free(c, nr);
	return rc;
}
