/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.c - the end-of-run table.  Rows group every phase of the same
 * name across the repetitions of one target spec, so `--repeat 5` shows
 * n = 5 and the spread without a separate `compare`.  The repetition is
 * the sample, as in compare: a phase's instances inside one repetition
 * fold into one figure (stats/repmean.h) before the mean and CoV.
 *
 * The figures of a row are its workload's key metrics for that phase
 * (bonnie's seeks in seeks/s, FFSB's transactions/s, ...), each with its
 * unit and its own CoV over the repetitions; a phase that is no key
 * metric's shows MiB/s and files/s where it has them.  Names are never
 * cut: the columns are as wide as the longest.
 */
#include "output/summary.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/fmt.h"
#include "output/provenance.h"
#include "stats/repmean.h"
#include "stats/stats.h"
#include "util/shquote.h"
#include "util/util.h"
#include "workloads/registry.h"


#define MAX_FIGS 4

/* One figure of a row: per repetition its instances (value, wall time)
 * are folded into one value (stats/repmean.h). */
struct fig {
	const char *name, *unit;
	double *inst, *instw, *reps;
	size_t ninst, ninstw, nreps, ainst, ainstw, areps;
};

struct row {
	int target_idx;          /* command-line index */
	const char *target_name;
	const char *workload;
	const char *phase;
	double *wall;
	size_t n, alloc;
	double busy_sum;
	size_t busy_n;
	size_t failed, interrupted;
	/* this repetition's instances, folded by flush() */
	double *pw;
	size_t npw, apw;
	struct fig figs[MAX_FIGS];
	size_t nfigs;
	bool figs_chosen;
	const struct phase_rec *ranked; /* first instance run on MPI ranks */
	const struct phase_rec *walled; /* first instance with a stonewall */
	double tsum[NR_TRACE_KEY_METRICS]; /* traced figures, summed over reps */
	size_t tn[NR_TRACE_KEY_METRICS];
};

static struct row *find_row(struct row **rows, size_t *nr, size_t *alloc,
			    int tidx, const char *tname, const char *wl,
			    const char *phase)
{
	struct row *r;

	for (size_t i = 0; i < *nr; i++) {
		r = &(*rows)[i];
		if (r->target_idx == tidx && !strcmp(r->workload, wl) &&
		    !strcmp(r->phase, phase))
			return r;
	}
	ALLOC_GROW(*rows, *nr + 1, *alloc);
	r = &(*rows)[(*nr)++];
	memset(r, 0, sizeof(*r));
	r->target_idx = tidx;
	r->target_name = tname;
	r->workload = wl;
	r->phase = phase;
	return r;
}

static void push(double **arr, size_t *n, size_t *alloc, double v)
{
	ALLOC_GROW(*arr, *n + 1, *alloc);
	(*arr)[(*n)++] = v;
}

/* The same from values in that order, NAN where missing. */
static void summary_trace_figures(FILE *out, const char *indent,
				  const double *v)
{
	bool any = false;

	for (size_t i = 0; i < NR_TRACE_KEY_METRICS; i++)
		any |= !isnan(v[i]);
	if (!any)
		return;
	fprintf(out, "%straced:", indent);
	if (!isnan(v[0]))
		fprintf(out, " %.0f seeks", v[0]);
	if (!isnan(v[1]))
		fprintf(out, ", %.1f seeks/s", v[1]);
	if (!isnan(v[2]))
		fprintf(out, ", median seek %.0f sectors", v[2]);
	if (!isnan(v[3]))
		fprintf(out, ", layout score %.3f", v[3]);
	if (!isnan(v[4]) || !isnan(v[5]))
		fprintf(out, ", latency p50 %.3f ms p99 %.3f ms", v[4], v[5]);
	fputc('\n', out);
}

