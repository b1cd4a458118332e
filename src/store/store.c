/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store.c - the results database on SQLite (see store.h for the
 * contract).  This is the only file that talks SQL, so the schema, its
 * version and every statement live here.  Statements are prepared once
 * per connection and cached; every value is a bound parameter.
 *
 * Over 800 lines on purpose: it is one cohesive job, the translation
 * between the records of result.h and SQL.  Splitting it would spread
 * the schema over several files and let SQL leak out of this one.
 *
 * Concurrency: WAL lets readers run beside one writer, every write
 * transaction starts with BEGIN IMMEDIATE (so it takes the write lock up
 * front instead of failing half-way on an upgrade), and the busy timeout
 * plus a retry loop around BEGIN/COMMIT make a second writer wait rather
 * than fail.
 */
#include "store/store.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/suggest.h"

/*
 * Schema versions: 1 the first; 2 adds trace_sample and trace_request
 * (the block-request sample of traced phases); 3 adds runs.target_order
 * and wlruns.pos (the counterbalanced order of the targets); 4 adds
 * targets.mkfs_cmd (the mkfs command as run); 5 adds run_facts (the
 * setup recorded with a run: machine, devices, cache modes, accepted
 * checks; see struct fact); 6 adds runs.until_rule, runs.decision,
 * runs.decision_reps and the decisions table (`run --until decided`);
 * 7 adds runs.uuid and runs.source_host (a run's global id and, for an
 * imported run, the host it came from); 8 adds wlrun_texts (texts a
 * workload keeps with its run: fio's job file and its JSON output).
 * Older databases are
 * migrated forward in place by schema_init(), one step at a time, each
 * step only adding tables, so an old fslab's rows stay as they were.
 */
#define STORE_SCHEMA_VERSION 8
#define STORE_BUSY_TIMEOUT_MS 30000
/* Beyond the busy handler: SQLite skips it in a few WAL cases. */
#define STORE_RETRY_NS (120ULL * 1000000000ULL)

static const char schema[] =
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" started INTEGER NOT NULL,"
	" finished INTEGER,"
	" host TEXT, kernel TEXT, version TEXT, cmdline TEXT,"
	" seed INTEGER, tag TEXT,"
	" status TEXT NOT NULL,"
	" pid INTEGER);"
	"CREATE INDEX runs_tag ON runs(tag);"
	"CREATE INDEX runs_started ON runs(started);"
	"CREATE TABLE targets ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER, rep INTEGER,"
	" spec TEXT, name TEXT, kind TEXT, fstype TEXT,"
	" mkfs_opts TEXT, mount_opts TEXT, eff_mount_opts TEXT,"
	" device TEXT, uuid TEXT, mkfs_version TEXT, path TEXT,"
	" size INTEGER);"
	"CREATE INDEX targets_run ON targets(run_id);"
	"CREATE TABLE wlruns ("
	" id INTEGER PRIMARY KEY,"
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" target_id INTEGER REFERENCES targets(id) ON DELETE CASCADE,"
	" workload TEXT NOT NULL, options TEXT, rep INTEGER,"
	" status TEXT NOT NULL);"
	"CREATE INDEX wlruns_run ON wlruns(run_id);"
	"CREATE INDEX wlruns_target ON wlruns(target_id);"
	"CREATE TABLE phases ("
	" id INTEGER PRIMARY KEY,"
	" wlrun_id INTEGER NOT NULL REFERENCES wlruns(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, name TEXT NOT NULL, label TEXT,"
	" start_ns INTEGER, wall_ns INTEGER, user_ns INTEGER, sys_ns INTEGER,"
	" sys_busy_pct REAL, have_dev INTEGER,"
	" rd_ios INTEGER, rd_bytes INTEGER, wr_ios INTEGER, wr_bytes INTEGER,"
	" bytes INTEGER, files INTEGER, ops INTEGER, too_short INTEGER,"
	" status TEXT NOT NULL"
	"  CHECK (status IN ('ok', 'failed', 'interrupted')),"
	" error TEXT);"
	"CREATE INDEX phases_wlrun ON phases(wlrun_id);"
	"CREATE TABLE metrics ("
	" phase_id INTEGER NOT NULL REFERENCES phases(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, value REAL, unit TEXT, better INTEGER);"
	"CREATE INDEX metrics_phase ON metrics(phase_id);"
	"CREATE TABLE workers ("
	" phase_id INTEGER NOT NULL REFERENCES phases(id) ON DELETE CASCADE,"
	" worker INTEGER, start_ns INTEGER, end_ns INTEGER,"
	" bytes INTEGER, files INTEGER, ops INTEGER);"
	"CREATE INDEX workers_phase ON workers(phase_id);";

/*
 * Version 2: per traced phase, how many data requests the trace saw
 * (total) and how many of them are stored (at most TRACE_SAMPLE_MAX,
 * evenly thinned, see trace/analyze.h; thinned = stored < total), and
 * the stored ones in issue order: t_ns since the trace began, start
 * sector (512 bytes), size in bytes, 'R' or 'W'.
 */
static const char schema_v2[] =
	"CREATE TABLE trace_sample ("
	" phase_id INTEGER PRIMARY KEY"
	"  REFERENCES phases(id) ON DELETE CASCADE,"
	" total INTEGER NOT NULL, stored INTEGER NOT NULL,"
	" thinned INTEGER NOT NULL);"
	"CREATE TABLE trace_request ("
	" phase_id INTEGER NOT NULL REFERENCES phases(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, t_ns INTEGER NOT NULL,"
	" sector INTEGER NOT NULL, bytes INTEGER NOT NULL,"
	" rw TEXT NOT NULL CHECK (rw IN ('R', 'W')));"
	"CREATE INDEX trace_request_phase ON trace_request(phase_id, seq);";

/*
 * Version 3: the order of the targets within each repetition: the run's
 * mode ("balanced", "fixed", "blocked"; NULL in older runs) and each
 * workload run's position in its repetition, from 0 (NULL: unknown).
 */
static const char schema_v3[] =
	"ALTER TABLE runs ADD COLUMN target_order TEXT;"
	"ALTER TABLE wlruns ADD COLUMN pos INTEGER;";

