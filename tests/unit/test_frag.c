/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_frag.c - the survey's pure parts: size bins at every edge, run
 * counting against filefrag's rule (holes, physically adjacent but
 * logically apart, unwritten and delalloc extents), the layout score on
 * synthetic extent lists, the worst-N heap, the JSON shape, and a small
 * walk of a real temporary tree.
 */
#include <fcntl.h>
#include <jansson.h>
#include <linux/fiemap.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "frag/frag.h"
#include "frag/text.h"
#include "util/util.h"

#define K 1024ULL
#define M (1024ULL * K)
#define G (1024ULL * M)

static void label_of(const struct frag_bins *b, uint64_t size, char *buf,
		     size_t len)
{
	size_t i = frag_bin_of(b, size);
	char lab[48];

	frag_bin_label(b, i, lab, sizeof(lab));
	snprintf(buf, len, "%s%s", frag_bin_group(b, i), lab);
}

static void test_bins_edges(void **state)
{
	static const struct {
		uint64_t size;
		const char *want;
	} cases[] = {
		{ 0, "B[0,100)" }, { 99, "B[0,100)" }, { 100, "B[100,200)" },
		{ 899, "B[800,900)" }, { 900, "B[900,1024)" },
		{ 1023, "B[900,1024)" }, { 1024, "K[1,2)" },
		{ 2047, "K[1,2)" }, { 2048, "K[2,3)" },
		{ 6 * K - 1, "K[5,6)" }, { 6 * K, "K[6,10)" },
		{ 10 * K, "K[10,20)" }, { 60 * K, "K[60,100)" },
		{ 100 * K - 1, "K[60,100)" }, { 100 * K, "K[100,1024)" },
		{ M - 1, "K[100,1024)" }, { M, "M[1,10)" },
		{ 10 * M - 1, "M[1,10)" }, { 10 * M, "M[10,100)" },
		{ 100 * M, "M[100,1024)" }, { G - 1, "M[100,1024)" },
		{ G, "G[1,10)" }, { 10 * G, "G[10,100)" },
		{ 100 * G, "G[100,inf)" }, { UINT64_MAX, "G[100,inf)" },
	};
	struct frag_bins b;
	char got[64];
	(void)state;

	frag_bins_default(&b);
	assert_int_equal(b.nr, 29);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		label_of(&b, cases[i].size, got, sizeof(got));
		if (strcmp(got, cases[i].want))
			fail_msg("size %llu: got %s, want %s",
				 (unsigned long long)cases[i].size, got,
				 cases[i].want);
	}
}

static void test_bins_parse(void **state)
{
	struct frag_bins b;
	char err[128], got[64];
	(void)state;

	assert_int_equal(frag_bins_parse("4k,1M,1500", &b, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "increase"));
	assert_int_equal(frag_bins_parse("4k,x", &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'x'"));
	assert_int_equal(frag_bins_parse("0,4k,1500k,1G", &b, err,
					 sizeof(err)), 0);
	assert_int_equal(b.nr, 4);
	label_of(&b, 4095, got, sizeof(got));
	assert_string_equal(got, "B[0,4096)");
	label_of(&b, 4096, got, sizeof(got));
	assert_string_equal(got, "K[4,1500)");
	label_of(&b, 1500 * K, got, sizeof(got));
	assert_string_equal(got, "M[1.46,1024)");
	label_of(&b, 5 * G, got, sizeof(got));
	assert_string_equal(got, "G[1,inf)");
	/* 0 is implied. */
	assert_int_equal(frag_bins_parse("1k", &b, err, sizeof(err)), 0);
	assert_int_equal(b.nr, 2);
	assert_true(b.edge[0] == 0 && b.edge[1] == 1024);
}

struct ext {
	uint64_t log, phys, len;
	uint32_t flags;
};

static struct frag_file file_of(const struct ext *x, size_t n)
{
	struct frag_file f;

	frag_file_init(&f, 4096);
	for (size_t i = 0; i < n; i++) {
		struct frag_extent e = { x[i].log, x[i].phys, x[i].len,
					 x[i].flags };

		frag_file_add(&f, &e);
	}
	return f;
}

#define RUNS(...) ({                                                     \
		const struct ext x_[] = { __VA_ARGS__ };                   \
		file_of(x_, ARRAY_SIZE(x_)).runs;                          \
	})

