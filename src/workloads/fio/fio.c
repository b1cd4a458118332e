/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio.c - the "fio" workload: a user's fio job file under fslab's
 * targets, repetitions, order, statistics, tracing and report.
 *
 * Each job section of the file is a phase of its own: fslab runs
 * `fio --section=NAME` for the sections one after another in the
 * workload directory, so wall time, CPU, device I/O, the block trace and
 * the co-metrics belong to that section alone.  fio's JSON (json+) gives
 * the section's figures per direction: bandwidth, IOPS, completion
 * latencies (its json+ histogram, bucket for bucket), runtime, the job's
 * CPU and the disk utilisation it saw.
 *
 * The job file is read once, when the options are parsed (prepare): its
 * text and SHA-256 are kept, so the file fio runs is the file that was
 * checked, whatever happens to the path later, and the stored options
 * carry the hash, so compare refuses two different job files like two
 * different option sets.  What it names must stay in the workload
 * directory (jobfile.c); fio itself must accept it (`fio --parse-only`)
 * before any target is built.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/lathist.h"
#include "util/sha256.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "phase/workload.h"
#include "workloads/fio/internal.h"

/* fio's JSON of one section: a few KiB, json+ bins up to a few MiB. */
#define FIO_OUT_MAX (64u << 20)
#define FIO_JOB_MAX (1u << 20)
#define FIO_JOB_NAME "fslab-job.fio"

struct fio_opts {
	char *job;       /* the job file as the user named it */
	char *section;   /* '+'-separated sections to run; "" = all */
	char *size;      /* size= override, "" = the file's */
	char *runtime;   /* runtime= override */
	char *fio;       /* the fio binary */
	char *sha256;    /* of the job file's text, set by prepare */
};

static const struct opt fio_opt_table[] = {
	{ "fio", OPT_STRING, offsetof(struct fio_opts, fio), "fio",
	  "the fio program (a name on PATH or a path)", 0, 0, NULL },
	{ "job", OPT_STRING, offsetof(struct fio_opts, job), "",
	  "the fio job file to run (required)", 0, 0, NULL },
	{ "job-sha256", OPT_STRING, offsetof(struct fio_opts, sha256), "",
	  "set by fslab: the SHA-256 of the job file's text, so runs of "
	  "different job files are never compared as one", 0, 0, NULL },
	{ "runtime", OPT_STRING, offsetof(struct fio_opts, runtime), "",
	  "runtime= for every job section (fio's syntax), over the file's",
	  0, 0, NULL },
	{ "section", OPT_STRING, offsetof(struct fio_opts, section), "",
	  "job sections to run, NAME+NAME...; default every one, in file "
	  "order", 0, 0, NULL },
	{ "size", OPT_STRING, offsetof(struct fio_opts, size), "",
	  "size= for every job section (fio's syntax), over the file's",
	  0, 0, NULL },
	OPT_END,
};

/* Every name the phases may have: the job file's sections. */
static const char *const fio_phase_names[] = { "JOB-SECTION", NULL };

/*
 * Job files read by prepare, by hash: the options hold only the hash (a
 * string option), and this keeps the text and its parsed sections for
 * the run, freed at exit.
 */
struct fio_job_entry {
	char *sha256;
	char *text;
	struct fio_jobfile jf;
	char **phases;   /* the sections to run, NULL-terminated */
	char *selection; /* the section= it was made for */
};

static struct {
	struct fio_job_entry *v;
	size_t nr, alloc;
} jobs;

static void jobs_free(void)
{
	for (size_t i = 0; i < jobs.nr; i++) {
		struct fio_job_entry *e = &jobs.v[i];

		free(e->sha256);
		free(e->text);
		fio_jobfile_release(&e->jf);
		for (char **p = e->phases; p && *p; p++)
			free(*p);
		free(e->phases);
		free(e->selection);
	}
	free(jobs.v);
	memset(&jobs, 0, sizeof(jobs));
}

static struct fio_job_entry *job_entry(const struct fio_opts *o)
{
	for (size_t i = 0; i < jobs.nr; i++)
		if (o->sha256 && !strcmp(jobs.v[i].sha256, o->sha256) &&
		    !strcmp(jobs.v[i].selection, o->section ? o->section : ""))
			return &jobs.v[i];
	return NULL;
}

