// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * site.c - `fslab site`: history as a static, self-contained web site.
 * The runs are chosen and read as `fslab history` reads them
 * (cmd_history_feed), each fed to the history of every host and to its
 * own host's; the pages are src/output/site.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "compare/history.h"
#include "output/chart.h"
#include "output/site.h"
#include "util/util.h"

struct site_args {
	struct cmd_dbs dbs;
	const char *dir, *workload, *metric, *target;
	double alpha, min_step;
	long long min_seg;
};

static const struct cmdopt site_table[] = {
	CMDOPT_INCLUDE_AT(struct site_args, dbs, cmd_dbs_opts),
	CMDOPT_STR_C('o', "output", struct site_args, dir, "DIR",
		     CMDOPT_C_DIR, "write the site into DIR (required; "
		     "created, or one fslab site made before)"),
	CMDOPT_STR_C(0, "workload", struct site_args, workload, "W",
		     CMDOPT_C_WORKLOAD, "only workloads matching the glob W"),
	CMDOPT_STR(0, "metric", struct site_args, metric, "GLOB",
		   "every metric matching GLOB instead of the workloads' "
		   "key metrics"),
	CMDOPT_STR(0, "target", struct site_args, target, "NAME",
		   "only targets of that name (a glob)"),
	CMDOPT_DBL_OPEN(0, "alpha", struct site_args, alpha, "P", 0, 1,
			"0.001", "a change point needs Student's p between "
			"its segments below P"),
	CMDOPT_DBL(0, "min-step", struct site_args, min_step, "PCT", 0,
		   HUGE_VAL, "2", "and a step of at least PCT %"),
	CMDOPT_INTEGER(0, "min-segment", struct site_args, min_seg, "N", 2,
		       1000000, "and at least N points on each side "
		       "(default 4)"),
	CMDOPT_TABLE_END,
};

const struct cmdopt_cmd cmd_site_opts = {
	.name = "site",
	.summary = "history as a static web site to share",
	.usage = "-o DIR [SELECTOR|RUN|TAG...] [--db PATH]... [--workload W]\n"
		 "[--metric GLOB] [--target NAME] [--alpha P] [--min-step PCT]\n"
		 "[--min-segment N]",
	.desc = "The series of 'fslab history' (same runs, selectors and "
		"change points) as a directory of HTML pages that any browser "
		"opens from disk, with no server and no network: index.html "
		"lists the newest change points, regressions first, with the "
		"recorded fields that changed there (kernel, mkfs and fslab "
		"versions, host...), and every series; each series has a page "
		"with its trend chart (inline SVG), its points with their "
		"95 % intervals and its change points, and, when its runs "
		"come from several hosts, the same per host.\n\n"
		"The output depends only on the stores: the same runs give "
		"byte-identical files, and a page is rewritten only when its "
		"bytes change ('N pages written, M unchanged'); pages of "
		"series no longer there are removed.  DIR must be new, empty "
		"or made by fslab site (it holds the marker .fslab-site); "
		"symlinks in it are replaced, never followed.",
	.opts = site_table,
	.footer = "Exit codes: 0 success, 1 failure, 2 usage error.",
	.args = CMDOPT_C_RUN,
};

struct site_feed {
	struct history all;
	struct hist_opts o;
	char **host_names;
	struct history *hosts;
	size_t nr_hosts, alloc_names, alloc_hosts;
	struct site_run *runs;
	size_t nr_runs, alloc_runs;
};