static void test_runs(void **state)
{
	struct frag_file f;
	(void)state;

	f = file_of(NULL, 0);
	assert_int_equal(f.runs, 0);
	assert_int_equal(f.extents, 0);
	assert_int_equal(RUNS({ 0, 40960, 8192, 0 }), 1);
	/* Contiguous both ways: one run (ext4 splits at 128 MiB). */
	assert_int_equal(RUNS({ 0, 40960, 8192, 0 },
			      { 8192, 49152, 4096, 0 }), 1);
	/* Physically apart. */
	assert_int_equal(RUNS({ 0, 40960, 8192, 0 },
			      { 8192, 90112, 4096, 0 }), 2);
	/* A hole, and the data resumes where the offsets put it. */
	assert_int_equal(RUNS({ 0, 40960, 4096, 0 },
			      { 12288, 53248, 4096, 0 }), 1);
	/* Logically apart but physically adjacent: filefrag's dense case. */
	assert_int_equal(RUNS({ 0, 40960, 4096, 0 },
			      { 65536, 45056, 4096, 0 }), 1);
	/* Logically contiguous, physically backwards. */
	assert_int_equal(RUNS({ 0, 40960, 4096, 0 },
			      { 4096, 4096, 4096, 0 }), 2);
	/* A file starting with a hole still has one run. */
	assert_int_equal(RUNS({ 1048576, 8192, 4096, 0 }), 1);
	/* Unwritten extents count like any other. */
	assert_int_equal(RUNS({ 0, 40960, 4096, FIEMAP_EXTENT_UNWRITTEN },
			      { 4096, 45056, 4096, 0 },
			      { 8192, 49152, 4096,
				FIEMAP_EXTENT_UNWRITTEN |
				FIEMAP_EXTENT_LAST }), 1);
	/* Delalloc extents have physical 0, so each is its own run, as in
	 * filefrag without -s. */
	assert_int_equal(RUNS({ 0, 0, 4096, FIEMAP_EXTENT_DELALLOC |
				  FIEMAP_EXTENT_UNKNOWN },
			      { 8192, 0, 4096, FIEMAP_EXTENT_DELALLOC |
				FIEMAP_EXTENT_UNKNOWN }), 2);

	{
		const struct ext x[] = {
			{ 0, 0, 4096, FIEMAP_EXTENT_DELALLOC },
			{ 4096, 8192, 4096, FIEMAP_EXTENT_UNWRITTEN },
			{ 8192, 12288, 3000, FIEMAP_EXTENT_LAST },
		};

		f = file_of(x, 3);
		assert_int_equal(f.extents, 3);
		assert_int_equal(f.runs, 2);
		assert_true(f.flags & FIEMAP_EXTENT_DELALLOC);
		assert_true(f.flags & FIEMAP_EXTENT_UNWRITTEN);
		/* The delalloc block has no place: 2 blocks, 1 follows. */
		assert_int_equal(f.blocks, 2);
		assert_int_equal(f.follow_blocks, 1);
		assert_int_equal(f.first_phys, 8192);
		assert_int_equal(f.end_phys, 12288 + 3000);
	}
}

static void add_file(struct frag_result *r, const struct ext *x, size_t n,
		     uint64_t size)
{
	struct frag_file f = file_of(x, n);

	frag_result_add(r, &f, size, NULL, NULL);
}

static void test_layout_score(void **state)
{
	struct frag_result r;
	/* 4 contiguous blocks: 3 of 3 follow. */
	const struct ext a[] = { { 0, 409600, 16384, 0 } };
	/* 2 + 2 blocks apart: 2 of 3 follow. */
	const struct ext b[] = { { 0, 40960, 8192, 0 },
				 { 8192, 819200, 8192, 0 } };
	/* One block: not counted at all. */
	const struct ext c[] = { { 0, 4096000, 100, 0 } };
	/* Physically adjacent across a hole: the block still follows. */
	const struct ext d[] = { { 0, 81920, 4096, 0 },
				 { 40960, 86016, 4096, 0 } };
	(void)state;

	frag_result_init(&r, NULL, 0);
	assert_true(frag_layout_score(&r) == 1.0);
	add_file(&r, a, 1, 16384);
	add_file(&r, b, 2, 16384);
	add_file(&r, c, 1, 100);
	assert_int_equal(r.layout_files, 2);
	assert_int_equal(r.layout_blocks, 6);
	assert_int_equal(r.layout_follow, 5);
	assert_true(frag_layout_score(&r) > 5.0 / 6 - 1e-12 &&
		    frag_layout_score(&r) < 5.0 / 6 + 1e-12);
	add_file(&r, d, 2, 45056);
	assert_int_equal(r.layout_follow, 6);
	assert_int_equal(r.files, 4);
	assert_int_equal(r.frag_files, 1);
	assert_int_equal(r.frag_bytes, 16384);
	assert_int_equal(r.bytes, 16384 * 2 + 100 + 45056);
	assert_int_equal(r.extents, 6);
	assert_int_equal(r.runs, 5);
	assert_int_equal(r.run_hist[1], 3);
	assert_int_equal(r.run_hist[2], 1);
	frag_result_release(&r);
}

