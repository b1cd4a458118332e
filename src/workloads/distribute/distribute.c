/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * distribute.c - an afdbench-like file distribution pipeline: the file
 * flow of AFD, the Automatic File Distributor weather services use to
 * move products to many destinations, measured as delivered files/s
 * and MiB/s.
 *
 * Per instance (an independent pipeline) a producer per source
 * directory writes `.name` and renames it to `name`; a scanner takes up
 * to `batch` files per pass into a unique pool directory by rename,
 * hard-links each into one outgoing directory per destination, and
 * removes the pool; per destination `workers` threads deliver each
 * outgoing file into the destination (link, copy or move, through a
 * dot-name and a rename), unlink the outgoing name and remove the
 * emptied outgoing directory.  Threads hand work over through mutex and
 * condition-variable queues, never by polling.
 *
 * In burst mode (as afdbench) the population is written first with the
 * scanners paused (phase `fill`) and the clock starts at release (phase
 * `distribute`); with rate= producers publish open-loop while the
 * pipeline runs.  Phase `verify` then walks every directory and proves
 * that each destination holds exactly the files produced, with the
 * right sizes (see doc/distribute.md).
 */
#include "workloads/distribute/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/verify.h"

/* ---- options ---- */

static const struct opt_enum deliver_values[] = {
	{ "link", DIST_LINK, "hard link into the destination (AFD's "
	  "default for local targets)" },
	{ "copy", DIST_COPY, "copy the data into a new file" },
	{ "move", DIST_MOVE, "rename the outgoing name into place" },
	{ NULL, 0, NULL },
};

static const struct opt_enum fsync_values[] = {
	{ "none", DIST_FSYNC_NONE, "never (AFD's default)" },
	{ "file", DIST_FSYNC_FILE, "fsync each written file before its "
	  "rename, and the destination directory after each delivery" },
	{ "batch", DIST_FSYNC_BATCH, "one syncfs() per delivered batch" },
	{ NULL, 0, NULL },
};

static const struct opt_enum until_values[] = {
	{ "drained", DIST_DRAINED, "stop when every file is delivered" },
	{ "time", DIST_TIME, "stop after 'duration' seconds" },
	{ NULL, 0, NULL },
};

/* seed=0 meant the run's --seed before every seed defaulted to "run";
 * stored runs and scripts that say so still mean it. */
static const struct opt_enum seed_was_zero[] = {
	{ "0", 0, "the old spelling of run" },
	{ NULL, 0, NULL },
};

#define OFF(f) offsetof(struct dist_opts, f)
static const struct opt dist_opt_table[] = {
	{ "sources", OPT_INT, OFF(sources), "1",
	  "source directories per instance, one producer each", 1, 1000,
	  NULL },
	{ "fanout", OPT_INT, OFF(fanout), "2", "destinations per file",
	  1, 1000, NULL },
	{ "instances", OPT_INT, OFF(instances), "1",
	  "independent pipelines", 1, 256, NULL },
	{ "files", OPT_INT, OFF(files), "0",
	  "burst population over all producers (0: 10000 unless rate)",
	  0, 100000000, NULL },
	{ "rate", OPT_INT, OFF(rate), "0",
	  "open-loop production, files/s over all producers (0: burst)",
	  0, 10000000, NULL },
	{ "size", OPT_STRING, OFF(size), "1k-5k",
	  "file size, fixed or uniform MIN-MAX (mean 3 KiB, as afdbench)",
	  0, 0, NULL },
	{ "batch", OPT_INT, OFF(batch), "100",
	  "files the scanner takes per pass", 1, 1000000, NULL },
	{ "deliver", OPT_ENUM, OFF(deliver), "link", "delivery method",
	  0, 0, deliver_values },
	{ "workers", OPT_INT, OFF(workers), "1",
	  "delivery threads per destination", 1, 256, NULL },
	{ "fsync", OPT_ENUM, OFF(fsync), "none", "durability", 0, 0,
	  fsync_values },
	{ "until", OPT_ENUM, OFF(until), "drained", "when to stop", 0, 0,
	  until_values },
	{ "duration", OPT_INT, OFF(duration), "10",
	  "seconds: production time with rate, run time with until=time",
	  1, 86400, NULL },
	{ "timeout", OPT_INT, OFF(timeout), "600",
	  "seconds: hard limit on the distribute phase (a failure when "
	  "not drained by then)", 1, 864000, NULL },
	{ "seed", OPT_SEED, OFF(seed), OPT_SEED_DEFAULT,
	  "seed of the file size draws", 0, 0, seed_was_zero },
	OPT_END,
};

