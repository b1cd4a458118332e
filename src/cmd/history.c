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

#include "cmd/cmd.h"
#include "compare/history.h"
#include "compare/load.h"
#include "output/history.h"
#include "store/store.h"
#include "util/util.h"
#include "workloads/registry.h"

struct history_args {
	struct cmd_dbs dbs;
	struct cmdopt_format fmt;
	const char *workload, *metric, *target, *by;
	double alpha, min_step;
	long long min_seg;
	bool fail_on_change;
};

static const struct cmdopt history_table[] = {
	CMDOPT_INCLUDE_AT(struct history_args, dbs, cmd_dbs_opts),
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
	.usage = "[SELECTOR|RUN|TAG...] [--db PATH]... [--workload W]\n"
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
		"compare, report, export).\n\n"
		"With --db given more than once, the stores are read "
		"read-only and their runs make one series: a run imported "
		"into several counts once, points are labelled ID@N (run ID "
		"of the N-th --db), and a run id argument must be written "
		"ID@N.",
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

/* A run rather than a tag: latest, an id, or with several stores ID@N. */
static bool names_run(const char *arg, size_t nst)
{
	size_t k;
	char *plain;

	if (!strcmp(arg, "latest") || all_digits(arg))
		return true;
	plain = nst > 1 ? cmp_split_db_ref(arg, nst, &k) : NULL;
	free(plain);
	return plain != NULL;
}

/*
 * The runs of store k of nst the arguments name, added to *ids; found[a]
 * counts argument a's runs over all stores so far.  With one store this
 * is what it always was; with several, a selector or tag may match in
 * some stores only (the caller refuses one that matches in none) and a
 * run id needs its store, ID@N, since ids are per store.
 */
static int collect(struct store *st, size_t k, size_t nst, char **args,
		   size_t nargs, size_t *found, int64_t **ids, size_t *n)
{
	size_t alloc = 0, w = 0;

	*ids = NULL;
	*n = 0;
	if (!nargs)
		return store_select_runs(st, "since=@0", ids, n);
	for (size_t a = 0; a < nargs; a++) {
		int64_t *sel = NULL, id;
		size_t ns = 0, only;
		char *plain;
		int rc;

		if (store_is_selector(args[a]) || !names_run(args[a], nst)) {
			if (store_is_selector(args[a]) ?
			    store_select_runs(st, args[a], &sel, &ns) :
			    store_tag_runs(st, args[a], &sel, &ns))
				return -1;
			add_ids(ids, n, &alloc, sel, ns);
			free(sel);
			found[a] += ns;
			if (ns || nst > 1)
				continue;
			if (store_is_selector(args[a]))
				return error("no run matches '%s' in '%s'",
					     args[a], store_path(st));
		}
		if (nst > 1) {
			plain = cmp_split_db_ref(args[a], nst, &only);
			if (!plain)
				return error("with %zu --db, name run '%s' as "
					     "%s@N for the N-th", nst, args[a],
					     args[a]);
			rc = only == k ? store_resolve_run(st, plain, &id) : 1;
			free(plain);
			if (rc < 0)
				return -1;
			if (rc)
				continue;
		} else if (store_resolve_run(st, args[a], &id)) {
			return -1;
		}
		add_ids(ids, n, &alloc, &id, 1);
		found[a]++;
	}
	/* Unique; the engine orders points by start time itself. */
	qsort(*ids, *n, sizeof(**ids), cmp_id);
	for (size_t i = 0; i < *n; i++)
		if (!w || (*ids)[w - 1] != (*ids)[i])
			(*ids)[w++] = (*ids)[i];
	*n = w;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Feed store k's chosen runs to h, one in memory at a time (ten
 * thousand runs fit anywhere), in one snapshot from choosing the runs
 * to reading the last.  A run whose global id is in seen[0..nseen) (an
 * earlier store has it: imported into both) is skipped; the ids fed
 * are added to *seen for the next store.
 */
static int feed_store(struct history *h, struct store *st, size_t k,
		      size_t nst, char **args, size_t nargs, size_t *found,
		      char ***seen, size_t *nseen, size_t *aseen,
		      const struct cmd_history_feed *feed)
{
	size_t n = 0, before = *nseen;
	int64_t *ids = NULL;
	int rc = -1;

	if (store_snapshot_begin(st))
		return -1;
	if (collect(st, k, nst, args, nargs, found, &ids, &n))
		goto out;
	h->db = k;
	for (size_t i = 0; i < n; i++) {
		struct run_rec *r;

		if (store_load_run_metrics(st, ids[i], &r))
			goto out;
		if (nst > 1 && r->uuid && before &&
		    bsearch(&r->uuid, *seen, before, sizeof(**seen),
			    cmp_str)) {
			run_rec_free(r);
			continue;
		}
		wl_canonical_options(r);
		if (feed)
			feed->add(feed->data, r, k);
		else
			history_add_run(h, r);
		if (nst > 1 && r->uuid) {
			ALLOC_GROW(*seen, *nseen + 1, *aseen);
			(*seen)[(*nseen)++] = xstrdup(r->uuid);
		}
		run_rec_free(r);
	}
	if (*nseen > 1)
		qsort(*seen, *nseen, sizeof(**seen), cmp_str);
	rc = 0;
out:
	store_snapshot_end(st);
	free(ids);
	return rc;
}

int cmd_history_feed(struct history *h, const struct cmd_dbs *dbs,
		     char **args, size_t nargs,
		     const struct cmd_history_feed *feed)
{
	size_t nst = dbs->n ? dbs->n : 1, nseen = 0, aseen = 0, *found;
	char **seen = NULL;
	struct store *st;
	int rc = -1;

	found = xcalloc(nargs + 1, sizeof(*found));
	for (size_t k = 0; k < nst; k++) {
		int r;

		/* Read-only, as compare reads several stores. */
		if (store_open_existing(dbs->n ? dbs->v[k] : NULL, &st))
			goto out;
		r = feed_store(h, st, k, nst, args, nargs, found, &seen,
			       &nseen, &aseen, feed);
		store_close(st);
		if (r)
			goto out;
	}
	for (size_t i = 0; i < nargs && nst > 1; i++)
		if (!found[i]) {
			error("no run matches '%s' in any --db", args[i]);
			goto out;
		}
	rc = 0;
out:
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	free(found);
	return rc;
}

int cmd_history(int argc, char **argv)
{
	struct history_args a = { .fmt.format = "text", .by = "run",
				  .alpha = CP_ALPHA,
				  .min_step = CP_MIN_STEP_PCT,
				  .min_seg = CP_MIN_SEG };
	struct hist_opts o = { 0 };
	struct history h;
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
	o.nr_dbs = a.dbs.n ? a.dbs.n : 1;
	history_init(&h, &o);
	if (cmd_history_feed(&h, &a.dbs, argv + first, (size_t)(argc - first),
			     NULL)) {
		history_release(&h);
		return EXIT_RUNTIME;
	}
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
	return rc;
}
