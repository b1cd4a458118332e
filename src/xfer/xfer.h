/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xfer.h - portable results: runs written to and read from a versioned,
 * self-describing JSON file (optionally compressed), so results move
 * between machines and stores.  The format is described in
 * doc/history.md; each run is whole (provenance, targets, workload runs
 * with their options and order, every phase with its metrics, latency
 * histograms, workers
 * and trace sample) and carries its global id, so an import adds only
 * what the store lacks.
 */
#ifndef FSLAB_XFER_H
#define FSLAB_XFER_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/result.h"

struct store;

/* The format this fslab writes; files with a larger one are refused. */
#define XFER_FORMAT_VERSION 1

/*
 * Write runs[0..n) to path (compressed by gzip, xz or zstd when the name
 * ends in .gz, .xz or .zst).  Every run needs its uuid.  0, or -1 with a
 * message.
 */
int xfer_export(const char *path, struct run_rec *const *runs, size_t n);

struct xfer_stats {
	size_t added, present;
};

/*
 * Read every file of paths[0..n) whole, check each (format, version,
 * checksum) and add their runs to st in ONE transaction: a run whose id
 * is already there with the same content is skipped, one with different
 * content refuses the whole import, as does any unreadable, truncated,
 * tampered or newer file.  0, or -1 with a message and nothing added.
 */
int xfer_import(struct store *st, const char *const *paths, size_t n,
		struct xfer_stats *stats);

/* For tests: the canonical JSON of one run, without its source host. */
char *xfer_run_canonical(const struct run_rec *r);

#endif