/*
 * Version 4: the mkfs command line as it was run (with the flags fslab
 * added), so provenance shows what was run, not what today's fslab
 * would run; NULL in older runs and for dir: targets.
 */
static const char schema_v4[] =
	"ALTER TABLE targets ADD COLUMN mkfs_cmd TEXT;";

/*
 * Version 5: the facts recorded about a run's setup (struct fact in
 * result.h), one row per (scope, key).
 */
static const char schema_v5[] =
	"CREATE TABLE run_facts ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" scope TEXT NOT NULL, key TEXT NOT NULL, value TEXT);"
	"CREATE INDEX run_facts_run ON run_facts(run_id);";

/*
 * Version 6: `run --until decided`.  On the run, its rule ("decided";
 * NULL: a fixed number of repetitions), its decision ("decided",
 * "undecided at N: mdc X %") and the repetitions it took; per
 * comparison (a key metric of a configuration against the baseline,
 * within a workload and matched set) its state after the last complete
 * look: verdict, the repetitions it was decided at (NULL: undecided),
 * change and repeated confidence interval in %, and the mdc.  Each look
 * replaces the run's rows, so an interrupted run keeps the last one.
 */
static const char schema_v6[] =
	"ALTER TABLE runs ADD COLUMN until_rule TEXT;"
	"ALTER TABLE runs ADD COLUMN decision TEXT;"
	"ALTER TABLE runs ADD COLUMN decision_reps INTEGER;"
	"CREATE TABLE decisions ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" workload TEXT NOT NULL, name TEXT, phase TEXT NOT NULL,"
	" metric TEXT NOT NULL, label TEXT NOT NULL, verdict TEXT NOT NULL,"
	" reps INTEGER, change_pct REAL, lo_pct REAL, hi_pct REAL,"
	" mdc_pct REAL);"
	"CREATE INDEX decisions_run ON decisions(run_id);";

/*
 * Version 7: every run's globally unique id (an RFC 4122 version 4 UUID,
 * made with the run; export and import match runs by it) and, for an
 * imported run, the host it was exported from (NULL: made here).  Runs
 * of an older store get their id here, at migration, from SQLite's
 * randomblob(): once, so the id never changes between two reads and two
 * exports of the same old run agree.  (A read-only open of an old store
 * cannot migrate; its runs read back with no id, and export, which
 * needs one, opens the store for writing.)
 */
static const char schema_v7[] =
	"ALTER TABLE runs ADD COLUMN uuid TEXT;"
	"ALTER TABLE runs ADD COLUMN source_host TEXT;"
	"UPDATE runs SET uuid = lower(hex(randomblob(4))) || '-' ||"
	" lower(hex(randomblob(2))) || '-4' ||"
	" substr(lower(hex(randomblob(2))), 2) || '-' ||"
	" substr('89ab', 1 + (abs(random()) % 4), 1) ||"
	" substr(lower(hex(randomblob(2))), 2) || '-' ||"
	" lower(hex(randomblob(6))) WHERE uuid IS NULL;"
	"CREATE UNIQUE INDEX runs_uuid ON runs(uuid);";

/*
 * Version 8: texts a workload keeps with a workload run, by name (fio's
 * "job.fio" and "fio.json:SECTION#REP"), so `show` prints what ran and a
 * figure can be checked against the tool's own output.
 */
static const char schema_v8[] =
	"CREATE TABLE wlrun_texts ("
	" wlrun_id INTEGER NOT NULL REFERENCES wlruns(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, content TEXT NOT NULL);"
	"CREATE INDEX wlrun_texts_wlrun ON wlrun_texts(wlrun_id);";

/* migrations[v] takes a version-v database to version v + 1. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	[1] = schema_v2,
	[2] = schema_v3,
	[3] = schema_v4,
	[4] = schema_v5,
	[5] = schema_v6,
	[6] = schema_v7,
	[7] = schema_v8,
};

enum stmt_id {
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_RUN_INSERT,
	S_RUN_IMPORT,
	S_RUN_FINISH,
	S_TARGET_INSERT,
	S_WLRUN_INSERT,
	S_WLRUN_IMPORT,
	S_WLRUN_FINISH,
	S_PHASE_INSERT,
	S_METRIC_INSERT,
	S_WORKER_INSERT,
	S_SAMPLE_INSERT,
	S_REQUEST_INSERT,
	S_RUN_SELECT,
	S_RUN_SELECT_NOID,
	S_RUN_BY_UUID,
	S_RUN_UUID,
	S_RUN_FIELDS,
	S_TARGET_SELECT,
	S_TARGET_SELECT_V3,
	S_WLRUN_SELECT,
	S_PHASE_SELECT,
	S_METRIC_SELECT,
	S_WORKER_SELECT,
	S_SAMPLE_SELECT,
	S_REQUEST_SELECT,
	S_RUN_IDS,
	S_LATEST,
	S_LATEST_TAG,
	S_TAG_RUNS,
	S_RUN_NAMES,
	S_RUN_DELETE,
	S_FACT_INSERT,
	S_FACT_SELECT,
	S_DECISION_RUN,
	S_DECISION_CLEAR,
	S_DECISION_INSERT,
	S_DECISION_RUN_SELECT,
	S_DECISION_SELECT,
	S_TEXT_INSERT,
	S_TEXT_SELECT,
	NR_STMTS
};

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
};

struct store {
	sqlite3 *db;
	char *path;
	int version;      /* of the file (read-only: as found) */
	bool outer_tx;    /* store_tx_begin(): one transaction for all */
	sqlite3_stmt *stmt[NR_STMTS];
};

char *store_default_path(void)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	char *base, *path;

	if (xdg && xdg[0] == '/')
		return path_join(xdg, "fslab/results.db");
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());

		home = pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : ".";
	}
	base = path_join(home, ".local/share");
	path = path_join(base, "fslab/results.db");
	free(base);
	return path;
}

static int db_error(struct store *st, const char *what)
{
	return error("cannot %s in '%s': %s", what, st->path,
		     sqlite3_errmsg(st->db));
}

/* The cached statement, reset and with no bindings; NULL after a message. */
static sqlite3_stmt *stmt_get(struct store *st, enum stmt_id id)
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

static int bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (!v)
		return sqlite3_bind_null(s, i);
	return sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