void summary_phase_trace(FILE *out, const char *indent,
			 const struct phase_rec *p)
{
	double v[NR_TRACE_KEY_METRICS];

	for (size_t i = 0; i < NR_TRACE_KEY_METRICS; i++) {
		const struct metric *m;

		m = phase_rec_metric(p, trace_key_metrics[i]);
		v[i] = m ? m->value : NAN;
	}
	summary_trace_figures(out, indent, v);
}

/* End of a repetition: its instances become one figure each. */
static void flush(struct row *r)
{
	if (r->npw)
		push(&r->wall, &r->n, &r->alloc, stats_mean(r->pw, r->npw));
	r->npw = 0;
	for (size_t k = 0; k < r->nfigs; k++) {
		struct fig *f = &r->figs[k];

		if (f->ninst)
			push(&f->reps, &f->nreps, &f->areps,
			     rep_fold(f->unit, f->inst, f->instw, f->ninst));
		f->ninst = f->ninstw = 0;
	}
}

/* Is phase/name one of the workload's key metrics? */
static bool is_key(const struct workload *wl, const char *phase,
		   const char *name)
{
	size_t lp = strlen(phase);

	for (const char *const *k = wl && wl->key_metrics ? wl->key_metrics
							  : NULL; k && *k; k++)
		if (!strncmp(*k, phase, lp) && (*k)[lp] == '/' &&
		    !strcmp(*k + lp + 1, name))
			return true;
	return false;
}

/* The figures of a row, from its first instance: the key metrics of the
 * phase, else MiB/s and files/s. */
static void choose_figs(struct row *r, const struct phase_rec *p)
{
	const struct workload *wl = wl_find(r->workload);

	r->figs_chosen = true;
	for (size_t i = 0; i < p->nr_metrics && r->nfigs < MAX_FIGS; i++)
		if (is_key(wl, p->name, p->metrics[i].name)) {
			r->figs[r->nfigs].name = p->metrics[i].name;
			r->figs[r->nfigs++].unit = p->metrics[i].unit;
		}
	if (r->nfigs)
		return;
	for (size_t i = 0; i < p->nr_metrics && r->nfigs < MAX_FIGS; i++)
		if (!strcmp(p->metrics[i].name, "MiB/s") ||
		    !strcmp(p->metrics[i].name, "files/s")) {
			r->figs[r->nfigs].name = p->metrics[i].name;
			r->figs[r->nfigs++].unit = p->metrics[i].unit;
		}
}

/* Whether any metric of p is one of its workload's key metrics. */
static bool has_key(const char *workload, const struct phase_rec *p)
{
	const struct workload *wl = wl_find(workload);

	for (size_t i = 0; i < p->nr_metrics; i++)
		if (is_key(wl, p->name, p->metrics[i].name))
			return true;
	return false;
}

/*
 * A statistic of a rate, named stat + "_" + its unit by the naming rule
 * ("rank_min_files/s", "host:c1_MiB/s"); NULL when p has none.
 */
static const struct metric *rate_stat(const struct phase_rec *p,
				      const char *stat)
{
	size_t n = strlen(stat);

	for (size_t i = 0; i < p->nr_metrics; i++) {
		const struct metric *m = &p->metrics[i];

		if (!strncmp(m->name, stat, n) && m->name[n] == '_' &&
		    !strcmp(m->name + n + 1, m->unit))
			return m;
	}
	return NULL;
}

/* "host:c1_files/s" -> length of "c1" */
static int host_len(const struct metric *m)
{
	return (int)(strlen(m->name) - 5 - 1 - strlen(m->unit));
}

static bool is_host_rate(const struct metric *m)
{
	size_t n = strlen(m->name), u = strlen(m->unit);

	return !strncmp(m->name, "host:", 5) && n > 5 + u + 1 &&
	       m->name[n - u - 1] == '_' && !strcmp(m->name + n - u, m->unit);
}

