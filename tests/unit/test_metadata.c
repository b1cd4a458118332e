/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_metadata.c - the pure parts of the metadata workload
 * (src/workloads/metadata/): names (seq vs random, reproducible per
 * seed, unique), spreading files over directories, the seeded visiting
 * order, and option checks that refuse bad values; sync=uring's file
 * budget, its causes of a missing io_uring, and its batch of fsyncs
 * (every completion checked: a pipe's fsync fails, EINVAL).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stats/lathist.h"
#include "workloads/metadata/internal.h"
#include "workloads/metadata/metadata.h"
#include "workloads/registry.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_name_shape(void **state)
{
	char s[MD_NAME_LEN], r[MD_NAME_LEN];

	(void)state;
	md_name(s, MD_NAMES_SEQ, 7, 42);
	md_name(r, MD_NAMES_RANDOM, 7, 42);
	assert_int_equal(strlen(s), MD_NAME_LEN - 1);
	assert_int_equal(strlen(r), MD_NAME_LEN - 1);
	/* seq: number first; random: the same characters, number last */
	assert_memory_equal(s, "0000000042", 10);
	assert_memory_equal(r + 10, "0000000042", 10);
	assert_memory_equal(s + 10, r, 10);
	for (int i = 0; i < MD_NAME_LEN - 1; i++)
		assert_true((s[i] >= '0' && s[i] <= '9') ||
			    (s[i] >= 'A' && s[i] <= 'Z') ||
			    (s[i] >= 'a' && s[i] <= 'z'));
}

static void test_name_seed(void **state)
{
	char a[MD_NAME_LEN], b[MD_NAME_LEN];
	int differ = 0;

	(void)state;
	for (uint64_t n = 0; n < 100; n++) {
		md_name(a, MD_NAMES_RANDOM, 1, n);
		md_name(b, MD_NAMES_RANDOM, 1, n);
		assert_string_equal(a, b);  /* reproducible */
		md_name(b, MD_NAMES_RANDOM, 2, n);
		differ += strcmp(a, b) != 0;
	}
	assert_int_equal(differ, 100);  /* another seed, other names */
}

/* All names of 3 threads x 2000 files, as a shared directory sees them. */
static void test_name_unique_and_order(void **state)
{
	enum { N = 6000 };
	char **v = malloc(N * sizeof(*v));
	int unsorted = 0;

	(void)state;
	for (int mode = MD_NAMES_SEQ; mode <= MD_NAMES_RANDOM; mode++) {
		for (int i = 0; i < N; i++) {
			v[i] = malloc(MD_NAME_LEN);
			md_name(v[i], (enum md_names)mode, 99, (uint64_t)i);
		}
		for (int i = 1; i < N; i++)
			unsorted += mode == MD_NAMES_RANDOM &&
				    strcmp(v[i - 1], v[i]) > 0;
		/* seq names sort in creation order */
		for (int i = 1; mode == MD_NAMES_SEQ && i < N; i++)
			assert_true(strcmp(v[i - 1], v[i]) < 0);
		qsort(v, N, sizeof(*v), cmp_str);
		for (int i = 1; i < N; i++)
			assert_true(strcmp(v[i - 1], v[i]) != 0);
		for (int i = 0; i < N; i++)
			free(v[i]);
	}
	/* random names are far from creation order (about half inverted) */
	assert_true(unsorted > N / 4);
	free(v);
}

static void test_file_dir(void **state)
{
	static const struct { uint64_t files, dirs; } cases[] = {
		{ 2000, 4 }, { 10, 3 }, { 7, 7 }, { 1, 1 }, { 1000, 1 },
		{ 100000, 999 },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint64_t files = cases[c].files, dirs = cases[c].dirs;
		uint64_t *count = calloc(dirs, sizeof(*count));
		uint64_t prev = 0, lo = UINT64_MAX, hi = 0;

		for (uint64_t k = 0; k < files; k++) {
			uint64_t d = md_file_dir(k, files, dirs);

			assert_true(d < dirs);
			assert_true(d >= prev);  /* one directory at a time */
			prev = d;
			count[d]++;
		}
		for (uint64_t d = 0; d < dirs; d++) {
			lo = count[d] < lo ? count[d] : lo;
			hi = count[d] > hi ? count[d] : hi;
		}
		assert_true(lo >= 1);       /* every directory used */
		assert_true(hi - lo <= 1);  /* balanced */
		free(count);
	}
	assert_int_equal(md_file_dir(0, 2000, 4), 0);
	assert_int_equal(md_file_dir(499, 2000, 4), 0);
	assert_int_equal(md_file_dir(500, 2000, 4), 1);
	assert_int_equal(md_file_dir(1999, 2000, 4), 3);
}

static void test_order(void **state)
{
	enum { N = 1000 };
	uint32_t a[N], b[N];
	char seen[N];
	int moved = 0;

	(void)state;
	md_order(a, N, false, 5);
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(a[i], i);
	md_order(a, N, true, 5);
	md_order(b, N, true, 5);
	assert_memory_equal(a, b, sizeof(a));
	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < N; i++) {
		assert_true(a[i] < N);
		assert_int_equal(seen[a[i]], 0);  /* a permutation */
		seen[a[i]] = 1;
		moved += a[i] != (uint32_t)i;
	}
	assert_true(moved > N / 2);
	md_order(b, N, true, 6);
	assert_memory_not_equal(a, b, sizeof(a));
}