static const char *const dist_phase_names[] = {
	"fill", "distribute", "verify", NULL,
};

/* ---- set-up and tear-down of the run state ---- */

static void run_init(struct dist_run *r, struct wl_ctx *ctx,
		     const struct dist_opts *o)
{
	char err[256];
	uint64_t pop = dist_population(o);
	uint64_t nprod = (uint64_t)o->instances * (uint64_t)o->sources;
	size_t k = 0;

	r->ctx = ctx;
	r->o = o;
	r->ninst = (unsigned)o->instances;
	r->nsrc = (unsigned)o->sources;
	r->fanout = (unsigned)o->fanout;
	r->burst = !o->rate;
	r->seed = opt_seed(o->seed, ctx->seed);
	if (dist_parse_size(o->size, &r->min_size, &r->max_size, err,
			    sizeof(err)))
		BUG("unchecked size: %s", err);
	memset(r->buf, 'd', sizeof(r->buf));
	r->verify = ctx->verify;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cond, NULL);
	r->inst = xcalloc(r->ninst, sizeof(*r->inst));
	r->nr_th = dist_threads(o);
	r->th = xcalloc(r->nr_th, sizeof(*r->th));
	for (unsigned i = 0; i < r->ninst; i++) {
		struct dist_inst *in = &r->inst[i];

		in->r = r;
		in->idx = i;
		in->dir_fd = in->pool_fd = in->out_fd = -1;
		in->src_fd = xmalloc(r->nsrc * sizeof(int));
		in->dst_fd = xmalloc(r->fanout * sizeof(int));
		memset(in->src_fd, -1, r->nsrc * sizeof(int));
		memset(in->dst_fd, -1, r->fanout * sizeof(int));
		pthread_mutex_init(&in->mu, NULL);
		pthread_cond_init(&in->cond, NULL);
		in->cap = xcalloc(r->nsrc, sizeof(*in->cap));
		in->pub_ns = xcalloc(r->nsrc, sizeof(*in->pub_ns));
		in->produced = xcalloc(r->nsrc, sizeof(*in->produced));
		for (unsigned s = 0; s < r->nsrc; s++) {
			uint64_t p = (uint64_t)i * r->nsrc + s;

			/*
			 * The publish table is sized up front (never
			 * reallocated under the scanner): the burst share,
			 * or everything the schedule can emit.
			 */
			in->cap[s] = r->burst ? dist_share(pop, nprod, p) :
				     (uint64_t)ceil((double)o->rate /
						    (double)nprod *
						    (double)o->duration) + 1;
			in->pub_ns[s] = xcalloc(in->cap[s] + 1,
						sizeof(*in->pub_ns[s]));
		}
		in->q = xcalloc(r->fanout, sizeof(*in->q));
		for (unsigned d = 0; d < r->fanout; d++) {
			pthread_mutex_init(&in->q[d].mu, NULL);
			pthread_cond_init(&in->q[d].cond, NULL);
		}
	}
	/* worker numbering: deliverers, then scanners, then producers */
	for (unsigned i = 0; i < r->ninst; i++)
		for (unsigned d = 0; d < r->fanout; d++)
			for (long long w = 0; w < o->workers; w++) {
				struct dist_thread *t = &r->th[k];

				t->role = ROLE_DELIVER;
				t->dest = d;
				t->in = &r->inst[i];
				t->hist = xmalloc(sizeof(*t->hist));
				lathist_init(t->hist);
				t->buf = xmalloc(IOBUF);
				t->worker = (int)k++;
			}
	for (unsigned i = 0; i < r->ninst; i++) {
		r->th[k].role = ROLE_SCAN;
		r->th[k].in = &r->inst[i];
		r->th[k].worker = (int)k;
		k++;
	}
	for (unsigned i = 0; i < r->ninst; i++)
		for (unsigned s = 0; s < r->nsrc; s++) {
			r->th[k].role = ROLE_PRODUCE;
			/* --verify: each producer fills its own buffer */
			if (r->verify)
				r->th[k].buf = xmalloc(IOBUF);
			r->th[k].src = s;
			r->th[k].in = &r->inst[i];
			r->th[k].worker = (int)k;
			k++;
		}
	for (size_t i = 0; i < r->nr_th; i++)
		r->th[i].r = r;
}

