/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv.c - the CSV writers (see csv.h).  Long (tidy) format: one value a
 * row, so any tool can pivot it without knowing fslab's shapes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/checks.h"
#include "output/csv.h"
#include "output/fmt.h"
#include "output/provenance.h"
#include "stats/lathist.h"
#include "util/strbuf.h"
#include "util/util.h"

static const char *better_name(enum better b)
{
	return b == BETTER_HIGHER ? "higher" : b == BETTER_LOWER ? "lower"
								 : "none";
}

void csv_field(FILE *out, const char *s, bool first)
{
	bool formula;

	if (!first)
		fputc(',', out);
	if (!s)
		return;
	/*
	 * A spreadsheet runs a cell that starts with = + - @ (or tab/CR)
	 * as a formula; a tag or a command line must stay text (OWASP's
	 * advice: a leading quote, the cell quoted).
	 */
	formula = *s && strchr("=+-@\t\r", *s);
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void csv_num(FILE *out, double v, bool first)
{
	if (!first)
		fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.15g", v);
}

void csv_int(FILE *out, long long v, bool first)
{
	if (!first)
		fputc(',', out);
	fprintf(out, "%lld", v);
}

void csv_end(FILE *out)
{
	fputs("\r\n", out);
}

static void header(FILE *out, const char *const *cols)
{
	for (size_t i = 0; cols[i]; i++)
		csv_field(out, cols[i], !i);
	csv_end(out);
}

/*
 * One provenance row: metric "provenance:KEY", the text in the label
 * column (the free-text one), no value, so tools filtering on metric
 * see it and numeric ones skip it.
 */
static void prov_row(FILE *out, const struct run_rec *r,
		     const struct target_rec *t, const char *workload,
		     const char *key, const char *text)
{
	char *metric = xasprintf("provenance:%s", key);

	csv_int(out, r->id, true);
	csv_field(out, r->tag, false);
	csv_field(out, t ? t->name : NULL, false);
	csv_int(out, t ? t->idx : -1, false);
	csv_int(out, t ? t->rep : 0, false);
	csv_field(out, workload, false);
	csv_field(out, NULL, false);
	csv_int(out, 0, false);
	csv_field(out, text, false);
	csv_field(out, "ok", false);
	csv_field(out, metric, false);
	csv_num(out, NAN, false);
	csv_field(out, NULL, false);
	csv_field(out, "none", false);
	csv_end(out);
	free(metric);
}

static void prov_rows(FILE *out, const struct run_rec *r)
{
	char buf[64];

	prov_row(out, r, NULL, NULL, "date",
		 provenance_date(buf, sizeof(buf), r->started));
	prov_row(out, r, NULL, NULL, "host", r->host);
	prov_row(out, r, NULL, NULL, "kernel", r->kernel);
	prov_row(out, r, NULL, NULL, "fslab_version", r->version);
	prov_row(out, r, NULL, NULL, "command", r->cmdline);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->seed);
	prov_row(out, r, NULL, NULL, "seed", buf);
	for (size_t i = 0; i < r->nr_targets; i++) {
		const struct target_rec *t = &r->targets[i];
		char *mkfs = provenance_mkfs_command(t);

		if (provenance_first_target(r, i)) {
			prov_row(out, r, t, NULL, "device", t->device);
			snprintf(buf, sizeof(buf), "%llu",
				 (unsigned long long)t->size);
			prov_row(out, r, t, NULL, "size", buf);
			prov_row(out, r, t, NULL, "mkfs_command", mkfs);
			prov_row(out, r, t, NULL, "mkfs_version",
				 t->mkfs_version);
			prov_row(out, r, t, NULL, "mount_options",
				 t->eff_mount_opts);
		}
		free(mkfs);
	}
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];

		if (provenance_first_workload(r, i))
			prov_row(out, r, NULL, w->workload, "options",
				 w->options);
	}
}

/* The recorded setup ("setup:SCOPE:KEY") and the validity checks
 * ("check:ID"), text in the label column as provenance rows have. */
