/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - bonnie's report, from the phase records alone.
 */
#include "workloads/bonnie/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "util/pyrand.h"
#include "phase/par.h"
#include "util/util.h"
#include "util/version.h"
#include "util/verify.h"

/* ---- the report, from the phase records alone ---- */

static enum bon_test test_of(const char *name)
{
	for (int i = 0; i < BON_NR; i++)
		if (!strcmp(bon_phase_names[i], name))
			return (enum bon_test)i;
	return BON_NR;
}

static double metric_or(const struct phase_rec *p, const char *name,
			double def)
{
	return phase_rec_value(p, name, def);
}

/* A stored repetition that did not complete: marked wherever shown. */
static bool unfinished(const struct wlrun_rec *wr)
{
	return wr->status && strcmp(wr->status, "complete") &&
	       strcmp(wr->status, "running");
}

/*
 * One repetition as a bonnie++ CSV row in its own format, named label
 * (machine= when given), "*" appended when the repetition did not
 * complete, in format want (-1: the run's own).  Returns the row;
 * *format and *stdio say how the repetition was run.
 */
static char *wlrun_csv(const struct wlrun_rec *wr, const char *label,
		       int want, int *format, bool *stdio)
{
	struct bon_row row = { .version = "fslab-" FSLAB_VERSION,
			       .concurrency = 1 };
	struct bon_opts o;
	char err[256], *name, *csv;

	opt_defaults(bon_opt_table, &o);
	if (wr->options)
		(void)opt_parse(bon_opt_table, &o, wr->options, err,
				sizeof(err));
	name = xasprintf("%s%s", o.machine && *o.machine ? o.machine :
			 label && *label ? label : "localhost",
			 unfinished(wr) ? "*" : "");
	row.machine = name;
	*format = o.format;
	*stdio = bon_perchar_of(&o) == BON_PERCHAR_STDIO;
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];
		enum bon_test t = test_of(p->name);
		struct bon_cell *c;

		if (t == BON_NR || p->status != PHASE_OK)
			continue;
		c = &row.cell[t];
		c->present = true;
		c->rate = metric_or(p, bon_rate_metric(t), 0);
		c->too_fast = metric_or(p, "too_fast",
					bon_too_fast(p->m.wall_ns)) != 0;
		/* bonnie++'s %CP: the process's user+sys CPU over wall */
		c->cpu_pct = p->m.wall_ns ? 100.0 * (double)(p->m.user_ns +
			     p->m.sys_ns) / (double)p->m.wall_ns : 0;
		/* runs stored before the one latency rule kept µs */
		c->lat_us = metric_or(p, "lat_max_ms", -1) >= 0 ?
			    1000 * metric_or(p, "lat_max_ms", -1) :
			    metric_or(p, "lat_max_us", -1);
		row.seed = (uint64_t)metric_or(p, "seed", 0);
		if (t < BON_SEQ_CREATE) {
			row.size = (uint64_t)metric_or(p, "size_B", 0);
			row.chunk = (uint64_t)metric_or(p, "chunk_B", 0);
			row.seeks = (long long)metric_or(p, "seeks", 0);
			row.seekers = (long long)metric_or(p, "seekers", 0);
			*stdio = metric_or(p, "perchar_stdio", *stdio) != 0;
		} else {
			row.have_files = true;
			row.files.n = (long long)metric_or(p, "files_n", 0);
			row.files.max = (uint64_t)metric_or(p, "files_max_B",
							    0);
			row.files.min = (uint64_t)metric_or(p, "files_min_B",
							    0);
			row.files.dirs = (long long)metric_or(p, "files_dirs",
							      1);
			row.files.chunk = (uint64_t)metric_or(p,
						"files_chunk_B", 0);
		}
	}
	if (want < 0)
		want = o.format;
	csv = want == BON_FMT_103 ? bon_csv_row_103(&row) : bon_csv_row(&row);
	free(name);
	opt_release(bon_opt_table, &o);
	return csv;
}

/*
 * One repetition: its CSV row (what bonnie++ prints last), as 1.98 for
 * bon_csv2txt and bon_csv2html, and as 1.03 too with format=1.03.  The
 * table comes once per run, over every target and repetition
 * (bon_report_table), as bonnie++'s users paste it.
 */
void bon_report(FILE *out, const struct run_rec *run,
		const struct wlrun_rec *wr)
{
	const struct target_rec *t = run ? run_rec_target(run, wr) : NULL;
	const char *label = t ? t->name : NULL;
	int format;
	bool stdio;
	char *csv = wlrun_csv(wr, label, BON_FMT_200A, &format, &stdio);

	fprintf(out, "%s\n", csv);
	free(csv);
	if (format != BON_FMT_103)
		return;
	csv = wlrun_csv(wr, label, BON_FMT_103, &format, &stdio);
	fprintf(out, "%s\n", csv);
	free(csv);
}

struct table_rows {
	char **rows;
	size_t nr, alloc;
	int stdio_mask;       /* 1: some row used write(2), 2: stdio */
};

static void print_table(FILE *out, struct table_rows *t, int format)
{
	if (!t->nr)
		return;
	fputc('\n', out);
	if (format == BON_FMT_103)
		bon_table_103(out, (const char *const *)t->rows, t->nr);
	else
		bon_csv2txt(out, (const char *const *)t->rows, t->nr);
	if (t->stdio_mask & 2)
		fprintf(out, "Per Chr: putc/getc over the whole file "
			"(bonnie++ 1.0x)%s\n", t->stdio_mask & 1 ?
			" where the row's CSV says so" : "");
	if (t->stdio_mask & 1)
		fprintf(out, "Per Chr: one write(2)/read(2) per byte over "
			"byte-io (bonnie++ >= 1.92)%s\n", t->stdio_mask & 2 ?
			" for the other rows" : "");
	for (size_t i = 0; i < t->nr; i++) {
		fprintf(out, "%s\n", t->rows[i]);
		free(t->rows[i]);
	}
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

/*
 * The run's (or the comparison's) bonnie++ tables: one per format, one
 * row per configuration and repetition, named after the configuration
 * (the target) unless machine= names it; then the CSV rows.
 */
void bon_report_table(FILE *out, const struct cmp_group *groups, size_t nr)
{
	struct table_rows t[2] = { 0 };
	bool marked = false;

	for (size_t g = 0; g < nr; g++) {
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const struct wlrun_rec *wr = groups[g].reps[r];
			int format;
			bool stdio;
			char *csv = wlrun_csv(wr, groups[g].label, -1,
					      &format, &stdio);
			struct table_rows *tr = &t[format == BON_FMT_103];

			ALLOC_GROW(tr->rows, tr->nr + 1, tr->alloc);
			tr->rows[tr->nr++] = csv;
			tr->stdio_mask |= stdio ? 2 : 1;
			marked |= unfinished(wr);
		}
	}
	print_table(out, &t[0], BON_FMT_200A);
	print_table(out, &t[1], BON_FMT_103);
	if (!marked)
		return;
	for (size_t g = 0; g < nr; g++)
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const struct wlrun_rec *wr = groups[g].reps[r];

			if (unfinished(wr))
				fprintf(out, "* %s rep %d: %s; its row holds "
					"the tests that completed\n",
					groups[g].label, wr->rep + 1, wr->status);
		}
}
