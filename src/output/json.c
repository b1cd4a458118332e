/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - a run_rec as a versioned JSON document (see json.h).  Built
 * with jansson so escaping and number formatting are never hand-rolled.
 * Missing or non-finite values become null rather than a made-up 0, and
 * files are replaced atomically so a reader never sees half a document.
 * The comparison of `fslab compare --format json` is here too, so both
 * documents share one null rule and one vocabulary.
 */
#include "output/json.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare/load.h"
#include "compare/session.h"
#include "output/checks.h"
#include "output/fmt.h"
#include "output/provenance.h"
#include "output/tail.h"
#include "stats/lathist.h"
#include "util/jsonout.h"
#include "util/outfile.h"
#include "util/util.h"
#include "util/version.h"

static json_t *json_time_iso(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	if (!t || !gmtime_r(&tt, &tm))
		return json_null();
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return jout_str(buf);
}

static const char *better_str(enum better b)
{
	return b == BETTER_HIGHER ? "higher" :
	       b == BETTER_LOWER ? "lower" : "none";
}

static const char *phase_status_str(enum phase_status s)
{
	return s == PHASE_FAILED ? "failed" :
	       s == PHASE_INTERRUPTED ? "interrupted" : "ok";
}

static json_t *target_json(const struct target_rec *t)
{
	json_t *o = json_object();

	jout_set(o, "id", json_integer(t->id));
	jout_set(o, "idx", json_integer(t->idx));
	jout_set(o, "rep", json_integer(t->rep));
	jout_set(o, "spec", jout_str(t->spec));
	jout_set(o, "name", jout_str(t->name));
	jout_set(o, "kind", jout_str(t->kind));
	jout_set(o, "fstype", jout_str(t->fstype));
	jout_set(o, "mkfs_opts", jout_str(t->mkfs_opts));
	jout_set(o, "mount_opts", jout_str(t->mount_opts));
	jout_set(o, "eff_mount_opts", jout_str(t->eff_mount_opts));
	jout_set(o, "device", jout_str(t->device));
	jout_set(o, "uuid", jout_str(t->uuid));
	jout_set(o, "mkfs_version", jout_str(t->mkfs_version));
	{
		char *mkfs = provenance_mkfs_command(t);

		jout_set(o, "mkfs_command", jout_str(mkfs));
		free(mkfs);
	}
	jout_set(o, "path", jout_str(t->path));
	jout_set(o, "size", jout_u64(t->size));
	return o;
}

static json_t *metric_json(const struct metric *m)
{
	json_t *o = json_object();

	jout_set(o, "name", jout_str(m->name));
	jout_set(o, "value", jout_num(m->value));
	jout_set(o, "unit", jout_str(m->unit));
	jout_set(o, "better", jout_str(better_str(m->better)));
	return o;
}

static json_t *worker_json(const struct worker_rec *w)
{
	json_t *o = json_object();

	jout_set(o, "worker", json_integer(w->worker));
	jout_set(o, "start_ns", jout_u64(w->start_ns));
	jout_set(o, "end_ns", jout_u64(w->end_ns));
	jout_set(o, "bytes", jout_u64(w->bytes));
	jout_set(o, "files", jout_u64(w->files));
	jout_set(o, "ops", jout_u64(w->ops));
	return o;
}

/*
 * A traced phase's request sample (see README, "Block-I/O tracing"):
 * rows of [t_ns, sector, bytes, "R"|"W"] rather than objects, since a
 * phase may carry 20000 of them.  Untraced phases have no such key.
 */
static json_t *sample_json(const struct phase_rec *p)
{
	json_t *o = json_object(), *rows = json_array();

	jout_set(o, "total", jout_u64(p->rqs_total));
	jout_set(o, "stored", jout_u64(p->nr_rqs));
	jout_set(o, "thinned", json_boolean(p->rqs_total > p->nr_rqs));
	jout_set(o, "columns", json_pack("[s, s, s, s]", "t_ns", "sector", "bytes",
				    "rw"));
	for (size_t i = 0; i < p->nr_rqs; i++) {
		const struct rq_sample *q = &p->rqs[i];
		char rw[2] = { q->rw, '\0' };

		jout_push(rows, json_pack(
			"[o, o, I, s]", jout_u64(q->t_ns), jout_u64(q->sector),
			(json_int_t)q->bytes, rw));
	}
	jout_set(o, "requests", rows);
	return o;
}

