/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.h - the explicit, name-sorted table of workloads. */
#ifndef FSLAB_REGISTRY_H
#define FSLAB_REGISTRY_H

#include "workload.h"

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
 * Which workloads --verify checks, ignores and refuses (and why), from
 * their flags, as a paragraph (blank line first) for a --help text.
 */
void wl_print_verify_support(FILE *out);

#endif
