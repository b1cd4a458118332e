/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * schema.c - the store's schema: its tables (schema, schema_vN), its
 * version and the migrations between versions, and opening a database
 * (creating, migrating, or read-only with the version guard).
 * New tables: add a schema_vN below, its line in migrations[] and bump
 * STORE_SCHEMA_VERSION: the one place the version lives.
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
 * workload keeps with its run: fio's job file and its JSON output);
 * 9 adds hists (every phase's latency histograms, whole); 10 adds
 * stalls and series (a phase's stall list and completions per interval).
 * Older databases are
 * migrated forward in place by schema_init(), one step at a time, each
 * step only adding tables, so an old fslab's rows stay as they were.
 */
#define STORE_SCHEMA_VERSION 10
#define STORE_BUSY_TIMEOUT_MS 30000

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

/*
 * Version 9: a phase's latency histograms, whole (struct hist_rec): one
 * row per op class (op: the latency prefix, '' for none; unit of the
 * values, 'ns'), the bucket scheme's bucket count (a store read by an
 * fslab of another scheme is refused, never misread), the exact count,
 * sum, min and max, and the buckets as a blob (store/histblob.h).
 */
static const char schema_v9[] =
	"CREATE TABLE hists ("
	" phase_id INTEGER NOT NULL REFERENCES phases(id) ON DELETE CASCADE,"
	" op TEXT NOT NULL, unit TEXT NOT NULL,"
	" nr_buckets INTEGER NOT NULL, count INTEGER NOT NULL,"
	" sum INTEGER NOT NULL, min INTEGER NOT NULL, max INTEGER NOT NULL,"
	" buckets BLOB NOT NULL,"
	" UNIQUE (phase_id, op));";

/*
 * Version 10: a phase's stalls (phase/stall.h), the first 1000 in order
 * (the "stalls" metric counts all), one row each, in integer ns as
 * measured: few, and a row each lets SQL ask which phases stalled for
 * over a second.  And its completions per interval_ns from its start:
 * one row per phase with the counts as a blob (store/histblob.h), as an
 * hour of 100 ms intervals is 36,000 counts, too many for a row each;
 * total counts every completion, beyond the bounded series too.
 */
static const char schema_v10[] =
	"CREATE TABLE stalls ("
	" phase_id INTEGER NOT NULL REFERENCES phases(id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, start_ns INTEGER NOT NULL,"
	" len_ns INTEGER NOT NULL, PRIMARY KEY (phase_id, seq));"
	"CREATE TABLE series ("
	" phase_id INTEGER PRIMARY KEY REFERENCES phases(id)"
	" ON DELETE CASCADE, what TEXT NOT NULL, interval_ns INTEGER NOT NULL,"
	" nr INTEGER NOT NULL, total INTEGER NOT NULL, counts BLOB NOT NULL);";

/* migrations[v] takes a version-v database to version v + 1. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	[1] = schema_v2,
	[2] = schema_v3,
	[3] = schema_v4,
	[4] = schema_v5,
	[5] = schema_v6,
	[6] = schema_v7,
	[7] = schema_v8,
	[8] = schema_v9,
	[9] = schema_v10,
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
