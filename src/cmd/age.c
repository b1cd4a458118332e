/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age.c - `fslab age`: age a filesystem to a profile (fill, then
 * create/delete until the distributions converge) or by replaying an op
 * log, survey its fragmentation into the store as phases of a workload
 * run named "age", and optionally keep the aged image as a golden copy
 * for aged:NAME targets.  The decisions are the ager's (age/ager.c);
 * this file applies them, measures, and reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "age/ager.h"
#include "age/golden.h"
#include "age/oplog.h"
#include "age/profile.h"
#include "cmd.h"
#include "frag/frag.h"
#include "fs/state.h"
#include "fs/target.h"
#include "runner.h"
#include "store/store.h"
#include "util/util.h"
#include "workload.h"

struct age_args {
	const char *path, *target, *profile, *record, *replay, *save;
	const char *check, *db, *scratch, *tag, *with, *ops;
	double fullness, tolerance, budget_x, time_s;
	uint64_t seed, budget, max_ops, survey_every;
	bool data, final_set, quiet;
};

static int set_fullness(const struct cmdopt *o, void *field, const char *arg,
			char *err, size_t errlen)
{
	double *f = field;
	char *end;

	(void)o;
	*f = strtod(arg, &end);
	if (end == arg || *end || !(*f > 0 && *f < 1)) {
		snprintf(err, errlen, "--fullness must be between 0 and 1, "
			 "not '%s'", arg);
		return -1;
	}
	return 0;
}

static int set_u64(const struct cmdopt *o, void *field, const char *arg,
		   char *err, size_t errlen)
{
	if (parse_u64(arg, field) < 0) {
		snprintf(err, errlen, "bad --%s '%s'", o->long_name, arg);
		return -1;
	}
	return 0;
}

static int set_positive(const struct cmdopt *o, void *field,
			const char *arg, char *err, size_t errlen)
{
	double *d = field;
	char *end;

	*d = strtod(arg, &end);
	if (end == arg || *end || !(*d > 0)) {
		snprintf(err, errlen, "bad --%s '%s'", o->long_name, arg);
		return -1;
	}
	return 0;
}

/* A size, or N x the filesystem's capacity.  Its row is on `path`, the
 * first member: it gets the whole struct age_args. */
static int set_budget(const struct cmdopt *o, void *field, const char *arg,
		      char *err, size_t errlen)
{
	struct age_args *a = field;
	size_t len = strlen(arg);
	char *end;

	(void)o;
	if (len && (arg[len - 1] == 'x' || arg[len - 1] == 'X')) {
		a->budget_x = strtod(arg, &end);
		if (end != arg + len - 1 || !(a->budget_x > 0)) {
			snprintf(err, errlen, "bad --budget '%s'", arg);
			return -1;
		}
	} else if (parse_size(arg, &a->budget) < 0) {
		snprintf(err, errlen, "bad --budget '%s': a size or Nx", arg);
		return -1;
	}
	return 0;
}

static int set_data(const struct cmdopt *o, void *field, const char *arg,
		    char *err, size_t errlen)
{
	bool *write = field;

	(void)o;
	if (!strcmp(arg, "write") || !strcmp(arg, "fallocate")) {
		*write = !strcmp(arg, "write");
		return 0;
	}
	snprintf(err, errlen, "--data is 'write' or 'fallocate', not '%s'",
		 arg);
	return -1;
}

