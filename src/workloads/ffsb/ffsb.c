/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ffsb.c - run FFSB (Flexible Filesystem Benchmark) profiles natively:
 * create the profile's file set (phase "setup"), then let its thread
 * groups draw weighted operations against it for `time` seconds (phase
 * "run", final sync included), and report FFSB's transactions table.
 *
 * The profile grammar, the transaction counting and the draws live in
 * profile.c (pure, unit-tested); ops.c owns the file table shared by
 * the threads and the I/O of each operation, report.c the report, and
 * this file the setup, the timed run and what it records.
 * Besides FFSB's own figures it records what FFSB lacks: per-op latency
 * percentiles, fsyncs/s, files/s, the machine's CPU and the seed.
 */
#include "workloads/ffsb/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "stats/lathist.h"
#include "stats/stats.h"
#include "util/util.h"
#include "util/verify.h"
#include "workloads/registry.h"

struct ffsb_opts {
	char *profile;
	long long time;
	long long seed;
};

#define OFF(f) offsetof(struct ffsb_opts, f)
static const struct opt ffsb_opt_table[] = {
	{ "profile", OPT_STRING, OFF(profile), "",
	  "FFSB profile file (empty: the built-in small-create+fsync "
	  "profile of the FLEX_BG mail)", 0, 0, NULL },
	{ "time", OPT_INT, OFF(time), "0",
	  "seconds of the timed run (0: the profile's 'time')", 0,
	  100000000, NULL },
	{ "seed", OPT_SEED, OFF(seed), OPT_SEED_DEFAULT,
	  "seed of the op and size draws", 0, 0, NULL },
	OPT_END,
};

static const char *const ffsb_phase_names[] = { "setup", "run", NULL };

static int load_profile(const struct ffsb_opts *o, struct ffsb_profile *p,
			char *err, size_t errlen)
{
	if (o->profile && *o->profile)
		return ffsb_profile_load(o->profile, p, err, errlen);
	return ffsb_profile_parse(ffsb_builtin_profile, "built-in", p, err,
				  errlen);
}

static int ffsb_check(const void *vopts, char *err, size_t errlen)
{
	const struct ffsb_opts *o = vopts;
	struct ffsb_profile p;

	if (load_profile(o, &p, err, errlen) < 0)
		return -1;
	if (!o->time && !p.time) {
		snprintf(err, errlen, "%s: the profile has no 'time' and no "
			 "time= option was given", p.file);
		ffsb_profile_release(&p);
		return -1;
	}
	ffsb_profile_release(&p);
	return 0;
}

static char *aligned_buf(size_t size, uint64_t seed)
{
	void *p;
	struct pyrand r;

	if (posix_memalign(&p, 4096, size))
		die("out of memory");
	/* incompressible, so compressing filesystems do the real work */
	pyrand_seed(&r, seed);
	for (size_t i = 0; i + 4 <= size; i += 4) {
		uint32_t v = pyrand_u32(&r);

		memcpy((char *)p + i, &v, 4);
	}
	return p;
}

static int open_dir_at(int dfd, const char *path, const char *name,
		       bool create)
{
	int fd;

	if (create && mkdirat(dfd, name, 0755) && errno != EEXIST)
		return error_errno("cannot create directory '%s/%s'", path,
				   name);
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open directory '%s/%s'", path,
				   name);
	return fd;
}

