/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.c - tree's report: the mails' minutes:seconds table, and
 * the side-by-side comparison.
 */
#include "workloads/tree/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/target.h"
#include "measure/measure.h"
#include "model/tarball.h"
#include "model/treemodel.h"
#include "stats/repmean.h"
#include "util/util.h"

/* ---- the report ---- */

struct row {
	const char *phase, *label;
};

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The mail's step names; a traversal's order is in its label. */
static const char *row_title(const char *phase)
{
	if (!strcmp(phase, "unpack"))
		return "unpacking tree";
	if (!strcmp(phase, "sync"))
		return "sync after unpack";
	if (has_prefix(phase, "cold-read"))
		return "cold traversal";
	if (has_prefix(phase, "hot-read"))
		return "hot traversal";
	if (has_prefix(phase, "stat-"))
		return "stat";
	return phase;
}

static bool same_key(const struct phase_rec *p, const struct row *k)
{
	return !strcmp(p->name, k->phase) &&
	       !strcmp(p->label ? p->label : "", k->label ? k->label : "");
}

/* Rows in first-seen order over every group's phases, verify left out. */
static size_t collect_rows(const struct cmp_group *g, size_t ng,
			   struct row **out)
{
	struct row *v = NULL;
	size_t nr = 0, alloc = 0;

	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < g[i].nr_reps; j++)
			for (size_t k = 0; k < g[i].reps[j]->nr_phases; k++) {
				const struct phase_rec *p =
					&g[i].reps[j]->phases[k];
				struct row key = { p->name, p->label };
				size_t n;

				if (!strcmp(p->name, "verify"))
					continue;
				for (n = 0; n < nr; n++)
					if (same_key(p, &v[n]))
						break;
				if (n < nr)
					continue;
				ALLOC_GROW(v, nr + 1, alloc);
				v[nr++] = key;
			}
	*out = v;
	return nr;
}

/*
 * The mean over a group's complete phases of a figure of the row's phase
 * (NULL: the wall time, "@user"/"@sys": the CPU times), by the one rule
 * of stats/repmean.h (rates harmonically).  < 0: none.
 */
static double group_mean(const struct cmp_group *g, const struct row *k,
			 const char *metric)
{
	const char *unit = "s";
	double *v = NULL, mean;
	size_t n = 0, alloc = 0;

	for (size_t j = 0; j < g->nr_reps; j++)
		for (size_t i = 0; i < g->reps[j]->nr_phases; i++) {
			const struct phase_rec *p = &g->reps[j]->phases[i];
			const struct metric *m = NULL;

			if (p->status != PHASE_OK || !same_key(p, k))
				continue;
			if (metric && metric[0] != '@' &&
			    !(m = phase_rec_metric(p, metric)))
				continue;
			ALLOC_GROW(v, n + 1, alloc);
			if (m) {
				v[n++] = m->value;
				unit = m->unit;
			} else if (!metric) {
				v[n++] = secs(p->m.wall_ns);
			} else {
				v[n++] = secs(strcmp(metric, "@user") ?
					      p->m.sys_ns : p->m.user_ns);
			}
		}
	mean = n ? rep_mean(unit, v, n, NULL) : -1;
	free(v);
	return mean;
}

/* A configuration with a repetition that did not complete: marked. */
static bool group_unfinished(const struct cmp_group *g)
{
	for (size_t j = 0; j < g->nr_reps; j++)
		if (g->reps[j]->status &&
		    strcmp(g->reps[j]->status, "complete") &&
		    strcmp(g->reps[j]->status, "running"))
			return true;
	return false;
}

static void row_name(char *buf, size_t len, const struct row *k,
		     const char *what)
{
	if (k->label && strcmp(k->phase, "unpack"))
		snprintf(buf, len, "%s (%s)%s:", row_title(k->phase),
			 k->label, what);
	else
		snprintf(buf, len, "%s%s:", row_title(k->phase), what);
}

static bool is_read(const struct row *k)
{
	return has_prefix(k->phase, "cold-read") ||
	       has_prefix(k->phase, "hot-read");
}

#define COLW 10         /* a configuration's column */
#define NAMEW 34        /* the step's name */

/* The configurations' names over as many lines as the longest needs. */
static void print_heads(FILE *out, const struct cmp_group *g, size_t ng)
{
	size_t lines = 1;

	for (size_t i = 0; i < ng; i++) {
		size_t l = strlen(g[i].label ? g[i].label : "?") +
			   group_unfinished(&g[i]);

		if ((l + COLW - 1) / COLW > lines)
			lines = (l + COLW - 1) / COLW;
	}
	for (size_t line = 0; line < lines; line++) {
		fprintf(out, "    %-*s", NAMEW + 5, "");
		for (size_t i = 0; i < ng; i++) {
			char name[256];
			size_t l;

			snprintf(name, sizeof(name), "%s%s",
				 g[i].label ? g[i].label : "?",
				 group_unfinished(&g[i]) ? "*" : "");
			l = strlen(name);
			fprintf(out, " %*.*s", COLW, COLW, line * COLW < l ?
				name + line * COLW : "");
		}
		fputc('\n', out);
	}
}

