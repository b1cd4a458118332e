/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * writer.c - the run writer (see writer.h): the in-memory run and its
 * stored rows, kept in step by one set of calls.
 */
#include "store/writer.h"

#include <stdlib.h>
#include <string.h>

#include "store/store.h"

/* The steps below are shared by the live writer and writer_write_run(),
 * so an imported run is stored exactly as a measured one. */

static int put_wlrun(struct store *st, struct run_rec *r,
		     struct wlrun_rec *wr)
{
	if (wr->target_idx >= 0 && (size_t)wr->target_idx < r->nr_targets)
		wr->target_id = r->targets[wr->target_idx].id;
	return st ? store_wlrun_begin(st, r->id, wr) : 0;
}

static int put_finish(struct store *st, struct run_rec *r)
{
	if (!r->finished)
		r->finished = (int64_t)(realtime_ns() / 1000000000ULL);
	return st ? store_run_finish(st, r->id, r->status, r->finished) : 0;
}

int writer_begin(struct run_writer *w, const char *db, struct run_rec *run)
{
	memset(w, 0, sizeof(*w));
	w->run = run;
	if (!db)
		return 0;
	if (store_open(db, &w->st) < 0)
		return -1;
	return store_run_begin(w->st, run);
}

int writer_target(struct run_writer *w, struct target_rec *t,
		  struct target_rec **out)
{
	struct target_rec *rec = run_rec_new_target(w->run);

	*rec = *t;
	memset(t, 0, sizeof(*t));
	if (out)
		*out = rec;
	return w->st ? store_target_add(w->st, w->run->id, rec) : 0;
}

int writer_wlrun_begin(struct run_writer *w, struct wlrun_rec *wr,
		       struct wlrun_rec **out)
{
	struct wlrun_rec *rec = run_rec_new_wlrun(w->run);

	*rec = *wr;
	memset(wr, 0, sizeof(*wr));
	free(rec->status);
	rec->status = xstrdup("running");
	if (out)
		*out = rec;
	return put_wlrun(w->st, w->run, rec);
}

int writer_wlrun_finish(struct run_writer *w, struct wlrun_rec *wr,
			const char *status)
{
	free(wr->status);
	wr->status = xstrdup(status);
	return w->st && wr->id ? store_wlrun_finish(w->st, wr->id, status)
			       : 0;
}

int writer_phase(struct run_writer *w, struct wlrun_rec *wr,
		 struct phase_rec *p, struct phase_rec **out)
{
	struct phase_rec *rec = wlrun_rec_new_phase(wr);
	int seq = rec->seq;

	*rec = *p;
	rec->seq = seq;
	memset(p, 0, sizeof(*p));
	if (out)
		*out = rec;
	return w && w->st ? store_phase_add(w->st, wr->id, rec) : 0;
}

int writer_facts(struct run_writer *w)
{
	size_t n = w->run->nr_facts;

	if (!w->st || !w->run->id || w->nr_facts_stored >= n)
		return 0;
	if (store_facts_add(w->st, w->run->id,
			    w->run->facts + w->nr_facts_stored,
			    n - w->nr_facts_stored) < 0)
		return -1;
	w->nr_facts_stored = n;
	return 0;
}

int writer_text(struct run_writer *w, struct wlrun_rec *wr, const char *name,
		const char *content)
{
	wlrun_rec_add_text(wr, name, content);
	return w && w->st && wr->id ?
	       store_wlrun_text_add(w->st, wr->id, name, content) : 0;
}

int writer_decisions(struct run_writer *w)
{
	return w->st && w->run->id ? store_decisions_save(w->st, w->run) : 0;
}

int writer_finish(struct run_writer *w, const char *status)
{
	free(w->run->status);
	w->run->status = xstrdup(status);
	return w->run->id || !w->st ? put_finish(w->st, w->run) : 0;
}

int writer_discard(struct run_writer *w, const char *status)
{
	free(w->run->status);
	w->run->status = xstrdup(status);
	if (!w->run->finished)
		w->run->finished = (int64_t)(realtime_ns() / 1000000000ULL);
	return w->st && w->run->id ? store_delete_run(w->st, w->run->id) : 0;
}

void writer_close(struct run_writer *w)
{
	store_close(w->st);
	run_rec_free(w->run);
	memset(w, 0, sizeof(*w));
}

int writer_write_run(struct store *st, struct run_rec *r)
{
	/* A run keeps its global id wherever it goes: importing it twice,
	 * or back, finds it (store_run_by_uuid). */
	if (!r->uuid)
		r->uuid = run_uuid_new();
	return store_run_import(st, r);
}
