/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * query.c - the read path: loading a run and what is under it, listing
 * runs, resolving a run named on a command line.
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

/* ---- loading ---- */

/*
 * Step a SELECT: 1 for a row, 0 when done, -1 after a message.  Reads
 * only wait on a checkpoint or WAL recovery, so a short retry suffices.
 */
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

static enum phase_status phase_status_parse(const char *s)
{
	if (s && !strcmp(s, "failed"))
		return PHASE_FAILED;
	if (s && !strcmp(s, "interrupted"))
		return PHASE_INTERRUPTED;
	return PHASE_OK;
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
		    load_hists(st, &w->phases[i]) ||
		    load_stalls(st, &w->phases[i]) ||
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
