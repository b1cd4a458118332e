/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.c - the aging engine around the ager: the decisions are the
 * ager's (age/ager.c); this file applies them to the target, measures
 * them as phases, surveys fragmentation, and reports.  `fslab age` is
 * only its command line (cmd/age.c).
 */
#include "age/session.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "age/ager.h"
#include "fs/golden.h"
#include "age/oplog.h"
#include "age/profile.h"
#include "frag/frag.h"
#include "fs/state.h"
#include "fs/target.h"
#include "run/runner.h"
#include "store/writer.h"
#include "util/strbuf.h"
#include "util/interrupt.h"
#include "util/opt.h"
#include "util/outfile.h"
#include "util/util.h"
#include "util/version.h"
#include "phase/workload.h"

/* The runner's handler: a --with workload then sees Ctrl-C too. */
#define age_stop phase_stop_requested()

/* State of one aging session. */
struct age_sess {
	struct age_args *a;
	struct target t;
	bool have_target;
	struct run_writer w;  /* the "age" run: stored with --db */
	struct wlrun_rec *wr;
	struct wl_ctx ctx;
	int base;            /* directory fd of the aged directory */
	FILE *rec;           /* --record, the stream of rec_of */
	struct outfile rec_of;
	uint64_t ops, written;
	bool tty;
};

/*
 * The stored options of the "age" workload run, in the canonical k=v
 * form of util/opt.h, as every workload run's are (opt_format).
 */
struct age_stored {
	char *profile, *ops, *replay;
	double fullness, tolerance;
	uint64_t seed;
	bool final_set;
	int data;
};

static const struct opt_enum age_data_values[] = {
	{ "fallocate", 0, "space is allocated, not written" },
	{ "write", 1, "file data is written" },
	{ NULL, 0, NULL },
};

#define AGE_OPT(n, t, f) { n, t, offsetof(struct age_stored, f), NULL, \
			   NULL, 0, 0, NULL }
static const struct opt age_profile_opts[] = {
	AGE_OPT("profile", OPT_STRING, profile),
	AGE_OPT("fullness", OPT_DOUBLE, fullness),
	AGE_OPT("seed", OPT_SIZE, seed),
	AGE_OPT("ops", OPT_STRING, ops),
	AGE_OPT("tolerance", OPT_DOUBLE, tolerance),
	{ "data", OPT_ENUM, offsetof(struct age_stored, data), NULL, NULL, 0,
	  0, age_data_values },
	OPT_END,
};
static const struct opt age_replay_opts[] = {
	AGE_OPT("replay", OPT_STRING, replay),
	AGE_OPT("final-set", OPT_BOOL, final_set),
	{ "data", OPT_ENUM, offsetof(struct age_stored, data), NULL, NULL, 0,
	  0, age_data_values },
	OPT_END,
};

static char *age_options(const struct age_args *a)
{
	struct age_stored o = {
		.profile = (char *)a->profile, .ops = (char *)a->ops,
		.replay = (char *)a->replay, .fullness = a->fullness,
		.tolerance = a->tolerance, .seed = a->seed,
		.final_set = a->final_set, .data = a->data,
	};

	return opt_format(a->replay ? age_replay_opts : age_profile_opts, &o);
}

static struct run_rec *age_run_rec(int argc, char **argv, const char *tag,
				   uint64_t seed)
{
	char *cmd = argv_join("fslab", argc, argv);
	struct run_rec *r = run_rec_begin(cmd, tag, seed);

	free(cmd);
	return r;
}

/*
 * The aging session's own phases, declared as a workload declares its
 * .phases (phase_begin() checks them); "age" is no registered workload.
 */
static const char *const age_phase_names[] = { "fill", "age", "survey",
					       "replay", NULL };
static const struct workload age_wl = {
	.name = "age",
	.phases = age_phase_names,
};

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
	struct phase_rec fig = { 0 }, *p = &fig;
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
	/* The figures, built as a record, join the phase before it ends:
	 * phase_end() hands the finished record to the writer. */
	frag_to_phase_metrics(&res, p);
	frag_freesp_to_phase_metrics(&fsp, p);
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
	phase_metrics_copy(ph, p);
	phase_work(ph, p->bytes, p->files, 0);
	rc = phase_end(&s->ctx, ph, NULL);
	phase_rec_release(p);
	if (!s->a->quiet)
		fprintf(stderr, "fslab: age: survey %s: layout score %.4f, "
			"%llu files, %.2f extents/file\n", label,
			frag_layout_score(&res),
			(unsigned long long)res.files,
			res.files ? (double)res.extents / (double)res.files
				  : 0.0);
	frag_freesp_release(&fsp);
	frag_result_release(&res);
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

