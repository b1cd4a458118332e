/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure.h - what the core measures around every phase, for every
 * workload alike: wall time, fslab's own CPU, the machine's CPU busy %
 * (flusher and journal threads do much of a filesystem's work outside
 * our process), and the device's I/O counters.
 *
 * A snapshot costs a handful of small reads of /proc and /sys, so it is
 * taken at phase boundaries only, never per operation.
 */
#ifndef FSLAB_MEASURE_H
#define FSLAB_MEASURE_H

#include "measure/result.h"

struct measure_snap {
	uint64_t mono_ns, real_ns;
	uint64_t user_ns, sys_ns;
	uint64_t cpu_busy, cpu_total; /* jiffies from /proc/stat "cpu" */
	bool have_cpu;
	bool have_dev;
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors;
};

/* Take a snapshot; devname is a /sys/block entry ("loop3") or NULL. */
void measure_snap(struct measure_snap *s, const char *devname);
/* Fill m with the difference end - begin. */
void measure_diff(const struct measure_snap *begin,
		  const struct measure_snap *end, struct measure *m);

/* Parse the "cpu " line of /proc/stat text; 0 or -1. (unit-tested) */
int measure_parse_procstat(const char *text, uint64_t *busy, uint64_t *total);
/* Parse /sys/block/X/stat text; 0 or -1. (unit-tested) */
int measure_parse_blkstat(const char *text, uint64_t *rd_ios,
			  uint64_t *rd_sectors, uint64_t *wr_ios,
			  uint64_t *wr_sectors);

/*
 * Add the derived figures every phase gets: wall_s, user_s, sys_s,
 * sys_cpu_pct, and when work was reported MiB/s (2^20), files/s, ops/s
 * (over the workers' span, first start to last end, when the phase has
 * worker rows);
 * device figures when known.  Rates are omitted (and too_short set) when
 * the phase was shorter than measure_min_ns().
 */
void measure_derive(struct phase_rec *p);

#endif
