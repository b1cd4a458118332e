/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * htmlstall.c - the report's completion series and stalls: per phase
 * that stored a series (phase/stall.h), each configuration's first
 * repetition as completions per second over the phase, and beneath it
 * the stalls every repetition stored.  A stall shows in the curve as a
 * stretch at zero; the list gives where and how long.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/chart.h"
#include "output/html_internal.h"
#include "util/util.h"

/* More points than this are summed in windows: the SVG stays small and
 * the list below keeps every stall exact. */
#define SERIES_MAX_POINTS 600
/* Stalls listed per configuration before "and N more". */
#define STALLS_LISTED 8

static void add_phase(const struct phase_rec *p, void *data)
{
	if (p->nr_series > 1 && p->name)
		keyset_add(data, p->name);
}

static const struct phase_rec *first_with_series(const struct cmp_group *g,
						 const char *phase)
{
	for (size_t r = 0; r < g->nr_reps; r++)
		for (size_t i = 0; i < g->reps[r]->nr_phases; i++) {
			const struct phase_rec *p = &g->reps[r]->phases[i];

			if (p->name && !strcmp(p->name, phase) &&
			    p->nr_series > 1 && p->series_ns)
				return p;
		}
	return NULL;
}

/* p's series as rates per second in windows of k intervals. */
static double *rates(const struct phase_rec *p, size_t k, size_t *n)
{
	double *y, win_s = (double)p->series_ns * (double)k / 1e9;

	*n = (p->nr_series + k - 1) / k;
	y = xcalloc(*n, sizeof(*y));
	for (size_t i = 0; i < p->nr_series; i++)
		y[i / k] += p->series[i];
	for (size_t i = 0; i < *n; i++)
		y[i] /= win_s;
	return y;
}

static void stall_list(FILE *out, const struct cmp_group *g,
		       const char *label, const char *phase)
{
	size_t total = 0, listed = 0;

	for (size_t r = 0; r < g->nr_reps; r++)
		for (size_t i = 0; i < g->reps[r]->nr_phases; i++) {
			const struct phase_rec *p = &g->reps[r]->phases[i];

			if (p->name && !strcmp(p->name, phase))
				total += p->nr_stall_list;
		}
	fputs("<li>", out);
	html_escape(out, label);
	fprintf(out, ": %zu stall%s over %zu repetition%s", total,
		total == 1 ? "" : "s", g->nr_reps, g->nr_reps == 1 ? "" : "s");
	for (size_t r = 0; r < g->nr_reps; r++)
		for (size_t i = 0; i < g->reps[r]->nr_phases; i++) {
			const struct phase_rec *p = &g->reps[r]->phases[i];

			if (!p->name || strcmp(p->name, phase))
				continue;
			for (size_t s = 0; s < p->nr_stall_list; s++) {
				const struct stall_rec *st = &p->stall_list[s];

				if (listed++ == STALLS_LISTED)
					break;
				fprintf(out, "%s rep %zu at %.1f s %.0f ms",
					listed == 1 ? ":" : ",", r + 1,
					(double)st->start_ns / 1e9,
					(double)st->len_ns / 1e6);
			}
		}
	if (listed > STALLS_LISTED)
		fprintf(out, " and %zu more", total - STALLS_LISTED);
	fputs("</li>\n", out);
}

static int phase_figure(FILE *out, const struct html_section *sec,
			const char *phase, int *id)
{
	const struct cmp_table *t = sec->table;
	size_t ng = t->nr_groups, maxn = 1, k, *ny = xcalloc(ng, sizeof(*ny));
	double **y = xcalloc(ng, sizeof(*y));
	uint64_t ns = 0;
	char title[160], *svg;
	int rc = 0;

	for (size_t g = 0; g < ng; g++) {
		const struct phase_rec *p = first_with_series(&sec->groups[g],
							       phase);

		if (p && p->nr_series > maxn)
			maxn = p->nr_series;
		if (p && !ns)
			ns = p->series_ns;
	}
	k = (maxn + SERIES_MAX_POINTS - 1) / SERIES_MAX_POINTS;
	for (size_t g = 0; g < ng; g++) {
		const struct phase_rec *p = first_with_series(&sec->groups[g],
							       phase);

		if (p)
			y[g] = rates(p, k, &ny[g]);
	}
	snprintf(title, sizeof(title), "%s: completions/s per %.0f ms, "
		 "first repetition", phase, (double)ns * (double)k / 1e6);
	svg = chart_lines(++*id, title, "completions/s",
			  (const char *const *)t->labels,
			  (const double *const *)y, ny, ng);
	if (!svg) {
		rc = -1;
	} else {
		fprintf(out, "<figure>%s</figure>\n<ul class=note>\n", svg);
		free(svg);
		for (size_t g = 0; g < ng; g++)
			stall_list(out, &sec->groups[g], t->labels[g], phase);
		fputs("</ul>\n", out);
	}
	for (size_t g = 0; g < ng; g++)
		free(y[g]);
	free(y);
	free(ny);
	return rc;
}

int html_stall_figures(FILE *out, const struct html_section *sec, int *id)
{
	struct keyset seen = { 0 };
	int rc = 0;

	html_each_phase(sec, add_phase, &seen);
	if (seen.n)
		fputs("<h3>completions and stalls</h3>\n", out);
	for (size_t i = 0; i < seen.n && !rc; i++)
		rc = phase_figure(out, sec, seen.v[i], id);
	keyset_release(&seen);
	return rc;
}
