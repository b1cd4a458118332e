/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_store.c - the results store: a full run written and read back
 * field by field, listing and deletion, refusal of foreign and future
 * databases, dead writers reading back "incomplete", and two processes
 * writing one database at once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/result.h"
#include "store/store.h"
#include "util/util.h"
#include "util/version.h"

struct fixture {
	char dir[4096];
	char *db;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");

	snprintf(f->dir, sizeof(f->dir), "%s/fslab-test-store-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	/* A directory that does not exist yet: store_open must make it. */
	f->db = xasprintf("%s/sub/dir/results.db", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *cmd = xasprintf("rm -rf '%s'", f->dir);

	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", f->dir);
	free(cmd);
	free(f->db);
	free(f);
	return 0;
}

static char *hostname(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		return xstrdup("localhost");
	return xstrdup(u.nodename);
}

static void fill_target(struct target_rec *t, int idx, const char *name)
{
	t->idx = idx;
	t->rep = 0;
	t->spec = xasprintf("loop:%s:1G", name);
	t->name = xstrdup(name);
	t->kind = xstrdup("loop");
	t->fstype = xstrdup(name);
	t->mkfs_opts = idx ? NULL : xstrdup("-O ^has_journal");
	t->mount_opts = xstrdup("noatime");
	t->eff_mount_opts = xstrdup("rw,noatime");
	t->device = xasprintf("/dev/loop%d", idx);
	t->uuid = xasprintf("uuid-%d", idx);
	t->mkfs_version = xstrdup("mke2fs 1.47.0");
	t->mkfs_cmd = xstrdup("mkfs.ext4 -q -F /dev/loop0");
	t->path = xasprintf("/mnt/fslab/%d", idx);
	t->size = (uint64_t)1 << 30;
}

static void fill_phase(struct phase_rec *p, int k)
{
	p->name = xasprintf("phase-%d", k);
	p->label = k % 2 ? NULL : xstrdup("kernel-3");
	p->m.start_ns = 1700000000000000000ULL + (uint64_t)k;
	p->m.wall_ns = 123456789ULL + (uint64_t)k;
	p->m.user_ns = 1000 + (uint64_t)k;
	p->m.sys_ns = 2000 + (uint64_t)k;
	p->m.sys_busy_pct = k % 2 ? -1 : 42.5;
	p->m.have_dev = k % 2 == 0;
	p->m.rd_ios = 10;
	p->m.rd_bytes = 4096;
	p->m.wr_ios = 20;
	p->m.wr_bytes = 8192;
	p->bytes = 1ULL << 33;
	p->files = 1000;
	p->ops = 5000;
	p->too_short = k == 1;
	p->status = k == 2 ? PHASE_FAILED : PHASE_OK;
	p->error = k == 2 ? xstrdup("no space left on device") : NULL;
	phase_rec_add_metric(p, "MiB/s", 98.25, "MiB/s", BETTER_HIGHER);
	phase_rec_add_metric(p, "sync_s", NAN, "s", BETTER_LOWER);
	phase_rec_add_metric(p, "dirs", 17, "files", BETTER_NONE);
	if (k == 0) {
		/* A traced phase: a thinned sample (3 of 5 requests). */
		static const struct rq_sample rqs[] = {
			{ 0, 2048, 4096, 'R' },
			{ 1500000, 1ULL << 40, 1 << 20, 'W' },
			{ 99000000000ULL, 8, 512, 'R' },
		};

		p->rqs = xcalloc(3, sizeof(*p->rqs));
		memcpy(p->rqs, rqs, sizeof(rqs));
		p->nr_rqs = 3;
		p->rqs_total = 5;
	}
}

static void add_worker(struct phase_rec *p, int n)
{
	struct worker_rec *w;

	ALLOC_GROW(p->workers, p->nr_workers + 1, p->alloc_workers);
	w = &p->workers[p->nr_workers++];
	w->worker = n;
	w->start_ns = 1700000000000000000ULL + (uint64_t)n;
	w->end_ns = w->start_ns + 1000;
	w->bytes = 100 + (uint64_t)n;
	w->files = 10 + (uint64_t)n;
	w->ops = 1 + (uint64_t)n;
}

/* Build and store a run like the runner does; returns it (caller frees). */
static struct run_rec *write_run(struct store *st, const char *tag,
				 int64_t started, int nr_phases, bool finish)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));

	r->started = started;
	r->host = hostname();
	r->kernel = xstrdup("6.1.0-test");
	r->version = xstrdup(FSLAB_VERSION);
	r->cmdline = xstrdup("fslab run -t loop:ext4 compilebench");
	r->tag = tag ? xstrdup(tag) : NULL;
	r->seed = UINT64_MAX - 5; /* above INT64_MAX: must survive */
	r->status = xstrdup("running");
	if (store_run_begin(st, r))
		goto fail;
	for (int i = 0; i < 2; i++) {
		struct target_rec *t = run_rec_new_target(r);

		fill_target(t, i, i ? "xfs" : "ext4");
		if (store_target_add(st, r->id, t))
			goto fail;
	}
	for (int i = 0; i < 2; i++) {
		struct wlrun_rec *w = run_rec_new_wlrun(r);

		w->target_idx = i;
		w->target_id = r->targets[i].id;
		w->workload = xstrdup("compilebench");
		w->options = xstrdup("initial-dirs=2,runs=1");
		w->rep = 0;
		w->status = xstrdup("running");
		if (store_wlrun_begin(st, r->id, w))
			goto fail;
		for (int k = 0; k < nr_phases; k++) {
			struct phase_rec *p = wlrun_rec_new_phase(w);

			fill_phase(p, k);
			if (k == 0) {
				add_worker(p, 0);
				add_worker(p, 1);
			}
			if (store_phase_add(st, w->id, p))
				goto fail;
		}
		if (finish) {
			free(w->status);
			w->status = xstrdup("complete");
			if (store_wlrun_finish(st, w->id, w->status))
				goto fail;
		}
	}
	if (finish) {
		free(r->status);
		r->status = xstrdup("complete");
		if (store_run_finish(st, r->id, r->status, 0))
			goto fail;
	}
	return r;
