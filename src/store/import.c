/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * import.c - inserting a whole run that was measured elsewhere.
 */
#include "store/internal.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/suggest.h"

static int import_run_row(struct store *st, struct run_rec *r)
{
	sqlite3_stmt *s = stmt_get(st, S_RUN_IMPORT);
	int rc = 0;

	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, r->started);
	if (r->finished)
		rc |= sqlite3_bind_int64(s, 2, r->finished);
	rc |= bind_text(s, 3, r->host);
	rc |= bind_text(s, 4, r->kernel);
	rc |= bind_text(s, 5, r->version);
	rc |= bind_text(s, 6, r->cmdline);
	rc |= bind_u64(s, 7, r->seed);
	rc |= bind_text(s, 8, r->tag);
	rc |= bind_text(s, 9, r->status ? r->status : "incomplete");
	rc |= bind_text(s, 10, r->target_order);
	rc |= bind_text(s, 11, r->uuid);
	rc |= bind_text(s, 12, r->source_host);
	if (rc != SQLITE_OK)
		return db_error(st, "bind the run");
	if (step_done(st, s, "insert the run"))
		return -1;
	r->id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

static int import_wlrun_row(struct store *st, int64_t run_id,
			    struct wlrun_rec *w)
{
	sqlite3_stmt *s = stmt_get(st, S_WLRUN_IMPORT);
	int rc = 0;

	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, run_id);
	if (w->target_id)
		rc |= sqlite3_bind_int64(s, 2, w->target_id);
	rc |= bind_text(s, 3, w->workload);
	rc |= bind_text(s, 4, w->options);
	rc |= sqlite3_bind_int(s, 5, w->rep);
	rc |= bind_text(s, 6, w->status ? w->status : "incomplete");
	if (w->pos >= 0)
		rc |= sqlite3_bind_int(s, 7, w->pos);
	if (rc != SQLITE_OK)
		return db_error(st, "bind the workload run");
	if (step_done(st, s, "insert the workload run"))
		return -1;
	w->id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int store_run_import(struct store *st, struct run_rec *r)
{
	/* One transaction for the whole run, unless inside the caller's. */
	bool own = !st->outer_tx;

	if (!r->uuid || !*r->uuid)
		return error("an imported run needs its id");
	if (own && store_tx_begin(st))
		return -1;
	if (import_run_row(st, r))
		goto fail;
	for (size_t i = 0; i < r->nr_targets; i++)
		if (store_target_add(st, r->id, &r->targets[i]))
			goto fail;
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		struct wlrun_rec *w = &r->wlruns[i];

		w->target_id = w->target_idx >= 0 &&
			       (size_t)w->target_idx < r->nr_targets ?
			       r->targets[w->target_idx].id : 0;
		if (import_wlrun_row(st, r->id, w))
			goto fail;
		for (size_t k = 0; k < w->nr_phases; k++)
			if (store_phase_add(st, w->id, &w->phases[k]))
				goto fail;
		for (size_t k = 0; k < w->nr_texts; k++)
			if (store_wlrun_text_add(st, w->id, w->texts[k].name,
						 w->texts[k].content))
				goto fail;
	}
	if (r->nr_facts && store_facts_add(st, r->id, r->facts, r->nr_facts))
		goto fail;
	if (r->until_rule && store_decisions_save(st, r))
		goto fail;
	return own ? store_tx_commit(st) : 0;
fail:
	if (own)
		store_tx_rollback(st);
	return -1;
}