static void run_release(struct dist_run *r)
{
	dist_drain_queues(r);
	for (unsigned i = 0; i < r->ninst; i++) {
		struct dist_inst *in = &r->inst[i];

		for (unsigned s = 0; s < r->nsrc; s++) {
			dist_close_fd(&in->src_fd[s]);
			free(in->pub_ns[s]);
		}
		for (unsigned d = 0; d < r->fanout; d++) {
			dist_close_fd(&in->dst_fd[d]);
			pthread_mutex_destroy(&in->q[d].mu);
			pthread_cond_destroy(&in->q[d].cond);
		}
		dist_close_fd(&in->dir_fd);
		dist_close_fd(&in->pool_fd);
		dist_close_fd(&in->out_fd);
		pthread_mutex_destroy(&in->mu);
		pthread_cond_destroy(&in->cond);
		free(in->src_fd);
		free(in->dst_fd);
		free(in->cap);
		free((void *)in->pub_ns);
		free(in->produced);
		free(in->q);
	}
	for (size_t i = 0; i < r->nr_th; i++) {
		free(r->th[i].hist);
		free(r->th[i].buf);
	}
	free(r->th);
	free(r->inst);
	free(r->err);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cond);
}

/* Per-worker rows and the summed work of the threads with these roles. */
/* The fill's producers: each one a worker row over its own run. */
static void record_producers(struct dist_run *r, struct phase *ph)
{
	for (size_t i = 0; i < r->nr_th; i++) {
		struct dist_thread *t = &r->th[i];

		if (t->role != ROLE_PRODUCE)
			continue;
		phase_worker(ph, t->worker, t->start_rt, t->end_rt, t->bytes,
			     t->files, t->ops);
		phase_work(ph, t->bytes, t->files, t->ops);
	}
}

/*
 * The distribute phase's figures are the deliveries': a deliverer is a
 * worker row from its first delivery's start to its last one's end, so
 * the phase's files/s is deliveries over that span, as afdbench measures.
 * Scanners and (open-loop) producers only add their operations: their
 * start-up, and in burst mode the fill before release, are not part of
 * the distribution.
 */
static void record_deliveries(struct dist_run *r, struct phase *ph)
{
	for (size_t i = 0; i < r->nr_th; i++) {
		struct dist_thread *t = &r->th[i];

		if (t->role != ROLE_DELIVER) {
			phase_work(ph, 0, 0, t->ops);
			continue;
		}
		if (t->files)
			phase_worker(ph, t->worker, t->first_rt, t->last_rt,
				     t->bytes, t->files, t->ops);
		phase_work(ph, t->bytes, t->files, t->ops);
	}
}

/* Take the first thread error: print it once and fail the phase. */
static int check_thread_error(struct dist_run *r, struct phase *ph)
{
	if (!r->err)
		return 0;
	error("%s", r->err);
	phase_fail(ph, "%s", r->err);
	return -1;
}

