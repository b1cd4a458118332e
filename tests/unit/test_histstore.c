/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_histstore.c - latency histograms in the store (store/hist.c):
 * written with their phase and read back bucket for bucket, merged
 * exactly over several phases (repetitions) by store_hist_merge, and a
 * row of another bucket scheme or a damaged blob refused on load.
 * Also a phase's stall list and completion series (store/stalls.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/result.h"
#include "stats/lathist.h"
#include "store/store.h"
#include "util/splitmix.h"
#include "util/util.h"

#define NR_REPS 3

struct fixture {
	char dir[4096];
	char *db;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");

	snprintf(f->dir, sizeof(f->dir), "%s/fslab-test-histstore-XXXXXX",
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

static void fill(struct lathist *h, uint64_t seed, size_t n)
{
	lathist_init(h);
	for (size_t i = 0; i < n; i++) {
		uint64_t r = splitmix64(seed * 7919u + i);

		lathist_add(h, (uint64_t)1 << (10 + r % 20) | (r >> 44));
	}
}

static void assert_same(const struct lathist *a, const struct lathist *b)
{
	assert_true(a->count == b->count && a->sum == b->sum);
	assert_true(a->min == b->min && a->max == b->max);
	assert_memory_equal(a->b, b->b, sizeof(a->b));
}

/* A run of one workload run with NR_REPS phases, each a "read"
 * histogram of seed rep and (phase 0 only) an unprefixed one. */
static struct run_rec *write_run(struct store *st, struct lathist *h)
{
	struct run_rec *r = run_rec_begin("fslab run", "hist", 1);
	struct target_rec *t;
	struct wlrun_rec *w;

	assert_int_equal(store_run_begin(st, r), 0);
	t = run_rec_new_target(r);
	t->spec = xstrdup("dir:/tmp");
	t->name = xstrdup("tmp");
	assert_int_equal(store_target_add(st, r->id, t), 0);
	w = run_rec_new_wlrun(r);
	w->target_id = t->id;
	w->workload = xstrdup("ffsb");
	w->status = xstrdup("running");
	assert_int_equal(store_wlrun_begin(st, r->id, w), 0);
	for (int k = 0; k < NR_REPS; k++) {
		struct phase_rec *p = wlrun_rec_new_phase(w);

		p->name = xstrdup("ffsb");
		fill(h, (uint64_t)k + 1, 200 + 1000 * (size_t)k);
		phase_rec_add_latency(p, "read", h);
		if (!k)
			phase_rec_add_latency(p, NULL, h);
		assert_int_equal(store_phase_add(st, w->id, p), 0);
	}
	return r;
}

static void test_roundtrip_merge(void **state)
{
	struct fixture *f = *state;
	struct lathist *h = xmalloc(sizeof(*h)), *m = xmalloc(sizeof(*m));
	struct lathist *want = xmalloc(sizeof(*want));
	struct store *st;
	struct run_rec *w, *r;
	int64_t ids[NR_REPS];
	size_t found;

	assert_int_equal(store_open(f->db, &st), 0);
	w = write_run(st, h);
	assert_int_equal(store_load_run(st, w->id, &r), 0);
	lathist_init(want);
	for (int k = 0; k < NR_REPS; k++) {
		const struct phase_rec *a = &w->wlruns[0].phases[k];
		const struct phase_rec *b = &r->wlruns[0].phases[k];
		struct lathist *x = xmalloc(sizeof(*x));

		assert_int_equal(b->nr_hists, a->nr_hists);
		for (size_t i = 0; i < a->nr_hists; i++) {
			assert_string_equal(b->hists[i].op, a->hists[i].op);
			assert_string_equal(b->hists[i].unit, "ns");
			assert_int_equal(hist_rec_to_lathist(&a->hists[i], h), 0);
			assert_int_equal(hist_rec_to_lathist(&b->hists[i], x), 0);
			assert_same(h, x);
		}
		fill(h, (uint64_t)k + 1, 200 + 1000 * (size_t)k);
		lathist_merge(want, h);
		ids[k] = b->id;
		free(x);
	}
	/* merged over the repetitions = the pooled samples, exactly */
	assert_int_equal(store_hist_merge(st, ids, NR_REPS, "read", m, &found),
			 0);
	assert_int_equal(found, NR_REPS);
	assert_same(m, want);
	assert_int_equal(store_hist_merge(st, ids, NR_REPS, NULL, m, &found),
			 0);
	assert_int_equal(found, 1);
	assert_true(m->count == 200);
	assert_int_equal(store_hist_merge(st, ids, NR_REPS, "write", m,
					  &found), 0);
	assert_int_equal(found, 0);
	assert_true(m->count == 0);
	run_rec_free(r);
	run_rec_free(w);
	store_close(st);
	free(h);
	free(m);
	free(want);
}

static void damage(const char *db, const char *sql)
{
	sqlite3 *s;

	assert_int_equal(sqlite3_open(db, &s), SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		/* another bucket scheme: never read as this one */
		"UPDATE hists SET nr_buckets = nr_buckets + 64",
		/* a cut blob */
		"UPDATE hists SET buckets = substr(buckets, 1,"
		" length(buckets) - 1)",
		/* counts that do not add up */
		"UPDATE hists SET count = count + 1",
	};
	struct fixture *f = *state;
	struct lathist *h = xmalloc(sizeof(*h));
	struct store *st;
	struct run_rec *w, *r;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		unlink(f->db);
		assert_int_equal(store_open(f->db, &st), 0);
		w = write_run(st, h);
		store_close(st);
		damage(f->db, bad[i]);
		assert_int_equal(store_open_existing(f->db, &st), 0);
		assert_int_equal(store_load_run(st, w->id, &r), -1);
		assert_null(r);
		store_close(st);
		run_rec_free(w);
	}
	free(h);
}

/* A phase's stall list and completion series (store/stalls.c) read
 * back exactly; a cut series blob is refused. */
static void test_stalls(void **state)
{
	struct fixture *f = *state;
	struct lathist *h = xmalloc(sizeof(*h));
	struct store *st;
	struct run_rec *w, *r;
	struct phase_rec *p;
	const struct phase_rec *b;

	assert_int_equal(store_open(f->db, &st), 0);
	w = write_run(st, h);
	p = wlrun_rec_new_phase(&w->wlruns[0]);
	p->name = xstrdup("stalled");
	p->nr_stall_list = 3;
	p->stall_list = xcalloc(3, sizeof(*p->stall_list));
	for (size_t i = 0; i < 3; i++) {
		p->stall_list[i].start_ns = 1200000000ULL * (i + 1) + i;
		p->stall_list[i].len_ns = 457000000ULL + i;
	}
	p->series_ns = 100000000;
	p->nr_series = 36000;
	p->series = xcalloc(p->nr_series, sizeof(*p->series));
	for (size_t i = 0; i < p->nr_series; i++) {
		p->series[i] = (uint32_t)(splitmix64(i) % 300000);
		p->series_total += p->series[i];
	}
	p->series[7] = UINT32_MAX;
	p->series_total += UINT32_MAX + 5ULL;   /* 5 past the series */
	assert_int_equal(store_phase_add(st, w->wlruns[0].id, p), 0);
	assert_int_equal(store_load_run(st, w->id, &r), 0);
	b = &r->wlruns[0].phases[NR_REPS];
	assert_string_equal(b->name, "stalled");
	assert_int_equal(b->nr_stall_list, 3);
	assert_memory_equal(b->stall_list, p->stall_list,
			    3 * sizeof(*p->stall_list));
	assert_int_equal(b->series_ns, p->series_ns);
	assert_int_equal(b->series_total, p->series_total);
	assert_int_equal(b->nr_series, p->nr_series);
	assert_memory_equal(b->series, p->series,
			    p->nr_series * sizeof(*p->series));
	/* phases without any: none read back */
	assert_int_equal(r->wlruns[0].phases[0].nr_stall_list, 0);
	assert_int_equal(r->wlruns[0].phases[0].series_ns, 0);
	run_rec_free(r);
	store_close(st);
	damage(f->db, "UPDATE series SET counts = substr(counts, 1,"
	       " length(counts) - 1)");
	assert_int_equal(store_open_existing(f->db, &st), 0);
	assert_int_equal(store_load_run(st, w->id, &r), -1);
	store_close(st);
	run_rec_free(w);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_roundtrip_merge, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stalls, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
