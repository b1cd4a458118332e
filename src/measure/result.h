/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result.h - the in-memory shape of a run's results.
 *
 * One tree serves every consumer: the runner fills it while measuring,
 * the store writes it and loads it back, and every output format (the
 * workloads' classic text, JSON, later CSV/HTML/compare) renders it.
 * Nothing here knows about SQLite or about any output format.
 *
 * Every figure is a `struct metric` carrying its unit and its direction
 * (is more better?), so `compare` never has to guess.
 */
#ifndef FSLAB_RESULT_H
#define FSLAB_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum better {
	BETTER_NONE = 0,    /* informational: counts, sizes */
	BETTER_HIGHER = 1,  /* rates: MiB/s, files/s */
	BETTER_LOWER = -1,  /* times, CPU cost */
};

struct metric {
	char *name;  /* "MiB/s", "files/s", "sync_s", workload counters ... */
	double value;
	char *unit;  /* "MiB/s", "s", "files", "%", "B" ... */
	enum better better;
};

/* What the core measures around every phase (see measure.h). */
struct measure {
	uint64_t start_ns;     /* CLOCK_REALTIME at begin, ns since epoch */
	uint64_t wall_ns;      /* CLOCK_MONOTONIC end - begin */
	uint64_t user_ns;      /* fslab's own user CPU, children included */
	uint64_t sys_ns;       /* fslab's own system CPU, children included */
	double sys_busy_pct;   /* whole machine busy %, /proc/stat delta; <0 unknown */
	bool have_dev;         /* the device counters below are valid */
	uint64_t rd_ios, rd_bytes;  /* /sys/block/DEV/stat deltas */
	uint64_t wr_ios, wr_bytes;
};

/* One worker's share of a phase (threads, or MPI ranks). */
struct worker_rec {
	int worker;            /* thread index or MPI rank */
	uint64_t start_ns;     /* CLOCK_REALTIME, ns since epoch */
	uint64_t end_ns;
	uint64_t bytes, files, ops;
};

/*
 * One block request of a traced phase's request sample (the offset
 * scatter of the HTML report; see trace/analyze.h, trace_sample()).
 */
struct rq_sample {
	uint64_t t_ns;         /* issue time since the trace began */
	uint64_t sector;       /* start, 512-byte sectors */
	uint32_t bytes;
	char rw;               /* 'R' or 'W' */
};

/*
 * A latency histogram kept whole with its phase (stats/lathist.h's
 * bucket scheme): one per op class, op the latency prefix ("" for
 * none), unit of the values "ns".  Compact: only the buckets from the
 * first to the last non-empty one are kept, b[i] counting bucket
 * first + i; nr_buckets is the scheme's bucket count (LATHIST_NR when
 * made by this fslab; the store refuses any other).
 */
struct hist_rec {
	char *op, *unit;
	uint64_t count, sum, min, max;
	uint32_t nr_buckets, first, nr;
	uint64_t *b;
};

/* One stall of a phase (phase/stall.h): no completion for len_ns from
 * start_ns after the phase began. */
struct stall_rec {
	uint64_t start_ns, len_ns;
};

enum phase_status {
	PHASE_OK = 0,
	PHASE_FAILED,      /* the workload reported an error in this phase */
	PHASE_INTERRUPTED, /* SIGINT/SIGTERM arrived during it */
};