/* "ranks 8: min 1201 max 1533 mean 1420 σ 98 files/s, slowest rank 5" */
static void print_ranks(FILE *out, const struct phase_rec *p)
{
	const struct metric *n = phase_rec_metric(p, "ranks");
	const struct metric *lo = rate_stat(p, "rank_min");
	const struct metric *hi = rate_stat(p, "rank_max");
	const struct metric *mean = rate_stat(p, "rank_mean");
	const struct metric *sd = rate_stat(p, "rank_sd");
	const struct metric *slow = phase_rec_metric(p, "slowest_rank");

	if (!n || !lo || !hi || !mean || !slow)
		return;
	fprintf(out, "%-16s   ranks %.0f: min %.0f max %.0f mean %.0f", "",
		n->value, lo->value, hi->value, mean->value);
	if (sd)
		fprintf(out, " \u03c3 %.0f", sd->value);
	fprintf(out, " %s, slowest rank %.0f\n", mean->unit, slow->value);
}

/*
 * Ranks on several hosts: the spread over hosts, then one row per host
 * (the "host:NAME_UNIT" metrics, in node order):
 * "hosts 3: min 310 max 402 mean 355 files/s, slowest host c2"
 * "  host c1: 402 files/s"
 */
static void print_hosts(FILE *out, const struct phase_rec *p)
{
	const struct metric *n = phase_rec_metric(p, "hosts");
	const struct metric *lo = rate_stat(p, "host_min");
	const struct metric *hi = rate_stat(p, "host_max");
	const struct metric *mean = rate_stat(p, "host_mean");
	const struct metric *slow = phase_rec_metric(p, "slowest_host");
	const struct metric *slowest = NULL;
	size_t h = 0;

	if (!n || !lo || !hi || !mean || !slow)
		return;
	for (size_t i = 0; i < p->nr_metrics; i++)
		if (is_host_rate(&p->metrics[i]) &&
		    (double)h++ == slow->value)
			slowest = &p->metrics[i];
	fprintf(out, "%-16s   hosts %.0f: min %.0f max %.0f mean %.0f %s, "
		"slowest host %.*s\n", "", n->value, lo->value, hi->value,
		mean->value, mean->unit, slowest ? host_len(slowest) : 1,
		slowest ? slowest->name + 5 : "?");
	for (size_t i = 0; i < p->nr_metrics; i++)
		if (is_host_rate(&p->metrics[i]))
			fprintf(out, "%-16s     host %.*s: %.0f %s\n", "",
				host_len(&p->metrics[i]),
				p->metrics[i].name + 5, p->metrics[i].value,
				p->metrics[i].unit);
}

/*
 * "stonewall 0.50 s: 14897 files, 29794 files/s; full 1.06 s: 24872
 * files, 23466 files/s" - what was done by the deadline against the
 * whole phase, wear-out included.
 */
static void print_stonewall(FILE *out, const struct phase_rec *p)
{
	const struct metric *s = phase_rec_metric(p, "stonewall_s");
	const struct metric *n = phase_rec_metric(p, "stonewall_files");
	const struct metric *r = phase_rec_metric(p, "stonewall_files/s");
	const struct metric *full = phase_rec_metric(p, "files/s");

	if (!s || !n)
		return;
	fprintf(out, "%-16s   stonewall %.2f s: %.0f files", "", s->value,
		n->value);
	if (r)
		fprintf(out, ", %.0f files/s", r->value);
	fprintf(out, "; full %.2f s: %" PRIu64 " files", (double)p->m.wall_ns /
		1e9, p->files);
	if (full)
		fprintf(out, ", %.0f files/s", full->value);
	fputc('\n', out);
}

/* "254.6 MiB/s (CoV 59.7%)": the mean over repetitions compare uses
 * (harmonic for rates), and the CoV of the same figures; named when the
 * row has several.  fslab's own tables speak MiB/s: a KiB/s figure
 * (bonnie's, as bonnie++ prints it) is shown in MiB/s. */