static void setup_rows(FILE *out, const struct run_rec *r)
{
	struct check_opts o;
	struct check_report rep;

	for (size_t i = 0; i < r->nr_facts; i++) {
		char *key = xasprintf("setup:%s:%s", r->facts[i].scope,
				      r->facts[i].key);

		csv_int(out, r->id, true);
		csv_field(out, r->tag, false);
		csv_field(out, NULL, false);
		csv_int(out, -1, false);
		csv_int(out, 0, false);
		csv_field(out, NULL, false);
		csv_field(out, NULL, false);
		csv_int(out, 0, false);
		csv_field(out, r->facts[i].value, false);
		csv_field(out, "ok", false);
		csv_field(out, key, false);
		csv_num(out, NAN, false);
		csv_field(out, NULL, false);
		csv_field(out, "none", false);
		csv_end(out);
		free(key);
	}
	check_opts_init(&o);
	check_run(r, &o, &rep);
	for (size_t i = 0; i < rep.nr; i++) {
		const struct check_finding *f = &rep.f[i];
		char *key = xasprintf("check:%s", f->id);
		char *text = xasprintf("%s%s: %s: %s", check_level_name(f->level),
				       f->accepted ? " (accepted)" : "",
				       f->subject, f->reason);

		csv_int(out, r->id, true);
		csv_field(out, r->tag, false);
		csv_field(out, NULL, false);
		csv_int(out, -1, false);
		csv_int(out, 0, false);
		csv_field(out, NULL, false);
		csv_field(out, NULL, false);
		csv_int(out, 0, false);
		csv_field(out, text, false);
		csv_field(out, "ok", false);
		csv_field(out, key, false);
		csv_num(out, NAN, false);
		csv_field(out, NULL, false);
		csv_field(out, "none", false);
		csv_end(out);
		free(text);
		free(key);
	}
	check_report_release(&rep);
}

/*
 * A phase's latency histograms, one row per non-empty bucket: metric
 * "[OP.]lat_hist:LO-HI" (inclusive edges, in the histogram's unit,
 * ns), value the bucket's count, unit "samples".
 */
static void hist_rows(FILE *out, const struct run_rec *r,
		      const struct wlrun_rec *w, const struct target_rec *t,
		      const struct phase_rec *p, const char *st)
{
	for (size_t i = 0; i < p->nr_hists; i++) {
		const struct hist_rec *h = &p->hists[i];

		for (uint32_t k = 0; k < h->nr; k++) {
			char name[160];

			if (!h->b[k])
				continue;
			snprintf(name, sizeof(name), "%s%slat_hist:%llu-%llu",
				 h->op, *h->op ? "." : "",
				 (unsigned long long)lathist_bucket_low(
					 h->first + k),
				 (unsigned long long)lathist_bucket_high(
					 h->first + k));
			csv_int(out, r->id, true);
			csv_field(out, r->tag, false);
			csv_field(out, t ? t->name : NULL, false);
			csv_int(out, t ? t->idx : -1, false);
			csv_int(out, w->rep, false);
			csv_field(out, w->workload, false);
			csv_field(out, p->name, false);
			csv_int(out, p->seq, false);
			csv_field(out, p->label, false);
			csv_field(out, st, false);
			csv_field(out, name, false);
			csv_int(out, (long long)h->b[k], false);
			csv_field(out, "samples", false);
			csv_field(out, "none", false);
			csv_end(out);
		}
	}
}

void csv_write_run(FILE *out, const struct run_rec *r)
{
	static const char *const cols[] = {
		"run", "tag", "target", "target_idx", "rep", "workload",
		"phase", "seq", "label", "status", "metric", "value", "unit",
		"better", NULL,
	};

	header(out, cols);
	prov_rows(out, r);
	setup_rows(out, r);
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];
		const struct target_rec *t = run_rec_target(r, w);

		for (size_t j = 0; j < w->nr_phases; j++) {
			const struct phase_rec *p = &w->phases[j];
			const char *st = p->status == PHASE_OK ? "ok" :
				p->status == PHASE_FAILED ? "failed" :
				"interrupted";

			for (size_t k = 0; k < p->nr_metrics; k++) {
				const struct metric *m = &p->metrics[k];

				csv_int(out, r->id, true);
				csv_field(out, r->tag, false);
				csv_field(out, t ? t->name : NULL, false);
				csv_int(out, t ? t->idx : -1, false);
				csv_int(out, w->rep, false);
				csv_field(out, w->workload, false);
				csv_field(out, p->name, false);
				csv_int(out, p->seq, false);
				csv_field(out, p->label, false);
				csv_field(out, st, false);
				csv_field(out, m->name, false);
				csv_num(out, m->value, false);
				csv_field(out, m->unit, false);
				csv_field(out, better_name(m->better), false);
				csv_end(out);
			}
			hist_rows(out, r, w, t, p, st);
		}
	}
}

