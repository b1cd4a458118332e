/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * workload.h - the contract between the core and a workload.
 *
 * A workload is src/workloads/<name>.c (or a folder src/workloads/<name>/
 * once it needs several files) that exports one
 * `const struct workload wl_<name>` and keeps everything else to itself.
 * It does filesystem work in ctx->dir and reports it in phases:
 *
 *	struct phase *ph = phase_begin(ctx, "create", "kernel-3");
 *	... do the work, phase_work(ph, bytes, files, ops) ...
 *	phase_metric(ph, "sync_s", 0.4, "s", BETTER_LOWER);
 *	if (phase_end(ctx, ph, &res) < 0) goto out;
 *
 * The core measures time, CPU and device I/O around the phase, derives
 * rates, runs the phase hooks (tracing), and hands the phase to the run
 * writer (store/writer.h), which commits it to the store in one
 * transaction, so an interrupted run keeps what it measured.  Every
 * phase name is one of the workload's .phases (or a core phase).
 * A workload never prints results itself: `report` renders the classic
 * text from a wlrun_rec, the same whether it was just measured or loaded
 * back from the store by `fslab show`.
 *
 * Adding a workload (README "How to add a workload"):
 *  1. write src/workloads/<name>.c (or <name>/<name>.c with internal.h
 *     and report.c beside it) ending in
 *     `const struct workload wl_<name> = { .name = "<name>", ... };`
 *     with the capability flags it truly has (enum workload_flags): the
 *     runner enforces them, nothing tests a workload's name
 *  2. latencies through phase_latency(), the one naming rule (result.h)
 *  3. declare it in src/workloads/registry.h and add it, sorted by name,
 *     to the table in src/workloads/registry.c
 *  4. unit tests for its pure logic in tests/unit/, an integration test
 *     in tests/t/; tests/unit/test_registry.c checks the table and the
 *     flags against the options.
 */
#ifndef FSLAB_WORKLOAD_H
#define FSLAB_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/result.h"
#include "util/opt.h"

struct target;
struct runner;
struct run_writer;
struct phase;
struct lathist;

/*
 * What a workload can do and needs.  The runner enforces every flag in
 * one place before it builds a target (runner.c, run_refused()); nothing
 * else tests a workload's name.
 */
enum workload_flags {
	WL_NEEDS_ROOT = 1 << 0,    /* refused unless run as root: it works
				    * on the unmounted device */
	WL_MPI_AWARE = 1 << 2,     /* supports running on many ranks: every
				    * rank makes the same phase calls */
	WL_VERIFY = 1 << 3,        /* --verify: writes the util/verify.h
				    * pattern and checks every read */
	WL_NO_DATA = 1 << 4,       /* writes no file data, so --verify has
				    * nothing to check and is accepted */
};

/* What a workload sees of the run. */
struct wl_ctx {
	const char *dir;          /* working directory on the target; exists */
	uint64_t seed;            /* run seed (--seed), for reproducible draws */
	int rep;                  /* repetition number, from 0 */
	struct target *target;    /* the filesystem under test */
	FILE *progress;           /* progress lines (stderr), never results */
	struct runner *runner;    /* core-private */
	struct wlrun_rec *wlrun;  /* the record being filled (read-only) */
	int rank, nranks;         /* MPI rank and world size (0 and 1 alone) */
	const char *shared_dir;   /* the directory all ranks share; dir is
				   * its rank-NNNNN subdirectory under MPI,
				   * the same as dir otherwise */
	bool verify;              /* --verify: write the util/verify.h pattern
				   * and check it on every read */
	const void *opts;          /* its parsed options (phases_of) */
	const struct workload *wl; /* whose run() this is: phase_begin()
				    * accepts only its .phases and the
				    * core phases (wl_core_phases) */
	struct run_writer *writer; /* core-private: phase_end() hands every
				    * record to it (store/writer.h) */
	const char *phase_prefix; /* core-private: stored phase names are
				   * "PREFIX/name" (fslab age --with) */
};

/*
 * What a workload needs of its target at its peak, for pre-flight: rough
 * upper bounds are fine, a missed need is found late, as before.
 */
struct wl_needs {
	uint64_t bytes;      /* file data at the peak */
	uint64_t inodes;     /* files and directories at the peak */
	char what[160];      /* what needs it: "bonnie's 48.0G scratch file" */
	char inodes_what[160]; /* what needs the inodes, if not what */
};

/* One configuration in a comparison: its label and its repetitions. */
struct cmp_group {
	const char *label;                  /* target name, or RUN/TAG */
	const struct run_rec *run;          /* the run the reps belong to */
	const struct wlrun_rec *const *reps; /* same workload, one per rep */
	size_t nr_reps;
	/* The run of each rep (a TAG may name several runs); NULL: run. */
	const struct run_rec *const *rep_runs;
};

