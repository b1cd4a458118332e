/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_json.c - the JSON document of a run: parsed back with jansson to
 * check its version, nesting and null handling, and written to a file
 * atomically (no temp file left, trailing newline).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/json.h"
#include "measure/result.h"
#include "stats/lathist.h"
#include "util/util.h"
#include "util/version.h"

static struct run_rec *make_run(void)
{
	struct run_rec *r = xcalloc(1, sizeof(*r));
	struct target_rec *t;
	struct wlrun_rec *w;
	struct phase_rec *p;

	r->id = 7;
	r->started = 1700000000;   /* 2023-11-14T22:13:20Z */
	r->host = xstrdup("box");
	r->kernel = xstrdup("6.1.0");
	r->version = xstrdup(FSLAB_VERSION);
	r->cmdline = xstrdup("fslab run \"quoted\" \\ back\xff");
	r->seed = 42;
	r->status = xstrdup("incomplete");
	for (int i = 0; i < 2; i++) {
		t = run_rec_new_target(r);
		t->id = 10 + i;
		t->idx = i;
		t->name = xstrdup(i ? "xfs" : "ext4");
		t->fstype = xstrdup(t->name);
		t->kind = xstrdup(i ? "dir" : "loop");
		t->device = i ? NULL : xstrdup("/dev/loop0");
		t->path = xstrdup("/mnt");
		t->size = 8ULL << 30;
	}
	w = run_rec_new_wlrun(r);
	w->id = 3;
	w->target_id = 11;
	w->target_idx = 1;
	w->workload = xstrdup("compilebench");
	w->options = xstrdup("runs=1");
	w->status = xstrdup("interrupted");
	p = wlrun_rec_new_phase(w);
	p->name = xstrdup("initial-create");
	p->m.start_ns = 1700000000123456789ULL;
	p->m.wall_ns = 2500000000ULL;
	p->m.user_ns = 500000000ULL;
	p->m.sys_ns = 250000000ULL;
	p->m.sys_busy_pct = -1;
	p->m.have_dev = true;
	p->m.wr_bytes = 1 << 20;
	p->bytes = 1ULL << 34;
	phase_rec_add_metric(p, "MiB/s", 123.5, "MiB/s", BETTER_HIGHER);
	phase_rec_add_metric(p, "sync_s", NAN, "s", BETTER_LOWER);
	phase_rec_add_metric(p, "dirs", INFINITY, "files", BETTER_NONE);
	{
		/* below 64 ns every value has a bucket of its own */
		struct lathist *h = xmalloc(sizeof(*h));

		lathist_init(h);
		lathist_add_n(h, 10, 2);
		lathist_add_n(h, 20, 1);
		phase_rec_add_hist(p, NULL, h);
		free(h);
	}
	ALLOC_GROW(p->workers, 1, p->alloc_workers);
	p->workers[0].worker = 0;
	p->workers[0].end_ns = 99;
	p->nr_workers = 1;
	/* Traced: 2 of 7 requests sampled. */
	p->rqs = xcalloc(2, sizeof(*p->rqs));
	p->rqs[0] = (struct rq_sample){ 5, 2048, 4096, 'R' };
	p->rqs[1] = (struct rq_sample){ 1ULL << 40, 1ULL << 36, 1 << 20, 'W' };
	p->nr_rqs = 2;
	p->rqs_total = 7;
	p = wlrun_rec_new_phase(w);
	p->name = xstrdup("patch");
	p->status = PHASE_INTERRUPTED;
	p->error = xstrdup("interrupted by SIGINT");
	p->m.sys_busy_pct = 12.5;
	return r;
}