static int set_open(struct ffsb_run *r, size_t i)
{
	struct fset *s = &r->sets[i];
	const char *base = r->ctx->dir;
	char d[32];
	int bfd;

	s->fs = &r->p.fs[i];
	s->data_fd = s->meta_fd = -1;
	pthread_mutex_init(&s->lock, NULL);
	/* one filesystem: the target's directory; more: fsN under it */
	if (r->p.nr_fs == 1) {
		s->dir = xstrdup(base);
		s->rel = xstrdup("data");
	} else {
		s->dir = xasprintf("%s/fs%zu", base, i);
		s->rel = xasprintf("fs%zu/data", i);
	}
	if (r->p.nr_fs > 1 && mkdir(s->dir, 0755) && errno != EEXIST)
		return error_errno("cannot create directory '%s'", s->dir);
	bfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0)
		return error_errno("cannot open '%s'", s->dir);
	s->data_fd = open_dir_at(bfd, s->dir, "data", true);
	if (s->data_fd >= 0)
		s->meta_fd = open_dir_at(bfd, s->dir, "meta", true);
	close(bfd);
	if (s->meta_fd < 0)
		return -1;
	for (uint64_t k = 0; k < s->fs->num_dirs; k++) {
		snprintf(d, sizeof(d), "d%llu", (unsigned long long)k);
		if (mkdirat(s->data_fd, d, 0755) && errno != EEXIST)
			return error_errno("cannot create directory "
					   "'%s/data/%s'", s->dir, d);
	}
	return 0;
}

static void set_close(struct fset *s)
{
	if (s->data_fd >= 0)
		close(s->data_fd);
	if (s->meta_fd >= 0)
		close(s->meta_fd);
	pthread_mutex_destroy(&s->lock);
	free(s->dir);
	free(s->rel);
	free(s->slots);
	free(s->live);
	free(s->freed);
}

/* Bytes the initial file set must reach beyond num_files (init_*). */
static uint64_t init_target(const struct fset *s)
{
	struct statvfs sv;
	double total, used, want;

	if (s->fs->init_size)
		return s->fs->init_size;
	if (s->fs->init_util <= 0 || statvfs(s->dir, &sv))
		return 0;
	total = (double)sv.f_blocks * (double)sv.f_frsize;
	used = total - (double)sv.f_bfree * (double)sv.f_frsize;
	want = s->fs->init_util * total - used;
	return want > 0 ? (uint64_t)want : 0;
}

/* The initial file set: num_files files (and up to init_size/util). */
static int setup_set(struct fset *s, struct phase *ph, struct pyrand *rng,
		     char *buf, const struct wl_ctx *ctx)
{
	uint64_t target = init_target(s), bytes = 0, files = 0;
	uint64_t bs = s->fs->create_blocksize;
	char name[64];

	for (uint64_t n = 0; n < s->fs->num_files || bytes < target; n++) {
		uint64_t size = ffsb_choose_size(s->fs, rng);
		uint32_t id;
		int fd;

		if (phase_stop_requested())
			break;
		id = ffsb_slot_new(s);
		ffsb_slot_name(s, id, name, sizeof(name));
		fd = openat(s->data_fd, name, O_WRONLY | O_CREAT | O_TRUNC |
			    O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			phase_fail(ph, "cannot create '%s/data/%s': %s",
				   s->dir, name, strerror(errno));
			return error_errno("cannot create '%s/data/%s'",
					   s->dir, name);
		}
		for (uint64_t left = size; left;) {
			size_t cur = left < bs ? (size_t)left : (size_t)bs;

			if (ctx->verify)
				verify_fill(ctx->seed, ffsb_file_vid(s, name),
					    size - left, buf, cur);
			if (write_full(fd, buf, cur)) {
				int e = errno;

				close(fd);
				phase_fail(ph, "cannot write '%s/data/%s': "
					   "%s", s->dir, name, strerror(e));
				return error("cannot write '%s/data/%s': %s",
					     s->dir, name, strerror(e));
			}
			left -= cur;
		}
		if (close(fd)) {
			phase_fail(ph, "cannot close '%s/data/%s': %s",
				   s->dir, name, strerror(errno));
			return error_errno("cannot close '%s/data/%s'",
					   s->dir, name);
		}
		ffsb_slot_publish(s, id, size);
		bytes += size;
		files++;
	}
	phase_work(ph, bytes, files, files);
	return 0;
}

static const char *profile_label(const struct ffsb_profile *p)
{
	const char *slash = strrchr(p->file, '/');

	return slash ? slash + 1 : p->file;
}

