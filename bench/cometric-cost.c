// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cometric-cost.c - what the co-metrics cost a phase: N times the two
 * snapshots, the difference and the metric rows one phase gets, timed
 * in CPU time (the machine may be busy), for one device and filesystem.
 *
 *   cometric-cost DEVNAME FSTYPE UUID LEVEL [N]
 *
 * Prints microseconds of CPU per phase and the number of co-metrics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cometric.h"
#include "result.h"

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct cometric_src src = { 0 };
	int n = argc > 5 ? atoi(argv[5]) : 2000, level;
	size_t rows = 0;
	double t0, t1;

	if (argc < 5 || (level = cometric_level_parse(argv[4])) < 0) {
		fprintf(stderr, "usage: cometric-cost DEVNAME FSTYPE UUID "
			"none|basic|all [N]\n");
		return 2;
	}
	src.level = (enum cometric_level)level;
	src.devname = argv[1];
	src.fstype = argv[2];
	src.uuid = argv[3];
	t0 = cpu_s();
	for (int i = 0; i < n; i++) {
		struct cometric_snap b, e;
		struct co_set vals = { 0 };
		struct phase_rec p = { 0 };

		cometric_snap(&b, &src);
		cometric_snap(&e, &src);
		cometric_diff(&b, &e, &vals);
		cometric_record(&vals, &p);
		rows = p.nr_metrics;
		phase_rec_release(&p);
		co_set_release(&vals);
		cometric_snap_release(&b);
		cometric_snap_release(&e);
	}
	t1 = cpu_s();
	printf("%s on %s, %s: %.1f us of CPU per phase, %zu co-metrics\n",
	       argv[2], argv[1], argv[4], (t1 - t0) / n * 1e6, rows);
	return 0;
}
