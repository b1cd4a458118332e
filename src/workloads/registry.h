/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.h - the explicit, name-sorted table of workloads. */
#ifndef FSLAB_REGISTRY_H
#define FSLAB_REGISTRY_H

#include "phase/workload.h"

extern const struct workload wl_bonnie;
extern const struct workload wl_compilebench;
extern const struct workload wl_distribute;
extern const struct workload wl_exec;
extern const struct workload wl_ffsb;
extern const struct workload wl_fio;
extern const struct workload wl_frag;
extern const struct workload wl_fsck;
extern const struct workload wl_metadata;
extern const struct workload wl_tree;

/* NULL-terminated, sorted by name. */
extern const struct workload *const workloads[];

/* The workload called name, or NULL. */
const struct workload *wl_find(const char *name);
/* Closest registered name for "did you mean", or NULL. */
const char *wl_suggest(const char *name);

/*
 * Every workload run's stored options of r in today's canonical form
 * (opt_canonical): yes/no booleans, hyphenated keys, "run" for a seed
 * that is the run's, options added since at their defaults; so runs
 * stored under older spellings show and compare as today's.  A workload
 * fslab no longer knows, or options that no longer parse, stay as they
 * are.  For what reads runs to show or compare them, never to export.
 */
struct run_rec;
void wl_canonical_options(struct run_rec *r);

/*
 * Which workloads --verify checks, ignores and refuses (and why), from
 * their flags, as a paragraph (blank line first) for a --help text.
 */
void wl_print_verify_support(FILE *out);

#endif
