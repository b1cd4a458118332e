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

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compare/load.h"
#include "compare/session.h"
#include "output/provenance.h"
#include "util/util.h"
#include "util/version.h"

/* jansson refuses invalid UTF-8; a stray byte in a path must not lose
 * the whole document, so replace such bytes with '?'. */
static json_t *jstr(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	copy = xstrdup(s);
	for (unsigned char *p = (unsigned char *)copy; *p; p++)
		if (*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j ? j : json_null();
}

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ju64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *json_time_iso(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[32];

	if (!t || !gmtime_r(&tt, &tm))
		return json_null();
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
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

static void set(json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, v ? v : json_null()))
		BUG("cannot set JSON key '%s'", key);
}

static json_t *target_json(const struct target_rec *t)
{
	json_t *o = json_object();

	set(o, "id", json_integer(t->id));
	set(o, "idx", json_integer(t->idx));
	set(o, "rep", json_integer(t->rep));
	set(o, "spec", jstr(t->spec));
	set(o, "name", jstr(t->name));
	set(o, "kind", jstr(t->kind));
	set(o, "fstype", jstr(t->fstype));
	set(o, "mkfs_opts", jstr(t->mkfs_opts));
	set(o, "mount_opts", jstr(t->mount_opts));
	set(o, "eff_mount_opts", jstr(t->eff_mount_opts));
	set(o, "device", jstr(t->device));
	set(o, "uuid", jstr(t->uuid));
	set(o, "mkfs_version", jstr(t->mkfs_version));
	{
		char *mkfs = provenance_mkfs_command(t);

		set(o, "mkfs_command", jstr(mkfs));
		free(mkfs);
	}
	set(o, "path", jstr(t->path));
	set(o, "size", ju64(t->size));
	return o;
}

static json_t *metric_json(const struct metric *m)
{
	json_t *o = json_object();

	set(o, "name", jstr(m->name));
	set(o, "value", jreal(m->value));
	set(o, "unit", jstr(m->unit));
	set(o, "better", json_string(better_str(m->better)));
	return o;
}

static json_t *worker_json(const struct worker_rec *w)
{
	json_t *o = json_object();

	set(o, "worker", json_integer(w->worker));
	set(o, "start_ns", ju64(w->start_ns));
	set(o, "end_ns", ju64(w->end_ns));
	set(o, "bytes", ju64(w->bytes));
	set(o, "files", ju64(w->files));
	set(o, "ops", ju64(w->ops));
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

	set(o, "total", ju64(p->rqs_total));
	set(o, "stored", ju64(p->nr_rqs));
	set(o, "thinned", json_boolean(p->rqs_total > p->nr_rqs));
	set(o, "columns", json_pack("[s, s, s, s]", "t_ns", "sector", "bytes",
				    "rw"));
	for (size_t i = 0; i < p->nr_rqs; i++) {
		const struct rq_sample *q = &p->rqs[i];
		char rw[2] = { q->rw, '\0' };

		json_array_append_new(rows, json_pack(
			"[o, o, I, s]", ju64(q->t_ns), ju64(q->sector),
			(json_int_t)q->bytes, rw));
	}
	set(o, "requests", rows);
	return o;
}

static json_t *phase_json(const struct phase_rec *p)
{
	const struct measure *m = &p->m;
	json_t *o = json_object(), *arr, *dev;

	set(o, "seq", json_integer(p->seq));
	set(o, "name", jstr(p->name));
	set(o, "label", jstr(p->label));
	set(o, "status", json_string(phase_status_str(p->status)));
	set(o, "error", jstr(p->error));
	set(o, "start_ns", ju64(m->start_ns));
	set(o, "wall_ns", ju64(m->wall_ns));
	set(o, "wall_s", json_real((double)m->wall_ns / 1e9));
	set(o, "user_s", json_real((double)m->user_ns / 1e9));
	set(o, "sys_s", json_real((double)m->sys_ns / 1e9));
	set(o, "sys_busy_pct",
	    m->sys_busy_pct < 0 ? json_null() : jreal(m->sys_busy_pct));
	if (m->have_dev) {
		dev = json_object();
		set(dev, "rd_ios", ju64(m->rd_ios));
		set(dev, "rd_bytes", ju64(m->rd_bytes));
		set(dev, "wr_ios", ju64(m->wr_ios));
		set(dev, "wr_bytes", ju64(m->wr_bytes));
	} else {
		dev = json_null();
	}
	set(o, "device", dev);
	set(o, "bytes", ju64(p->bytes));
	set(o, "files", ju64(p->files));
	set(o, "ops", ju64(p->ops));
	set(o, "too_short", json_boolean(p->too_short));
	arr = json_array();
	for (size_t i = 0; i < p->nr_metrics; i++)
		json_array_append_new(arr, metric_json(&p->metrics[i]));
	set(o, "metrics", arr);
	arr = json_array();
	for (size_t i = 0; i < p->nr_workers; i++)
		json_array_append_new(arr, worker_json(&p->workers[i]));
	set(o, "workers", arr);
	if (p->rqs_total || p->nr_rqs)
		set(o, "trace_sample", sample_json(p));
	return o;
}