static void print_fig(FILE *out, const struct fig *f, bool first,
		      bool named)
{
	struct stats_summary ss;
	double mean = rep_mean(f->unit, f->reps, f->nreps, NULL);
	const char *unit = f->unit;
	char v[48];

	if (!strcmp(unit, "KiB/s")) {
		mean /= 1024;
		unit = "MiB/s";
	}
	fmt_sig4(v, sizeof(v), mean);
	stats_summarize(f->reps, f->nreps, &ss);
	fprintf(out, "%s", first ? "" : ", ");
	if (named && strcmp(f->name, f->unit)) {
		/* "create.avg_MiB/s" is "create.avg 57.3 MiB/s": the unit
		 * the naming rule put in the name is printed once. */
		size_t n = strlen(f->name), u = strlen(f->unit);

		if (u && n > u + 1 && f->name[n - u - 1] == '_' &&
		    !strcmp(f->name + n - u, f->unit))
			n -= u + 1;
		fprintf(out, "%.*s ", (int)n, f->name);
	}
	fprintf(out, "%s %s", v, unit);
	if (f->nreps > 1 && isfinite(ss.cov_pct))
		fprintf(out, " (CoV %.1f%%)", ss.cov_pct);
}

static void release_row(struct row *row)
{
	free(row->wall);
	free(row->pw);
	for (size_t k = 0; k < row->nfigs; k++) {
		free(row->figs[k].inst);
		free(row->figs[k].instw);
		free(row->figs[k].reps);
	}
}

void summary_print(FILE *out, const struct run_rec *r, const char *dbpath)
{
	struct row *rows = NULL;
	size_t nr = 0, alloc = 0;
	int wt = 6, ww = 8, wp = 5;

	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];
		const struct target_rec *t = run_rec_target(r, w);

		for (size_t j = 0; j < w->nr_phases; j++) {
			const struct phase_rec *p = &w->phases[j];
			const struct metric *m;
			struct row *row;

			/* Zero-work bookkeeping phases have no rates, unless
			 * they carry a key metric (compilebench's summary). */
			if (!p->bytes && !p->files && !p->ops &&
			    !has_key(w->workload, p))
				continue;
			row = find_row(&rows, &nr, &alloc, t ? t->idx : 0,
				       t ? t->name : "?", w->workload,
				       p->name);
			if (p->status == PHASE_INTERRUPTED) {
				row->interrupted++;
				continue;
			}
			if (p->status != PHASE_OK) {
				row->failed++;
				continue;
			}
			if (!row->figs_chosen)
				choose_figs(row, p);
			push(&row->pw, &row->npw, &row->apw,
			     (double)p->m.wall_ns / 1e9);
			for (size_t k = 0; k < row->nfigs; k++) {
				struct fig *f = &row->figs[k];

				if (!(m = phase_rec_metric(p, f->name)))
					continue;
				push(&f->inst, &f->ninst, &f->ainst, m->value);
				push(&f->instw, &f->ninstw, &f->ainstw,
				     (double)p->m.wall_ns / 1e9);
			}
			if (!row->ranked && phase_rec_metric(p, "ranks"))
				row->ranked = p;
			if (!row->walled && phase_rec_metric(p, "stonewall_s"))
				row->walled = p;
			for (size_t k = 0; k < NR_TRACE_KEY_METRICS; k++)
				if ((m = phase_rec_metric(p,
						trace_key_metrics[k])) &&
				    isfinite(m->value)) {
					row->tsum[k] += m->value;
					row->tn[k]++;
				}
			if (p->m.sys_busy_pct >= 0) {
				row->busy_sum += p->m.sys_busy_pct;
				row->busy_n++;
			}
		}
		for (size_t k = 0; k < nr; k++)
			flush(&rows[k]);
	}

	fprintf(out, "\nfslab run %lld %s: %zu target build(s), %zu workload "
		"run(s)%s%s\n",
		(long long)r->id, r->status, r->nr_targets, r->nr_wlruns,
		dbpath ? "; stored in " : "", dbpath ? dbpath : "");
	provenance_text(out, r);
	for (size_t i = 0; i < nr; i++) {
		wt = (int)fmax(wt, (double)strlen(rows[i].target_name));
		ww = (int)fmax(ww, (double)strlen(rows[i].workload));
		wp = (int)fmax(wp, (double)strlen(rows[i].phase));
	}
	fprintf(out, "%-*s  %-*s  %-*s %4s %9s  %s\n", wt, "target", ww,
		"workload", wp, "phase", "n", "wall s", "figures: mean over "
		"the repetitions (CoV of the repetitions); system CPU");
	for (size_t i = 0; i < nr; i++) {
		struct row *row = &rows[i];
		double wall = stats_mean(row->wall, row->n);
		bool first = true;

		fprintf(out, "%-*s  %-*s  %-*s %4zu", wt, row->target_name,
			ww, row->workload, wp, row->phase, row->n);
		if (isnan(wall))
			fprintf(out, " %9s  ", "-");
		else
			fprintf(out, " %9.2f  ", wall);
		for (size_t k = 0; k < row->nfigs; k++)
			if (row->figs[k].nreps) {
				print_fig(out, &row->figs[k], first,
					  row->nfigs > 1);
				first = false;
			}
		/* always there ("-" when too short to measure): one
		 * layout whatever the machine's speed */
		fprintf(out, "%ssysCPU%% ", first ? "" : "; ");
		if (row->busy_n)
			fprintf(out, "%.0f", row->busy_sum /
					     (double)row->busy_n);
		else
			fputc('-', out);
		if (row->failed)
			fprintf(out, "  (%zu failed)", row->failed);
		if (row->interrupted)
			fprintf(out, "  (%zu interrupted)", row->interrupted);
		fputc('\n', out);
		if (row->ranked)
			print_ranks(out, row->ranked);
		if (row->ranked)
			print_hosts(out, row->ranked);
		if (row->walled)
			print_stonewall(out, row->walled);
		{
			double v[NR_TRACE_KEY_METRICS];

			for (size_t k = 0; k < NR_TRACE_KEY_METRICS; k++)
				v[k] = row->tn[k] ? row->tsum[k] /
						    (double)row->tn[k] : NAN;
			summary_trace_figures(out, "                   ", v);
		}
		release_row(row);
	}
	free(rows);
}

