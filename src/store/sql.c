/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sql.c - the statements (stmt_sql, one per enum stmt_id) and the
 * helpers every store file uses to run them: the statement cache,
 * binding, column reading, retrying steps and transactions.
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

static const char *const stmt_sql[NR_STMTS] = {
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_COMMIT] = "COMMIT",
	[S_ROLLBACK] = "ROLLBACK",
	[S_RUN_INSERT] =
		"INSERT INTO runs (started, finished, host, kernel, version,"
		" cmdline, seed, tag, status, pid, target_order, uuid,"
		" source_host)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)",
	/* An imported run: finished elsewhere, so no pid to watch. */
	[S_RUN_IMPORT] =
		"INSERT INTO runs (started, finished, host, kernel, version,"
		" cmdline, seed, tag, status, pid, target_order, uuid,"
		" source_host)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)",
	[S_RUN_FINISH] =
		"UPDATE runs SET status = ?, finished = ? WHERE id = ?",
	[S_TARGET_INSERT] =
		"INSERT INTO targets (run_id, idx, rep, spec, name, kind,"
		" fstype, mkfs_opts, mount_opts, eff_mount_opts, device, uuid,"
		" mkfs_version, path, size, mkfs_cmd)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[S_WLRUN_INSERT] =
		"INSERT INTO wlruns (run_id, target_id, workload, options,"
		" rep, status, pos) VALUES (?, ?, ?, ?, ?, 'running', ?)",
	[S_WLRUN_IMPORT] =
		"INSERT INTO wlruns (run_id, target_id, workload, options,"
		" rep, status, pos) VALUES (?, ?, ?, ?, ?, ?, ?)",
	[S_WLRUN_FINISH] = "UPDATE wlruns SET status = ? WHERE id = ?",
	[S_PHASE_INSERT] =
		"INSERT INTO phases (wlrun_id, seq, name, label, start_ns,"
		" wall_ns, user_ns, sys_ns, sys_busy_pct, have_dev, rd_ios,"
		" rd_bytes, wr_ios, wr_bytes, bytes, files, ops, too_short,"
		" status, error)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
		" ?, ?, ?)",
	[S_METRIC_INSERT] =
		"INSERT INTO metrics (phase_id, name, value, unit, better)"
		" VALUES (?, ?, ?, ?, ?)",
	[S_WORKER_INSERT] =
		"INSERT INTO workers (phase_id, worker, start_ns, end_ns,"
		" bytes, files, ops) VALUES (?, ?, ?, ?, ?, ?, ?)",
	[S_SAMPLE_INSERT] =
		"INSERT INTO trace_sample (phase_id, total, stored, thinned)"
		" VALUES (?, ?, ?, ?)",
	[S_REQUEST_INSERT] =
		"INSERT INTO trace_request (phase_id, seq, t_ns, sector, bytes,"
		" rw) VALUES (?, ?, ?, ?, ?, ?)",
	[S_SAMPLE_SELECT] =
		"SELECT total FROM trace_sample WHERE phase_id = ?",
	[S_REQUEST_SELECT] =
		"SELECT t_ns, sector, bytes, rw FROM trace_request"
		" WHERE phase_id = ? ORDER BY seq",
	[S_RUN_SELECT] =
		"SELECT id, started, finished, host, kernel, version, cmdline,"
		" seed, tag, status, pid, target_order, uuid, source_host"
		" FROM runs WHERE id = ?",
	/* A read-only store older than version 7 has no ids yet. */
	[S_RUN_SELECT_NOID] =
		"SELECT id, started, finished, host, kernel, version, cmdline,"
		" seed, tag, status, pid, target_order, NULL, NULL"
		" FROM runs WHERE id = ?",
	[S_RUN_BY_UUID] = "SELECT id FROM runs WHERE uuid = ?",
	[S_RUN_UUID] = "SELECT ifnull(uuid, '') FROM runs WHERE id = ?",
	/* What a selector looks at, oldest first (store_select_runs). */
	[S_RUN_FIELDS] =
		"SELECT id, started, host, kernel, version, tag FROM runs"
		" WHERE status != 'running' ORDER BY started, id",
	[S_TARGET_SELECT] =
		"SELECT id, idx, rep, spec, name, kind, fstype, mkfs_opts,"
		" mount_opts, eff_mount_opts, device, uuid, mkfs_version,"
		" path, size, mkfs_cmd FROM targets WHERE run_id = ?"
		" ORDER BY id",
	/* A version-3 file opened read-only is not migrated. */
	[S_TARGET_SELECT_V3] =
		"SELECT id, idx, rep, spec, name, kind, fstype, mkfs_opts,"
		" mount_opts, eff_mount_opts, device, uuid, mkfs_version,"
		" path, size, NULL FROM targets WHERE run_id = ? ORDER BY id",
	[S_WLRUN_SELECT] =
		"SELECT id, target_id, workload, options, rep, status, pos"
		" FROM wlruns WHERE run_id = ? ORDER BY id",
	[S_PHASE_SELECT] =
		"SELECT id, seq, name, label, start_ns, wall_ns, user_ns,"
		" sys_ns, sys_busy_pct, have_dev, rd_ios, rd_bytes, wr_ios,"
		" wr_bytes, bytes, files, ops, too_short, status, error"
		" FROM phases WHERE wlrun_id = ? ORDER BY seq, id",
	[S_METRIC_SELECT] =
		"SELECT name, value, unit, better FROM metrics"
		" WHERE phase_id = ? ORDER BY rowid",
	[S_WORKER_SELECT] =
		"SELECT worker, start_ns, end_ns, bytes, files, ops"
		" FROM workers WHERE phase_id = ? ORDER BY rowid",
	[S_RUN_IDS] = "SELECT id FROM runs ORDER BY started DESC, id DESC",
	[S_LATEST] =
		"SELECT id FROM runs ORDER BY started DESC, id DESC LIMIT 1",
	[S_LATEST_TAG] =
		"SELECT id FROM runs WHERE tag = ?"
		" ORDER BY started DESC, id DESC LIMIT 1",
	[S_TAG_RUNS] =
		"SELECT id FROM runs WHERE tag = ? AND status != 'running'"
		" ORDER BY started, id",
	[S_RUN_NAMES] = "SELECT id, tag FROM runs ORDER BY id DESC",
	[S_RUN_DELETE] = "DELETE FROM runs WHERE id = ?",
	[S_FACT_INSERT] =
		"INSERT INTO run_facts (run_id, scope, key, value)"
		" VALUES (?, ?, ?, ?)",
	[S_FACT_SELECT] =
		"SELECT scope, key, value FROM run_facts WHERE run_id = ?"
		" ORDER BY rowid",
	[S_DECISION_RUN] =
		"UPDATE runs SET until_rule = ?, decision = ?,"
		" decision_reps = ? WHERE id = ?",
	[S_DECISION_CLEAR] = "DELETE FROM decisions WHERE run_id = ?",
	[S_DECISION_INSERT] =
		"INSERT INTO decisions (run_id, workload, name, phase, metric,"
		" label, verdict, reps, change_pct, lo_pct, hi_pct, mdc_pct)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[S_DECISION_RUN_SELECT] =
		"SELECT until_rule, decision, decision_reps FROM runs"
		" WHERE id = ?",
	[S_DECISION_SELECT] =
		"SELECT workload, name, phase, metric, label, verdict, reps,"
		" change_pct, lo_pct, hi_pct, mdc_pct FROM decisions"
		" WHERE run_id = ? ORDER BY rowid",
	[S_TEXT_INSERT] =
		"INSERT INTO wlrun_texts (wlrun_id, name, content)"
		" VALUES (?, ?, ?)",
	[S_TEXT_SELECT] =
		"SELECT name, content FROM wlrun_texts WHERE wlrun_id = ?"
		" ORDER BY rowid",
	[S_HIST_INSERT] =
		"INSERT INTO hists (phase_id, op, unit, nr_buckets, count,"
		" sum, min, max, buckets) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[S_HIST_SELECT] =
		"SELECT op, unit, nr_buckets, count, sum, min, max, buckets"
		" FROM hists WHERE phase_id = ? ORDER BY rowid",
	[S_STALL_INSERT] =
		"INSERT INTO stalls (phase_id, seq, start_ns, len_ns)"
		" VALUES (?, ?, ?, ?)",
	[S_STALL_SELECT] =
		"SELECT start_ns, len_ns FROM stalls WHERE phase_id = ?"
		" ORDER BY seq",
	[S_SERIES_INSERT] =
		"INSERT INTO series (phase_id, what, interval_ns, nr, total,"
		" counts) VALUES (?, 'completions', ?, ?, ?, ?)",
	[S_SERIES_SELECT] =
		"SELECT interval_ns, nr, total, counts FROM series"
		" WHERE phase_id = ? AND what = 'completions'",
};