fail:
	run_rec_free(r);
	return NULL;
}

static void assert_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void check_target(const struct target_rec *a,
			 const struct target_rec *b)
{
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->idx, b->idx);
	assert_int_equal(a->rep, b->rep);
	assert_str(a->spec, b->spec);
	assert_str(a->name, b->name);
	assert_str(a->kind, b->kind);
	assert_str(a->fstype, b->fstype);
	assert_str(a->mkfs_opts, b->mkfs_opts);
	assert_str(a->mount_opts, b->mount_opts);
	assert_str(a->eff_mount_opts, b->eff_mount_opts);
	assert_str(a->device, b->device);
	assert_str(a->uuid, b->uuid);
	assert_str(a->mkfs_version, b->mkfs_version);
	assert_str(a->mkfs_cmd, b->mkfs_cmd);
	assert_str(a->path, b->path);
	assert_true(a->size == b->size);
}

static void check_phase(const struct phase_rec *a, const struct phase_rec *b)
{
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->seq, b->seq);
	assert_str(a->name, b->name);
	assert_str(a->label, b->label);
	assert_true(a->m.start_ns == b->m.start_ns);
	assert_true(a->m.wall_ns == b->m.wall_ns);
	assert_true(a->m.user_ns == b->m.user_ns);
	assert_true(a->m.sys_ns == b->m.sys_ns);
	if (a->m.sys_busy_pct < 0)
		assert_true(b->m.sys_busy_pct < 0);
	else
		assert_true(a->m.sys_busy_pct == b->m.sys_busy_pct);
	assert_int_equal(a->m.have_dev, b->m.have_dev);
	assert_true(a->m.rd_ios == b->m.rd_ios);
	assert_true(a->m.rd_bytes == b->m.rd_bytes);
	assert_true(a->m.wr_ios == b->m.wr_ios);
	assert_true(a->m.wr_bytes == b->m.wr_bytes);
	assert_true(a->bytes == b->bytes);
	assert_true(a->files == b->files);
	assert_true(a->ops == b->ops);
	assert_int_equal(a->too_short, b->too_short);
	assert_int_equal(a->status, b->status);
	assert_str(a->error, b->error);
	assert_int_equal(a->nr_metrics, b->nr_metrics);
	for (size_t i = 0; i < a->nr_metrics; i++) {
		const struct metric *x = &a->metrics[i], *y = &b->metrics[i];

		assert_string_equal(x->name, y->name);
		assert_string_equal(x->unit, y->unit);
		assert_int_equal(x->better, y->better);
		if (isnan(x->value))
			assert_true(isnan(y->value));
		else
			assert_true(x->value == y->value);
	}
	assert_int_equal(a->nr_rqs, b->nr_rqs);
	assert_true(a->rqs_total == b->rqs_total);
	for (size_t i = 0; i < a->nr_rqs; i++) {
		assert_true(a->rqs[i].t_ns == b->rqs[i].t_ns);
		assert_true(a->rqs[i].sector == b->rqs[i].sector);
		assert_int_equal(a->rqs[i].bytes, b->rqs[i].bytes);
		assert_int_equal(a->rqs[i].rw, b->rqs[i].rw);
	}
	assert_int_equal(a->nr_workers, b->nr_workers);
	for (size_t i = 0; i < a->nr_workers; i++) {
		const struct worker_rec *x = &a->workers[i];
		const struct worker_rec *y = &b->workers[i];

		assert_int_equal(x->worker, y->worker);
		assert_true(x->start_ns == y->start_ns);
		assert_true(x->end_ns == y->end_ns);
		assert_true(x->bytes == y->bytes);
		assert_true(x->files == y->files);
		assert_true(x->ops == y->ops);
	}
}

