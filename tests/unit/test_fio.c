/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fio.c - the fio workload's pure parts: job files (sections,
 * overrides, the root-safety scan) and fio's JSON, read from outputs the
 * installed fio 3.33 wrote (tests/data/fio/, several job shapes) and from
 * an fio 2.x document in that version's units (KiB, microseconds).  The
 * expected figures are the ones in those files, read by eye.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "workloads/fio/internal.h"

static char *data(const char *name, size_t *len)
{
	char *path = xasprintf("%s/fio/%s", FSLAB_TEST_DATA_DIR, name);
	char *s = read_file(path, len);

	assert_non_null(s);
	free(path);
	return s;
}

static void parse_file(const char *name, struct fio_result *r)
{
	size_t len;
	char *s = data(name, &len), err[256];

	assert_int_equal(fio_json_parse(s, len, r, err, sizeof(err)), 0);
	free(s);
}

static void test_sections_and_render(void **state)
{
	struct fio_jobfile jf;
	char err[256], *out;
	const char *ov[] = { "size=1m", "runtime=5", NULL };
	const char *text = "; a comment\n[global]\nbs=4k\n\n[seq]\nrw=write\n"
			   "[rand]\nrw=randread\nfilename=seq.0.0\n";

	(void)state;
	assert_int_equal(fio_jobfile_parse(text, &jf, err, sizeof(err)), 0);
	assert_int_equal(jf.nr_sections, 2);
	assert_string_equal(jf.sections[0].name, "seq");
	assert_string_equal(jf.sections[1].name, "rand");
	assert_int_equal(fio_jobfile_find(&jf, "rand"), 1);
	assert_int_equal(fio_jobfile_find(&jf, "global"), -1);
	assert_false(jf.has_verify);
	out = fio_jobfile_render(&jf, ov);
	/* The overrides close every job section, never [global]. */
	assert_string_equal(out, "; a comment\n[global]\nbs=4k\n\n[seq]\n"
			    "rw=write\nsize=1m\nruntime=5\n[rand]\n"
			    "rw=randread\nfilename=seq.0.0\nsize=1m\n"
			    "runtime=5\n");
	free(out);
	out = fio_jobfile_render(&jf, NULL);
	assert_string_equal(out, text + 0);
	free(out);
	fio_jobfile_release(&jf);
}

static void test_refused(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "[j]\nfilename=/dev/sda\n", "absolute path" },
		{ "[j]\nfilename=a:/etc/passwd\n", "absolute path" },
		{ "[j]\ndirectory=../..\n", "'..' component" },
		{ "[j]\nfilename=x/../../y\n", "'..' component" },
		{ "[j]\nfilename=${HOME}/x\n", "environment variable" },
		{ "[j]\nwrite_bw_log=/tmp/bw\n", "absolute path" },
		{ "[global]\nopendir=/\n[j]\n", "absolute path" },
		{ "[j]\nexec_prerun=rm -rf /\n", "shell command" },
		{ "[j]\nioscheduler=none\n", "scheduler" },
		{ "[j]\nioengine=external:/x.so\n", "other code" },
		{ "[j]\nioengine=exec\nprogram=/bin/true\n", "other code" },
		{ "include other.fio\n[j]\n", "include" },
		{ "rw=read\n[j]\n", "before any [section]" },
		{ "[global]\nbs=4k\n", "no job section" },
		{ "[j]\n[j]\n", "twice" },
		{ "[]\n", "needs a name" },
	};
	struct fio_jobfile jf;
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		assert_int_equal(fio_jobfile_parse(bad[i].text, &jf, err,
						   sizeof(err)), -1);
		if (!strstr(err, bad[i].want))
			fail_msg("'%s': got '%s', want '%s'", bad[i].text,
				 err, bad[i].want);
	}
	/* Lines are named: the second line here. */
	assert_int_equal(fio_jobfile_parse("[j]\nfilename=/x\n", &jf, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2"));
}

static void test_allowed(void **state)
{
	static const char *const good[] = {
		"[j]\nfilename=data\n",
		"[j]\nfilename=sub/dir/file:other\n",
		"[j]\nfilename=a\\:b\n",
		"[j]\nfilename_format=$jobname.$jobnum.$filenum\n",
		"[j]\ndirectory=.\n",
		"[j]\nfilename=..hidden\n",
		"[j]\nwrite_lat_log=lat\nioengine=libaio\n",
		"[j]\nverify=crc32c\n",
	};
	struct fio_jobfile jf;
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		if (fio_jobfile_parse(good[i], &jf, err, sizeof(err)) < 0)
			fail_msg("'%s' refused: %s", good[i], err);
		fio_jobfile_release(&jf);
	}
	assert_int_equal(fio_jobfile_parse(good[7], &jf, err, sizeof(err)), 0);
	assert_true(jf.has_verify);
	fio_jobfile_release(&jf);
}