/* ---- the phases ---- */

static int fill_phase(struct dist_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "fill", NULL);
	const struct phase_rec *rec;
	uint64_t files = 0, bytes = 0;
	int ret;

	fprintf(r->ctx->progress, "distribute: filling %llu files "
		"(scanners paused)\n",
		(unsigned long long)dist_population(r->o));
	for (unsigned i = 0; i < r->ninst; i++)
		r->inst[i].producers_left = r->nsrc;
	ret = dist_start_threads(r, 1u << ROLE_PRODUCE);
	dist_join_threads(r);
	record_producers(r, ph);
	for (size_t i = 0; i < r->nr_th; i++) {
		files += r->th[i].files;
		bytes += r->th[i].bytes;
		r->th[i].bytes = r->th[i].files = r->th[i].ops = 0;
	}
	phase_metric(ph, "produced", (double)files, "files", BETTER_NONE);
	if (check_thread_error(r, ph))
		ret = -1;
	if (phase_end(r->ctx, ph, &rec) < 0)
		return -1;
	if (!ret && !phase_stop_requested())
		fprintf(r->ctx->progress, "distribute: filled %llu files, "
			"%.2f MiB in %.2f s\n", (unsigned long long)files,
			(double)bytes / MIB, (double)rec->m.wall_ns / 1e9);
	return ret;
}

static void sample(struct dist_run *r, uint64_t *src, uint64_t *pool,
		   uint64_t *out, uint64_t *delivered)
{
	uint64_t pub = atomic_load(&r->c_published);
	uint64_t scanned = atomic_load(&r->c_scanned);

	*delivered = atomic_load(&r->c_delivered);
	*pool = atomic_load(&r->c_pool);
	*out = atomic_load(&r->c_out);
	*src = pub > scanned ? pub - scanned : 0;
}

static void ns_to_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / NS);
	ts->tv_nsec = (long)(ns % NS);
}

/*
 * The main thread samples the counters once a second (sleeping on the
 * exit condition in between, so the last thread's exit wakes it) and
 * stops the pipeline at the time limit, the timeout or a signal.
 * Returns true when the timeout fired.
 */
static bool monitor(struct dist_run *r, struct dist_intervals *iv)
{
	uint64_t start = r->release_ns, tick = start, last = 0;
	uint64_t stop_at = UINT64_MAX, hard = start +
		(uint64_t)r->o->timeout * NS;
	bool timed_out = false;

	if (r->o->until == DIST_TIME)
		stop_at = start + (uint64_t)r->o->duration * NS;
	pthread_mutex_lock(&r->mu);
	while (r->running) {
		uint64_t now = now_ns(), next = tick + NS, wake = next;
		struct timespec ts;

		/* once stopped, only the ticks remain to wake for */
		if (!atomic_load(&r->stop) && wake > stop_at)
			wake = stop_at;
		if (!atomic_load(&r->stop) && wake > hard)
			wake = hard;
		if (now < wake) {
			ns_to_ts(wake, &ts);
			pthread_cond_timedwait(&r->cond, &r->mu, &ts);
			now = now_ns();
		}
		if (now >= next && r->running) {
			uint64_t s, p, o, d;

			pthread_mutex_unlock(&r->mu);
			sample(r, &s, &p, &o, &d);
			dist_intervals_tick(iv, (double)(now - tick) / 1e9,
					    d - last, s, p, o);
			fprintf(r->ctx->progress, "%7.1f s %9.1f files/s  "
				"backlog source %llu pool %llu outgoing "
				"%llu\n", (double)(now - start) / 1e9,
				(double)(d - last) * 1e9 / (double)(now - tick),
				(unsigned long long)s, (unsigned long long)p,
				(unsigned long long)o);
			last = d;
			tick = now;
			pthread_mutex_lock(&r->mu);
		}
		if (!atomic_load(&r->stop) &&
		    (now >= stop_at || now >= hard || phase_stop_requested())) {
			timed_out = now >= hard && now < stop_at;
			pthread_mutex_unlock(&r->mu);
			dist_request_stop(r);
			pthread_mutex_lock(&r->mu);
		}
	}
	pthread_mutex_unlock(&r->mu);
	/*
	 * The last partial tick gets its own slot, unless it is a sliver
	 * whose rate would be noise: then it joins the slot before.
	 */
	{
		uint64_t now = now_ns(), s, p, o, d;
		double secs = (double)(now - tick) / 1e9;

		sample(r, &s, &p, &o, &d);
		if (secs >= 0.05 || !iv->nr) {
			dist_intervals_tick(iv, secs, d - last, s, p, o);
		} else {
			struct dist_slot *sl = &iv->v[iv->nr - 1];

			sl->secs += secs;
			sl->delivered += d - last;
			sl->source = s;
			sl->pool = p;
			sl->outgoing = o;
		}
	}
	return timed_out;
}

