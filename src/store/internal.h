/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the store's files share and nothing outside
 * src/store/ includes: the connection, the statement ids and the SQL
 * helpers (sql.c).  The store is still the only module that speaks
 * SQL; store.h stays its interface.
 */
#ifndef FSLAB_STORE_INTERNAL_H
#define FSLAB_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

/* Beyond the busy handler: SQLite skips it in a few WAL cases. */
#define STORE_RETRY_NS (120ULL * 1000000000ULL)

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
	S_HIST_INSERT,
	S_HIST_SELECT,
	S_STALL_INSERT,
	S_STALL_SELECT,
	S_SERIES_INSERT,
	S_SERIES_SELECT,
	NR_STMTS
};

struct store {
	sqlite3 *db;
	char *path;
	int version;      /* of the file (read-only: as found) */
	bool outer_tx;    /* store_tx_begin(): one transaction for all */
	sqlite3_stmt *stmt[NR_STMTS];
};

/* sql.c: every function prints its message and returns -1 on failure. */
int db_error(struct store *st, const char *what);
sqlite3_stmt *stmt_get(struct store *st, enum stmt_id id);
int bind_text(sqlite3_stmt *s, int i, const char *v);
int bind_u64(sqlite3_stmt *s, int i, uint64_t v);
int bind_double(sqlite3_stmt *s, int i, double v);
char *col_text(sqlite3_stmt *s, int i);
double col_double(sqlite3_stmt *s, int i);
#define col_i64(s, i) ((int64_t)sqlite3_column_int64((s), (i)))
#define col_u64(s, i) ((uint64_t)sqlite3_column_int64((s), (i)))
int step_done(struct store *st, sqlite3_stmt *s, const char *what);
int tx_begin(struct store *st);
int tx_commit(struct store *st);
void tx_rollback(struct store *st);
int exec_retry(struct store *st, const char *sql, const char *what);
int query_int(struct store *st, const char *sql, int *out, int *rc_out);
/* query.c: step a SELECT: 1 for a row, 0 when done, -1 after a message. */
int step_row(struct store *st, sqlite3_stmt *s, const char *what);
/* hist.c: a phase's histograms, written and read. */
int insert_hists(struct store *st, int64_t phase_id,
		 const struct phase_rec *p);
int load_hists(struct store *st, struct phase_rec *p);
/* stalls.c: a phase's stall list and completion series. */
int insert_stalls(struct store *st, int64_t phase_id,
		  const struct phase_rec *p);
int load_stalls(struct store *st, struct phase_rec *p);

#endif
