// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runjson.c - one run_rec to and from the JSON of an export file.
 * Numbers stay exact: 64-bit counters go as JSON integers (bit for bit,
 * a seed above INT64_MAX reads back unchanged), doubles as jansson's
 * shortest round-trip form, "no value" (NaN, an unknown CPU busy %) as
 * null.  Store ids are local and never written; a workload run names
 * its target by index.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "stats/lathist.h"
#include "xfer/internal.h"
#include "util/jsonout.h"
#include "util/util.h"

static json_t *ju64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/*
 * A phase's latency histograms, exactly: the bucket scheme's bucket
 * count (an importer of another scheme refuses them), count, sum, min,
 * max and the non-empty buckets as [index, count] pairs.
 */
static json_t *hists_json(const struct phase_rec *p)
{
	json_t *a = json_array();

	for (size_t i = 0; i < p->nr_hists; i++) {
		const struct hist_rec *h = &p->hists[i];
		json_t *o = json_object(), *b = json_array();

		jout_set(o, "op", jout_str(h->op));
		jout_set(o, "unit", jout_str(h->unit));
		jout_set(o, "nr_buckets", json_integer(h->nr_buckets));
		jout_set(o, "count", ju64(h->count));
		jout_set(o, "sum", ju64(h->sum));
		jout_set(o, "min", ju64(h->min));
		jout_set(o, "max", ju64(h->max));
		for (uint32_t k = 0; k < h->nr; k++)
			if (h->b[k])
				jout_push(b, json_pack("[I,o]",
					(json_int_t)(h->first + k),
					ju64(h->b[k])));
		jout_set(o, "buckets", b);
		jout_push(a, o);
	}
	return a;
}

/* The stall list as [start_ns, len_ns] pairs and the completion
 * series, exactly (store schema 10). */
static void stalls_json(json_t *o, const struct phase_rec *p)
{
	json_t *a = json_array(), *s, *c;

	for (size_t i = 0; i < p->nr_stall_list; i++)
		jout_push(a, json_pack("[o,o]", ju64(p->stall_list[i].start_ns),
				       ju64(p->stall_list[i].len_ns)));
	jout_set(o, "stalls", a);
	s = json_object();
	c = json_array();
	jout_set(s, "interval_ns", ju64(p->series_ns));
	jout_set(s, "total", ju64(p->series_total));
	for (size_t i = 0; i < p->nr_series; i++)
		jout_push(c, ju64(p->series[i]));
	jout_set(s, "counts", c);
	jout_set(o, "series", s);
}

