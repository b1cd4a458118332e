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
#include "par.h"
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
	const struct metric *m = phase_rec_metric(p, name);

	return m ? m->value : def;
}

/* A rate and its %CP in 9 columns: the %CP gives way to wide rates. */
static void put_cell(FILE *out, const struct bon_cell *c, enum bon_test t)
{
	char a[32], b[16];
	int pad;

	bon_fmt_rate(a, sizeof(a), c, t);
	bon_fmt_cpu(b, sizeof(b), c);
	if (strlen(a) + 1 + 3 <= 9) {
		fprintf(out, " %5s %3s", a, b);
		return;
	}
	pad = 9 - (int)strlen(a) - 1 - (int)strlen(b);
	fprintf(out, " %*s%s %s", pad > 0 ? pad : 0, "", a, b);
}

static void put_lat_line(FILE *out, const char *tag, const double *us,
			 int from, int to)
{
	char t[32];

	fprintf(out, "%-12s", tag);
	for (int i = from; i < to; i++) {
		bon_fmt_latency(t, sizeof(t), us[i]);
		fprintf(out, " %9s", t);
	}
	fputc('\n', out);
}

void bon_report(FILE *out, const struct run_rec *run,
		const struct wlrun_rec *wr)
{
	struct bon_row row = { .version = "fslab-" FSLAB_VERSION,
			       .concurrency = 1 };
	double p50[BON_NR], p99[BON_NR], mx[BON_NR];
	struct bon_opts o;
	char err[256], size[32], *csv, pre[64];
	const char *machine;
	bool have_io = false, stdio = false;

	opt_defaults(bon_opt_table, &o);
	if (wr->options)
		(void)opt_parse(bon_opt_table, &o, wr->options, err,
				sizeof(err));
	machine = o.machine && *o.machine ? o.machine :
		  run && run->host ? run->host : "localhost";
	row.machine = machine;
	for (int i = 0; i < BON_NR; i++)
		p50[i] = p99[i] = mx[i] = -1;
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];
		enum bon_test t = test_of(p->name);
		struct bon_cell *c;

		if (t == BON_NR || p->status != PHASE_OK)
			continue;
		c = &row.cell[t];
		c->present = true;
		c->rate = metric_or(p, "rate", 0);
		c->too_fast = metric_or(p, "too_fast",
					bon_too_fast(p->m.wall_ns)) != 0;
		/* bonnie++'s %CP: the process's user+sys CPU over wall */
		c->cpu_pct = p->m.wall_ns ? 100.0 * (double)(p->m.user_ns +
			     p->m.sys_ns) / (double)p->m.wall_ns : 0;
		c->lat_us = mx[t] = metric_or(p, "lat_max_us", -1);
		p50[t] = metric_or(p, "lat_p50_us", -1);
		p99[t] = metric_or(p, "lat_p99_us", -1);
		row.seed = (uint64_t)metric_or(p, "seed", 0);
		if (t < BON_SEQ_CREATE) {
			have_io = true;
			row.size = (uint64_t)metric_or(p, "size_B", 0);
			row.chunk = (uint64_t)metric_or(p, "chunk_B", 0);
			row.seeks = (long long)metric_or(p, "seeks", 0);
			row.seekers = (long long)metric_or(p, "seekers", 0);
			stdio = metric_or(p, "perchar_stdio", 0) != 0;
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
	fputc('\n', out);
	if (have_io) {
		int w;

		bon_fmt_size(size, sizeof(size), row.size);
		w = 12 - 1 - (int)strlen(size);
		snprintf(pre, sizeof(pre), "%-*.*s %s", w > 0 ? w : 0,
			 w > 0 ? w : 0, machine, size);
		fprintf(out, "%-12.12s ------Sequential Output------ "
			"--Sequential Input- --Random-\n",
			"fslab " FSLAB_VERSION);
		fprintf(out, "             -Per Chr- --Block-- -Rewrite- "
			"-Per Chr- --Block-- --Seeks--\n");
		fprintf(out, "Machine Size K/sec %%CP K/sec %%CP K/sec %%CP "
			"K/sec %%CP K/sec %%CP  /sec %%CP\n");
		fprintf(out, "%-12s", pre);
		for (int t = 0; t < BON_NR_IO; t++)
			put_cell(out, &row.cell[t], (enum bon_test)t);
		fputc('\n', out);
		put_lat_line(out, "Latency", mx, 0, BON_NR_IO);
		put_lat_line(out, "  p50", p50, 0, BON_NR_IO);
		put_lat_line(out, "  p99", p99, 0, BON_NR_IO);
		if (row.cell[BON_PUTC].present)
			fprintf(out, "Per Chr: %s\n", stdio ?
				"putc/getc over the whole file "
				"(bonnie++ 1.0x)" :
				"one write(2)/read(2) per byte over byte_io "
				"(bonnie++ >= 1.92)");
	}
	if (row.have_files) {
		const struct bon_files *f = &row.files;

		snprintf(pre, sizeof(pre), "%lld", f->n);
		if (f->max || f->min)
			snprintf(pre, sizeof(pre), "%lld:%llu:%llu", f->n,
				 (unsigned long long)f->max,
				 (unsigned long long)f->min);
		if (f->dirs > 1) {
			size_t l = strlen(pre);

			snprintf(pre + l, sizeof(pre) - l, "/%lld", f->dirs);
		}
		fprintf(out, "             ------Sequential Create------ "
			"--------Random Create--------\n");
		fprintf(out, "%-12.12s -Create-- --Read--- -Delete-- "
			"-Create-- --Read--- -Delete--\n", machine);
		fprintf(out, "       files  /sec %%CP  /sec %%CP  /sec %%CP "
			" /sec %%CP  /sec %%CP  /sec %%CP\n");
		fprintf(out, "%12s", pre);
		for (int t = BON_NR_IO; t < BON_NR; t++)
			put_cell(out, &row.cell[t], (enum bon_test)t);
		fputc('\n', out);
		put_lat_line(out, "Latency", mx, BON_NR_IO, BON_NR);
		put_lat_line(out, "  p50", p50, BON_NR_IO, BON_NR);
		put_lat_line(out, "  p99", p99, BON_NR_IO, BON_NR);
	}
	csv = bon_csv_row(&row);
	fprintf(out, "%s\n", csv);
	free(csv);
	opt_release(bon_opt_table, &o);
}