void csv_write_run_list(FILE *out, struct run_rec *const *runs, size_t nr)
{
	static const char *const cols[] = {
		"id", "started_unix", "finished_unix", "status", "tag",
		"host", "kernel", "version", "targets", "workloads", NULL,
	};

	header(out, cols);
	for (size_t i = 0; i < nr; i++) {
		const struct run_rec *r = runs[i];

		csv_int(out, r->id, true);
		csv_int(out, r->started, false);
		csv_int(out, r->finished, false);
		csv_field(out, r->status, false);
		csv_field(out, r->tag, false);
		csv_field(out, r->host, false);
		csv_field(out, r->kernel, false);
		csv_field(out, r->version, false);
		/* Lists inside one field, ';'-separated, distinct. */
		fputc(',', out);
		for (int pass = 0; pass < 2; pass++) {
			size_t n = pass ? r->nr_wlruns : r->nr_targets;
			char buf[4096] = "";
			size_t pos = 0;

			for (size_t j = 0; j < n; j++) {
				const char *v = pass ? r->wlruns[j].workload
						     : r->targets[j].name;
				bool seen = false;

				for (size_t k = 0; k < j && !seen; k++) {
					const char *u = pass ?
						r->wlruns[k].workload :
						r->targets[k].name;
					seen = u && v && !strcmp(u, v);
				}
				if (seen || !v)
					continue;
				pos += (size_t)snprintf(buf + pos,
					pos < sizeof(buf) ? sizeof(buf) - pos
							  : 0,
					"%s%s", pos ? ";" : "", v);
				if (pos >= sizeof(buf))
					pos = sizeof(buf) - 1;
			}
			csv_field(out, buf, !pass);
		}
		csv_end(out);
	}
}

/* "field=value; ..." of what differs, this group's side. */
static void csv_diffs(FILE *out, const struct cmp_table *t, size_t g)
{
	struct strbuf s = STRBUF_INIT;

	for (size_t i = 0; i < t->nr_diffs; i++)
		strbuf_addf(&s, "%s%s=%s", i ? "; " : "", t->diffs[i].field,
			    t->diffs[i].values[g]);
	csv_field(out, s.buf, false);
	strbuf_release(&s);
}

void csv_write_compare(FILE *out, const struct cmp_table *tabs, size_t nr,
		       const struct compare_opts *o)
{
	static const char *const cols[] = {
		"workload", "target", "phase", "metric", "unit", "better",
		"key", "mean_kind", "group", "baseline", "n", "instances",
		"mean", "sd", "cov_pct", "min", "max", "ci_lo", "ci_hi",
		"wall_s", "change_pct", "change_ci_lo", "change_ci_hi", "p",
		"p_adj", "mdc_pct", "significant", "verdict", "differs",
		NULL,
	};

	header(out, cols);
	for (size_t i = 0; i < nr; i++) {
		const struct cmp_table *t = &tabs[i];

		for (size_t r = 0; r < t->nr_rows; r++) {
			const struct cmp_row *row = &t->rows[r];

			if (!row->shown)
				continue;
			for (size_t g = 0; g < t->nr_groups; g++) {
				const struct cmp_stat *s = &row->st[g];
				const struct cmp_delta *d = &row->d[g];
				double nan = NAN;

				csv_field(out, t->workload, true);
				csv_field(out, t->name, false);
				csv_field(out, row->phase, false);
				csv_field(out, row->metric, false);
				csv_field(out, row->unit, false);
				csv_field(out, better_name(row->better),
					  false);
				csv_int(out, row->key, false);
				csv_field(out, compare_mean_name(row), false);
				csv_field(out, t->labels[g], false);
				csv_field(out, t->labels[0], false);
				csv_int(out, (long long)s->n, false);
				csv_int(out, (long long)s->nr_inst, false);
				csv_num(out, s->mean, false);
				csv_num(out, s->sd, false);
				csv_num(out, s->cov_pct, false);
				csv_num(out, s->min, false);
				csv_num(out, s->max, false);
				csv_num(out, s->ci_lo, false);
				csv_num(out, s->ci_hi, false);
				csv_num(out, s->wall_s, false);
				csv_num(out, g ? d->pct : nan, false);
				csv_num(out, g ? d->pct_lo : nan, false);
				csv_num(out, g ? d->pct_hi : nan, false);
				csv_num(out, g ? d->p : nan, false);
				csv_num(out, g && d->tested ? d->p_adj : nan,
					false);
				csv_num(out, g ? verdict_mdc_pct(d) : nan,
					false);
				if (g)
					csv_int(out, d->significant, false);
				else
					csv_field(out, NULL, false);
				csv_field(out, g ? verdict_word(d, o) :
					  "baseline", false);
				csv_diffs(out, t, g);
				csv_end(out);
			}
		}
	}
}
