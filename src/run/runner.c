/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner.c - the run loop (the phase API workloads report through is
 * phase.c).
 *
 * Repetitions are interleaved across targets (A B C A B C ...), each on
 * a freshly built filesystem, so slow drift of a shared machine hits every
 * configuration alike.  Every phase is measured the same way (measure.c)
 * and handed to the run writer (store/writer.h), which commits it to the
 * store on its own and appends it to the in-memory run_rec that the
 * workload's report() and --json render.
 *
 * Signals: the first SIGINT/SIGTERM only sets a flag; workloads poll
 * phase_stop_requested() and return, and the runner tears the target down
 * normally.  A second signal exits at once: the state journal lets
 * `fslab cleanup` finish the job.
 */
#include "run/runner.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <math.h>

#include "cometric/cometric.h"
#include "fs/state.h"
#include "phase/order.h"
#include "fs/wldir.h"
#include "cometric/machine.h"
#include "measure/measure.h"
#include "phase/phase_internal.h"
#include "output/checks.h"
#include "output/json.h"
#include "output/decision.h"
#include "output/runreport.h"
#include "output/summary.h"
#include "phase/par.h"
#include "phase/progress.h"
#include "stats/stats.h"
#include "store/store.h"
#include "store/writer.h"
#include "run/until.h"
#include "util/interrupt.h"
#include "util/util.h"
#include "util/version.h"
#include "workloads/registry.h"

/* The first SIGINT/SIGTERM/SIGHUP (util/interrupt.c). */
#define stop_requested interrupt_requested()

void run_config_add_hook(struct run_config *cfg,
			 const struct phase_hook *hook)
{
	ALLOC_GROW(cfg->hooks, cfg->nr_hooks + 1, cfg->alloc_hooks);
	cfg->hooks[cfg->nr_hooks++] = *hook;
}

/* ---- workload specs ---- */

int run_workload_parse(const char *s, struct run_workload *w, char *err,
		       size_t errlen)
{
	const char *colon = strchr(s, ':');
	char *name = colon ? xstrndup(s, (size_t)(colon - s)) : xstrdup(s);
	const struct workload *wl = wl_find(name);
	char why[512];

	memset(w, 0, sizeof(*w));
	if (!wl) {
		const char *sug = wl_suggest(name);

		if (sug)
			snprintf(err, errlen,
				 "unknown workload '%s' (did you mean '%s'?)",
				 name, sug);
		else
			snprintf(err, errlen,
				 "unknown workload '%s' (see 'fslab list')",
				 name);
		free(name);
		return -1;
	}
	free(name);
	w->wl = wl;
	w->spec = xstrdup(s);
	w->opts = xcalloc(1, wl->opts_size ? wl->opts_size : 1);
	opt_defaults(wl->opts, w->opts);
	if ((colon && opt_parse(wl->opts, w->opts, colon + 1, why,
				sizeof(why)) < 0) ||
	    (wl->prepare && wl->prepare(w->opts, why, sizeof(why)) < 0) ||
	    (wl->check && wl->check(w->opts, why, sizeof(why)) < 0)) {
		snprintf(err, errlen, "workload '%s': %s", wl->name, why);
		run_workload_release(w);
		return -1;
	}
	return 0;
}

void run_workload_release(struct run_workload *w)
{
	if (w->wl && w->opts)
		opt_release(w->wl->opts, w->opts);
	free(w->opts);
	free(w->spec);
	memset(w, 0, sizeof(*w));
}

/* ---- the run loop ---- */

void runner_install_signals(void)
{
	interrupt_install();
}

static struct run_rec *new_run(const struct run_config *cfg)
{
	struct run_rec *r = run_rec_begin(cfg->cmdline, cfg->tag, cfg->seed);

	r->target_order = xstrdup(cfg->blocked ? "blocked" :
				  cfg->fixed_order ? "fixed" : "balanced");
	if (par_rank() == 0)
		machine_record(r);
	for (size_t i = 0; i < cfg->nr_accept; i++)
		run_rec_add_fact(r, "accept", cfg->accept[i], "--accept");
	for (size_t i = 0; i < cfg->nr_facts; i++)
		run_rec_add_fact(r, cfg->facts[i].scope, cfg->facts[i].key,
				 cfg->facts[i].value);
	/* what the setup check's repetitions advice measures against */
	if (cfg->change_planned) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%g", cfg->min_change_pct);
		run_rec_add_fact(r, "plan", "min_change_pct", buf);
	}
	return r;
}

