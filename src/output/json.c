/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.c - a run_rec as a versioned JSON document (see json.h).  Built
 * with jansson so escaping and number formatting are never hand-rolled.
 * Missing or non-finite values become null rather than a made-up 0, and
 * files are replaced atomically so a reader never sees half a document.
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

char *json_dump_run(const struct run_rec *r)
{
	json_t *root = json_object();
	char *s, *out;

	set(root, "format_version", json_integer(FSLAB_JSON_FORMAT_VERSION));
	set(root, "fslab_version", json_string(FSLAB_VERSION));
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
