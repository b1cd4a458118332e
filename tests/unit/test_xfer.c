/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_xfer.c - export and import: a run with every kind of record goes
 * through a file (plain and gzip) into another store and reads back the
 * same, field for field in the canonical form; importing again adds
 * nothing; a truncated or altered file, or a conflicting run, imports
 * nothing; the SHA-256 of the checksum against FIPS 180-4's examples;
 * selectors by kernel, host and date.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/result.h"
#include "stats/lathist.h"
#include "store/store.h"
#include "util/sha256.h"
#include "util/util.h"
#include "xfer/internal.h"
#include "xfer/xfer.h"

static char dir[4096];

static char *path(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/fslab-test-xfer-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	(void)state;
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	free(cmd);
	return 0;
}

/* A latency histogram of 300 seeded samples, one near 2^64. */
static void add_hist(struct phase_rec *p, uint64_t seed)
{
	struct lathist *h = xmalloc(sizeof(*h));

	lathist_init(h);
	for (uint64_t i = 0; i < 299; i++)
		lathist_add(h, 1000 + (seed * 2654435761u + i * 40503u) %
				   9000000);
	lathist_add(h, UINT64_MAX - 5);
	phase_rec_add_latency(p, "create", h);
	free(h);
}

/* A finished run in st with two targets, a trace sample, workers. */
static int64_t make_run(struct store *st, const char *kernel,
			int64_t started, double v)
{
	struct run_rec *r = run_rec_begin("fslab run -t ext4", "night", 7);
	int64_t id;

	free(r->kernel);
	r->kernel = xstrdup(kernel);
	r->started = started;
	r->seed = UINT64_MAX - 1; /* above INT64_MAX: must survive */
	r->target_order = xstrdup("balanced");
	assert_int_equal(store_run_begin(st, r), 0);
	for (int t = 0; t < 2; t++) {
		struct target_rec *tr = run_rec_new_target(r);
		struct wlrun_rec *w = run_rec_new_wlrun(r);
		struct phase_rec *p = wlrun_rec_new_phase(w);

		tr->idx = t;
		tr->name = xstrdup(t ? "xfs" : "ext4");
		tr->fstype = xstrdup(tr->name);
		tr->mount_opts = xstrdup("noatime,commit=5\\,x");
		tr->mkfs_version = xstrdup("mke2fs 1.47.0");
		tr->size = 1ULL << 33;
		assert_int_equal(store_target_add(st, r->id, tr), 0);
		w->target_id = tr->id;
		w->target_idx = t;
		w->workload = xstrdup("metadata");
		w->options = xstrdup("files=300,sync=fsync");
		w->pos = 1 - t;
		assert_int_equal(store_wlrun_begin(st, r->id, w), 0);
		p->name = xstrdup("create");
		p->m.wall_ns = 123456789;
		p->m.sys_busy_pct = t ? -1 : 12.5;
		p->files = 300;
		phase_rec_add_metric(p, "files/s", v * (t + 1), "files/s",
				     BETTER_HIGHER);
		phase_rec_add_metric(p, "nothing", NAN, NULL, BETTER_NONE);
		phase_rec_add_metric(p, "tiny_s", 1e-300 / 3, "s",
				     BETTER_LOWER);
		p->workers = xcalloc(1, sizeof(*p->workers));
		p->nr_workers = p->alloc_workers = 1;
		p->workers[0].end_ns = 99;
		p->workers[0].files = 300;
		p->rqs = xcalloc(2, sizeof(*p->rqs));
		p->nr_rqs = 2;
		p->rqs_total = 5;
		p->rqs[0] = (struct rq_sample){ 1, 2048, 4096, 'W' };
		p->rqs[1] = (struct rq_sample){ 2, 8, 512, 'R' };
		add_hist(p, (uint64_t)started + (uint64_t)t);
		assert_int_equal(store_phase_add(st, w->id, p), 0);
		assert_int_equal(store_wlrun_finish(st, w->id, "complete"), 0);
	}
	assert_int_equal(store_run_finish(st, r->id, "complete", r->started + 60), 0);
	id = r->id;
	run_rec_free(r);
	return id;
}

static char *canonical(struct store *st, int64_t id)
{
	struct run_rec *r;
	char *c;

	assert_int_equal(store_load_run(st, id, &r), 0);
	c = xfer_run_canonical(r);
	run_rec_free(r);
	return c;
}

