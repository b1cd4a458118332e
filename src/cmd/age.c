/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * age.c - `fslab age`: the command line of an aging session.  The
 * engine (build the target, age it to a profile or by replaying an op
 * log, survey, save a golden copy) is age/session.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs/golden.h"
#include "age/session.h"
#include "cmd.h"
#include "fs/target.h"
#include "util/defaults.h"
#include "util/util.h"

static const char age_usage[] =
	"usage: fslab age PATH|--target SPEC [options]\n"
	"\n"
	"Age a filesystem: fill it to --fullness with files whose sizes and\n"
	"depths follow a profile, then create and delete (or apply an --ops\n"
	"mix) until size, depth and age distributions converge, the byte\n"
	"budget or the time limit; or replay an op log.  See doc/aging.md.\n"
	"\n"
	"  -t, --target SPEC     build an owned target (as fslab run) and age\n"
	"                        its work directory\n"
	"  -p, --profile NAME|FILE  desktop (default), compile-farm, a file\n"
	"  -f, --fullness F      target fullness of the filesystem ("
	FSLAB_STR(FSLAB_DEFAULT_FULLNESS) ")\n"
	"  -s, --seed N          seed of the op sequence ("
	FSLAB_STR(FSLAB_DEFAULT_AGE_SEED) ")\n"
	"      --ops MIX         create=4,delete=3,append=2,truncate=1,...\n"
	"      --budget N[x]     stop after N bytes, or N x capacity ("
	FSLAB_STR(FSLAB_DEFAULT_AGE_BUDGET_X) "x)\n"
	"      --time SECS       stop after this wall time (cuts the log)\n"
	"      --max-ops N       stop after N operations\n"
	"      --tolerance T     convergence distance ("
	FSLAB_STR(FSLAB_DEFAULT_AGE_TOLERANCE) ")\n"
	"      --data MODE       write (default) or fallocate\n"
	"      --record LOG      write the op log\n"
	"      --replay LOG      apply an op log instead of a profile\n"
	"      --final-set       with --replay: apply only the log's final\n"
	"                        file set, written once (the fresh baseline)\n"
	"      --with WL[:k=v]   run a workload (compilebench:runs=10) in\n"
	"                        the directory first, as part of the aging\n"
	"      --survey-every K  fragmentation survey every K operations\n"
	"      --save NAME       keep the aged image as a golden copy\n"
	"                        (needs --target; use it as aged:NAME)\n"
	"      --check-golden NAME  restore NAME to a scratch copy and\n"
	"                        verify both checksums, then exit\n"
	"      --db PATH         store the run (phases fill, age, survey)\n"
	"      --scratch DIR     images, mount points, golden/\n"
	"                        (/var/tmp/fslab)\n"
	"      --tag LABEL       tag of the stored run\n"
	"  -q, --quiet           no progress line\n";

enum {
	O_OPS = 256, O_BUDGET, O_TIME, O_MAXOPS, O_TOL, O_DATA, O_RECORD,
	O_REPLAY, O_FINAL, O_WITH, O_SURVEY, O_SAVE, O_CHECK, O_DB,
	O_SCRATCH, O_TAG,
};

static const struct option age_longopts[] = {
	{ "target", required_argument, NULL, 't' },
	{ "profile", required_argument, NULL, 'p' },
	{ "fullness", required_argument, NULL, 'f' },
	{ "seed", required_argument, NULL, 's' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "ops", required_argument, NULL, O_OPS },
	{ "budget", required_argument, NULL, O_BUDGET },
	{ "time", required_argument, NULL, O_TIME },
	{ "max-ops", required_argument, NULL, O_MAXOPS },
	{ "tolerance", required_argument, NULL, O_TOL },
	{ "data", required_argument, NULL, O_DATA },
	{ "record", required_argument, NULL, O_RECORD },
	{ "replay", required_argument, NULL, O_REPLAY },
	{ "final-set", no_argument, NULL, O_FINAL },
	{ "with", required_argument, NULL, O_WITH },
	{ "survey-every", required_argument, NULL, O_SURVEY },
	{ "save", required_argument, NULL, O_SAVE },
	{ "check-golden", required_argument, NULL, O_CHECK },
	{ "db", required_argument, NULL, O_DB },
	{ "scratch", required_argument, NULL, O_SCRATCH },
	{ "tag", required_argument, NULL, O_TAG },
	{ NULL, 0, NULL, 0 },
};