/*
 * A phase's latency histograms (README "Latency and stalls"): per op
 * class the exact count, min, max and sum (in unit) and the non-empty
 * buckets with their inclusive edges.  A histogram of another bucket
 * scheme never loads, so the edges are this fslab's.
 */
static json_t *hists_json(const struct phase_rec *p)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < p->nr_hists; i++) {
		const struct hist_rec *h = &p->hists[i];
		json_t *o = json_object(), *b = json_array();

		jout_set(o, "op", jout_str(h->op));
		jout_set(o, "unit", jout_str(h->unit));
		jout_set(o, "count", jout_u64(h->count));
		jout_set(o, "min", h->count ? jout_u64(h->min) : json_null());
		jout_set(o, "max", h->count ? jout_u64(h->max) : json_null());
		jout_set(o, "sum", jout_u64(h->sum));
		for (uint32_t k = 0; k < h->nr; k++) {
			json_t *e;

			if (!h->b[k])
				continue;
			e = json_object();
			jout_set(e, "lo", jout_u64(lathist_bucket_low(
						h->first + k)));
			jout_set(e, "hi", jout_u64(lathist_bucket_high(
						h->first + k)));
			jout_set(e, "count", jout_u64(h->b[k]));
			jout_push(b, e);
		}
		jout_set(o, "buckets", b);
		jout_push(arr, o);
	}
	return arr;
}

/* The stored stall list and completion series (README "Latency and stalls");
 * the series' counts are per interval_ms from the start. */
static void stalls_json(json_t *o, const struct phase_rec *p)
{
	json_t *arr = json_array(), *ser, *c;

	for (size_t i = 0; i < p->nr_stall_list; i++) {
		json_t *e = json_object();

		jout_set(e, "start_ms",
			 jout_num((double)p->stall_list[i].start_ns / 1e6));
		jout_set(e, "len_ms",
			 jout_num((double)p->stall_list[i].len_ns / 1e6));
		jout_push(arr, e);
	}
	jout_set(o, "stalls", arr);
	if (!p->series_ns) {
		jout_set(o, "series", json_null());
		return;
	}
	ser = json_object();
	c = json_array();
	jout_set(ser, "what", jout_str("completions"));
	jout_set(ser, "interval_ms", jout_num((double)p->series_ns / 1e6));
	jout_set(ser, "total", jout_u64(p->series_total));
	for (size_t i = 0; i < p->nr_series; i++)
		jout_push(c, json_integer(p->series[i]));
	jout_set(ser, "counts", c);
	jout_set(o, "series", ser);
}

static json_t *phase_json(const struct phase_rec *p)
{
	const struct measure *m = &p->m;
	json_t *o = json_object(), *arr, *dev;

	jout_set(o, "seq", json_integer(p->seq));
	jout_set(o, "name", jout_str(p->name));
	jout_set(o, "label", jout_str(p->label));
	jout_set(o, "status", jout_str(phase_status_str(p->status)));
	jout_set(o, "error", jout_str(p->error));
	jout_set(o, "start_ns", jout_u64(m->start_ns));
	jout_set(o, "wall_ns", jout_u64(m->wall_ns));
	jout_set(o, "wall_s", jout_num((double)m->wall_ns / 1e9));
	jout_set(o, "user_s", jout_num((double)m->user_ns / 1e9));
	jout_set(o, "sys_s", jout_num((double)m->sys_ns / 1e9));
	jout_set(o, "sys_busy_pct",
	    m->sys_busy_pct < 0 ? json_null() : jout_num(m->sys_busy_pct));
	if (m->have_dev) {
		dev = json_object();
		jout_set(dev, "rd_ios", jout_u64(m->rd_ios));
		jout_set(dev, "rd_bytes", jout_u64(m->rd_bytes));
		jout_set(dev, "wr_ios", jout_u64(m->wr_ios));
		jout_set(dev, "wr_bytes", jout_u64(m->wr_bytes));
	} else {
		dev = json_null();
	}
	jout_set(o, "device", dev);
	jout_set(o, "bytes", jout_u64(p->bytes));
	jout_set(o, "files", jout_u64(p->files));
	jout_set(o, "ops", jout_u64(p->ops));
	jout_set(o, "too_short", json_boolean(p->too_short));
	arr = json_array();
	for (size_t i = 0; i < p->nr_metrics; i++)
		jout_push(arr, metric_json(&p->metrics[i]));
	jout_set(o, "metrics", arr);
	arr = json_array();
	for (size_t i = 0; i < p->nr_workers; i++)
		jout_push(arr, worker_json(&p->workers[i]));
	jout_set(o, "workers", arr);
	jout_set(o, "histograms", hists_json(p));
	stalls_json(o, p);
	if (p->rqs_total || p->nr_rqs)
		jout_set(o, "trace_sample", sample_json(p));
	return o;
}