/* Parse s with the workload's own table and check: 0 or -1. */
static int parse(const char *s, char *err, size_t len)
{
	struct md_opts o;
	int ret;

	memset(&o, 0, sizeof(o));
	opt_defaults(wl_metadata.opts, &o);
	ret = opt_parse(wl_metadata.opts, &o, s, err, len);
	if (!ret)
		ret = wl_metadata.check(&o, err, len);
	opt_release(wl_metadata.opts, &o);
	return ret;
}

static void test_options(void **state)
{
	static const char *const good[] = {
		"", "files=2000,threads=2,dirs=4,size=1k",
		"shared=1,threads=4,names=random,seed=3",
		"sync=fsync-dir", "sync=batch,cold=0", "dirs=10,files=10",
		"stonewall=2.5,wearout=no", "reorder=-3", "reorder=1,shared=1",
		"sync=uring", "sync=uring,batch=1", "sync=uring,batch=4096",
		"sync=fsync,batch=32",
	};
	static const struct { const char *s, *why; } bad[] = {
		{ "files=0", "files" },
		{ "threads=0", "threads" },
		{ "threads=257", "threads" },
		{ "dirs=0", "dirs" },
		{ "dirs=11,files=10", "dirs (11) must not exceed files" },
		{ "size=2G", "size must not exceed 1G" },
		{ "size=lots", "size" },
		{ "files=10000000,threads=101", "must not exceed" },
		{ "sync=always", "sync" },
		{ "names=sorted", "names" },
		{ "cold=maybe", "cold" },
		{ "filez=10", "did you mean 'files'" },
		{ "stonewall=-1", "stonewall" },
		{ "stonewall=soon", "stonewall" },
		{ "wearout=perhaps", "wearout" },
		{ "reorder=x", "reorder" },
		{ "sync=uring,batch=0", "batch" },
		{ "sync=uring,batch=4097", "batch" },
		{ "sync=uring,batch=many", "batch" },
		{ "sync=fsync,batch=8", "batch applies only to sync=uring" },
		{ "batch=64", "not sync=none" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		err[0] = '\0';
		if (parse(good[i], err, sizeof(err)))
			fail_msg("'%s' refused: %s", good[i], err);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse(bad[i].s, err, sizeof(err)), -1);
		if (!strstr(err, bad[i].why))
			fail_msg("'%s': '%s' lacks '%s'", bad[i].s, err,
				 bad[i].why);
	}
}

/*
 * After a create stopped at the stonewall, a phase visits exactly the
 * files made (the create's first count), each once, in its own order.
 */
static void test_visit_order(void **state)
{
	enum { FILES = 500 };
	uint32_t made[FILES], order[FILES];

	(void)state;
	md_order(made, FILES, true, 11);
	for (size_t count = 0; count <= FILES; count += 97) {
		char seen[FILES] = { 0 };
		bool moved = false;

		md_visit_order(order, count, FILES, true, 11, 12);
		for (size_t i = 0; i < count; i++) {
			seen[order[i]]++;
			moved |= order[i] != made[i];
		}
		for (size_t i = 0; i < count; i++)
			assert_int_equal(seen[made[i]], 1);
		for (size_t i = count; i < FILES; i++)
			assert_int_equal(seen[made[i]], 0);
		if (count > 10)
			assert_true(moved);
	}
	/* every file made: the same as the phase's own md_order */
	md_visit_order(order, FILES, FILES, true, 11, 12);
	md_order(made, FILES, true, 12);
	assert_memory_equal(order, made, sizeof(order));
	/* seq: the create went in order, so the first count, in order */
	md_visit_order(order, 7, FILES, false, 11, 12);
	for (uint32_t i = 0; i < 7; i++)
		assert_int_equal(order[i], i);
}