static int do_setup(struct ffsb_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "setup", profile_label(&r->p));
	uint64_t bs = 4096;
	struct pyrand rng;
	char *buf;
	int ret = 0;

	for (size_t i = 0; i < r->p.nr_fs; i++)
		if (r->p.fs[i].create_blocksize > bs)
			bs = r->p.fs[i].create_blocksize;
	buf = aligned_buf((size_t)bs, r->seed);
	pyrand_seed(&rng, ffsb_thread_seed(r->seed, UINT_MAX));
	for (size_t i = 0; i < r->nr_sets && !ret; i++)
		ret = setup_set(&r->sets[i], ph, &rng, buf, r->ctx);
	if (!ret && !phase_stop_requested() && wl_sync(r->ctx)) {
		phase_fail(ph, "sync failed");
		ret = -1;
	}
	free(buf);
	if (phase_end(r->ctx, ph, NULL) < 0)
		ret = -1;
	return ret;
}

static double ns_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL +
	       (uint64_t)tv->tv_usec * 1000ULL;
}

/* Expected share of op among all calls: FFSB's "% Op Weight". */
static double ffsb_weight_pct(const struct ffsb_profile *p, enum ffsb_op op)
{
	double threads = 0, share = 0;

	for (size_t i = 0; i < p->nr_tg; i++) {
		const struct ffsb_tg *tg = &p->tg[i];

		threads += tg->num_threads;
		share += (double)tg->num_threads * tg->weight[op] /
			 ffsb_tg_total_weight(tg);
	}
	return threads ? 100.0 * share / threads : 0.0;
}

void ffsb_metric_name(char *buf, size_t len, enum ffsb_op op,
			const char *what)
{
	snprintf(buf, len, "%s.%s", ffsb_op_name(op), what);
}

/* Percent of the filesystem holding dir in use, as df counts it; NaN
 * when it cannot be read. */
static double fullness_pct(const char *dir)
{
	struct statvfs sv;
	double total, avail;

	if (statvfs(dir, &sv) || !sv.f_blocks)
		return NAN;
	total = (double)sv.f_blocks;
	avail = (double)sv.f_bavail;
	/* used over what a user can fill (df's Use%) */
	return 100.0 * (total - (double)sv.f_bfree) /
	       (total - (double)sv.f_bfree + avail);
}