static const struct cmdopt age_table[] = {
	CMDOPT_STR_C('t', "target", struct age_args, target, "SPEC",
		     CMDOPT_C_TARGET,
		     "build an owned target (as fslab run) and age its work "
		     "directory"),
	CMDOPT_STR_C('p', "profile", struct age_args, profile, "NAME|FILE",
		     CMDOPT_C_FILE,
		     "desktop (default), compile-farm, or a profile file"),
	CMDOPT_CB('f', "fullness", struct age_args, fullness, "F",
		  set_fullness, "target fullness of the filesystem (0.8)"),
	CMDOPT_CB('s', "seed", struct age_args, seed, "N", set_u64,
		  "seed of the op sequence (1)"),
	CMDOPT_STR(0, "ops", struct age_args, ops, "MIX",
		   "operation mix, e.g. create=4,delete=3,append=2,"
		   "truncate=1"),
	CMDOPT_CB(0, "budget", struct age_args, path, "N[x]", set_budget,
		  "stop after N bytes, or N x capacity (30x)"),
	CMDOPT_CB(0, "time", struct age_args, time_s, "SECS", set_positive,
		  "stop after this wall time (cuts the log)"),
	CMDOPT_CB(0, "max-ops", struct age_args, max_ops, "N", set_u64,
		  "stop after N operations"),
	CMDOPT_DBL(0, "tolerance", struct age_args, tolerance, "T", 0, 0,
		   "convergence distance (0.01)"),
	CMDOPT_CB(0, "data", struct age_args, data, "MODE", set_data,
		  "write (default) or fallocate"),
	CMDOPT_STR(0, "record", struct age_args, record, "LOG",
		   "write the op log"),
	CMDOPT_STR(0, "replay", struct age_args, replay, "LOG",
		   "apply an op log instead of a profile"),
	CMDOPT_BOOL(0, "final-set", struct age_args, final_set,
		    "with --replay: apply only the log's final file set, "
		    "written once (the fresh baseline)"),
	CMDOPT_STR_C(0, "with", struct age_args, with, "WL[:k=v]",
		     CMDOPT_C_WORKLOAD,
		     "run a workload (compilebench:runs=10) in the directory "
		     "first, as part of the aging"),
	CMDOPT_CB(0, "survey-every", struct age_args, survey_every, "K",
		  set_u64, "fragmentation survey every K operations"),
	CMDOPT_STR(0, "save", struct age_args, save, "NAME",
		   "keep the aged image as a golden copy (needs --target; use "
		   "it as aged:NAME)"),
	CMDOPT_STR(0, "check-golden", struct age_args, check, "NAME",
		   "restore NAME to a scratch copy and verify both checksums, "
		   "then exit"),
	/* not the shared --db: nothing is stored without it */
	CMDOPT_STR_C(0, "db", struct age_args, db, "PATH", CMDOPT_C_FILE,
		     "store the run (phases fill, age, survey)"),
	CMDOPT_STR_C(0, "scratch", struct age_args, scratch, "DIR",
		     CMDOPT_C_DIR,
		     "images, mount points, golden/ (/var/tmp/fslab)"),
	CMDOPT_STR(0, "tag", struct age_args, tag, "LABEL",
		   "tag of the stored run"),
	CMDOPT_BOOL('q', "quiet", struct age_args, quiet,
		    "no progress line"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_age_opts = {
	.name = "age",
	.summary = "age a filesystem to a profile or by replay",
	.usage = "PATH|--target SPEC [options]",
	.desc = "Age a filesystem: fill it to --fullness with files whose "
		"sizes and depths follow a profile, then create and delete "
		"(or apply an --ops mix) until size, depth and age "
		"distributions converge, the byte budget or the time limit; "
		"or replay an op log.  See doc/aging.md.",
	.opts = age_table,
	.args = CMDOPT_C_DIR,
};

/* The runner's handler: a --with workload then sees Ctrl-C too. */
#define age_stop phase_stop_requested()

/* State of one aging session. */
struct age_sess {
	struct age_args *a;
	struct target t;
	bool have_target;
	struct store *st;
	struct run_rec *run;
	struct wlrun_rec *wr;
	struct wl_ctx ctx;
	int base;            /* directory fd of the aged directory */
	FILE *rec;           /* --record */
	uint64_t ops, written;
	bool tty;
};

static struct run_rec *age_run_rec(int argc, char **argv, const char *tag,
				   uint64_t seed)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct utsname u;
	size_t len = 0;
	char *cmd;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	cmd = xcalloc(1, len + 1);
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(cmd, " ");
		strcat(cmd, argv[i]);
	}
	r->started = time(NULL);
	if (uname(&u) == 0) {
		r->host = xstrdup(u.nodename);
		r->kernel = xasprintf("%s %s", u.release, u.version);
	} else {
		r->host = xstrdup("unknown");
		r->kernel = xstrdup("unknown");
	}
	r->version = xstrdup(FSLAB_VERSION);
	r->cmdline = xasprintf("fslab %s", cmd);
	free(cmd);
	r->tag = tag ? xstrdup(tag) : NULL;
	r->seed = seed;
	r->status = xstrdup("running");
	return r;
}

