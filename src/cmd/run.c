/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run.c - `fslab run`: parse targets and workloads, hand them to the
 * runner.  With no arguments it runs the default suite on the default
 * target: the README's "main job".
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "age/ager.h"
#include "cmd.h"
#include "runner.h"
#include "trace/blktrace.h"
#include "disk/diskmodel.h"
#include "trace/hook.h"
#include "util/defaults.h"
#include "util/util.h"
#include "workloads/registry.h"

/* Short enough to finish in a few minutes on a 2-core VM; grows as
 * workloads land, and must stay under 10 minutes. */
static const char *const default_suite[] = {
	"compilebench:initial-dirs=10,runs=30",
};
static const char default_target[] = "ext4";

static const char usage_text[] =
	"usage: fslab run [--target SPEC]... [--workload NAME[:key=val,...]]...\n"
	"                 [--repeat N] [--db PATH] [--scratch DIR] [--tag LABEL]\n"
	"                 [--seed N] [--json FILE] [--destroy-data=/dev/X]\n"
	"                 [--verify] [--pause-before PHASE]\n"
	"\n"
	"Build each target, run each workload on it, measure and store every\n"
	"phase.  Repetitions are interleaved across targets (A B A B ...), each\n"
	"on a freshly made filesystem.\n"
	"\n"
	"  -t, --target SPEC     filesystem under test (repeatable); default 'ext4'\n"
	"                        (see 'fslab help targets')\n"
	"  -w, --workload W      NAME[:key=val,...] (repeatable); default suite:\n"
	"                        compilebench:initial-dirs=10,runs=30\n"
	"                        (see 'fslab list' for workloads and options)\n"
	"  -n, --repeat N        repetitions per target (default 1; with\n"
	"                        --until-cov the minimum)\n"
	"      --order MODE      interleaved (A B A B, default) or blocked\n"
	"                        (A A B B)\n"
	"      --reuse           run every repetition on the same filesystem\n"
	"                        instead of a freshly made one\n"
	"      --until-cov P     add repetitions until the key metric's\n"
	"                        coefficient of variation is <= P %\n"
	"      --max-repeat N    at most N repetitions with --until-cov\n"
	"                        (default 10)\n"
	"      --db PATH         results database (default\n"
	"                        $XDG_DATA_HOME/fslab/results.db)\n"
	"      --no-store        do not store results\n"
	"      --scratch DIR     where loop images and mount points live\n"
	"                        (default /var/tmp/fslab)\n"
	"      --tag LABEL       label the run for 'fslab show LABEL'\n"
	"      --seed N          run seed (default " FSLAB_STR(FSLAB_DEFAULT_SEED) ")\n"
	"      --json FILE       also write the results as JSON ('-' = stdout)\n"
	"      --trace[=PHASE,...]\n"
	"                        trace block I/O of every (or the named) phase:\n"
	"                        seeks, layout score, latency as trace.* metrics\n"
	"      --disk-model=PROFILE\n"
	"                        with --trace: model traced phases on this disk\n"
	"                        (desktop-7200, laptop-5400, enterprise-15k or a\n"
	"                        file; default desktop-7200) as disk.* metrics\n"
	"      --fresh-vs-aged[=PROFILE]\n"
	"                        also run every loop target aged to PROFILE\n"
	"                        (default desktop) and report aged/fresh\n"
	"      --verify          write verifiable data (every 4 KiB block carries\n"
	"                        its file, offset and seed) and check it on every\n"
	"                        read and in a final verify-data phase; a\n"
	"                        mismatch names file and offset and fails the\n"
	"                        run (which workloads: see below)\n"
	"      --pause-before PHASE\n"
	"                        debugging: before every phase named PHASE print\n"
	"                        a line and stop (SIGSTOP) until SIGCONT, e.g. to\n"
	"                        corrupt data behind fslab's back\n"
	"      --destroy-data=/dev/X\n"
	"                        allow formatting dev:/dev/X although it holds data\n"
	"\n"
	"Needs root for loop and dev: targets.  Exit codes: 0 success, 1 a run\n"
	"failed, 2 usage error or a refused target.\n";

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