static void record_run(struct ffsb_run *r, struct phase *ph,
		       uint64_t elapsed, uint64_t sync_ns, uint64_t cpu_user,
		       uint64_t cpu_sys)
{
	uint64_t trans[FFSB_OP_NR] = { 0 }, calls[FFSB_OP_NR] = { 0 };
	uint64_t bytes[FFSB_OP_NR] = { 0 }, total = 0;
	uint64_t rbytes = 0, wbytes = 0, fsyncs = 0, created = 0;
	uint64_t deleted = 0;
	struct lathist *lat = xcalloc(FFSB_OP_NR, sizeof(*lat));
	double secs = ns_s(elapsed) > 0 ? ns_s(elapsed) : 1e-9;
	char name[96];

	for (int op = 0; op < FFSB_OP_NR; op++)
		lathist_init(&lat[op]);
	for (size_t i = 0; i < r->nr_w; i++) {
		struct worker *w = &r->w[i];
		uint64_t wt = 0;

		for (int op = 0; op < FFSB_OP_NR; op++) {
			trans[op] += w->trans[op];
			calls[op] += w->calls[op];
			bytes[op] += w->bytes[op];
			wt += w->trans[op];
			lathist_merge(&lat[op], &w->lat[op]);
		}
		total += wt;
		rbytes += w->rbytes;
		wbytes += w->wbytes;
		fsyncs += w->fsyncs;
		created += w->created;
		deleted += w->deleted;
		phase_worker(ph, w->index, w->start_rt, w->end_rt,
			     w->rbytes + w->wbytes, w->created, wt);
	}
	for (int i = 0; i < FFSB_OP_NR; i++) {
		enum ffsb_op op = (enum ffsb_op)i;
		double wp = ffsb_weight_pct(&r->p, op);

		if (!wp && !calls[op])
			continue;
		ffsb_metric_name(name, sizeof(name), op, "transactions");
		phase_metric(ph, name, (double)trans[op], "transactions",
			     BETTER_NONE);
		ffsb_metric_name(name, sizeof(name), op, "transactions/s");
		phase_metric(ph, name, (double)trans[op] / secs,
			     "transactions/s", BETTER_HIGHER);
		ffsb_metric_name(name, sizeof(name), op, "ffsb_weight_pct");
		phase_metric(ph, name, wp, "%", BETTER_NONE);
		ffsb_metric_name(name, sizeof(name), op, "calls");
		phase_metric(ph, name, (double)calls[op], "ops", BETTER_NONE);
		ffsb_metric_name(name, sizeof(name), op, "data_B");
		phase_metric(ph, name, (double)bytes[op], "B", BETTER_NONE);
		if (!calls[op])
			continue;
		phase_latency(ph, ffsb_op_name(op), &lat[op]);
	}
	free(lat);
	phase_metric(ph, "transactions", (double)total, "transactions",
		     BETTER_NONE);
	phase_metric(ph, "transactions/s", (double)total / secs,
		     "transactions/s", BETTER_HIGHER);
	phase_metric(ph, "elapsed_s", secs, "s", BETTER_NONE);
	phase_metric(ph, "sync_s", ns_s(sync_ns), "s", BETTER_LOWER);
	phase_metric(ph, "read_B", (double)rbytes, "B", BETTER_NONE);
	phase_metric(ph, "write_B", (double)wbytes, "B", BETTER_NONE);
	phase_metric(ph, "read_MiB/s", (double)rbytes / 1048576.0 / secs,
		     "MiB/s", BETTER_HIGHER);
	phase_metric(ph, "write_MiB/s", (double)wbytes / 1048576.0 / secs,
		     "MiB/s", BETTER_HIGHER);
	phase_metric(ph, "user_pct", 100.0 * ns_s(cpu_user) / secs, "%",
		     BETTER_LOWER);
	phase_metric(ph, "sys_pct", 100.0 * ns_s(cpu_sys) / secs, "%",
		     BETTER_LOWER);
	phase_metric(ph, "cpu_pct", 100.0 * ns_s(cpu_user + cpu_sys) / secs,
		     "%", BETTER_LOWER);
	phase_metric(ph, "fsyncs", (double)fsyncs, "ops", BETTER_NONE);
	phase_metric(ph, "fsyncs/s", (double)fsyncs / secs, "ops/s",
		     BETTER_HIGHER);
	phase_metric(ph, "files_created", (double)created, "files",
		     BETTER_NONE);
	phase_metric(ph, "files_deleted", (double)deleted, "files",
		     BETTER_NONE);
	phase_metric(ph, "files/s", (double)created / secs, "files/s",
		     BETTER_HIGHER);
	phase_metric(ph, "seed", (double)r->seed, "", BETTER_NONE);
	phase_metric(ph, "threads", (double)r->nr_w, "threads", BETTER_NONE);
	phase_metric(ph, "time_s", r->time_s, "s", BETTER_NONE);
	/* why it stopped: 1 when the fullness bound, not the time, ended it */
	phase_metric(ph, "stopped_full", r->stopped_full ? 1 : 0, "",
		     BETTER_NONE);
	phase_metric(ph, "fullness_pct", r->stopped_full ? r->fullness_pct :
		     fullness_pct(r->ctx->dir), "%", BETTER_NONE);
	phase_work(ph, rbytes + wbytes, created, total);
}

/*
 * While the workers run: every 20 ms, stop them when the target reaches
 * FFSB_FULLNESS_BOUND_PCT (the warning came before, preflight_fill).
 */
static void watch_fullness(struct ffsb_run *r)
{
	const struct timespec tick = { 0, 20 * 1000000L };

	while (atomic_load(&r->done) < r->nr_w) {
		double f = fullness_pct(r->ctx->dir);

		if (f >= FFSB_FULLNESS_BOUND_PCT && !atomic_load(&r->stop)) {
			r->stopped_full = true;
			r->fullness_pct = f;
			atomic_store(&r->stop, true);
		}
		nanosleep(&tick, NULL);
	}
}