/* "fresh", "aged:PROFILE" or "existing" (a dir: or an aged image). */
static char *target_state(const struct target_spec *s)
{
	if (s->age)
		return xasprintf("aged:%s", s->age);
	if (s->kind == TARGET_AGED)
		return xstrdup("aged:golden");
	return xstrdup(s->kind == TARGET_LOOP || s->kind == TARGET_DEV ?
		       "fresh" : "existing");
}

/*
 * Give each workload its own subdirectory so several can share a target:
 * <wl>-<k>-r<rep>.fslab-<run id>-<nonce>, created exclusively (never an
 * existing directory, so never a user's or another run's) and, on a dir:
 * target, journaled for `fslab cleanup`.  Every rank agrees on the name;
 * rank 0 creates it.  The drop-in commands (plain) use the directory the
 * user named as is.  *fd is the open directory.
 */
static char *workload_dir(const struct runner *rn, struct target *t,
			  const struct workload *wl, size_t k, int rep,
			  int *fd)
{
	const struct run_config *cfg = rn->cfg;
	uint64_t v[2] = { (uint64_t)(rn->w.run->id > 0 ? rn->w.run->id : 0),
			  wldir_nonce() };
	char *stem, *tag, *dir = NULL;

	*fd = -1;
	if (cfg->plain)
		return xstrdup(t->workdir);
	par_allreduce_u64(v, 2, PAR_MAX);
	stem = xasprintf("%s-%zu-r%d", wl->name, k, rep);
	tag = xasprintf("%" PRIu64 "-%08" PRIx64, v[0], v[1] & 0xffffffffu);
	if (par_rank() == 0)
		dir = wldir_create(t->workdir, stem, tag,
				   t->spec.kind == TARGET_DIR, fd);
	if (par_active()) {
		bool ok = all_ranks_ok(par_rank() || dir, "to create its "
				       "directory");

		if (ok && par_rank()) {
			dir = xasprintf("%s/%s%s%s", t->workdir, stem,
					WLDIR_MARK, tag);
			*fd = wldir_open(dir);
		}
	}
	free(stem);
	free(tag);
	/* Held open only where it serves the removal: an open directory
	 * would keep an owned target busy when the cold cache unmounts. */
	if (*fd >= 0 && (cfg->plain || t->spec.kind != TARGET_DIR)) {
		close(*fd);
		*fd = -1;
	}
	return dir;
}

/* Remove a workload's tree through fds (fs/wldir.h).  0 or -1. */
static int remove_tree(const char *path, int fd, bool journal)
{
	int ret, own = -1;

	if (fd < 0)
		fd = own = wldir_open(path);
	if (fd < 0)
		return -1;
	ret = wldir_remove(path, fd, journal);
	if (own >= 0)
		close(own);
	return ret;
}

/*
 * A failed workload already said why; say where, from what the failing
 * phase recorded, so "disk full after 53M in 854 files" reads plainly.
 */
static void print_failed_where(const struct wlrun_rec *wr,
			       const char *target)
{
	char size[32];

	for (size_t j = wr->nr_phases; j-- > 0;) {
		const struct phase_rec *p = &wr->phases[j];

		if (p->status != PHASE_FAILED)
			continue;
		fprintf(stderr, "fslab: %s on %s failed in phase '%s' after "
			"%s in %" PRIu64 " files: %s\n", wr->workload, target,
			p->name, fmt_size(size, sizeof(size), p->bytes),
			p->files, p->error ? p->error : "no reason given");
		return;
	}
}

/* Where ranks other than 0 send their progress lines. */
static FILE *quiet_stream(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	return null ? null : stderr;
}

/* Where the text results go: stderr when stdout carries the JSON. */
static FILE *text_out(const struct run_config *cfg)
{
	if (cfg->no_report)
		return quiet_stream();
	return cfg->json && !strcmp(cfg->json, "-") ? stderr : stdout;
}