/* Store every phase of the wlrun from index from on. */
static int store_phases(struct age_sess *s, size_t from)
{
	if (!s->st)
		return 0;
	for (size_t i = from; i < s->wr->nr_phases; i++)
		if (!s->wr->phases[i].id &&
		    store_phase_add(s->st, s->wr->id, &s->wr->phases[i]) < 0)
			return -1;
	return 0;
}

static int end_phase(struct age_sess *s, struct phase *ph)
{
	size_t n = s->wr->nr_phases;
	int rc = phase_end(&s->ctx, ph, NULL);

	if (store_phases(s, n) < 0)
		rc = -1;
	return rc;
}

static void add_freesp(struct phase_rec *p, const struct frag_freesp *fsp)
{
	if (!fsp->available)
		return;
	phase_rec_add_metric(p, "free_bytes", (double)fsp->free_bytes, "B",
			     BETTER_NONE);
	phase_rec_add_metric(p, "free_extents", (double)fsp->free_extents,
			     "extents", BETTER_LOWER);
	phase_rec_add_metric(p, "free_max_extent", (double)fsp->max_extent,
			     "B", BETTER_HIGHER);
	if (fsp->groups)
		phase_rec_add_metric(p, "free_group_frag_mean", fsp->grp_mean,
				     "%", BETTER_LOWER);
}

static double fs_fullness(const char *dir)
{
	struct statvfs sv;

	if (statvfs(dir, &sv) < 0 || !sv.f_blocks)
		return -1;
	return (double)(sv.f_blocks - sv.f_bfree) / (double)sv.f_blocks;
}

/* The fragmentation survey as a phase "survey" labelled label. */
static int survey(struct age_sess *s, const char *label,
		  const struct ager *ag)
{
	const char *paths[] = { s->ctx.dir };
	struct frag_result res;
	struct frag_freesp fsp;
	struct frag_opts o;
	struct phase *ph;
	struct phase_rec *p;
	size_t n;
	int rc;

	if (syncfs(s->base) < 0)
		return error_errno("cannot sync '%s'", s->ctx.dir);
	frag_opts_default(&o);
	frag_result_init(&res, NULL, 0);
	ph = phase_begin(&s->ctx, "survey", label);
	rc = frag_survey(paths, 1, &o, &res);
	if (rc < 0)
		phase_fail(ph, "fragmentation survey of '%s' failed",
			   s->ctx.dir);
	memset(&fsp, 0, sizeof(fsp));
	frag_freesp_probe(s->have_target && s->t.mnt ? s->t.mnt : s->ctx.dir,
			  &fsp);
	n = s->wr->nr_phases;
	rc = phase_end(&s->ctx, ph, NULL);
	p = &s->wr->phases[n];
	frag_to_phase_metrics(&res, p);
	add_freesp(p, &fsp);
	phase_rec_add_metric(p, "fullness", fs_fullness(s->ctx.dir), "",
			     BETTER_NONE);
	phase_rec_add_metric(p, "age_ops", (double)s->ops, "ops",
			     BETTER_NONE);
	if (ag) {
		struct ager_status as;

		ager_status(ag, &as);
		phase_rec_add_metric(p, "dist_size", as.dist[AGE_DIM_SIZE], "",
				     BETTER_LOWER);
		phase_rec_add_metric(p, "dist_depth", as.dist[AGE_DIM_DEPTH],
				     "", BETTER_LOWER);
		phase_rec_add_metric(p, "dist_age", as.dist[AGE_DIM_AGE], "",
				     BETTER_LOWER);
	}
	if (!s->a->quiet)
		fprintf(stderr, "fslab: age: survey %s: layout score %.4f, "
			"%llu files, %.2f extents/file\n", label,
			frag_layout_score(&res),
			(unsigned long long)res.files,
			res.files ? (double)res.extents / (double)res.files
				  : 0.0);
	frag_freesp_release(&fsp);
	frag_result_release(&res);
	if (store_phases(s, n) < 0)
		rc = -1;
	return rc;
}