struct phase_rec {
	int64_t id;        /* store id, 0 until stored */
	char *name;        /* "initial-create", "patch", "cold-read" ... */
	int seq;           /* order within its workload run, from 0 */
	char *label;       /* free text, e.g. the tree it worked on; may be NULL */
	struct measure m;
	uint64_t bytes, files, ops; /* work done, as the workload reported it */
	bool too_short;    /* wall time below what the clock can resolve */
	enum phase_status status;
	char *error;       /* reason when status != PHASE_OK, else NULL */
	struct metric *metrics;  /* derived figures + workload's own counters */
	size_t nr_metrics, alloc_metrics;
	struct worker_rec *workers;
	size_t nr_workers, alloc_workers;
	/* Traced phases: a bounded sample of the data requests, in issue
	 * order; rqs_total is how many the trace saw (> nr_rqs: thinned). */
	struct rq_sample *rqs;
	size_t nr_rqs;
	uint64_t rqs_total;
	/* Latency histograms, in the order recorded; op names unique. */
	struct hist_rec *hists;
	size_t nr_hists, alloc_hists;
	/* The first stalls in order (the "stalls" metric counts all) and
	 * the completions per series_ns interval from the phase's start,
	 * series_total all of them (more than the sum when the phase
	 * outlasted the bounded series).  None: nr 0, series_ns 0. */
	struct stall_rec *stall_list;
	size_t nr_stall_list;
	uint64_t series_ns, series_total;
	uint32_t *series;
	size_t nr_series;
};

struct wlrun_rec {
	int64_t id;
	int64_t target_id;     /* store id of the target row */
	int target_idx;        /* index into run_rec.targets */
	char *workload;        /* registry name */
	char *options;         /* canonical "k=v,..." of every option */
	int rep;               /* repetition, from 0 */
	char *status;          /* "running", "complete", "failed", "interrupted" */
	int pos;               /* position of its target in the repetition's
				* order, from 0; -1 unknown (see order.h) */
	struct phase_rec *phases;
	size_t nr_phases, alloc_phases;
	/* Texts kept with the run (fio's job file and JSON output), by name. */
	struct wlrun_text {
		char *name, *content;
	} *texts;
	size_t nr_texts, alloc_texts;
};

struct target_rec {
	int64_t id;
	int idx;               /* position on the command line, from 0 */
	int rep;               /* repetition this instance was built for */
	char *spec;            /* as the user wrote it */
	char *name;            /* label for reports */
	char *kind;            /* "loop", "dir", "dev" */
	char *fstype;          /* "ext4" ...; for dir: what statfs says */
	char *mkfs_opts;       /* extra mkfs arguments as given */
	char *mount_opts;      /* mount options as given */
	char *eff_mount_opts;  /* effective options from mountinfo */
	char *device;          /* /dev/loopN or /dev/X; NULL for dir: */
	char *uuid;            /* filesystem UUID from libblkid */
	char *mkfs_version;    /* first line of mkfs -V */
	char *mkfs_cmd;        /* the mkfs command as run; NULL: none
				* (dir:) or not recorded (older runs) */
	char *path;            /* working directory the workloads used */
	uint64_t size;         /* image or device size in bytes */
};

/*
 * A recorded fact about the run's setup (src/cometric/machine.c, the runner):
 * scope "machine" (the kernel, CPU, memory, sysctls), "target:IDX" (the
 * device and loop of command-line target IDX), "cache" (key
 * "WORKLOAD/PHASE", value "cold" or "warm") or "accept" (key a check id
 * silenced with --accept).  Keys are "GROUP.NAME" ("sysctl.vm.dirty_ratio",
 * "dev.rotational"); GROUP is what compare --factor names.
 */
struct fact {
	char *scope, *key, *value;
};

/*
 * One comparison's state under `run --until decided` (compare/
 * sequential.h): a key metric of a configuration against the baseline.
 */
struct decision_rec {
	char *workload, *name;   /* name: the matched set, or NULL */
	char *phase, *metric, *label;
	char *verdict;           /* "improvement", "REGRESSION",
				  * "equivalent", "undecided" */
	int reps;                /* the look it was decided at, or 0 */
	double pct, lo_pct, hi_pct;  /* change and its repeated CI, % */
	double mdc_pct;          /* detectable at the last look */
};