int db_error(struct store *st, const char *what)
{
	return error("cannot %s in '%s': %s", what, st->path,
		     sqlite3_errmsg(st->db));
}

/* The cached statement, reset and with no bindings; NULL after a message. */
sqlite3_stmt *stmt_get(struct store *st, enum stmt_id id)
{
	sqlite3_stmt *s = st->stmt[id];

	if (!s) {
		if (sqlite3_prepare_v3(st->db, stmt_sql[id], -1,
				       SQLITE_PREPARE_PERSISTENT, &s,
				       NULL) != SQLITE_OK) {
			db_error(st, "prepare a statement");
			return NULL;
		}
		st->stmt[id] = s;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

int bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (!v)
		return sqlite3_bind_null(s, i);
	return sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

int bind_u64(sqlite3_stmt *s, int i, uint64_t v)
{
	/* Bit-preserving: a seed above INT64_MAX reads back unchanged. */
	return sqlite3_bind_int64(s, i, (sqlite3_int64)v);
}

/* NULL stands for "no value": SQLite has no NaN, and 0 is not the same. */
int bind_double(sqlite3_stmt *s, int i, double v)
{
	if (!isfinite(v))
		return sqlite3_bind_null(s, i);
	return sqlite3_bind_double(s, i, v);
}

char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : NULL;
}

double col_double(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(s, i);
}

/*
 * Step a statement that must finish (an INSERT, UPDATE, BEGIN...),
 * retrying when another connection holds the lock longer than the busy
 * timeout or SQLite bypassed the busy handler.
 */
int step_done(struct store *st, sqlite3_stmt *s, const char *what)
{
	uint64_t deadline = now_ns() + STORE_RETRY_NS;
	int rc;

	for (;;) {
		rc = sqlite3_step(s);
		if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
			break;
		if (now_ns() > deadline)
			break;
		sqlite3_reset(s);
		usleep(10000);
	}
	if (rc == SQLITE_DONE || rc == SQLITE_ROW) {
		sqlite3_reset(s);
		return 0;
	}
	db_error(st, what);
	sqlite3_reset(s);
	return -1;
}

/* Inside store_tx_begin() the inner transactions are the outer one's. */
int tx_begin(struct store *st)
{
	sqlite3_stmt *s;

	if (st->outer_tx)
		return 0;
	s = stmt_get(st, S_BEGIN);
	return s ? step_done(st, s, "begin a transaction") : -1;
}

int tx_commit(struct store *st)
{
	sqlite3_stmt *s;

	if (st->outer_tx)
		return 0;
	s = stmt_get(st, S_COMMIT);
	return s ? step_done(st, s, "commit") : -1;
}

void tx_rollback(struct store *st)
{
	sqlite3_stmt *s;

	if (st->outer_tx)
		return; /* the owner of the outer one rolls back */
	if (sqlite3_get_autocommit(st->db))
		return; /* SQLite already rolled back */
	s = stmt_get(st, S_ROLLBACK);
	if (s && sqlite3_step(s) != SQLITE_DONE)
		db_error(st, "roll back");
	if (s)
		sqlite3_reset(s);
}

/* For statements run once per connection: pragmas and the schema. */
int exec_retry(struct store *st, const char *sql, const char *what)
{
	uint64_t deadline = now_ns() + STORE_RETRY_NS;
	int rc;

	for (;;) {
		rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) ||
		    now_ns() > deadline)
			break;
		usleep(10000);
	}
	if (rc == SQLITE_OK)
		return 0;
	return db_error(st, what);
}

