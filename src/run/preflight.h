/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preflight.h - check a run before any target is built: every target
 * spec (filesystem type known to the kernel, mkfs installed, mkfs=
 * arguments mkfs accepts, device/directory usable), every workload's
 * space and inode needs against every target, output paths, unique
 * names.  All problems are reported together, in one message, so a
 * typo in the third target does not cost the first two targets' runs.
 */
#ifndef FSLAB_PREFLIGHT_H
#define FSLAB_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run_config;

/*
 * 0 when the run may start; else EXIT_USAGE after printing every problem
 * (rank 0 only under MPI).  Creates nothing.  Without space, the
 * workloads' space and inode needs are not checked (--no-space-check:
 * filling a target on purpose).
 */
int preflight_run(const struct run_config *cfg, bool space);

/* An output file's directory must exist and be writable (no mkdir -p):
 * 0, or -1 with the reason in why.  "-" (stdout) passes. */
int preflight_output_path(const char *path, const char *what, char *why,
			  size_t len);

/* Rough usable bytes and inodes of a fresh fstype filesystem of size
 * bytes made with mkfs_args (inodes 0: dynamic/unknown).  Unit-tested. */
void preflight_fs_capacity(const char *fstype, const char *mkfs_args,
			   uint64_t size, uint64_t *bytes, uint64_t *inodes);

#endif