static void store_intervals(struct phase *ph, const struct dist_intervals *iv)
{
	char name[64];

	phase_metric(ph, "intervals", (double)iv->nr, "intervals",
		     BETTER_NONE);
	phase_metric(ph, "interval_s", (double)iv->ticks_per_slot, "s",
		     BETTER_NONE);
	for (size_t i = 0; i < iv->nr; i++) {
		const struct dist_slot *s = &iv->v[i];

		snprintf(name, sizeof(name), "interval.%zu.files/s", i);
		phase_metric(ph, name, s->secs > 0 ? (double)s->delivered /
			     s->secs : 0, "files/s", BETTER_NONE);
		snprintf(name, sizeof(name), "interval.%zu.time_s", i);
		phase_metric(ph, name, s->secs, "s", BETTER_NONE);
		snprintf(name, sizeof(name), "interval.%zu.source", i);
		phase_metric(ph, name, (double)s->source, "files",
			     BETTER_NONE);
		snprintf(name, sizeof(name), "interval.%zu.pool", i);
		phase_metric(ph, name, (double)s->pool, "files", BETTER_NONE);
		snprintf(name, sizeof(name), "interval.%zu.outgoing", i);
		phase_metric(ph, name, (double)s->outgoing, "files",
			     BETTER_NONE);
	}
}