static json_t *phase_json(const struct phase_rec *p)
{
	json_t *o = json_object(), *m = json_object(), *a;
	const struct measure *me = &p->m;

	jout_set(o, "seq", json_integer(p->seq));
	jout_set(o, "name", jout_str(p->name));
	jout_set(o, "label", jout_str(p->label));
	jout_set(m, "start_ns", ju64(me->start_ns));
	jout_set(m, "wall_ns", ju64(me->wall_ns));
	jout_set(m, "user_ns", ju64(me->user_ns));
	jout_set(m, "sys_ns", ju64(me->sys_ns));
	jout_set(m, "sys_busy_pct", me->sys_busy_pct < 0 ? json_null()
						    : jout_num(me->sys_busy_pct));
	jout_set(m, "have_dev", json_boolean(me->have_dev));
	jout_set(m, "rd_ios", ju64(me->rd_ios));
	jout_set(m, "rd_bytes", ju64(me->rd_bytes));
	jout_set(m, "wr_ios", ju64(me->wr_ios));
	jout_set(m, "wr_bytes", ju64(me->wr_bytes));
	jout_set(o, "measure", m);
	jout_set(o, "bytes", ju64(p->bytes));
	jout_set(o, "files", ju64(p->files));
	jout_set(o, "ops", ju64(p->ops));
	jout_set(o, "too_short", json_boolean(p->too_short));
	jout_set(o, "status", json_string(p->status == PHASE_FAILED ? "failed" :
				     p->status == PHASE_INTERRUPTED ?
				     "interrupted" : "ok"));
	jout_set(o, "error", jout_str(p->error));
	a = json_array();
	for (size_t i = 0; i < p->nr_metrics; i++) {
		const struct metric *mt = &p->metrics[i];

		jout_push(a, json_pack("[o,o,o,i]", jout_str(mt->name),
				  jout_num(mt->value), jout_str(mt->unit),
				  (int)mt->better));
	}
	jout_set(o, "metrics", a);
	a = json_array();
	for (size_t i = 0; i < p->nr_workers; i++) {
		const struct worker_rec *w = &p->workers[i];

		jout_push(a, json_pack("[i,o,o,o,o,o]", w->worker,
				  ju64(w->start_ns), ju64(w->end_ns),
				  ju64(w->bytes), ju64(w->files),
				  ju64(w->ops)));
	}
	jout_set(o, "workers", a);
	/* only when there are some: older runs' canonical form stays */
	if (p->nr_hists)
		jout_set(o, "histograms", hists_json(p));
	if (p->series_ns)
		stalls_json(o, p);
	if (p->rqs_total || p->nr_rqs) {
		json_t *t = json_object(), *rq = json_array();

		for (size_t i = 0; i < p->nr_rqs; i++) {
			const struct rq_sample *q = &p->rqs[i];

			jout_push(rq, json_pack("[o,o,I,s]", ju64(q->t_ns),
					   ju64(q->sector),
					   (json_int_t)q->bytes,
					   q->rw == 'R' ? "R" : "W"));
		}
		jout_set(t, "total", ju64(p->rqs_total));
		jout_set(t, "requests", rq);
		jout_set(o, "trace_sample", t);
	}
	return o;
}

static json_t *target_json(const struct target_rec *t)
{
	json_t *o = json_object();

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
	jout_set(o, "fs_uuid", jout_str(t->uuid));
	jout_set(o, "mkfs_version", jout_str(t->mkfs_version));
	jout_set(o, "path", jout_str(t->path));
	jout_set(o, "size", ju64(t->size));
	if (t->mkfs_cmd)
		jout_set(o, "mkfs_cmd", jout_str(t->mkfs_cmd));
	return o;
}

json_t *xfer_run_json(const struct run_rec *r, bool with_source)
{
	json_t *o = json_object(), *a;

	jout_set(o, "uuid", jout_str(r->uuid));
	jout_set(o, "started", json_integer(r->started));
	jout_set(o, "finished", json_integer(r->finished));
	jout_set(o, "host", jout_str(r->host));
	jout_set(o, "kernel", jout_str(r->kernel));
	jout_set(o, "version", jout_str(r->version));
	jout_set(o, "cmdline", jout_str(r->cmdline));
	jout_set(o, "seed", ju64(r->seed));
	jout_set(o, "tag", jout_str(r->tag));
	jout_set(o, "status", jout_str(r->status));
	jout_set(o, "target_order", jout_str(r->target_order));
	if (with_source)
		jout_set(o, "source_host", jout_str(r->source_host));
	a = json_array();
	for (size_t i = 0; i < r->nr_targets; i++)
		jout_push(a, target_json(&r->targets[i]));
	jout_set(o, "targets", a);
	if (r->nr_facts) {
		a = json_array();
		for (size_t i = 0; i < r->nr_facts; i++) {
			json_t *f = json_array();

			jout_push(f, jout_str(r->facts[i].scope));
			jout_push(f, jout_str(r->facts[i].key));
			jout_push(f, jout_str(r->facts[i].value));
			jout_push(a, f);
		}
		jout_set(o, "facts", a);
	}
	a = json_array();
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];
		json_t *wo = json_object(), *ph = json_array();

		jout_set(wo, "target", w->target_idx >= 0 ?
				  json_integer(w->target_idx) : json_null());
		jout_set(wo, "workload", jout_str(w->workload));
		jout_set(wo, "options", jout_str(w->options));
		jout_set(wo, "rep", json_integer(w->rep));
		jout_set(wo, "status", jout_str(w->status));
		jout_set(wo, "pos", w->pos >= 0 ? json_integer(w->pos)
					   : json_null());
		for (size_t k = 0; k < w->nr_phases; k++)
			jout_push(ph, phase_json(&w->phases[k]));
		jout_set(wo, "phases", ph);
		if (w->nr_texts) {
			json_t *tx = json_array();

			for (size_t k = 0; k < w->nr_texts; k++) {
				json_t *t = json_object();

				jout_set(t, "name", jout_str(w->texts[k].name));
				jout_set(t, "content", jout_str(w->texts[k].content));
				jout_push(tx, t);
			}
			jout_set(wo, "texts", tx);
		}
		jout_push(a, wo);
	}
	jout_set(o, "wlruns", a);
	return o;
}