static void test_roundtrip(void **state)
{
	struct fixture *f = *state;
	struct store *st;
	struct run_rec *w, *r;

	assert_int_equal(store_open(f->db, &st), 0);
	w = write_run(st, "baseline", 1700000000, 4, true);
	assert_non_null(w);
	assert_true(w->id > 0);
	assert_true(w->wlruns[1].phases[3].id > 0);
	assert_int_equal(store_load_run(st, w->id, &r), 0);

	assert_int_equal(r->id, w->id);
	assert_int_equal(r->started, w->started);
	assert_true(r->finished >= w->started);
	assert_str(r->host, w->host);
	assert_str(r->kernel, w->kernel);
	assert_str(r->version, w->version);
	assert_str(r->cmdline, w->cmdline);
	assert_str(r->tag, w->tag);
	assert_true(r->seed == w->seed);
	assert_string_equal(r->status, "complete");
	assert_int_equal(r->nr_targets, 2);
	for (size_t i = 0; i < 2; i++)
		check_target(&r->targets[i], &w->targets[i]);
	assert_int_equal(r->nr_wlruns, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct wlrun_rec *a = &w->wlruns[i], *b = &r->wlruns[i];

		assert_int_equal(a->id, b->id);
		assert_int_equal(a->target_id, b->target_id);
		assert_int_equal(b->target_idx, (int)i);
		assert_ptr_equal(run_rec_target(r, b), &r->targets[i]);
		assert_str(a->workload, b->workload);
		assert_str(a->options, b->options);
		assert_int_equal(a->rep, b->rep);
		assert_str(a->status, b->status);
		assert_int_equal(a->nr_phases, b->nr_phases);
		for (size_t k = 0; k < a->nr_phases; k++)
			check_phase(&a->phases[k], &b->phases[k]);
	}
	/* The NaN came back as NaN, not 0. */
	assert_true(isnan(phase_rec_metric(&r->wlruns[0].phases[0],
					   "sync_s")->value));

	run_rec_free(r);
	run_rec_free(w);
	store_close(st);

	/* Reopening an existing database keeps its contents. */
	assert_int_equal(store_open(f->db, &st), 0);
	assert_int_equal(store_load_run(st, 1, &r), 0);
	assert_int_equal(r->nr_wlruns, 2);
	run_rec_free(r);
	assert_int_equal(store_load_run(st, 999, &r), -1);
	assert_null(r);
	store_close(st);
}