static void check_doc(json_t *root)
{
	json_t *run, *t, *w, *p, *m, *dev;

	assert_non_null(root);
	assert_int_equal(json_integer_value(json_object_get(root,
				"format_version")), FSLAB_JSON_FORMAT_VERSION);
	assert_string_equal(json_string_value(json_object_get(root,
				"fslab_version")), FSLAB_VERSION);
	run = json_object_get(root, "run");
	assert_true(json_is_object(run));
	assert_int_equal(json_integer_value(json_object_get(run, "id")), 7);
	assert_string_equal(json_string_value(json_object_get(run, "started")),
			    "2023-11-14T22:13:20Z");
	assert_int_equal(json_integer_value(json_object_get(run,
				"started_unix")), 1700000000);
	assert_true(json_is_null(json_object_get(run, "finished")));
	assert_true(json_is_null(json_object_get(run, "tag")));
	assert_int_equal(json_integer_value(json_object_get(run, "seed")), 42);
	/* Invalid UTF-8 is replaced (U+FFFD, util/jsonout.h), not fatal. */
	assert_string_equal(json_string_value(json_object_get(run, "cmdline")),
			    "fslab run \"quoted\" \\ back\xef\xbf\xbd");

	t = json_object_get(run, "targets");
	assert_int_equal(json_array_size(t), 2);
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(t, 1), "name")), "xfs");
	assert_true(json_is_null(json_object_get(json_array_get(t, 1),
						 "device")));
	assert_int_equal(json_integer_value(json_object_get(
				json_array_get(t, 0), "size")), 8LL << 30);

	w = json_object_get(run, "workloads");
	assert_int_equal(json_array_size(w), 1);
	w = json_array_get(w, 0);
	assert_string_equal(json_string_value(json_object_get(w, "workload")),
			    "compilebench");
	assert_int_equal(json_integer_value(json_object_get(w, "target")), 1);
	assert_string_equal(json_string_value(json_object_get(w, "status")),
			    "interrupted");

	p = json_object_get(w, "phases");
	assert_int_equal(json_array_size(p), 2);
	p = json_array_get(json_object_get(w, "phases"), 0);
	assert_int_equal(json_integer_value(json_object_get(p, "seq")), 0);
	assert_string_equal(json_string_value(json_object_get(p, "status")),
			    "ok");
	assert_true(json_is_null(json_object_get(p, "error")));
	assert_true(json_is_null(json_object_get(p, "label")));
	assert_true(json_is_null(json_object_get(p, "sys_busy_pct")));
	assert_true(json_integer_value(json_object_get(p, "start_ns")) ==
		    1700000000123456789LL);
	assert_true(fabs(json_real_value(json_object_get(p, "wall_s")) -
			 2.5) < 1e-9);
	assert_true(fabs(json_real_value(json_object_get(p, "user_s")) -
			 0.5) < 1e-9);
	assert_true(json_is_false(json_object_get(p, "too_short")));
	dev = json_object_get(p, "device");
	assert_true(json_is_object(dev));
	assert_int_equal(json_integer_value(json_object_get(dev, "wr_bytes")),
			 1 << 20);
	m = json_object_get(p, "metrics");
	assert_int_equal(json_array_size(m), 3);
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(m, 0), "unit")), "MiB/s");
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(m, 0), "better")), "higher");
	assert_true(json_real_value(json_object_get(json_array_get(m, 0),
						    "value")) == 123.5);
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(m, 1), "better")), "lower");
	assert_true(json_is_null(json_object_get(json_array_get(m, 1),
						 "value")));
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(m, 2), "better")), "none");
	assert_true(json_is_null(json_object_get(json_array_get(m, 2),
						 "value")));
	assert_int_equal(json_array_size(json_object_get(p, "workers")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
				json_object_get(p, "workers"), 0), "end_ns")),
			 99);

	/* the histogram: exact figures, non-empty buckets with edges */
	m = json_array_get(json_object_get(p, "histograms"), 0);
	assert_string_equal(json_string_value(json_object_get(m, "op")), "");
	assert_string_equal(json_string_value(json_object_get(m, "unit")),
			    "ns");
	assert_int_equal(json_integer_value(json_object_get(m, "count")), 3);
	assert_int_equal(json_integer_value(json_object_get(m, "min")), 10);
	assert_int_equal(json_integer_value(json_object_get(m, "max")), 20);
	assert_int_equal(json_integer_value(json_object_get(m, "sum")), 40);
	m = json_object_get(m, "buckets");
	assert_int_equal(json_array_size(m), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(m,
				0), "lo")), 10);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(m,
				0), "hi")), 10);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(m,
				0), "count")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(m,
				1), "lo")), 20);

	m = json_object_get(p, "trace_sample");
	assert_true(json_is_object(m));
	assert_int_equal(json_integer_value(json_object_get(m, "total")), 7);
	assert_int_equal(json_integer_value(json_object_get(m, "stored")), 2);
	assert_true(json_is_true(json_object_get(m, "thinned")));
	assert_string_equal(json_string_value(json_array_get(
				json_object_get(m, "columns"), 1)), "sector");
	m = json_object_get(m, "requests");
	assert_int_equal(json_array_size(m), 2);
	assert_true(json_integer_value(json_array_get(json_array_get(m, 1),
						      0)) == 1LL << 40);
	assert_true(json_integer_value(json_array_get(json_array_get(m, 1),
						      1)) == 1LL << 36);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(m,
				0), 2)), 4096);
	assert_string_equal(json_string_value(json_array_get(
				json_array_get(m, 1), 3)), "W");

	p = json_array_get(json_object_get(w, "phases"), 1);
	/* Untraced phases carry no sample key at all. */
	assert_null(json_object_get(p, "trace_sample"));
	assert_int_equal(json_array_size(json_object_get(p, "histograms")), 0);
	assert_string_equal(json_string_value(json_object_get(p, "status")),
			    "interrupted");
	assert_string_equal(json_string_value(json_object_get(p, "error")),
			    "interrupted by SIGINT");
	assert_true(json_is_null(json_object_get(p, "device")));
	assert_true(json_real_value(json_object_get(p, "sys_busy_pct")) ==
		    12.5);
}