/* A one-integer query (PRAGMA user_version, counts); -1 after a message. */
int query_int(struct store *st, const char *sql, int *out, int *rc_out)
{
	sqlite3_stmt *s;
	int rc;

	*rc_out = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	if (*rc_out != SQLITE_OK)
		return -1;
	for (uint64_t deadline = now_ns() + STORE_RETRY_NS;;) {
		rc = sqlite3_step(s);
		if (rc != SQLITE_BUSY || now_ns() > deadline)
			break;
		sqlite3_reset(s);
		usleep(10000);
	}
	*rc_out = rc;
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* ---- one transaction around many writes, ids, import ---- */

int store_tx_begin(struct store *st)
{
	if (st->outer_tx)
		BUG("nested store_tx_begin");
	if (tx_begin(st))
		return -1;
	st->outer_tx = true;
	return 0;
}

int store_tx_commit(struct store *st)
{
	st->outer_tx = false;
	if (tx_commit(st)) {
		tx_rollback(st);
		return -1;
	}
	return 0;
}

void store_tx_rollback(struct store *st)
{
	st->outer_tx = false;
	tx_rollback(st);
}

int store_snapshot_begin(struct store *st)
{
	return exec_retry(st, "BEGIN", "begin a transaction");
}

void store_snapshot_end(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db) &&
	    exec_retry(st, "COMMIT", "end a read transaction"))
		tx_rollback(st);
}

/* A row (1), the end (0) or an error (-1); a busy store is waited for
 * as long as a write is (STORE_RETRY_NS). */
int step_row(struct store *st, sqlite3_stmt *s, const char *what)
{
	uint64_t deadline = now_ns() + STORE_RETRY_NS;
	int rc;

	for (;;) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			return 1;
		if (rc == SQLITE_DONE)
			return 0;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) ||
		    now_ns() > deadline)
			break;
		usleep(10000);
	}
	return db_error(st, what);
}
