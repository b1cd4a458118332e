/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runreport.c - one classic block per workload over a whole run: the
 * runs of one workload with the same options, one group per target
 * name (in command-line order), its repetitions in order.
 */
#include "output/runreport.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "workloads/registry.h"

static bool same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int by_rep(const void *a, const void *b)
{
	const struct wlrun_rec *x = *(const struct wlrun_rec *const *)a;
	const struct wlrun_rec *y = *(const struct wlrun_rec *const *)b;

	return (x->rep > y->rep) - (x->rep < y->rep);
}

static const char *target_name(const struct run_rec *run,
			       const struct wlrun_rec *w)
{
	const struct target_rec *t = run_rec_target(run, w);

	return t && t->name ? t->name : "?";
}

/* The block for the runs like run->wlruns[first]. */
static void print_block(FILE *out, const struct run_rec *run, size_t first,
			const struct workload *wl)
{
	const struct wlrun_rec *w0 = &run->wlruns[first];
	struct cmp_group *g = xcalloc(run->nr_wlruns, sizeof(*g));
	const struct wlrun_rec **reps = xcalloc(run->nr_wlruns,
						sizeof(*reps));
	size_t ng = 0, nr = 0;

	for (size_t i = first; i < run->nr_wlruns; i++) {
		const struct wlrun_rec *w = &run->wlruns[i];
		const char *name = target_name(run, w);
		bool seen = false;

		if (!same_str(w->workload, w0->workload) ||
		    !same_str(w->options, w0->options))
			continue;
		for (size_t k = 0; k < ng; k++)
			if (!strcmp(g[k].label, name))
				seen = true;
		if (seen)
			continue;
		/* a new target: all its repetitions, in order */
		g[ng].label = name;
		g[ng].run = run;
		g[ng].reps = reps + nr;
		for (size_t j = i; j < run->nr_wlruns; j++) {
			const struct wlrun_rec *x = &run->wlruns[j];

			if (same_str(x->workload, w0->workload) &&
			    same_str(x->options, w0->options) &&
			    !strcmp(target_name(run, x), name))
				reps[nr + g[ng].nr_reps++] = x;
		}
		qsort(reps + nr, g[ng].nr_reps, sizeof(*reps), by_rep);
		nr += g[ng].nr_reps;
		ng++;
	}
	wl->report_run(out, g, ng);
	free(reps);
	free(g);
}

void runreport_print(FILE *out, const struct run_rec *run)
{
	for (size_t i = 0; i < run->nr_wlruns; i++) {
		const struct wlrun_rec *w = &run->wlruns[i];
		const struct workload *wl = w->workload ?
					    wl_find(w->workload) : NULL;
		bool done = false;

		if (!wl || !wl->report_run)
			continue;
		for (size_t k = 0; k < i && !done; k++)
			done = same_str(run->wlruns[k].workload,
					w->workload) &&
			       same_str(run->wlruns[k].options, w->options);
		if (!done)
			print_block(out, run, i, wl);
	}
}