/* Write len bytes of buf in bs-sized writes; 0 or -1 (errno set). */
static int probe_write(int fd, const char *buf, uint64_t len, uint64_t bs)
{
	for (uint64_t left = len; left;) {
		size_t cur = left < bs ? (size_t)left : (size_t)bs;

		if (write_full(fd, buf, cur))
			return -1;
		left -= cur;
	}
	return 0;
}

/*
 * The timed run's pre-flight: can this profile, at this machine's speed,
 * fill the target before its time is up?  A probe times, on the target
 * itself, what grows a file set: creates of the mean file size in the
 * profile's write blocks and appends of its write_size, fsynced unless a
 * thread group creates or appends without (the cheaper kind, so the
 * estimate stays an upper bound), at least 4 and at most 64 of each
 * within about a quarter second, then removes them.  ffsb_growth_bound()
 * turns the times into the most the run can grow per second; when that
 * fills the room below the fullness bound within the run's time, warn
 * with the figures and what to do.  Only a warning: the bound stops the
 * run cleanly either way (watch_fullness).
 */
#define MIB 1048576.0

/* "61 MiB", or "979.6 GiB" from 1 GiB on; 0 for less than nothing. */
static const char *mib_text(char *buf, size_t len, double bytes)
{
	if (!(bytes > 0))
		bytes = 0;
	if (bytes >= 1024 * MIB)
		snprintf(buf, len, "%.1f GiB", bytes / (1024 * MIB));
	else
		snprintf(buf, len, "%.0f MiB", bytes / MIB);
	return buf;
}

static void preflight_fill(struct ffsb_run *r)
{
	const struct fset *s = &r->sets[0];
	const uint64_t budget = 250 * 1000000ULL;
	uint64_t bs = 4096, asize = 0, size, t, t0;
	double mean = 0, tc = 0, ta = 0, rate, room, used, fill_s;
	bool grows = false, sync_all = true;
	char name[32], a[32], b[32], c[32];
	struct statvfs sv;
	unsigned n = 0;
	char *buf;

	for (size_t i = 0; i < r->p.nr_tg; i++) {
		const struct ffsb_tg *tg = &r->p.tg[i];
		const unsigned *w = tg->weight;

		if (w[FFSB_OP_CREATE] || w[FFSB_OP_CREATE_FSYNC] ||
		    w[FFSB_OP_APPEND] || w[FFSB_OP_APPEND_FSYNC])
			grows = true;
		if (w[FFSB_OP_CREATE] || w[FFSB_OP_APPEND])
			sync_all = false;
		if (tg->write_blocksize > bs)
			bs = tg->write_blocksize;
		if ((w[FFSB_OP_APPEND] || w[FFSB_OP_APPEND_FSYNC]) &&
		    tg->write_size > asize)
			asize = tg->write_size;
	}
	if (!grows || r->ctx->rank || !r->nr_sets)
		return;
	for (size_t i = 0; i < r->p.nr_fs; i++)
		mean += ffsb_fs_mean_size(&r->p.fs[i]) / (double)r->p.nr_fs;
	size = mean >= 1 ? (uint64_t)mean : 1;
	buf = aligned_buf((size_t)bs, r->seed);
	t0 = now_ns();
	for (; n < 64 && (n < 4 || now_ns() - t0 < budget); n++) {
		int fd, bad;

		snprintf(name, sizeof(name), "fslab-probe.%u", n);
		t = now_ns();
		fd = openat(s->meta_fd, name, O_WRONLY | O_CREAT | O_TRUNC |
			    O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			break;
		bad = probe_write(fd, buf, size, bs) ||
		      (sync_all && fsync(fd));
		tc += ns_s(now_ns() - t);
		t = now_ns();
		if (!bad && asize)
			bad = probe_write(fd, buf, asize, bs) ||
			      (sync_all && fsync(fd));
		ta += ns_s(now_ns() - t);
		if (close(fd) || bad) {
			n++;
			break;
		}
	}
	for (unsigned k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "fslab-probe.%u", k);
		(void)unlinkat(s->meta_fd, name, 0);
	}
	free(buf);
	if (n < 4 || statvfs(s->dir, &sv) || !sv.f_blocks)
		return; /* too little measured to say anything */
	rate = ffsb_growth_bound(&r->p, tc / n, ta / n);
	used = (double)(sv.f_blocks - sv.f_bfree) * (double)sv.f_frsize;
	room = FFSB_FULLNESS_BOUND_PCT / 100 *
	       (used + (double)sv.f_bavail * (double)sv.f_frsize) - used;
	fill_s = ffsb_fill_seconds(rate, room);
	if (!(fill_s < r->time_s))
		return;
	/* fslab's own figures in MiB (2^20), as its tables */
	warning("ffsb: pre-flight: this profile can grow its files by up to "
		"%.1f MiB/s here (a %.1f KiB create%s took %.2f ms), %s in "
		"the %u s run; %s remain below the %.0f %% fullness bound, so "
		"the run may stop there after about %.0f s.  For the whole "
		"time give time=%.0f or less, or a target about %s larger",
		rate / MIB, (double)size / 1024, sync_all ? " with fsync" : "",
		1000 * tc / n, mib_text(a, sizeof(a), rate * r->time_s),
		r->time_s, mib_text(b, sizeof(b), room),
		FFSB_FULLNESS_BOUND_PCT, fill_s, fmax(1, floor(fill_s)),
		mib_text(c, sizeof(c), (rate * r->time_s - room) /
			 (FFSB_FULLNESS_BOUND_PCT / 100)));
}

