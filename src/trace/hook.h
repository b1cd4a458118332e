/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hook.h - the block-tracing phase hook of `fslab run --trace`.
 */
#ifndef FSLAB_TRACE_HOOK_H
#define FSLAB_TRACE_HOOK_H

#include "phase/phase.h"

struct disk_profile;

/*
 * The phase hook that traces the target's device during the named
 * phases (comma-separated; NULL or "" = all) and stores the figures as
 * trace.* metrics, and, with a disk profile (kept, not copied), the
 * modelled disk time as disk.* metrics.  Give it to
 * run_config_add_hook(); one per process.
 */
const struct phase_hook *trace_phase_hook(const char *phases,
					  const struct disk_profile *disk);

#endif
