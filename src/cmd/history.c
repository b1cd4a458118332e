// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * history.c - `fslab history`: how the key figures moved over many runs
 * and where they changed, with what changed there.  The engine is
 * src/compare/history.c with src/stats/changepoint.c, the rendering
 * src/output/history.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare/history.h"
#include "output/history.h"
#include "store/store.h"
#include "util/util.h"
#include "workloads/registry.h"

struct history_args {
	struct cmdopt_store store;
	struct cmdopt_format fmt;
	const char *workload, *metric, *target, *by;
	double alpha, min_step;
	long long min_seg;
	bool fail_on_change;
};

static const struct cmdopt history_table[] = {
	CMDOPT_INCLUDE_AT(struct history_args, store, cmdopt_store_opts),
	CMDOPT_INCLUDE_AT(struct history_args, fmt, cmdopt_format_opts),
	CMDOPT_STR_C(0, "workload", struct history_args, workload, "W",
		     CMDOPT_C_WORKLOAD, "only workloads matching the glob W"),
	CMDOPT_STR(0, "metric", struct history_args, metric, "GLOB",
		   "every metric matching GLOB instead of the workloads' "
		   "key metrics"),
	CMDOPT_STR(0, "target", struct history_args, target, "NAME",
		   "only targets of that name (a glob)"),
	CMDOPT_CHOOSE(0, "by", struct history_args, by, "BY",
		      "run|kernel|version|date",
		      "one point per run (the default), or per kernel, "
		      "fslab version or day (UTC), pooling their runs"),
	CMDOPT_DBL_OPEN(0, "alpha", struct history_args, alpha, "P", 0, 1,
			"0.001", "a change point needs Student's p between "
			"its segments below P"),
	CMDOPT_DBL(0, "min-step", struct history_args, min_step, "PCT", 0,
		   HUGE_VAL, "2", "and a step of at least PCT %"),
	CMDOPT_INTEGER(0, "min-segment", struct history_args, min_seg, "N", 2,
		       1000000, "and at least N points on each side, so a "
		       "single spike is no change (default 4)"),
	CMDOPT_BOOL(0, "fail-on-change", struct history_args, fail_on_change,
		    "exit 3 when the newest segment of a key metric is worse "
		    "than the one before (for nightly jobs)"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_history_opts = {
	.name = "history",
	.summary = "a figure over many runs and the change points in it",
	.usage = "[SELECTOR|RUN|TAG...] [--db PATH] [--workload W]\n"
		 "[--metric GLOB] [--target NAME] [--by run|kernel|version|date]\n"
		 "[--alpha P] [--min-step PCT] [--min-segment N]\n"
		 "[--fail-on-change] [--format text|json|csv]",
	.desc = "Per key metric, workload and target name: the mean over "
		"repetitions of every complete run (as compare computes it) "
		"with its 95 % interval, oldest first, and the change points "
		"of that series found by E-divisive means with a Student "
		"t-test between the segments (deterministic: the same store "
		"prints the same).  At each change point, every recorded "
		"field that differs between the runs on either side (kernel, "
		"fslab version, host, mkfs version and options, mount "
		"options, workload options...) is named, or 'nothing "
		"recorded changed'.\n\n"
		"Runs: every finished run, or those the arguments name: run "
		"ids, tags (all their runs) and selectors KEY=VALUE[,...] "
		"with keys kernel=GLOB, host=GLOB, version=GLOB, tag=GLOB, "
		"since=DATE and until=DATE (YYYY-MM-DD[THH:MM[:SS]] local "
		"time, or @UNIXTIME), e.g. kernel=6.6*,host=box1.  The same "
		"selectors work wherever a RUN|TAG is accepted (show, "
		"compare, report, export).",
	.opts = history_table,
	.footer = "Exit codes: 0 success, 1 failure, 2 usage error, 3 the "
		  "newest segment is worse (with --fail-on-change).",
	.args = CMDOPT_C_RUN,
};

static void add_ids(int64_t **ids, size_t *n, size_t *alloc,
		    const int64_t *add, size_t nadd)
{
	ALLOC_GROW(*ids, *n + nadd, *alloc);
	memcpy(*ids + *n, add, nadd * sizeof(*add));
	*n += nadd;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int collect(struct store *st, char **args, size_t nargs,
		   int64_t **ids, size_t *n)
{
	size_t alloc = 0, w = 0;

	*ids = NULL;
	*n = 0;
	if (!nargs)
		return store_select_runs(st, "since=@0", ids, n);
	for (size_t a = 0; a < nargs; a++) {
		int64_t *sel = NULL, id;
		size_t ns = 0;

		if (store_is_selector(args[a]) ||
		    (strcmp(args[a], "latest") && !all_digits(args[a]))) {
			if (store_is_selector(args[a]) ?
			    store_select_runs(st, args[a], &sel, &ns) :
			    store_tag_runs(st, args[a], &sel, &ns))
				return -1;
			add_ids(ids, n, &alloc, sel, ns);
			free(sel);
			if (ns)
				continue;
			if (store_is_selector(args[a]))
				return error("no run matches '%s' in '%s'",
					     args[a], store_path(st));
		}
		if (store_resolve_run(st, args[a], &id))
			return -1;
		add_ids(ids, n, &alloc, &id, 1);
	}
	/* Unique; the engine orders points by start time itself. */
	qsort(*ids, *n, sizeof(**ids), cmp_id);
	for (size_t i = 0; i < *n; i++)
		if (!w || (*ids)[w - 1] != (*ids)[i])
			(*ids)[w++] = (*ids)[i];
	*n = w;
	return 0;
}

int cmd_history(int argc, char **argv)
{
	struct history_args a = { .fmt.format = "text", .by = "run",
				  .alpha = CP_ALPHA,
				  .min_step = CP_MIN_STEP_PCT,
				  .min_seg = CP_MIN_SEG };
	struct hist_opts o = { 0 };
	struct history h;
	struct store *st;
	int64_t *ids = NULL;
	size_t n = 0;
	int first, rc = EXIT_RUNTIME;

	first = cmdopt_parse(&cmd_history_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	if (!(a.alpha > 0 && a.alpha < 1))
		return cmdopt_usage_error(&cmd_history_opts, "--alpha wants a "
					  "level between 0 and 1");
	o.workload = a.workload;
	o.metric = a.metric;
	o.target = a.target;
	o.by = !strcmp(a.by, "kernel") ? HIST_BY_KERNEL :
	       !strcmp(a.by, "version") ? HIST_BY_VERSION :
	       !strcmp(a.by, "date") ? HIST_BY_DATE : HIST_BY_RUN;
	cp_opts_init(&o.cp);
	o.cp.alpha = a.alpha;
	o.cp.min_step_pct = a.min_step;
	o.cp.min_seg = (size_t)a.min_seg;
	o.cp.log = true;
	if (store_open_existing(a.store.db, &st))
		return EXIT_RUNTIME;
	/* One snapshot from choosing the runs to reading the last. */
	if (store_snapshot_begin(st))
		goto out;
	if (collect(st, argv + first, (size_t)(argc - first), &ids, &n)) {
		store_snapshot_end(st);
		goto out;
	}
	history_init(&h, &o);
	/* One run in memory at a time: ten thousand runs fit anywhere. */
	for (size_t i = 0; i < n; i++) {
		struct run_rec *r;

		if (store_load_run_metrics(st, ids[i], &r)) {
			store_snapshot_end(st);
			history_release(&h);
			goto out;
		}
		wl_canonical_options(r);
		history_add_run(&h, r);
		run_rec_free(r);
	}
	store_snapshot_end(st);
	history_finish(&h);
	if (!strcmp(a.fmt.format, "json"))
		rc = history_print_json(stdout, &h) ? EXIT_RUNTIME : EXIT_OK;
	else if (!strcmp(a.fmt.format, "csv"))
		history_print_csv(stdout, &h), rc = EXIT_OK;
	else
		history_print_text(stdout, &h), rc = EXIT_OK;
	if (rc == EXIT_OK && a.fail_on_change && history_newest_worse(&h))
		rc = EXIT_REGRESSION;
	history_release(&h);
out:
	free(ids);
	store_close(st);
	return rc;
}
