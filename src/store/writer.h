/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * writer.h - the one route by which a run enters the results database.
 *
 * Everything that produces a run writes it through here, in the order
 * it happens: the runner (every phase through phase_end()), the aging
 * session (fslab age), the fragmentation survey (fslab frag), and an
 * importer, which hands over a whole run_rec at once
 * (writer_write_run).  The writer keeps the in-memory run_rec the
 * reports render and the stored rows in step: each record is appended
 * to the run and stored in one call, so no caller builds a record the
 * store never sees, or stores a record twice.  Without a store (no
 * --db, or MPI ranks other than 0) it only keeps the run in memory.
 *
 * SQL stays in the store's other files: the writer calls store_* only.
 * Every function prints its own error and returns -1 on failure.
 */
#ifndef FSLAB_STORE_WRITER_H
#define FSLAB_STORE_WRITER_H

#include "measure/result.h"
#include "util/util.h"

struct store;

struct run_writer {
	struct store *st;     /* NULL: the run lives in memory only */
	struct run_rec *run;  /* the run being written; owned */
	size_t nr_facts_stored; /* run->facts already in the store */
};

/*
 * Open db (NULL: write nothing, keep the run in memory) and insert the
 * row of run (status "running"; sets run->id).  The writer owns run from
 * here on, also on failure; release it with writer_close().
 */
int writer_begin(struct run_writer *w, const char *db, struct run_rec *run)
	MUST_CHECK;
/*
 * Append *t to the run (moved: *t is left zeroed) and store it; *out
 * (may be NULL) is the record inside the run.
 */
int writer_target(struct run_writer *w, struct target_rec *t,
		  struct target_rec **out) MUST_CHECK;
/*
 * Append a workload run (moved, status "running"; its target_id is
 * taken from run->targets[target_idx]) and store it.  *out is the record
 * inside the run, which its phases are appended to; it stays valid until
 * the next writer_wlrun_begin().
 */
int writer_wlrun_begin(struct run_writer *w, struct wlrun_rec *wr,
		       struct wlrun_rec **out) MUST_CHECK;
/* Store the run's facts (machine.h) not stored yet; 0 or -1. */
int writer_facts(struct run_writer *w) MUST_CHECK;
/* Store the run's --until decided state (its decision and every
 * comparison's, replacing the previous look's); 0 or -1. */
int writer_decisions(struct run_writer *w) MUST_CHECK;
/* Keep a named text with wr (a job file, a tool's own output), in
 * memory and, when storing, in the store; 0 or -1. */
int writer_text(struct run_writer *w, struct wlrun_rec *wr, const char *name,
		const char *content) MUST_CHECK;
/* Set wr's status ("complete", "failed", "interrupted") and store it. */
int writer_wlrun_finish(struct run_writer *w, struct wlrun_rec *wr,
			const char *status);
/*
 * Append a finished phase to wr (moved; its seq is set) and store it
 * with its metrics, workers and request sample in one transaction.  *out
 * (may be NULL) is the record inside wr, valid until the next phase of
 * wr.  w may be NULL: then the phase is only appended (unit tests of
 * the phase API).
 */
int writer_phase(struct run_writer *w, struct wlrun_rec *wr,
		 struct phase_rec *p, struct phase_rec **out) MUST_CHECK;
/* Set the run's status and finished time (now, unless set) and store
 * them. */
int writer_finish(struct run_writer *w, const char *status);
/* End the run with status in memory but delete its stored row: it was
 * refused before it measured anything. */
int writer_discard(struct run_writer *w, const char *status);
/* Close the store and free the run. */
void writer_close(struct run_writer *w);

/*
 * Write a complete run (targets, workload runs, phases, statuses; ids
 * are assigned afresh) into an open store, e.g. one read from an export
 * file.  r stays the caller's; its ids are set.
 */
int writer_write_run(struct store *st, struct run_rec *r) MUST_CHECK;

#endif