static json_t *wlrun_json(const struct run_rec *r, const struct wlrun_rec *w)
{
	const struct target_rec *t = run_rec_target(r, w);
	json_t *o = json_object(), *arr;

	jout_set(o, "id", json_integer(w->id));
	jout_set(o, "workload", jout_str(w->workload));
	jout_set(o, "options", jout_str(w->options));
	jout_set(o, "rep", json_integer(w->rep));
	if (w->pos >= 0)
		jout_set(o, "pos", json_integer(w->pos));
	jout_set(o, "status", jout_str(w->status));
	jout_set(o, "target", t ? json_integer(t - r->targets) : json_null());
	arr = json_array();
	for (size_t i = 0; i < w->nr_phases; i++)
		jout_push(arr, phase_json(&w->phases[i]));
	jout_set(o, "phases", arr);
	return o;
}

/* --until decided: the run's decision and each comparison's state. */
static json_t *until_json(const struct run_rec *r)
{
	json_t *o = json_object(), *arr = json_array();

	jout_set(o, "rule", jout_str(r->until_rule));
	jout_set(o, "decision", jout_str(r->decision));
	jout_set(o, "repetitions", json_integer(r->decision_reps));
	for (size_t i = 0; i < r->nr_decisions; i++) {
		const struct decision_rec *d = &r->decisions[i];
		json_t *c = json_object();

		jout_set(c, "workload", jout_str(d->workload));
		jout_set(c, "name", jout_str(d->name));
		jout_set(c, "phase", jout_str(d->phase));
		jout_set(c, "metric", jout_str(d->metric));
		jout_set(c, "configuration", jout_str(d->label));
		jout_set(c, "verdict", jout_str(d->verdict));
		jout_set(c, "decided_at", d->reps ? json_integer(d->reps)
					     : json_null());
		jout_set(c, "change_pct", jout_num(d->pct));
		jout_set(c, "change_ci_lo_pct", jout_num(d->lo_pct));
		jout_set(c, "change_ci_hi_pct", jout_num(d->hi_pct));
		jout_set(c, "mdc_pct", jout_num(d->mdc_pct));
		jout_push(arr, c);
	}
	jout_set(o, "comparisons", arr);
	return o;
}

static json_t *run_json(const struct run_rec *r)
{
	json_t *o = json_object(), *arr;

	jout_set(o, "id", json_integer(r->id));
	jout_set(o, "started", json_time_iso(r->started));
	jout_set(o, "started_unix", json_integer(r->started));
	jout_set(o, "finished", json_time_iso(r->finished));
	jout_set(o, "finished_unix",
	    r->finished ? json_integer(r->finished) : json_null());
	jout_set(o, "host", jout_str(r->host));
	jout_set(o, "kernel", jout_str(r->kernel));
	jout_set(o, "version", jout_str(r->version));
	jout_set(o, "cmdline", jout_str(r->cmdline));
	/* above INT64_MAX: its decimal string (util/jsonout.h) */
	jout_set(o, "seed", jout_u64(r->seed));
	jout_set(o, "tag", jout_str(r->tag));
	jout_set(o, "status", jout_str(r->status));
	if (r->target_order)
		jout_set(o, "target_order", jout_str(r->target_order));
	if (r->until_rule)
		jout_set(o, "until", until_json(r));
	if (r->uuid)
		jout_set(o, "uuid", jout_str(r->uuid));
	if (r->source_host)
		jout_set(o, "source_host", jout_str(r->source_host));
	arr = json_array();
	for (size_t i = 0; i < r->nr_targets; i++)
		jout_push(arr, target_json(&r->targets[i]));
	jout_set(o, "targets", arr);
	arr = json_array();
	for (size_t i = 0; i < r->nr_wlruns; i++)
		jout_push(arr, wlrun_json(r, &r->wlruns[i]));
	jout_set(o, "workloads", arr);
	checks_json_add_run(o, r);
	return o;
}

/*
 * The run's provenance in one place (the same facts are spread over
 * "run", its targets and workloads): what a reader of a pasted JSON
 * needs to know what was measured.
 */