static int bind_u64(sqlite3_stmt *s, int i, uint64_t v)
{
	/* Bit-preserving: a seed above INT64_MAX reads back unchanged. */
	return sqlite3_bind_int64(s, i, (sqlite3_int64)v);
}

/* NULL stands for "no value": SQLite has no NaN, and 0 is not the same. */
static int bind_double(sqlite3_stmt *s, int i, double v)
{
	if (!isfinite(v))
		return sqlite3_bind_null(s, i);
	return sqlite3_bind_double(s, i, v);
}

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : NULL;
}

static double col_double(sqlite3_stmt *s, int i)
{
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(s, i);
}

#define col_i64(s, i) ((int64_t)sqlite3_column_int64((s), (i)))
#define col_u64(s, i) ((uint64_t)sqlite3_column_int64((s), (i)))

/*
 * Step a statement that must finish (an INSERT, UPDATE, BEGIN...),
 * retrying when another connection holds the lock longer than the busy
 * timeout or SQLite bypassed the busy handler.
 */
static int step_done(struct store *st, sqlite3_stmt *s, const char *what)
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
static int tx_begin(struct store *st)
{
	sqlite3_stmt *s;

	if (st->outer_tx)
		return 0;
	s = stmt_get(st, S_BEGIN);
	return s ? step_done(st, s, "begin a transaction") : -1;
}

static int tx_commit(struct store *st)
{
	sqlite3_stmt *s;

	if (st->outer_tx)
		return 0;
	s = stmt_get(st, S_COMMIT);
	return s ? step_done(st, s, "commit") : -1;
}

static void tx_rollback(struct store *st)
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
static int exec_retry(struct store *st, const char *sql, const char *what)
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
static int query_int(struct store *st, const char *sql, int *out, int *rc_out)
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

static int read_version(struct store *st, int *version)
{
	int rc;

	if (!query_int(st, "PRAGMA user_version", version, &rc))
		return 0;
	if (rc == SQLITE_NOTADB)
		return error("'%s' is not an SQLite database", st->path);
	return db_error(st, "read the schema version");
}

static int check_version(struct store *st, int version)
{
	if (version > STORE_SCHEMA_VERSION)
		return error("database '%s' has schema version %d; this fslab "
			     "knows up to %d", st->path, version,
			     STORE_SCHEMA_VERSION);
	return 0;
}

/* Create the schema unless another process already did, atomically. */
static int schema_init(struct store *st)
{
	int version, nr_objects, rc;
	char *set;

	if (exec_retry(st, "BEGIN IMMEDIATE", "begin a transaction"))
		return -1;
	if (read_version(st, &version) || check_version(st, version))
		goto fail;
	if (version == STORE_SCHEMA_VERSION)
		return exec_retry(st, "COMMIT", "commit");
	if (version > 0) {
		/* An older fslab's database: add what is new. */
		for (int v = version; v < STORE_SCHEMA_VERSION; v++)
			if (exec_retry(st, migrations[v], "migrate the schema"))
				goto fail;
		goto set_version;
	}
	if (query_int(st, "SELECT count(*) FROM sqlite_master", &nr_objects,
		      &rc)) {
		db_error(st, "read the schema");
		goto fail;
	}
	if (nr_objects) {
		error("'%s' is an SQLite database but not an fslab one",
		      st->path);
		goto fail;
	}
	if (exec_retry(st, schema, "create the schema"))
		goto fail;
	for (int v = 1; v < STORE_SCHEMA_VERSION; v++)
		if (exec_retry(st, migrations[v], "create the schema"))
			goto fail;
set_version:
	set = xasprintf("PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
	rc = exec_retry(st, set, "set the schema version");
	free(set);
	if (rc || exec_retry(st, "COMMIT", "commit"))
		goto fail;
	return 0;
fail:
	tx_rollback(st);
	return -1;
}

static int make_parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int rc = 0;

	if (!slash || slash == path)
		return 0;
	dir = xstrndup(path, (size_t)(slash - path));
	if (mkdir_p(dir, 0755) < 0)
		rc = error_errno("cannot create directory '%s'", dir);
	free(dir);
	return rc;
}

/* A schema-less file with tables in it is someone else's database. */
static int not_empty(struct store *st)
{
	int nr = 0, rc;

	/* One statement, one snapshot: a writer creating the schema right
	 * now commits tables and version together. */
	if (query_int(st, "SELECT (SELECT count(*) FROM sqlite_master) * "
		      "(user_version = 0) FROM pragma_user_version", &nr, &rc))
		return db_error(st, "read the schema");
	if (nr)
		return error("'%s' is an SQLite database but not an fslab one",
			     st->path);
	return 0;
}

/* "file:" URI of path with ?immutable=1, for read-only media. */
static char *immutable_uri(const char *path)
{
	struct strbuf b;

	strbuf_init(&b, strlen(path) * 3 + 32);
	strbuf_addstr(&b, "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if (*c == '%' || *c == '?' || *c == '#' || *c < 0x20)
			strbuf_addf(&b, "%%%02X", *c);
		else
			strbuf_addch(&b, *c);
	}
	strbuf_addstr(&b, "?immutable=1");
	return strbuf_detach(&b, NULL);
}

static int open_ro(struct store *st, bool immutable)
{
	char *uri = immutable ? immutable_uri(st->path) : NULL;
	int rc;

	if (st->db)
		sqlite3_close(st->db);
	st->db = NULL;
	rc = sqlite3_open_v2(uri ? uri : st->path, &st->db,
			     SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX |
			     (uri ? SQLITE_OPEN_URI : 0), NULL);
	free(uri);
	if (rc != SQLITE_OK)
		return error("cannot open '%s': %s", st->path,
			     st->db ? sqlite3_errmsg(st->db) :
			     sqlite3_errstr(rc));
	sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS);
	return 0;
}

