// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cometric-cost.c - what the co-metrics cost a phase: N times the two
 * snapshots, the difference and the metric rows one phase gets, timed
 * in CPU time of this thread (the machine may be busy), for one device
 * and filesystem.
 *
 *   cometric-cost DEVNAME FSTYPE UUID LEVEL [N [fresh]]
 *
 * The snapshots read through one reader kept for all N phases, as in a
 * run (its files opened once); "fresh" gives every snapshot a reader of
 * its own instead (files opened and closed each time, as outside a
 * run).  Prints microseconds of CPU per phase (two boundaries) and the
 * number of co-metrics recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cometric.h"
#include "result.h"

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct cometric_src src = { 0 };
	int n = argc > 5 ? atoi(argv[5]) : 2000, level;
	bool fresh = argc > 6 && !strcmp(argv[6], "fresh");
	struct cometric_reader *r;
	size_t rows = 0;
	double t0, t1;

	if (argc < 5 || (level = cometric_level_parse(argv[4])) < 0 ||
	    n < 1) {
		fprintf(stderr, "usage: cometric-cost DEVNAME FSTYPE UUID "
			"none|basic|all [N [fresh]]\n");
		return 2;
	}
	src.level = (enum cometric_level)level;
	src.devname = argv[1];
	src.fstype = argv[2];
	src.uuid = argv[3];
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
		phase_rec_release(&p);
		co_set_release(&vals);
		cometric_snap_release(&b);
		cometric_snap_release(&e);
	}
	cometric_reader_free(r);
	t1 = cpu_s();
	printf("%s on %s, %s%s: %.1f us of CPU per phase, %zu co-metrics\n",
	       argv[2], argv[1], argv[4], fresh ? " (fresh files)" : "",
	       (t1 - t0) / n * 1e6, rows);
	return 0;
}
