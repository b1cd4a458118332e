/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * html.h - `fslab report`'s one self-contained HTML file: inline CSS,
 * inline SVG charts (chart.h), no script, no network.  Per workload: the
 * classic side-by-side layout, the comparison tables and, per shown
 * metric, a bar chart of the means with CI whiskers and a scatter of the
 * repetitions; time series where phases carry "interval.N.NAME"
 * metrics.
 */
#ifndef FSLAB_HTML_H
#define FSLAB_HTML_H

#include <stdio.h>

#include "compare/compare.h"
#include "phase/workload.h"

struct explain;

struct html_section {
	const struct cmp_table *table;
	const struct cmp_group *groups;  /* table->nr_groups of them */
	const struct explain *explain;   /* its leads, or NULL */
	size_t table_idx;                /* the table's index in explain */
};

/* Write the report; 0, or -1 with a message. */
int html_write_report(FILE *out, const char *title,
		      const struct html_section *secs, size_t nr,
		      const struct compare_opts *o);

/* s with &, <, >, " escaped. */
void html_escape(FILE *out, const char *s);

#endif
