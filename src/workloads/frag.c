/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frag.c - the "frag" workload: the fragmentation survey of `fslab frag`
 * (src/frag/) as a step of a run, over what the run's earlier workloads
 * left on the target (`-w tree:keep=1 -w frag`), so a benchmark's layout
 * is measured on the filesystem that produced it.  It is also the
 * workload `fslab frag --db` stores its runs under, so `show` reprints a
 * stored survey in the getdents mail's table and `compare` ranks surveys
 * by fragmentation, not by scan speed.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frag/frag.h"
#include "frag/text.h"
#include "stats/repmean.h"
#include "util/util.h"
#include "workloads/frag.h"
#include "workloads/registry.h"

#define OFF(f) offsetof(struct frag_wl_opts, f)
static const struct opt frag_opt_table[] = {
	{ "path", OPT_STRING, OFF(path), "",
	  "directory to survey, relative to the one holding the run's "
	  "workload directories (empty: all of them)", 0, 0, NULL },
	{ "jobs", OPT_INT, OFF(jobs), "0",
	  "worker threads (0: one per CPU)", 0, 1024, NULL },
	{ "sync", OPT_BOOL, OFF(sync), "yes",
	  "ask FIEMAP to write back delayed allocations first", 0, 0, NULL },
	{ "xdev", OPT_BOOL, OFF(xdev), "yes",
	  "stay on the surveyed filesystem", 0, 0, NULL },
	{ "worst", OPT_INT, OFF(worst), "10",
	  "most fragmented files kept", 0, 100000, NULL },
	{ "bins", OPT_STRING, OFF(bins), "default",
	  "size bin edges ('0,4k,64k,1M'), or the getdents mail's "
	  "(default)", 0, 0, NULL },
	{ "io-uring", OPT_BOOL, OFF(io_uring), "yes",
	  "open and close files in batches through io_uring", 0, 0, NULL },
	OPT_END,
};

static const char *const frag_phase_names[] = { "survey", NULL };

static int frag_check(const void *vopts, char *err, size_t errlen)
{
	const struct frag_wl_opts *o = vopts;
	struct frag_bins b;

	if (strcmp(o->bins, "default") &&
	    frag_bins_parse(o->bins, &b, err, errlen) < 0)
		return -1;
	if (strstr(o->path, ".."))
		return snprintf(err, errlen, "path must stay inside the "
				"target ('..')"), -1;
	return 0;
}

static int frag_run(struct wl_ctx *ctx, const void *vopts)
{
	const struct frag_wl_opts *o = vopts;
	char *base = xstrdup(ctx->dir), *slash = strrchr(base, '/'), *root;
	struct phase_rec tmp = { 0 };
	struct frag_opts fo;
	struct frag_bins bins;
	struct frag_result res;
	struct phase *ph;
	char err[160];
	int rc;

	/* the directory holding every workload's directory of this run */
	if (slash && slash != base)
		*slash = '\0';
	root = *o->path ? path_join(base, o->path) : xstrdup(base);
	frag_opts_default(&fo);
	fo.sync = o->sync;
	fo.xdev = o->xdev;
	fo.jobs = (int)o->jobs;
	fo.worst = (size_t)o->worst;
	fo.uring = o->io_uring;
	if (strcmp(o->bins, "default")) {
		if (frag_bins_parse(o->bins, &bins, err, sizeof(err)) < 0)
			BUG("bins '%s' passed the check: %s", o->bins, err);
		fo.bins = &bins;
	}
	ph = phase_begin(ctx, "survey", NULL);
	rc = frag_survey((const char *const *)&root, 1, &fo, &res);
	if (rc < 0) {
		phase_fail(ph, "cannot survey '%s'", root);
		error("cannot survey '%s'", root);
	} else {
		frag_to_phase_metrics(&res, &tmp);
		phase_metrics_copy(ph, &tmp);
		phase_work(ph, res.bytes, res.files, res.files);
		fprintf(ctx->progress, "frag: %s: %llu files, %llu "
			"fragmented\n", root, (unsigned long long)res.files,
			(unsigned long long)res.frag_files);
		phase_rec_release(&tmp);
	}
	if (rc >= 0)
		frag_result_release(&res);
	if (phase_end(ctx, ph, NULL) < 0)
		rc = -1;
	free(root);
	free(base);
	return rc < 0 ? -1 : 0;
}

/* The survey's bins, from the stored options (the mail's by default). */
static void stored_bins(const char *options, struct frag_bins *b)
{
	struct frag_wl_opts o;
	char err[160];

	frag_bins_default(b);
	opt_defaults(frag_opt_table, &o);
	if (options && !opt_parse(frag_opt_table, &o, options, err,
				  sizeof(err)) &&
	    strcmp(o.bins, "default") &&
	    frag_bins_parse(o.bins, b, err, sizeof(err)) < 0)
		frag_bins_default(b);
	opt_release(frag_opt_table, &o);
}

static void frag_report(FILE *out, const struct run_rec *run,
			const struct wlrun_rec *wr)
{
	struct frag_bins b;

	(void)run;
	stored_bins(wr->options, &b);
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];

		if (strcmp(p->name, "survey"))
			continue;
		fputc('\n', out);
		if (p->status != PHASE_OK)
			fprintf(out, "survey %s: %s\n", p->status ==
				PHASE_FAILED ? "FAILED" : "incomplete",
				p->error ? p->error : "");
		else
			frag_print_stored(out, p, &b);
	}
}

