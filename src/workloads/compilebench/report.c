/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - compilebench's statistics and report: the per-kind
 * averages of its summary, and the 'Average ... results' comparison.
 */
#include "workloads/compilebench/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/treemodel.h"
#include "stats/repmean.h"
#include "util/util.h"
#include "util/verify.h"

const struct kind_info cb_kinds[K_NR] = {
	{ "initial-create", "intial create", false },
	{ "create", "create", false },
	{ "patch", "patch", false },
	{ "compile", "compile", false },
	{ "clean", "clean", false },
	{ "read", "read tree", false },
	{ "read-compiled", "read compiled tree", false },
	{ "delete", "delete tree", true },
	{ "delete-compiled", "delete compiled tree", true },
	{ "stat", "stat tree", true },
	{ "stat-compiled", "stat compiled tree", true },
};
/* compilebench's per-op figure: MB / seconds (0 if the clock saw 0). */
double cb_op_rate(uint64_t bytes, uint64_t wall_ns)
{
	return wall_ns ? mib(bytes) / secs(wall_ns) : 0.0;
}

void cb_stats_add(struct kind_stats *st, const struct phase_rec *p)
{
	const struct metric *sync;

	if (p->status != PHASE_OK)
		return;
	for (int k = 0; k < K_NR; k++) {
		if (strcmp(p->name, cb_kinds[k].phase))
			continue;
		st[k].runs++;
		st[k].sum += cb_kinds[k].seconds ? secs(p->m.wall_ns) :
			     cb_op_rate(p->bytes, p->m.wall_ns);
		st[k].user += secs(p->m.user_ns);
		st[k].sys += secs(p->m.sys_ns);
		st[k].bytes += p->bytes;
		st[k].wall_ns += p->m.wall_ns;
		sync = phase_rec_metric(p, "sync_s");
		if (sync)
			st[k].sync_s += sync->value;
		return;
	}
}

static void print_stat(FILE *out, const struct kind_stats *s,
		       const struct kind_info *k)
{
	if (!s->runs) {
		fprintf(out, "no runs for %s\n", k->tag);
		return;
	}
	fprintf(out, "%s total runs %d avg %.2f %s (user %.2fs sys %.2fs)\n",
		k->tag, s->runs, s->sum / s->runs,
		k->seconds ? "seconds" : "MB/s", s->user / s->runs,
		s->sys / s->runs);
}

void cb_report(FILE *out, const struct run_rec *run,
	       const struct wlrun_rec *wr)
{
	struct kind_stats st[K_NR];

	(void)run;
	memset(st, 0, sizeof(st));
	for (size_t i = 0; i < wr->nr_phases; i++)
		cb_stats_add(st, &wr->phases[i]);
	fprintf(out, "\nrun complete:\n");
	for (int i = 0; i < 74; i++)
		fputc('=', out);
	fputc('\n', out);
	for (int k = 0; k < K_NR; k++)
		print_stat(out, &st[k], &cb_kinds[k]);
	cb_print_definitions(out, st);
}

/*
 * After the classic block (kept byte-faithful): compilebench's "avg" of a
 * rate is the mean of the per-operation rates, fslab's tables fold the
 * same operations as total MiB over total seconds.  They agree exactly
 * when every operation moves the same bytes in the same time (more
 * generally, runs at the same rate), so one line says they differ by
 * definition, with the first kind's two figures.
 */
void cb_print_definitions(FILE *out, const struct kind_stats *st)
{
	for (int k = 0; k < K_NR; k++) {
		if (cb_kinds[k].seconds || !st[k].runs)
			continue;
		fprintf(out, "fslab: compilebench's avg is the mean of the "
			"per-op rates, fslab's tables total MiB over total "
			"seconds (%s: %.2f vs %.2f MiB/s); they differ by "
			"definition (doc/compilebench.md)\n", cb_kinds[k].phase,
			st[k].sum / st[k].runs,
			cb_op_rate(st[k].bytes, st[k].wall_ns));
		return;
	}
}

static bool rep_unfinished(const struct wlrun_rec *wr)
{
	return wr->status && strcmp(wr->status, "complete") &&
	       strcmp(wr->status, "running");
}

/* One configuration's averages over its complete repetitions. */
struct cb_average {
	struct kind_stats k[K_NR];   /* runs, sum = avg, user, sys: means */
	size_t used, skipped;
};