static int parse_args(int argc, char **argv, struct age_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	a->profile = "desktop";
	a->fullness = FSLAB_DEFAULT_FULLNESS;
	a->seed = FSLAB_DEFAULT_AGE_SEED;
	a->tolerance = FSLAB_DEFAULT_AGE_TOLERANCE;
	a->budget_x = FSLAB_DEFAULT_AGE_BUDGET_X;
	a->data = true;
	a->scratch = TARGET_DEFAULT_SCRATCH;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t:p:f:s:qh", age_longopts,
				NULL)) != -1) {
		char *end;
		size_t len;

		switch (c) {
		case 't':
			a->target = optarg;
			break;
		case 'p':
			a->profile = optarg;
			break;
		case 'f':
			a->fullness = strtod(optarg, &end);
			if (*end || !(a->fullness > 0 && a->fullness < 1))
				usage_die("--fullness must be between 0 and 1,"
					  " not '%s'", optarg);
			break;
		case 's':
			if (parse_u64(optarg, &a->seed) < 0)
				usage_die("bad --seed '%s'", optarg);
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			fputs(age_usage, stdout);
			exit(EXIT_OK);
		case O_OPS:
			a->ops = optarg;
			break;
		case O_BUDGET:
			len = strlen(optarg);
			if (len && (optarg[len - 1] == 'x' ||
				    optarg[len - 1] == 'X')) {
				a->budget_x = strtod(optarg, &end);
				if (end != optarg + len - 1 ||
				    !(a->budget_x > 0))
					usage_die("bad --budget '%s'", optarg);
			} else if (parse_size(optarg, &a->budget) < 0) {
				usage_die("bad --budget '%s': a size or Nx",
					  optarg);
			}
			break;
		case O_TIME:
			a->time_s = strtod(optarg, &end);
			if (*end || !(a->time_s > 0))
				usage_die("bad --time '%s'", optarg);
			break;
		case O_MAXOPS:
			if (parse_u64(optarg, &a->max_ops) < 0)
				usage_die("bad --max-ops '%s'", optarg);
			break;
		case O_TOL:
			a->tolerance = strtod(optarg, &end);
			if (*end || !(a->tolerance >= 0))
				usage_die("bad --tolerance '%s'", optarg);
			break;
		case O_DATA:
			if (!strcmp(optarg, "write"))
				a->data = true;
			else if (!strcmp(optarg, "fallocate"))
				a->data = false;
			else
				usage_die("--data is 'write' or 'fallocate', "
					  "not '%s'", optarg);
			break;
		case O_RECORD:
			a->record = optarg;
			break;
		case O_REPLAY:
			a->replay = optarg;
			break;
		case O_FINAL:
			a->final_set = true;
			break;
		case O_WITH:
			a->with = optarg;
			break;
		case O_SURVEY:
			if (parse_u64(optarg, &a->survey_every) < 0)
				usage_die("bad --survey-every '%s'", optarg);
			break;
		case O_SAVE:
			a->save = optarg;
			break;
		case O_CHECK:
			a->check = optarg;
			break;
		case O_DB:
			a->db = optarg;
			break;
		case O_SCRATCH:
			a->scratch = optarg;
			break;
		case O_TAG:
			a->tag = optarg;
			break;
		default:
			fputs(age_usage, stderr);
			exit(EXIT_USAGE);
		}
	}
	if (a->check)
		return 0;
	if (optind < argc)
		a->path = argv[optind++];
	if (optind < argc)
		usage_die("unexpected argument '%s'", argv[optind]);
	if (!!a->path == !!a->target)
		usage_die("name either a directory PATH or --target SPEC");
	if (a->record && a->replay)
		usage_die("--record and --replay exclude each other");
	if (a->final_set && !a->replay)
		usage_die("--final-set needs --replay");
	if (a->save && !a->target)
		usage_die("--save needs --target (an owned loop image)");
	if (a->save && !golden_name_ok(a->save))
		usage_die("bad --save name '%s': letters, digits, '.', '_', "
			  "'-'", a->save);
	return 0;
}
int cmd_age(int argc, char **argv)
{
	struct age_args a;

	parse_args(argc, argv, &a);
	if (a.check)
		return age_check_golden(&a);
	return age_session(&a, argc, argv);
}