static int apply(struct age_sess *s, const struct age_op *op)
{
	if (s->rec && oplog_write(s->rec, op) < 0)
		return error_errno("cannot write '%s'", s->a->record);
	if (oplog_apply(s->base, op, s->a->data) < 0)
		return -1;
	s->ops++;
	if (op->kind == AOP_CREATE || op->kind == AOP_APPEND)
		s->written += op->a;
	else if (op->kind == AOP_OVERWRITE)
		s->written += op->b;
	return 0;
}

static void progress(struct age_sess *s, const struct ager *ag, bool last)
{
	struct ager_status as;
	char w[32];

	if (s->a->quiet || !s->tty)
		return;
	ager_status(ag, &as);
	fprintf(stderr, "\r%s full %.1f%%/%.0f%%  ops %llu  files %llu  "
		"written %s  dist size %.4f depth %.4f age %.4f ",
		as.filling ? "fill" : "age ", 100 * as.fullness,
		100 * s->a->fullness, (unsigned long long)as.ops,
		(unsigned long long)as.files,
		fmt_size(w, sizeof(w), as.written), as.dist[AGE_DIM_SIZE],
		as.dist[AGE_DIM_DEPTH], as.dist[AGE_DIM_AGE]);
	if (last)
		fputc('\n', stderr);
}

static void phase_status_metrics(struct age_sess *s, size_t idx,
				 const struct ager *ag)
{
	struct ager_status as;
	struct phase_rec *p = &s->wr->phases[idx];

	ager_status(ag, &as);
	phase_rec_add_metric(p, "model_fullness", as.fullness, "",
			     BETTER_NONE);
	phase_rec_add_metric(p, "live_files", (double)as.files, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "dist_size", as.dist[AGE_DIM_SIZE], "",
			     BETTER_LOWER);
	phase_rec_add_metric(p, "dist_age", as.dist[AGE_DIM_AGE], "",
			     BETTER_LOWER);
}

/* A phase that applies ager ops until the fill ends (fill) or until
 * limit total ops / the end (age).  *done is set at the end. */
static int run_segment(struct age_sess *s, struct ager *ag, bool fill,
		       uint64_t limit, uint64_t deadline, bool *done)
{
	struct phase *ph;
	struct age_op op;
	uint64_t ops0 = s->ops, w0 = s->written;
	char label[64];
	size_t n;
	int rc = 0;

	snprintf(label, sizeof(label), "from op %llu",
		 (unsigned long long)s->ops);
	ph = phase_begin(&s->ctx, fill ? "fill" : "age", label);
	for (;;) {
		if (fill && !ager_filling(ag))
			break;
		if (!fill && limit && s->ops >= limit)
			break;
		if (age_stop) {
			phase_fail(ph, "interrupted by a signal");
			*done = true;
			break;
		}
		if (deadline && (s->ops & 63) == 0 && now_ns() >= deadline) {
			*done = true;
			fprintf(stderr, "%sfslab: age: time limit reached\n",
				s->tty && !s->a->quiet ? "\n" : "");
			break;
		}
		if (!ager_next(ag, &op)) {
			*done = true;
			break;
		}
		if (fill && op.kind != AOP_CREATE && op.kind != AOP_MKDIR) {
			BUG("fill emitted '%s'", oplog_kind_name(op.kind));
		}
		if (apply(s, &op) < 0) {
			phase_fail(ph, "operation %llu (%s %s) failed",
				   (unsigned long long)s->ops,
				   oplog_kind_name(op.kind), op.path);
			*done = true;
			rc = -1;
			break;
		}
		if ((s->ops & 1023) == 0)
			progress(s, ag, false);
	}
	phase_work(ph, s->written - w0, 0, s->ops - ops0);
	n = s->wr->nr_phases;
	if (phase_end(&s->ctx, ph, NULL) < 0)
		rc = -1;
	phase_status_metrics(s, n, ag);
	if (store_phases(s, n) < 0)
		rc = -1;
	return rc;
}