static void test_run_buckets(void **state)
{
	char lab[32];
	(void)state;

	assert_int_equal(frag_run_bucket(0), 0);
	assert_int_equal(frag_run_bucket(2), 2);
	assert_int_equal(frag_run_bucket(3), 3);
	assert_int_equal(frag_run_bucket(4), 3);
	assert_int_equal(frag_run_bucket(5), 4);
	assert_int_equal(frag_run_bucket(1024), FRAG_RUN_BUCKETS - 2);
	assert_int_equal(frag_run_bucket(1025), FRAG_RUN_BUCKETS - 1);
	assert_int_equal(frag_run_bucket(UINT64_MAX), FRAG_RUN_BUCKETS - 1);
	frag_run_bucket_label(3, lab, sizeof(lab));
	assert_string_equal(lab, "3-4");
	frag_run_bucket_label(FRAG_RUN_BUCKETS - 2, lab, sizeof(lab));
	assert_string_equal(lab, "513-1024");
	frag_run_bucket_label(FRAG_RUN_BUCKETS - 1, lab, sizeof(lab));
	assert_string_equal(lab, "1025+");
}

static char *name_path(void *arg)
{
	return xasprintf("f%d", *(int *)arg);
}

/* A file of n runs: n one-block extents two blocks apart. */
static void add_runs(struct frag_result *r, int n)
{
	struct frag_file f;

	frag_file_init(&f, 4096);
	for (int i = 0; i < n; i++) {
		struct frag_extent e = { (uint64_t)i * 4096,
					 (uint64_t)i * 8192 + 8192, 4096, 0 };

		frag_file_add(&f, &e);
	}
	frag_result_add(r, &f, (uint64_t)n * 4096, name_path, &n);
}

/* The result the output tests print: three files of 1, 3 and 300 runs. */
static void three_files(struct frag_result *r)
{
	frag_result_init(r, NULL, 2);
	add_runs(r, 1);
	add_runs(r, 3);
	add_runs(r, 300);
	frag_result_finish(r);
}

static void test_worst_heap(void **state)
{
	struct frag_result a, b;
	static const int order[] = { 5, 1, 9, 2, 7, 3, 8, 4, 6, 10 };
	(void)state;

	frag_result_init(&a, NULL, 3);
	frag_result_init(&b, NULL, 3);
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		add_runs(i % 2 ? &a : &b, order[i]);
	add_runs(&b, 12);
	frag_result_merge(&a, &b);
	frag_result_finish(&a);
	assert_int_equal(a.nr_worst, 3);
	assert_string_equal(a.worst[0].path, "f12");
	assert_string_equal(a.worst[1].path, "f10");
	assert_string_equal(a.worst[2].path, "f9");
	assert_int_equal(a.worst[0].runs, 12);
	assert_int_equal(a.files, 11);
	assert_int_equal(a.frag_files, 10);
	assert_int_equal(a.files_3plus, 9);
	frag_result_release(&a);
	frag_result_release(&b);
}