static int store_open_readonly(const char *path, struct store **out)
{
	struct store *st = xcalloc(1, sizeof(*st));
	int version = 0, rc;

	*out = NULL;
	st->path = xstrdup(path);
	if (open_ro(st, false))
		goto fail;
	/*
	 * A WAL database needs its -shm file; where that cannot be made
	 * (a read-only medium or directory) read the file as immutable.
	 */
	if (query_int(st, "PRAGMA user_version", &version, &rc)) {
		if ((rc & 0xff) != SQLITE_CANTOPEN || open_ro(st, true) ||
		    read_version(st, &version))
			goto fail_msg;
	}
	if (check_version(st, version))
		goto fail;
	st->version = version;
	if (!version) {
		error("'%s' is not an fslab results database", path);
		goto fail;
	}
	st->version = version;
	*out = st;
	return 0;
fail_msg:
	if (rc == SQLITE_NOTADB)
		error("'%s' is not an SQLite database", path);
	else if (st->db)
		db_error(st, "read the schema version");
fail:
	store_close(st);
	return -1;
}

int store_open(const char *path, struct store **out)
{
	struct store *st;
	int version, rc;

	*out = NULL;
	if (make_parent_dir(path))
		return -1;
	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	rc = sqlite3_open_v2(path, &st->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_FULLMUTEX, NULL);
	if (rc != SQLITE_OK) {
		error("cannot open '%s': %s", path,
		      st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS);
	/* Refuse a foreign or future file before changing anything in it. */
	if (read_version(st, &version) || check_version(st, version) ||
	    (!version && not_empty(st)))
		goto fail;
	if (exec_retry(st, "PRAGMA journal_mode = WAL", "enable WAL") ||
	    exec_retry(st, "PRAGMA foreign_keys = ON", "enable foreign keys") ||
	    exec_retry(st, "PRAGMA synchronous = NORMAL", "set synchronous"))
		goto fail;
	if (schema_init(st))
		goto fail;
	st->version = STORE_SCHEMA_VERSION;
	*out = st;
	return 0;
fail:
	store_close(st);
	return -1;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < NR_STMTS; i++)
		sqlite3_finalize(st->stmt[i]);
	if (st->db && sqlite3_close(st->db) != SQLITE_OK)
		warning("cannot close '%s': %s", st->path,
			sqlite3_errmsg(st->db));
	free(st->path);
	free(st);
}

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

static enum phase_status phase_status_parse(const char *s)
{
	if (s && !strcmp(s, "failed"))
		return PHASE_FAILED;
	if (s && !strcmp(s, "interrupted"))
		return PHASE_INTERRUPTED;
	return PHASE_OK;
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
	if (tx_commit(st))
		goto fail;
	p->id = id;
	return 0;
fail:
	tx_rollback(st);
	return -1;
}

/* ---- loading ---- */

/*
 * Step a SELECT: 1 for a row, 0 when done, -1 after a message.  Reads
 * only wait on a checkpoint or WAL recovery, so a short retry suffices.
 */
static int step_row(struct store *st, sqlite3_stmt *s, const char *what)
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

static int load_metrics(struct store *st, struct phase_rec *p)
{
	sqlite3_stmt *s = stmt_get(st, S_METRIC_SELECT);
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, p->id);
	while ((rc = step_row(st, s, "read metrics")) > 0) {
		char *name = col_text(s, 0), *unit = col_text(s, 2);
		int better = sqlite3_column_int(s, 3);
		const char *n = name ? name : "", *u = unit;
		char cur[160];

		/* a run stored before the naming rule compares under the
		 * names new runs store (result.h) */
		if (metric_name_upgrade(n, unit, cur, sizeof(cur), &u))
			n = cur;
		phase_rec_add_metric(p, n, col_double(s, 1),
				     u, better > 0 ? BETTER_HIGHER :
				     better < 0 ? BETTER_LOWER : BETTER_NONE);
		free(name);
		free(unit);
	}
	sqlite3_reset(s);
	return rc;
}

static int load_workers(struct store *st, struct phase_rec *p)
{
	sqlite3_stmt *s = stmt_get(st, S_WORKER_SELECT);
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, p->id);
	while ((rc = step_row(st, s, "read workers")) > 0) {
		struct worker_rec *w;

		ALLOC_GROW(p->workers, p->nr_workers + 1, p->alloc_workers);
		w = &p->workers[p->nr_workers++];
		w->worker = sqlite3_column_int(s, 0);
		w->start_ns = col_u64(s, 1);
		w->end_ns = col_u64(s, 2);
		w->bytes = col_u64(s, 3);
		w->files = col_u64(s, 4);
		w->ops = col_u64(s, 5);
	}
	sqlite3_reset(s);
	return rc;
}

static int load_sample(struct store *st, struct phase_rec *p)
{
	sqlite3_stmt *s = stmt_get(st, S_SAMPLE_SELECT);
	size_t alloc = 0;
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, p->id);
	rc = step_row(st, s, "read a trace sample");
	if (rc > 0)
		p->rqs_total = col_u64(s, 0);
	sqlite3_reset(s);
	if (rc <= 0)
		return rc;
	s = stmt_get(st, S_REQUEST_SELECT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, p->id);
	while ((rc = step_row(st, s, "read trace requests")) > 0) {
		const unsigned char *rw = sqlite3_column_text(s, 3);
		struct rq_sample *q;

		ALLOC_GROW(p->rqs, p->nr_rqs + 1, alloc);
		q = &p->rqs[p->nr_rqs++];
		q->t_ns = col_u64(s, 0);
		q->sector = col_u64(s, 1);
		q->bytes = (uint32_t)sqlite3_column_int64(s, 2);
		q->rw = rw && rw[0] == 'R' ? 'R' : 'W';
	}
	sqlite3_reset(s);
	return rc;
}

static void phase_from_row(sqlite3_stmt *s, struct phase_rec *p)
{
	struct measure *m = &p->m;
	char *status;

	p->id = col_i64(s, 0);
	p->seq = sqlite3_column_int(s, 1);
	p->name = col_text(s, 2);
	p->label = col_text(s, 3);
	m->start_ns = col_u64(s, 4);
	m->wall_ns = col_u64(s, 5);
	m->user_ns = col_u64(s, 6);
	m->sys_ns = col_u64(s, 7);
	m->sys_busy_pct = sqlite3_column_type(s, 8) == SQLITE_NULL ? -1 :
			  sqlite3_column_double(s, 8);
	m->have_dev = sqlite3_column_int(s, 9) != 0;
	m->rd_ios = col_u64(s, 10);
	m->rd_bytes = col_u64(s, 11);
	m->wr_ios = col_u64(s, 12);
	m->wr_bytes = col_u64(s, 13);
	p->bytes = col_u64(s, 14);
	p->files = col_u64(s, 15);
	p->ops = col_u64(s, 16);
	p->too_short = sqlite3_column_int(s, 17) != 0;
	status = col_text(s, 18);
	p->status = phase_status_parse(status);
	free(status);
	p->error = col_text(s, 19);
}

