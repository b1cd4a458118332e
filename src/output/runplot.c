/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runplot.c - `fslab show --plot FILE`: one run's latency distributions
 * as a picture for a mail or a wiki (see runplot.h).
 */
#include "output/runplot.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "output/chart.h"
#include "stats/lathist.h"
#include "util/outfile.h"
#include "util/util.h"

/* A legend of more lines than this is unreadable; the busiest stay. */
#define PLOT_MAX_SERIES 8
/* Fewer operations than this draw a staircase, not a distribution. */
#define PLOT_MIN_OPS 20

struct series {
	char *name;            /* "ext4 metadata create[/op]" */
	struct lathist h;
};

struct plot {
	struct series *s;
	size_t nr, alloc;
};

static struct series *series_of(struct plot *pl, const char *name)
{
	for (size_t i = 0; i < pl->nr; i++)
		if (!strcmp(pl->s[i].name, name))
			return &pl->s[i];
	ALLOC_GROW(pl->s, pl->nr + 1, pl->alloc);
	pl->s[pl->nr].name = xstrdup(name);
	lathist_init(&pl->s[pl->nr].h);
	return &pl->s[pl->nr++];
}

/* Every repetition's histogram of a target, workload, phase and op
 * merged into one series (exact: buckets add). */
static void collect(struct plot *pl, const struct run_rec *r)
{
	struct lathist *tmp = xmalloc(sizeof(*tmp));
	bool one_wl = true;
	char name[256];

	/* one workload: its name in every legend entry says nothing */
	for (size_t w = 1; w < r->nr_wlruns; w++)
		one_wl &= !strcmp(r->wlruns[w].workload, r->wlruns[0].workload);

	for (size_t w = 0; w < r->nr_wlruns; w++) {
		const struct wlrun_rec *wl = &r->wlruns[w];
		const char *tgt = wl->target_idx >= 0 &&
				  (size_t)wl->target_idx < r->nr_targets ?
				  r->targets[wl->target_idx].name : "?";

		for (size_t p = 0; p < wl->nr_phases; p++) {
			const struct phase_rec *ph = &wl->phases[p];

			if (ph->status != PHASE_OK)
				continue;
			for (size_t k = 0; k < ph->nr_hists; k++) {
				const struct hist_rec *h = &ph->hists[k];
				const char *op = h->op ? h->op : "";

				if (hist_rec_to_lathist(h, tmp) || !tmp->count)
					continue;
				snprintf(name, sizeof(name), "%s %s%s%s%s%s",
					 tgt ? tgt : "?",
					 one_wl ? "" : wl->workload,
					 one_wl ? "" : " ", ph->name,
					 *op ? "/" : "", op);
				lathist_merge(&series_of(pl, name)->h, tmp);
			}
		}
	}
	free(tmp);
}

static int by_count(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	if (x->h.count != y->h.count)
		return x->h.count < y->h.count ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int draw(const struct plot *pl, size_t n, enum chart_file kind,
		const char *title, const char *path)
{
	const char **names = xcalloc(n, sizeof(*names));
	double **x = xcalloc(n, sizeof(*x)), **y = xcalloc(n, sizeof(*y));
	size_t *nxy = xcalloc(n, sizeof(*nxy)), len = 0;
	struct outfile of;
	char *bytes;
	int rc = -1;

	for (size_t i = 0; i < n; i++) {
		names[i] = pl->s[i].name;
		x[i] = xcalloc(LATHIST_NR, sizeof(**x));
		y[i] = xcalloc(LATHIST_NR, sizeof(**y));
		nxy[i] = lathist_cdf(&pl->s[i].h, x[i], y[i]);
	}
	bytes = chart_cdf_file(kind, title, names, (const double *const *)x,
			       (const double *const *)y, nxy, n, &len);
	if (bytes && outfile_open(&of, path)) {
		bool ok = fwrite(bytes, 1, len, of.f) == len;

		if (!ok)
			error_errno("cannot write '%s'", path);
		rc = outfile_finish(&of, ok);
	}
	free(bytes);
	for (size_t i = 0; i < n; i++) {
		free(x[i]);
		free(y[i]);
	}
	free(x);
	free(y);
	free(nxy);
	free(names);
	return rc;
}

static enum chart_file kind_of(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strcmp(dot, ".png"))
		return CHART_PNG;
	if (dot && !strcmp(dot, ".svg"))
		return CHART_SVG;
	return CHART_INLINE;
}

bool runplot_name_ok(const char *path)
{
	return kind_of(path) != CHART_INLINE;
}

int runplot_write(const struct run_rec *r, const char *path)
{
	enum chart_file kind = kind_of(path);
	struct plot pl = { 0 };
	char title[96];
	size_t n = 0;
	int rc = -1;

	if (kind == CHART_INLINE) {
		error("--plot '%s': name a .png or .svg file", path);
		return -1;
	}
	collect(&pl, r);
	if (pl.nr)
		qsort(pl.s, pl.nr, sizeof(*pl.s), by_count);
	while (n < pl.nr && n < PLOT_MAX_SERIES &&
	       pl.s[n].h.count >= PLOT_MIN_OPS)
		n++;
	if (!n) {
		error("run %lld has no latency histogram of %d operations or "
		      "more to plot", (long long)r->id, PLOT_MIN_OPS);
	} else {
		snprintf(title, sizeof(title), "run %lld latency (log scale), "
			 "repetitions pooled", (long long)r->id);
		rc = draw(&pl, n, kind, title, path);
		if (!rc)
			fprintf(stderr, "fslab: %s: %zu distribution%s drawn%s\n",
				path, n, n == 1 ? "" : "s",
				pl.nr > n ? " (the busiest; fewer than 20 ops "
				"or past 8 left out)" : "");
	}
	for (size_t i = 0; i < pl.nr; i++)
		free(pl.s[i].name);
	free(pl.s);
	/* the last chart of the process: cairo's and fontconfig's caches */
	chart_cleanup();
	return rc;
}