static void test_json_shape(void **state)
{
	struct frag_result r;
	json_t *j, *back, *bins, *bin;
	json_error_t jerr;
	char *s;
	(void)state;

	three_files(&r);
	j = frag_to_json(&r);
	s = json_dumps(j, 0);
	json_decref(j);
	back = json_loads(s, 0, &jerr);
	free(s);
	assert_non_null(back);
	assert_int_equal(json_integer_value(json_object_get(back,
			 "format_version")), FRAG_JSON_FORMAT_VERSION);
	assert_int_equal(json_integer_value(json_object_get(back, "files")),
			 3);
	assert_int_equal(json_integer_value(json_object_get(back,
			 "fragmented_files")), 2);
	assert_int_equal(json_integer_value(json_object_get(back,
			 "files_3plus")), 2);
	bins = json_object_get(back, "bins");
	assert_true(json_is_array(bins));
	assert_int_equal(json_array_size(bins), 29);
	bin = json_array_get(bins, 0);
	assert_string_equal(json_string_value(json_object_get(bin, "label")),
			    "[0,100)");
	assert_string_equal(json_string_value(json_object_get(bin, "group")),
			    "B");
	assert_true(json_is_null(json_object_get(json_array_get(bins, 28),
						 "hi")));
	/* 4096 and 12288 bytes: K[4,5) and K[10,20). */
	bin = json_array_get(bins, 13);
	assert_string_equal(json_string_value(json_object_get(bin, "label")),
			    "[4,5)");
	assert_int_equal(json_integer_value(json_object_get(bin, "files")),
			 1);
	assert_true(json_is_array(json_object_get(back, "runs_histogram")));
	assert_true(json_is_real(json_object_get(json_object_get(back,
			 "layout"), "score")));
	assert_true(json_is_object(json_object_get(back, "locality")));
	assert_true(json_is_object(json_object_get(back, "walk")));
	assert_int_equal(json_array_size(json_object_get(back, "worst")), 2);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(back, "worst"), 0), "path")),
		"f300");
	json_decref(back);
	frag_result_release(&r);
}

static void write_file(const char *path, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char buf[4096];

	assert_true(fd >= 0);
	memset(buf, 'x', sizeof(buf));
	while (size) {
		size_t n = size < sizeof(buf) ? size : sizeof(buf);

		assert_true(write(fd, buf, n) == (ssize_t)n);
		size -= n;
	}
	close(fd);
}

