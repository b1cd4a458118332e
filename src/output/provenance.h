/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * provenance.h - what was measured, where and how, in every output a
 * user pastes: kernel, host, date, fslab version, the command line
 * (shell-quoted, pastes back), per target its device, size, mkfs command
 * and version and effective mount options, per workload its options,
 * and the seed.
 */
#ifndef FSLAB_PROVENANCE_H
#define FSLAB_PROVENANCE_H

#include <stdbool.h>
#include <stdio.h>

#include "measure/result.h"

/* The block of text lines (run/show header, report header). */
void provenance_text(FILE *out, const struct run_rec *r);
/* The mkfs command that made t, shell-quoted, as its run stored it; NULL
 * when fslab formatted nothing (dir:) or an older run did not record
 * it.  Allocated. */
char *provenance_mkfs_command(const struct target_rec *t);
/* "2026-12-03 08:20:39 UTC" into buf; "-" for 0. */
char *provenance_date(char *buf, size_t len, int64_t t);

/*
 * Which records the provenance names (every format the same): a target
 * once, not per repetition (the first record of its command-line index);
 * a workload once per option set (the first with its name and options).
 */
bool provenance_first_target(const struct run_rec *r, size_t i);
bool provenance_first_workload(const struct run_rec *r, size_t i);

#endif