/* The job file's text: a regular file, at most FIO_JOB_MAX bytes. */
static char *read_job(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat sb;
	char *buf;
	ssize_t n;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open job file '%s': %s", path,
			 strerror(errno));
		return NULL;
	}
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size > FIO_JOB_MAX) {
		snprintf(err, errlen, "job file '%s' is not a regular file of "
			 "at most %u KiB", path, FIO_JOB_MAX >> 10);
		close(fd);
		return NULL;
	}
	buf = xmalloc((size_t)sb.st_size + 1);
	n = read_full(fd, buf, (size_t)sb.st_size);
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "cannot read job file '%s': %s", path,
			 strerror(errno));
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* section=a+b: each must be a job section; NULL-terminated names. */
static char **select_sections(const struct fio_jobfile *jf, const char *sel,
			      char *err, size_t errlen)
{
	char **v = xcalloc(jf->nr_sections + 1, sizeof(*v));
	size_t n = 0;

	if (!sel || !*sel) {
		for (size_t i = 0; i < jf->nr_sections; i++)
			v[n++] = xstrdup(jf->sections[i].name);
		return v;
	}
	for (const char *p = sel; *p;) {
		size_t len = strcspn(p, "+");
		char *name = xstrndup(p, len);
		bool dup = false;

		for (size_t i = 0; i < n; i++)
			dup |= !strcmp(v[i], name);
		if (fio_jobfile_find(jf, name) < 0 || dup || n >= jf->nr_sections) {
			snprintf(err, errlen, "section '%s' %s", name,
				 dup ? "is named twice" :
				 "is not a job section of the file");
			free(name);
			for (size_t i = 0; i < n; i++)
				free(v[i]);
			free(v);
			return NULL;
		}
		v[n++] = name;
		p += len + (p[len] == '+');
	}
	return v;
}

/* Overrides as job-file lines ("size=64m"), NULL-terminated in buf. */
static void overrides(const struct fio_opts *o, char *lines[3],
		      const char *ov[3])
{
	size_t n = 0;

	lines[0] = lines[1] = NULL;
	if (o->size && *o->size)
		lines[n++] = xasprintf("size=%s", o->size);
	if (o->runtime && *o->runtime)
		lines[n++] = xasprintf("runtime=%s", o->runtime);
	for (size_t i = 0; i < 3; i++)
		ov[i] = i < n ? lines[i] : NULL;
}

static int fio_prepare(void *vo, char *err, size_t errlen)
{
	struct fio_opts *o = vo;
	struct fio_job_entry e = { 0 };

	if (!o->job || !*o->job) {
		snprintf(err, errlen, "give the job file: -w fio:job=FILE");
		return -1;
	}
	for (const char *p = o->size; p && *p; p++)
		if (*p == '\n' || *p == '\r')
			goto newline;
	for (const char *p = o->runtime; p && *p; p++)
		if (*p == '\n' || *p == '\r')
			goto newline;
	e.text = read_job(o->job, err, errlen);
	if (!e.text)
		return -1;
	if (fio_jobfile_parse(e.text, &e.jf, err, errlen) < 0)
		goto fail;
	e.phases = select_sections(&e.jf, o->section, err, errlen);
	if (!e.phases)
		goto fail;
	e.sha256 = xmalloc(65);
	sha256_hex(e.text, strlen(e.text), e.sha256);
	e.selection = xstrdup(o->section ? o->section : "");
	free(o->sha256);
	o->sha256 = xstrdup(e.sha256);
	if (!jobs.nr)
		atexit(jobs_free);
	ALLOC_GROW(jobs.v, jobs.nr + 1, jobs.alloc);
	jobs.v[jobs.nr++] = e;
	return 0;
newline:
	snprintf(err, errlen, "size= and runtime= are one line each");
	return -1;
fail:
	fio_jobfile_release(&e.jf);
	free(e.text);
	return -1;
}

static const char *const *fio_phases_of(const void *vo)
{
	const struct fio_job_entry *e = job_entry(vo);

	return e ? (const char *const *)e->phases : NULL;
}

/*
 * fio must accept the file as it will run (with the overrides), before
 * any target is built: `fio --parse-only` on a copy in memory.
 */