static int age_by_profile(struct age_sess *s)
{
	struct age_args *a = s->a;
	struct ager_params p = { 0 };
	struct age_profile prof;
	struct ager_status as;
	struct statvfs sv;
	struct ager *ag;
	uint64_t deadline = 0;
	bool done = false;
	char err[256];
	int rc = 0;

	if (profile_load(a->profile, &prof) < 0)
		return -1;
	if (statvfs(s->ctx.dir, &sv) < 0) {
		profile_release(&prof);
		return error_errno("cannot stat filesystem of '%s'",
				   s->ctx.dir);
	}
	p.prof = &prof;
	p.seed = a->seed;
	p.fullness = a->fullness;
	p.capacity = (uint64_t)sv.f_blocks * sv.f_frsize;
	p.base_used = (uint64_t)(sv.f_blocks - sv.f_bfree) * sv.f_frsize;
	p.bsize = sv.f_bsize;
	p.tolerance = a->tolerance;
	p.max_ops = a->max_ops;
	p.budget = a->budget ? a->budget :
		   (uint64_t)(a->budget_x * (double)p.capacity);
	if (a->ops && ager_parse_ops(a->ops, p.weights, err,
				     sizeof(err)) < 0) {
		profile_release(&prof);
		return error("%s", err);
	}
	ag = ager_new(&p);
	if (!ag) {
		profile_release(&prof);
		return -1;
	}
	if (a->time_s > 0)
		deadline = now_ns() + (uint64_t)(a->time_s * 1e9);
	rc = run_segment(s, ag, true, 0, deadline, &done);
	while (!rc && !done) {
		uint64_t limit = a->survey_every ?
				 (s->ops / a->survey_every + 1) *
				 a->survey_every : 0;
		char label[64];

		rc = run_segment(s, ag, false, limit, deadline, &done);
		if (!rc && !done && a->survey_every) {
			snprintf(label, sizeof(label), "op %llu",
				 (unsigned long long)s->ops);
			rc = survey(s, label, ag);
		}
	}
	progress(s, ag, true);
	ager_status(ag, &as);
	if (!rc)
		rc = survey(s, "final", ag);
	printf("age: profile %s, seed %llu: %llu ops (fill %llu), %llu "
	       "files, %llu dirs, %.1f GiB written\n", prof.name,
	       (unsigned long long)a->seed, (unsigned long long)as.ops,
	       (unsigned long long)as.fill_ops,
	       (unsigned long long)as.files, (unsigned long long)as.dirs,
	       (double)as.written / (1 << 30));
	printf("age: fullness %.2f%% (model %.2f%%, target %.2f%%); "
	       "distance size %.4f depth %.4f age %.4f (tolerance %g); "
	       "stopped: %s\n", 100 * fs_fullness(s->ctx.dir),
	       100 * as.fullness, 100 * a->fullness, as.dist[AGE_DIM_SIZE],
	       as.dist[AGE_DIM_DEPTH], as.dist[AGE_DIM_AGE], a->tolerance,
	       as.stop ? as.stop : age_stop ? "signal" : rc ? "error" :
	       "time limit");
	ager_free(ag);
	profile_release(&prof);
	return rc;
}