void summary_print_next(FILE *out, const struct run_rec *r, const char *db)
{
	char *q = db ? sh_quote(db) : NULL;
	char *dbarg = q ? xasprintf(" --db %s", q) : xstrdup("");
	long long id = (long long)r->id;
	bool several = false;
	char *cmd[3];
	const char *what[3];
	int w = 0;

	for (size_t i = 0; i < r->nr_targets && !several; i++)
		several = r->targets[i].idx != r->targets[0].idx;
	cmd[0] = xasprintf("fslab check %lld%s", id, dbarg);
	what[0] = "every finding of the setup check";
	cmd[1] = xasprintf("fslab compare %lld%s%s", id,
			   several ? "" : " OTHER", dbarg);
	what[1] = several ? "its targets against the first, with verdicts"
			  : "against another run (OTHER: its id or tag), "
			    "e.g. of 'fslab run -t ext4:mount=sync'";
	cmd[2] = xasprintf("fslab report %lld%s%s -o report.html", id,
			   several ? "" : " OTHER", dbarg);
	what[2] = "the same comparison as one HTML file";
	for (int i = 0; i < 3; i++)
		w = (int)strlen(cmd[i]) > w ? (int)strlen(cmd[i]) : w;
	fprintf(out, "next:\n");
	for (int i = 0; i < 3; i++) {
		fprintf(out, "  %-*s  %s\n", w, cmd[i], what[i]);
		free(cmd[i]);
	}
	free(dbarg);
	free(q);
}