static void test_list_latest_delete(void **state)
{
	struct fixture *f = *state;
	struct store *st;
	struct run_rec **runs, *r, *a, *b, *c;
	size_t nr;
	int64_t id;

	assert_int_equal(store_open(f->db, &st), 0);
	assert_int_equal(store_list_runs(st, &runs, &nr), 0);
	assert_int_equal(nr, 0);
	free(runs);
	assert_int_equal(store_latest_run(st, NULL, &id), 0);
	assert_int_equal(id, 0);

	a = write_run(st, "x", 1000, 1, true);
	b = write_run(st, "y", 3000, 1, true);
	c = write_run(st, "x", 2000, 1, true);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);

	assert_int_equal(store_list_runs(st, &runs, &nr), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(runs[0]->id, b->id);
	assert_int_equal(runs[1]->id, c->id);
	assert_int_equal(runs[2]->id, a->id);
	/* Summaries: targets and wlruns, but no phases. */
	assert_int_equal(runs[0]->nr_targets, 2);
	assert_int_equal(runs[0]->nr_wlruns, 2);
	assert_int_equal(runs[0]->wlruns[0].nr_phases, 0);
	assert_string_equal(runs[0]->targets[1].name, "xfs");
	for (size_t i = 0; i < nr; i++)
		run_rec_free(runs[i]);
	free(runs);

	assert_int_equal(store_latest_run(st, NULL, &id), 0);
	assert_int_equal(id, b->id);
	assert_int_equal(store_latest_run(st, "x", &id), 0);
	assert_int_equal(id, c->id);
	assert_int_equal(store_latest_run(st, "nope", &id), 0);
	assert_int_equal(id, 0);

	assert_int_equal(store_delete_run(st, c->id), 0);
	assert_int_equal(store_delete_run(st, c->id), -1);
	assert_int_equal(store_load_run(st, c->id, &r), -1);
	assert_int_equal(store_latest_run(st, "x", &id), 0);
	assert_int_equal(id, a->id);
	assert_int_equal(store_list_runs(st, &runs, &nr), 0);
	assert_int_equal(nr, 2);
	for (size_t i = 0; i < nr; i++)
		run_rec_free(runs[i]);
	free(runs);
	store_close(st);

	/* The cascade took every row under the deleted run. */
	{
		sqlite3 *db;
		sqlite3_stmt *s;
		static const char *const q[] = {
			"SELECT count(*) FROM targets",
			"SELECT count(*) FROM wlruns",
			"SELECT count(*) FROM phases",
			"SELECT count(*) FROM metrics",
			"SELECT count(*) FROM workers",
		};
		static const int want[] = { 4, 4, 4, 12, 8 };

		assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
		for (size_t i = 0; i < ARRAY_SIZE(q); i++) {
			assert_int_equal(sqlite3_prepare_v2(db, q[i], -1, &s,
							    NULL), SQLITE_OK);
			assert_int_equal(sqlite3_step(s), SQLITE_ROW);
			assert_int_equal(sqlite3_column_int(s, 0), want[i]);
			sqlite3_finalize(s);
		}
		sqlite3_close(db);
	}
	run_rec_free(a);
	run_rec_free(b);
	run_rec_free(c);
}

static void test_newer_schema_refused(void **state)
{
	struct fixture *f = *state;
	struct store *st;
	sqlite3 *db;

	assert_int_equal(store_open(f->db, &st), 0);
	store_close(st);
	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL,
				      NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	st = (struct store *)1;
	assert_int_equal(store_open(f->db, &st), -1);
	assert_null(st);
}

static int sql_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int v = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}

/*
 * A version-1 database (what fslab wrote before trace samples) opens,
 * keeps its runs, is migrated in place (its runs getting their global
 * ids), and then takes phases with samples.  Version 1 is version 2 without the two trace
 * tables, so dropping them and the version makes one.
 */