static int parse_only(const struct fio_opts *o, const char *rendered,
		      char *err, size_t errlen)
{
	int fd = memfd_create("fslab-fio-job", MFD_CLOEXEC);
	struct spawn_result res;
	char path[64], tail[400];
	char *argv[] = { o->fio, (char *)"--parse-only", path, NULL };
	size_t len = strlen(rendered);

	if (fd < 0 || write(fd, rendered, len) != (ssize_t)len) {
		snprintf(err, errlen, "cannot keep the job file in memory: %s",
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* fio opens it by name; /proc/PID/fd reaches our memfd. */
	snprintf(path, sizeof(path), "/proc/%ld/fd/%d", (long)getpid(), fd);
	if (spawn_run(argv, -1, 1 << 16, 0, NULL, &res) < 0) {
		close(fd);
		snprintf(err, errlen, "cannot run '%s'", o->fio);
		return -1;
	}
	close(fd);
	if (res.code) {
		spawn_tail_lines(*res.err ? res.err : res.out, 4, tail,
				 sizeof(tail));
		snprintf(err, errlen, "fio rejects the job file '%s': %s",
			 o->job, tail);
		spawn_result_release(&res);
		return -1;
	}
	spawn_result_release(&res);
	return 0;
}

static int fio_check(const void *vo, char *err, size_t errlen)
{
	const struct fio_opts *o = vo;
	const struct fio_job_entry *e = job_entry(o);
	char *lines[3], *rendered;
	const char *ov[3];
	int rc;

	if (!e) {
		snprintf(err, errlen, "job-sha256 is set by fslab from the "
			 "job file; do not give it");
		return -1;
	}
	if (!spawn_in_path(o->fio)) {
		snprintf(err, errlen, "'%s' not found: install the Debian "
			 "package fio (apt-get install fio) or give "
			 "fio=PATH", o->fio);
		return -1;
	}
	overrides(o, lines, ov);
	rendered = fio_jobfile_render(&e->jf, ov);
	rc = parse_only(o, rendered, err, errlen);
	free(rendered);
	free(lines[0]);
	free(lines[1]);
	return rc;
}

static double ns_ms(double ns)
{
	return ns / 1e6;
}

static void dir_metrics(struct phase *ph, const char *dname,
			const struct fio_dirstat *d)
{
	char name[64];

	snprintf(name, sizeof(name), "%s.MiB/s", dname);
	phase_metric(ph, name, d->bw_bytes / (1 << 20), "MiB/s",
		     BETTER_HIGHER);
	snprintf(name, sizeof(name), "%s.io/s", dname);
	phase_metric(ph, name, d->iops, "io/s", BETTER_HIGHER);
	snprintf(name, sizeof(name), "%s.runtime_s", dname);
	phase_metric(ph, name, d->runtime_s, "s", BETTER_NONE);
	snprintf(name, sizeof(name), "%s.io_B", dname);
	phase_metric(ph, name, (double)d->io_bytes, "B", BETTER_NONE);
	if (d->hist && d->hist->count) {
		phase_latency(ph, dname, d->hist);
	} else {
		/* fio without json+ bins: its own figures. */
		static const struct {
			const char *stat;
			size_t off;
		} f[] = {
			{ "p50", offsetof(struct fio_dirstat, clat_p50_ns) },
			{ "p99", offsetof(struct fio_dirstat, clat_p99_ns) },
			{ "mean", offsetof(struct fio_dirstat, clat_mean_ns) },
		};
		for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
			double v = *(const double *)((const char *)d +
						     f[i].off);

			if (isnan(v))
				continue;
			snprintf(name, sizeof(name), "%s.lat_%s_ms", dname,
				 f[i].stat);
			phase_metric(ph, name, ns_ms(v), "ms", BETTER_LOWER);
		}
	}
	/* fio's own p90 and p99.9, which fslab's histogram does not name. */
	if (!isnan(d->clat_p90_ns)) {
		snprintf(name, sizeof(name), "%s.lat_p90_ms", dname);
		phase_metric(ph, name, ns_ms(d->clat_p90_ns), "ms",
			     BETTER_LOWER);
	}
	if (!isnan(d->clat_p999_ns)) {
		snprintf(name, sizeof(name), "%s.lat_p999_ms", dname);
		phase_metric(ph, name, ns_ms(d->clat_p999_ns), "ms",
			     BETTER_LOWER);
	}
}

/* fio's figures of one section into its phase; false: it failed. */
static bool section_metrics(struct phase *ph, const char *section,
			    const struct fio_result *r)
{
	uint64_t bytes = 0, ios = 0;
	bool ok = true, found = false;

	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct fio_job *j = &r->jobs[i];

		found = true;
		if (j->error) {
			phase_fail(ph, "fio job '%s' (section %s): error %d "
				   "(%s)%s", j->name, section, j->error,
				   strerror(j->error),
				   j->error == EILSEQ ?
				   ": verify found bad data" : "");
			ok = false;
		}
		for (int d = 0; d < FIO_NR_DIRS; d++) {
			const struct fio_dirstat *s = &j->dir[d];

			if (!s->io_bytes && !s->total_ios)
				continue;
			bytes += s->io_bytes;
			ios += s->total_ios;
			/* Several jobs in one section: the first names it. */
			if (i == 0)
				dir_metrics(ph, fio_dir_names[d], s);
		}
		if (i == 0) {
			phase_metric(ph, "fio.usr_cpu_pct", j->usr_cpu_pct,
				     "%", BETTER_NONE);
			phase_metric(ph, "fio.sys_cpu_pct", j->sys_cpu_pct,
				     "%", BETTER_NONE);
			phase_metric(ph, "fio.ctx_switches",
				     (double)j->ctx_switches, "", BETTER_NONE);
			if (j->verify && !j->error)
				phase_metric(ph, "fio.verified", 1, "",
					     BETTER_NONE);
		}
	}
	if (!found) {
		phase_fail(ph, "fio reported no job for section %s", section);
		return false;
	}
	if (!isnan(r->disk_util_pct))
		phase_metric(ph, "fio.disk_util_pct", r->disk_util_pct, "%",
			     BETTER_NONE);
	phase_work(ph, bytes, 0, ios);
	return ok;
}