struct run_rec {
	int64_t id;
	int64_t started;       /* unix time, s */
	int64_t finished;      /* 0 while running */
	char *host, *kernel, *version, *cmdline, *tag;
	uint64_t seed;
	char *status;          /* "running", "complete", "failed", "incomplete" */
	char *target_order;    /* "balanced", "fixed", "blocked"; NULL: older */
	/* --until decided (NULL/0 otherwise): the rule, the run's decision
	 * ("decided", "undecided at 8: mdc 4.1 %"), the repetitions it took
	 * and each comparison's state after the last complete look. */
	char *until_rule;
	char *decision;
	int decision_reps;
	struct decision_rec *decisions;
	size_t nr_decisions, alloc_decisions;
	char *uuid;            /* globally unique id, made with the run (36
				* characters, RFC 4122 version 4); the same
				* in every store the run is imported into */
	char *source_host;     /* the host an imported run was exported from;
				* NULL for a run made in this store */
	struct target_rec *targets;
	size_t nr_targets, alloc_targets;
	struct wlrun_rec *wlruns;
	size_t nr_wlruns, alloc_wlruns;
	struct fact *facts;    /* in recording order; (scope, key) unique */
	size_t nr_facts, alloc_facts;
};

struct lathist;

/*
 * The metric naming rule, for every figure any workload or module stores
 * (checked when a metric is stored; see metric_name_check()):
 *
 *   rates        end in "/s", the unit's own spelling where it has one:
 *                "MiB/s", "files/s", "seeks/s", "transactions/s",
 *                "trace.seeks/s", "disk.MiB/s", "interval.3.files/s";
 *                a statistic of a rate ends in "_" + its unit
 *                ("rank_min_MiB/s", "summary/patch.avg_MiB/s")
 *   durations    end in "_s", seconds: "wall_s", "sync_s", "disk.seek_s"
 *   latency      [PREFIX.]lat_{p50,p95,p99,max,mean}_ms (below)
 *   sizes        end in their unit: "_B" for bytes ("free_B", "read_B",
 *                "trace.data_B"; never "_bytes"), "_MiB" for MiB
 *   percentages  end in "_pct" (unit "%"); frequencies in "_MHz"
 *   counts, ratios, scores and flags  are bare nouns ("seeks",
 *                "trace.requests", "layout_score") and end in none of the
 *                suffixes above
 *
 * Namespaces take a dot ("trace.", "disk.", "interval.N.").  Older
 * stores hold names from before the rule; the store loads them through
 * metric_name_upgrade(), so earlier runs compare with new ones.
 */
/*
 * NULL when name suits unit under the rule above, else why not (a static
 * string).  unit NULL checks the name alone (a key metric's "phase/name"
 * has no unit): only spellings the rule retired are refused then.
 */
const char *metric_name_check(const char *name, const char *unit);
/*
 * The name (and unit) a metric stored under an older spelling has
 * today: true and the new name in buf (*new_unit: the new unit, or unit
 * itself) when name breaks the rule for unit, false when it is current.
 */
bool metric_name_upgrade(const char *name, const char *unit, char *buf,
			 size_t len, const char **new_unit);
/* The traced figures a reader looks for first (summaries and compare's
 * default rows), in the order printed; NULL-terminated. */
extern const char *const trace_key_metrics[];
#define NR_TRACE_KEY_METRICS 6

/*
 * Latency figures follow one rule in every workload: PREFIX.lat_p50_ms,
 * lat_p95_ms, lat_p99_ms, lat_max_ms and lat_mean_ms (without "PREFIX."
 * when prefix is NULL), in milliseconds, lower is better.  This adds
 * them from a histogram of nanoseconds; nothing when it is empty.
 */
void phase_rec_add_latency(struct phase_rec *p, const char *prefix,
			   const struct lathist *h);
/*
 * The same figures from h, replacing p's metrics of those names (MPI:
 * rank 0's own figures become the job's from the merged histogram).
 */
void phase_rec_set_latency(struct phase_rec *p, const char *prefix,
			   const struct lathist *h);
/*
 * Keep a copy of h with p as its histogram of op (NULL: ""), unit
 * "ns"; one already kept for op is merged into (exactly).  Nothing
 * when h is empty.  phase_rec_add_latency() calls it.
 */
void phase_rec_add_hist(struct phase_rec *p, const char *op,
			const struct lathist *h);