static json_t *provenance_json(const struct run_rec *r)
{
	json_t *o = json_object(), *arr = json_array();

	jout_set(o, "date", json_time_iso(r->started));
	jout_set(o, "host", jout_str(r->host));
	jout_set(o, "kernel", jout_str(r->kernel));
	jout_set(o, "fslab_version", jout_str(r->version));
	jout_set(o, "command", jout_str(r->cmdline));
	jout_set(o, "seed", jout_u64(r->seed));
	for (size_t i = 0; i < r->nr_targets; i++) {
		const struct target_rec *t = &r->targets[i];
		json_t *to;
		char *mkfs;

		if (!provenance_first_target(r, i))
			continue;
		to = json_object();
		mkfs = provenance_mkfs_command(t);
		jout_set(to, "name", jout_str(t->name));
		jout_set(to, "spec", jout_str(t->spec));
		jout_set(to, "device", jout_str(t->device));
		jout_set(to, "size", jout_u64(t->size));
		jout_set(to, "mkfs_command", jout_str(mkfs));
		jout_set(to, "mkfs_version", jout_str(t->mkfs_version));
		jout_set(to, "mount_options", jout_str(t->eff_mount_opts));
		free(mkfs);
		jout_push(arr, to);
	}
	jout_set(o, "targets", arr);
	arr = json_array();
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];

		if (provenance_first_workload(r, i))
			jout_push(arr, json_pack(
				"{s:o, s:o}", "workload", jout_str(w->workload),
				"options", jout_str(w->options)));
	}
	jout_set(o, "workloads", arr);
	return o;
}

char *json_dump_run(const struct run_rec *r)
{
	json_t *root = json_object();
	char *out;

	jout_set(root, "format_version", json_integer(FSLAB_JSON_FORMAT_VERSION));
	jout_set(root, "fslab_version", jout_str(FSLAB_VERSION));
	jout_set(root, "provenance", provenance_json(r));
	jout_set(root, "run", run_json(r));
	out = jout_dumps(root);
	json_decref(root);
	if (!out)
		die("cannot serialize run %lld to JSON", (long long)r->id);
	return out;
}

int json_write_run(const struct run_rec *r, const char *path)
{
	char *doc = json_dump_run(r);
	struct outfile of;
	int rc = -1;

	if (outfile_open(&of, path)) {
		if (fputs(doc, of.f) < 0) {
			error_errno("cannot write '%s'", path);
			outfile_abort(&of);
		} else {
			rc = outfile_commit(&of);
		}
	}
	free(doc);
	return rc;
}

/* ---- a comparison (fslab compare --format json) ---- */

static json_t *row_json(const struct cmp_table *t, const struct cmp_row *row,
		       const struct compare_opts *co)
{
	json_t *o = json_object(), *groups = json_array();

	jout_set(o, "phase", jout_str(row->phase));
	jout_set(o, "metric", jout_str(row->metric));
	jout_set(o, "unit", jout_str(row->unit));
	jout_set(o, "better", jout_str(better_str(row->better)));
	jout_set(o, "key", json_boolean(row->key));
	jout_set(o, "traced", json_boolean(row->traced));
	jout_set(o, "mean_kind",
			    jout_str(compare_mean_name(row)));
	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_stat *s = &row->st[g];
		const struct cmp_delta *d = &row->d[g];
		json_t *j = json_object();

		jout_set(j, "group", jout_str(t->labels[g]));
		jout_set(j, "n", json_integer((json_int_t)s->n));
		jout_set(j, "instances",
				    json_integer((json_int_t)s->nr_inst));
		jout_set(j, "mean", jout_num(s->mean));
		jout_set(j, "sd", jout_num(s->sd));
		jout_set(j, "cov_pct", jout_num(s->cov_pct));
		jout_set(j, "min", jout_num(s->min));
		jout_set(j, "max", jout_num(s->max));
		jout_set(j, "ci_lo", jout_num(s->ci_lo));
		jout_set(j, "ci_hi", jout_num(s->ci_hi));
		jout_set(j, "wall_s", jout_num(s->wall_s));
		jout_set(j, "samples", jout_nums(s->x, s->n));
		jout_set(j, "instance_values",
				    jout_nums(s->inst, s->nr_inst));
		if (g) {
			json_t *v = json_object();

			jout_set(v, "ratio", jout_num(d->ratio));
			jout_set(v, "change_pct", jout_num(d->pct));
			jout_set(v, "change_ci_lo_pct",
					    jout_num(d->pct_lo));
			jout_set(v, "change_ci_hi_pct",
					    jout_num(d->pct_hi));
			jout_set(v, "p", jout_num(d->p));
			jout_set(v, "p_adj", jout_num(d->tested ?
							     d->p_adj : NAN));
			jout_set(v, "family",
					    json_integer((json_int_t)
							 d->family));
			jout_set(v, "mdc_pct", jout_num(
				verdict_mdc_pct(d)));
			jout_set(v, "significant",
					    json_boolean(d->significant));
			jout_set(v, "equivalence_margin_pct",
				 jout_num(d->verdict == CMP_EQUIVALENT ?
					  d->equiv_pct : NAN));
			jout_set(v, "verdict", jout_str(
				verdict_word(d, co)));
			jout_set(j, "vs_baseline", v);
		}
		jout_push(groups, j);
	}
	jout_set(o, "groups", groups);
	return o;
}