static int write_job(int dirfd, const char *text)
{
	int fd = openat(dirfd, FIO_JOB_NAME, O_WRONLY | O_CREAT | O_EXCL |
			O_NOFOLLOW | O_CLOEXEC, 0600);
	size_t len = strlen(text);

	if (fd < 0)
		return error_errno("cannot create %s in the workload "
				   "directory", FIO_JOB_NAME);
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return error_errno("cannot write %s", FIO_JOB_NAME);
	}
	return close(fd) < 0 ? error_errno("cannot write %s", FIO_JOB_NAME)
			     : 0;
}

static int run_section(struct wl_ctx *ctx, const struct fio_opts *o,
		       int dirfd, const char *section)
{
	char *sec = xasprintf("--section=%s", section);
	char *argv[] = { o->fio, (char *)"--output-format=json+", sec,
			 (char *)FIO_JOB_NAME, NULL };
	struct spawn_result res;
	struct fio_result r;
	struct phase *ph;
	char why[512], tail[600];
	int rc = 0;

	ph = phase_begin(ctx, section, NULL);
	if (spawn_run(argv, dirfd, FIO_OUT_MAX, 0, phase_stop_requested,
		      &res) < 0) {
		phase_fail(ph, "cannot run '%s'", o->fio);
		free(sec);
		phase_end(ctx, ph, NULL);
		return -1;
	}
	free(sec);
	if (res.out_len) {
		char *name = xasprintf("fio.json:%s", section);

		if (wl_keep_text(ctx, name, res.out) < 0)
			rc = -1;
		free(name);
	}
	if (res.stopped) {
		/* phase_end marks it interrupted. */
	} else if (res.code) {
		spawn_tail_lines(*res.err ? res.err : res.out, 3, tail,
				 sizeof(tail));
		phase_fail(ph, "fio exited %d on section %s: %s", res.code,
			   section, tail);
		error("fio exited %d on section %s: %s", res.code, section,
		      tail);
		rc = -1;
	} else if (fio_json_parse(res.out, res.out_len, &r, why,
				  sizeof(why)) < 0) {
		phase_fail(ph, "section %s: %s", section, why);
		error("fio section %s: %s", section, why);
		rc = -1;
	} else {
		if (!section_metrics(ph, section, &r))
			rc = -1;
		if (ctx->rep == 0 && ctx->rank == 0 &&
		    !wlrun_rec_text(ctx->wlrun, "fio.version"))
			(void)!wl_keep_text(ctx, "fio.version", r.version);
		fio_result_release(&r);
	}
	spawn_result_release(&res);
	if (phase_end(ctx, ph, NULL) < 0)
		rc = -1;
	return rc;
}