static void test_old_schema_migrated(void **state)
{
	struct fixture *f = *state;
	struct store *st;
	struct run_rec *w, *r, *w2;
	sqlite3 *db;

	assert_int_equal(store_open(f->db, &st), 0);
	w = write_run(st, "old", 1700000000, 2, true);
	store_close(st);
	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE series;"
				      "DROP TABLE stalls;"
				      "DROP TABLE hists;"
				      "DROP TABLE wlrun_texts;"
				      "DROP TABLE run_facts;"
				      "DROP TABLE decisions;"
				      "ALTER TABLE runs DROP COLUMN until_rule;"
				      "ALTER TABLE runs DROP COLUMN decision;"
				      "ALTER TABLE runs DROP COLUMN"
				      " decision_reps;"
				      "DROP TABLE trace_request;"
				      "DROP TABLE trace_sample;"
				      "ALTER TABLE runs DROP COLUMN"
				      " target_order;"
				      "ALTER TABLE wlruns DROP COLUMN pos;"
				      "ALTER TABLE targets DROP COLUMN"
				      " mkfs_cmd;"
				      "DROP INDEX runs_uuid;"
				      "ALTER TABLE runs DROP COLUMN uuid;"
				      "ALTER TABLE runs DROP COLUMN"
				      " source_host;"
				      "PRAGMA user_version = 1", NULL, NULL,
				      NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(f->db, &st), 0);
	assert_int_equal(store_load_run(st, w->id, &r), 0);
	assert_int_equal(r->nr_wlruns, 2);
	/* The old rows have no sample (it was dropped with the table). */
	assert_int_equal(r->wlruns[0].phases[0].nr_rqs, 0);
	assert_true(r->wlruns[0].phases[0].rqs_total == 0);
	assert_string_equal(r->wlruns[0].phases[1].name, "phase-1");
	run_rec_free(r);
	w2 = write_run(st, "new", 1700000100, 1, true);
	/* Version 4's facts: stored and read back in order. */
	run_rec_add_fact(w2, "machine", "sysctl.vm.dirty_ratio", "20");
	run_rec_add_fact(w2, "target:0", "loop.dio", NULL);
	assert_int_equal(store_facts_add(st, w2->id, w2->facts,
					 w2->nr_facts), 0);
	assert_int_equal(store_load_run(st, w2->id, &r), 0);
	check_phase(&w2->wlruns[0].phases[0], &r->wlruns[0].phases[0]);
	assert_int_equal(r->nr_facts, 2);
	assert_string_equal(run_rec_fact(r, "machine",
					 "sysctl.vm.dirty_ratio"), "20");
	assert_string_equal(run_rec_fact(r, "target:0", "loop.dio"),
			    "absent");
	assert_null(run_rec_fact(r, "machine", "loop.dio"));
	run_rec_free(r);
	store_close(st);

	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sql_int(db, "PRAGMA user_version"), 10);
	/* Version 4's mkfs command: not recorded in the old rows. */
	{
		char q[96];

		snprintf(q, sizeof(q), "SELECT count(*) FROM targets WHERE"
			 " mkfs_cmd IS NULL AND run_id = %lld",
			 (long long)w->id);
		assert_int_equal(sql_int(db, q), 2);
	}
	/* Version 7: every run has its global id, old ones from the
	 * migration, all distinct, in the 8-4-4-4-12 form of version 4. */
	assert_int_equal(sql_int(db, "SELECT count(DISTINCT uuid) FROM runs"
				 " WHERE length(uuid) = 36 AND"
				 " substr(uuid, 15, 1) = '4' AND"
				 " substr(uuid, 20, 1) IN ('8','9','a','b')"),
			 2);
	/* Version 3's order columns: NULL (unknown) in the old rows. */
	{
		char q[96];

		snprintf(q, sizeof(q), "SELECT count(*) FROM wlruns WHERE"
			 " pos IS NULL AND run_id = %lld", (long long)w->id);
		assert_int_equal(sql_int(db, q), 2);
	}
	assert_int_equal(sql_int(db, "SELECT count(*) FROM trace_request"),
			 2 * 3); /* two wlruns, one sampled phase each */
	assert_int_equal(sql_int(db, "SELECT count(*) FROM trace_sample"
				 " WHERE thinned = 1 AND total = 5"
				 " AND stored = 3"), 2);
	sqlite3_close(db);
	/* Deleting the run takes its sample along. */
	assert_int_equal(store_open(f->db, &st), 0);
	assert_int_equal(store_delete_run(st, w2->id), 0);
	store_close(st);
	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sql_int(db, "SELECT count(*) FROM trace_request"),
			 0);
	sqlite3_close(db);
	run_rec_free(w);
	run_rec_free(w2);
}