static json_t *wlrun_json(const struct run_rec *r, const struct wlrun_rec *w)
{
	const struct target_rec *t = run_rec_target(r, w);
	json_t *o = json_object(), *arr;

	set(o, "id", json_integer(w->id));
	set(o, "workload", jstr(w->workload));
	set(o, "options", jstr(w->options));
	set(o, "rep", json_integer(w->rep));
	if (w->pos >= 0)
		set(o, "pos", json_integer(w->pos));
	set(o, "status", jstr(w->status));
	set(o, "target", t ? json_integer(t - r->targets) : json_null());
	arr = json_array();
	for (size_t i = 0; i < w->nr_phases; i++)
		json_array_append_new(arr, phase_json(&w->phases[i]));
	set(o, "phases", arr);
	return o;
}

static json_t *run_json(const struct run_rec *r)
{
	json_t *o = json_object(), *arr;

	set(o, "id", json_integer(r->id));
	set(o, "started", json_time_iso(r->started));
	set(o, "started_unix", json_integer(r->started));
	set(o, "finished", json_time_iso(r->finished));
	set(o, "finished_unix",
	    r->finished ? json_integer(r->finished) : json_null());
	set(o, "host", jstr(r->host));
	set(o, "kernel", jstr(r->kernel));
	set(o, "version", jstr(r->version));
	set(o, "cmdline", jstr(r->cmdline));
	/* JSON consumers read integers as int64 (or double): a seed that
	 * does not fit goes out as its decimal string instead of wrapping. */
	if (r->seed > INT64_MAX) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)r->seed);
		set(o, "seed", json_string(buf));
	} else {
		set(o, "seed", ju64(r->seed));
	}
	set(o, "tag", jstr(r->tag));
	set(o, "status", jstr(r->status));
	if (r->target_order)
		set(o, "target_order", jstr(r->target_order));
	if (r->uuid)
		set(o, "uuid", jstr(r->uuid));
	if (r->source_host)
		set(o, "source_host", jstr(r->source_host));
	arr = json_array();
	for (size_t i = 0; i < r->nr_targets; i++)
		json_array_append_new(arr, target_json(&r->targets[i]));
	set(o, "targets", arr);
	arr = json_array();
	for (size_t i = 0; i < r->nr_wlruns; i++)
		json_array_append_new(arr, wlrun_json(r, &r->wlruns[i]));
	set(o, "workloads", arr);
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

	set(o, "date", json_time_iso(r->started));
	set(o, "host", jstr(r->host));
	set(o, "kernel", jstr(r->kernel));
	set(o, "fslab_version", jstr(r->version));
	set(o, "command", jstr(r->cmdline));
	set(o, "seed", r->seed > INT64_MAX ? json_null() : ju64(r->seed));
	for (size_t i = 0; i < r->nr_targets; i++) {
		const struct target_rec *t = &r->targets[i];
		json_t *to;
		char *mkfs;

		if (!provenance_first_target(r, i))
			continue;
		to = json_object();
		mkfs = provenance_mkfs_command(t);
		set(to, "name", jstr(t->name));
		set(to, "spec", jstr(t->spec));
		set(to, "device", jstr(t->device));
		set(to, "size", ju64(t->size));
		set(to, "mkfs_command", jstr(mkfs));
		set(to, "mkfs_version", jstr(t->mkfs_version));
		set(to, "mount_options", jstr(t->eff_mount_opts));
		free(mkfs);
		json_array_append_new(arr, to);
	}
	set(o, "targets", arr);
	arr = json_array();
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];

		if (provenance_first_workload(r, i))
			json_array_append_new(arr, json_pack(
				"{s:o, s:o}", "workload", jstr(w->workload),
				"options", jstr(w->options)));
	}
	set(o, "workloads", arr);
	return o;
}