static int do_run(struct ffsb_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "run", profile_label(&r->p));
	struct rusage ru0, ru1;
	uint64_t t0, ts, elapsed, sync_ns = 0;
	const char *fail = NULL;
	int ret = 0;

	r->ph = ph;
	phase_expect_secs(ph, r->time_s);
	getrusage(RUSAGE_SELF, &ru0);
	t0 = now_ns();
	r->deadline = t0 + (uint64_t)r->time_s * 1000000000ULL;
	for (size_t i = 0; i < r->nr_w; i++) {
		int e = pthread_create(&r->w[i].thread, NULL, ffsb_worker_main,
				       &r->w[i]);

		if (e) {
			errno = e;
			error_errno("cannot start thread %zu", i);
			phase_fail(ph, "cannot start thread %zu: %s", i,
				   strerror(e));
			atomic_store(&r->stop, true);
			ret = -1;
			break;
		}
		r->w[i].started = true;
	}
	if (!ret)
		watch_fullness(r);
	for (size_t i = 0; i < r->nr_w; i++)
		if (r->w[i].started)
			pthread_join(r->w[i].thread, NULL);
	if (r->stopped_full)
		fprintf(r->ctx->progress, "ffsb: stopped the timed run cleanly "
			"at %.1f %% full after %.1f s of %u s (the bound is "
			"%.0f %%: doc/ffsb.md)\n", r->fullness_pct,
			ns_s(now_ns() - t0), r->time_s,
			FFSB_FULLNESS_BOUND_PCT);
	for (size_t i = 0; i < r->nr_w; i++) {
		if (r->w[i].failed && !fail)
			fail = r->w[i].errmsg;
		else if (!r->w[i].failed && r->w[i].errmsg[0])
			warning("%s", r->w[i].errmsg);
	}
	/* FFSB syncs inside its timed run: the data must reach the disk */
	ts = now_ns();
	if (!fail && !ret && !phase_stop_requested()) {
		if (wl_sync(r->ctx)) {
			phase_fail(ph, "sync failed");
			ret = -1;
		}
		sync_ns = now_ns() - ts;
	}
	elapsed = now_ns() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	record_run(r, ph, elapsed, sync_ns,
		   tv_ns(&ru1.ru_utime) - tv_ns(&ru0.ru_utime),
		   tv_ns(&ru1.ru_stime) - tv_ns(&ru0.ru_stime));
	if (fail) {
		error("%s", fail);
		phase_fail(ph, "%s", fail);
		ret = -1;
	}
	if (phase_end(r->ctx, ph, NULL) < 0)
		ret = -1;
	return ret;
}

