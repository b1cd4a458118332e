/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fiojson.c - fio's JSON output as fslab's figures (internal.h).
 *
 * fio 3.x writes bytes ("io_bytes", "bw_bytes") and nanoseconds
 * ("clat_ns"); fio 2.x wrote KiB ("io_bytes", "bw") and microseconds
 * ("clat").  json+ adds "bins" to clat_ns: every completion latency fio
 * saw, in fio's own buckets (value = the bucket's midpoint in ns, count).
 * fslab's histogram uses fio's bucket scheme (stats/lathist.h), so each
 * bin lands in the very bucket fio counted it in: the import is exact.
 */
#include "workloads/fio/internal.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const char *const fio_dir_names[FIO_NR_DIRS] = { "read", "write", "trim" };

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A count from the JSON as an integer: NaN or negative is 0, beyond the
 * type the type's largest (a double out of range is undefined in C). */
static uint64_t to_u64(double v)
{
	if (!(v > 0))
		return 0;
	return v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
}

static int to_int(double v)
{
	if (!(v > INT_MIN))
		return isnan(v) ? 0 : INT_MIN;
	return v >= INT_MAX ? INT_MAX : (int)v;
}

static double num0(json_t *o, const char *key)
{
	double v = num(o, key);

	return isnan(v) ? 0 : v;
}

/* fio's percentile keys are "99.000000"; find the one nearest q. */
static double percentile(json_t *pct, double q)
{
	const char *key;
	json_t *v;
	double best = NAN, dist = 1e9;

	json_object_foreach(pct, key, v) {
		double k = strtod(key, NULL);

		if (json_is_number(v) && fabs(k - q) < dist &&
		    fabs(k - q) < 1e-3) {
			dist = fabs(k - q);
			best = json_number_value(v);
		}
	}
	return best;
}

static void parse_dir(json_t *d, bool old, struct fio_dirstat *s)
{
	json_t *clat, *pct, *bins;
	double scale, io_bytes, bw, mean, n;
	uint64_t ios;

	memset(s, 0, sizeof(*s));
	s->clat_p50_ns = s->clat_p90_ns = s->clat_p99_ns = s->clat_p999_ns =
		NAN;
	if (!json_is_object(d))
		return;
	if (json_object_get(d, "io_kbytes"))
		io_bytes = num0(d, "io_kbytes") * 1024;
	else
		io_bytes = num0(d, "io_bytes") * (old ? 1024 : 1);
	bw = json_object_get(d, "bw_bytes") ? num0(d, "bw_bytes") :
	     num0(d, "bw") * 1024;
	s->io_bytes = to_u64(io_bytes);
	s->bw_bytes = bw;
	s->iops = num0(d, "iops");
	s->runtime_s = num0(d, "runtime") / 1000.0;
	ios = to_u64(num0(d, "total_ios"));
	clat = json_object_get(d, "clat_ns");
	scale = 1;
	if (!clat) {
		clat = json_object_get(d, "clat");
		scale = 1000; /* fio 2.x: microseconds */
	}
	if (!json_is_object(clat))
		return;
	n = num(clat, "N");
	s->total_ios = ios ? ios : to_u64(n);
	mean = num(clat, "mean");
	s->clat_mean_ns = isnan(mean) ? NAN : mean * scale;
	pct = json_object_get(clat, "percentile");
	if (json_is_object(pct)) {
		s->clat_p50_ns = percentile(pct, 50) * scale;
		s->clat_p90_ns = percentile(pct, 90) * scale;
		s->clat_p99_ns = percentile(pct, 99) * scale;
		s->clat_p999_ns = percentile(pct, 99.9) * scale;
	}
	bins = json_object_get(clat, "bins");
	if (json_is_object(bins) && json_object_size(bins)) {
		const char *key;
		json_t *v;

		s->have_bins = true;
		s->hist = xmalloc(sizeof(*s->hist));
		lathist_init(s->hist);
		json_object_foreach(bins, key, v) {
			uint64_t lat = to_u64(strtod(key, NULL) * scale);
			json_int_t c = json_is_integer(v) ?
				       json_integer_value(v) : 0;

			/* fio counts completions: a negative count is no
			 * histogram to trust. */
			if (c < 0) {
				free(s->hist);
				s->hist = NULL;
				s->have_bins = false;
				break;
			}
			lathist_add_n(s->hist, lat, (uint64_t)c);
		}
	}
}

/* Fold b into a: the same job name seen again (numjobs=N). */
static void merge_dir(struct fio_dirstat *a, struct fio_dirstat *b)
{
	double na = (double)a->total_ios, nb = (double)b->total_ios;

	if (na + nb > 0 && !isnan(a->clat_mean_ns) && !isnan(b->clat_mean_ns))
		a->clat_mean_ns = (a->clat_mean_ns * na + b->clat_mean_ns * nb) /
				  (na + nb);
	else if (isnan(a->clat_mean_ns) || !na)
		a->clat_mean_ns = b->clat_mean_ns;
	a->io_bytes += b->io_bytes;
	a->total_ios += b->total_ios;
	a->bw_bytes += b->bw_bytes;
	a->iops += b->iops;
	if (b->runtime_s > a->runtime_s)
		a->runtime_s = b->runtime_s;
	/* fio's percentiles of several jobs do not combine; the merged
	 * histogram below gives the pooled ones. */
	a->clat_p50_ns = a->clat_p90_ns = a->clat_p99_ns = a->clat_p999_ns =
		NAN;
	if (b->hist) {
		if (a->hist) {
			lathist_merge(a->hist, b->hist);
			free(b->hist);
		} else {
			a->hist = b->hist;
		}
		b->hist = NULL;
	}
	a->have_bins = a->have_bins && b->have_bins;
}

