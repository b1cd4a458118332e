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

/*
 * Schema versions: 1 the first; 2 adds trace_sample and trace_request
 * (the block-request sample of traced phases); 3 adds runs.target_order
 * and wlruns.pos (the counterbalanced order of the targets); 4 adds
 * wlrun_texts (texts a workload keeps with its run: fio's job file and
 * its JSON output).  Older databases are
 * migrated forward in place by schema_init(), one step at a time, each
 * step only adding tables, so an old fslab's rows stay as they were.
 */
#define STORE_SCHEMA_VERSION 4
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
 * Version 4: texts a workload keeps with a workload run, by name (fio's
 * "job.fio" and "fio.json:SECTION#REP"), so `show` prints what ran and a
 * figure can be checked against the tool's own output.
 */
static const char schema_v4[] =
	"CREATE TABLE wlrun_texts ("
	" wlrun_id INTEGER NOT NULL REFERENCES wlruns(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, content TEXT NOT NULL);"
	"CREATE INDEX wlrun_texts_wlrun ON wlrun_texts(wlrun_id);";

/* migrations[v] takes a version-v database to version v + 1. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	[1] = schema_v2,
	[2] = schema_v3,
	[3] = schema_v4,
};

enum stmt_id {
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_RUN_INSERT,
	S_RUN_FINISH,
	S_TARGET_INSERT,
	S_WLRUN_INSERT,
	S_WLRUN_FINISH,
	S_PHASE_INSERT,
	S_METRIC_INSERT,
	S_WORKER_INSERT,
	S_SAMPLE_INSERT,
	S_REQUEST_INSERT,
	S_RUN_SELECT,
	S_TARGET_SELECT,
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
	S_RUN_DELETE,
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
		" cmdline, seed, tag, status, pid, target_order)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)",
	[S_RUN_FINISH] =
		"UPDATE runs SET status = ?, finished = ? WHERE id = ?",
	[S_TARGET_INSERT] =
		"INSERT INTO targets (run_id, idx, rep, spec, name, kind,"
		" fstype, mkfs_opts, mount_opts, eff_mount_opts, device, uuid,"
		" mkfs_version, path, size)"
		" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[S_WLRUN_INSERT] =
		"INSERT INTO wlruns (run_id, target_id, workload, options,"
		" rep, status, pos) VALUES (?, ?, ?, ?, ?, 'running', ?)",
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
		" seed, tag, status, pid, target_order FROM runs WHERE id = ?",
	[S_TARGET_SELECT] =
		"SELECT id, idx, rep, spec, name, kind, fstype, mkfs_opts,"
		" mount_opts, eff_mount_opts, device, uuid, mkfs_version,"
		" path, size FROM targets WHERE run_id = ? ORDER BY id",
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
	[S_RUN_DELETE] = "DELETE FROM runs WHERE id = ?",
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
	int version;            /* schema version of the file as opened */
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

static int tx_begin(struct store *st)
{
	sqlite3_stmt *s = stmt_get(st, S_BEGIN);

	return s ? step_done(st, s, "begin a transaction") : -1;
}

static int tx_commit(struct store *st)
{
	sqlite3_stmt *s = stmt_get(st, S_COMMIT);

	return s ? step_done(st, s, "commit") : -1;
}

static void tx_rollback(struct store *st)
{
	sqlite3_stmt *s;

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
	if (rc != SQLITE_OK)
		return db_error(st, "bind the run");
	if (step_done(st, s, "insert the run"))
		return -1;
	r->id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

/* UPDATE ... SET status = ? [, x = ?] WHERE id = ?, which must hit a row. */
static int update_status(struct store *st, enum stmt_id id, int64_t row,
			 const char *status, const char *what)
{
	sqlite3_stmt *s = stmt_get(st, id);
	int rc = 0, where = id == S_RUN_FINISH ? 3 : 2;

	if (!s)
		return -1;
	rc |= bind_text(s, 1, status);
	if (id == S_RUN_FINISH)
		rc |= sqlite3_bind_int64(s, 2, (sqlite3_int64)time(NULL));
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

int store_run_finish(struct store *st, int64_t run_id, const char *status)
{
	return update_status(st, S_RUN_FINISH, run_id, status,
			     "update the run");
}

int store_wlrun_finish(struct store *st, int64_t wlrun_id, const char *status)
{
	return update_status(st, S_WLRUN_FINISH, wlrun_id, status,
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

		phase_rec_add_metric(p, name ? name : "", col_double(s, 1),
				     unit, better > 0 ? BETTER_HIGHER :
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

static int load_phases(struct store *st, struct wlrun_rec *w)
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
		    load_workers(st, &w->phases[i]) ||
		    load_sample(st, &w->phases[i]))
			return -1;
	return 0;
}

static int load_targets(struct store *st, struct run_rec *r)
{
	sqlite3_stmt *s = stmt_get(st, S_TARGET_SELECT);
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
	}
	sqlite3_reset(s);
	return rc;
}

/* A read-only file from before version 4 has no texts to read. */
static int load_texts(struct store *st, struct wlrun_rec *w)
{
	sqlite3_stmt *s;
	int rc;

	if (st->version < 4)
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

static int load_wlruns(struct store *st, struct run_rec *r, bool phases)
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
	if (rc < 0 || !phases)
		return rc;
	for (size_t i = 0; i < r->nr_wlruns; i++)
		if (load_phases(st, &r->wlruns[i]) ||
		    load_texts(st, &r->wlruns[i]))
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

static int load_run(struct store *st, int64_t run_id, bool phases,
		    struct run_rec **out)
{
	sqlite3_stmt *s = stmt_get(st, S_RUN_SELECT);
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
		if (!rc)
			error("no run '%lld' in '%s'", (long long)run_id,
			      st->path);
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
	sqlite3_reset(s);
	if (load_targets(st, r) || load_wlruns(st, r, phases)) {
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
	return load_run(st, run_id, true, out);
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
		if (load_run(st, ids[i], false, &runs[*nr]))
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

int store_resolve_run(struct store *st, const char *arg, int64_t *id)
{
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
	if (store_latest_run(st, arg, id))
		return -1;
	if (!*id)
		return error("no run '%s' in '%s'", arg, st->path);
	return 0;
}

const char *store_path(const struct store *st)
{
	return st->path;
}

int store_open_existing(const char *db, struct store **out)
{
	char *path = db ? xstrdup(db) : store_default_path();
	int rc;

	*out = NULL;
	/* Reading commands must not leave an empty database behind. */
	if (access(path, F_OK) < 0)
		rc = error("no results database at '%s'", path);
	else
		rc = store_open_readonly(path, out);
	free(path);
	return rc;
}