/* Append a copy of src (a loaded or imported histogram) as it is. */
struct hist_rec *phase_rec_copy_hist(struct phase_rec *p,
				     const struct hist_rec *src);
/* p's histogram of op ("" or NULL: none), or NULL. */
const struct hist_rec *phase_rec_hist(const struct phase_rec *p,
				      const char *op);
/*
 * h as a whole struct lathist (every bucket, count, sum, min, max):
 * 0, or -1 when h has another bucket scheme (nr_buckets != LATHIST_NR)
 * or buckets outside it.  From a lathist: replaces h's counts (op and
 * unit stay).
 */
int hist_rec_to_lathist(const struct hist_rec *h, struct lathist *out);
void hist_rec_from_lathist(struct hist_rec *h, const struct lathist *src);
void hist_rec_release(struct hist_rec *h);
/* The name of one of them, stat "p99" -> "PREFIX.lat_p99_ms", in buf. */
const char *latency_metric_name(char *buf, size_t len, const char *prefix,
				const char *stat);

/* Append a metric to a phase (name and unit are copied). */
void phase_rec_add_metric(struct phase_rec *p, const char *name, double value,
			  const char *unit, enum better better);
/* First metric with that name, or NULL. */
const struct metric *phase_rec_metric(const struct phase_rec *p,
				      const char *name);
/* The value of p's metric name; def when p is NULL or has none. */
double phase_rec_value(const struct phase_rec *p, const char *name,
		       double def);
/* The first phase called name (with ok_only: the first that finished
 * ok), or NULL.  For reports, which look phases up by name. */
const struct phase_rec *wlrun_rec_phase(const struct wlrun_rec *w,
					const char *name, bool ok_only);
void phase_rec_release(struct phase_rec *p);
void wlrun_rec_release(struct wlrun_rec *w);
void target_rec_release(struct target_rec *t);
/*
 * A new run as every command starts one: started now, on this host and
 * kernel, by this fslab version, status "running"; cmdline and tag
 * (may be NULL) are copied.  Free with run_rec_free().
 */
struct run_rec *run_rec_begin(const char *cmdline, const char *tag,
			      uint64_t seed);
/* Frees contents and the struct itself. */
void run_rec_free(struct run_rec *r);
/* A new random RFC 4122 version 4 UUID, lower case (newly allocated). */
char *run_uuid_new(void);
/* Append zeroed records, returning a pointer to the new element. */
struct phase_rec *wlrun_rec_new_phase(struct wlrun_rec *w);
struct target_rec *run_rec_new_target(struct run_rec *r);
struct wlrun_rec *run_rec_new_wlrun(struct run_rec *r);
/*
 * Record a fact (copied); a (scope, key) already recorded keeps its
 * first value.  value NULL is recorded as "absent".
 */
void run_rec_add_fact(struct run_rec *r, const char *scope, const char *key,
		      const char *value);
/* The value of a fact, or NULL when not recorded. */
const char *run_rec_fact(const struct run_rec *r, const char *scope,
			 const char *key);
struct decision_rec *run_rec_new_decision(struct run_rec *r);
/* Drop every decision record (a new look replaces them). */
void run_rec_clear_decisions(struct run_rec *r);
/*
 * Does key metric key ("create/files/s"; either part may be a glob, as
 * fio's any-phase "write.MiB/s" and exec's "exec/cmd.*" are, for
 * workloads whose phases or figures come from their input)
 * name metric of phase?  metric NULL: does it name the phase at all?
 */
bool key_metric_match(const char *key, const char *phase, const char *metric);

/* Keep a copy of a named text with w. */
void wlrun_rec_add_text(struct wlrun_rec *w, const char *name,
			const char *content);
/* The first text called name, or NULL. */
const char *wlrun_rec_text(const struct wlrun_rec *w, const char *name);
/* The target record a wlrun belongs to (by target_idx/target_id). */
const struct target_rec *run_rec_target(const struct run_rec *r,
					const struct wlrun_rec *w);

#endif