/* ---- reading: every field checked for its type ---- */

struct rd {
	const char *what;  /* first problem, for the message */
};

static const json_t *field(struct rd *rd, const json_t *o, const char *key,
			   json_type type, bool nullable)
{
	const json_t *v = json_object_get(o, key);

	if (!v || (json_is_null(v) && nullable))
		return NULL;
	if (json_typeof(v) != type &&
	    !(type == JSON_REAL && json_is_integer(v)) &&
	    !(type == JSON_TRUE && json_is_boolean(v))) {
		if (!rd->what)
			rd->what = key;
		return NULL;
	}
	return v;
}

static char *rstr(struct rd *rd, const json_t *o, const char *key)
{
	const json_t *v = field(rd, o, key, JSON_STRING, true);

	return v ? xstrdup(json_string_value(v)) : NULL;
}

static int64_t rint64(struct rd *rd, const json_t *o, const char *key)
{
	const json_t *v = field(rd, o, key, JSON_INTEGER, true);

	return v ? (int64_t)json_integer_value(v) : 0;
}

static double rreal(struct rd *rd, const json_t *o, const char *key,
		    double def)
{
	const json_t *v = field(rd, o, key, JSON_REAL, true);

	return v ? json_number_value(v) : def;
}

static bool rbool(struct rd *rd, const json_t *o, const char *key)
{
	const json_t *v = field(rd, o, key, JSON_TRUE, true);

	return v && json_is_true(v);
}

static const json_t *rarr(struct rd *rd, const json_t *o, const char *key)
{
	return field(rd, o, key, JSON_ARRAY, true);
}

static double num_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The buckets of one histogram into h: false when malformed. */
static bool hist_buckets_read(const json_t *a, struct lathist *h)
{
	const json_t *v;
	uint64_t total = 0;
	json_int_t prev = -1;
	size_t i;

	json_array_foreach(a, i, v) {
		const json_t *idx = json_array_get(v, 0);
		const json_t *n = json_array_get(v, 1);
		uint64_t c;

		if (json_array_size(v) != 2 || !json_is_integer(idx) ||
		    !json_is_integer(n) || json_integer_value(idx) <= prev ||
		    json_integer_value(idx) >= (json_int_t)LATHIST_NR)
			return false;
		c = (uint64_t)json_integer_value(n);
		if (!c || total + c < total)
			return false;
		prev = json_integer_value(idx);
		h->b[prev] = c;
		total += c;
	}
	return total == h->count;
}

