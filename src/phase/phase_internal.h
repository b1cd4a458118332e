/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_internal.h - what the run loop (runner.c) and the phase API
 * (phase.c) share and nobody else sees: the runner's state a phase
 * commits into, and the hooks run around every phase.
 */
#ifndef FSLAB_PHASE_INTERNAL_H
#define FSLAB_PHASE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phase/phase.h"
#include "store/writer.h"

struct cometric_reader;
struct run_config;

struct runner {
	const struct run_config *cfg;
	struct run_writer w;    /* the run, in memory and (rank 0) stored */
	struct target *target;  /* the target being used */
	const struct phase_hook *hooks; /* cfg's, run around every phase */
	size_t nr_hooks;
	int co_metrics;         /* cfg's, an enum cometric_level */
	struct cometric_reader *co_reader; /* the files co-metrics read,
					    * open for the run; NULL at none */
	bool cache_dropped;     /* caches dropped since the last phase began */
	uint64_t stall_ns;      /* cfg's stall threshold; 0: the default */
};

/* Rank rank's directory under the shared workload directory (wl_rank_dir
 * and the runner's rank_dir agree on it).  Allocated. */
char *rank_dir_name(const char *shared, int rank);

/*
 * All ranks learn whether any failed; rank 0 names the first one that
 * did.  True when all are fine.  Collective.
 */
bool all_ranks_ok(bool ok, const char *what);

#endif
