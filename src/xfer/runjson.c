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

#include "xfer/internal.h"
#include "util/util.h"

static json_t *jstr(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	/* jansson wants UTF-8: a stray byte becomes '?', not a lost run. */
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

static void set(json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, v ? v : json_null()))
		die("out of memory building JSON");
}

static void push(json_t *a, json_t *v)
{
	if (json_array_append_new(a, v ? v : json_null()))
		die("out of memory building JSON");
}

static json_t *phase_json(const struct phase_rec *p)
{
	json_t *o = json_object(), *m = json_object(), *a;
	const struct measure *me = &p->m;

	set(o, "seq", json_integer(p->seq));
	set(o, "name", jstr(p->name));
	set(o, "label", jstr(p->label));
	set(m, "start_ns", ju64(me->start_ns));
	set(m, "wall_ns", ju64(me->wall_ns));
	set(m, "user_ns", ju64(me->user_ns));
	set(m, "sys_ns", ju64(me->sys_ns));
	set(m, "sys_busy_pct", me->sys_busy_pct < 0 ? json_null()
						    : jreal(me->sys_busy_pct));
	set(m, "have_dev", json_boolean(me->have_dev));
	set(m, "rd_ios", ju64(me->rd_ios));
	set(m, "rd_bytes", ju64(me->rd_bytes));
	set(m, "wr_ios", ju64(me->wr_ios));
	set(m, "wr_bytes", ju64(me->wr_bytes));
	set(o, "measure", m);
	set(o, "bytes", ju64(p->bytes));
	set(o, "files", ju64(p->files));
	set(o, "ops", ju64(p->ops));
	set(o, "too_short", json_boolean(p->too_short));
	set(o, "status", json_string(p->status == PHASE_FAILED ? "failed" :
				     p->status == PHASE_INTERRUPTED ?
				     "interrupted" : "ok"));
	set(o, "error", jstr(p->error));
	a = json_array();
	for (size_t i = 0; i < p->nr_metrics; i++) {
		const struct metric *mt = &p->metrics[i];

		push(a, json_pack("[o,o,o,i]", jstr(mt->name),
				  jreal(mt->value), jstr(mt->unit),
				  (int)mt->better));
	}
	set(o, "metrics", a);
	a = json_array();
	for (size_t i = 0; i < p->nr_workers; i++) {
		const struct worker_rec *w = &p->workers[i];

		push(a, json_pack("[i,o,o,o,o,o]", w->worker,
				  ju64(w->start_ns), ju64(w->end_ns),
				  ju64(w->bytes), ju64(w->files),
				  ju64(w->ops)));
	}
	set(o, "workers", a);
	if (p->rqs_total || p->nr_rqs) {
		json_t *t = json_object(), *rq = json_array();

		for (size_t i = 0; i < p->nr_rqs; i++) {
			const struct rq_sample *q = &p->rqs[i];

			push(rq, json_pack("[o,o,I,s]", ju64(q->t_ns),
					   ju64(q->sector),
					   (json_int_t)q->bytes,
					   q->rw == 'R' ? "R" : "W"));
		}
		set(t, "total", ju64(p->rqs_total));
		set(t, "requests", rq);
		set(o, "trace_sample", t);
	}
	return o;
}

static json_t *target_json(const struct target_rec *t)
{
	json_t *o = json_object();

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
	set(o, "fs_uuid", jstr(t->uuid));
	set(o, "mkfs_version", jstr(t->mkfs_version));
	set(o, "path", jstr(t->path));
	set(o, "size", ju64(t->size));
	if (t->mkfs_cmd)
		set(o, "mkfs_cmd", jstr(t->mkfs_cmd));
	return o;
}

json_t *xfer_run_json(const struct run_rec *r, bool with_source)
{
	json_t *o = json_object(), *a;

	set(o, "uuid", jstr(r->uuid));
	set(o, "started", json_integer(r->started));
	set(o, "finished", json_integer(r->finished));
	set(o, "host", jstr(r->host));
	set(o, "kernel", jstr(r->kernel));
	set(o, "version", jstr(r->version));
	set(o, "cmdline", jstr(r->cmdline));
	set(o, "seed", ju64(r->seed));
	set(o, "tag", jstr(r->tag));
	set(o, "status", jstr(r->status));
	set(o, "target_order", jstr(r->target_order));
	if (with_source)
		set(o, "source_host", jstr(r->source_host));
	a = json_array();
	for (size_t i = 0; i < r->nr_targets; i++)
		push(a, target_json(&r->targets[i]));
	set(o, "targets", a);
	if (r->nr_facts) {
		a = json_array();
		for (size_t i = 0; i < r->nr_facts; i++) {
			json_t *f = json_array();

			push(f, jstr(r->facts[i].scope));
			push(f, jstr(r->facts[i].key));
			push(f, jstr(r->facts[i].value));
			push(a, f);
		}
		set(o, "facts", a);
	}
	a = json_array();
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		const struct wlrun_rec *w = &r->wlruns[i];
		json_t *wo = json_object(), *ph = json_array();

		set(wo, "target", w->target_idx >= 0 ?
				  json_integer(w->target_idx) : json_null());
		set(wo, "workload", jstr(w->workload));
		set(wo, "options", jstr(w->options));
		set(wo, "rep", json_integer(w->rep));
		set(wo, "status", jstr(w->status));
		set(wo, "pos", w->pos >= 0 ? json_integer(w->pos)
					   : json_null());
		for (size_t k = 0; k < w->nr_phases; k++)
			push(ph, phase_json(&w->phases[k]));
		set(wo, "phases", ph);
		if (w->nr_texts) {
			json_t *tx = json_array();

			for (size_t k = 0; k < w->nr_texts; k++) {
				json_t *t = json_object();

				set(t, "name", jstr(w->texts[k].name));
				set(t, "content", jstr(w->texts[k].content));
				push(tx, t);
			}
			set(wo, "texts", tx);
		}
		push(a, wo);
	}
	set(o, "wlruns", a);
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
