/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - `fslab run`: parse targets and workloads, hand them to the
 * runner.  With no arguments it runs the default suite on the default
 * target: the README's "main job".
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "age/ager.h"
#include "cmd/cmd.h"
#include "cometric/cometric.h"
#include "phase/par.h"
#include "run/preflight.h"
#include "phase/progress.h"
#include "phase/stall.h"
#include "run/runner.h"
#include "compare/compare.h"
#include "compare/sequential.h"
#include "trace/blktrace.h"
#include "disk/diskmodel.h"
#include "trace/hook.h"
#include "util/defaults.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "workloads/registry.h"

/*
 * The default suite must pass fslab's own setup checks on a typical
 * machine in under a minute: FFSB's small-create + fsync mail profile,
 * whose every transaction waits for the device (neither the page cache
 * nor the CPU sets its pace), timed for 10 s so the figure is steady,
 * three repetitions (compare's minimum for a verdict), each on a fresh
 * filesystem.  Page-cache workloads fail those checks by design on a
 * machine with more RAM than a short run can fill: compilebench's
 * native and initial phases, metadata's stat and unlink, tree's unpack
 * are judged by the CPU there.
 */
static const char *const default_suite[] = {
	"ffsb:time=10",
};
#define DEFAULT_SUITE_REPEAT 3
static const char default_target[] = "ext4";

enum run_order { ORDER_BALANCED, ORDER_FIXED, ORDER_BLOCKED };
/* "interleaved" is fixed's old name: accepted, not shown */
static const int order_values[] = {
	ORDER_BALANCED, ORDER_FIXED, ORDER_BLOCKED, ORDER_FIXED,
};

struct run_args {
	struct run_config cfg;
	size_t alloc_t, alloc_w;
	struct cmdopt_store store;
	bool no_store, tracing, quiet, no_space_check;
	long long repeat, max_repeat, min_repeat, stall_ms;
	enum run_order order;
	const char *aged_profile, *trace, *pause, *disk_model, *until;
	const char *co_metrics;
	struct cmd_accept accept;
};

/* --target, --workload and --trace fill several fields of run_args. */
static int add_target(const struct cmdopt *o, void *args, const char *arg,
		      char *err, size_t errlen)
{
	struct run_args *a = args;
	struct run_config *cfg = &a->cfg;
	char why[512];

	(void)o;
	ALLOC_GROW(cfg->targets, cfg->nr_targets + 1, a->alloc_t);
	if (target_spec_parse(arg, &cfg->targets[cfg->nr_targets], why,
			      sizeof(why)) < 0) {
		snprintf(err, errlen, "bad target '%s': %s", arg, why);
		return -1;
	}
	cfg->nr_targets++;
	return 0;
}

static int add_workload(const struct cmdopt *o, void *args, const char *arg,
			char *err, size_t errlen)
{
	struct run_args *a = args;
	struct run_config *cfg = &a->cfg;

	(void)o;
	ALLOC_GROW(cfg->wls, cfg->nr_wls + 1, a->alloc_w);
	if (run_workload_parse(arg, &cfg->wls[cfg->nr_wls], err, errlen) < 0)
		return -1;
	cfg->nr_wls++;
	return 0;
}

/* Registered once the workloads are known, to check the phase names
 * against them first. */
static int set_trace(const struct cmdopt *o, void *args, const char *arg,
		     char *err, size_t errlen)
{
	struct run_args *a = args;

	(void)o, (void)err, (void)errlen;
	a->tracing = true;
	a->trace = arg;
	return 0;
}

static int set_fresh_vs_aged(const struct cmdopt *o, void *field,
			     const char *arg, char *err, size_t errlen)
{
	(void)o, (void)err, (void)errlen;
	*(const char **)field = arg ? arg : "desktop";
	return 0;
}

static int set_pause(const struct cmdopt *o, void *field, const char *arg,
		     char *err, size_t errlen)
{
	const char **pause = field;

	(void)o;
	if (!*arg) {
		snprintf(err, errlen, "--pause-before needs a phase name");
		return -1;
	}
	if (*pause) {
		snprintf(err, errlen, "--pause-before is given once");
		return -1;
	}
	*pause = arg;
	return 0;
}

