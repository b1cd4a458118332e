// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cometric-cost.c - what the co-metrics cost a phase, in CPU time of
 * this thread (the machine may be busy), for one device and filesystem:
 *
 *  - N times the two snapshots, the difference and the metric rows one
 *    phase gets, read through one reader kept for all N phases as in a
 *    run (its files opened once); --fresh gives every snapshot a reader
 *    of its own (files opened and closed each time, as outside a run);
 *  - with --store DB, also what storing those rows costs: N phases
 *    stored with the co-metric rows and N without, in a fresh store at
 *    DB (each phase its own transaction, as the run writer does).
 *
 *   cometric-cost [--fresh] [--store DB] DEVNAME FSTYPE UUID LEVEL [N]
 *
 * Prints microseconds of CPU per phase (two boundaries) and the number
 * of co-metrics recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cometric/cometric.h"
#include "measure/result.h"
#include "store/store.h"
#include "util/util.h"

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A phase like a run stores: measure.c's dozen figures, then vals'. */
static void fill_phase(struct phase_rec *p, const struct co_set *vals)
{
	static const char *const base[][2] = {
		{ "wall_s", "s" }, { "user_s", "s" }, { "sys_s", "s" },
		{ "sys_cpu_pct", "%" }, { "MiB/s", "MiB/s" },
		{ "files/s", "files/s" }, { "ops/s", "ops/s" },
		{ "dev_read_MiB", "MiB" }, { "dev_write_MiB", "MiB" },
		{ "sched.runq_wait_s", "s" },
	};

	p->name = xstrdup("phase");
	p->status = PHASE_OK;
	for (size_t i = 0; i < ARRAY_SIZE(base); i++)
		phase_rec_add_metric(p, base[i][0], 1.5, base[i][1],
				     BETTER_NONE);
	if (vals)
		cometric_record(vals, p);
}

/* CPU seconds to store n phases, with vals' rows or without. */
static double store_cost(struct store *st, int64_t wlrun_id, int n,
			 const struct co_set *vals)
{
	double t0 = cpu_s();

	for (int i = 0; i < n; i++) {
		struct phase_rec p = { 0 };

		fill_phase(&p, vals);
		if (store_phase_add(st, wlrun_id, &p))
			die("cannot store a phase");
		phase_rec_release(&p);
	}
	return cpu_s() - t0;
}

static void bench_store(const char *db, int n, const struct co_set *vals)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct wlrun_rec *w;
	struct store *st;
	double with, without;

	if (store_open(db, &st))
		die("cannot open the store '%s'", db);
	r->host = xstrdup("bench");
	r->kernel = xstrdup("bench");
	r->version = xstrdup("bench");
	r->cmdline = xstrdup("cometric-cost");
	r->status = xstrdup("running");
	if (store_run_begin(st, r))
		die("cannot store a run");
	w = run_rec_new_wlrun(r);
	w->workload = xstrdup("bench");
	w->status = xstrdup("running");
	if (store_wlrun_begin(st, r->id, w))
		die("cannot store a workload run");
	/* Alternated halves, so a change of load falls on both. */
	with = store_cost(st, w->id, n / 2, vals);
	without = store_cost(st, w->id, n / 2, NULL);
	with += store_cost(st, w->id, n - n / 2, vals);
	without += store_cost(st, w->id, n - n / 2, NULL);
	printf("  storing a phase: %.1f us of CPU with its %zu co-metric "
	       "rows, %.1f us without: %.1f us for the co-metrics\n",
	       with / n * 1e6, vals->n, without / n * 1e6,
	       (with - without) / n * 1e6);
	store_close(st);
	run_rec_free(r);
}

int main(int argc, char **argv)
{
	struct cometric_src src = { 0 };
	struct cometric_reader *r;
	const char *db = NULL;
	bool fresh = false;
	struct co_set last = { 0 };
	size_t rows = 0;
	int n, level, a = 1;
	double t0, t1;

	for (; a < argc && !strncmp(argv[a], "--", 2); a++)
		if (!strcmp(argv[a], "--fresh"))
			fresh = true;
		else if (!strcmp(argv[a], "--store") && a + 1 < argc)
			db = argv[++a];
		else
			break;
	n = argc > a + 4 ? atoi(argv[a + 4]) : 2000;
	if (argc < a + 4 || (level = cometric_level_parse(argv[a + 3])) < 0 ||
	    n < 2) {
		fprintf(stderr, "usage: cometric-cost [--fresh] [--store DB] "
			"DEVNAME FSTYPE UUID none|basic|all [N]\n");
		return 2;
	}
	src.level = (enum cometric_level)level;
	src.devname = argv[a];
	src.fstype = argv[a + 1];
	src.uuid = argv[a + 2];
	t0 = cpu_s();
	r = fresh ? NULL : cometric_reader_new();
	for (int i = 0; i < n; i++) {
		struct cometric_snap b, e;
		struct co_set vals = { 0 };
		struct phase_rec p = { 0 };

		cometric_snap(&b, &src, r);
		cometric_snap(&e, &src, r);
		cometric_diff(&b, &e, &vals);
		cometric_record(&vals, &p);
		rows = p.nr_metrics;
		last = vals;
		phase_rec_release(&p);
		cometric_snap_release(&b);
		cometric_snap_release(&e);
	}
	cometric_reader_free(r);
	t1 = cpu_s();
	printf("%s on %s, %s%s: %.1f us of CPU per phase, %zu co-metrics\n",
	       src.fstype, src.devname, argv[a + 3],
	       fresh ? " (fresh files)" : "", (t1 - t0) / n * 1e6, rows);
	if (db)
		bench_store(db, n, &last);
	return 0;
}