static int distribute_phase(struct dist_run *r, bool *drained)
{
	struct phase *ph = phase_begin(r->ctx, "distribute", NULL);
	struct dist_intervals *iv = xmalloc(sizeof(*iv));
	struct lathist h;
	uint64_t produced = 0, delivered = 0, bytes = 0, s, p, o, d;
	unsigned roles = 1u << ROLE_SCAN | 1u << ROLE_DELIVER;
	bool timed_out;
	int ret;

	dist_intervals_init(iv);
	lathist_init(&h);
	r->release_ns = now_ns();
	if (!r->burst) {
		roles |= 1u << ROLE_PRODUCE;
		r->prod_start_ns = r->release_ns;
		r->prod_end_ns = r->release_ns +
				 (uint64_t)r->o->duration * NS;
		for (unsigned i = 0; i < r->ninst; i++)
			r->inst[i].producers_left = r->nsrc;
	}
	ret = dist_start_threads(r, roles);
	timed_out = monitor(r, iv);
	dist_join_threads(r);
	record_deliveries(r, ph);
	for (size_t i = 0; i < r->nr_th; i++)
		if (r->th[i].hist)
			lathist_merge(&h, r->th[i].hist);
	for (unsigned i = 0; i < r->ninst; i++)
		for (unsigned k = 0; k < r->nsrc; k++)
			produced += r->inst[i].produced[k];
	for (size_t i = 0; i < r->nr_th; i++)
		if (r->th[i].role == ROLE_DELIVER) {
			delivered += r->th[i].files;
			bytes += r->th[i].bytes;
		}
	sample(r, &s, &p, &o, &d);
	*drained = delivered == produced * r->fanout && !s && !p && !o;

	phase_metric(ph, "produced", (double)produced, "files", BETTER_NONE);
	phase_metric(ph, "fanout", r->fanout, "destinations", BETTER_NONE);
	phase_metric(ph, "instances", r->ninst, "instances", BETTER_NONE);
	phase_metric(ph, "sources", r->nsrc, "sources", BETTER_NONE);
	phase_metric(ph, "expected", (double)(produced * r->fanout),
		     "files", BETTER_NONE);
	phase_metric(ph, "delivered", (double)delivered, "files",
		     BETTER_NONE);
	phase_metric(ph, "delivered_MiB", (double)bytes / MIB, "MiB",
		     BETTER_NONE);
	phase_metric(ph, "drained", *drained, "bool", BETTER_NONE);
	phase_metric(ph, "backlog.source", (double)s, "files", BETTER_NONE);
	phase_metric(ph, "backlog.pool", (double)p, "files", BETTER_NONE);
	phase_metric(ph, "backlog.outgoing", (double)o, "files",
		     BETTER_NONE);
	phase_latency(ph, NULL, &h);  /* publish -> delivery */
	store_intervals(ph, iv);
	free(iv);
	if (check_thread_error(r, ph)) {
		ret = -1;
	} else if (timed_out && r->o->until == DIST_DRAINED) {
		error("not drained after the %llds timeout: %llu of %llu "
		      "deliveries done", r->o->timeout,
		      (unsigned long long)delivered,
		      (unsigned long long)(produced * r->fanout));
		phase_fail(ph, "not drained after the %llds timeout",
			   r->o->timeout);
		ret = -1;
	}
	if (phase_end(r->ctx, ph, NULL) < 0)
		ret = -1;
	return ret;
}

static int dist_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct dist_opts *o = vopts;
	struct dist_run *r = xcalloc(1, sizeof(*r));
	bool drained = false;
	int ret, base;

	run_init(r, ctx, o);
	fprintf(ctx->progress, "distribute: %u instance(s), %u source(s), "
		"fanout %u, %s, deliver=%s, in %s/%s\n", r->ninst, r->nsrc,
		r->fanout, r->burst ? "burst" : "open loop",
		deliver_values[o->deliver].name, ctx->dir, TOPDIR);
	ret = dist_setup_dirs(r);
	if (!ret && r->burst)
		ret = fill_phase(r);
	if (!ret && !phase_stop_requested())
		ret = distribute_phase(r, &drained);
	if (!ret && !phase_stop_requested())
		ret = dist_verify_phase(r, drained && o->until == DIST_DRAINED);
	run_release(r);
	free(r);
	/* keep the evidence of a failure; otherwise leave the fs clean */
	if (!ret && !phase_stop_requested()) {
		base = open(ctx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (base < 0 || dist_rmtree_at(base, TOPDIR))
			warning("cannot remove '%s/%s': %s", ctx->dir, TOPDIR,
				strerror(errno));
		if (base >= 0)
			close(base);
	}
	return ret;
}

static int dist_check_fn(const void *vopts, char *err, size_t errlen)
{
	return dist_check(vopts, err, errlen);
}

static const char *const dist_key_metrics[] = {
	"distribute/files/s", "distribute/MiB/s", "distribute/lat_p99_ms",
	NULL,
};

const struct workload wl_distribute = {
	.name = "distribute",
	.summary = "afdbench-like file distribution: produce, scan into "
		   "pools, fan out, deliver (files/s, MiB/s)",
	.phases = dist_phase_names,
	.flags = WL_VERIFY,
	.opts = dist_opt_table,
	.opts_size = sizeof(struct dist_opts),
	.check = dist_check_fn,
	.run = dist_run_fn,
	.report = dist_report,
	.key_metrics = dist_key_metrics,
};