/* A figure of a configuration's surveys: the mean over its repetitions. */
static double group_value(const struct cmp_group *g, const char *name)
{
	const char *unit = "";
	double *v = xcalloc(g->nr_reps + 1, sizeof(*v)), mean;
	size_t n = 0;

	for (size_t r = 0; r < g->nr_reps; r++)
		for (size_t i = 0; i < g->reps[r]->nr_phases; i++) {
			const struct phase_rec *p = &g->reps[r]->phases[i];
			const struct metric *m = phase_rec_metric(p, name);

			if (!strcmp(p->name, "survey") && p->status ==
			    PHASE_OK && m && n < g->nr_reps) {
				v[n++] = m->value;
				unit = m->unit;
			}
		}
	mean = n ? rep_mean(unit, v, n, NULL) : NAN;
	free(v);
	return mean;
}

static double extents_per_file(const struct cmp_group *g)
{
	double e = group_value(g, "extents"), f = group_value(g,
						"files_scanned");

	return f > 0 ? e / f : NAN;
}

static void cmp_line(FILE *out, const char *what, const double *v,
		     size_t nr, const char *fmt, bool points)
{
	char cell[64];

	fprintf(out, "%-26s", what);
	for (size_t g = 0; g < nr; g++) {
		int l = isnan(v[g]) ? snprintf(cell, sizeof(cell), "-") :
			snprintf(cell, sizeof(cell), fmt, v[g]);

		if (g && !isnan(v[g]) && !isnan(v[0]) && l > 0) {
			if (points)
				snprintf(cell + l, sizeof(cell) - (size_t)l,
					 " (%+.2f)", v[g] - v[0]);
			else if (v[0] != 0)
				snprintf(cell + l, sizeof(cell) - (size_t)l,
					 " (%+.1f%%)", 100 * (v[g] - v[0]) /
					 v[0]);
		}
		fprintf(out, " %-22s", cell);
	}
	fputc('\n', out);
}

/*
 * compare: the surveys side by side by what they are about - the
 * fragmented share, extents per file, the layout score and the count of
 * each size class - with the change against the first (percentage
 * points for shares).
 */
static void frag_report_compare(FILE *out, const struct cmp_group *groups,
				size_t nr)
{
	double *v = xcalloc(nr + 1, sizeof(*v));
	const struct wlrun_rec *first = NULL;
	static const struct {
		const char *metric, *what, *fmt;
		bool points;
	} lines[] = {
		{ "files_scanned", "files", "%.0f", false },
		{ "fragmented_pct", "fragmented %", "%.2f", true },
		{ "files_3plus_runs", "files with 3+ runs", "%.0f", false },
		{ "fragmented_bytes_pct", "fragmented bytes %", "%.2f", true },
		{ NULL, "extents/file", "%.3f", false },
		{ "runs_per_file", "runs/file", "%.3f", false },
		{ "layout_score", "layout score", "%.4f", false },
	};

	fprintf(out, "\nfrag: surveys side by side (change against '%s'; "
		"shares in points)\n%-26s", nr ? groups[0].label : "-", "");
	for (size_t g = 0; g < nr; g++)
		fprintf(out, " %-22s", groups[g].label ? groups[g].label :
			"?");
	fputc('\n', out);
	for (size_t l = 0; l < ARRAY_SIZE(lines); l++) {
		for (size_t g = 0; g < nr; g++)
			v[g] = lines[l].metric ? group_value(&groups[g],
							     lines[l].metric)
					       : extents_per_file(&groups[g]);
		cmp_line(out, lines[l].what, v, nr, lines[l].fmt,
			 lines[l].points);
	}
	/* the size classes, in the first survey's order */
	for (size_t g = 0; g < nr && !first; g++)
		if (groups[g].nr_reps)
			first = groups[g].reps[0];
	for (size_t i = 0; first && i < first->nr_phases; i++) {
		const struct phase_rec *p = &first->phases[i];

		if (strcmp(p->name, "survey"))
			continue;
		for (size_t m = 0; m < p->nr_metrics; m++) {
			const char *name = p->metrics[m].name;

			if (strncmp(name, "bin ", 4))
				continue;
			for (size_t g = 0; g < nr; g++)
				v[g] = group_value(&groups[g], name);
			cmp_line(out, name + 4, v, nr, "%.0f", false);
		}
		break;
	}
	free(v);
}

/* What decides better or worse between two surveys: their layout. */
static const char *const frag_key_metrics[] = {
	"survey/fragmented_pct", "survey/runs_per_file",
	"survey/layout_score", NULL,
};

const struct workload wl_frag = {
	.name = "frag",
	.summary = "fragmentation survey (FIEMAP) of what the run's earlier "
		   "workloads left on the target, the getdents mail's table",
	.phases = frag_phase_names,
	.flags = WL_NO_DATA,
	.opts = frag_opt_table,
	.opts_size = sizeof(struct frag_wl_opts),
	.check = frag_check,
	.run = frag_run,
	.report = frag_report,
	.report_compare = frag_report_compare,
	.key_metrics = frag_key_metrics,
};