static const struct cmdopt run_table[] = {
	CMDOPT_ARGS_CB_C('t', "target", "SPEC", add_target, CMDOPT_C_TARGET,
			 "filesystem under test (repeatable); default 'ext4' "
			 "(see 'fslab help targets')"),
	CMDOPT_ARGS_CB_C('w', "workload", "NAME[:key=val,...]", add_workload,
			 CMDOPT_C_WORKLOAD,
			 "workload to run (repeatable); default suite: "
			 "ffsb:time=10 (FFSB's small-create + fsync mail "
			 "profile), 3 repetitions (see 'fslab list' for "
			 "workloads and options)"),
	CMDOPT_INTEGER('n', "repeat", struct run_args, repeat, "N", 1, 100000,
		       "repetitions per target (default 1, the default "
		       "suite's 3; with --until-cov the minimum)"),
	CMDOPT_CHOOSE(0, "until", struct run_args, until, "RULE", "decided",
		      "decided: repeat the counterbalanced cycle until a "
		      "sequential test (see README, Comparing runs) decides "
		      "every key metric of every target against the first: "
		      "different by at least --min-change, or equivalent "
		      "within it; at most --max-repeat repetitions (default "
		      FSLAB_STR(SEQ_DEFAULT_MAX_REPEAT) ")"),
	CMDOPT_INTEGER(0, "min-repeat", struct run_args, min_repeat, "N", 3,
		       SEQ_MAX_LOOKS,
		       "with --until decided: the first look after N "
		       "repetitions (default "
		       FSLAB_STR(SEQ_DEFAULT_MIN_REPEAT) ")"),
	CMDOPT_DBL(0, "min-change", struct run_args, cfg.min_change_pct,
		   "PCT", 0, HUGE_VAL, NULL,
		   "the change this run should be able to see: what the "
		   "setup check's repetitions advice measures against and, "
		   "with --until decided, the practical threshold, as in "
		   "compare (default 2; without --min-change or --until a "
		   "run of one target is told its resolution as a note)"),
	CMDOPT_DBL_OPEN(0, "alpha", struct run_args, cfg.alpha, "LEVEL", 0,
			0.5, "0.05",
			"with --until decided: the family-wise error level "
			"over all looks"),
	CMDOPT_ENUMERATE(0, "order", struct run_args, order, "MODE",
			 "balanced|fixed|blocked|interleaved", order_values,
			 "balanced",
			 "balanced (each repetition in another order, every "
			 "target in every position equally often), fixed "
			 "(A B A B; 'interleaved' is its old name) or blocked "
			 "(A A B B)"),
	CMDOPT_INTEGER(0, "stall-ms", struct run_args, stall_ms, "MS", 1,
		       3600000,
		       "a phase's stall: MS milliseconds or more in which "
		       "none of its operations completed (default "
		       FSLAB_STR(STALL_DEFAULT_MS) "); stored as stalls, "
		       "stall_max_ms and stall_total_ms"),
	CMDOPT_BOOL(0, "reuse", struct run_args, cfg.reuse,
		    "run every repetition on the same filesystem instead of a "
		    "freshly made one"),
	CMDOPT_PCT(0, "until-cov", struct run_args, cfg.until_cov, "P", 0,
		   1000, NULL,
		   "add repetitions until the first key metric's coefficient "
		   "of variation is <= P % on every target: a stable single "
		   "figure, not a comparison (for that: --until decided)"),
	CMDOPT_INTEGER(0, "max-repeat", struct run_args, max_repeat, "N", 1,
		       100000,
		       "at most N repetitions with --until-cov (default 10) "
		       "or --until decided (default "
		       FSLAB_STR(SEQ_DEFAULT_MAX_REPEAT) ")"),
	CMDOPT_INCLUDE_AT(struct run_args, store, cmdopt_store_opts),
	CMDOPT_BOOL(0, "no-store", struct run_args, no_store,
		    "do not store results"),
	CMDOPT_STR_C(0, "scratch", struct run_args, cfg.scratch, "DIR",
		     CMDOPT_C_DIR,
		     "where loop images and mount points live (default "
		     TARGET_DEFAULT_SCRATCH ")"),
	CMDOPT_STR(0, "tag", struct run_args, cfg.tag, "LABEL",
		   "label the run for 'fslab show LABEL'"),
	CMDOPT_UINT64(0, "seed", struct run_args, cfg.seed, "N",
		      FSLAB_STR(FSLAB_DEFAULT_SEED),
		      "the run's seed: every workload's seed=run (its "
		      "default), and the draws of the target order"),
	CMDOPT_STR(0, "json", struct run_args, cfg.json, "FILE",
		   "also write the results as JSON ('-' = stdout)"),
	CMDOPT_ARGS_CB_OPTARG(0, "trace", "PHASE,...", set_trace,
			      "trace block I/O of every (or the named) phase: "
			      "seeks, layout score, latency as trace.* "
			      "metrics"),
	CMDOPT_STR(0, "disk-model", struct run_args, disk_model, "PROFILE",
		   "with --trace: what the traced phases' requests would cost "
		   "on this disk, as disk.* metrics (default "
		   DISK_DEFAULT_PROFILE "): " DISK_PROFILES_HELP),
	CMDOPT_CHOOSE(0, "co-metrics", struct run_args, co_metrics, "SET",
		      "none|basic|all",
		      "evidence recorded around every phase for 'compare "
		      "--explain' (see doc/cometrics.md): basic (default: "
		      "vmstat, disk, pressure, faults and the filesystem's own "
		      "statistics), all (adds the CPU clock) or none"),
	CMDOPT_CB_OPTARG(0, "fresh-vs-aged", struct run_args, aged_profile,
			 "PROFILE", set_fresh_vs_aged,
			 "also run every loop target aged to PROFILE "
			 "(default desktop) and report aged/fresh"),
	CMDOPT_BOOL(0, "verify", struct run_args, cfg.verify,
		    "write verifiable data (every 4 KiB block carries its "
		    "file, offset and seed) and check it on every read and in "
		    "a final verify-data phase; a mismatch names file and "
		    "offset and fails the run (which workloads: see below)"),
	CMDOPT_CB(0, "pause-before", struct run_args, pause, "PHASE",
		  set_pause,
		  "debugging: before every phase named PHASE print a line and "
		  "stop (SIGSTOP) until SIGCONT, e.g. to corrupt data behind "
		  "fslab's back"),
	CMDOPT_CB(0, "accept", struct run_args, accept, "ID", cmd_accept_cb,
		  CMD_ACCEPT_HELP "; recorded with the run"),
	CMDOPT_BOOL('q', "quiet", struct run_args, quiet,
		    "no progress: neither the status line a terminal gets nor "
		    "the line per finished phase (see README, Watching a run)"),
	CMDOPT_BOOL(0, "no-space-check", struct run_args, no_space_check,
		    "do not refuse a target smaller than the workloads' "
		    "estimated space and inode needs (to fill it on purpose)"),
	CMDOPT_STR_C(0, "destroy-data", struct run_args, cfg.destroy_data,
		     "/dev/X", CMDOPT_C_FILE,
		     "allow formatting dev:/dev/X although it holds data"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_run_opts = {
	.name = "run",
	.summary = "build targets, run workloads, store results",
	.usage = "[--target SPEC]... [--workload NAME[:key=val,...]]...\n"
		 "[--repeat N] [--db PATH] [--scratch DIR] [--tag LABEL]\n"
		 "[--seed N] [--json FILE] [--destroy-data=/dev/X]\n"
		 "[--verify] [--pause-before PHASE] [--quiet]",
	.desc = "Build each target, run each workload on it, measure and "
		"store every phase.  Repetitions are interleaved across "
		"targets in a counterbalanced order (A B, B A, ...), each on "
		"a freshly made filesystem.",
	.opts = run_table,
	.more_help = wl_print_verify_support,
	.footer = "Everything that can be checked is checked before any "
		  "target is built (pre-flight): all problems are listed at "
		  "once and nothing is created.  Needs root for loop and "
		  "dev: targets.  Exit codes: 0 success, 1 a run failed, 2 "
		  "usage error or a refused target, 128+N interrupted by "
		  "signal N (130: Ctrl-C).",
};

/* --pause-before: a phase hook, so it runs before the phase measures. */
static int pause_begin(void *data, struct wl_ctx *ctx, const char *phase)
{
	(void)ctx;
	if (strcmp(phase, data))
		return 0;
	fprintf(stderr, "fslab: paused before phase %s (pid %d): send "
		"SIGCONT to go on\n", phase, (int)getpid());
	fflush(stderr);
	raise(SIGSTOP);
	return 0;
}

/*
 * --fresh-vs-aged: after the n targets as given, the same n again with
 * age=PROFILE, so each workload runs on a fresh filesystem and on an
 * aged one built the same way; the runner reports aged/fresh ratios.
 */
static int add_aged_twins(struct run_config *cfg, const char *profile)
{
	size_t n = cfg->nr_targets;
	char err[512];

	cfg->targets = xrealloc(cfg->targets, 2 * n * sizeof(*cfg->targets));
	for (size_t i = 0; i < n; i++) {
		struct target_spec *twin = &cfg->targets[n + i];

		if (cfg->targets[i].kind != TARGET_LOOP || cfg->targets[i].age)
			return -1;
		if (target_spec_parse(cfg->targets[i].spec, twin, err,
				      sizeof(err)) < 0)
			BUG("spec '%s' no longer parses: %s",
			    cfg->targets[i].spec, err);
		free(twin->age);
		twin->age = xstrdup(profile);
		free(twin->name);
		twin->name = xasprintf("%s+aged", cfg->targets[i].name);
	}
	cfg->nr_targets = 2 * n;
	cfg->fresh_vs_aged = n;
	return 0;
}

/* --until decided: why its options do not go together, or NULL (and a set). */
static const char *until_args(struct run_args *a)
{
	const char *why = NULL;

	if (a->cfg.until_cov > 0)
		why = "--until decided and --until-cov exclude each "
		      "other";
	else if (a->repeat)
		why = "--until decided repeats on its own: use "
		      "--min-repeat and --max-repeat, not --repeat";
	else if (a->order == ORDER_BLOCKED)
		why = "--until decided looks after every repetition of "
		      "all targets: not with --order blocked";
	else if (a->cfg.nr_targets + (a->aged_profile ? 1 : 0) < 2)
		why = "--until decided compares targets: give two or "
		      "more (-t A -t B)";
	if (!a->max_repeat)
		a->max_repeat = SEQ_DEFAULT_MAX_REPEAT;
	if (!why && a->max_repeat < a->min_repeat)
		why = "--max-repeat is below --min-repeat";
	if (!why && a->max_repeat - a->min_repeat + 1 > SEQ_MAX_LOOKS)
		why = "--max-repeat is more than "
		      FSLAB_STR(SEQ_MAX_LOOKS) " looks past "
		      "--min-repeat";
	if (why)
		return why;
	a->repeat = a->min_repeat;
	a->cfg.until_decided = true;
	a->cfg.min_repeat = (int)a->min_repeat;
	return NULL;
}

/* --trace: check its phases, load the disk model, add the trace hook;
 * 0, or the usage error's exit code. */
static int trace_args(struct run_config *cfg, bool tracing,
		      const char *trace, const char *disk_model,
		      struct disk_profile *disk, bool *have_disk)
{
	char err[512];
	int rc;

	if (tracing) {
		const char *const **known = xcalloc(cfg->nr_wls + 1,
						    sizeof(*known));
		size_t nr_known = cfg->nr_wls;

		for (size_t i = 0; i < cfg->nr_wls; i++)
			known[i] = wl_phase_names(cfg->wls[i].wl,
						  cfg->wls[i].opts);
		/* --verify adds its final pass to every workload run. */
		if (cfg->verify)
			known[nr_known++] = wl_core_phases;
		rc = trace_check_phases(trace, known, nr_known, err,
					sizeof(err));
		free(known);
		if (rc < 0) {
			rc = cmdopt_usage_error(&cmd_run_opts, "%s", err);
			return rc;
		}
		if (disk_profile_load(disk_model ? disk_model :
				      DISK_DEFAULT_PROFILE, disk) < 0) {
			rc = cmdopt_usage_error(&cmd_run_opts, "bad "
						"--disk-model '%s'",
						disk_model);
			return rc;
		}
		*have_disk = true;
		run_config_add_hook(cfg, trace_phase_hook(trace, disk));
	} else if (disk_model) {
		rc = cmdopt_usage_error(&cmd_run_opts, "--disk-model needs "
					"--trace");
		return rc;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static struct phase_hook pause_hook = {
		.name = "pause-before",
		.begin = pause_begin,
	};
	struct run_args a = {
		.repeat = 0, .max_repeat = 0, .order = ORDER_BALANCED,
		.co_metrics = "basic",
		.min_repeat = SEQ_DEFAULT_MIN_REPEAT,
		.cfg.min_change_pct = NAN,
		.cfg.alpha = COMPARE_ALPHA,
		.cfg.seed = FSLAB_DEFAULT_SEED, .cfg.age = ager_age_default,
	};
	struct run_config cfg;
	const char *aged_profile, *trace;
	struct disk_profile disk;
	bool tracing, have_disk = false;
	char err[512];
	int first, rc;

	first = cmdopt_parse(&cmd_run_opts, argc, argv, &a);
	if (first < 0) {
		rc = cmdopt_exit(first);
		goto parse_failed;
	}
	if (first < argc) {
		rc = cmdopt_usage_error(&cmd_run_opts, "unexpected argument "
					"'%s' (targets go after --target, "
					"workloads after --workload)",
					argv[first]);
		goto parse_failed;
	}
	if (a.store.db && !*a.store.db) {
		rc = cmdopt_usage_error(&cmd_run_opts, "--db needs a path");
		goto parse_failed;
	}
	if (a.until) {
		const char *why = until_args(&a);

		if (why) {
			rc = cmdopt_usage_error(&cmd_run_opts, "%s", why);
			goto parse_failed;
		}
	}
	/* the default suite comes with its repetitions */
	if (!a.cfg.nr_wls && !a.repeat && !a.cfg.until_cov && !a.until)
		a.repeat = DEFAULT_SUITE_REPEAT;
	a.cfg.change_planned = !isnan(a.cfg.min_change_pct) ||
			       a.cfg.until_decided;
	if (isnan(a.cfg.min_change_pct))
		a.cfg.min_change_pct = COMPARE_MIN_CHANGE_PCT;
	if (!a.repeat)
		a.repeat = 1;
	if (!a.max_repeat)
		a.max_repeat = 10;
	if (a.cfg.until_cov > 0 && a.max_repeat < a.repeat) {
		rc = cmdopt_usage_error(&cmd_run_opts, "--max-repeat %lld is "
					"below --repeat %lld", a.max_repeat,
					a.repeat);
		goto parse_failed;
	}
	cfg = a.cfg;
	cfg.repeat = (int)a.repeat;
	cfg.max_repeat = (int)a.max_repeat;
	cfg.stall_ms = (int)a.stall_ms;
	cfg.blocked = a.order == ORDER_BLOCKED;
	cfg.fixed_order = a.order == ORDER_FIXED;
	cfg.db = a.no_store ? "" : a.store.db;
	cfg.co_metrics = cometric_level_parse(a.co_metrics);
	if (cfg.co_metrics == COMETRIC_ALL && !cometric_have_cpufreq() &&
	    !par_rank())
		fprintf(stderr, "fslab: note: this machine shows no CPU clock "
			"(no /sys/devices/system/cpu/*/cpufreq, a VM?): "
			"cpu.freq_MHz is not recorded\n");
	cfg.accept = a.accept.v;
	cfg.nr_accept = a.accept.n;
	aged_profile = a.aged_profile;
	tracing = a.tracing;
	trace = a.trace;
	if (a.pause) {
		pause_hook.data = (void *)a.pause;
		run_config_add_hook(&cfg, &pause_hook);
	}
	if (!cfg.nr_targets) {
		cfg.targets = xcalloc(1, sizeof(*cfg.targets));
		if (target_spec_parse(default_target, &cfg.targets[0], err,
				      sizeof(err)) < 0)
			BUG("default target: %s", err);
		cfg.nr_targets = 1;
	}
	if (aged_profile && add_aged_twins(&cfg, aged_profile) < 0) {
		rc = cmdopt_usage_error(&cmd_run_opts, "--fresh-vs-aged needs "
					"loop targets (FSTYPE[:...]) to age a "
					"copy of");
		goto out;
	}
	if (!cfg.nr_wls) {
		cfg.wls = xcalloc(ARRAY_SIZE(default_suite), sizeof(*cfg.wls));
		for (size_t i = 0; i < ARRAY_SIZE(default_suite); i++)
			if (run_workload_parse(default_suite[i], &cfg.wls[i],
					       err, sizeof(err)) < 0)
				BUG("default suite: %s", err);
		cfg.nr_wls = ARRAY_SIZE(default_suite);
	}

	rc = trace_args(&cfg, tracing, trace, a.disk_model, &disk, &have_disk);
	if (rc)
		goto out;

	/* "fslab run ...", shell-quoted (argv_join): it pastes back. */
	cfg.cmdline = argv_join("fslab", argc, argv);
	rc = preflight_run(&cfg, !a.no_space_check);
	if (!rc) {
		progress_start(a.quiet || par_rank() ? PROGRESS_OFF
						     : PROGRESS_AUTO);
		rc = runner_execute(&cfg);
		progress_stop();
	}
out:
	if (have_disk)
		disk_profile_release(&disk);

	for (size_t i = 0; i < cfg.nr_targets; i++)
		target_spec_release(&cfg.targets[i]);
	for (size_t i = 0; i < cfg.nr_wls; i++)
		run_workload_release(&cfg.wls[i]);
	free(cfg.targets);
	free(cfg.wls);
	free(cfg.hooks);
	free((char *)cfg.cmdline);
	free(a.accept.v);
	return rc;

parse_failed:
	for (size_t i = 0; i < a.cfg.nr_targets; i++)
		target_spec_release(&a.cfg.targets[i]);
	for (size_t i = 0; i < a.cfg.nr_wls; i++)
		run_workload_release(&a.cfg.wls[i]);
	free(a.cfg.targets);
	free(a.cfg.wls);
	free(a.accept.v);
	return rc;
}