static void test_two_sections(void **state)
{
	struct fio_result r;
	const struct fio_dirstat *w, *rd;

	(void)state;
	parse_file("two-sections-jsonplus.json", &r);
	assert_string_equal(r.version, "fio-3.33");
	assert_false(r.old_format);
	assert_int_equal(r.nr_jobs, 2);
	assert_string_equal(r.jobs[0].name, "seqwrite");
	assert_string_equal(r.jobs[1].name, "randread");
	w = &r.jobs[0].dir[FIO_WRITE];
	assert_int_equal(w->io_bytes, 4194304);
	assert_int_equal(w->total_ios, 1024);
	assert_true(w->bw_bytes == 381300363.0);
	assert_true(fabs(w->clat_p99_ns - 11200) < 1e-9);
	/* json+ bins: every completion is in the histogram. */
	assert_true(w->have_bins);
	assert_non_null(w->hist);
	assert_int_equal(w->hist->count, 1024);
	assert_int_equal(r.jobs[0].dir[FIO_READ].io_bytes, 0);
	rd = &r.jobs[1].dir[FIO_READ];
	assert_int_equal(rd->io_bytes, 4194304);
	assert_true(rd->bw_bytes == 82241254.0);
	assert_true(fabs(r.jobs[0].usr_cpu_pct - 10.0) < 1e-9);
	assert_true(r.disk_util_pct == 0.0);
	assert_int_equal(r.jobs[0].error, 0);
	fio_result_release(&r);
}

static void test_group_and_numjobs(void **state)
{
	struct fio_result r;

	(void)state;
	parse_file("group-reporting-jsonplus.json", &r);
	assert_int_equal(r.nr_jobs, 1);
	assert_string_equal(r.jobs[0].name, "writers");
	assert_int_equal(r.jobs[0].dir[FIO_WRITE].io_bytes, 4194304);
	assert_true(r.jobs[0].dir[FIO_WRITE].bw_bytes == 1398101333.0);
	fio_result_release(&r);

	/* numjobs=2 without group_reporting: one job, summed. */
	parse_file("numjobs2-jsonplus.json", &r);
	assert_int_equal(r.nr_jobs, 1);
	assert_int_equal(r.jobs[0].nr_merged, 2);
	assert_int_equal(r.jobs[0].dir[FIO_WRITE].io_bytes, 2097152);
	assert_int_equal(r.jobs[0].dir[FIO_WRITE].total_ios, 512);
	assert_true(r.jobs[0].dir[FIO_WRITE].bw_bytes == 1048576000.0);
	assert_int_equal(r.jobs[0].dir[FIO_WRITE].hist->count, 512);
	/* fio's per-job percentiles do not pool; the histogram does. */
	assert_true(isnan(r.jobs[0].dir[FIO_WRITE].clat_p99_ns));
	fio_result_release(&r);
}

static void test_mixed_verify_error(void **state)
{
	struct fio_result r;

	(void)state;
	parse_file("randrw-jsonplus.json", &r);
	assert_int_equal(r.jobs[0].dir[FIO_READ].io_bytes, 991232);
	assert_int_equal(r.jobs[0].dir[FIO_WRITE].io_bytes, 1105920);
	fio_result_release(&r);

	parse_file("verify-json.json", &r);
	assert_true(r.jobs[0].verify);
	/* plain json: no bins, fio's own percentiles */
	assert_false(r.jobs[0].dir[FIO_WRITE].have_bins);
	assert_null(r.jobs[0].dir[FIO_WRITE].hist);
	assert_true(fabs(r.jobs[0].dir[FIO_WRITE].clat_p99_ns - 28544) < 1e-9);
	fio_result_release(&r);

	parse_file("job-error-84.json", &r);
	assert_int_equal(r.jobs[0].error, 84);
	fio_result_release(&r);
}

