/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase.c - the phase API workloads report through (declared in
 * workload.h): measure a phase, collect its work, metrics and workers,
 * run the run's phase hooks around it, aggregate it over MPI ranks, and
 * hand it to the run writer (store/writer.h) when it ends.  Also the
 * stonewall helpers, the ranks' directories and the cache/sync steps
 * between phases (wl_*).
 */
#include "phase/phase_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cometric/cometric.h"
#include "fs/target.h"
#include "cometric/machine.h"
#include "measure/measure.h"
#include "phase/par.h"
#include "phase/progress.h"
#include "phase/stall.h"
#include "stats/lathist.h"
#include "stats/stats.h"
#include "store/histblob.h"
#include "store/writer.h"
#include "util/interrupt.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "phase/workload.h"

/* The run's phase hooks (none outside a run, e.g. under `fslab age`). */
static const struct phase_hook *ctx_hooks(const struct wl_ctx *ctx,
					  size_t *nr)
{
	*nr = ctx->runner ? ctx->runner->nr_hooks : 0;
	return ctx->runner ? ctx->runner->hooks : NULL;
}

struct phase {
	struct phase_rec rec;
	struct measure_snap snap;
	struct cometric_snap co;
	struct cometric_src co_src;
	const char *devname;
	uint64_t stonewall_ns;  /* CLOCK_MONOTONIC deadline; 0: none */
	int64_t runq_ns;        /* machine_runq_wait_ns() at begin */
	struct stallwatch stalls;
};

static void rec_add_worker(struct phase_rec *rec, int worker,
			   uint64_t start_ns, uint64_t end_ns, uint64_t bytes,
			   uint64_t files, uint64_t ops)
{
	struct worker_rec *w;

	ALLOC_GROW(rec->workers, rec->nr_workers + 1, rec->alloc_workers);
	w = &rec->workers[rec->nr_workers++];
	w->worker = worker;
	w->start_ns = start_ns;
	w->end_ns = end_ns;
	w->bytes = bytes;
	w->files = files;
	w->ops = ops;
}

/*
 * The same spread per host, when the ranks run on more than one: a
 * host's work is the sum over its ranks, its time its earliest start to
 * its latest end, so its rate is what that client machine did.  Stored
 * as metric rows: hosts, host_{min,max,mean}_UNIT, slowest_host (node
 * index, the host with the longest time) and one "host:NAME_UNIT" rate
 * per host, in node order (see par_node_of); UNIT is the rate's unit.
 */
static void aggregate_hosts(struct phase_rec *rec,
			    const struct par_share *all, int n,
			    const char *unit)
{
	int nodes = par_nodes(), slowest = 0;
	uint64_t *first, *last;
	double *work, *rate, slow = -1;
	struct stats_summary s;
	char name[96];

	if (nodes <= 1)
		return;
	first = xcalloc((size_t)nodes, sizeof(*first));
	last = xcalloc((size_t)nodes, sizeof(*last));
	work = xcalloc((size_t)nodes, sizeof(*work));
	rate = xcalloc((size_t)nodes, sizeof(*rate));
	for (int h = 0; h < nodes; h++)
		first[h] = UINT64_MAX;
	for (int i = 0; i < n; i++) {
		int h = par_node_of(i);

		if (h < 0 || h >= nodes)
			continue;
		if (all[i].start_ns < first[h])
			first[h] = all[i].start_ns;
		if (all[i].end_ns > last[h])
			last[h] = all[i].end_ns;
		work[h] += rec->files ? (double)all[i].files
				      : (double)all[i].bytes / 1048576.0;
	}
	for (int h = 0; h < nodes; h++) {
		double secs = last[h] > first[h]
				      ? (double)(last[h] - first[h]) / 1e9
				      : 0;

		rate[h] = secs > 0 ? work[h] / secs : 0;
		if (secs > slow) {
			slow = secs;
			slowest = h;
		}
	}
	stats_summarize(rate, (size_t)nodes, &s);
	phase_rec_add_metric(rec, "hosts", nodes, "hosts", BETTER_NONE);
	/* statistics of a rate end in "_" + its unit (result.h) */
	snprintf(name, sizeof(name), "host_min_%s", unit);
	phase_rec_add_metric(rec, name, s.min, unit, BETTER_HIGHER);
	snprintf(name, sizeof(name), "host_max_%s", unit);
	phase_rec_add_metric(rec, name, s.max, unit, BETTER_HIGHER);
	snprintf(name, sizeof(name), "host_mean_%s", unit);
	phase_rec_add_metric(rec, name, s.mean, unit, BETTER_HIGHER);
	phase_rec_add_metric(rec, "slowest_host", slowest, "host",
			     BETTER_NONE);
	for (int h = 0; h < nodes; h++) {
		const char *host = "?";

		for (int i = 0; i < n; i++)
			if (par_node_of(i) == h) {
				host = par_host(i);
				break;
			}
		snprintf(name, sizeof(name), "host:%s_%s", host, unit);
		phase_rec_add_metric(rec, name, rate[h], unit, BETTER_HIGHER);
	}
	free(first);
	free(last);
	free(work);
	free(rate);
}