static char *join_cmdline(int argc, char **argv)
{
	size_t len = 6;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = xmalloc(len + 1);
	strcpy(s, "fslab");
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
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
	enum { O_DB = 256, O_SCRATCH, O_TAG, O_SEED, O_JSON, O_DESTROY,
	       O_NOSTORE, O_ORDER, O_REUSE, O_UNTIL, O_MAXREP,
	       O_TRACE, O_FVA, O_VERIFY, O_PAUSE, O_DISK };
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "workload", required_argument, NULL, 'w' },
		{ "repeat", required_argument, NULL, 'n' },
		{ "db", required_argument, NULL, O_DB },
		{ "no-store", no_argument, NULL, O_NOSTORE },
		{ "scratch", required_argument, NULL, O_SCRATCH },
		{ "tag", required_argument, NULL, O_TAG },
		{ "seed", required_argument, NULL, O_SEED },
		{ "json", required_argument, NULL, O_JSON },
		{ "destroy-data", required_argument, NULL, O_DESTROY },
		{ "order", required_argument, NULL, O_ORDER },
		{ "reuse", no_argument, NULL, O_REUSE },
		{ "until-cov", required_argument, NULL, O_UNTIL },
		{ "max-repeat", required_argument, NULL, O_MAXREP },
		{ "trace", optional_argument, NULL, O_TRACE },
		{ "fresh-vs-aged", optional_argument, NULL, O_FVA },
		{ "verify", no_argument, NULL, O_VERIFY },
		{ "pause-before", required_argument, NULL, O_PAUSE },
		{ "disk-model", required_argument, NULL, O_DISK },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_config cfg;
	size_t alloc_t = 0, alloc_w = 0;
	const char *aged_profile = NULL, *trace = NULL, *disk_model = NULL;
	struct disk_profile disk;
	bool tracing = false;
	char err[512];
	long long v;
	int c, rc;

	memset(&cfg, 0, sizeof(cfg));
	cfg.repeat = 1;
	cfg.max_repeat = 10;
	cfg.seed = FSLAB_DEFAULT_SEED;
	cfg.age = ager_age_default;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:w:n:h", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 't':
			ALLOC_GROW(cfg.targets, cfg.nr_targets + 1, alloc_t);
			if (target_spec_parse(optarg,
					      &cfg.targets[cfg.nr_targets],
					      err, sizeof(err)) < 0)
				usage_die("bad target '%s': %s", optarg, err);
			cfg.nr_targets++;
			break;
		case 'w':
			ALLOC_GROW(cfg.wls, cfg.nr_wls + 1, alloc_w);
			if (run_workload_parse(optarg, &cfg.wls[cfg.nr_wls],
					       err, sizeof(err)) < 0)
				usage_die("%s", err);
			cfg.nr_wls++;
			break;
		case 'n':
			if (parse_int(optarg, 1, 100000, &v) < 0)
				usage_die("--repeat takes a number from 1 to "
					  "100000, not '%s'", optarg);
			cfg.repeat = (int)v;
			break;
		case O_DB:
			if (!*optarg)
				usage_die("--db needs a path");
			cfg.db = optarg;
			break;
		case O_NOSTORE:
			cfg.db = "";
			break;
		case O_SCRATCH:
			cfg.scratch = optarg;
			break;
		case O_TAG:
			cfg.tag = optarg;
			break;
		case O_SEED:
			if (parse_u64(optarg, &cfg.seed) < 0)
				usage_die("--seed takes a non-negative "
					  "integer, not '%s'", optarg);
			break;
		case O_JSON:
			cfg.json = optarg;
			break;
		case O_DESTROY:
			cfg.destroy_data = optarg;
			break;
		case O_ORDER:
			if (!strcmp(optarg, "blocked"))
				cfg.blocked = true;
			else if (strcmp(optarg, "interleaved"))
				usage_die("--order is 'interleaved' or "
					  "'blocked', not '%s'", optarg);
			break;
		case O_REUSE:
			cfg.reuse = true;
			break;
		case O_UNTIL: {
			char *end;

			cfg.until_cov = strtod(optarg, &end);
			if (*end == '%')
				end++;
			if (!*optarg || *end || !(cfg.until_cov > 0) ||
			    cfg.until_cov > 1000)
				usage_die("--until-cov takes a percentage "
					  "above 0, not '%s'", optarg);
			break;
		}
		case O_MAXREP:
			if (parse_int(optarg, 1, 100000, &v) < 0)
				usage_die("--max-repeat takes a number from 1 "
					  "to 100000, not '%s'", optarg);
			cfg.max_repeat = (int)v;
			break;
		case O_FVA:
			aged_profile = optarg ? optarg : "desktop";
			break;
		case O_TRACE:
			/* Registered once the workloads are known, to check
			 * the phase names against them first. */
			tracing = true;
			trace = optarg;
			break;
		case O_VERIFY:
			cfg.verify = true;
			break;
		case O_DISK:
			disk_model = optarg;
			break;
		case O_PAUSE: {
			static struct phase_hook pause_hook = {
				.name = "pause-before",
				.begin = pause_begin,
			};

			if (!*optarg)
				usage_die("--pause-before needs a phase name");
			if (pause_hook.data)
				usage_die("--pause-before is given once");
			pause_hook.data = optarg;
			run_config_add_hook(&cfg, &pause_hook);
			break;
		}
		case 'h':
			fputs(usage_text, stdout);
			wl_print_verify_support(stdout);
			return EXIT_OK;
		case ':':
			usage_die("option '%s' needs a value", argv[optind - 1]);
		default:
			usage_die("unknown option '%s' (see 'fslab run --help')",
				  argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_die("unexpected argument '%s' (targets go after "
			  "--target, workloads after --workload)",
			  argv[optind]);
	if (cfg.until_cov > 0 && cfg.max_repeat < cfg.repeat)
		usage_die("--max-repeat %d is below --repeat %d", cfg.max_repeat,
			  cfg.repeat);
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
			known[i] = cfg.wls[i].wl->phases;
		if (trace_check_phases(trace, known, cfg.nr_wls, err,
				       sizeof(err)) < 0)
			usage_die("%s", err);
		free(known);
		if (disk_profile_load(disk_model ? disk_model :
				      DISK_DEFAULT_PROFILE, &disk) < 0)
			usage_die("bad --disk-model '%s'", disk_model);
		run_config_add_hook(&cfg, trace_phase_hook(trace, &disk));
	} else if (disk_model) {
		usage_die("--disk-model needs --trace");
	}

	cfg.cmdline = join_cmdline(argc - 1, argv + 1);
	rc = runner_execute(&cfg);
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
}