static void hists_read(struct rd *rd, const json_t *a, struct phase_rec *p)
{
	/* static: the reason outlives the reader (xfer_run_read's *why) */
	static char msg[160];
	struct lathist *h = xmalloc(sizeof(*h));
	const json_t *v;
	size_t i;

	json_array_foreach(a, i, v) {
		json_int_t nb = rint64(rd, v, "nr_buckets");
		const char *op = json_string_value(json_object_get(v, "op"));
		const char *unit = json_string_value(json_object_get(v, "unit"));
		struct hist_rec tmp = { 0 };

		if (nb != (json_int_t)LATHIST_NR) {
			snprintf(msg, sizeof(msg), "a histogram of %lld "
				 "buckets; this fslab's bucket scheme has %u: "
				 "it was written with a different one",
				 (long long)nb, (unsigned)LATHIST_NR);
			rd->what = rd->what ? rd->what : msg;
			continue;
		}
		lathist_init(h);
		h->count = (uint64_t)rint64(rd, v, "count");
		h->sum = (uint64_t)rint64(rd, v, "sum");
		h->min = (uint64_t)rint64(rd, v, "min");
		h->max = (uint64_t)rint64(rd, v, "max");
		if (!op || !unit || phase_rec_hist(p, op) ||
		    !hist_buckets_read(rarr(rd, v, "buckets"), h)) {
			rd->what = rd->what ? rd->what : "histograms";
			continue;
		}
		hist_rec_from_lathist(&tmp, h);
		tmp.op = (char *)op;
		tmp.unit = (char *)unit;
		phase_rec_copy_hist(p, &tmp);
		free(tmp.b);
	}
	free(h);
}

static void stalls_read(struct rd *rd, const json_t *o, struct phase_rec *p)
{
	const json_t *s = field(rd, o, "series", JSON_OBJECT, true), *v;
	const json_t *a = rarr(rd, o, "stalls"), *c;
	uint64_t sum = 0;
	size_t i;

	if (!s)
		return;
	c = rarr(rd, s, "counts");
	p->series_ns = (uint64_t)rint64(rd, s, "interval_ns");
	p->series_total = (uint64_t)rint64(rd, s, "total");
	p->series = xcalloc(json_array_size(c) + 1, sizeof(*p->series));
	json_array_foreach(c, i, v) {
		json_int_t n = json_integer_value(v);

		if (!json_is_integer(v) || n < 0 || n > (json_int_t)UINT32_MAX)
			break;
		p->series[p->nr_series++] = (uint32_t)n;
		sum += (uint64_t)n;
	}
	p->stall_list = xcalloc(json_array_size(a) + 1,
				sizeof(*p->stall_list));
	json_array_foreach(a, i, v) {
		if (json_array_size(v) != 2 ||
		    !json_is_integer(json_array_get(v, 0)) ||
		    !json_is_integer(json_array_get(v, 1)))
			break;
		p->stall_list[p->nr_stall_list].start_ns =
			(uint64_t)json_integer_value(json_array_get(v, 0));
		p->stall_list[p->nr_stall_list++].len_ns =
			(uint64_t)json_integer_value(json_array_get(v, 1));
	}
	if (!p->series_ns || p->nr_series != json_array_size(c) ||
	    sum > p->series_total || p->nr_stall_list != json_array_size(a))
		rd->what = rd->what ? rd->what : "series";
}