/* The index of host name, added in sorted place when new. */
static size_t host_index(struct site_feed *f, const char *name,
			 bool *added)
{
	size_t lo = 0, hi = f->nr_hosts;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(f->host_names[mid], name);

		if (!c) {
			*added = false;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	ALLOC_GROW(f->host_names, f->nr_hosts + 1, f->alloc_names);
	ALLOC_GROW(f->hosts, f->nr_hosts + 1, f->alloc_hosts);
	memmove(f->host_names + lo + 1, f->host_names + lo,
		(f->nr_hosts - lo) * sizeof(*f->host_names));
	memmove(f->hosts + lo + 1, f->hosts + lo,
		(f->nr_hosts - lo) * sizeof(*f->hosts));
	f->host_names[lo] = xstrdup(name);
	history_init(&f->hosts[lo], &f->o);
	f->nr_hosts++;
	*added = true;
	return lo;
}

static void feed_add(void *data, const struct run_rec *r, size_t k)
{
	struct site_feed *f = data;
	const char *host = r->host && *r->host ? r->host : "-";
	bool added;
	size_t i = host_index(f, host, &added);

	f->all.db = k;
	history_add_run(&f->all, r);
	f->hosts[i].db = k;
	history_add_run(&f->hosts[i], r);
	ALLOC_GROW(f->runs, f->nr_runs + 1, f->alloc_runs);
	/* Host names are kept until the end: the run points at its copy. */
	f->runs[f->nr_runs++] = (struct site_run){ k, r->id,
						   f->host_names[i] };
}

static int cmp_run(const void *a, const void *b)
{
	const struct site_run *x = a, *y = b;

	if (x->db != y->db)
		return x->db < y->db ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static int build(struct site_feed *f, const struct site_args *a,
		 char **args, size_t nargs)
{
	struct cmd_history_feed feed = { feed_add, f };
	struct site_host *hosts;
	struct site_stats st;
	struct site_in in;
	uint64_t t0 = now_ns();
	size_t nh = 0;
	int rc;

	if (cmd_history_feed(&f->all, &a->dbs, args, nargs, &feed))
		return -1;
	history_finish(&f->all);
	hosts = xcalloc(f->nr_hosts + 1, sizeof(*hosts));
	for (size_t i = 0; i < f->nr_hosts; i++) {
		history_finish(&f->hosts[i]);
		/* A host of failed runs only has no point to show. */
		if (f->hosts[i].nr_runs)
			hosts[nh++] = (struct site_host){ f->host_names[i],
							  &f->hosts[i] };
	}
	qsort(f->runs, f->nr_runs, sizeof(*f->runs), cmp_run);
	in = (struct site_in){ &f->all, hosts, nh, f->runs, f->nr_runs };
	rc = site_write(a->dir, &in, &st);
	chart_cleanup();
	free(hosts);
	if (rc)
		return -1;
	printf("%zu page%s written, %zu unchanged", st.written,
	       st.written == 1 ? "" : "s", st.unchanged);
	if (st.removed)
		printf(", %zu removed", st.removed);
	printf(" (%zu series, %zu runs, %zu bytes in %.2f s) in %s\n",
	       f->all.nr_series, f->all.nr_runs, st.bytes,
	       (double)(now_ns() - t0) / 1e9, a->dir);
	return 0;
}

int cmd_site(int argc, char **argv)
{
	struct site_args a = { .alpha = CP_ALPHA, .min_step = CP_MIN_STEP_PCT,
			       .min_seg = CP_MIN_SEG };
	struct site_feed f = { 0 };
	int first, rc;

	first = cmdopt_parse(&cmd_site_opts, argc, argv, &a);
	if (first < 0)
		return cmdopt_exit(first);
	if (!a.dir || !*a.dir)
		return cmdopt_usage_error(&cmd_site_opts, "-o DIR is required");
	if (!(a.alpha > 0 && a.alpha < 1))
		return cmdopt_usage_error(&cmd_site_opts, "--alpha wants a "
					  "level between 0 and 1");
	f.o.workload = a.workload;
	f.o.metric = a.metric;
	f.o.target = a.target;
	f.o.by = HIST_BY_RUN;
	cp_opts_init(&f.o.cp);
	f.o.cp.alpha = a.alpha;
	f.o.cp.min_step_pct = a.min_step;
	f.o.cp.min_seg = (size_t)a.min_seg;
	f.o.cp.log = true;
	f.o.nr_dbs = a.dbs.n ? a.dbs.n : 1;
	history_init(&f.all, &f.o);
	rc = build(&f, &a, argv + first, (size_t)(argc - first)) ?
	     EXIT_RUNTIME : EXIT_OK;
	history_release(&f.all);
	for (size_t i = 0; i < f.nr_hosts; i++) {
		history_release(&f.hosts[i]);
		free(f.host_names[i]);
	}
	free(f.hosts);
	free(f.host_names);
	free(f.runs);
	return rc;
}