static void test_survey_tree(void **state)
{
	char tmpl[] = "/tmp/fslab-test-frag.XXXXXX";
	char *dir, *p;
	const char *paths[1];
	struct frag_opts o;
	struct frag_result r;
	const char *missing[] = { "/nonexistent/fslab-frag" };
	(void)state;

	dir = mkdtemp(tmpl);
	assert_non_null(dir);
	p = xasprintf("%s/a", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = xasprintf("%s/a/b", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	for (int i = 0; i < 20; i++) {
		p = xasprintf("%s/%s/f%d", dir, i % 2 ? "a" : "a/b", i);
		write_file(p, (size_t)i * 1000);
		free(p);
	}
	p = xasprintf("%s/link", dir);
	assert_int_equal(symlink("a", p), 0);
	free(p);

	frag_opts_default(&o);
	o.jobs = 3;
	paths[0] = dir;
	assert_int_equal(frag_survey(paths, 1, &o, &r), 0);
	assert_int_equal(r.files, 20);
	assert_int_equal(r.bytes, 190 * 1000);
	assert_int_equal(r.dirs, 3);
	assert_int_equal(r.special, 1);
	assert_int_equal(r.bin_files[0], 1);   /* the empty file */
	frag_result_release(&r);

	assert_int_equal(frag_survey(missing, 1, &o, &r), -2);
	frag_result_release(&r);

	p = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	free(p);
}

static void test_freesp_parsers(void **state)
{
	static const char e2[] =
		"Device: /dev/loop0\nBlocksize: 4096 bytes\n"
		"Total blocks: 262144\nFree blocks: 249189 (95.1%)\n\n"
		"Min. free extent: 4 KB \nMax. free extent: 261628 KB\n"
		"Avg. free extent: 166124 KB\nNum. free extent: 7\n\n"
		"HISTOGRAM OF FREE EXTENT SIZES:\n"
		"Extent Size Range :  Free extents   Free Blocks  Percent\n"
		"    4K...    8K-  :             1             1    0.00%\n"
		"   64M...  128M-  :             4        118374   47.50%\n"
		"  128M...  256M-  :             2        130814   52.50%\n";
	static const char mb[] =
		"#group: free  frags first [ 2^0   2^1   2^2 ]\n"
		"#0    : 100 1     4247  [ 0     0     25 ]\n"
		"#1    : 100 3     129   [ 0     2     24 ]\n"
		"#2    : 0 0     0     [ 0     0     0 ]\n"
		"#3    : 8 4     0     [ 8     0     0 ]\n";
	static const char xfs[] =
		"   from      to extents  blocks    pct\n"
		"      1       1      16      16   0.01\n"
		"  32768   65536       4  245706  99.99\n"
		"total free extents 20\ntotal free blocks 245722\n"
		"average free extent size 11701.3\n"
		"   from      to extents  blocks    pct\n"
		"  32768   65536       1   65512 100.00\n"
		"total free extents 1\ntotal free blocks 65512\n"
		"average free extent size 65512\n"
		"   from      to extents  blocks    pct\n"
		"      1       1      12      12   0.01\n"
		"     64     127       2     188  99.99\n"
		"total free extents 14\ntotal free blocks 200\n"
		"average free extent size 14.3\n";
	struct frag_freesp fs;
	double *pct;
	size_t n;
	(void)state;

	memset(&fs, 0, sizeof(fs));
	assert_int_equal(frag_parse_e2freefrag(e2, &fs), 0);
	assert_int_equal(fs.blksize, 4096);
	assert_int_equal(fs.free_bytes, 249189ULL * 4096);
	assert_int_equal(fs.free_extents, 7);
	assert_int_equal(fs.max_extent, 261628ULL * 1024);
	assert_int_equal(fs.nr_bins, 3);
	assert_int_equal(fs.bins[0].lo, 4096);
	assert_int_equal(fs.bins[0].hi, 8192);
	assert_int_equal(fs.bins[2].lo, 128 * M);
	assert_int_equal(fs.bins[2].extents, 2);
	assert_int_equal(fs.bins[1].bytes, 118374ULL * 4096);
	assert_int_equal(frag_parse_e2freefrag("garbage", &fs), -1);

	/* One fragment: 0%; 3 fragments, largest buddy 4 of 100: 96%;
	 * empty group: 0; 8 single blocks: 87.5%. */
	assert_int_equal(frag_parse_mb_groups(mb, &pct, &n), 0);
	assert_int_equal(n, 4);
	assert_true(pct[0] == 0.0 && pct[1] == 96.0 && pct[2] == 0.0);
	assert_true(pct[3] == 87.5);
	memset(&fs, 0, sizeof(fs));
	frag_freesp_groups(&fs, pct, n);
	assert_int_equal(fs.groups, 4);
	assert_true(fs.grp_max == 96.0 && fs.grp_p50 == 0.0);
	assert_true(fs.grp_p95 == 96.0);
	assert_true(fs.grp_mean > 45.87 && fs.grp_mean < 45.88);
	free(pct);

	memset(&fs, 0, sizeof(fs));
	assert_int_equal(frag_parse_xfs_freesp(xfs, 4096, &fs), 0);
	assert_int_equal(fs.nr_bins, 2);
	assert_int_equal(fs.free_extents, 20);
	assert_int_equal(fs.free_bytes, 245722ULL * 4096);
	assert_int_equal(fs.bins[1].lo, 32768ULL * 4096);
	assert_int_equal(fs.bins[1].hi, 65537ULL * 4096);
	/* 4 extents of 245706 blocks, each >= 32768: at most 147402, and
	 * no more than the bucket's top. */
	assert_int_equal(fs.max_extent, 65536ULL * 4096);
	assert_int_equal(frag_parse_xfs_ag_freesp(strchr(strstr(xfs,
						 "average"), '\n') + 1, &pct,
						 &n), 0);
	assert_int_equal(n, 2);
	assert_true(pct[0] == 0.0);
	/* Top bucket 2 extents, 188 blocks, each >= 64: at most 124. */
	assert_true(pct[1] > 37.99 && pct[1] < 38.01);
	free(pct);
}

/* The mail's table part of a survey's text, up to its size line. */
static char *mail_part(char *text)
{
	char *end = strstr(text, "Total size of fragmented files:");

	assert_non_null(end);
	end = strchr(end, '\n');
	assert_non_null(end);
	end[1] = '\0';
	return text;
}

/*
 * A stored survey reprints as the live one did: the table rebuilt from
 * the phase metrics alone equals the one printed from the result.
 */
static void test_stored_table(void **state)
{
	struct frag_result r;
	struct phase_rec p = { 0 };
	char *live = NULL, *shown = NULL;
	size_t ll = 0, sl = 0;
	FILE *f;
	(void)state;

	three_files(&r);
	frag_to_phase_metrics(&r, &p);
	f = open_memstream(&live, &ll);
	frag_print_text(f, &r);
	fclose(f);
	f = open_memstream(&shown, &sl);
	frag_print_stored(f, &p, &r.bins);
	fclose(f);
	assert_string_equal(mail_part(shown), mail_part(live));
	free(live);
	free(shown);
	phase_rec_release(&p);
	frag_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bins_edges),
		cmocka_unit_test(test_bins_parse),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_layout_score),
		cmocka_unit_test(test_run_buckets),
		cmocka_unit_test(test_worst_heap),
		cmocka_unit_test(test_json_shape),
		cmocka_unit_test(test_survey_tree),
		cmocka_unit_test(test_freesp_parsers),
		cmocka_unit_test(test_stored_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