/* src's histograms merged into dst's, by op, exactly. */
static void merge_hists(struct phase_rec *dst, const struct phase_rec *src)
{
	struct lathist *a = xmalloc(sizeof(*a)), *b = xmalloc(sizeof(*b));

	for (size_t i = 0; i < src->nr_hists; i++) {
		const struct hist_rec *s = &src->hists[i];
		struct hist_rec *d = (struct hist_rec *)phase_rec_hist(dst,
								       s->op);

		if (!d) {
			phase_rec_copy_hist(dst, s);
			continue;
		}
		if (hist_rec_to_lathist(d, a) || hist_rec_to_lathist(s, b))
			BUG("a histogram of another bucket scheme");
		lathist_merge(a, b);
		hist_rec_from_lathist(d, a);
	}
	free(a);
	free(b);
}

/*
 * Under MPI, every rank's latency histograms are merged exactly into
 * rank 0's record (by op class), and its latency figures are
 * recomputed from the merged ones: the job's p99 is the p99 of all
 * samples, never one rank's nor an average of ranks'.  Collective.
 */
static void aggregate_hists(struct phase_rec *rec)
{
	size_t len, *lens = xcalloc((size_t)par_size(), sizeof(*lens));
	unsigned char *mine = histblob_pack(rec->hists, rec->nr_hists, &len);
	unsigned char *all = par_gather_bytes(mine, len, lens);
	struct phase_rec job = { 0 };
	struct lathist *h;
	size_t off = 0;
	char why[160];

	free(mine);
	if (!all || par_rank() != 0) {
		free(all);
		free(lens);
		return;
	}
	for (int r = 0; r < par_size(); off += lens[r], r++) {
		struct phase_rec one = { 0 };

		if (histblob_unpack(&one, all + off, lens[r], why, sizeof(why)))
			BUG("rank %d's histograms: %s", r, why);
		merge_hists(&job, &one);
		phase_rec_release(&one);
	}
	h = xmalloc(sizeof(*h));
	for (size_t i = 0; i < job.nr_hists; i++) {
		const struct hist_rec *j = &job.hists[i];

		if (hist_rec_to_lathist(j, h))
			BUG("a histogram of another bucket scheme");
		phase_rec_set_latency(rec, *j->op ? j->op : NULL, h);
	}
	free(h);
	for (size_t i = 0; i < rec->nr_hists; i++)
		hist_rec_release(&rec->hists[i]);
	free(rec->hists);
	rec->hists = job.hists;
	rec->nr_hists = job.nr_hists;
	rec->alloc_hists = job.alloc_hists;
	job.hists = NULL;
	job.nr_hists = 0;
	phase_rec_release(&job);
	free(all);
	free(lens);
}