char *json_dump_run(const struct run_rec *r)
{
	json_t *root = json_object();
	char *s, *out;

	set(root, "format_version", json_integer(FSLAB_JSON_FORMAT_VERSION));
	set(root, "fslab_version", json_string(FSLAB_VERSION));
	set(root, "provenance", provenance_json(r));
	set(root, "run", run_json(r));
	s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!s)
		die("cannot serialize run %lld to JSON", (long long)r->id);
	out = xasprintf("%s\n", s);
	free(s);
	return out;
}

int json_write_run(const struct run_rec *r, const char *path)
{
	char *doc = json_dump_run(r), *tmp = NULL;
	size_t len = strlen(doc);
	mode_t mask;
	int fd, rc = -1;

	if (!strcmp(path, "-")) {
		if (fwrite(doc, 1, len, stdout) != len || fflush(stdout))
			error_errno("cannot write JSON to stdout");
		else
			rc = 0;
		free(doc);
		return rc;
	}
	/* Same directory, so the rename is atomic. */
	tmp = xasprintf("%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		error_errno("cannot create a temporary file for '%s'", path);
		goto out;
	}
	/* mkstemp makes 0600; a results file is as public as any other. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || write_full(fd, doc, len) < 0 ||
	    fsync(fd) < 0) {
		error_errno("cannot write '%s'", path);
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (close(fd) < 0) {
		error_errno("cannot write '%s'", path);
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) < 0) {
		error_errno("cannot rename '%s' to '%s'", tmp, path);
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	free(doc);
	return rc;
}

/* ---- a comparison (fslab compare --format json) ---- */

static json_t *jarr(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, jreal(x[i]));
	return a;
}

static json_t *row_json(const struct cmp_table *t, const struct cmp_row *row)
{
	json_t *o = json_object(), *groups = json_array();

	json_object_set_new(o, "phase", json_string(row->phase));
	json_object_set_new(o, "metric", json_string(row->metric));
	json_object_set_new(o, "unit", json_string(row->unit));
	json_object_set_new(o, "better", json_string(better_str(row->better)));
	json_object_set_new(o, "key", json_boolean(row->key));
	json_object_set_new(o, "traced", json_boolean(row->traced));
	json_object_set_new(o, "mean_kind",
			    json_string(compare_mean_name(row)));
	for (size_t g = 0; g < t->nr_groups; g++) {
		const struct cmp_stat *s = &row->st[g];
		const struct cmp_delta *d = &row->d[g];
		json_t *j = json_object();

		json_object_set_new(j, "group", json_string(t->labels[g]));
		json_object_set_new(j, "n", json_integer((json_int_t)s->n));
		json_object_set_new(j, "instances",
				    json_integer((json_int_t)s->nr_inst));
		json_object_set_new(j, "mean", jreal(s->mean));
		json_object_set_new(j, "sd", jreal(s->sd));
		json_object_set_new(j, "cov_pct", jreal(s->cov_pct));
		json_object_set_new(j, "min", jreal(s->min));
		json_object_set_new(j, "max", jreal(s->max));
		json_object_set_new(j, "ci_lo", jreal(s->ci_lo));
		json_object_set_new(j, "ci_hi", jreal(s->ci_hi));
		json_object_set_new(j, "wall_s", jreal(s->wall_s));
		json_object_set_new(j, "samples", jarr(s->x, s->n));
		json_object_set_new(j, "instance_values",
				    jarr(s->inst, s->nr_inst));
		if (g) {
			json_t *v = json_object();

			json_object_set_new(v, "ratio", jreal(d->ratio));
			json_object_set_new(v, "change_pct", jreal(d->pct));
			json_object_set_new(v, "change_ci_lo_pct",
					    jreal(d->pct_lo));
			json_object_set_new(v, "change_ci_hi_pct",
					    jreal(d->pct_hi));
			json_object_set_new(v, "p", jreal(d->p));
			json_object_set_new(v, "p_adj", jreal(d->tested ?
							     d->p_adj : NAN));
			json_object_set_new(v, "family",
					    json_integer((json_int_t)
							 d->family));
			json_object_set_new(v, "mdc_pct", jreal(
				d->verdict == CMP_SAME ? d->mdc_pct : NAN));
			json_object_set_new(v, "significant",
					    json_boolean(d->significant));
			json_object_set_new(v, "verdict", json_string(
				compare_verdict_name(d->verdict)));
			json_object_set_new(j, "vs_baseline", v);
		}
		json_array_append_new(groups, j);
	}
	json_object_set_new(o, "groups", groups);
	return o;
}

