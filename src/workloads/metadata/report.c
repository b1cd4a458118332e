/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - the metadata workload's fs_mark-like table and mdtest's
 * stonewall lines, from the stored phases only.
 */
#include "workloads/metadata/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/opt.h"
#include "util/util.h"

/* ---- the report, from the stored phases only ---- */

static void put_metric(FILE *out, const struct phase_rec *p,
		       const char *name, const char *fmt, int width)
{
	const struct metric *m = phase_rec_metric(p, name);

	if (m)
		fprintf(out, fmt, width, m->value);
	else
		fprintf(out, " %*s", width, "-");
}

/* A latency stored in ms (result.h's rule) in fs_mark's microseconds. */
static void put_lat_us(FILE *out, const struct phase_rec *p,
		       const char *stat, int width)
{
	char name[64];
	const struct metric *m = phase_rec_metric(p,
		latency_metric_name(name, sizeof(name), NULL, stat));

	if (m)
		fprintf(out, " %*.1f", width, m->value * 1e3);
	else
		fprintf(out, " %*s", width, "-");
}

/* mdtest's two figures: the rate at the stonewall and over the whole
 * phase (wear-out included). */
static void report_stonewall(FILE *out, const struct phase_rec *p)
{
	const struct metric *s = phase_rec_metric(p, "stonewall_s");
	const struct metric *n = phase_rec_metric(p, "stonewall_files");
	const struct metric *lo = phase_rec_metric(p, "stonewall_min");
	const struct metric *hi = phase_rec_metric(p, "stonewall_max");
	const struct metric *rate = phase_rec_metric(p, "files/s");

	if (!s || !n)
		return;
	fprintf(out, "%s stonewall: %.0f files in %.3f s (%.0f/s), per "
		"thread %.0f..%.0f; all %" PRIu64 " in %.3f s (%.0f/s)\n",
		p->name, n->value, s->value, s->value > 0 ? n->value /
		s->value : 0, lo ? lo->value : 0, hi ? hi->value : 0,
		p->files, (double)p->m.wall_ns / 1e9, rate ? rate->value : 0);
}

void md_report(FILE *out, const struct run_rec *run,
		      const struct wlrun_rec *wr)
{
	struct md_opts o;
	char err[256];
	bool have = true;

	(void)run;
	memset(&o, 0, sizeof(o));
	opt_defaults(md_opt_table, &o);
	if (wr->options && opt_parse(md_opt_table, &o, wr->options, err,
				     sizeof(err)) < 0)
		have = false;
	fputc('\n', out);
	if (have) {
		fprintf(out, "metadata: %lld threads, %lld files per thread, "
			"%" PRIu64 " bytes per file\n", o.threads, o.files,
			o.size);
		fprintf(out, "          %lld %s, sync=%s, names=%s, %s "
			"cache\n", o.dirs, o.shared ?
			"shared directories" : "directories per thread",
			md_enum_name(md_sync_values, o.sync),
			md_enum_name(md_names_values, o.names),
			o.cold ? "cold" : "warm");
	} else {
		fprintf(out, "metadata: %s\n", wr->options);
	}
	fprintf(out, "%-7s %10s %8s %11s %9s %9s %6s %6s\n", "phase",
		"count", "size", "files/sec", "p50 us", "p99 us", "sys%",
		"busy%");
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];
		const struct metric *sys = phase_rec_metric(p, "sys_s");
		const struct metric *wall = phase_rec_metric(p, "wall_s");
		bool is_dir = !strcmp(p->name, "mkdir") ||
			      !strcmp(p->name, "rmdir");

		fprintf(out, "%-7s %10" PRIu64 " %8" PRIu64, p->name,
			p->files, is_dir ? 0 : o.size);
		put_metric(out, p, "files/s", " %*.0f", 11);
		put_lat_us(out, p, "p50", 9);
		put_lat_us(out, p, "p99", 9);
		/* fslab's own system time, in % of one CPU (threads: >100) */
		if (sys && wall && wall->value > 0)
			fprintf(out, " %6.1f", 100.0 * sys->value /
				wall->value);
		else
			fprintf(out, " %6s", "-");
		put_metric(out, p, "sys_cpu_pct", " %*.1f", 6);
		if (p->status != PHASE_OK)
			fprintf(out, "  %s: %s", p->status == PHASE_FAILED ?
				"FAILED" : "interrupted",
				p->error ? p->error : "");
		else if (p->too_short)
			fprintf(out, "  (too short to time)");
		fputc('\n', out);
	}
	for (size_t i = 0; i < wr->nr_phases; i++)
		report_stonewall(out, &wr->phases[i]);
	opt_release(md_opt_table, &o);
}