static void test_dump(void **state)
{
	struct run_rec *r = make_run();
	char *s = json_dump_run(r);
	json_error_t err;
	json_t *root;

	(void)state;
	assert_non_null(s);
	assert_true(strlen(s) > 1 && s[strlen(s) - 1] == '\n');
	assert_non_null(strstr(s, "\n  \"run\": {"));  /* pretty-printed */
	/* Insertion order, not sorted: format_version comes first. */
	assert_true(!strncmp(s, "{\n  \"format_version\": 1,", 24));
	root = json_loads(s, 0, &err);
	check_doc(root);
	json_decref(root);
	free(s);
	run_rec_free(r);
}

static void test_big_seed(void **state)
{
	struct run_rec *r = make_run();
	char *s;
	json_t *root;

	(void)state;
	r->seed = UINT64_MAX;
	s = json_dump_run(r);
	root = json_loads(s, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(root, "run"), "seed")), "18446744073709551615");
	json_decref(root);
	free(s);
	run_rec_free(r);
}

static void test_write_file(void **state)
{
	char dir[] = "/tmp/fslab-test-json-XXXXXX";
	struct run_rec *r = make_run();
	char *path, *s;
	struct dirent *de;
	json_t *root;
	DIR *d;
	int n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/run.json", dir);
	assert_int_equal(json_write_run(r, path), 0);
	/* Replacing an existing file works too. */
	assert_int_equal(json_write_run(r, path), 0);
	s = read_file(path, NULL);
	assert_non_null(s);
	assert_true(s[strlen(s) - 1] == '\n');
	root = json_loads(s, 0, NULL);
	check_doc(root);
	json_decref(root);
	free(s);

	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	assert_int_equal(n, 1);  /* no temp file left behind */
	unlink(path);
	free(path);

	/* An unwritable place fails with a message, no crash. */
	path = xasprintf("%s/missing/run.json", dir);
	assert_int_equal(json_write_run(r, path), -1);
	free(path);
	rmdir(dir);
	run_rec_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_big_seed),
		cmocka_unit_test(test_write_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