static void test_not_a_database(void **state)
{
	struct fixture *f = *state;
	char *path = xasprintf("%s/notes.txt", f->dir), *other;
	struct store *st;
	FILE *fp = fopen(path, "w");
	sqlite3 *db;

	assert_non_null(fp);
	for (int i = 0; i < 100; i++)
		fputs("this is a text file, not a database\n", fp);
	fclose(fp);
	assert_int_equal(store_open(path, &st), -1);
	assert_null(st);

	/* An SQLite database of some other program is refused too. */
	other = xasprintf("%s/other.db", f->dir);
	assert_int_equal(sqlite3_open(other, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL,
				      NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(other, &st), -1);
	free(other);
	free(path);
}

static void test_dead_writer_incomplete(void **state)
{
	struct fixture *f = *state;
	struct store *st;
	struct run_rec *r, *mine, **runs;
	int64_t dead_id;
	size_t nr;
	int status;
	pid_t pid;

	assert_int_equal(store_open(f->db, &st), 0);
	store_close(st);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* Dies mid-run, leaving its rows "running". */
		if (store_open(f->db, &st))
			_exit(1);
		r = write_run(st, "dead", 5000, 2, false);
		store_close(st);
		_exit(r ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	assert_int_equal(store_open(f->db, &st), 0);
	assert_int_equal(store_latest_run(st, "dead", &dead_id), 0);
	assert_true(dead_id > 0);
	assert_int_equal(store_load_run(st, dead_id, &r), 0);
	assert_string_equal(r->status, "incomplete");
	assert_int_equal(r->nr_wlruns, 2);
	assert_string_equal(r->wlruns[0].status, "incomplete");
	assert_int_equal(r->wlruns[0].nr_phases, 2);
	run_rec_free(r);

	/*
	 * A run of a live process stays "running" (started now: a process
	 * younger than its run would be another one that reused the pid).
	 */
	mine = write_run(st, "alive", (int64_t)(realtime_ns() / 1000000000ULL),
			 1, false);
	assert_non_null(mine);
	assert_int_equal(store_load_run(st, mine->id, &r), 0);
	assert_string_equal(r->status, "running");
	assert_string_equal(r->wlruns[1].status, "running");
	run_rec_free(r);

	assert_int_equal(store_list_runs(st, &runs, &nr), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(runs[0]->status, "running");
	assert_string_equal(runs[1]->status, "incomplete");
	for (size_t i = 0; i < nr; i++)
		run_rec_free(runs[i]);
	free(runs);
	run_rec_free(mine);
	store_close(st);
}

#define CONC_PHASES 200

static void test_two_writers(void **state)
{
	struct fixture *f = *state;
	struct store *st;
	struct run_rec **runs, *r;
	pid_t pids[2];
	size_t nr;

	for (int i = 0; i < 2; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i])
			continue;
		/* Both open a database that may not exist yet: the schema
		 * creation races too. */
		if (store_open(f->db, &st))
			_exit(1);
		r = write_run(st, i ? "b" : "a", 7000 + i, CONC_PHASES, true);
		store_close(st);
		_exit(r ? 0 : 2);
	}
	for (int i = 0; i < 2; i++) {
		int status;

		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(store_open(f->db, &st), 0);
	assert_int_equal(store_list_runs(st, &runs, &nr), 0);
	assert_int_equal(nr, 2);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(store_load_run(st, runs[i]->id, &r), 0);
		assert_string_equal(r->status, "complete");
		assert_int_equal(r->nr_wlruns, 2);
		for (size_t k = 0; k < r->nr_wlruns; k++) {
			const struct wlrun_rec *w = &r->wlruns[k];

			assert_string_equal(w->status, "complete");
			assert_int_equal(w->nr_phases, CONC_PHASES);
			for (size_t p = 0; p < w->nr_phases; p++) {
				assert_int_equal(w->phases[p].seq, (int)p);
				assert_int_equal(w->phases[p].nr_metrics, 3);
			}
			assert_int_equal(w->phases[0].nr_workers, 2);
		}
		run_rec_free(r);
		run_rec_free(runs[i]);
	}
	free(runs);
	store_close(st);
}

static void test_default_path(void **state)
{
	char *old_xdg = getenv("XDG_DATA_HOME"), *old_home = getenv("HOME");
	char *x = old_xdg ? xstrdup(old_xdg) : NULL;
	char *h = old_home ? xstrdup(old_home) : NULL;
	char *p;

	(void)state;
	setenv("XDG_DATA_HOME", "/xdg/data", 1);
	p = store_default_path();
	assert_string_equal(p, "/xdg/data/fslab/results.db");
	free(p);
	/* A relative XDG_DATA_HOME is invalid per the spec: ignored. */
	setenv("XDG_DATA_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	p = store_default_path();
	assert_string_equal(p, "/home/u/.local/share/fslab/results.db");
	free(p);
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	p = store_default_path();
	assert_non_null(strstr(p, "/.local/share/fslab/results.db"));
	free(p);
	if (x)
		setenv("XDG_DATA_HOME", x, 1);
	if (h)
		setenv("HOME", h, 1);
	free(x);
	free(h);
}

/* --until decided: a look's state replaces the previous one. */
static void test_decisions(void **state)
{
	struct fixture *f = *state;
	struct store *st;
	struct run_rec *w, *r;
	struct decision_rec *d;

	assert_int_equal(store_open(f->db, &st), 0);
	w = write_run(st, "seq", 1700000000, 1, false);
	w->until_rule = xstrdup("decided");
	w->decision = xstrdup("undecided");
	w->decision_reps = 3;
	d = run_rec_new_decision(w);
	d->workload = xstrdup("metadata");
	d->phase = xstrdup("create");
	d->metric = xstrdup("files/s");
	d->label = xstrdup("sync");
	d->verdict = xstrdup("undecided");
	d->pct = -1.5;
	d->lo_pct = -9;
	d->hi_pct = 7;
	d->mdc_pct = 12;
	assert_int_equal(store_decisions_save(st, w), 0);
	/* the next look: decided, one record */
	free(w->decision);
	w->decision = xstrdup("decided");
	w->decision_reps = 4;
	free(w->decisions[0].verdict);
	w->decisions[0].verdict = xstrdup("REGRESSION");
	w->decisions[0].reps = 4;
	w->decisions[0].mdc_pct = NAN;
	assert_int_equal(store_decisions_save(st, w), 0);
	assert_int_equal(store_load_run(st, w->id, &r), 0);
	assert_string_equal(r->until_rule, "decided");
	assert_string_equal(r->decision, "decided");
	assert_int_equal(r->decision_reps, 4);
	assert_int_equal(r->nr_decisions, 1);
	assert_string_equal(r->decisions[0].verdict, "REGRESSION");
	assert_string_equal(r->decisions[0].label, "sync");
	assert_null(r->decisions[0].name);
	assert_int_equal(r->decisions[0].reps, 4);
	assert_true(r->decisions[0].pct == -1.5);
	assert_true(isnan(r->decisions[0].mdc_pct));
	run_rec_free(r);
	run_rec_free(w);
	store_close(st);
}

/* A version-3 file opened read-only is read as it is, not migrated. */
static void test_v3_read_only(void **state)
{
	struct fixture *f = *state;
	struct store *st;
	struct run_rec *w, *r;
	sqlite3 *db;

	assert_int_equal(store_open(f->db, &st), 0);
	w = write_run(st, "v3", 1700000000, 1, true);
	store_close(st);
	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "ALTER TABLE targets DROP COLUMN"
				      " mkfs_cmd; PRAGMA user_version = 3",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open_existing(f->db, &st), 0);
	assert_int_equal(store_load_run(st, w->id, &r), 0);
	assert_int_equal(r->nr_targets, 2);
	assert_null(r->targets[0].mkfs_cmd);
	assert_string_equal(r->targets[0].spec, w->targets[0].spec);
	run_rec_free(r);
	store_close(st);
	assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
	assert_int_equal(sql_int(db, "PRAGMA user_version"), 3);
	sqlite3_close(db);
	run_rec_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roundtrip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_list_latest_delete, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_newer_schema_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_schema_migrated,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_database, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dead_writer_incomplete,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_writers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_v3_read_only, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_decisions, setup,
						teardown),
		cmocka_unit_test(test_default_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