static void phase_read(struct rd *rd, const json_t *o, struct phase_rec *p)
{
	const json_t *m = field(rd, o, "measure", JSON_OBJECT, false), *a, *v;
	char *status;
	size_t i;

	p->seq = (int)rint64(rd, o, "seq");
	p->name = rstr(rd, o, "name");
	if (!p->name && !rd->what)
		rd->what = "phase name";
	p->label = rstr(rd, o, "label");
	if (m) {
		p->m.start_ns = (uint64_t)rint64(rd, m, "start_ns");
		p->m.wall_ns = (uint64_t)rint64(rd, m, "wall_ns");
		p->m.user_ns = (uint64_t)rint64(rd, m, "user_ns");
		p->m.sys_ns = (uint64_t)rint64(rd, m, "sys_ns");
		p->m.sys_busy_pct = rreal(rd, m, "sys_busy_pct", -1);
		p->m.have_dev = rbool(rd, m, "have_dev");
		p->m.rd_ios = (uint64_t)rint64(rd, m, "rd_ios");
		p->m.rd_bytes = (uint64_t)rint64(rd, m, "rd_bytes");
		p->m.wr_ios = (uint64_t)rint64(rd, m, "wr_ios");
		p->m.wr_bytes = (uint64_t)rint64(rd, m, "wr_bytes");
	}
	p->bytes = (uint64_t)rint64(rd, o, "bytes");
	p->files = (uint64_t)rint64(rd, o, "files");
	p->ops = (uint64_t)rint64(rd, o, "ops");
	p->too_short = rbool(rd, o, "too_short");
	status = rstr(rd, o, "status");
	p->status = status && !strcmp(status, "failed") ? PHASE_FAILED :
		    status && !strcmp(status, "interrupted") ?
		    PHASE_INTERRUPTED : PHASE_OK;
	free(status);
	p->error = rstr(rd, o, "error");
	a = rarr(rd, o, "metrics");
	json_array_foreach(a, i, v) {
		const json_t *name = json_array_get(v, 0);
		const json_t *unit = json_array_get(v, 2);
		json_int_t b = json_integer_value(json_array_get(v, 3));

		if (!json_is_array(v) || !json_is_string(name)) {
			rd->what = rd->what ? rd->what : "metrics";
			continue;
		}
		phase_rec_add_metric(p, json_string_value(name),
				     num_or_nan(json_array_get(v, 1)),
				     json_is_string(unit) ?
				     json_string_value(unit) : NULL,
				     b > 0 ? BETTER_HIGHER :
				     b < 0 ? BETTER_LOWER : BETTER_NONE);
	}
	a = rarr(rd, o, "workers");
	json_array_foreach(a, i, v) {
		struct worker_rec *w;

		if (!json_is_array(v) || json_array_size(v) != 6) {
			rd->what = rd->what ? rd->what : "workers";
			continue;
		}
		ALLOC_GROW(p->workers, p->nr_workers + 1, p->alloc_workers);
		w = &p->workers[p->nr_workers++];
		w->worker = (int)json_integer_value(json_array_get(v, 0));
		w->start_ns = (uint64_t)json_integer_value(json_array_get(v, 1));
		w->end_ns = (uint64_t)json_integer_value(json_array_get(v, 2));
		w->bytes = (uint64_t)json_integer_value(json_array_get(v, 3));
		w->files = (uint64_t)json_integer_value(json_array_get(v, 4));
		w->ops = (uint64_t)json_integer_value(json_array_get(v, 5));
	}
	hists_read(rd, field(rd, o, "histograms", JSON_ARRAY, true), p);
	stalls_read(rd, o, p);
	m = field(rd, o, "trace_sample", JSON_OBJECT, true);
	if (m) {
		size_t alloc = 0;

		p->rqs_total = (uint64_t)rint64(rd, m, "total");
		a = rarr(rd, m, "requests");
		json_array_foreach(a, i, v) {
			const char *rw = json_string_value(json_array_get(v, 3));
			struct rq_sample *q;

			if (!json_is_array(v) || !rw) {
				rd->what = rd->what ? rd->what : "requests";
				continue;
			}
			ALLOC_GROW(p->rqs, p->nr_rqs + 1, alloc);
			q = &p->rqs[p->nr_rqs++];
			q->t_ns = (uint64_t)json_integer_value(
				json_array_get(v, 0));
			q->sector = (uint64_t)json_integer_value(
				json_array_get(v, 1));
			q->bytes = (uint32_t)json_integer_value(
				json_array_get(v, 2));
			q->rw = rw[0] == 'R' ? 'R' : 'W';
		}
	}
}