static int fio_run(struct wl_ctx *ctx, const void *vo)
{
	const struct fio_opts *o = vo;
	const struct fio_job_entry *e = job_entry(o);
	char *lines[3], *rendered;
	const char *ov[3];
	int dirfd, rc = 0;

	if (!e)
		BUG("fio options without a prepared job file");
	dirfd = open(ctx->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		     O_CLOEXEC);
	if (dirfd < 0)
		return error_errno("cannot open '%s'", ctx->dir);
	overrides(o, lines, ov);
	rendered = fio_jobfile_render(&e->jf, ov);
	free(lines[0]);
	free(lines[1]);
	if (write_job(dirfd, rendered) < 0 ||
	    wl_keep_text(ctx, "job.fio", e->text) < 0)
		rc = -1;
	free(rendered);
	for (char **s = e->phases; !rc && *s; s++) {
		if (phase_stop_requested())
			break;
		rc = run_section(ctx, o, dirfd, *s);
	}
	close(dirfd);
	return rc;
}

static void fio_report(FILE *out, const struct run_rec *run,
		       const struct wlrun_rec *wr)
{
	const char *job = wlrun_rec_text(wr, "job.fio");
	const char *ver = wlrun_rec_text(wr, "fio.version");

	(void)run;
	if (job && wr->rep == 0) {
		const char *opts = wr->options ? strstr(wr->options,
							"job-sha256=") : NULL;

		fprintf(out, "fio job file, run by %s", ver ? ver : "fio");
		if (opts)
			fprintf(out, ", %.*s", (int)strcspn(opts, ","), opts);
		fprintf(out, ":\n%s%s", job,
			*job && job[strlen(job) - 1] != '\n' ? "\n" : "");
	}
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];

		if (p->status != PHASE_OK) {
			fprintf(out, "%s: %s: %s\n", p->name,
				p->status == PHASE_FAILED ? "failed" :
				"interrupted", p->error ? p->error : "?");
			continue;
		}
		for (int d = 0; d < FIO_NR_DIRS; d++) {
			char n[64];
			const struct metric *bw, *io, *p99;
			const char *dn = fio_dir_names[d];

			snprintf(n, sizeof(n), "%s.MiB/s", dn);
			bw = phase_rec_metric(p, n);
			if (!bw)
				continue;
			snprintf(n, sizeof(n), "%s.io/s", dn);
			io = phase_rec_metric(p, n);
			snprintf(n, sizeof(n), "%s.lat_p99_ms", dn);
			p99 = phase_rec_metric(p, n);
			fprintf(out, "%s: %s: IOPS=%.0f, BW=%.2f MiB/s, "
				"clat p99=%.3f ms, rep %d\n", p->name, dn,
				io ? io->value : NAN, bw->value,
				p99 ? p99->value : NAN, wr->rep + 1);
		}
	}
}

static const char *const fio_key_metrics[] = {
	"*/write.MiB/s", "*/read.MiB/s", "*/write.io/s", "*/read.io/s",
	"*/write.lat_p99_ms", "*/read.lat_p99_ms", NULL,
};

const struct workload wl_fio = {
	.name = "fio",
	.summary = "a fio job file: each job section a phase, with fio's "
		   "bandwidth, IOPS and completion latencies (see doc/fio.md)",
	.phases = fio_phase_names,
	.flags = WL_MPI_AWARE,
	.opts = fio_opt_table,
	.opts_size = sizeof(struct fio_opts),
	.prepare = fio_prepare,
	.check = fio_check,
	.run = fio_run,
	.report = fio_report,
	.key_metrics = fio_key_metrics,
	.no_verify = "fio checks its own data: set verify= in the job file "
		     "(a verify error fails the phase)",
	.phases_of = fio_phases_of,
};