struct workload {
	const char *name;
	const char *summary;            /* one line for `fslab list` */
	const char *const *phases;      /* phase names, NULL-terminated */
	unsigned flags;                 /* enum workload_flags */
	const struct opt *opts;         /* option table, OPT_END-terminated */
	size_t opts_size;               /* sizeof the option struct */
	/*
	 * Check the parsed options together (cross-field rules).  Returns 0,
	 * or -1 with the reason in err.  May be NULL.
	 */
	int (*check)(const void *opts, char *err, size_t errlen);
	/*
	 * Do the work.  Returns 0, or -1 after the failure was printed and
	 * recorded in the failing phase.  Must return promptly (within one
	 * operation) once phase_stop_requested() turns true.
	 */
	int (*run)(struct wl_ctx *ctx, const void *opts);
	/*
	 * Print the workload's classic text result for one workload run
	 * (its phases as measured or as loaded from the store).
	 */
	void (*report)(FILE *out, const struct run_rec *run,
		       const struct wlrun_rec *wr);
	/*
	 * Optional: the workload's classic side-by-side comparison of several
	 * configurations (groups[0] is the baseline), e.g. compilebench's two
	 * "Average ... results" blocks, FFSB's "tps@%CPU +x% over baseline".
	 * `fslab compare` prints it before its generic statistics table.
	 */
	void (*report_compare)(FILE *out, const struct cmp_group *groups,
			       size_t nr_groups);
	/*
	 * Optional: the classic text result over all of one run's runs of
	 * this workload (same options), one group per target with its
	 * repetitions, printed once after them by `run` and `show`
	 * (bonnie++'s table with a row per filesystem and repetition,
	 * compilebench's "Average NAME results").
	 */
	void (*report_run)(FILE *out, const struct cmp_group *groups,
			   size_t nr_groups);
	/*
	 * The figures that decide "better or worse", as "phase/metric"
	 * ("summary/patch.avg_MiB/s", "read/MiB/s"), NULL-terminated; may be
	 * NULL.
	 * compare uses them for its roll-up and --fail-on-regression, and
	 * run --until-cov watches the first.
	 */
	const char *const *key_metrics;
	/*
	 * Without WL_VERIFY or WL_NO_DATA: why --verify is refused, for the
	 * error message and `fslab run --help`; NULL means "not yet".
	 */
	const char *no_verify;
	/*
	 * Optional: fill *n (zeroed) with what these options need on a
	 * target; pre-flight refuses a target that cannot hold it before
	 * any target is built.  nranks: MPI ranks sharing the target.
	 */
	void (*needs)(const void *opts, int nranks, struct wl_needs *n);
	/*
	 * Optional, for workloads that run what the user brings (fio's job
	 * files): called once right after the options are parsed, before
	 * check().  It may read the input the options name and keep it in
	 * the options (a job file's text and hash), so the work is fixed
	 * from then on and the stored options say exactly what ran.
	 * Returns 0, or -1 with the reason in err.
	 */
	int (*prepare)(void *opts, char *err, size_t errlen);
	/*
	 * Optional: the phase names these options make, when they come
	 * from the input (fio's job sections), NULL-terminated and owned by
	 * opts; NULL: .phases.  .phases then lists what the names may be
	 * for `fslab list`, and key_metrics may name the phase as "*".
	 */
	const char *const *(*phases_of)(const void *opts);
};

/* The phase names a workload run with opts makes (phases_of or .phases). */
const char *const *wl_phase_names(const struct workload *wl,
				  const void *opts);

/* ---- the phase API (implemented by the core, src/phase/phase.c) ---- */

/*
 * The phases the core itself adds to a workload run ("verify-data",
 * --verify's final pass), NULL-terminated; no workload declares them.
 */
extern const char *const wl_core_phases[];
/* Is name one of wl's .phases or a core phase? */
bool wl_phase_declared(const struct workload *wl, const char *name);

/*
 * Start measuring a phase.  label may be NULL.  Never fails; a name
 * neither in ctx->wl's .phases nor a core phase is a BUG().
 */
struct phase *phase_begin(struct wl_ctx *ctx, const char *name,
			  const char *label);
/* Add work done (accumulates). */
void phase_work(struct phase *ph, uint64_t bytes, uint64_t files,
		uint64_t ops);
/*
 * Optional, for the progress line (src/phase/progress.h): how much work the
 * phase will do (0 where unknown), or how long a time-based phase runs,
 * and the work done so far while it runs.  Cheap (relaxed atomics) and
 * thread-safe; they never touch the phase's record: phase_work() still
 * reports the totals.
 */
void phase_expect(struct phase *ph, uint64_t bytes, uint64_t files,
		  uint64_t ops);
void phase_expect_secs(struct phase *ph, double seconds);
void phase_progress(struct phase *ph, uint64_t bytes, uint64_t files,
		    uint64_t ops);
/* Record one of the workload's own figures. */
void phase_metric(struct phase *ph, const char *name, double value,
		  const char *unit, enum better better);