/*
 * Under MPI, turn this rank's phase record into the job's, the IOR way:
 * global time = latest end - earliest start, work = the sum over ranks,
 * one worker row per rank, and the spread of per-rank rates.  Every rank
 * learns whether any rank failed, so all of them stop together.
 */
static void aggregate_ranks(struct phase_rec *rec,
			    const struct measure_snap *b,
			    const struct measure_snap *e)
{
	int n = par_size();
	struct par_share mine, *all = NULL;
	uint64_t first = UINT64_MAX, last = 0;
	double *rate = NULL, slow = 0;
	const char *unit = rec->files ? "files/s" : "MiB/s";
	int bad, slowest = 0;
	struct stats_summary s;
	char name[64];

	memset(&mine, 0, sizeof(mine));
	mine.start_ns = b->real_ns;
	mine.end_ns = e->real_ns;
	mine.bytes = rec->bytes;
	mine.files = rec->files;
	mine.ops = rec->ops;
	mine.failed = rec->status == PHASE_FAILED;
	if (rec->error)
		snprintf(mine.error, sizeof(mine.error), "%s", rec->error);
	if (par_rank() == 0)
		all = xcalloc((size_t)n, sizeof(*all));
	aggregate_hists(rec);
	bad = par_gather(&mine, all);
	par_barrier();
	if (bad >= 0 && rec->status != PHASE_FAILED) {
		rec->status = PHASE_FAILED;
		free(rec->error);
		rec->error = xasprintf("rank %d failed", bad);
	}
	if (!all)
		return;
	if (bad >= 0) {
		free(rec->error);
		rec->error = xasprintf("rank %d on %s: %s", bad, par_host(bad),
				       all[bad].error);
	}
	rate = xcalloc((size_t)n, sizeof(*rate));
	rec->bytes = rec->files = rec->ops = 0;
	rec->nr_workers = 0;
	for (int i = 0; i < n; i++) {
		const struct par_share *r = &all[i];
		double secs = (double)(r->end_ns - r->start_ns) / 1e9;
		double work = rec->files || r->files
				      ? (double)r->files
				      : (double)r->bytes / 1048576.0;

		if (r->start_ns < first)
			first = r->start_ns;
		if (r->end_ns > last)
			last = r->end_ns;
		rec->bytes += r->bytes;
		rec->files += r->files;
		rec->ops += r->ops;
		rec_add_worker(rec, i, r->start_ns, r->end_ns, r->bytes,
			       r->files, r->ops);
		rate[i] = secs > 0 ? work / secs : 0;
		if (i == 0 || r->end_ns - r->start_ns > slow) {
			slow = (double)(r->end_ns - r->start_ns);
			slowest = i;
		}
	}
	rec->m.start_ns = first;
	rec->m.wall_ns = last - first;
	stats_summarize(rate, (size_t)n, &s);
	phase_rec_add_metric(rec, "ranks", n, "ranks", BETTER_NONE);
	/* statistics of a rate end in "_" + its unit (result.h) */
	snprintf(name, sizeof(name), "rank_min_%s", unit);
	phase_rec_add_metric(rec, name, s.min, unit, BETTER_HIGHER);
	snprintf(name, sizeof(name), "rank_max_%s", unit);
	phase_rec_add_metric(rec, name, s.max, unit, BETTER_HIGHER);
	snprintf(name, sizeof(name), "rank_mean_%s", unit);
	phase_rec_add_metric(rec, name, s.mean, unit, BETTER_HIGHER);
	if (n > 1) {
		snprintf(name, sizeof(name), "rank_sd_%s", unit);
		phase_rec_add_metric(rec, name, s.stddev, unit, BETTER_NONE);
	}
	phase_rec_add_metric(rec, "slowest_rank", slowest, "rank",
			     BETTER_NONE);
	aggregate_hosts(rec, all, n, unit);
	free(rate);
	free(all);
}

const char *const wl_core_phases[] = { "verify-data", NULL };