static void phase_status_metrics(struct phase *ph, const struct ager *ag)
{
	struct ager_status as;

	ager_status(ag, &as);
	phase_metric(ph, "model_fullness", as.fullness, "", BETTER_NONE);
	phase_metric(ph, "live_files", (double)as.files, "files",
		     BETTER_NONE);
	phase_metric(ph, "dist_size", as.dist[AGE_DIM_SIZE], "",
		     BETTER_LOWER);
	phase_metric(ph, "dist_age", as.dist[AGE_DIM_AGE], "", BETTER_LOWER);
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
	phase_status_metrics(ph, ag);
	if (phase_end(&s->ctx, ph, NULL) < 0)
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
	if (phase_end(&s->ctx, ph, NULL) < 0)
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
	int rc;

	if (run_workload_parse(s->a->with, &w, err, sizeof(err)) < 0)
		return error("%s", err);
	dir = xasprintf("%s/with-%s", s->ctx.dir, w.wl->name);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		rc = error_errno("cannot create '%s'", dir);
		goto out;
	}
	c.dir = c.shared_dir = dir;
	/* Its phases join the "age" run under a prefixed name. */
	c.wl = w.wl;
	c.opts = w.opts;
	c.phase_prefix = w.wl->name;
	rc = w.wl->run(&c, w.opts);
out:
	free(dir);
	run_workload_release(&w);
	return rc;
}

int age_check_golden(const struct age_args *a)
{
	struct golden_meta m;
	char *img, *copy, s1[64], s2[64];
	int rc = EXIT_RUNTIME;

	if (golden_load_meta(a->scratch, a->check, &m) < 0)
		return EXIT_USAGE;
	img = golden_image_path(a->scratch, a->check);
	copy = xasprintf("%s/golden/.check-%ld.img", a->scratch,
			 (long)getpid());
	/* cleanup acts only on images inside a journaled scratch */
	if (state_scratch(a->scratch) < 0 || state_record("image", copy) < 0)
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
	/* The image's own directory is the effective scratch: under a sticky
	 * --scratch it is fslab's private fslab.UID beneath it, which is
	 * also where aged:NAME looks for golden images. */
	scratch = xstrndup(s->t.image,
			   (size_t)(strrchr(s->t.image, '/') - s->t.image));
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

int age_session(struct age_args *ap, int argc, char **argv)
{
	struct age_args a = *ap;
	struct age_sess s;
	struct target_spec ts;
	struct target_env env = { 0 };
	struct target_rec tr = { 0 };
	struct wlrun_rec wr = { .pos = -1 };
	char err[512], *spec;
	int rc, ret = EXIT_RUNTIME;

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
	env.age = ager_age_default;
	rc = target_setup(&s.t, &ts, &env);
	target_spec_release(&ts);
	if (rc < 0) {
		state_finish();
		return rc == -2 ? EXIT_USAGE : EXIT_RUNTIME;
	}
	s.have_target = true;

	if (writer_begin(&s.w, a.db, age_run_rec(argc, argv, a.tag,
						 a.seed)) < 0)
		goto out;
	target_to_rec(&s.t, &tr);
	if (writer_target(&s.w, &tr, NULL) < 0)
		goto out;
	wr.workload = xstrdup("age");
	wr.options = age_options(&a);
	if (writer_wlrun_begin(&s.w, &wr, &s.wr) < 0)
		goto out;

	s.ctx.dir = s.ctx.shared_dir = s.t.workdir;
	s.ctx.seed = a.seed;
	s.ctx.target = &s.t;
	s.ctx.progress = stderr;
	s.ctx.wlrun = s.wr;
	s.ctx.wl = &age_wl;
	s.ctx.writer = &s.w;
	s.ctx.nranks = 1;
	if (a.record) {
		s.rec = outfile_open(&s.rec_of, a.record);
		if (!s.rec)
			goto out;
		fprintf(s.rec, "%s\n", OPLOG_HEADER);
	}
	if (a.with && age_with(&s) < 0)
		goto out;
	/* Opened after --with: a workload that makes its cache cold
	 * unmounts the target, which a held directory would keep busy. */
	s.base = open(s.t.workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s.base < 0) {
		error_errno("cannot open '%s'", s.t.workdir);
		goto out;
	}
	rc = a.replay ? age_by_replay(&s) : age_by_profile(&s);
	/* Kept also when the aging failed: the operations done so far
	 * replay to the state it stopped in. */
	if (s.rec && outfile_commit(&s.rec_of) < 0)
		rc = -1;
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
		outfile_abort(&s.rec_of);
	if (s.base >= 0)
		close(s.base);
	if (s.w.run) {
		if (s.wr)
			writer_wlrun_finish(&s.w, s.wr, age_stop ? "interrupted"
					    : ret ? "failed" : "complete");
		writer_finish(&s.w, ret ? "failed" : "complete");
		writer_close(&s.w);
	}
	if (target_teardown(&s.t) < 0)
		ret = EXIT_RUNTIME;
	state_finish();
	/* Interrupted: 128 + N, as `fslab run` (README, exit codes). */
	if (age_stop && interrupt_signal())
		ret = 128 + interrupt_signal();
	return ret;
}
