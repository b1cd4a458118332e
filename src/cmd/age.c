/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age.c - `fslab age`: the command line of an aging session.  The
 * engine (build the target, age it to a profile or by replaying an op
 * log, survey, save a golden copy) is age/session.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/golden.h"
#include "age/session.h"
#include "cmd/cmd.h"
#include "fs/target.h"
#include "util/defaults.h"
#include "util/util.h"

/* A size, or N x the filesystem's capacity: two fields. */
static int set_budget(const struct cmdopt *o, void *args, const char *arg,
		      char *err, size_t errlen)
{
	struct age_args *a = args;
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

static const int age_data_values[] = { AGE_DATA_WRITE, AGE_DATA_FALLOCATE };

static const struct cmdopt age_table[] = {
	CMDOPT_STR_C('t', "target", struct age_args, target, "SPEC",
		     CMDOPT_C_TARGET,
		     "build an owned target (as fslab run) and age its work "
		     "directory"),
	CMDOPT_STR_C('p', "profile", struct age_args, profile, "NAME|FILE",
		     CMDOPT_C_FILE,
		     "desktop (default), compile-farm, or a profile file"),
	CMDOPT_DBL_OPEN('f', "fullness", struct age_args, fullness, "F", 0, 1,
			FSLAB_STR(FSLAB_DEFAULT_FULLNESS),
			"target fullness of the filesystem, above 0 and below "
			"1"),
	CMDOPT_UINT64('s', "seed", struct age_args, seed, "N",
		      FSLAB_STR(FSLAB_DEFAULT_AGE_SEED),
		      "seed of the op sequence"),
	CMDOPT_STR(0, "ops", struct age_args, ops, "MIX",
		   "operation mix, e.g. create=4,delete=3,append=2,"
		   "truncate=1"),
	CMDOPT_ARGS_CB(0, "budget", "N[x]", set_budget,
		       "stop after N bytes, or N x capacity (default: "
		       FSLAB_STR(FSLAB_DEFAULT_AGE_BUDGET_X) "x)"),
	CMDOPT_DBL_OPEN(0, "time", struct age_args, time_s, "SECS", 0,
			HUGE_VAL, NULL,
			"stop after this wall time (cuts the log)"),
	CMDOPT_UINT64(0, "max-ops", struct age_args, max_ops, "N", NULL,
		      "stop after N operations"),
	CMDOPT_DBL(0, "tolerance", struct age_args, tolerance, "T", 0,
		   HUGE_VAL, FSLAB_STR(FSLAB_DEFAULT_AGE_TOLERANCE),
		   "convergence distance"),
	CMDOPT_ENUMERATE(0, "data", struct age_args, data, "MODE",
			 "write|fallocate", age_data_values, "write",
			 "write the files' data or fallocate it"),
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
	CMDOPT_UINT64(0, "survey-every", struct age_args, survey_every, "K",
		      NULL, "fragmentation survey every K operations"),
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
		     "images, mount points, golden/ ("
		     TARGET_DEFAULT_SCRATCH ")"),
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

/* -1 to go on, or the exit code (help printed, or a usage error). */
static int parse_args(int argc, char **argv, struct age_args *a)
{
	int argi;

	memset(a, 0, sizeof(*a));
	a->profile = "desktop";
	a->fullness = FSLAB_DEFAULT_FULLNESS;
	a->seed = FSLAB_DEFAULT_AGE_SEED;
	a->tolerance = FSLAB_DEFAULT_AGE_TOLERANCE;
	a->budget_x = FSLAB_DEFAULT_AGE_BUDGET_X;
	a->data = AGE_DATA_WRITE;
	a->scratch = TARGET_DEFAULT_SCRATCH;
	argi = cmdopt_parse(&cmd_age_opts, argc, argv, a);
	if (argi < 0)
		return cmdopt_exit(argi);
	if (a->check)
		return -1;
	if (argi < argc)
		a->path = argv[argi++];
	if (argi < argc)
		return cmdopt_usage_error(&cmd_age_opts, "unexpected argument "
					  "'%s'", argv[argi]);
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
	int rc = parse_args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (a.check)
		return age_check_golden(&a);
	return age_session(&a, argc, argv);
}
