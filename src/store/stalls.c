/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stalls.c - the stalls and series tables: a phase's stall list and its
 * completions per interval, written with its metrics (insert.c's
 * transaction) and read back with its phase.
 */
#include "store/internal.h"

#include <stdlib.h>

#include "store/histblob.h"
#include "util/util.h"

static int insert_series(struct store *st, int64_t phase_id,
			 const struct phase_rec *p)
{
	sqlite3_stmt *s = stmt_get(st, S_SERIES_INSERT);
	unsigned char *blob;
	size_t len;
	int rc = 0;

	if (!s)
		return -1;
	blob = seriesblob_encode(p->series, p->nr_series, &len);
	rc |= sqlite3_bind_int64(s, 1, phase_id);
	rc |= bind_u64(s, 2, p->series_ns);
	rc |= bind_u64(s, 3, p->nr_series);
	rc |= bind_u64(s, 4, p->series_total);
	rc |= sqlite3_bind_blob(s, 5, blob, (int)len, free);
	if (rc != SQLITE_OK)
		return db_error(st, "bind a completion series");
	return step_done(st, s, "insert a completion series");
}

int insert_stalls(struct store *st, int64_t phase_id,
		  const struct phase_rec *p)
{
	for (size_t i = 0; i < p->nr_stall_list; i++) {
		sqlite3_stmt *s = stmt_get(st, S_STALL_INSERT);
		int rc = 0;

		if (!s)
			return -1;
		rc |= sqlite3_bind_int64(s, 1, phase_id);
		rc |= sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
		rc |= bind_u64(s, 3, p->stall_list[i].start_ns);
		rc |= bind_u64(s, 4, p->stall_list[i].len_ns);
		if (rc != SQLITE_OK)
			return db_error(st, "bind a stall");
		if (step_done(st, s, "insert a stall"))
			return -1;
	}
	/* A phase that reported no completions has no series row. */
	return p->series_ns ? insert_series(st, phase_id, p) : 0;
}

static int load_series(struct store *st, struct phase_rec *p)
{
	sqlite3_stmt *s = stmt_get(st, S_SERIES_SELECT);
	char why[200];
	int rc;

	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, p->id);
	rc = step_row(st, s, "read a completion series");
	if (rc > 0) {
		sqlite3_int64 nr = sqlite3_column_int64(s, 1);
		const void *blob = sqlite3_column_blob(s, 3);
		int len = sqlite3_column_bytes(s, 3);

		p->series_ns = col_u64(s, 0);
		p->series_total = col_u64(s, 2);
		if (nr < 0 || seriesblob_decode(blob, (size_t)len, (size_t)nr,
						p->series_total, &p->series,
						why, sizeof(why))) {
			rc = error("phase %lld's completion series in '%s': "
				   "%s", (long long)p->id, st->path,
				   nr < 0 ? "a negative length" : why);
			p->series_ns = 0;
		} else {
			p->nr_series = (size_t)nr;
			rc = 0;
		}
	}
	sqlite3_reset(s);
	return rc < 0 ? -1 : 0;
}

/* Into p (none in a file older than version 10). */
int load_stalls(struct store *st, struct phase_rec *p)
{
	sqlite3_stmt *s;
	size_t alloc = 0;
	int rc;

	if (st->version < 10)
		return 0;
	s = stmt_get(st, S_STALL_SELECT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, p->id);
	while ((rc = step_row(st, s, "read stalls")) > 0) {
		ALLOC_GROW(p->stall_list, p->nr_stall_list + 1, alloc);
		p->stall_list[p->nr_stall_list].start_ns = col_u64(s, 0);
		p->stall_list[p->nr_stall_list++].len_ns = col_u64(s, 1);
	}
	sqlite3_reset(s);
	if (rc < 0)
		return -1;
	return load_series(st, p);
}