static void test_old_format(void **state)
{
	struct fio_result r;
	const struct fio_dirstat *d;

	(void)state;
	parse_file("fio-2.2-json.json", &r);
	assert_true(r.old_format);
	assert_string_equal(r.version, "fio-2.2.10");
	d = &r.jobs[0].dir[FIO_READ];
	/* KiB and microseconds in fio 2.x */
	assert_int_equal(d->io_bytes, 65536ULL * 1024);
	assert_true(d->bw_bytes == 32768.0 * 1024);
	assert_true(fabs(d->clat_p99_ns - 400000) < 1e-6);
	assert_true(fabs(d->clat_p999_ns - 800000) < 1e-6);
	assert_true(fabs(d->clat_mean_ns - 120500) < 1e-6);
	assert_true(fabs(d->runtime_s - 2.0) < 1e-12);
	assert_true(fabs(r.disk_util_pct - 87.5) < 1e-12);
	fio_result_release(&r);
}

static void test_bad_json(void **state)
{
	struct fio_result r;
	char err[256];

	(void)state;
	assert_int_equal(fio_json_parse("fio: oops", 9, &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "no JSON"));
	assert_int_equal(fio_json_parse("{\"x\": 1}", 8, &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "jobs"));
	assert_int_equal(fio_json_parse("{\"jobs\": [", 10, &r, err,
					sizeof(err)), -1);
	assert_int_equal(fio_json_parse("{\"jobs\": []}", 12, &r, err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "no job"));
	/* A note before the JSON, as fio prints on some errors. */
	assert_int_equal(fio_json_parse("note\n{\"jobs\": [{\"jobname\": \"a\", "
					"\"read\": {}}]}", 47, &r, err,
					sizeof(err)), 0);
	assert_int_equal(r.nr_jobs, 1);
	fio_result_release(&r);
}

/*
 * fslab's histogram is fio's bucket scheme: each json+ bin (fio prints a
 * bucket's midpoint) lands alone in the bucket fio counted it in, with
 * fio's count, nothing is lost and the total is fio's clat_ns N.  The
 * bins are read here straight from the file, not through the parser.
 */
static void check_bins(const char *name, const char *dir, int d)
{
	size_t len;
	char *s = data(name, &len);
	json_t *root = json_loadb(s, len, 0, NULL), *clat, *bins, *v;
	struct fio_result r;
	const struct lathist *h;
	const char *key;
	uint64_t total = 0;
	size_t nonempty = 0;

	assert_non_null(root);
	parse_file(name, &r);
	h = r.jobs[0].dir[d].hist;
	assert_non_null(h);
	clat = json_object_get(json_object_get(json_array_get(
		json_object_get(root, "jobs"), 0), dir), "clat_ns");
	bins = json_object_get(clat, "bins");
	assert_true(json_object_size(bins) > 0);
	json_object_foreach(bins, key, v) {
		uint64_t ns = strtoull(key, NULL, 10);
		size_t idx = lathist_index(ns);

		assert_true(lathist_bucket_value(idx) == ns);
		assert_true(h->b[idx] == (uint64_t)json_integer_value(v));
		total += (uint64_t)json_integer_value(v);
	}
	for (size_t i = 0; i < LATHIST_NR; i++)
		nonempty += h->b[i] != 0;
	assert_int_equal(nonempty, json_object_size(bins));
	assert_true(total == h->count);
	assert_true(h->count ==
		    (uint64_t)json_integer_value(json_object_get(clat, "N")));
	fio_result_release(&r);
	json_decref(root);
	free(s);
}

static void test_bins_lossless(void **state)
{
	(void)state;
	check_bins("randrw-jsonplus.json", "read", FIO_READ);
	check_bins("randrw-jsonplus.json", "write", FIO_WRITE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins_lossless),
		cmocka_unit_test(test_sections_and_render),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_two_sections),
		cmocka_unit_test(test_group_and_numjobs),
		cmocka_unit_test(test_mixed_verify_error),
		cmocka_unit_test(test_old_format),
		cmocka_unit_test(test_bad_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