static int age_by_replay(struct age_sess *s)
{
	FILE *log = fopen(s->a->replay, "re"), *src = log;
	char *line = NULL, err[256];
	size_t cap = 0;
	long lineno = 0;
	struct phase *ph;
	int rc = 0;

	if (!log)
		return error_errno("cannot open '%s'", s->a->replay);
	if (s->a->final_set) {
		src = tmpfile();
		if (!src) {
			fclose(log);
			return error_errno("cannot create a temporary file");
		}
		if (oplog_final_set(log, s->a->replay, src) < 0) {
			fclose(log);
			fclose(src);
			return -1;
		}
		rewind(src);
	}
	ph = phase_begin(&s->ctx, "replay", s->a->replay);
	while (getline(&line, &cap, src) >= 0) {
		struct age_op op;
		int r;

		lineno++;
		if (age_stop) {
			phase_fail(ph, "interrupted by a signal");
			rc = -1;
			break;
		}
		r = oplog_parse_line(line, &op, err, sizeof(err));
		if (r < 0) {
			rc = error("%s:%ld: %s", s->a->replay, lineno, err);
			phase_fail(ph, "%s:%ld: %s", s->a->replay, lineno,
				   err);
			break;
		}
		if (r && apply(s, &op) < 0) {
			phase_fail(ph, "%s:%ld failed", s->a->replay, lineno);
			rc = -1;
			break;
		}
	}
	phase_work(ph, s->written, 0, s->ops);
	if (end_phase(s, ph) < 0)
		rc = -1;
	free(line);
	if (src != log)
		fclose(src);
	fclose(log);
	printf("age: replayed %llu ops from '%s'%s\n",
	       (unsigned long long)s->ops, s->a->replay,
	       s->a->final_set ? " (final set)" : "");
	if (!rc)
		rc = survey(s, "final", NULL);
	return rc;
}

/* --with WL: the workload's own run() in a subdirectory. */
static int age_with(struct age_sess *s)
{
	struct run_workload w;
	struct wl_ctx c = s->ctx;
	char err[512];
	char *dir;
	size_t n = s->wr->nr_phases;
	int rc;

	if (run_workload_parse(s->a->with, &w, err, sizeof(err)) < 0)
		return error("%s", err);
	dir = xasprintf("%s/with-%s", s->ctx.dir, w.wl->name);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		rc = error_errno("cannot create '%s'", dir);
		goto out;
	}
	c.dir = c.shared_dir = dir;
	rc = w.wl->run(&c, w.opts);
	/* Its phases join the "age" run under a prefixed name. */
	for (size_t i = n; i < s->wr->nr_phases; i++) {
		char *nm = xasprintf("%s/%s", w.wl->name,
				     s->wr->phases[i].name);

		free(s->wr->phases[i].name);
		s->wr->phases[i].name = nm;
	}
	if (store_phases(s, n) < 0)
		rc = -1;
out:
	free(dir);
	run_workload_release(&w);
	return rc;
}

static int check_golden(const struct age_args *a)
{
	struct golden_meta m;
	char *img, *copy, s1[64], s2[64];
	int rc = EXIT_RUNTIME;

	if (golden_load_meta(a->scratch, a->check, &m) < 0)
		return EXIT_USAGE;
	img = golden_image_path(a->scratch, a->check);
	copy = xasprintf("%s/golden/.check-%ld.img", a->scratch,
			 (long)getpid());
	if (state_record("image", copy) < 0)
		goto out;
	if (golden_copy(img, copy) == 0 &&
	    golden_checksum(img, s1, sizeof(s1)) == 0 &&
	    golden_checksum(copy, s2, sizeof(s2)) == 0) {
		printf("golden %s: recorded %s\n", a->check, m.checksum);
		printf("golden %s: image    %s\n", a->check, s1);
		printf("golden %s: restored %s\n", a->check, s2);
		if (!strcmp(s1, m.checksum) && !strcmp(s2, m.checksum))
			rc = EXIT_OK;
		else
			error("aged image '%s' does not match its checksum",
			      a->check);
	}
	unlink(copy);
	state_done("image", copy);
out:
	state_finish();
	free(img);
	free(copy);
	golden_meta_release(&m);
	return rc;
}