static int load_phases(struct store *st, struct wlrun_rec *w, bool detail)
{
	sqlite3_stmt *s = stmt_get(st, S_PHASE_SELECT);
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, w->id);
	while ((rc = step_row(st, s, "read phases")) > 0) {
		struct phase_rec *p = wlrun_rec_new_phase(w);

		phase_from_row(s, p);
	}
	sqlite3_reset(s);
	if (rc < 0)
		return -1;
	/* The metric and worker statements are separate, so no nesting. */
	for (size_t i = 0; i < w->nr_phases; i++)
		if (load_metrics(st, &w->phases[i]) ||
		    (detail && (load_workers(st, &w->phases[i]) ||
				load_sample(st, &w->phases[i]))))
			return -1;
	return 0;
}

static int load_targets(struct store *st, struct run_rec *r)
{
	sqlite3_stmt *s = stmt_get(st, st->version >= 4 ? S_TARGET_SELECT
							 : S_TARGET_SELECT_V3);
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = step_row(st, s, "read targets")) > 0) {
		struct target_rec *t = run_rec_new_target(r);

		t->id = col_i64(s, 0);
		t->idx = sqlite3_column_int(s, 1);
		t->rep = sqlite3_column_int(s, 2);
		t->spec = col_text(s, 3);
		t->name = col_text(s, 4);
		t->kind = col_text(s, 5);
		t->fstype = col_text(s, 6);
		t->mkfs_opts = col_text(s, 7);
		t->mount_opts = col_text(s, 8);
		t->eff_mount_opts = col_text(s, 9);
		t->device = col_text(s, 10);
		t->uuid = col_text(s, 11);
		t->mkfs_version = col_text(s, 12);
		t->path = col_text(s, 13);
		t->size = col_u64(s, 14);
		t->mkfs_cmd = col_text(s, 15);
	}
	sqlite3_reset(s);
	return rc;
}

/* A read-only file from before version 8 has no texts to read. */
static int load_texts(struct store *st, struct wlrun_rec *w)
{
	sqlite3_stmt *s;
	int rc;

	if (st->version < 8)
		return 0;
	s = stmt_get(st, S_TEXT_SELECT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, w->id);
	while ((rc = step_row(st, s, "read workload texts")) > 0) {
		char *name = col_text(s, 0), *content = col_text(s, 1);

		wlrun_rec_add_text(w, name ? name : "", content ? content : "");
		free(name);
		free(content);
	}
	sqlite3_reset(s);
	return rc < 0 ? -1 : 0;
}

int store_wlrun_text_add(struct store *st, int64_t wlrun_id,
			 const char *name, const char *content)
{
	sqlite3_stmt *s = stmt_get(st, S_TEXT_INSERT);
	int rc = 0;

	if (!s)
		return -1;
	rc |= sqlite3_bind_int64(s, 1, wlrun_id);
	rc |= bind_text(s, 2, name);
	rc |= bind_text(s, 3, content);
	if (rc != SQLITE_OK)
		return db_error(st, "bind the workload text");
	return step_done(st, s, "insert the workload text") ? -1 : 0;
}

/* What load_run reads below the run: */
enum load_depth {
	LOAD_WLRUNS,    /* targets and workload runs */
	LOAD_METRICS,   /* and phases with their metrics */
	LOAD_ALL,       /* and workers and trace samples */
};

static int load_wlruns(struct store *st, struct run_rec *r,
		       enum load_depth depth)
{
	sqlite3_stmt *s = stmt_get(st, S_WLRUN_SELECT);
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = step_row(st, s, "read workload runs")) > 0) {
		struct wlrun_rec *w = run_rec_new_wlrun(r);

		w->id = col_i64(s, 0);
		w->target_id = col_i64(s, 1);
		w->target_idx = -1;
		for (size_t i = 0; i < r->nr_targets; i++)
			if (w->target_id && r->targets[i].id == w->target_id)
				w->target_idx = (int)i;
		w->workload = col_text(s, 2);
		w->options = col_text(s, 3);
		w->rep = sqlite3_column_int(s, 4);
		w->status = col_text(s, 5);
		w->pos = sqlite3_column_type(s, 6) == SQLITE_NULL
				 ? -1 : sqlite3_column_int(s, 6);
	}
	sqlite3_reset(s);
	if (rc < 0 || depth == LOAD_WLRUNS)
		return rc;
	for (size_t i = 0; i < r->nr_wlruns; i++)
		if (load_phases(st, &r->wlruns[i], depth == LOAD_ALL) ||
		    (depth == LOAD_ALL && load_texts(st, &r->wlruns[i])))
			return -1;
	return 0;
}

/*
 * A "running" row whose writer died can never finish.  Only a process
 * on this host can be checked; elsewhere it may really be running.
 */
static bool run_is_dead(const char *host, int64_t pid, int64_t started)
{
	struct utsname u;

	if (pid <= 0 || !host || uname(&u) < 0 || strcmp(u.nodename, host))
		return false;
	/* A pid reused by a process started after the run is no writer. */
	return !proc_is_same((long)pid, started);
}

static void mark_incomplete(struct run_rec *r)
{
	free(r->status);
	r->status = xstrdup("incomplete");
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		struct wlrun_rec *w = &r->wlruns[i];

		if (w->status && strcmp(w->status, "running"))
			continue;
		free(w->status);
		w->status = xstrdup("incomplete");
	}
}