/* Record every metric of src, e.g. figures an engine builds as a
 * phase_rec (frag_to_phase_metrics). */
void phase_metrics_copy(struct phase *ph, const struct phase_rec *src);
/* Record one worker's share (threads, ranks); times are CLOCK_REALTIME. */
void phase_worker(struct phase *ph, int worker, uint64_t start_ns,
		  uint64_t end_ns, uint64_t bytes, uint64_t files,
		  uint64_t ops);
/* Record a latency histogram (nanoseconds) by the one rule of result.h:
 * PREFIX.lat_p50_ms .. lat_max_ms, lat_mean_ms; prefix may be NULL. */
void phase_latency(struct phase *ph, const char *prefix,
		   const struct lathist *h);
/* Mark the phase failed with a reason (printed once by the caller). */
void phase_fail(struct phase *ph, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Stop measuring, derive rates, run hooks, hand the record to the run
 * writer (appended to ctx->wlrun, and stored when storing).  *out (may be NULL)
 * receives a pointer to the finished record inside ctx->wlrun, valid only
 * until the next phase_end() (the array grows): copy what you need.
 * Returns 0, or -1 when the phase failed or could not be stored (message
 * printed).  ph is consumed either way.
 */
int phase_end(struct wl_ctx *ctx, struct phase *ph,
	      const struct phase_rec **out);

/*
 * Stonewalling (IOR/mdtest -W): a phase that may take at most SECONDS.
 * Arm it right after phase_begin(); the workers poll phase_stonewall_hit()
 * (cheap, thread-safe) and stop there.  Then every rank calls
 * phase_stonewall_agree() once with what each of its workers did by the
 * deadline: the ranks agree on the largest count of any worker, which it
 * returns, so with wear-out every worker goes on up to it and later phases
 * find the same files everywhere.  It records stonewall_s (earliest start
 * to latest stop at the deadline), stonewall_<unit> (the work summed over
 * all workers then), stonewall_<unit>/s, and the smallest and largest
 * worker count (stonewall_min/max); the phase's own wall time and rate
 * stay those of the full phase, wear-out included.  Alone it is the same
 * with one rank.  phase_stonewall_agree() is collective: every rank calls
 * it, also one that failed (with what it did).
 */
void phase_stonewall_arm(struct phase *ph, double seconds);
bool phase_stonewall_hit(const struct phase *ph);
uint64_t phase_stonewall_agree(struct wl_ctx *ctx, struct phase *ph,
			       const uint64_t *done, size_t nr_workers,
			       const char *unit);

/*
 * Every rank passes its rc (0 or -1); returns 0 when all ranks passed 0,
 * else -1, and rank 0 names the first failing other rank.  For steps
 * between phases that one rank does for all (a shared directory), so no
 * rank runs ahead or on alone.  Collective.
 */
int wl_ranks_agree(struct wl_ctx *ctx, int rc, const char *what);

/*
 * The working directory of another rank (its ctx->dir), e.g. to read what
 * rank r + K wrote (reorder=K); the own rank gives ctx->dir.  Allocated.
 */
char *wl_rank_dir(const struct wl_ctx *ctx, int rank);

/*
 * Keep a named text with this workload run (fio's job file, a tool's own
 * output), stored beside its phases and printed by `fslab show`.
 * Returns 0, or -1 when it could not be stored (message printed).
 */
int wl_keep_text(struct wl_ctx *ctx, const char *name, const char *content);

/* True once SIGINT/SIGTERM arrived: finish the current op and return. */
bool phase_stop_requested(void);

/* Cold cache: sync, remount (owned targets), drop caches.  0 or -1. */
int wl_cold_cache(struct wl_ctx *ctx);
/* Only sync + drop page/dentry/inode caches (no remount).  0 or -1. */
int wl_drop_caches(struct wl_ctx *ctx);
/* syncfs() the target.  0 or -1. */
int wl_sync(struct wl_ctx *ctx);

/* ---- --verify in phases (src/phase/phase_verify.c; the pattern: util/verify.h) ---- */

struct verify_bad;

/*
 * Record a mismatch: fail the phase (unless ph is NULL) with "verify:
 * file PATH offset N: WHAT" and print it.  Returns -1, for `return verify_fail(...)`.
 */
int verify_fail(struct phase *ph, const char *path,
		const struct verify_bad *bad);

/*
 * The final pass "at the end": drop caches, then a phase "verify-data"
 * (not "verify": distribute and tree have phases of that name) that reads
 * every regular file under ctx->dir (or under sub, relative to it, when
 * not NULL) and checks it against its path's id.  Its metrics
 * are not benchmark figures (no workload lists them in key_metrics).
 * Returns 0, or -1 after the mismatch or error was recorded and printed.
 */
int verify_phase_tree(struct wl_ctx *ctx, const char *sub);

#endif
