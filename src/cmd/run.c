/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - `fslab run`: parse targets and workloads, hand them to the
 * runner.  With no arguments it runs the default suite on the default
 * target: the README's "main job".
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "age/ager.h"
#include "cmd.h"
#include "par.h"
#include "preflight.h"
#include "progress.h"
#include "runner.h"
#include "trace/blktrace.h"
#include "disk/diskmodel.h"
#include "trace/hook.h"
#include "util/defaults.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "workloads/registry.h"

/* Short enough to finish in a few minutes on a 2-core VM; grows as
 * workloads land, and must stay under 10 minutes. */
static const char *const default_suite[] = {
	"compilebench:initial-dirs=10,runs=30",
};
static const char default_target[] = "ext4";

/*
 * cfg comes first: the callbacks of rows on it (--target, --workload,
 * --trace) are handed &cfg, which is the whole struct run_args.
 */
struct run_args {
	struct run_config cfg;
	size_t alloc_t, alloc_w;
	struct cmdopt_store store;
	bool no_store, tracing, quiet, no_space_check;
	long long repeat, max_repeat;
	const char *order, *aged_profile, *trace, *pause, *disk_model;
};

static int add_target(const struct cmdopt *o, void *field, const char *arg,
		      char *err, size_t errlen)
{
	struct run_args *a = field;
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

static int add_workload(const struct cmdopt *o, void *field, const char *arg,
			char *err, size_t errlen)
{
	struct run_args *a = field;
	struct run_config *cfg = &a->cfg;

	(void)o;
	ALLOC_GROW(cfg->wls, cfg->nr_wls + 1, a->alloc_w);
	if (run_workload_parse(arg, &cfg->wls[cfg->nr_wls], err, errlen) < 0)
		return -1;
	cfg->nr_wls++;
	return 0;
}

static int set_seed(const struct cmdopt *o, void *field, const char *arg,
		    char *err, size_t errlen)
{
	(void)o;
	if (parse_u64(arg, field) < 0) {
		snprintf(err, errlen, "--seed takes a non-negative integer, "
			 "not '%s'", arg);
		return -1;
	}
	return 0;
}

static int set_until_cov(const struct cmdopt *o, void *field,
			 const char *arg, char *err, size_t errlen)
{
	double *cov = field;
	char *end;

	(void)o;
	*cov = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (!*arg || *end || !(*cov > 0) || *cov > 1000) {
		snprintf(err, errlen, "--until-cov takes a percentage above 0, "
			 "not '%s'", arg);
		return -1;
	}
	return 0;
}

/* Registered once the workloads are known, to check the phase names
 * against them first. */
static int set_trace(const struct cmdopt *o, void *field, const char *arg,
		     char *err, size_t errlen)
{
	struct run_args *a = field;

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
	CMDOPT_CB_C('t', "target", struct run_args, cfg, "SPEC", add_target,
		    CMDOPT_C_TARGET,
		    "filesystem under test (repeatable); default 'ext4' (see "
		    "'fslab help targets')"),
	CMDOPT_CB_C('w', "workload", struct run_args, cfg,
		    "NAME[:key=val,...]", add_workload, CMDOPT_C_WORKLOAD,
		    "workload to run (repeatable); default suite: "
		    "compilebench:initial-dirs=10,runs=30 (see 'fslab list' "
		    "for workloads and options)"),
	CMDOPT_INTEGER('n', "repeat", struct run_args, repeat, "N", 1, 100000,
		       "repetitions per target (default 1; with --until-cov "
		       "the minimum)"),
	CMDOPT_CHOOSE(0, "order", struct run_args, order, "MODE",
		      "balanced|fixed|interleaved|blocked",
		      "balanced (default: each repetition in another order, "
		      "every target in every position equally often), fixed "
		      "(A B A B; 'interleaved' is its old name) or blocked "
		      "(A A B B)"),
	CMDOPT_BOOL(0, "reuse", struct run_args, cfg.reuse,
		    "run every repetition on the same filesystem instead of a "
		    "freshly made one"),
	CMDOPT_CB(0, "until-cov", struct run_args, cfg.until_cov, "P",
		  set_until_cov,
		  "add repetitions until the key metric's coefficient of "
		  "variation is <= P %"),
	CMDOPT_INTEGER(0, "max-repeat", struct run_args, max_repeat, "N", 1,
		       100000,
		       "at most N repetitions with --until-cov (default 10)"),
	CMDOPT_INCLUDE_AT(struct run_args, store, cmdopt_store_opts),
	CMDOPT_BOOL(0, "no-store", struct run_args, no_store,
		    "do not store results"),
	CMDOPT_STR_C(0, "scratch", struct run_args, cfg.scratch, "DIR",
		     CMDOPT_C_DIR,
		     "where loop images and mount points live (default "
		     TARGET_DEFAULT_SCRATCH ")"),
	CMDOPT_STR(0, "tag", struct run_args, cfg.tag, "LABEL",
		   "label the run for 'fslab show LABEL'"),
	CMDOPT_CB(0, "seed", struct run_args, cfg.seed, "N", set_seed,
		  "run seed (default " FSLAB_STR(FSLAB_DEFAULT_SEED) ")"),
	CMDOPT_STR(0, "json", struct run_args, cfg.json, "FILE",
		   "also write the results as JSON ('-' = stdout)"),
	CMDOPT_CB_OPTARG(0, "trace", struct run_args, cfg, "PHASE,...",
			 set_trace,
			 "trace block I/O of every (or the named) phase: "
			 "seeks, layout score, latency as trace.* metrics"),
	CMDOPT_STR(0, "disk-model", struct run_args, disk_model, "PROFILE",
		   "with --trace: what the traced phases' requests would cost "
		   "on this disk, as disk.* metrics (default "
		   DISK_DEFAULT_PROFILE "): " DISK_PROFILES_HELP),
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

int cmd_run(int argc, char **argv)
{
	static struct phase_hook pause_hook = {
		.name = "pause-before",
		.begin = pause_begin,
	};
	struct run_args a = {
		.repeat = 1, .max_repeat = 10, .order = "balanced",
		.cfg.seed = FSLAB_DEFAULT_SEED, .cfg.age = ager_age_default,
	};
	struct run_config cfg;
	const char *aged_profile, *trace;
	struct disk_profile disk;
	bool tracing;
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
	if (a.cfg.until_cov > 0 && a.max_repeat < a.repeat) {
		rc = cmdopt_usage_error(&cmd_run_opts, "--max-repeat %lld is "
					"below --repeat %lld", a.max_repeat,
					a.repeat);
		goto parse_failed;
	}
	cfg = a.cfg;
	cfg.repeat = (int)a.repeat;
	cfg.max_repeat = (int)a.max_repeat;
	cfg.blocked = !strcmp(a.order, "blocked");
	cfg.fixed_order = !strcmp(a.order, "fixed") ||
			  !strcmp(a.order, "interleaved");
	cfg.db = a.no_store ? "" : a.store.db;
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
	if (aged_profile && add_aged_twins(&cfg, aged_profile) < 0)
		usage_die("--fresh-vs-aged needs loop targets (FSTYPE[:...]) "
			  "to age a copy of");
	if (!cfg.nr_wls) {
		cfg.wls = xcalloc(ARRAY_SIZE(default_suite), sizeof(*cfg.wls));
		for (size_t i = 0; i < ARRAY_SIZE(default_suite); i++)
			if (run_workload_parse(default_suite[i], &cfg.wls[i],
					       err, sizeof(err)) < 0)
				BUG("default suite: %s", err);
		cfg.nr_wls = ARRAY_SIZE(default_suite);
	}

	if (tracing) {
		const char *const **known = xcalloc(cfg.nr_wls + 1,
						    sizeof(*known));

		for (size_t i = 0; i < cfg.nr_wls; i++)
			known[i] = wl_phase_names(cfg.wls[i].wl,
						  cfg.wls[i].opts);
		if (trace_check_phases(trace, known, cfg.nr_wls, err,
				       sizeof(err)) < 0)
			usage_die("%s", err);
		free(known);
		if (disk_profile_load(a.disk_model ? a.disk_model :
				      DISK_DEFAULT_PROFILE, &disk) < 0)
			usage_die("bad --disk-model '%s'", a.disk_model);
		run_config_add_hook(&cfg, trace_phase_hook(trace, &disk));
	} else if (a.disk_model) {
		usage_die("--disk-model needs --trace");
	}

	/* "fslab run ...", shell-quoted (argv_join): it pastes back. */
	cfg.cmdline = argv_join("fslab", argc, argv);
	rc = preflight_run(&cfg, !a.no_space_check);
	if (!rc) {
		progress_start(a.quiet || par_rank() ? PROGRESS_OFF
						     : PROGRESS_AUTO);
		rc = runner_execute(&cfg);
		progress_stop();
	}
	if (tracing)
		disk_profile_release(&disk);

	for (size_t i = 0; i < cfg.nr_targets; i++)
		target_spec_release(&cfg.targets[i]);
	for (size_t i = 0; i < cfg.nr_wls; i++)
		run_workload_release(&cfg.wls[i]);
	free(cfg.targets);
	free(cfg.wls);
	free(cfg.hooks);
	free((char *)cfg.cmdline);
	return rc;

parse_failed:
	for (size_t i = 0; i < a.cfg.nr_targets; i++)
		target_spec_release(&a.cfg.targets[i]);
	for (size_t i = 0; i < a.cfg.nr_wls; i++)
		run_workload_release(&a.cfg.wls[i]);
	free(a.cfg.targets);
	free(a.cfg.wls);
	return rc;
}