static bool in_list(const char *const *l, const char *name)
{
	for (; l && *l; l++)
		if (!strcmp(*l, name))
			return true;
	return false;
}

bool wl_phase_declared(const struct workload *wl, const char *name)
{
	return in_list(wl_core_phases, name) ||
	       (wl && in_list(wl->phases, name));
}

static uint64_t stall_threshold_ns(const struct wl_ctx *ctx)
{
	if (ctx->runner && ctx->runner->stall_ns)
		return ctx->runner->stall_ns;
	return STALL_DEFAULT_MS * 1000000ULL;
}

struct phase *phase_begin(struct wl_ctx *ctx, const char *name,
			  const char *label)
{
	struct phase *ph;
	const struct phase_hook *hooks;
	size_t nr_hooks;

	/* --trace=PHASE, `fslab list` and the key metrics trust .phases
	 * (or, for phases named by the input, phases_of). */
	if (!ctx->wl || !(wl_phase_declared(ctx->wl, name) ||
			  in_list(wl_phase_names(ctx->wl, ctx->opts), name)))
		BUG("phase '%s' is not declared in %s's .phases", name,
		    ctx->wl ? ctx->wl->name : "(no workload)");
	ph = xcalloc(1, sizeof(*ph));
	ph->rec.name = ctx->phase_prefix
			       ? xasprintf("%s/%s", ctx->phase_prefix, name)
			       : xstrdup(name);
	ph->rec.label = label ? xstrdup(label) : NULL;
	ph->devname = ctx->target ? ctx->target->devname : NULL;
	/* Declared, not assumed: a phase is "cold" when the workload
	 * dropped the caches since the previous phase began. */
	if (ctx->runner && ctx->wlrun) {
		char *key = xasprintf("%s/%s", ctx->wlrun->workload, name);

		run_rec_add_fact(ctx->runner->w.run, "cache", key,
				 ctx->runner->cache_dropped ? "cold" : "warm");
		ctx->runner->cache_dropped = false;
		free(key);
	}
	hooks = ctx_hooks(ctx, &nr_hooks);
	for (size_t i = 0; i < nr_hooks; i++)
		if (hooks[i].begin &&
		    hooks[i].begin(hooks[i].data, ctx, name) < 0)
			phase_fail(ph, "phase hook '%s' failed", hooks[i].name);
	progress_phase_begin(ctx->wlrun ? ctx->wlrun->workload : NULL, name,
			     label, ph->devname);
	/* Ranks start a phase together so global time means something. */
	par_barrier();
	/* Co-metrics outside the measured window: their reads never
	 * count in the phase's time, and their window holds it. */
	ph->co_src.level = ctx->runner ? (enum cometric_level)
					       ctx->runner->co_metrics
				       : COMETRIC_BASIC;
	ph->co_src.devname = ph->devname;
	ph->co_src.fstype = ctx->target ? ctx->target->fstype : NULL;
	ph->co_src.uuid = ctx->target ? ctx->target->uuid : NULL;
	cometric_snap(&ph->co, &ph->co_src,
		      ctx->runner ? ctx->runner->co_reader : NULL);
	ph->runq_ns = machine_runq_wait_ns();
	measure_snap(&ph->snap, ph->devname);
	stallwatch_init(&ph->stalls, now_ns(), stall_threshold_ns(ctx));
	return ph;
}

/* Each call is one completion: the stall watch's clock. */
void phase_progress(struct phase *ph, uint64_t bytes, uint64_t files,
		    uint64_t ops)
{
	if (ph)
		stallwatch_done(&ph->stalls, now_ns());
	progress_count(bytes, files, ops);
}

/*
 * A phase whose workload reports its completions (two or more) gets
 * its stalls as figures, 0 included; one that reports none gets none,
 * rather than a 0 that would claim it was watched.
 */