struct run_rec *xfer_run_read(const json_t *o, const char **why)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct rd rd = { 0 };
	const json_t *a, *v;
	size_t i;

	if (!json_is_object(o)) {
		*why = "a run is not an object";
		free(r);
		return NULL;
	}
	r->uuid = rstr(&rd, o, "uuid");
	r->started = rint64(&rd, o, "started");
	r->finished = rint64(&rd, o, "finished");
	r->host = rstr(&rd, o, "host");
	r->kernel = rstr(&rd, o, "kernel");
	r->version = rstr(&rd, o, "version");
	r->cmdline = rstr(&rd, o, "cmdline");
	r->seed = (uint64_t)rint64(&rd, o, "seed");
	r->tag = rstr(&rd, o, "tag");
	r->status = rstr(&rd, o, "status");
	r->target_order = rstr(&rd, o, "target_order");
	r->source_host = rstr(&rd, o, "source_host");
	a = rarr(&rd, o, "targets");
	json_array_foreach(a, i, v) {
		struct target_rec *t = run_rec_new_target(r);

		t->idx = (int)rint64(&rd, v, "idx");
		t->rep = (int)rint64(&rd, v, "rep");
		t->spec = rstr(&rd, v, "spec");
		t->name = rstr(&rd, v, "name");
		t->kind = rstr(&rd, v, "kind");
		t->fstype = rstr(&rd, v, "fstype");
		t->mkfs_opts = rstr(&rd, v, "mkfs_opts");
		t->mount_opts = rstr(&rd, v, "mount_opts");
		t->eff_mount_opts = rstr(&rd, v, "eff_mount_opts");
		t->device = rstr(&rd, v, "device");
		t->uuid = rstr(&rd, v, "fs_uuid");
		t->mkfs_version = rstr(&rd, v, "mkfs_version");
		t->path = rstr(&rd, v, "path");
		t->size = (uint64_t)rint64(&rd, v, "size");
		t->mkfs_cmd = rstr(&rd, v, "mkfs_cmd");
	}
	a = field(&rd, o, "facts", JSON_ARRAY, true);
	json_array_foreach(a, i, v) {
		const char *sc = json_string_value(json_array_get(v, 0));
		const char *k = json_string_value(json_array_get(v, 1));
		const json_t *val = json_array_get(v, 2);

		if (!sc || !k || (!json_is_string(val) && !json_is_null(val))) {
			if (!rd.what)
				rd.what = "facts";
			continue;
		}
		run_rec_add_fact(r, sc, k, json_string_value(val));
	}
	a = rarr(&rd, o, "wlruns");
	json_array_foreach(a, i, v) {
		struct wlrun_rec *w = run_rec_new_wlrun(r);
		const json_t *t = json_object_get(v, "target"), *ph, *pv;
		const json_t *pos = json_object_get(v, "pos");
		size_t k;

		w->target_idx = json_is_integer(t) &&
				json_integer_value(t) >= 0 &&
				(size_t)json_integer_value(t) < r->nr_targets ?
				(int)json_integer_value(t) : -1;
		w->workload = rstr(&rd, v, "workload");
		if (!w->workload && !rd.what)
			rd.what = "workload";
		w->options = rstr(&rd, v, "options");
		w->rep = (int)rint64(&rd, v, "rep");
		w->status = rstr(&rd, v, "status");
		w->pos = json_is_integer(pos) ? (int)json_integer_value(pos)
					      : -1;
		ph = rarr(&rd, v, "phases");
		json_array_foreach(ph, k, pv)
			phase_read(&rd, pv, wlrun_rec_new_phase(w));
		ph = field(&rd, v, "texts", JSON_ARRAY, true);
		json_array_foreach(ph, k, pv) {
			const char *n = json_string_value(
				json_object_get(pv, "name"));
			const char *c = json_string_value(
				json_object_get(pv, "content"));

			if (!n || !c) {
				if (!rd.what)
					rd.what = "texts";
				continue;
			}
			wlrun_rec_add_text(w, n, c);
		}
	}
	if (!r->uuid && !rd.what)
		rd.what = "uuid";
	if (rd.what) {
		*why = rd.what;
		run_rec_free(r);
		return NULL;
	}
	return r;
}

char *xfer_run_canonical(const struct run_rec *r)
{
	json_t *j = xfer_run_json(r, false);
	char *s = json_dumps(j, XFER_CANONICAL);

	json_decref(j);
	if (!s)
		die("out of memory writing JSON");
	return s;
}
