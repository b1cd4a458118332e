/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * insert.c - the write path: run, target, workload-run and phase rows
 * (with metrics, workers and trace samples), facts, decisions, texts;
 * and deleting a run.
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

int store_run_begin(struct store *st, struct run_rec *r)
{
	sqlite3_stmt *s = stmt_get(st, S_RUN_INSERT);
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
	rc |= sqlite3_bind_int64(s, 9, (sqlite3_int64)getpid());
	rc |= bind_text(s, 10, r->target_order);
	if (!r->uuid)
		r->uuid = run_uuid_new();
	rc |= bind_text(s, 11, r->uuid);
	rc |= bind_text(s, 12, r->source_host);
	if (rc != SQLITE_OK)
		return db_error(st, "bind the run");
	if (step_done(st, s, "insert the run"))
		return -1;
	r->id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

/* UPDATE ... SET status = ? [, x = ?] WHERE id = ?, which must hit a row. */
static int update_status(struct store *st, enum stmt_id id, int64_t row,
			 const char *status, int64_t finished,
			 const char *what)
{
	sqlite3_stmt *s = stmt_get(st, id);
	int rc = 0, where = id == S_RUN_FINISH ? 3 : 2;

	if (!s)
		return -1;
	rc |= bind_text(s, 1, status);
	if (id == S_RUN_FINISH)
		rc |= sqlite3_bind_int64(s, 2, (sqlite3_int64)finished);
	rc |= sqlite3_bind_int64(s, where, row);
	if (rc != SQLITE_OK)
		return db_error(st, "bind a status update");
	if (step_done(st, s, what))
		return -1;
	if (!sqlite3_changes(st->db))
		return error("no %s %lld in '%s'",
			     id == S_RUN_FINISH ? "run" : "workload run",
			     (long long)row, st->path);
	return 0;
}

int store_run_finish(struct store *st, int64_t run_id, const char *status,
		     int64_t finished)
{
	return update_status(st, S_RUN_FINISH, run_id, status,
			     finished ? finished : (int64_t)time(NULL),
			     "update the run");
}

int store_wlrun_finish(struct store *st, int64_t wlrun_id, const char *status)
{
	return update_status(st, S_WLRUN_FINISH, wlrun_id, status, 0,
			     "update the workload run");
}

int store_target_add(struct store *st, int64_t run_id, struct target_rec *t)
{
	sqlite3_stmt *s = stmt_get(st, S_TARGET_INSERT);
	int rc = 0;

	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, run_id);
	rc |= sqlite3_bind_int(s, 2, t->idx);
	rc |= sqlite3_bind_int(s, 3, t->rep);
	rc |= bind_text(s, 4, t->spec);
	rc |= bind_text(s, 5, t->name);
	rc |= bind_text(s, 6, t->kind);
	rc |= bind_text(s, 7, t->fstype);
	rc |= bind_text(s, 8, t->mkfs_opts);
	rc |= bind_text(s, 9, t->mount_opts);
	rc |= bind_text(s, 10, t->eff_mount_opts);
	rc |= bind_text(s, 11, t->device);
	rc |= bind_text(s, 12, t->uuid);
	rc |= bind_text(s, 13, t->mkfs_version);
	rc |= bind_text(s, 14, t->path);
	rc |= bind_u64(s, 15, t->size);
	rc |= bind_text(s, 16, t->mkfs_cmd);
	if (rc != SQLITE_OK)
		return db_error(st, "bind the target");
	if (step_done(st, s, "insert the target"))
		return -1;
	t->id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int store_wlrun_begin(struct store *st, int64_t run_id, struct wlrun_rec *w)
{
	sqlite3_stmt *s = stmt_get(st, S_WLRUN_INSERT);
	int rc = 0;

	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, run_id);
	if (w->target_id)
		rc |= sqlite3_bind_int64(s, 2, w->target_id);
	rc |= bind_text(s, 3, w->workload);
	rc |= bind_text(s, 4, w->options);
	rc |= sqlite3_bind_int(s, 5, w->rep);
	if (w->pos >= 0)
		rc |= sqlite3_bind_int(s, 6, w->pos);
	else
		rc |= sqlite3_bind_null(s, 6);
	if (rc != SQLITE_OK)
		return db_error(st, "bind the workload run");
	if (step_done(st, s, "insert the workload run"))
		return -1;
	w->id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

static const char *phase_status_str(enum phase_status s)
{
	switch (s) {
	case PHASE_OK:
		return "ok";
	case PHASE_FAILED:
		return "failed";
	case PHASE_INTERRUPTED:
		return "interrupted";
	}
	BUG("bad phase status %d", (int)s);
}

static int insert_phase_row(struct store *st, int64_t wlrun_id,
			    const struct phase_rec *p)
{
	sqlite3_stmt *s = stmt_get(st, S_PHASE_INSERT);
	const struct measure *m = &p->m;
	int rc = 0;

	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, wlrun_id);
	rc |= sqlite3_bind_int(s, 2, p->seq);
	rc |= bind_text(s, 3, p->name);
	rc |= bind_text(s, 4, p->label);
	rc |= bind_u64(s, 5, m->start_ns);
	rc |= bind_u64(s, 6, m->wall_ns);
	rc |= bind_u64(s, 7, m->user_ns);
	rc |= bind_u64(s, 8, m->sys_ns);
	/* Unknown is negative in memory, NULL on disk. */
	rc |= bind_double(s, 9, m->sys_busy_pct < 0 ? NAN : m->sys_busy_pct);
	rc |= sqlite3_bind_int(s, 10, m->have_dev);
	rc |= bind_u64(s, 11, m->rd_ios);
	rc |= bind_u64(s, 12, m->rd_bytes);
	rc |= bind_u64(s, 13, m->wr_ios);
	rc |= bind_u64(s, 14, m->wr_bytes);
	rc |= bind_u64(s, 15, p->bytes);
	rc |= bind_u64(s, 16, p->files);
	rc |= bind_u64(s, 17, p->ops);
	rc |= sqlite3_bind_int(s, 18, p->too_short);
	rc |= bind_text(s, 19, phase_status_str(p->status));
	rc |= bind_text(s, 20, p->error);
	if (rc != SQLITE_OK)
		return db_error(st, "bind the phase");
	return step_done(st, s, "insert the phase");
}

