/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store.h - the results database.  This module is the only one that
 * includes <sqlite3.h>.
 *
 * Default location: $XDG_DATA_HOME/fslab/results.db, else
 * ~/.local/share/fslab/results.db; --db overrides.  The schema is
 * versioned (PRAGMA user_version), the journal is WAL, and a busy timeout
 * lets two fslab processes write the same database at once.  Every
 * finished phase is committed in its own transaction, so an interrupted
 * run keeps what it measured; a run row left "running" by a dead process
 * reads back as "incomplete".
 *
 * All functions print their own error message (with the SQLite reason)
 * and return -1 on failure, 0 on success.
 */
#ifndef FSLAB_STORE_H
#define FSLAB_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"
#include "util/util.h"

struct store;

/* The default path (newly allocated). */
char *store_default_path(void);

/* Open (creating the file, its directory and the schema as needed). */
int store_open(const char *path, struct store **out) MUST_CHECK;
void store_close(struct store *st);
/*
 * For commands that only read: db (NULL = the default path) must already
 * exist ("no results database at '%s'" otherwise) and be an fslab
 * database; it is opened SQLITE_OPEN_READONLY: nothing is created,
 * migrated or switched to WAL, so a read-only file or a foreign SQLite
 * file is left exactly as it was.
 */
int store_open_existing(const char *db, struct store **out) MUST_CHECK;
/* The file st was opened from (owned by st). */
const char *store_path(const struct store *st);

/* Insert the run row from r (status "running"); sets r->id.  The row also
 * records the writing process's pid, so readers can tell a dead run. */
int store_run_begin(struct store *st, struct run_rec *r) MUST_CHECK;
/* Set status and finished time. */
int store_run_finish(struct store *st, int64_t run_id, const char *status);
/* Insert a target row for run_id; sets t->id. */
int store_target_add(struct store *st, int64_t run_id, struct target_rec *t)
	MUST_CHECK;
/* Insert a workload-run row (status "running"); sets w->id. */
int store_wlrun_begin(struct store *st, int64_t run_id, struct wlrun_rec *w)
	MUST_CHECK;
int store_wlrun_finish(struct store *st, int64_t wlrun_id,
		       const char *status);
/* Insert a finished phase with its metrics and worker rows, in one
 * transaction; sets p->id. */
int store_phase_add(struct store *st, int64_t wlrun_id, struct phase_rec *p)
	MUST_CHECK;

/* Keep a named text with a workload run (a job file, a tool's output). */
int store_wlrun_text_add(struct store *st, int64_t wlrun_id,
			 const char *name, const char *content) MUST_CHECK;

/* Load one whole run (targets, wlruns, phases, metrics, workers). */
int store_load_run(struct store *st, int64_t run_id, struct run_rec **out)
	MUST_CHECK;
/* Newest first; each element is a run_rec with targets and wlruns filled
 * but no phases.  *nr set.  Free each with run_rec_free and the array. */
int store_list_runs(struct store *st, struct run_rec ***out, size_t *nr)
	MUST_CHECK;
/* Id of the newest run, or of the newest run with that tag; 0 if none. */
int store_latest_run(struct store *st, const char *tag, int64_t *id)
	MUST_CHECK;
/*
 * RUN as given on a command line: NULL or "latest" = the newest run, all
 * digits = an id, anything else = the newest run with that tag.  Sets *id,
 * or prints "no run 'X' in 'DB'" and returns -1.  An id is not checked
 * for existence here; store_load_run says so.
 */
int store_resolve_run(struct store *st, const char *arg, int64_t *id)
	MUST_CHECK;
/*
 * Every finished (not running) run with that tag, oldest first: a tag
 * that names several runs gives compare all of them as repetitions.
 * Free *ids.
 */
int store_tag_runs(struct store *st, const char *tag, int64_t **ids,
		   size_t *nr) MUST_CHECK;
/* Delete a run and everything under it. */
int store_delete_run(struct store *st, int64_t run_id) MUST_CHECK;

#endif