static json_t *table_json(const struct cmp_table *t,
			  const struct cmp_group *groups,
			  const struct compare_opts *co)
{
	json_t *o = json_object(), *labels = json_array(), *rows =
		json_array(), *roll = json_array(), *failed = json_array(),
		*diffs = json_array(), *reps = json_array();

	jout_set(o, "workload", jout_str(t->workload));
	jout_set(o, "target", t->name && !t->name_is_options ?
			    jout_str(t->name) : json_null());
	jout_set(o, "options", t->name && t->name_is_options ?
			    jout_str(t->name) : json_null());
	for (size_t g = 0; g < t->nr_groups; g++) {
		jout_push(labels, jout_str(t->labels[g]));
		jout_push(reps, json_integer(
			(json_int_t)t->nr_reps[g]));
	}
	jout_set(o, "groups", labels);
	jout_set(o, "repetitions", reps);
	jout_set(o, "baseline", t->nr_groups ?
			    jout_str(t->labels[0]) : json_null());
	for (size_t i = 0; i < t->nr_diffs; i++) {
		json_t *d = json_object(), *v = json_array();

		jout_set(d, "field", jout_str(t->diffs[i].field));
		jout_set(d, "factor", jout_str(
			t->diffs[i].factor ? t->diffs[i].factor : "other"));
		jout_set(d, "declared", json_boolean(t->diffs[i].declared));
		for (size_t g = 0; g < t->nr_groups; g++)
			jout_push(v, jout_str(
				t->diffs[i].values[g]));
		jout_set(d, "values", v);
		jout_push(diffs, d);
	}
	jout_set(o, "differences", diffs);
	jout_set(o, "undeclared_differences",
		 json_integer((json_int_t)t->nr_undeclared));
	{
		json_t *inv = json_object();

		for (size_t g = 0; t->invalid && g < t->nr_groups; g++)
			if (t->invalid[g])
				jout_set(inv, t->labels[g],
					 jout_str(t->invalid[g]));
		jout_set(o, "invalid_setup", inv);
	}
	for (size_t i = 0; i < t->nr_rows; i++)
		if (t->rows[i].shown)
			jout_push(rows, row_json(t, &t->rows[i], co));
	jout_set(o, "rows", rows);
	for (size_t g = 0; g < t->nr_groups; g++) {
		json_t *r = json_object();

		jout_set(r, "group", jout_str(t->labels[g]));
		jout_set(r, "gmean_ratio", jout_num(t->rollup[g]));
		jout_set(r, "gmean_ratio_ci_lo", jout_num(t->rollup_lo[g]));
		jout_set(r, "gmean_ratio_ci_hi", jout_num(t->rollup_hi[g]));
		jout_set(r, "metrics",
				    json_integer((json_int_t)t->rollup_n[g]));
		jout_push(roll, r);
	}
	jout_set(o, "rollup", roll);
	jout_set(o, "key_metrics", jout_str(
		t->key_from_workload ? "workload" : "rates"));
	jout_set(o, "regression", json_boolean(t->regression));
	for (size_t g = 0; g < t->nr_groups; g++)
		if (t->failed[g])
			jout_push(failed,
					      jout_str(t->labels[g]));
	jout_set(o, "failed", failed);
	jout_set(o, "latency_distribution", tail_json(t, groups, co->alpha));
	return o;
}