static void test_name_num(void **state)
{
	char n[MD_NAME_LEN];

	(void)state;
	for (uint64_t num = 0; num < 3000000000ULL; num += 299999999) {
		md_name(n, MD_NAMES_SEQ, 5, num);
		assert_true(md_name_num(n, MD_NAMES_SEQ) == num);
		md_name(n, MD_NAMES_RANDOM, 5, num);
		assert_true(md_name_num(n, MD_NAMES_RANDOM) == num);
	}
	assert_true(md_name_num("lost+found", MD_NAMES_SEQ) == UINT64_MAX);
	assert_true(md_name_num("abcdefghij0123456789", MD_NAMES_SEQ) ==
		    UINT64_MAX);
	assert_true(md_name_num("abcdefghij0123456789", MD_NAMES_RANDOM) ==
		    123456789);
}

static void test_uring_fds(void **state)
{
	(void)state;
	/* each thread: its batch and its directory, then 64 to spare */
	assert_int_equal(md_uring_fds(1, 32), 33 + 64);
	assert_int_equal(md_uring_fds(4, 4096), 4 * 4097 + 64);
	assert_int_equal(md_uring_fds(256, 4096), 256ULL * 4097 + 64);
}

static void test_uring_cause(void **state)
{
	static const struct { int err, disabled; const char *want; } c[] = {
		{ ENOSYS, -1, "no io_uring" },
		{ EPERM, 2, "kernel.io_uring_disabled=2" },
		{ EPERM, 1, "io_uring_group" },
		{ EPERM, 0, "seccomp" },
		{ EPERM, -1, "not permitted" },
		{ ENOMEM, 0, "ulimit -l" },
		{ EMFILE, 0, "too many open files" },
		{ EIO, 0, "Input/output error" },
	};
	char buf[200];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		md_uring_cause(buf, sizeof(buf), c[i].err, c[i].disabled);
		if (!strstr(buf, c[i].want))
			fail_msg("cause %zu: '%s' lacks '%s'", i, buf,
				 c[i].want);
	}
}

/* Real files on /tmp: where io_uring is not there, nothing to test. */
static void test_uring_batch(void **state)
{
	char path[] = "/tmp/test_metadata.XXXXXX";
	struct md_ring *q;
	struct md_ring_err e;
	struct lathist *lat = calloc(1, sizeof(*lat));
	int p[2];

	(void)state;
	if (md_ring_open(&q, 3)) {
		free(lat);
		skip();
	}
	lathist_init(lat);
	for (int i = 0; i < 3; i++) {
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		unlink(path);
		strcpy(path + strlen(path) - 6, "XXXXXX");
		assert_int_equal(write(fd, "x", 1), 1);
		/* full only with the third */
		assert_int_equal(md_ring_hold(q, fd, 1, 10 + (uint64_t)i),
				 i == 2);
	}
	assert_int_equal(md_ring_flush(q, lat, &e), 0);
	assert_int_equal(e.err, 0);
	assert_int_equal(md_ring_held(q), 0);
	assert_int_equal(lat->count, 3);
	/* a pipe cannot be fsynced: its completion's res is -EINVAL */
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	md_ring_hold(q, p[1], 1, 77);
	assert_int_equal(md_ring_flush(q, lat, &e), -1);
	assert_int_equal(e.err, EINVAL);
	assert_string_equal(e.what, "fsync");
	assert_int_equal(e.key, 77);
	assert_int_equal(lat->count, 3);
	/* an empty flush does nothing */
	assert_int_equal(md_ring_flush(q, lat, &e), 0);
	md_ring_close(q);
	free(lat);
}

static void test_registered(void **state)
{
	(void)state;
	assert_ptr_equal(wl_find("metadata"), &wl_metadata);
	assert_string_equal(wl_metadata.key_metrics[0], "create/files/s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_shape),
		cmocka_unit_test(test_name_seed),
		cmocka_unit_test(test_name_unique_and_order),
		cmocka_unit_test(test_file_dir),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_visit_order),
		cmocka_unit_test(test_name_num),
		cmocka_unit_test(test_uring_fds),
		cmocka_unit_test(test_uring_cause),
		cmocka_unit_test(test_uring_batch),
		cmocka_unit_test(test_registered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
