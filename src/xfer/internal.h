/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the files of src/xfer/ share.
 */
#ifndef FSLAB_XFER_INTERNAL_H
#define FSLAB_XFER_INTERNAL_H

#include <jansson.h>

#include "xfer/xfer.h"

/* The canonical form: what the checksum covers and conflicts compare. */
#define XFER_CANONICAL (JSON_COMPACT | JSON_SORT_KEYS)

/* A run as JSON; with_source: include its source host. */
json_t *xfer_run_json(const struct run_rec *r, bool with_source);
/* A run from JSON (ids 0); NULL with *why naming the bad field. */
struct run_rec *xfer_run_read(const json_t *o, const char **why);

#endif