static json_t *table_json(const struct cmp_table *t)
{
	json_t *o = json_object(), *labels = json_array(), *rows =
		json_array(), *roll = json_array(), *failed = json_array(),
		*diffs = json_array(), *reps = json_array();

	json_object_set_new(o, "workload", json_string(t->workload));
	json_object_set_new(o, "target", t->name && !t->name_is_options ?
			    json_string(t->name) : json_null());
	json_object_set_new(o, "options", t->name && t->name_is_options ?
			    json_string(t->name) : json_null());
	for (size_t g = 0; g < t->nr_groups; g++) {
		json_array_append_new(labels, json_string(t->labels[g]));
		json_array_append_new(reps, json_integer(
			(json_int_t)t->nr_reps[g]));
	}
	json_object_set_new(o, "groups", labels);
	json_object_set_new(o, "repetitions", reps);
	json_object_set_new(o, "baseline", t->nr_groups ?
			    json_string(t->labels[0]) : json_null());
	for (size_t i = 0; i < t->nr_diffs; i++) {
		json_t *d = json_object(), *v = json_array();

		json_object_set_new(d, "field",
				    json_string(t->diffs[i].field));
		for (size_t g = 0; g < t->nr_groups; g++)
			json_array_append_new(v, json_string(
				t->diffs[i].values[g]));
		json_object_set_new(d, "values", v);
		json_array_append_new(diffs, d);
	}
	json_object_set_new(o, "differences", diffs);
	for (size_t i = 0; i < t->nr_rows; i++)
		if (t->rows[i].shown)
			json_array_append_new(rows, row_json(t, &t->rows[i]));
	json_object_set_new(o, "rows", rows);
	for (size_t g = 0; g < t->nr_groups; g++) {
		json_t *r = json_object();

		json_object_set_new(r, "group", json_string(t->labels[g]));
		json_object_set_new(r, "gmean_ratio", jreal(t->rollup[g]));
		json_object_set_new(r, "metrics",
				    json_integer((json_int_t)t->rollup_n[g]));
		json_array_append_new(roll, r);
	}
	json_object_set_new(o, "rollup", roll);
	json_object_set_new(o, "key_metrics", json_string(
		t->key_from_workload ? "workload" : "rates"));
	json_object_set_new(o, "regression", json_boolean(t->regression));
	for (size_t g = 0; g < t->nr_groups; g++)
		if (t->failed[g])
			json_array_append_new(failed,
					      json_string(t->labels[g]));
	json_object_set_new(o, "failed", failed);
	return o;
}

static json_t *orders_json(const struct cmp_input *in)
{
	json_t *a = json_array();

	for (size_t i = 0; i < in->nr; i++) {
		const struct run_rec *r = in->runs[i];
		json_t *o = json_object(), *reps = json_array();
		int max_rep = -1;

		json_object_set_new(o, "run", json_integer(r->id));
		json_object_set_new(o, "target_order", r->target_order ?
				    json_string(r->target_order) : json_null());
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
				json_array_append_new(names, json_string(
					t->name ? t->name : "?"));
			}
			json_array_append_new(reps, names);
		}
		json_object_set_new(o, "orders", reps);
		json_array_append_new(a, o);
	}
	return a;
}

int json_print_compare(const struct cmp_session *s, const struct cmp_input *in,
		       const struct compare_opts *o)
{
	json_t *root = json_object(), *arr = json_array(), *notes =
		json_array();
	char *str;
	int rc = 0;

	json_object_set_new(root, "format_version", json_integer(2));
	json_object_set_new(root, "alpha", json_real(o->alpha));
	json_object_set_new(root, "min_change_pct",
			    json_real(o->min_change_pct));
	json_object_set_new(root, "min_wall_s", json_real(o->min_wall_s));
	json_object_set_new(root, "power", json_real(o->power));
	json_object_set_new(root, "min_repetitions",
			    json_integer(COMPARE_MIN_N));
	json_object_set_new(root, "adjust",
			    json_string(compare_adjust_name(o->adjust)));
	json_object_set_new(root, "sample", json_string("repetition"));
	json_object_set_new(root, "ratio_ci",
			    json_string("log-scale delta method"));
	json_object_set_new(root, "runs", orders_json(in));
	for (size_t i = 0; i < s->nr_notes; i++)
		json_array_append_new(notes, json_string(s->notes[i]));
	json_object_set_new(root, "notes", notes);
	for (size_t i = 0; i < s->nr; i++)
		json_array_append_new(arr, table_json(&s->tabs[i]));
	json_object_set_new(root, "workloads", arr);
	str = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!str)
		return error("cannot serialize the comparison to JSON");
	if (printf("%s\n", str) < 0)
		rc = error_errno("cannot write to stdout");
	free(str);
	return rc;
}