static json_t *orders_json(const struct cmp_input *in)
{
	json_t *a = json_array();

	for (size_t i = 0; i < in->nr; i++) {
		const struct run_rec *r = in->runs[i];
		json_t *o = json_object(), *reps = json_array();
		int max_rep = -1;

		jout_set(o, "run", json_integer(r->id));
		jout_set(o, "target_order", r->target_order ?
				    jout_str(r->target_order) : json_null());
		for (size_t j = 0; j < r->nr_wlruns; j++)
			if (r->wlruns[j].pos >= 0 && r->wlruns[j].rep > max_rep)
				max_rep = r->wlruns[j].rep;
		for (int rep = 0; rep <= max_rep; rep++) {
			json_t *names = json_array();

			for (int pos = 0; pos < (int)r->nr_wlruns; pos++) {
				const struct target_rec *t = NULL;

				for (size_t j = 0; j < r->nr_wlruns && !t; j++)
					if (r->wlruns[j].rep == rep &&
					    r->wlruns[j].pos == pos)
						t = run_rec_target(
							r, &r->wlruns[j]);
				if (!t)
					break;
				jout_push(names, jout_str(
					t->name ? t->name : "?"));
			}
			jout_push(reps, names);
		}
		jout_set(o, "orders", reps);
		jout_push(a, o);
	}
	return a;
}

int json_print_compare_with(const struct cmp_session *s,
			    const struct cmp_input *in,
			    const struct compare_opts *o, const char *key,
			    json_t *extra)
{
	json_t *root = json_object(), *arr = json_array(), *notes =
		json_array();
	int rc;

	jout_set(root, "format_version", json_integer(2));
	jout_set(root, "alpha", jout_num(o->alpha));
	jout_set(root, "min_change_pct",
			    jout_num(o->min_change_pct));
	jout_set(root, "min_wall_s", jout_num(o->min_wall_s));
	jout_set(root, "power", jout_num(o->power));
	jout_set(root, "min_repetitions",
			    json_integer(COMPARE_MIN_N));
	jout_set(root, "adjust",
			    jout_str(compare_adjust_name(o->adjust)));
	jout_set(root, "sample", jout_str("repetition"));
	jout_set(root, "ratio_ci",
			    jout_str("log-scale delta method"));
	jout_set(root, "runs", orders_json(in));
	for (size_t i = 0; i < s->nr_notes; i++)
		jout_push(notes, jout_str(s->notes[i]));
	jout_set(root, "notes", notes);
	for (size_t i = 0; i < s->nr; i++)
		jout_push(arr, table_json(&s->tabs[i], s->groups[i], o));
	jout_set(root, "workloads", arr);
	if (key && extra)
		jout_set(root, key, extra);
	rc = jout_write(root, "-", "the comparison");
	json_decref(root);
	return rc;
}

/* ---- the run list (fslab results --format json) ---- */

static json_t *names_json(char **vals, size_t nr)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < nr; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = vals[i] && vals[j] && !strcmp(vals[i], vals[j]);
		if (!seen && vals[i])
			jout_push(arr, jout_str(vals[i]));
	}
	return arr;
}

static json_t *run_summary_json(const struct run_rec *r)
{
	json_t *o = json_object();
	char **v;

	jout_set(o, "id", json_integer(r->id));
	jout_set(o, "started", json_time_iso(r->started));
	jout_set(o, "started_unix", json_integer(r->started));
	jout_set(o, "finished", json_time_iso(r->finished));
	jout_set(o, "finished_unix", r->finished ?
			    json_integer(r->finished) : json_null());
	jout_set(o, "status", jout_str(r->status));
	jout_set(o, "tag", jout_str(r->tag));
	jout_set(o, "host", jout_str(r->host));
	jout_set(o, "kernel", jout_str(r->kernel));
	jout_set(o, "version", jout_str(r->version));
	jout_set(o, "cmdline", jout_str(r->cmdline));
	v = xcalloc(r->nr_targets + 1, sizeof(*v));
	for (size_t i = 0; i < r->nr_targets; i++)
		v[i] = r->targets[i].name;
	jout_set(o, "targets", names_json(v, r->nr_targets));
	free(v);
	v = xcalloc(r->nr_wlruns + 1, sizeof(*v));
	for (size_t i = 0; i < r->nr_wlruns; i++)
		v[i] = r->wlruns[i].workload;
	jout_set(o, "workloads", names_json(v, r->nr_wlruns));
	free(v);
	return o;
}

int json_print_run_list(struct run_rec *const *runs, size_t nr)
{
	json_t *root = json_object(), *arr = json_array();
	int rc;

	jout_set(root, "format_version", json_integer(1));
	for (size_t i = 0; i < nr; i++)
		jout_push(arr, run_summary_json(runs[i]));
	jout_set(root, "runs", arr);
	rc = jout_write(root, "-", "the run list");
	json_decref(root);
	return rc;
}