static void keep_stalls(struct phase_rec *rec, struct stallwatch *sw)
{
	size_t n = stallwatch_series_len(sw);

	rec->stall_list = xcalloc(sw->nr ? sw->nr : 1,
				  sizeof(*rec->stall_list));
	for (size_t i = 0; i < sw->nr; i++) {
		rec->stall_list[i].start_ns = sw->v[i].start_ns;
		rec->stall_list[i].len_ns = sw->v[i].len_ns;
	}
	rec->nr_stall_list = sw->nr;
	rec->series_ns = sw->series_ns;
	rec->series_total = atomic_load(&sw->nr_done);
	rec->series = xcalloc(n ? n : 1, sizeof(*rec->series));
	for (size_t i = 0; i < n; i++)
		rec->series[i] = atomic_load_explicit(&sw->series[i],
						      memory_order_relaxed);
	rec->nr_series = n;
}

static void record_stalls(struct phase *ph)
{
	struct stallwatch *sw = &ph->stalls;
	FILE *out = progress_stream();

	if (atomic_load(&sw->nr_done) >= 2) {
		phase_rec_add_metric(&ph->rec, "stalls", (double)sw->nr_all,
				     "stalls", BETTER_LOWER);
		phase_rec_add_metric(&ph->rec, "stall_max_ms",
				     (double)stallwatch_max_ns(sw) / 1e6,
				     "ms", BETTER_LOWER);
		phase_rec_add_metric(&ph->rec, "stall_total_ms",
				     (double)stallwatch_total_ns(sw) / 1e6,
				     "ms", BETTER_LOWER);
		keep_stalls(&ph->rec, sw);
	}
	for (size_t i = 0; i < sw->nr && par_rank() == 0; i++) {
		if (i == 5) {
			fprintf(out, "fslab: %s: %llu more stalls\n",
				ph->rec.name,
				(unsigned long long)(sw->nr_all - i));
			break;
		}
		fprintf(out, "fslab: %s: stall of %.0f ms at %.3f s (no "
			"operation completed)\n", ph->rec.name,
			(double)sw->v[i].len_ns / 1e6,
			(double)sw->v[i].start_ns / 1e9);
	}
	stallwatch_release(sw);
}

bool phase_stop_requested(void)
{
	return interrupt_requested();
}

void phase_work(struct phase *ph, uint64_t bytes, uint64_t files,
		uint64_t ops)
{
	ph->rec.bytes += bytes;
	ph->rec.files += files;
	ph->rec.ops += ops;
}

void phase_metric(struct phase *ph, const char *name, double value,
		  const char *unit, enum better better)
{
	phase_rec_add_metric(&ph->rec, name, value, unit, better);
}

void phase_metrics_copy(struct phase *ph, const struct phase_rec *src)
{
	for (size_t i = 0; i < src->nr_metrics; i++)
		phase_rec_add_metric(&ph->rec, src->metrics[i].name,
				     src->metrics[i].value,
				     src->metrics[i].unit,
				     src->metrics[i].better);
	for (size_t i = 0; i < src->nr_hists; i++)
		phase_rec_copy_hist(&ph->rec, &src->hists[i]);
}

void phase_latency(struct phase *ph, const char *prefix,
		   const struct lathist *h)
{
	phase_rec_add_latency(&ph->rec, prefix, h);
}

void phase_worker(struct phase *ph, int worker, uint64_t start_ns,
		  uint64_t end_ns, uint64_t bytes, uint64_t files,
		  uint64_t ops)
{
	rec_add_worker(&ph->rec, worker, start_ns, end_ns, bytes, files, ops);
}

void phase_fail(struct phase *ph, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Keep the first reason: later ones are usually consequences. */
	if (ph->rec.status == PHASE_FAILED)
		return;
	ph->rec.status = PHASE_FAILED;
	free(ph->rec.error);
	ph->rec.error = xstrdup(msg);
}