/* The --until decided state (schema 6; nothing in older files). */
static int load_decisions(struct store *st, struct run_rec *r)
{
	sqlite3_stmt *s;
	int rc;

	if (st->version < 6)
		return 0;
	s = stmt_get(st, S_DECISION_RUN_SELECT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	rc = step_row(st, s, "read the run's decision");
	if (rc > 0) {
		r->until_rule = col_text(s, 0);
		r->decision = col_text(s, 1);
		r->decision_reps = sqlite3_column_int(s, 2);
	}
	sqlite3_reset(s);
	if (rc < 0)
		return -1;
	s = stmt_get(st, S_DECISION_SELECT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = step_row(st, s, "read decisions")) > 0) {
		struct decision_rec *d = run_rec_new_decision(r);

		d->workload = col_text(s, 0);
		d->name = col_text(s, 1);
		d->phase = col_text(s, 2);
		d->metric = col_text(s, 3);
		d->label = col_text(s, 4);
		d->verdict = col_text(s, 5);
		d->reps = sqlite3_column_int(s, 6);
		d->pct = col_double(s, 7);
		d->lo_pct = col_double(s, 8);
		d->hi_pct = col_double(s, 9);
		d->mdc_pct = col_double(s, 10);
	}
	sqlite3_reset(s);
	return rc;
}

int store_decisions_save(struct store *st, const struct run_rec *r)
{
	sqlite3_stmt *s;
	int rc = 0;

	if (tx_begin(st))
		return -1;
	s = stmt_get(st, S_DECISION_RUN);
	if (!s)
		goto fail;
	rc |= bind_text(s, 1, r->until_rule);
	rc |= bind_text(s, 2, r->decision);
	rc |= sqlite3_bind_int(s, 3, r->decision_reps);
	rc |= sqlite3_bind_int64(s, 4, r->id);
	if (rc != SQLITE_OK) {
		db_error(st, "bind the decision");
		goto fail;
	}
	if (step_done(st, s, "update the run's decision"))
		goto fail;
	s = stmt_get(st, S_DECISION_CLEAR);
	if (!s)
		goto fail;
	sqlite3_bind_int64(s, 1, r->id);
	if (step_done(st, s, "clear the decisions"))
		goto fail;
	for (size_t i = 0; i < r->nr_decisions; i++) {
		const struct decision_rec *d = &r->decisions[i];

		s = stmt_get(st, S_DECISION_INSERT);
		if (!s)
			goto fail;
		rc = sqlite3_bind_int64(s, 1, r->id);
		rc |= bind_text(s, 2, d->workload);
		rc |= bind_text(s, 3, d->name);
		rc |= bind_text(s, 4, d->phase);
		rc |= bind_text(s, 5, d->metric);
		rc |= bind_text(s, 6, d->label);
		rc |= bind_text(s, 7, d->verdict);
		rc |= d->reps ? sqlite3_bind_int(s, 8, d->reps)
			      : sqlite3_bind_null(s, 8);
		rc |= bind_double(s, 9, d->pct);
		rc |= bind_double(s, 10, d->lo_pct);
		rc |= bind_double(s, 11, d->hi_pct);
		rc |= bind_double(s, 12, d->mdc_pct);
		if (rc != SQLITE_OK) {
			db_error(st, "bind a decision");
			goto fail;
		}
		if (step_done(st, s, "insert a decision"))
			goto fail;
	}
	return tx_commit(st);
fail:
	tx_rollback(st);
	return -1;
}

static int load_facts(struct store *st, struct run_rec *r)
{
	sqlite3_stmt *s;
	int rc;

	if (st->version < 5)
		return 0;
	s = stmt_get(st, S_FACT_SELECT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = step_row(st, s, "read the run's facts")) > 0) {
		const unsigned char *scope = sqlite3_column_text(s, 0);
		const unsigned char *key = sqlite3_column_text(s, 1);
		const unsigned char *value = sqlite3_column_text(s, 2);

		if (scope && key)
			run_rec_add_fact(r, (const char *)scope,
					 (const char *)key,
					 (const char *)value);
	}
	sqlite3_reset(s);
	return rc < 0 ? -1 : 0;
}

int store_facts_add(struct store *st, int64_t run_id, const struct fact *f,
		    size_t nr)
{
	sqlite3_stmt *s;

	if (!nr)
		return 0;
	if (tx_begin(st))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		s = stmt_get(st, S_FACT_INSERT);
		if (!s)
			goto fail;
		sqlite3_bind_int64(s, 1, run_id);
		bind_text(s, 2, f[i].scope);
		bind_text(s, 3, f[i].key);
		bind_text(s, 4, f[i].value);
		if (step_done(st, s, "store a fact"))
			goto fail;
	}
	if (tx_commit(st))
		goto fail;
	return 0;
fail:
	tx_rollback(st);
	return -1;
}

static int load_run(struct store *st, int64_t run_id, enum load_depth depth,
		    struct run_rec **out)
{
	sqlite3_stmt *s = stmt_get(st, st->version < 7 ? S_RUN_SELECT_NOID
							: S_RUN_SELECT);
	struct run_rec *r;
	int64_t pid;
	int rc;

	*out = NULL;
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	rc = step_row(st, s, "read the run");
	if (rc <= 0) {
		sqlite3_reset(s);
		if (!rc) {
			char arg[24], dym[96];

			snprintf(arg, sizeof(arg), "%lld", (long long)run_id);
			error("no run '%s' in '%s'%s", arg, st->path,
			      store_did_you_mean(st, arg, dym, sizeof(dym)));
		}
		return -1;
	}
	r = xcalloc(1, sizeof(*r));
	r->id = col_i64(s, 0);
	r->started = col_i64(s, 1);
	r->finished = col_i64(s, 2);
	r->host = col_text(s, 3);
	r->kernel = col_text(s, 4);
	r->version = col_text(s, 5);
	r->cmdline = col_text(s, 6);
	r->seed = col_u64(s, 7);
	r->tag = col_text(s, 8);
	r->status = col_text(s, 9);
	pid = col_i64(s, 10);
	r->target_order = col_text(s, 11);
	r->uuid = col_text(s, 12);
	r->source_host = col_text(s, 13);
	sqlite3_reset(s);
	if (load_targets(st, r) || load_wlruns(st, r, depth) ||
	    load_facts(st, r) || load_decisions(st, r)) {
		run_rec_free(r);
		return -1;
	}
	if (r->status && !strcmp(r->status, "running") &&
	    run_is_dead(r->host, pid, r->started))
		mark_incomplete(r);
	*out = r;
	return 0;
}

int store_load_run(struct store *st, int64_t run_id, struct run_rec **out)
{
	return load_run(st, run_id, LOAD_ALL, out);
}