static int ffsb_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct ffsb_opts *o = vopts;
	struct ffsb_run *r = xcalloc(1, sizeof(*r));
	char err[1024];
	size_t bufsize = 4096, k = 0;
	int ret = 0;

	r->ctx = ctx;
	if (load_profile(o, &r->p, err, sizeof(err)) < 0) {
		free(r);
		return error("%s", err);
	}
	for (size_t i = 0; i < r->p.nr_notices; i++)
		fprintf(ctx->progress, "ffsb: %s\n", r->p.notices[i]);
	r->time_s = o->time ? (unsigned)o->time : r->p.time;
	r->seed = opt_seed(o->seed, ctx->seed);
	r->oflags = r->p.directio ? O_DIRECT : 0;
	r->verify = ctx->verify;
	atomic_init(&r->stop, false);
	atomic_init(&r->done, 0);
	for (size_t i = 0; i < r->p.nr_tg; i++) {
		const struct ffsb_tg *tg = &r->p.tg[i];

		r->nr_w += tg->num_threads;
		if (tg->read_blocksize > bufsize)
			bufsize = (size_t)tg->read_blocksize;
		if (tg->write_blocksize > bufsize)
			bufsize = (size_t)tg->write_blocksize;
	}
	bufsize = (bufsize + 4095) & ~(size_t)4095;
	r->nr_sets = r->p.nr_fs;
	r->sets = xcalloc(r->nr_sets, sizeof(*r->sets));
	r->w = xcalloc(r->nr_w, sizeof(*r->w));
	for (size_t i = 0; i < r->p.nr_tg; i++) {
		for (unsigned t = 0; t < r->p.tg[i].num_threads; t++, k++) {
			struct worker *w = &r->w[k];

			w->run = r;
			w->tg = &r->p.tg[i];
			w->index = (int)k;
			pyrand_seed(&w->rng, ffsb_thread_seed(r->seed,
							      (unsigned)k));
			w->bufsize = bufsize;
			w->buf = aligned_buf(bufsize, r->seed + k);
			w->lat = xcalloc(FFSB_OP_NR, sizeof(*w->lat));
			for (int op = 0; op < FFSB_OP_NR; op++)
				lathist_init(&w->lat[op]);
		}
	}
	fprintf(ctx->progress, "ffsb: profile %s, %u s, %zu thread%s, "
		"seed %llu, in %s\n", r->p.file, r->time_s, r->nr_w,
		r->nr_w == 1 ? "" : "s", (unsigned long long)r->seed,
		ctx->dir);
	for (size_t i = 0; i < r->nr_sets && !ret; i++)
		ret = set_open(r, i);
	if (!ret)
		ret = do_setup(r);
	/* before the clock starts, and on the file set setup left */
	if (!ret && !phase_stop_requested())
		preflight_fill(r);
	if (!ret && !phase_stop_requested())
		ret = do_run(r);
	/* --verify: every file the run leaves, once more from the disk */
	if (!ret && !phase_stop_requested() && r->verify)
		ret = verify_phase_tree(ctx, NULL);
	for (size_t i = 0; i < r->nr_sets; i++)
		if (r->sets[i].fs)
			set_close(&r->sets[i]);
	for (size_t i = 0; i < r->nr_w; i++) {
		free(r->w[i].buf);
		free(r->w[i].lat);
	}
	free(r->w);
	free(r->sets);
	ffsb_profile_release(&r->p);
	free(r);
	return ret;
}

static const char *const ffsb_key_metrics[] = { "run/transactions/s", NULL };

const struct workload wl_ffsb = {
	.name = "ffsb",
	.summary = "FFSB profiles: weighted threads of create/read/write/"
		   "append/fsync/delete/stat ops, transactions/s @ %CPU",
	.phases = ffsb_phase_names,
	/* Every rank runs the same setup and timed run in its own
	 * directory; phase_end aggregates the ranks' transactions. */
	.flags = WL_MPI_AWARE | WL_VERIFY,
	.opts = ffsb_opt_table,
	.opts_size = sizeof(struct ffsb_opts),
	.check = ffsb_check,
	.run = ffsb_run_fn,
	.report = ffsb_report,
	.report_compare = ffsb_report_compare,
	.key_metrics = ffsb_key_metrics,
};