static int count_runs(struct store *st)
{
	int64_t *ids;
	size_t n;

	assert_int_equal(store_select_runs(st, "since=@0", &ids, &n), 0);
	free(ids);
	return (int)n;
}

static void test_round_trip(void **state)
{
	char *a_db = path("a.db"), *b_db = path("b.db");
	char *gz = path("e.json.gz"), *plain = path("e.json");
	struct store *a, *b;
	struct run_rec *runs[2];
	struct xfer_stats stats;
	const char *files[1];
	int64_t ids[2], id;
	(void)state;

	assert_int_equal(store_open(a_db, &a), 0);
	ids[0] = make_run(a, "6.1.0 #1", 1700000000, 1000);
	ids[1] = make_run(a, "6.6.3 #1", 1700086400, 900);
	for (int i = 0; i < 2; i++)
		assert_int_equal(store_load_run(a, ids[i], &runs[i]), 0);
	assert_int_equal(xfer_export(gz, runs, 2), 0);
	assert_int_equal(xfer_export(plain, runs, 2), 0);
	assert_int_equal(store_open(b_db, &b), 0);
	files[0] = gz;
	assert_int_equal(xfer_import(b, files, 1, &stats), 0);
	assert_int_equal(stats.added, 2);
	assert_int_equal(stats.present, 0);
	for (int i = 0; i < 2; i++) {
		char *ca = canonical(a, ids[i]), *cb;
		struct run_rec *r;

		assert_int_equal(store_run_by_uuid(b, runs[i]->uuid, &id), 0);
		assert_true(id > 0);
		cb = canonical(b, id);
		assert_string_equal(ca, cb);
		assert_int_equal(store_load_run(b, id, &r), 0);
		assert_non_null(r->source_host);
		assert_int_equal(r->seed, UINT64_MAX - 1);
		assert_true(isnan(r->wlruns[0].phases[0].metrics[1].value));
		assert_true(r->wlruns[0].phases[0].metrics[2].value ==
			    1e-300 / 3);
		assert_int_equal(r->wlruns[0].phases[0].nr_rqs, 2);
		assert_int_equal(r->wlruns[0].phases[0].rqs_total, 5);
		/* the histogram bucket for bucket */
		{
			const struct hist_rec *x = &runs[i]->wlruns[0].phases[0]
							  .hists[0];
			const struct hist_rec *y = phase_rec_hist(
				&r->wlruns[0].phases[0], "create");

			assert_non_null(y);
			assert_true(y->count == 300 && x->count == 300);
			assert_true(y->sum == x->sum && y->max == x->max &&
				    y->min == x->min);
			assert_int_equal(y->first, x->first);
			assert_int_equal(y->nr, x->nr);
			assert_memory_equal(y->b, x->b, x->nr * sizeof(*x->b));
		}
		run_rec_free(r);
		free(ca);
		free(cb);
	}
	/* Again, and the plain copy: nothing new. */
	files[0] = plain;
	assert_int_equal(xfer_import(b, files, 1, &stats), 0);
	assert_int_equal(stats.added, 0);
	assert_int_equal(stats.present, 2);
	assert_int_equal(count_runs(b), 2);
	for (int i = 0; i < 2; i++)
		run_rec_free(runs[i]);
	store_close(a);
	store_close(b);
	free(a_db);
	free(b_db);
	free(gz);
	free(plain);
}

static void write_text(const char *p, const char *s, size_t len)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "r");
	char *s = xcalloc(1 << 20, 1);

	assert_non_null(f);
	*len = fread(s, 1, (1 << 20) - 1, f);
	fclose(f);
	return s;
}

/* A histogram of another bucket scheme is refused, never misread. */
static void test_other_scheme(void **state)
{
	char *db = path("scheme.db");
	struct store *st;
	struct run_rec *r, *back;
	const char *why = NULL;
	json_t *j, *h;
	(void)state;

	assert_int_equal(store_open(db, &st), 0);
	assert_int_equal(store_load_run(st, make_run(st, "6.1", 1700000000,
						     10), &r), 0);
	j = xfer_run_json(r, true);
	back = xfer_run_read(j, &why);
	assert_non_null(back);
	run_rec_free(back);
	h = json_array_get(json_object_get(json_array_get(json_object_get(
		json_array_get(json_object_get(j, "wlruns"), 0), "phases"), 0),
		"histograms"), 0);
	assert_non_null(h);
	json_object_set_new(h, "nr_buckets", json_integer(LATHIST_NR + 1));
	assert_null(xfer_run_read(j, &why));
	assert_non_null(strstr(why, "different"));
	json_object_set_new(h, "nr_buckets", json_integer(LATHIST_NR));
	json_object_set_new(h, "count", json_integer(301));
	assert_null(xfer_run_read(j, &why));
	assert_string_equal(why, "histograms");
	json_decref(j);
	run_rec_free(r);
	store_close(st);
	free(db);
}