int store_load_run_metrics(struct store *st, int64_t run_id,
			   struct run_rec **out)
{
	return load_run(st, run_id, LOAD_METRICS, out);
}

int store_list_runs(struct store *st, struct run_rec ***out, size_t *nr)
{
	sqlite3_stmt *s = stmt_get(st, S_RUN_IDS);
	int64_t *ids = NULL;
	size_t nr_ids = 0, alloc_ids = 0, alloc_runs = 0;
	struct run_rec **runs = NULL;
	int rc;

	*out = NULL;
	*nr = 0;
	if (!s)
		return -1;
	/* One read transaction: a snapshot, so no run vanishes mid-list. */
	if (exec_retry(st, "BEGIN", "begin a transaction"))
		return -1;
	while ((rc = step_row(st, s, "list runs")) > 0) {
		ALLOC_GROW(ids, nr_ids + 1, alloc_ids);
		ids[nr_ids++] = col_i64(s, 0);
	}
	sqlite3_reset(s);
	if (rc < 0)
		goto fail;
	ALLOC_GROW(runs, nr_ids, alloc_runs);
	for (size_t i = 0; i < nr_ids; i++) {
		if (load_run(st, ids[i], LOAD_WLRUNS, &runs[*nr]))
			goto fail;
		(*nr)++;
	}
	if (exec_retry(st, "COMMIT", "commit"))
		goto fail;
	free(ids);
	*out = runs;
	return 0;
fail:
	tx_rollback(st);
	for (size_t i = 0; i < *nr; i++)
		run_rec_free(runs[i]);
	free(runs);
	free(ids);
	*nr = 0;
	return -1;
}

int store_latest_run(struct store *st, const char *tag, int64_t *id)
{
	sqlite3_stmt *s = stmt_get(st, tag ? S_LATEST_TAG : S_LATEST);
	int rc;

	*id = 0;
	if (!s)
		return -1;
	if (tag)
		bind_text(s, 1, tag);
	rc = step_row(st, s, "find the latest run");
	if (rc > 0)
		*id = col_i64(s, 0);
	sqlite3_reset(s);
	return rc < 0 ? -1 : 0;
}

int store_tag_runs(struct store *st, const char *tag, int64_t **ids,
		   size_t *nr)
{
	sqlite3_stmt *s = stmt_get(st, S_TAG_RUNS);
	size_t alloc = 0;
	int rc;

	*ids = NULL;
	*nr = 0;
	if (!s)
		return -1;
	bind_text(s, 1, tag);
	while ((rc = step_row(st, s, "find the runs of a tag")) > 0) {
		ALLOC_GROW(*ids, *nr + 1, alloc);
		(*ids)[(*nr)++] = col_i64(s, 0);
	}
	sqlite3_reset(s);
	if (rc < 0) {
		free(*ids);
		*ids = NULL;
		*nr = 0;
		return -1;
	}
	return 0;
}

int store_delete_run(struct store *st, int64_t run_id)
{
	sqlite3_stmt *s = stmt_get(st, S_RUN_DELETE);

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	if (step_done(st, s, "delete the run"))
		return -1;
	if (!sqlite3_changes(st->db))
		return error("no run '%lld' in '%s'", (long long)run_id,
			     st->path);
	return 0;
}

/* "; did you mean 'x'?" for a run id or tag close to arg (the one
 * suggest rule), or "" (into buf). */
const char *store_did_you_mean(struct store *st, const char *arg,
			       char *buf, size_t len)
{
	sqlite3_stmt *s = stmt_get(st, S_RUN_NAMES);
	struct suggest sg;
	char *best = NULL, num[24];
	const char *r;

	buf[0] = '\0';
	if (!s)
		return buf;
	suggest_init(&sg, arg);
	while (step_row(st, s, "list the runs") > 0) {
		const unsigned char *tag = sqlite3_column_text(s, 1);

		snprintf(num, sizeof(num), "%lld",
			 (long long)sqlite3_column_int64(s, 0));
		if (suggest_add(&sg, num)) {
			free(best);
			best = xstrdup(num);
		}
		if (tag && suggest_add(&sg, (const char *)tag)) {
			free(best);
			best = xstrdup((const char *)tag);
		}
	}
	sqlite3_reset(s);
	r = suggest_result(&sg);
	if (r && best)
		snprintf(buf, len, "; did you mean '%s'?", best);
	free(best);
	return buf;
}

int store_resolve_run(struct store *st, const char *arg, int64_t *id)
{
	char dym[96];

	long long n;

	*id = 0;
	if (!arg || !strcmp(arg, "latest")) {
		if (store_latest_run(st, NULL, id))
			return -1;
		if (!*id)
			return error("no runs stored in '%s'", st->path);
		return 0;
	}
	if (all_digits(arg)) {
		if (parse_int(arg, 1, INT64_MAX, &n))
			return error("no run '%s' in '%s'", arg, st->path);
		*id = n;
		return 0;
	}
	if (store_is_selector(arg)) {
		int64_t *ids;
		size_t nr;

		if (store_select_runs(st, arg, &ids, &nr))
			return -1;
		*id = nr ? ids[nr - 1] : 0;
		free(ids);
		if (!*id)
			return error("no run matches '%s' in '%s'", arg,
				     st->path);
		return 0;
	}
	if (store_latest_run(st, arg, id))
		return -1;
	if (!*id)
		return error("no run or tag '%s' in '%s'%s", arg, st->path,
			     store_did_you_mean(st, arg, dym, sizeof(dym)));
	return 0;
}

const char *store_path(const struct store *st)
{
	return st->path;
}

static int open_existing(const char *db, bool rw, struct store **out)
{
	char *path = db ? xstrdup(db) : store_default_path();
	int rc;

	*out = NULL;
	/* Reading commands must not leave an empty database behind. */
	if (access(path, F_OK) < 0)
		rc = error("no results database at '%s'", path);
	else
		rc = rw ? store_open(path, out) : store_open_readonly(path, out);
	free(path);
	return rc;
}

int store_open_existing(const char *db, struct store **out)
{
	return open_existing(db, false, out);
}