static void print_table(FILE *out, const struct cmp_group *g, size_t ng)
{
	static const struct {
		const char *metric, *tag;
	} times[] = { { NULL, "real" }, { "@user", "user" },
		      { "@sys", "sys" } };
	struct row *rows;
	size_t nr = collect_rows(g, ng, &rows);
	char name[96], cell[32];
	bool marked = false;

	print_heads(out, g, ng);
	for (size_t r = 0; r < nr; r++) {
		row_name(name, sizeof(name), &rows[r], "");
		for (size_t t = 0; t < ARRAY_SIZE(times); t++) {
			fprintf(out, "    %-*s %-4s", NAMEW, t ? "" : name,
				times[t].tag);
			for (size_t i = 0; i < ng; i++)
				fprintf(out, " %*s", COLW, tree_fmt_mss(cell,
					sizeof(cell), group_mean(&g[i],
					&rows[r], times[t].metric)));
			fputc('\n', out);
		}
	}
	/* the rates behind the table, and what a read phase wrote */
	static const struct {
		const char *metric, *what, *fmt;
	} extra[] = {
		{ "MiB/s", " MiB/s", " %*.2f" },
		{ "files/s", " files/s", " %*.0f" },
		{ "rd_ios_per_file", " reads/file", " %*.2f" },
		{ "dev_write_MiB", " MiB written", " %*.2f" },
	};
	fputc('\n', out);
	for (size_t r = 0; r < nr; r++) {
		bool is_unpack = !strcmp(rows[r].phase, "unpack");

		for (size_t x = 0; x < ARRAY_SIZE(extra); x++) {
			if (x >= 2 && !is_read(&rows[r]))
				continue;
			if (x == 2 && !has_prefix(rows[r].phase, "cold-read"))
				continue;
			if (x < 2 && !is_read(&rows[r]) && !is_unpack)
				continue;
			row_name(name, sizeof(name), &rows[r], extra[x].what);
			fprintf(out, "    %-*s", NAMEW + 5, name);
			for (size_t i = 0; i < ng; i++) {
				double v = group_mean(&g[i], &rows[r],
						      extra[x].metric);

				if (v < 0)
					fprintf(out, " %*s", COLW, "-");
				else
					fprintf(out, extra[x].fmt, COLW, v);
			}
			fputc('\n', out);
		}
	}
	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < g[i].nr_reps; j++) {
			const struct wlrun_rec *w = g[i].reps[j];

			if (!w->status || !strcmp(w->status, "complete") ||
			    !strcmp(w->status, "running"))
				continue;
			if (!marked)
				fputc('\n', out);
			marked = true;
			fprintf(out, "    * %s rep %d: %s; its completed steps "
				"are counted\n", g[i].label ? g[i].label : "?",
				w->rep + 1, w->status);
		}
	free(rows);
}

void tree_report_compare(FILE *out, const struct cmp_group *groups,
			 size_t nr_groups)
{
	fprintf(out, "\ntree: mean over repetitions, m:ss.s, real/user/sys "
		"per step as time(1) gives them\n");
	print_table(out, groups, nr_groups);
}

static double metric_or(const struct phase_rec *p, const char *name,
			double def)
{
	return phase_rec_value(p, name, def);
}

void tree_report(FILE *out, const struct run_rec *run,
		 const struct wlrun_rec *wr)
{
	const struct target_rec *t = run ? run_rec_target(run, wr) : NULL;
	const struct wlrun_rec *reps[1] = { wr };
	struct cmp_group g = {
		.label = t && t->name ? t->name : "target", .run = run,
		.reps = reps, .nr_reps = 1,
	};
	const struct phase_rec *up = wlrun_rec_phase(wr, "unpack", false);

	fprintf(out, "\ntree on %s (%s, atime %s, mount %s):\n", g.label,
		t && t->fstype ? t->fstype : "?",
		tree_atime_mode(t ? t->eff_mount_opts : NULL),
		t && t->eff_mount_opts ? t->eff_mount_opts : "?");
	print_table(out, &g, 1);
	if (up && up->status == PHASE_OK) {
		double wall = secs(up->m.wall_ns);

		fprintf(out, "\n    unpack: %.2f MiB/s over %llu files, "
			"%.0f files/s; filesystem %.2f s, decompress %.2f s "
			"(CPU %.2f s, alongside the writes)%s\n",
			metric_or(up, "MiB/s", wall > 0 ? (double)up->bytes /
				  1048576.0 / wall : 0),
			(unsigned long long)up->files,
			metric_or(up, "files/s", wall > 0 ?
				  (double)up->files / wall : 0),
			metric_or(up, "fs_s", 0),
			metric_or(up, "decompress_s", 0),
			metric_or(up, "decompress_cpu_s", 0),
			metric_or(up, "predecompressed", 0) > 0 ?
			", predecompressed" : "");
	}
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];
		double wall = secs(p->m.wall_ns);

		if (!has_prefix(p->name, "cold-read") &&
		    !has_prefix(p->name, "hot-read"))
			continue;
		fprintf(out, "    %s (%s): %.2f megabytes/second over %llu "
			"files, %.0f files/second, cpu %.2f s user %.2f s "
			"sys, wrote %.2f MiB\n", row_title(p->name),
			p->label ? p->label : "-",
			metric_or(p, "MiB/s", wall > 0 ? (double)p->bytes /
				  1048576.0 / wall : 0),
			(unsigned long long)p->files,
			metric_or(p, "files/s", wall > 0 ?
				  (double)p->files / wall : 0),
			secs(p->m.user_ns), secs(p->m.sys_ns),
			metric_or(p, "dev_write_MiB", 0));
	}
	for (size_t i = 0; i < wr->nr_phases; i++)
		if (wr->phases[i].status != PHASE_OK)
			fprintf(out, "    %s: %s\n", wr->phases[i].name,
				wr->phases[i].error ? wr->phases[i].error :
				"failed");
}
