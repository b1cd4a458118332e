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

#include "phase.h"

struct store;
struct run_config;

struct runner {
	const struct run_config *cfg;
	struct store *st;       /* NULL when not storing */
	struct run_rec *run;
	struct target *target;  /* the target being used */
	const struct phase_hook *hooks; /* cfg's, run around every phase */
	size_t nr_hooks;
	size_t nr_facts_stored; /* run->facts already in the store */
	bool cache_dropped;     /* caches dropped since the last phase began */
};

/* Store the facts of the run not stored yet; 0 or -1 (message printed). */
int runner_store_facts(struct runner *rn);

/*
 * All ranks learn whether any failed; rank 0 names the first one that
 * did.  True when all are fine.  Collective.
 */
bool all_ranks_ok(bool ok, const char *what);

#endif