/*
 * Under MPI every rank works in its own rank-NNNNN subdirectory of the
 * workload directory (created by each rank; mkdir_p tolerates the race
 * on the shared parent).  Returns the rank directory, or NULL.
 */
static char *rank_dir(const char *shared)
{
	char *dir;

	if (!par_active())
		return xstrdup(shared);
	dir = rank_dir_name(shared, par_rank());
	if (mkdir_p(dir, 0755) < 0) {
		error_errno("cannot create '%s'", dir);
		free(dir);
		return NULL;
	}
	return dir;
}

static int run_one_workload(struct runner *rn, struct target *t,
			    int target_idx, int rep, size_t k)
{
	const struct run_config *cfg = rn->cfg;
	const struct run_workload *w = &cfg->wls[k];
	struct wlrun_rec rec = { .pos = -1 }, *wr;
	bool lead = par_rank() == 0;
	char *shared, *mine = NULL;
	int shared_fd;
	const char *status;
	struct wl_ctx ctx;
	int rc;

	rec.target_idx = target_idx;
	rec.workload = xstrdup(w->wl->name);
	rec.options = opt_format(w->wl->opts, w->opts);
	rec.rep = rep;
	rec.pos = cfg->blocked ? -1 : (int)order_pos(
		cfg->fixed_order ? ORDER_FIXED : ORDER_BALANCED,
		cfg->nr_targets, cfg->seed, (size_t)rep,
		(size_t)rn->w.run->targets[target_idx].idx);
	if (writer_wlrun_begin(&rn->w, &rec, &wr) < 0)
		return -1;

	shared = workload_dir(rn, t, w->wl, k, rep, &shared_fd);
	if (shared)
		mine = rank_dir(shared);
	if (!all_ranks_ok(mine != NULL, "to create its directory")) {
		free(mine);
		free(shared);
		return -1;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.dir = mine;
	ctx.shared_dir = shared;
	ctx.rank = par_rank();
	ctx.nranks = par_size();
	ctx.seed = cfg->seed;
	ctx.rep = rep;
	ctx.target = t;
	ctx.progress = lead ? progress_stream() : quiet_stream();
	ctx.runner = rn;
	ctx.wl = w->wl;
	ctx.opts = w->opts;
	ctx.writer = &rn->w;
	ctx.wlrun = wr;
	ctx.verify = cfg->verify;

	if (!cfg->plain && lead)
		fprintf(ctx.progress, "fslab: %s on %s (rep %d, %d rank%s)\n",
			w->wl->name, t->spec.name, rep + 1, par_size(),
			par_size() == 1 ? "" : "s");
	rc = w->wl->run(&ctx, w->opts);
	if (!all_ranks_ok(rc == 0, w->wl->name))
		rc = -1;
	status = stop_requested ? "interrupted" : rc ? "failed" : "complete";
	writer_wlrun_finish(&rn->w, wr, status);

	if (lead && rc && !stop_requested)
		print_failed_where(wr, t->spec.name);
	if (lead) {
		FILE *out = text_out(cfg);

		if (!cfg->plain && wr->pos >= 0 && cfg->nr_targets > 1)
			fprintf(out, "\n== %s on %s rep %d (position %d of "
				"%zu, %s order): %s\n", w->wl->name,
				t->spec.name, rep + 1, wr->pos + 1,
				cfg->nr_targets, rn->w.run->target_order,
				status);
		else if (!cfg->plain)
			fprintf(out, "\n== %s on %s rep %d: %s\n",
				w->wl->name, t->spec.name, rep + 1, status);
		if (w->wl->report)
			w->wl->report(out, rn->w.run, wr);
		fflush(out);
	}

	/* Owned targets are destroyed anyway; a user's directory is not. */
	if (!cfg->plain && t->spec.kind == TARGET_DIR) {
		if (par_active() && remove_tree(mine, -1, false))
			rc = -1;
		par_barrier();
		if (lead && remove_tree(shared, shared_fd, true))
			rc = -1;
	}
	if (shared_fd >= 0)
		close(shared_fd);
	free(mine);
	free(shared);
	return rc;
}

/*
 * The one place the workloads' capability flags are enforced, before
 * any target is built: --verify needs WL_VERIFY (or WL_NO_DATA),
 * WL_NEEDS_ROOT needs root, and under mpirun the targets must be the
 * shared filesystem (dir:) and the workloads WL_MPI_AWARE (the same
 * phase calls on every rank).  Every rank checks the same
 * configuration, so all refuse together; rank 0 says why.
 */
static bool run_refused(const struct run_config *cfg)
{
	const char *why = NULL;
	char buf[256];

	for (size_t k = 0; k < cfg->nr_wls && !why; k++) {
		const struct workload *wl = cfg->wls[k].wl;

		if (cfg->verify && !(wl->flags & (WL_VERIFY | WL_NO_DATA))) {
			snprintf(buf, sizeof(buf), "--verify is not supported "
				 "by workload '%s' %s%s%s", wl->name,
				 wl->no_verify ? "(" : "yet",
				 wl->no_verify ? wl->no_verify : "",
				 wl->no_verify ? ")" : "");
			why = buf;
		} else if ((wl->flags & WL_NEEDS_ROOT) && !is_root()) {
			snprintf(buf, sizeof(buf), "workload '%s' needs root",
				 wl->name);
			why = buf;
		}
	}
	if (!par_active() || why)
		goto out;
	for (size_t i = 0; i < cfg->nr_targets && !why; i++)
		if (cfg->targets[i].kind != TARGET_DIR)
			why = "under MPI the target must be the shared "
			      "filesystem, as dir:PATH";
	for (size_t k = 0; k < cfg->nr_wls && !why && par_size() > 1; k++)
		if (!(cfg->wls[k].wl->flags & WL_MPI_AWARE)) {
			snprintf(buf, sizeof(buf), "workload '%s' runs on one "
				 "node only; it does not support MPI ranks",
				 cfg->wls[k].wl->name);
			why = buf;
		}
out:
	if (why && par_rank() == 0)
		error("%s", why);
	return why != NULL;
}

/* A target built for (a series of) repetitions. */
struct live_target {
	struct target t;
	int rec_idx;   /* its target_rec in run->targets */
	bool up;
};

/*
 * Build target i unless it is already up (--reuse keeps it between
 * repetitions).  Returns 0, -2 when refused, -3 on another failure.
 */
static int target_up(struct runner *rn, struct live_target *lt, size_t i,
		     int rep, const struct target_env *env)
{
	struct target_rec trec = { 0 };
	int rc;

	if (lt->up)
		return 0;
	memset(&lt->t, 0, sizeof(lt->t));
	lt->t.loop_fd = -1;
	rc = target_setup(&lt->t, &rn->cfg->targets[i], env);
	if (!all_ranks_ok(rc == 0, "to set up its target") && !rc)
		rc = -1;
	if (rc < 0) {
		target_teardown(&lt->t);
		return rc == -2 ? -2 : -3;
	}
	lt->rec_idx = (int)rn->w.run->nr_targets;
	target_to_rec(&lt->t, &trec);
	trec.idx = (int)i;
	trec.rep = rep;
	if (par_rank() == 0) {
		char *state = target_state(&rn->cfg->targets[i]);

		machine_record_target(rn->w.run, (int)i, lt->t.devname,
				      lt->t.workdir, state);
		free(state);
	}
	if (writer_target(&rn->w, &trec, NULL) < 0 ||
	    writer_facts(&rn->w) < 0) {
		target_teardown(&lt->t);
		return -3;
	}
	lt->up = true;
	return 0;
}

static int target_down(struct live_target *lt)
{
	if (!lt->up)
		return 0;
	lt->up = false;
	return target_teardown(&lt->t);
}

/*
 * One repetition of every workload on target i.  Returns 0, -1 when a
 * workload failed (the series goes on), or target_up()'s -2/-3 (it
 * stops).
 */
static int run_rep(struct runner *rn, struct live_target *lt, size_t i,
		   int rep, const struct target_env *env)
{
	const struct run_config *cfg = rn->cfg;
	int rc;

	progress_where(i + 1, cfg->nr_targets, cfg->targets[i].name, rep,
		       cfg->until_cov > 0 || cfg->until_decided ? 0
							 : cfg->repeat);
	if (!lt->up)
		progress_step(cfg->targets[i].age ? "building the target "
			      "(mkfs, mount, aging)" : "building the target "
			      "(mkfs, mount)");
	rc = target_up(rn, lt, i, rep, env);
	progress_step(NULL);
	if (rc < 0)
		return rc;
	rn->target = &lt->t;
	for (size_t k = 0; k < cfg->nr_wls && !stop_requested; k++)
		if (run_one_workload(rn, &lt->t, lt->rec_idx, rep, k) < 0)
			rc = -1;
	rn->target = NULL;
	if (!cfg->reuse && target_down(lt) < 0)
		rc = -1;
	return rc;
}

/*
 * The value --until-cov watches for one workload run: the first key
 * metric of the first workload ("phase/metric", averaged over that
 * phase's instances), or, for a workload without key metrics, its total
 * phase wall time.  NAN when the run has no such figure.
 */
static double watched_value(const struct workload *wl,
			    const struct wlrun_rec *w)
{
	const char *key = wl->key_metrics ? wl->key_metrics[0] : NULL;
	const char *slash = key ? strchr(key, '/') : NULL;
	double sum = 0;
	size_t n = 0;

	for (size_t j = 0; j < w->nr_phases; j++) {
		const struct phase_rec *p = &w->phases[j];
		const struct metric *m;

		if (!slash) {
			sum += (double)p->m.wall_ns / 1e9;
			n = 1;
			continue;
		}
		if (!key_metric_match(key, p->name, NULL))
			continue;
		if ((m = phase_rec_metric(p, slash + 1))) {
			sum += m->value;
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

/* The watched value of each of target i's finished repetitions. */
static double *target_values(const struct runner *rn, size_t i, size_t *nr)
{
	const struct workload *wl = rn->cfg->wls[0].wl;
	const struct run_rec *r = rn->w.run;
	double *v = xcalloc(r->nr_wlruns + 1, sizeof(*v));
	size_t n = 0;

	for (size_t j = 0; j < r->nr_wlruns; j++) {
		const struct wlrun_rec *w = &r->wlruns[j];
		double x;

		if (strcmp(w->workload, wl->name) ||
		    strcmp(w->status, "complete") ||
		    r->targets[w->target_idx].idx != (int)i)
			continue;
		x = watched_value(wl, w);
		if (!isnan(x))
			v[n++] = x;
	}
	*nr = n;
	return v;
}

/* CoV % of the watched value over target i's finished repetitions. */
static double target_cov(const struct runner *rn, size_t i, size_t *nr)
{
	double *v = target_values(rn, i, nr);
	struct stats_summary s;

	stats_summarize(v, *nr, &s);
	free(v);
	return s.cov_pct;
}

/*
 * Has the series for the given targets (NULL = all) done enough
 * repetitions?  Without --until-cov that is --repeat; with it, at least
 * --repeat (and 2) and then until every target's CoV is at or below the
 * threshold, or --max-repeat.
 */
static bool series_done(const struct runner *rn, const size_t *only,
			size_t nr, int done)
{
	const struct run_config *cfg = rn->cfg;
	int min = cfg->repeat;

	if (cfg->until_cov <= 0)
		return done >= cfg->repeat;
	if (min < 2)
		min = 2;
	if (done < min)
		return false;
	if (done >= cfg->max_repeat)
		return true;
	for (size_t k = 0; k < nr; k++) {
		size_t n, i = only ? *only : k;
		double cov = target_cov(rn, i, &n);

		if (isnan(cov) || cov > cfg->until_cov)
			return false;
	}
	return true;
}

/* Mean of the watched value over target i's finished repetitions. */
static double target_mean(const struct runner *rn, size_t i)
{
	size_t n;
	double *v = target_values(rn, i, &n), sum = 0;

	for (size_t k = 0; k < n; k++)
		sum += v[k];
	free(v);
	return n ? sum / (double)n : NAN;
}

/*
 * The fresh-vs-aged verdict (Conway et al.: aged vs fresh, same
 * content) on the watched figure; `fslab compare` has the full table.
 */
static void print_fresh_vs_aged(const struct runner *rn)
{
	const struct run_config *cfg = rn->cfg;
	const struct workload *wl = cfg->wls[0].wl;
	const char *key = wl->key_metrics ? wl->key_metrics[0] : "wall time";

	FILE *out = text_out(cfg);

	for (size_t i = 0; i < cfg->fresh_vs_aged; i++) {
		double fresh = target_mean(rn, i);
		double aged = target_mean(rn, i + cfg->fresh_vs_aged);

		if (isnan(fresh) || isnan(aged) || fresh == 0)
			fprintf(out, "fresh-vs-aged: %s: no %s %s to "
				"compare\n", cfg->targets[i].name, wl->name,
				key);
		else
			fprintf(out, "fresh-vs-aged: %s %s %s: aged/fresh = "
				"%.3f\n", cfg->targets[i].name, wl->name, key,
				aged / fresh);
	}
}

static void print_settling(const struct runner *rn)
{
	const struct run_config *cfg = rn->cfg;
	FILE *out = text_out(cfg);

	for (size_t i = 0; i < cfg->nr_targets; i++) {
		size_t n;
		double cov = target_cov(rn, i, &n);

		if (!isnan(cov) && cov <= cfg->until_cov)
			fprintf(out, "until-cov: %s settled at CoV %.2f%% "
				"after %zu repetition(s)\n",
				cfg->targets[i].name, cov, n);
		else
			fprintf(out, "until-cov: %s did NOT settle: CoV "
				"%.2f%% > %.2f%% after %zu repetition(s)\n",
				cfg->targets[i].name, cov, cfg->until_cov, n);
	}
}

/*
 * Flush what the machine wrote before the run (an apt install, a build,
 * a copy): its writeback would share the device with the first
 * repetition only.  Measured here: 3 GB left dirty made the default
 * suite's CoV 51 % instead of 1-2 %.
 */
static void flush_machine(const struct run_config *cfg)
{
	if (par_rank() == 0 && !cfg->plain) {
		progress_step("flushing the machine's dirty pages (sync)");
		sync();
		progress_step(NULL);
	}
	par_barrier();
}

/* What a person reads at the end of a run, in the order they need it. */
static void print_run_end(const struct run_config *cfg,
			  const struct run_rec *run, const char *dbpath,
			  int exit_code)
{
	FILE *out = text_out(cfg);

	if (run->nr_wlruns)
		runreport_print(out, run);
	if (run->nr_wlruns)
		summary_print(out, run, dbpath);
	decision_print(out, run);
	if (run->nr_wlruns)
		checks_print_run_brief(out, run);
	if (run->nr_wlruns && !exit_code && dbpath)
		summary_print_next(out, run, cfg->db);
}

int runner_execute(const struct run_config *cfg)
{
	struct runner rn = { .cfg = cfg, .hooks = cfg->hooks,
			     .nr_hooks = cfg->nr_hooks,
			     .co_metrics = cfg->co_metrics,
			     .stall_ns = (uint64_t)cfg->stall_ms * 1000000ULL };
	struct target_env env;
	int exit_code = EXIT_OK;
	struct live_target *live;
	struct until until;
	char *dbpath = NULL;
	const char *status;
	int wrc;
	char tag[64];
	int rc = 0;

	runner_install_signals();
	if (run_refused(cfg))
		return EXIT_USAGE;
	if (until_init(&until, cfg->until_decided, cfg->min_repeat,
		       cfg->max_repeat, cfg->alpha, cfg->min_change_pct) < 0)
		return EXIT_USAGE;
	live = xcalloc(cfg->nr_targets ? cfg->nr_targets : 1, sizeof(*live));
	/* Rank 0 alone writes the store: one writer per run, and no
	 * database traffic from hundreds of clients. */
	if (par_rank() == 0 && (!cfg->db || *cfg->db))
		dbpath = cfg->db ? xstrdup(cfg->db) : store_default_path();
	wrc = writer_begin(&rn.w, dbpath, new_run(cfg));
	if (wrc < 0 && !rn.w.st) {
		writer_close(&rn.w);
		free(dbpath);
		free(live);
		until_release(&until);
		return EXIT_RUNTIME;
	}
	if (wrc < 0 || writer_facts(&rn.w) < 0) {
		exit_code = EXIT_RUNTIME;
		goto out;
	}
	snprintf(tag, sizeof(tag), "fslab-%lld-%ld", (long long)rn.w.run->id,
		 (long)getpid());
	env.scratch = cfg->scratch ? cfg->scratch : TARGET_DEFAULT_SCRATCH;
	env.destroy_data = cfg->destroy_data;
	env.tag = tag;
	env.age = cfg->age;
	/* The co-metrics' files, opened once for all the run's phases. */
	if (rn.co_metrics != COMETRIC_NONE)
		rn.co_reader = cometric_reader_new();

	flush_machine(cfg);

	if (cfg->blocked) {
		for (size_t i = 0; i < cfg->nr_targets && !stop_requested;
		     i++) {
			for (int rep = 0; !stop_requested; rep++) {
				rc = run_rep(&rn, &live[i], i, rep, &env);
				if (rc == -1)
					exit_code = EXIT_RUNTIME;
				if (rc < -1)
					goto setup_failed;
				if (series_done(&rn, &i, 1, rep + 1))
					break;
			}
			if (target_down(&live[i]) < 0)
				exit_code = EXIT_RUNTIME;
		}
	} else {
		size_t *ord = xcalloc(cfg->nr_targets + 1, sizeof(*ord));

		for (int rep = 0; !stop_requested; rep++) {
			order_for_rep(cfg->fixed_order ? ORDER_FIXED
						       : ORDER_BALANCED,
				      cfg->nr_targets, cfg->seed, (size_t)rep,
				      ord);
			for (size_t k = 0;
			     k < cfg->nr_targets && !stop_requested; k++) {
				size_t i = ord[k];

				rc = run_rep(&rn, &live[i], i, rep, &env);
				if (rc == -1)
					exit_code = EXIT_RUNTIME;
				if (rc < -1) {
					free(ord);
					goto setup_failed;
				}
			}
			/* A repetition cut short is no look. */
			if (stop_requested)
				break;
			if (cfg->until_decided ?
			    until_look(&until, &rn.w, dbpath, rep + 1,
				       text_out(cfg)) :
			    series_done(&rn, NULL, cfg->nr_targets, rep + 1))
				break;
		}
		free(ord);
	}
	goto teardown;
setup_failed:
	exit_code = rc == -2 ? EXIT_USAGE : EXIT_RUNTIME;
teardown:
	for (size_t i = 0; i < cfg->nr_targets; i++)
		if (target_down(&live[i]) < 0)
			exit_code = EXIT_RUNTIME;
	if (cfg->until_cov > 0 && par_rank() == 0)
		print_settling(&rn);
	if (cfg->fresh_vs_aged && cfg->nr_wls && par_rank() == 0)
		print_fresh_vs_aged(&rn);
out:
	/* The shell's convention for "killed by signal N"; a reader that
	 * went away (no signal: SIGPIPE is ignored) is a runtime failure. */
	if (stop_requested)
		exit_code = interrupt_signal() ? 128 + interrupt_signal()
					       : EXIT_RUNTIME;
	status = stop_requested ? "incomplete"
		 : exit_code   ? "failed"
			       : "complete";
	/* A run refused before it measured anything is no result: leave
	 * no empty "failed" row behind (pre-flight catches most refusals
	 * earlier; a dev: target's safety checks come only here). */
	if (exit_code == EXIT_USAGE && !rn.w.run->nr_wlruns) {
		(void)!writer_discard(&rn.w, status);
	} else {
		if (writer_facts(&rn.w) < 0)
			exit_code = EXIT_RUNTIME;
		writer_finish(&rn.w, status);
	}
	if (par_rank() == 0 && cfg->json &&
	    json_write_run(rn.w.run, cfg->json) < 0)
		exit_code = EXIT_RUNTIME;
	if (par_rank() == 0 && !cfg->plain)
		print_run_end(cfg, rn.w.run, dbpath, exit_code);
	until_release(&until);
	cometric_reader_free(rn.co_reader);
	writer_close(&rn.w);
	free(dbpath);
	free(live);
	state_finish();
	return exit_code;
}
