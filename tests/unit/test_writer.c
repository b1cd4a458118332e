/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_writer.c - the run writer (src/store/writer.c): a run written
 * step by step reads back from the store as it was kept in memory; a
 * whole run handed over at once (the importer's way) reads back the
 * same, ids apart; without a database nothing is written but the run
 * is still kept; a discarded run leaves no row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/result.h"
#include "store/store.h"
#include "store/writer.h"
#include "util/util.h"

struct fixture {
	char dir[4096];
	char *db;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");

	snprintf(f->dir, sizeof(f->dir), "%s/fslab-test-writer-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	f->db = xasprintf("%s/results.db", f->dir);
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

static void fill_target(struct target_rec *t, int idx)
{
	t->idx = idx;
	t->spec = xasprintf("ext4:name=t%d", idx);
	t->name = xasprintf("t%d", idx);
	t->kind = xstrdup("loop");
	t->fstype = xstrdup("ext4");
	t->mkfs_cmd = xasprintf("mkfs.ext4 -q -F /dev/loop%d", idx);
	t->size = 1ULL << 30;
}

static void fill_phase(struct phase_rec *p, int k)
{
	p->name = xasprintf("phase%d", k);
	p->m.wall_ns = 1000000ULL * (uint64_t)(k + 1);
	p->bytes = 4096ULL * (uint64_t)k;
	p->files = (uint64_t)k;
	phase_rec_add_metric(p, "files/s", 10.0 * k, "files/s",
			     BETTER_HIGHER);
}

/* The same run, field by field where a reader looks. */
static void assert_same_run(const struct run_rec *a, const struct run_rec *b)
{
	assert_string_equal(a->status, b->status);
	assert_string_equal(a->cmdline, b->cmdline);
	assert_int_equal(a->finished, b->finished);
	assert_int_equal(a->nr_targets, b->nr_targets);
	for (size_t i = 0; i < a->nr_targets; i++) {
		assert_string_equal(a->targets[i].spec, b->targets[i].spec);
		assert_string_equal(a->targets[i].mkfs_cmd,
				    b->targets[i].mkfs_cmd);
	}
	assert_int_equal(a->nr_wlruns, b->nr_wlruns);
	for (size_t i = 0; i < a->nr_wlruns; i++) {
		const struct wlrun_rec *x = &a->wlruns[i], *y = &b->wlruns[i];

		assert_string_equal(x->workload, y->workload);
		assert_string_equal(x->status, y->status);
		assert_int_equal(x->target_idx, y->target_idx);
		assert_int_equal(x->nr_phases, y->nr_phases);
		for (size_t j = 0; j < x->nr_phases; j++) {
			assert_string_equal(x->phases[j].name,
					    y->phases[j].name);
			assert_int_equal(x->phases[j].seq, y->phases[j].seq);
			assert_int_equal(x->phases[j].bytes,
					 y->phases[j].bytes);
			assert_true(phase_rec_value(&x->phases[j], "files/s",
						    -1) ==
				    phase_rec_value(&y->phases[j], "files/s",
						    -2));
		}
	}
}

/* Two targets, a workload run on each with three phases. */
static int write_steps(struct run_writer *w, const char *db)
{
	if (writer_begin(w, db, run_rec_begin("fslab run -t ext4 -t xfs",
					       "wtest", 7)) < 0)
		return -1;
	for (int i = 0; i < 2; i++) {
		struct target_rec t = { 0 };

		fill_target(&t, i);
		if (writer_target(w, &t, NULL) < 0)
			return -1;
		assert_null(t.spec); /* moved into the run */
	}
	for (int i = 0; i < 2; i++) {
		struct wlrun_rec rec = { .pos = -1 }, *wr;

		rec.target_idx = i;
		rec.workload = xstrdup("compilebench");
		rec.options = xstrdup("runs=1");
		if (writer_wlrun_begin(w, &rec, &wr) < 0)
			return -1;
		assert_string_equal(wr->status, "running");
		assert_true(wr->target_id == w->run->targets[i].id);
		for (int k = 0; k < 3; k++) {
			struct phase_rec p = { 0 }, *out;

			fill_phase(&p, k);
			if (writer_phase(w, wr, &p, &out) < 0)
				return -1;
			assert_int_equal(out->seq, k);
			assert_true(!db || out->id > 0);
		}
		if (writer_wlrun_finish(w, wr, "complete") < 0)
			return -1;
	}
	return writer_finish(w, "complete");
}

static void test_steps_roundtrip(void **state)
{
	struct fixture *f = *state;
	struct run_writer w;
	struct store *st;
	struct run_rec *back;

	assert_int_equal(write_steps(&w, f->db), 0);
	assert_true(w.run->id > 0);
	assert_int_equal(store_open_existing(f->db, &st), 0);
	assert_int_equal(store_load_run(st, w.run->id, &back), 0);
	assert_same_run(w.run, back);
	run_rec_free(back);
	store_close(st);
	writer_close(&w);
}

static void test_whole_run_import(void **state)
{
	struct fixture *f = *state;
	struct run_writer w;
	struct store *st;
	struct run_rec *back, *again;
	int64_t first;

	assert_int_equal(write_steps(&w, f->db), 0);
	first = w.run->id;
	writer_close(&w);
	assert_int_equal(store_open(f->db, &st), 0);
	assert_int_equal(store_load_run(st, first, &back), 0);
	/* The same run (its global id) twice in one store is refused. */
	assert_int_equal(writer_write_run(st, back), -1);
	store_close(st);
	/* Written whole into another store, as an importer does: a new
	 * row, equal, under the same global id. */
	{
		char *db2 = xasprintf("%s.2", f->db);

		assert_int_equal(store_open(db2, &st), 0);
		back->id = 0;
		assert_int_equal(writer_write_run(st, back), 0);
		assert_int_equal(store_load_run(st, back->id, &again), 0);
		assert_same_run(back, again);
		assert_string_equal(back->uuid, again->uuid);
		run_rec_free(again);
		store_close(st);
		unlink(db2);
		free(db2);
	}
	run_rec_free(back);
}

static void test_memory_only(void **state)
{
	struct fixture *f = *state;
	struct run_writer w;

	assert_int_equal(write_steps(&w, NULL), 0);
	assert_null(w.st);
	assert_int_equal(w.run->nr_wlruns, 2);
	assert_int_equal(w.run->wlruns[1].nr_phases, 3);
	assert_string_equal(w.run->status, "complete");
	assert_true(w.run->finished > 0);
	writer_close(&w);
	assert_int_equal(access(f->db, F_OK), -1);
}

static void test_discard(void **state)
{
	struct fixture *f = *state;
	struct run_writer w;
	struct store *st;
	struct run_rec *back;
	int64_t id;

	assert_int_equal(writer_begin(&w, f->db, run_rec_begin("fslab run",
								NULL, 0)),
			 0);
	id = w.run->id;
	assert_int_equal(writer_discard(&w, "failed"), 0);
	assert_string_equal(w.run->status, "failed");
	assert_true(w.run->finished > 0);
	writer_close(&w);
	assert_int_equal(store_open_existing(f->db, &st), 0);
	assert_int_equal(store_load_run(st, id, &back), -1);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_steps_roundtrip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_whole_run_import, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_memory_only, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_discard, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