static int save_golden(struct age_sess *s)
{
	struct golden_meta m = { 0 };
	char *scratch;
	int rc;

	if (target_unmount(&s->t) < 0)
		return -1;
	scratch = realpath(s->a->scratch, NULL);
	if (!scratch)
		return error_errno("cannot resolve '%s'", s->a->scratch);
	m.fstype = s->t.fstype ? xstrdup(s->t.fstype) : NULL;
	m.mkfs_args = s->t.spec.mkfs_args ? xstrdup(s->t.spec.mkfs_args)
					  : NULL;
	m.mount_opts = s->t.spec.mount_opts ?
		       xstrdup(s->t.spec.mount_opts) : NULL;
	m.mkfs_version = s->t.mkfs_version ? xstrdup(s->t.mkfs_version)
					   : NULL;
	m.profile = xstrdup(s->a->replay ? s->a->replay : s->a->profile);
	m.source = xstrdup(s->t.spec.spec);
	m.seed = s->a->seed;
	m.ops = s->ops;
	m.fullness = s->a->fullness;
	rc = golden_save(scratch, s->a->save, s->t.image, &m);
	if (!rc)
		printf("age: saved '%s' (%s) as %s/golden/%s.img; use it as "
		       "--target aged:%s\n", s->a->save, m.checksum, scratch,
		       s->a->save, s->a->save);
	golden_meta_release(&m);
	free(scratch);
	return rc;
}

/* -1 to go on, or the exit code (help printed, or a usage error). */
static int parse_args(int argc, char **argv, struct age_args *a)
{
	int optind;

	memset(a, 0, sizeof(*a));
	a->profile = "desktop";
	a->fullness = 0.8;
	a->seed = 1;
	a->tolerance = 0.01;
	a->budget_x = 30;
	a->data = true;
	a->scratch = TARGET_DEFAULT_SCRATCH;
	optind = cmdopt_parse(&cmd_age_opts, argc, argv, a);
	if (optind < 0)
		return cmdopt_exit(optind);
	if (a->check)
		return -1;
	if (optind < argc)
		a->path = argv[optind++];
	if (optind < argc)
		return cmdopt_usage_error(&cmd_age_opts, "unexpected argument "
					  "'%s'", argv[optind]);
	if (!!a->path == !!a->target)
		return cmdopt_usage_error(&cmd_age_opts, "name either a "
					  "directory PATH or --target SPEC");
	if (a->record && a->replay)
		return cmdopt_usage_error(&cmd_age_opts, "--record and "
					  "--replay exclude each other");
	if (a->final_set && !a->replay)
		return cmdopt_usage_error(&cmd_age_opts, "--final-set needs "
					  "--replay");
	if (a->save && !a->target)
		return cmdopt_usage_error(&cmd_age_opts, "--save needs "
					  "--target (an owned loop image)");
	if (a->save && !golden_name_ok(a->save))
		return cmdopt_usage_error(&cmd_age_opts, "bad --save name "
					  "'%s': letters, digits, '.', '_', "
					  "'-'", a->save);
	return -1;
}