int store_open_existing_rw(const char *db, struct store **out)
{
	return open_existing(db, true, out);
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

int store_run_by_uuid(struct store *st, const char *uuid, int64_t *id)
{
	sqlite3_stmt *s;
	int rc;

	*id = 0;
	if (st->version < 7)
		return 0; /* no ids before version 7 */
	s = stmt_get(st, S_RUN_BY_UUID);
	if (!s)
		return -1;
	bind_text(s, 1, uuid);
	rc = step_row(st, s, "find a run by its id");
	if (rc > 0)
		*id = col_i64(s, 0);
	sqlite3_reset(s);
	return rc < 0 ? -1 : 0;
}

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

/* ---- selectors: kernel=GLOB,host=NAME,version=GLOB,since=..,until=.. ---- */

bool store_is_selector(const char *arg)
{
	static const char *const keys[] = { "kernel=", "host=", "version=",
					    "since=", "until=", "tag=" };

	for (size_t i = 0; arg && i < ARRAY_SIZE(keys); i++)
		if (!strncmp(arg, keys[i], strlen(keys[i])))
			return true;
	return false;
}

enum sel_key { SEL_KERNEL, SEL_HOST, SEL_VERSION, SEL_TAG, SEL_NR };

struct selector {
	char *glob[SEL_NR];       /* NULL: any */
	int64_t since, until;     /* unix time, inclusive; 0: open */
};

/*
 * "2026-12-04", "2026-12-04T15:30", "2026-12-04 15:30:10", local time,
 * or "@UNIXTIME".  A bare date as until= means the end of that day.
 */
static int parse_date(const char *v, bool end, int64_t *out)
{
	struct tm tm = { 0 };
	const char *rest;
	long long n;

	if (v[0] == '@' && !parse_int(v + 1, 0, INT64_MAX, &n)) {
		*out = n;
		return 0;
	}
	rest = strptime(v, "%Y-%m-%d", &tm);
	if (!rest)
		return -1;
	if (!*rest) {
		if (end) {
			tm.tm_hour = 23;
			tm.tm_min = 59;
			tm.tm_sec = 59;
		}
	} else if (*rest == 'T' || *rest == ' ') {
		const char *t = strptime(rest + 1, "%H:%M", &tm);

		if (t && *t == ':')
			t = strptime(t + 1, "%S", &tm);
		else if (t && end)
			tm.tm_sec = 59;
		if (!t || *t)
			return -1;
	} else {
		return -1;
	}
	tm.tm_isdst = -1;
	*out = (int64_t)mktime(&tm);
	return 0;
}

static void selector_release(struct selector *s)
{
	for (int k = 0; k < SEL_NR; k++)
		free(s->glob[k]);
}

static int selector_parse(const char *arg, struct selector *s)
{
	static const char *const names[SEL_NR] = { "kernel", "host",
						   "version", "tag" };
	const char *p = arg;

	memset(s, 0, sizeof(*s));
	while (*p) {
		const char *e = strchrnul(p, ','), *eq;
		char *key, *val;
		int k;

		eq = memchr(p, '=', (size_t)(e - p));
		if (!eq)
			goto bad;
		key = xstrndup(p, (size_t)(eq - p));
		val = xstrndup(eq + 1, (size_t)(e - eq - 1));
		for (k = 0; k < SEL_NR && strcmp(key, names[k]); k++)
			;
		if (k < SEL_NR) {
			free(s->glob[k]);
			s->glob[k] = val;
			val = NULL;
		} else if (!strcmp(key, "since") || !strcmp(key, "until")) {
			bool until = key[0] == 'u';

			if (parse_date(val, until, until ? &s->until
							  : &s->since)) {
				error("%s=%s: not a date (YYYY-MM-DD, "
				      "YYYY-MM-DDTHH:MM[:SS] or @UNIXTIME)",
				      key, val);
				free(key);
				free(val);
				goto fail;
			}
		} else {
			error("unknown selector key '%s' in '%s' (kernel, "
			      "host, version, tag, since, until)", key, arg);
			free(key);
			free(val);
			goto fail;
		}
		free(key);
		free(val);
		p = *e ? e + 1 : e;
	}
	return 0;
bad:
	error("'%s' is not a selector: KEY=VALUE[,KEY=VALUE...]", arg);
fail:
	selector_release(s);
	return -1;
}

static bool glob_ok(const char *glob, const char *v)
{
	return !glob || (v && !fnmatch(glob, v, 0));
}

int store_select_runs(struct store *st, const char *selector, int64_t **ids,
		      size_t *nr)
{
	struct selector sel;
	sqlite3_stmt *s;
	size_t alloc = 0;
	int rc;

	*ids = NULL;
	*nr = 0;
	if (selector_parse(selector, &sel))
		return -1;
	s = stmt_get(st, S_RUN_FIELDS);
	if (!s) {
		selector_release(&sel);
		return -1;
	}
	while ((rc = step_row(st, s, "select runs")) > 0) {
		int64_t started = col_i64(s, 1);
		const char *v[SEL_NR] = {
			[SEL_KERNEL] = (const char *)sqlite3_column_text(s, 3),
			[SEL_HOST] = (const char *)sqlite3_column_text(s, 2),
			[SEL_VERSION] = (const char *)sqlite3_column_text(s, 4),
			[SEL_TAG] = (const char *)sqlite3_column_text(s, 5),
		};
		bool ok = (!sel.since || started >= sel.since) &&
			  (!sel.until || started <= sel.until);

		for (int k = 0; k < SEL_NR && ok; k++)
			ok = glob_ok(sel.glob[k], v[k]);
		if (!ok)
			continue;
		ALLOC_GROW(*ids, *nr + 1, alloc);
		(*ids)[(*nr)++] = col_i64(s, 0);
	}
	sqlite3_reset(s);
	selector_release(&sel);
	if (rc < 0) {
		free(*ids);
		*ids = NULL;
		*nr = 0;
		return -1;
	}
	return 0;
}

int store_run_exists(struct store *st, int64_t id, bool *exists)
{
	sqlite3_stmt *s = stmt_get(st, S_RUN_UUID);
	int rc;

	*exists = false;
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	rc = step_row(st, s, "find a run");
	*exists = rc > 0;
	sqlite3_reset(s);
	return rc < 0 ? -1 : 0;
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