static void cb_average(const struct cmp_group *g, struct cb_average *a)
{
	size_t n = g->nr_reps ? g->nr_reps : 1;
	double *avg = xcalloc(n, sizeof(*avg)), *user = xcalloc(n,
					sizeof(*user)), *sys = xcalloc(n,
					sizeof(*sys)), *runs = xcalloc(n,
					sizeof(*runs));

	memset(a, 0, sizeof(*a));
	for (int k = 0; k < K_NR; k++) {
		size_t m = 0;

		a->used = a->skipped = 0;
		for (size_t r = 0; r < g->nr_reps; r++) {
			const struct wlrun_rec *wr = g->reps[r];
			struct kind_stats st[K_NR];

			if (rep_unfinished(wr)) {
				a->skipped++;
				continue;
			}
			a->used++;
			memset(st, 0, sizeof(st));
			for (size_t i = 0; i < wr->nr_phases; i++)
				cb_stats_add(st, &wr->phases[i]);
			if (!st[k].runs)
				continue;
			avg[m] = st[k].sum / st[k].runs;
			user[m] = st[k].user / st[k].runs;
			sys[m] = st[k].sys / st[k].runs;
			runs[m] = st[k].runs;
			m++;
		}
		if (!m)
			continue;
		/* the units the summary phase stores them with */
		a->k[k].runs = (int)(rep_mean("runs", runs, m, NULL) + 0.5);
		a->k[k].sum = rep_mean(cb_kinds[k].seconds ? "s" : "MiB/s",
				       avg, m, NULL);
		a->k[k].user = rep_mean("s", user, m, NULL);
		a->k[k].sys = rep_mean("s", sys, m, NULL);
	}
	free(avg);
	free(user);
	free(sys);
	free(runs);
}

/*
 * compilebench's "Average NAME results" of the mailing-list comparisons,
 * one block per configuration, each line in compilebench's own summary
 * format: per repetition compilebench's average, then the mean of those
 * over the complete repetitions (stats/repmean.h).  A repetition
 * that did not complete is left out and named in the heading.
 */
static void print_average(FILE *out, const struct cmp_group *g)
{
	struct cb_average a;

	cb_average(g, &a);
	fprintf(out, "\nAverage %s results", g->label ? g->label : "?");
	if (a.skipped) {
		fprintf(out, " (%zu of %zu repetitions; not counted:", a.used,
			a.used + a.skipped);
		for (size_t r = 0; r < g->nr_reps; r++)
			if (rep_unfinished(g->reps[r]))
				fprintf(out, " rep %d %s", g->reps[r]->rep + 1,
					g->reps[r]->status);
		fputc(')', out);
	}
	fputc('\n', out);
	for (int k = 0; k < K_NR; k++) {
		struct kind_stats s = a.k[k];

		/* print_stat divides by runs: hand it totals */
		s.sum *= s.runs;
		s.user *= s.runs;
		s.sys *= s.runs;
		print_stat(out, &s, &cb_kinds[k]);
	}
}

void cb_report_run(FILE *out, const struct cmp_group *groups, size_t nr)
{
	for (size_t g = 0; g < nr; g++)
		print_average(out, &groups[g]);
}

/*
 * compare: the "Average NAME results" block of every configuration, then
 * the averages side by side with the change against the first.
 */
void cb_report_compare(FILE *out, const struct cmp_group *groups,
		       size_t nr)
{
	struct cb_average *a = xcalloc(nr + 1, sizeof(*a));
	int w = 22;

	for (size_t g = 0; g < nr; g++) {
		print_average(out, &groups[g]);
		cb_average(&groups[g], &a[g]);
		if (groups[g].label && (int)strlen(groups[g].label) + 2 > w)
			w = (int)strlen(groups[g].label) + 2;
	}
	fprintf(out, "\ncompilebench averages (mean over repetitions; change "
		"against '%s')\n%-22s", nr ? groups[0].label : "-", "");
	for (size_t g = 0; g < nr; g++)
		fprintf(out, "%-*s", w, groups[g].label);
	fputc('\n', out);
	for (int k = 0; k < K_NR; k++) {
		fprintf(out, "%-22s", cb_kinds[k].tag);
		for (size_t g = 0; g < nr; g++) {
			double v = a[g].k[k].sum, b = a[0].k[k].sum;
			const char *u = cb_kinds[k].seconds ? "s" : "MiB/s";
			char cell[64];

			if (!a[g].k[k].runs)
				snprintf(cell, sizeof(cell), "no runs");
			else if (g && a[0].k[k].runs && b != 0)
				snprintf(cell, sizeof(cell),
					 "%.2f %s (%+.1f%%)", v, u,
					 100.0 * (v - b) / b);
			else
				snprintf(cell, sizeof(cell), "%.2f %s", v, u);
			fprintf(out, "%-*s", w, cell);
		}
		fputc('\n', out);
	}
	free(a);
}