int phase_end(struct wl_ctx *ctx, struct phase *ph,
	      const struct phase_rec **out)
{
	struct measure_snap end;
	struct co_set co_vals = { 0 };
	struct phase_rec *rec;
	const struct phase_hook *hooks;
	size_t nr_hooks;
	int rc = 0;

	int64_t runq;

	measure_snap(&end, ph->devname);
	if (ph->co_src.level != COMETRIC_NONE) {
		struct cometric_snap co_end;

		cometric_snap(&co_end, &ph->co_src,
			      ctx->runner ? ctx->runner->co_reader : NULL);
		cometric_diff(&ph->co, &co_end, &co_vals);
		cometric_snap_release(&co_end);
	}
	cometric_snap_release(&ph->co);
	runq = machine_runq_wait_ns();
	measure_diff(&ph->snap, &end, &ph->rec.m);
	/* Time spent runnable but not running: with it, a phase that waited
	 * for a busy machine's CPUs still shows as CPU-bound (check/). */
	if (runq >= 0 && ph->runq_ns >= 0 && runq >= ph->runq_ns)
		phase_rec_add_metric(&ph->rec, "sched.runq_wait_s",
				     (double)(runq - ph->runq_ns) / 1e9, "s",
				     BETTER_NONE);
	if (par_active())
		aggregate_ranks(&ph->rec, &ph->snap, &end);
	if (phase_stop_requested() && ph->rec.status == PHASE_OK) {
		ph->rec.status = PHASE_INTERRUPTED;
		ph->rec.error = xstrdup("interrupted by a signal");
	}
	measure_derive(&ph->rec);
	record_stalls(ph);
	cometric_record(&co_vals, &ph->rec);
	co_set_release(&co_vals);
	hooks = ctx_hooks(ctx, &nr_hooks);
	for (size_t i = nr_hooks; i-- > 0;)
		if (hooks[i].end)
			hooks[i].end(hooks[i].data, ctx, &ph->rec);

	if (writer_phase(ctx->writer, ctx->wlrun, &ph->rec, &rec) < 0)
		rc = -1;
	free(ph);
	if (rec->status == PHASE_FAILED)
		rc = -1;
	progress_phase_end(rec);
	if (out)
		*out = rec;
	return rc;
}

int wl_keep_text(struct wl_ctx *ctx, const char *name, const char *content)
{
	return writer_text(ctx->writer, ctx->wlrun, name, content);
}

void phase_stonewall_arm(struct phase *ph, double seconds)
{
	ph->stonewall_ns = seconds > 0 ? now_ns() + (uint64_t)(seconds * 1e9)
				       : 0;
}

bool phase_stonewall_hit(const struct phase *ph)
{
	return ph->stonewall_ns && now_ns() >= ph->stonewall_ns;
}

uint64_t phase_stonewall_agree(struct wl_ctx *ctx, struct phase *ph,
			       const uint64_t *done, size_t nr_workers,
			       const char *unit)
{
	/* v[0] max, v[1] latest stop: MAX; w[0] min, w[1] earliest start:
	 * MIN; sum: SUM.  Three small allreduces beat a custom MPI_Op. */
	uint64_t v[2] = { 0, realtime_ns() }, w[2] = { UINT64_MAX,
						      ph->snap.real_ns };
	uint64_t sum = 0;
	double secs;
	char name[64];

	(void)ctx;
	for (size_t i = 0; i < nr_workers; i++) {
		sum += done[i];
		if (done[i] > v[0])
			v[0] = done[i];
		if (done[i] < w[0])
			w[0] = done[i];
	}
	if (!nr_workers)
		w[0] = 0;
	par_allreduce_u64(v, 2, PAR_MAX);
	par_allreduce_u64(w, 2, PAR_MIN);
	par_allreduce_u64(&sum, 1, PAR_SUM);
	secs = v[1] > w[1] ? (double)(v[1] - w[1]) / 1e9 : 0;
	phase_rec_add_metric(&ph->rec, "stonewall_s", secs, "s", BETTER_NONE);
	snprintf(name, sizeof(name), "stonewall_%s", unit);
	phase_rec_add_metric(&ph->rec, name, (double)sum, unit,
			     BETTER_HIGHER);
	if (secs > 0) {
		char rate_unit[48];

		snprintf(name, sizeof(name), "stonewall_%s/s", unit);
		snprintf(rate_unit, sizeof(rate_unit), "%s/s", unit);
		phase_rec_add_metric(&ph->rec, name, (double)sum / secs,
				     rate_unit, BETTER_HIGHER);
	}
	phase_rec_add_metric(&ph->rec, "stonewall_min", (double)w[0], unit,
			     BETTER_NONE);
	phase_rec_add_metric(&ph->rec, "stonewall_max", (double)v[0], unit,
			     BETTER_NONE);
	return v[0];
}

