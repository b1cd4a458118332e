/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist.c - the hists table: a phase's latency histograms written with
 * its metrics (insert.c's transaction), read back with its phase, and
 * merged over several phases (repetitions), exactly.
 */
#include "store/internal.h"

#include <stdlib.h>
#include <string.h>

#include "stats/lathist.h"
#include "store/histblob.h"
#include "util/util.h"

int insert_hists(struct store *st, int64_t phase_id,
		 const struct phase_rec *p)
{
	for (size_t i = 0; i < p->nr_hists; i++) {
		const struct hist_rec *h = &p->hists[i];
		sqlite3_stmt *s = stmt_get(st, S_HIST_INSERT);
		unsigned char *blob;
		size_t len;
		int rc = 0;

		if (!s)
			return -1;
		blob = histblob_encode(h, &len);
		rc |= sqlite3_bind_int64(s, 1, phase_id);
		rc |= bind_text(s, 2, h->op ? h->op : "");
		rc |= bind_text(s, 3, h->unit ? h->unit : "");
		rc |= sqlite3_bind_int64(s, 4, h->nr_buckets);
		rc |= bind_u64(s, 5, h->count);
		rc |= bind_u64(s, 6, h->sum);
		rc |= bind_u64(s, 7, h->min);
		rc |= bind_u64(s, 8, h->max);
		rc |= sqlite3_bind_blob(s, 9, blob, (int)len, free);
		if (rc != SQLITE_OK)
			return db_error(st, "bind a histogram");
		if (step_done(st, s, "insert a histogram"))
			return -1;
	}
	return 0;
}

/* One row into a new histogram of p: 0, or -1 after a message. */
static int hist_from_row(struct store *st, sqlite3_stmt *s,
			 struct phase_rec *p, int64_t phase_id)
{
	struct hist_rec h = { 0 };
	sqlite3_int64 nb = sqlite3_column_int64(s, 2);
	const void *blob = sqlite3_column_blob(s, 7);
	int len = sqlite3_column_bytes(s, 7);
	char why[200];

	h.op = col_text(s, 0);
	h.unit = col_text(s, 1);
	h.nr_buckets = nb < 0 || nb > UINT32_MAX ? UINT32_MAX : (uint32_t)nb;
	h.count = col_u64(s, 3);
	h.sum = col_u64(s, 4);
	h.min = col_u64(s, 5);
	h.max = col_u64(s, 6);
	if (!h.op)
		h.op = xstrdup("");
	if (!h.unit)
		h.unit = xstrdup("");
	if (histblob_decode(&h, blob, (size_t)len, why, sizeof(why))) {
		error("phase %lld's histogram '%s' in '%s': %s",
		      (long long)phase_id, h.op, st->path, why);
		hist_rec_release(&h);
		return -1;
	}
	phase_rec_copy_hist(p, &h);
	hist_rec_release(&h);
	return 0;
}

/* Into p (no histograms in a file older than version 9). */
static int read_hists(struct store *st, int64_t phase_id, struct phase_rec *p)
{
	sqlite3_stmt *s;
	int rc;

	if (st->version < 9)
		return 0;
	s = stmt_get(st, S_HIST_SELECT);
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, phase_id);
	while ((rc = step_row(st, s, "read histograms")) > 0)
		if (hist_from_row(st, s, p, phase_id)) {
			rc = -1;
			break;
		}
	sqlite3_reset(s);
	return rc < 0 ? -1 : 0;
}

int load_hists(struct store *st, struct phase_rec *p)
{
	return read_hists(st, p->id, p);
}

int store_hist_merge(struct store *st, const int64_t *phase_ids, size_t n,
		     const char *op, struct lathist *out, size_t *found)
{
	struct lathist *one = xmalloc(sizeof(*one));
	int rc = 0;

	lathist_init(out);
	*found = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct phase_rec p = { 0 };
		const struct hist_rec *h;

		rc = read_hists(st, phase_ids[i], &p);
		h = rc ? NULL : phase_rec_hist(&p, op);
		if (h) {
			if (hist_rec_to_lathist(h, one))
				BUG("a decoded histogram of another scheme");
			lathist_merge(out, one);
			(*found)++;
		}
		phase_rec_release(&p);
	}
	free(one);
	return rc;
}