static void test_refusals(void **state)
{
	char *src = path("s.db"), *dst = path("d.db"), *e = path("r.json");
	char *bad = path("bad.json");
	const char *files[2] = { e, bad };
	struct xfer_stats stats;
	struct run_rec *r;
	struct store *s, *d;
	char *text, *hit;
	size_t len;
	int64_t id;
	(void)state;

	assert_int_equal(store_open(src, &s), 0);
	id = make_run(s, "6.1.0 #1", 1700000000, 1000);
	assert_int_equal(store_load_run(s, id, &r), 0);
	assert_int_equal(xfer_export(e, &r, 1), 0);
	assert_int_equal(store_open(dst, &d), 0);
	text = slurp(e, &len);
	/* Truncated: a good file first, still nothing imported. */
	write_text(bad, text, len / 2);
	assert_int_equal(xfer_import(d, files, 2, &stats), -1);
	assert_int_equal(count_runs(d), 0);
	/* Altered: one digit of a figure. */
	hit = strstr(text, "123456789");
	assert_non_null(hit);
	hit[0] = '2';
	write_text(bad, text, len);
	assert_int_equal(xfer_import(d, files, 2, &stats), -1);
	assert_int_equal(count_runs(d), 0);
	hit[0] = '1';
	/* Conflict: the same id with other content in the store. */
	free(r->wlruns[0].phases[0].label);
	r->wlruns[0].phases[0].label = xstrdup("changed");
	assert_int_equal(store_run_import(d, r), 0);
	files[1] = NULL;
	assert_int_equal(xfer_import(d, files, 1, &stats), -1);
	assert_int_equal(count_runs(d), 1);
	run_rec_free(r);
	free(text);
	store_close(s);
	store_close(d);
	free(src);
	free(dst);
	free(e);
	free(bad);
}

static void test_selectors(void **state)
{
	char *db = path("sel.db");
	struct store *st;
	int64_t *ids, a, b, c, got;
	size_t n;
	(void)state;

	assert_int_equal(store_open(db, &st), 0);
	a = make_run(st, "6.1.0 #1", 1700000000, 1);     /* 2023-11-14 */
	b = make_run(st, "6.6.3 #1", 1700086400, 1);     /* 2023-11-15 */
	c = make_run(st, "6.6.9 #2", 1700172800, 1);     /* 2023-11-16 */
	assert_true(store_is_selector("kernel=6.6*"));
	assert_false(store_is_selector("night"));
	assert_int_equal(store_select_runs(st, "kernel=6.6*", &ids, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], b);
	assert_int_equal(ids[1], c);
	free(ids);
	assert_int_equal(store_select_runs(st, "kernel=6.*,until=@1700000000",
					   &ids, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], a);
	free(ids);
	assert_int_equal(store_select_runs(st, "host=no-such-host", &ids, &n),
			 0);
	assert_int_equal(n, 0);
	free(ids);
	assert_int_equal(store_select_runs(st, "since=2023-11-15T00:00,"
					   "until=2023-11-15", &ids, &n), 0);
	assert_true(n <= 2); /* local time: the edges move with TZ */
	free(ids);
	assert_int_equal(store_select_runs(st, "since=yesterday", &ids, &n),
			 -1);
	assert_int_equal(store_select_runs(st, "colour=blue", &ids, &n), -1);
	assert_int_equal(store_resolve_run(st, "kernel=6.6*", &got), 0);
	assert_int_equal(got, c);
	store_close(st);
	free(db);
}

/* FIPS 180-4 examples (NIST CSRC, SHA256.pdf). */
static void test_sha256(void **state)
{
	char out[65];
	(void)state;

	sha256_hex("abc", 3, out);
	assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223"
				 "b00361a396177a9cb410ff61f20015ad");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		   56, out);
	assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039"
				 "a33ce45964ff2167f6ecedd419db06c1");
	sha256_hex("", 0, out);
	assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb924"
				 "27ae41e4649b934ca495991b7852b855");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_other_scheme),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_selectors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
