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
}

/*
 * compare: compilebench's two "Average ... results" blocks of the
 * mailing-list comparisons, side by side, one column per configuration.
 * Each figure is the mean over the repetitions of that repetition's
 * compilebench average (what its own report prints).
 */
void cb_report_compare(FILE *out, const struct cmp_group *groups,
		       size_t nr)
{
	double *avg = xcalloc(nr * K_NR + 1, sizeof(*avg));
	int *reps = xcalloc(nr * K_NR + 1, sizeof(*reps));
	char **head = xcalloc(nr + 1, sizeof(*head));
	int w = 22;

	for (size_t g = 0; g < nr; g++) {
		head[g] = xasprintf("Average %s results", groups[g].label);
		if ((int)strlen(head[g]) + 2 > w)
			w = (int)strlen(head[g]) + 2;
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const struct wlrun_rec *wr = groups[g].reps[r];
			struct kind_stats st[K_NR];

			memset(st, 0, sizeof(st));
			for (size_t i = 0; i < wr->nr_phases; i++)
				cb_stats_add(st, &wr->phases[i]);
			for (int k = 0; k < K_NR; k++) {
				if (!st[k].runs)
					continue;
				avg[g * K_NR + k] += st[k].sum / st[k].runs;
				reps[g * K_NR + k]++;
			}
		}
	}
	fprintf(out, "compilebench averages (mean over repetitions; change "
		"against '%s')\n", nr ? groups[0].label : "-");
	fprintf(out, "%-22s", "");
	for (size_t g = 0; g < nr; g++)
		fprintf(out, "%-*s", w, head[g]);
	fputc('\n', out);
	for (int k = 0; k < K_NR; k++) {
		fprintf(out, "%-22s", cb_kinds[k].tag);
		for (size_t g = 0; g < nr; g++) {
			int n = reps[g * K_NR + k];
			double v = n ? avg[g * K_NR + k] / n : 0;
			double b = reps[k] ? avg[k] / reps[k] : 0;
			char cell[64];

			if (!n)
				snprintf(cell, sizeof(cell), "no runs");
			else if (g && reps[k] && b != 0)
				snprintf(cell, sizeof(cell), "%.2f %s (%+.1f%%)",
					 v, cb_kinds[k].seconds ? "s" : "MB/s",
					 100.0 * (v - b) / b);
			else
				snprintf(cell, sizeof(cell), "%.2f %s", v,
					 cb_kinds[k].seconds ? "s" : "MB/s");
			fprintf(out, "%-*s", w, cell);
		}
		fputc('\n', out);
	}
	for (size_t g = 0; g < nr; g++)
		free(head[g]);
	free(head);
	free(avg);
	free(reps);
}
