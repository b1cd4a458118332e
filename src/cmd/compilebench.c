/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compilebench.c - `fslab compilebench`: a drop-in for compilebench 0.6
 * with its option names, so existing scripts (autotest, Phoronix) keep
 * working; the run itself goes through the shared runner and store like
 * any `fslab run` of the compilebench workload on a dir: target.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "run/runner.h"
#include "util/defaults.h"
#include "util/util.h"
#include "workloads/compilebench/cbstate.h"
#include "workloads/registry.h"

struct cli {
	long long initial_dirs, runs;
	const char *dir, *sources, *trace, *device, *db, *data, *compat;
	uint64_t buffer_size, seed;
	bool makej, no_sync, dry_run;
};

/* compilebench 0.6's own option names and letters, so scripts written
 * for it (autotest, Phoronix) run unchanged. */
static const struct cmdopt compilebench_table[] = {
	CMDOPT_INTEGER('i', "initial-dirs", struct cli, initial_dirs, "N", 0,
		       100000, "trees created first (30)"),
	CMDOPT_INTEGER('r', "runs", struct cli, runs, "N", 0, 100000000,
		       "random ops to complete (100)"),
	CMDOPT_STR_C('D', "directory", struct cli, dir, "DIR", CMDOPT_C_DIR,
		     "working directory (/mnt/default), created if missing"),
	CMDOPT_STR_C('s', "sources", struct cli, sources, "DIR", CMDOPT_C_DIR,
		     "compilebench's dataset-* files (default: the built-in "
		     "kernel-like model)"),
	CMDOPT_BYTES('b', "buffer-size", struct cli, buffer_size, "N",
		     "262144", "read/write buffer in bytes"),
	CMDOPT_BOOL('m', "makej", struct cli, makej,
		    "compile, read and delete the initial trees only"),
	CMDOPT_BOOL('n', "no-sync", struct cli, no_sync,
		    "no syncs and no cache drops"),
	CMDOPT_STR('t', "trace", struct cli, trace, "FILE",
		   "accepted for compatibility (needs -d); blktrace is not "
		   "used"),
	CMDOPT_STR_C('d', "device", struct cli, device, "DEV", CMDOPT_C_FILE,
		     "accepted for compatibility with -t"),
	/* passed on as text to the workload's own table */
	CMDOPT_CHOOSE(0, "data", struct cli, data, "a|random", "a|random",
		      "file contents ('a' like compilebench)"),
	CMDOPT_CHOOSE(0, "compat", struct cli, compat, "py3|fixed",
		      "py3|fixed", "py3 keeps compilebench's counting quirks"),
	CMDOPT_UINT64(0, "seed", struct cli, seed, "N",
		      FSLAB_STR(FSLAB_DEFAULT_SEED), "random seed"),
	CMDOPT_BOOL(0, "dry-run", struct cli, dry_run,
		    "print the planned ops, touch no disk"),
	CMDOPT_STR_C(0, "db", struct cli, db, "PATH", CMDOPT_C_FILE,
		     "results store (default store; '' for none)"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_compilebench_opts = {
	.name = "compilebench",
	.summary = "drop-in replacement for compilebench 0.6",
	.usage = "[options]",
	.desc = "Age a filesystem like compilebench 0.6: create kernel trees, "
		"then patch, compile, clean, read, stat and delete them in a "
		"fixed random order.",
	.opts = compilebench_table,
};

static int set_opt(const struct run_workload *w, const char *key,
		   const char *val)
{
	char err[256];

	if (opt_set(w->wl->opts, w->opts, key, val, err, sizeof(err)) < 0) {
		cmdopt_usage_error(&cmd_compilebench_opts, "%s", err);
		return -1;
	}
	return 0;
}

static int fill_workload(const struct cli *c, struct run_workload *w)
{
	char err[256], num[32], buf[32];

	if (run_workload_parse("compilebench", w, err, sizeof(err)) < 0) {
		cmdopt_usage_error(&cmd_compilebench_opts, "%s", err);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%" PRIu64, c->buffer_size);
	snprintf(num, sizeof(num), "%lld", c->initial_dirs);
	if (set_opt(w, "initial-dirs", num))
		return -1;
	snprintf(num, sizeof(num), "%lld", c->runs);
	if (set_opt(w, "runs", num) ||
	    (c->sources && set_opt(w, "sources", c->sources)) ||
	    set_opt(w, "buffer-size", buf) ||
	    set_opt(w, "makej", c->makej ? "yes" : "no") ||
	    set_opt(w, "no-sync", c->no_sync ? "yes" : "no") ||
	    (c->data && set_opt(w, "data", c->data)) ||
	    (c->compat && set_opt(w, "compat", c->compat)))
		return -1;
	if (w->wl->check && w->wl->check(w->opts, err, sizeof(err)) < 0) {
		cmdopt_usage_error(&cmd_compilebench_opts, "%s", err);
		return -1;
	}
	return 0;
}

/* Plan the whole run with the same state machine, print it, no I/O. */
static int dry_run(const struct cli *c)
{
	struct cb_params par = {
		.initial_dirs = (int)c->initial_dirs, .runs = (int)c->runs,
		.makej = c->makej, .compat = CB_COMPAT_PY3, .seed = c->seed,
	};
	struct cb_sets sets;
	struct cb_state st;

	/* the values were already checked by the option table */
	if (c->compat && !strcmp(c->compat, "fixed"))
		par.compat = CB_COMPAT_FIXED;
	if (c->sources && *c->sources) {
		if (cb_sets_load(&sets, c->sources) < 0)
			return EXIT_USAGE;
	} else {
		cb_sets_builtin(&sets);
	}
	cb_state_init(&st, &par, &sets);
	cb_dry_run(stdout, &st);
	cb_state_release(&st);
	cb_sets_release(&sets);
	return EXIT_OK;
}

static int parse_args(int argc, char **argv, struct cli *c)
{
	int first = cmdopt_parse(&cmd_compilebench_opts, argc, argv, c);

	if (first < 0)
		return first == CMDOPT_HELP ? -1 : EXIT_USAGE;
	if (first < argc)
		return cmdopt_usage_error(&cmd_compilebench_opts, "unexpected "
					  "argument '%s'", argv[first]);
	return 0;
}

int cmd_compilebench(int argc, char **argv)
{
	struct cli c = {
		.initial_dirs = 30, .runs = 100, .dir = "/mnt/default",
		.buffer_size = 262144, .seed = FSLAB_DEFAULT_SEED,
	};
	struct run_config cfg;
	struct target_spec ts;
	struct run_workload w;
	char err[256], *spec;
	struct stat sb;
	int rc;

	memset(&w, 0, sizeof(w));
	rc = parse_args(argc, argv, &c);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (c.trace && !c.device) {
		fprintf(stderr, "No blktrace device specified\n");
		return EXIT_RUNTIME;
	}
	if (fill_workload(&c, &w) < 0) {
		run_workload_release(&w);
		return EXIT_USAGE;
	}
	if (c.dry_run) {
		rc = dry_run(&c);
		run_workload_release(&w);
		return rc;
	}
	if (c.trace)
		warning("blktrace is not used; block tracing will come "
			"through tracefs");
	if (stat(c.dir, &sb)) {
		fprintf(stderr, "creating %s\n", c.dir);
		if (mkdir_p(c.dir, 0755)) {
			error_errno("cannot create '%s'", c.dir);
			run_workload_release(&w);
			return EXIT_RUNTIME;
		}
	}
	spec = xasprintf("dir:%s", c.dir);
	if (target_spec_parse(spec, &ts, err, sizeof(err)) < 0) {
		cmdopt_usage_error(&cmd_compilebench_opts, "%s", err);
		free(spec);
		run_workload_release(&w);
		return EXIT_USAGE;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.targets = &ts;
	cfg.nr_targets = 1;
	cfg.wls = &w;
	cfg.nr_wls = 1;
	cfg.repeat = 1;
	cfg.db = c.db;
	/* the workload's seed is the run's (seed=run), as in fslab run */
	cfg.seed = c.seed;
	cfg.cmdline = "fslab compilebench";
	cfg.plain = true;
	rc = runner_execute(&cfg);
	target_spec_release(&ts);
	free(spec);
	run_workload_release(&w);
	return rc;
}