static int insert_metric(struct store *st, int64_t phase_id,
			 const struct metric *m)
{
	sqlite3_stmt *s = stmt_get(st, S_METRIC_INSERT);
	int rc = 0;

	const char *why = metric_name_check(m->name, m->unit);

	/* every writer of runs passes here: a name off the rule is a bug */
	if (why)
		BUG("metric '%s' (unit '%s'): %s", m->name, m->unit, why);
	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, phase_id);
	rc |= bind_text(s, 2, m->name);
	rc |= bind_double(s, 3, m->value);
	rc |= bind_text(s, 4, m->unit);
	rc |= sqlite3_bind_int(s, 5, (int)m->better);
	if (rc != SQLITE_OK)
		return db_error(st, "bind a metric");
	return step_done(st, s, "insert a metric");
}

static int insert_worker(struct store *st, int64_t phase_id,
			 const struct worker_rec *w)
{
	sqlite3_stmt *s = stmt_get(st, S_WORKER_INSERT);
	int rc = 0;

	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, phase_id);
	rc |= sqlite3_bind_int(s, 2, w->worker);
	rc |= bind_u64(s, 3, w->start_ns);
	rc |= bind_u64(s, 4, w->end_ns);
	rc |= bind_u64(s, 5, w->bytes);
	rc |= bind_u64(s, 6, w->files);
	rc |= bind_u64(s, 7, w->ops);
	if (rc != SQLITE_OK)
		return db_error(st, "bind a worker");
	return step_done(st, s, "insert a worker");
}

static int insert_sample(struct store *st, int64_t phase_id,
			 const struct phase_rec *p)
{
	sqlite3_stmt *s = stmt_get(st, S_SAMPLE_INSERT);
	int rc = 0;

	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, phase_id);
	rc |= bind_u64(s, 2, p->rqs_total);
	rc |= bind_u64(s, 3, p->nr_rqs);
	rc |= sqlite3_bind_int(s, 4, p->rqs_total > p->nr_rqs);
	if (rc != SQLITE_OK)
		return db_error(st, "bind a trace sample");
	if (step_done(st, s, "insert a trace sample"))
		return -1;
	for (size_t i = 0; i < p->nr_rqs; i++) {
		const struct rq_sample *q = &p->rqs[i];
		char rw[2] = { q->rw == 'R' ? 'R' : 'W', '\0' };

		s = stmt_get(st, S_REQUEST_INSERT);
		if (!s)
			return -1;
		rc |= sqlite3_bind_int64(s, 1, phase_id);
		rc |= sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
		rc |= bind_u64(s, 3, q->t_ns);
		rc |= bind_u64(s, 4, q->sector);
		rc |= sqlite3_bind_int64(s, 5, q->bytes);
		rc |= bind_text(s, 6, rw);
		if (rc != SQLITE_OK)
			return db_error(st, "bind a trace request");
		if (step_done(st, s, "insert a trace request"))
			return -1;
	}
	return 0;
}

int store_phase_add(struct store *st, int64_t wlrun_id, struct phase_rec *p)
{
	int64_t id;

	if (tx_begin(st))
		return -1;
	if (insert_phase_row(st, wlrun_id, p))
		goto fail;
	id = sqlite3_last_insert_rowid(st->db);
	for (size_t i = 0; i < p->nr_metrics; i++)
		if (insert_metric(st, id, &p->metrics[i]))
			goto fail;
	for (size_t i = 0; i < p->nr_workers; i++)
		if (insert_worker(st, id, &p->workers[i]))
			goto fail;
	/* Untraced phases have no sample row at all. */
	if ((p->rqs_total || p->nr_rqs) && insert_sample(st, id, p))
		goto fail;
	if (insert_hists(st, id, p) || insert_stalls(st, id, p))
		goto fail;
	if (tx_commit(st))
		goto fail;
	p->id = id;
	return 0;
fail:
	tx_rollback(st);
	return -1;
}
