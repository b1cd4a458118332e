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
 * Runs are written through store/writer.h, which calls the writing
 * functions below in order; only it (and the store's own unit test)
 * calls them.
 *
 * All functions print their own error message (with the SQLite reason)
 * and return -1 on failure, 0 on success.
 */
#ifndef FSLAB_STORE_H
#define FSLAB_STORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/result.h"
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
/* The same file, read-write (migrated, WAL): `results --rm`. */
int store_open_existing_rw(const char *db, struct store **out) MUST_CHECK;
/* The file st was opened from (owned by st). */
const char *store_path(const struct store *st);

/* Insert the run row from r (status "running"); sets r->id.  The row also
 * records the writing process's pid, so readers can tell a dead run. */
int store_run_begin(struct store *st, struct run_rec *r) MUST_CHECK;
/* Set status and finished time (unix s; 0: now). */
int store_run_finish(struct store *st, int64_t run_id, const char *status,
		     int64_t finished);
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

/* Insert facts (struct fact) of run_id, in one transaction. */
int store_facts_add(struct store *st, int64_t run_id, const struct fact *f,
		    size_t nr) MUST_CHECK;
/*
 * Write r's --until decided state (until_rule, decision, decision_reps
 * and every decision record), replacing what the run had, in one
 * transaction: after an interrupt the last complete look stands.
 */
int store_decisions_save(struct store *st, const struct run_rec *r)
	MUST_CHECK;
/* Keep a named text with a workload run (a job file, a tool's output). */
int store_wlrun_text_add(struct store *st, int64_t wlrun_id,
			 const char *name, const char *content) MUST_CHECK;

/* Load one whole run (targets, wlruns, phases, metrics, workers). */
int store_load_run(struct store *st, int64_t run_id, struct run_rec **out)
	MUST_CHECK;
/* The same without workers and trace samples: for figures only. */
int store_load_run_metrics(struct store *st, int64_t run_id,
			   struct run_rec **out) MUST_CHECK;
/*
 * The latency histogram of op ("" or NULL: the one without a prefix)
 * merged exactly over the phases phase_ids[0..n) (repetitions of one
 * phase, say): every bucket, count, sum, min and max.  *found is how
 * many of them had one.  A histogram of another bucket scheme is
 * refused (-1 with a message), never misread.
 */
struct lathist;
int store_hist_merge(struct store *st, const int64_t *phase_ids, size_t n,
		     const char *op, struct lathist *out, size_t *found)
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
/*
 * Selectors (see doc/history.md): "KEY=VALUE[,KEY=VALUE...]" with keys
 * kernel=GLOB, host=GLOB, version=GLOB, tag=GLOB (fnmatch), since=DATE,
 * until=DATE (YYYY-MM-DD[THH:MM[:SS]] local time, or @UNIXTIME; both
 * inclusive, a bare until= date to the end of that day); every key must
 * match.  store_is_selector() says whether an argument is one (it starts
 * with a known KEY=).  store_select_runs() gives every finished run that
 * matches, oldest first (none is not an error); store_resolve_run()
 * resolves a selector to the newest.
 */
bool store_is_selector(const char *arg);
int store_select_runs(struct store *st, const char *selector, int64_t **ids,
		      size_t *nr) MUST_CHECK;

/*
 * Many writes as one transaction (an import): the store functions'
 * own transactions join it.  On any failure call store_tx_rollback().
 */
int store_tx_begin(struct store *st) MUST_CHECK;
int store_tx_commit(struct store *st) MUST_CHECK;
void store_tx_rollback(struct store *st);
/* Is there a run with that (local) id?  Quiet when there is not. */
int store_run_exists(struct store *st, int64_t id, bool *exists) MUST_CHECK;
/* The id of the run with that global id, 0 when there is none. */
int store_run_by_uuid(struct store *st, const char *uuid, int64_t *id)
	MUST_CHECK;
/*
 * Insert a whole finished run from elsewhere (r->uuid set, status as
 * recorded there, no pid): run row, targets, workload runs, phases with
 * metrics, workers and trace samples.  Sets the ids in r.
 */
int store_run_import(struct store *st, struct run_rec *r) MUST_CHECK;

/*
 * A read transaction around many reads: one snapshot (no run vanishes
 * half-way) and one lock instead of one per statement.
 */
int store_snapshot_begin(struct store *st) MUST_CHECK;
void store_snapshot_end(struct store *st);

/* "; did you mean 'x'?" for a run id or tag of st close to arg, or ""
 * (into buf, which it returns). */
const char *store_did_you_mean(struct store *st, const char *arg,
			       char *buf, size_t len);
/* Delete a run and everything under it. */
int store_delete_run(struct store *st, int64_t run_id) MUST_CHECK;

#endif