int cmd_age(int argc, char **argv)
{
	struct age_args a;
	struct age_sess s;
	struct target_spec ts;
	struct target_env env = { 0 };
	char err[512], *spec;
	int rc, ret = EXIT_RUNTIME;

	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	if (a.check)
		return check_golden(&a);
	if (!a.replay) {
		/* A bad profile or mix is a usage error, found before any
		 * target is built. */
		struct age_profile prof;
		unsigned w[AOP_NR_KINDS];

		if (profile_load(a.profile, &prof) < 0)
			return EXIT_USAGE;
		profile_release(&prof);
		if (a.ops && ager_parse_ops(a.ops, w, err, sizeof(err)) < 0) {
			error("%s", err);
			return EXIT_USAGE;
		}
	}
	memset(&s, 0, sizeof(s));
	s.a = &a;
	s.base = -1;
	s.tty = isatty(STDERR_FILENO);
	spec = a.target ? xstrdup(a.target) : xasprintf("dir:%s", a.path);
	if (target_spec_parse(spec, &ts, err, sizeof(err)) < 0) {
		free(spec);
		error("%s", err);
		return EXIT_USAGE;
	}
	free(spec);
	if (a.save && ts.kind != TARGET_LOOP && ts.kind != TARGET_AGED) {
		target_spec_release(&ts);
		error("--save needs a loop target, not '%s'", a.target);
		return EXIT_USAGE;
	}
	runner_install_signals();
	env.scratch = a.scratch;
	env.tag = a.tag;
	rc = target_setup(&s.t, &ts, &env);
	target_spec_release(&ts);
	if (rc < 0) {
		state_finish();
		return rc == -2 ? EXIT_USAGE : EXIT_RUNTIME;
	}
	s.have_target = true;

	s.run = age_run_rec(argc, argv, a.tag, a.seed);
	if (a.db) {
		struct target_rec *tr;

		if (store_open(a.db, &s.st) < 0 ||
		    store_run_begin(s.st, s.run) < 0)
			goto out;
		tr = run_rec_new_target(s.run);
		target_to_rec(&s.t, tr);
		if (store_target_add(s.st, s.run->id, tr) < 0)
			goto out;
	} else {
		target_to_rec(&s.t, run_rec_new_target(s.run));
	}
	s.wr = run_rec_new_wlrun(s.run);
	s.wr->workload = xstrdup("age");
	s.wr->target_id = s.run->targets[0].id;
	s.wr->options = a.replay ?
		xasprintf("replay=%s,final-set=%d,data=%s", a.replay,
			  a.final_set, a.data ? "write" : "fallocate") :
		xasprintf("profile=%s,fullness=%g,seed=%llu,ops=%s,"
			  "tolerance=%g,data=%s", a.profile, a.fullness,
			  (unsigned long long)a.seed, a.ops ? a.ops : "",
			  a.tolerance, a.data ? "write" : "fallocate");
	s.wr->status = xstrdup("running");
	if (s.st && store_wlrun_begin(s.st, s.run->id, s.wr) < 0)
		goto out;

	s.ctx.dir = s.ctx.shared_dir = s.t.workdir;
	s.ctx.seed = a.seed;
	s.ctx.target = &s.t;
	s.ctx.progress = stderr;
	s.ctx.wlrun = s.wr;
	s.ctx.nranks = 1;
	s.base = open(s.t.workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s.base < 0) {
		error_errno("cannot open '%s'", s.t.workdir);
		goto out;
	}
	if (a.record) {
		s.rec = fopen(a.record, "we");
		if (!s.rec) {
			error_errno("cannot create '%s'", a.record);
			goto out;
		}
		fprintf(s.rec, "%s\n", OPLOG_HEADER);
	}
	if (a.with && age_with(&s) < 0)
		goto out;
	rc = a.replay ? age_by_replay(&s) : age_by_profile(&s);
	if (s.rec && fclose(s.rec) < 0)
		rc = error_errno("cannot write '%s'", a.record);
	s.rec = NULL;
	if (rc)
		goto out;
	close(s.base);
	s.base = -1;
	if (a.save && save_golden(&s) < 0)
		goto out;
	ret = EXIT_OK;
out:
	if (s.rec)
		fclose(s.rec);
	if (s.base >= 0)
		close(s.base);
	if (s.st) {
		const char *st = age_stop ? "interrupted" :
				 ret ? "failed" : "complete";

		if (s.wr && s.wr->id)
			store_wlrun_finish(s.st, s.wr->id, st);
		if (s.run->id)
			store_run_finish(s.st, s.run->id,
					 ret ? "failed" : "complete");
		store_close(s.st);
	}
	run_rec_free(s.run);
	if (target_teardown(&s.t) < 0)
		ret = EXIT_RUNTIME;
	state_finish();
	return ret;
}