static bool verify_set(json_t *job)
{
	json_t *o = json_object_get(job, "job options");
	const char *v = json_string_value(json_object_get(o, "verify"));

	return v && strcmp(v, "0") && strcmp(v, "none");
}

int fio_json_parse(const char *text, size_t len, struct fio_result *r,
		   char *err, size_t errlen)
{
	json_error_t je;
	json_t *root, *jobs, *job, *du;
	const char *start;
	size_t i, alloc = 0;

	memset(r, 0, sizeof(*r));
	r->disk_util_pct = NAN;
	/* fio prints notes ("fio: ...") before the JSON on some errors. */
	start = memchr(text, '{', len);
	if (!start) {
		snprintf(err, errlen, "fio printed no JSON");
		return -1;
	}
	root = json_loadb(start, len - (size_t)(start - text),
			  JSON_DISABLE_EOF_CHECK, &je);
	if (!root) {
		snprintf(err, errlen, "fio's JSON does not parse: line %d: %s",
			 je.line, je.text);
		return -1;
	}
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs)) {
		snprintf(err, errlen, "fio's JSON has no \"jobs\" array");
		json_decref(root);
		return -1;
	}
	r->version = xstrdup(json_string_value(json_object_get(
		root, "fio version")) ?: "fio (unknown version)");
	json_array_foreach(jobs, i, job) {
		const char *name = json_string_value(json_object_get(job,
								   "jobname"));
		json_t *rd = json_object_get(job, "read");
		struct fio_job *j = NULL, fresh;
		bool old;

		if (!name || !json_is_object(rd))
			continue;
		old = !json_object_get(rd, "clat_ns") &&
		      json_object_get(rd, "clat");
		r->old_format |= old;
		memset(&fresh, 0, sizeof(fresh));
		fresh.error = to_int(num0(job, "error"));
		fresh.usr_cpu_pct = num0(job, "usr_cpu");
		fresh.sys_cpu_pct = num0(job, "sys_cpu");
		fresh.ctx_switches = to_u64(num0(job, "ctx"));
		fresh.majf = to_u64(num0(job, "majf"));
		fresh.minf = to_u64(num0(job, "minf"));
		fresh.verify = verify_set(job);
		for (int d = 0; d < FIO_NR_DIRS; d++)
			parse_dir(json_object_get(job, fio_dir_names[d]), old,
				  &fresh.dir[d]);
		for (size_t k = 0; k < r->nr_jobs && !j; k++)
			if (!strcmp(r->jobs[k].name, name))
				j = &r->jobs[k];
		if (!j) {
			ALLOC_GROW(r->jobs, r->nr_jobs + 1, alloc);
			j = &r->jobs[r->nr_jobs++];
			*j = fresh;
			j->name = xstrdup(name);
			j->nr_merged = 1;
			continue;
		}
		/* CPU shares are per job: the merged job's is the mean. */
		j->usr_cpu_pct = (j->usr_cpu_pct * j->nr_merged +
				  fresh.usr_cpu_pct) / (j->nr_merged + 1);
		j->sys_cpu_pct = (j->sys_cpu_pct * j->nr_merged +
				  fresh.sys_cpu_pct) / (j->nr_merged + 1);
		j->nr_merged++;
		if (!j->error)
			j->error = fresh.error;
		j->ctx_switches += fresh.ctx_switches;
		j->majf += fresh.majf;
		j->minf += fresh.minf;
		j->verify |= fresh.verify;
		for (int d = 0; d < FIO_NR_DIRS; d++)
			merge_dir(&j->dir[d], &fresh.dir[d]);
	}
	du = json_object_get(root, "disk_util");
	if (json_is_array(du)) {
		json_t *e;

		json_array_foreach(du, i, e) {
			double u = num(e, "util");

			if (!isnan(u) && (isnan(r->disk_util_pct) ||
					  u > r->disk_util_pct))
				r->disk_util_pct = u;
		}
	}
	json_decref(root);
	if (!r->nr_jobs) {
		snprintf(err, errlen, "fio's JSON lists no job");
		fio_result_release(r);
		return -1;
	}
	return 0;
}

void fio_result_release(struct fio_result *r)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		free(r->jobs[i].name);
		for (int d = 0; d < FIO_NR_DIRS; d++)
			free(r->jobs[i].dir[d].hist);
	}
	free(r->jobs);
	free(r->version);
	memset(r, 0, sizeof(*r));
}
