/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskphase.h - the disk model applied to traced phases: from a phase's
 * stored request sample to its disk.* metrics, and their text table.
 * Pure functions of the record and the profile, so `fslab show
 * --disk-model=...` re-applies another profile to an old run and gets
 * what `run --trace --disk-model=...` would have stored.
 */
#ifndef FSLAB_DISK_DISKPHASE_H
#define FSLAB_DISK_DISKPHASE_H

#include <stdbool.h>
#include <stdio.h>

#include "disk/diskmodel.h"
#include "measure/result.h"

/*
 * Model a request sample (trace_sample(): data requests in issue order,
 * nr of total).  Returns the factor the figures in *res stand for when
 * the sample was thinned (total / nr), else 1.
 */
double disk_model_sample(const struct disk_profile *p,
			 const struct rq_sample *rqs, size_t nr,
			 uint64_t total, struct disk_result *res);

/*
 * Model rec's request sample on p and (re)place its disk.* metrics:
 * disk.time_s, disk.seek_s, disk.rotation_s, disk.transfer_s,
 * disk.seek_share (seek + rotation over the total), disk.transfer_share
 * (the rest is command overhead), disk.MiB/s and
 * disk.files/s (the phase's work over the modelled time), disk.requests,
 * disk.positionings, disk.buffer_hits, and disk.sample_scale when the
 * sample was thinned (the figures are then scaled up by it).  No-op for
 * an untraced phase; a traced phase without data requests gets none.
 */
void disk_phase_apply(const struct disk_profile *p, struct phase_rec *rec);

/* disk_phase_apply() on every phase of a run. */
void disk_run_apply(const struct disk_profile *p, struct run_rec *r);

/*
 * The "modelled disk" table of a workload run's traced phases: measured
 * wall time and rates next to the modelled ones.  profile names the
 * profile when it was re-applied, NULL for the figures stored with the
 * run.  Prints nothing without traced phases.
 */
void disk_print_phases(FILE *out, const struct wlrun_rec *w,
		       const char *profile);

#endif