char *rank_dir_name(const char *shared, int rank)
{
	return xasprintf("%s/rank-%05d", shared, rank);
}

char *wl_rank_dir(const struct wl_ctx *ctx, int rank)
{
	if (rank == ctx->rank)
		return xstrdup(ctx->dir);
	return rank_dir_name(ctx->shared_dir, rank);
}

int wl_sync(struct wl_ctx *ctx)
{
	return target_sync(ctx->target);
}

/*
 * All ranks learn whether any failed; rank 0 names the first one that
 * did (its own failure it has printed already).  Returns true when all
 * are fine.
 */
bool all_ranks_ok(bool ok, const char *what)
{
	char why[256] = "";
	int bad = par_agree(ok, last_error(), why, sizeof(why));

	if (bad > 0 && par_rank() == 0)
		error("rank %d failed %s: %s (on host %s)", bad, what, why,
		      par_host(bad));
	return bad < 0;
}

/*
 * Once per run, on several hosts: rank 0 says which rank dropped each
 * host's caches (gathered, not assumed), so a hostfile that put two
 * "hosts" on one machine, or none on some, shows.
 */
static void say_cache_drops(struct wl_ctx *ctx)
{
	static bool said;
	uint64_t me = par_node_leader(), *did;
	int n = par_size(), drops = 0;

	if (said || par_nodes() <= 1)
		return;
	said = true;
	did = xcalloc((size_t)n, sizeof(*did));
	par_allgather_u64(&me, 1, did);
	if (par_rank() == 0) {
		struct strbuf sb = STRBUF_INIT;

		for (int r = 0; r < n; r++)
			if (did[r]) {
				drops++;
				strbuf_addf(&sb, " %s (rank %d)", par_host(r),
					    r);
			}
		printf("fslab: caches dropped once per host, each through "
		       "its own mount of %s, on %d of %d hosts:%s\n",
		       ctx->target && ctx->target->workdir
			       ? ctx->target->workdir
			       : "the target",
		       drops, par_nodes(), sb.buf);
		strbuf_release(&sb);
	}
	free(did);
}

/*
 * Under MPI only the lowest rank of each node drops that node's caches
 * (the others just sync what they wrote), between two barriers, so no
 * rank starts reading while another node is still dropping.
 */
static int ranks_cache_step(struct wl_ctx *ctx, int (*fn)(struct target *))
{
	int rc;

	if (ctx->runner)
		ctx->runner->cache_dropped = true;
	if (!par_active())
		return fn(ctx->target);
	par_barrier();
	rc = par_node_leader() ? fn(ctx->target) : target_sync(ctx->target);
	if (!all_ranks_ok(rc == 0, "to drop caches"))
		return -1;
	say_cache_drops(ctx);
	return 0;
}

int wl_ranks_agree(struct wl_ctx *ctx, int rc, const char *what)
{
	(void)ctx;
	return all_ranks_ok(rc == 0, what) ? 0 : -1;
}

int wl_drop_caches(struct wl_ctx *ctx)
{
	return ranks_cache_step(ctx, target_drop_caches);
}

int wl_cold_cache(struct wl_ctx *ctx)
{
	return ranks_cache_step(ctx, target_cold);
}
