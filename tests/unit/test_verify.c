/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_verify.c - the --verify pattern: a pure function of (id, offset,
 * seed) whatever the write sizes, checked range by range, and a mismatch
 * says which block and what it holds instead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/verify.h"
#include "workloads/registry.h"

#define LEN (5 * VERIFY_BLOCK + 123)

static void test_pure_function_of_offset(void **state)
{
	unsigned char *whole = malloc(LEN), *pieces = malloc(LEN);
	static const size_t sizes[] = { 1, 7, 4095, 4096, 4097, 333, 8192 };
	size_t off = 0, k = 0;

	(void)state;
	verify_fill(555, 17, 0, whole, LEN);
	/* putc-sized, odd-sized and block-sized writes give the same bytes */
	while (off < LEN) {
		size_t n = sizes[k++ % (sizeof(sizes) / sizeof(sizes[0]))];

		if (n > LEN - off)
			n = LEN - off;
		verify_fill(555, 17, off, pieces + off, n);
		off += n;
	}
	assert_memory_equal(whole, pieces, LEN);
	/* and a misaligned buffer too */
	verify_fill(555, 17, 3, pieces + 1, LEN - 3);
	assert_memory_equal(whole + 3, pieces + 1, LEN - 3);
	free(whole);
	free(pieces);
}

static void test_distinct(void **state)
{
	unsigned char a[VERIFY_BLOCK], b[VERIFY_BLOCK];

	(void)state;
	verify_fill(555, 17, 0, a, sizeof(a));
	verify_fill(555, 17, VERIFY_BLOCK, b, sizeof(b));
	assert_memory_not_equal(a + VERIFY_HDR, b + VERIFY_HDR,
				VERIFY_BLOCK - VERIFY_HDR);
	verify_fill(555, 18, 0, b, sizeof(b));
	assert_memory_not_equal(a + VERIFY_HDR, b + VERIFY_HDR,
				VERIFY_BLOCK - VERIFY_HDR);
	verify_fill(556, 17, 0, b, sizeof(b));
	assert_memory_not_equal(a + VERIFY_HDR, b + VERIFY_HDR,
				VERIFY_BLOCK - VERIFY_HDR);
	/* not constant bytes within a block either */
	assert_memory_not_equal(a + 64, a + 128, 64);
}

static void test_check_ok_any_range(void **state)
{
	unsigned char *buf = malloc(LEN);
	struct verify_bad bad;

	(void)state;
	verify_fill(9, 42, 0, buf, LEN);
	assert_true(verify_check(9, 42, 0, buf, LEN, &bad));
	assert_true(verify_check(9, 42, 100, buf + 100, 5000, &bad));
	assert_true(verify_check(9, 42, LEN - 1, buf + LEN - 1, 1, &bad));
	/* wrong id, seed or offset is a mismatch */
	assert_false(verify_check(9, 43, 0, buf, LEN, &bad));
	assert_false(verify_check(8, 42, 0, buf, LEN, &bad));
	assert_false(verify_check(9, 42, 1, buf, LEN - 1, &bad));
	free(buf);
}

static void test_corrupt_byte(void **state)
{
	unsigned char *buf = malloc(LEN);
	struct verify_bad bad;

	(void)state;
	verify_fill(9, 42, 0, buf, LEN);
	buf[3 * VERIFY_BLOCK + 1000] ^= 1;
	assert_false(verify_check(9, 42, 0, buf, LEN, &bad));
	assert_int_equal(bad.block, 3 * VERIFY_BLOCK);
	assert_int_equal(bad.byte, 3 * VERIFY_BLOCK + 1000);
	assert_non_null(strstr(bad.what, "header is right, data corrupt "
				"from byte 1000"));
	/* a read that starts inside the block cannot see its header */
	assert_false(verify_check(9, 42, 3 * VERIFY_BLOCK + 500,
				  buf + 3 * VERIFY_BLOCK + 500, 1000, &bad));
	assert_int_equal(bad.block, 3 * VERIFY_BLOCK);
	assert_non_null(strstr(bad.what, "from byte 1000"));
	free(buf);
}

static void test_misdirected(void **state)
{
	unsigned char *buf = malloc(LEN);
	struct verify_bad bad;
	char want[128];

	(void)state;
	verify_fill(9, 42, 0, buf, LEN);
	/* block 2 of file 17 landed where block 1 of file 42 belongs */
	verify_fill(9, 17, 2 * VERIFY_BLOCK, buf + VERIFY_BLOCK, VERIFY_BLOCK);
	assert_false(verify_check(9, 42, 0, buf, LEN, &bad));
	assert_int_equal(bad.block, VERIFY_BLOCK);
	snprintf(want, sizeof(want), "block holds file %016llx offset %u "
		 "(misdirected write)", 17ULL, 2 * VERIFY_BLOCK);
	assert_string_equal(bad.what, want);
	/* a stale block of the same file, from another run's seed */
	verify_fill(7, 42, 0, buf + 4 * VERIFY_BLOCK, VERIFY_BLOCK);
	verify_fill(9, 17, VERIFY_BLOCK, buf + VERIFY_BLOCK, VERIFY_BLOCK);
	verify_fill(9, 42, VERIFY_BLOCK, buf + VERIFY_BLOCK, VERIFY_BLOCK);
	assert_false(verify_check(9, 42, 0, buf, LEN, &bad));
	assert_int_equal(bad.block, 4 * VERIFY_BLOCK);
	assert_non_null(strstr(bad.what, "offset 0 seed 7 (misdirected "
				"write within the file)"));
	free(buf);
}

static void test_zeros_and_garbage(void **state)
{
	unsigned char *buf = malloc(LEN);
	struct verify_bad bad;

	(void)state;
	verify_fill(9, 42, 0, buf, LEN);
	memset(buf + 2 * VERIFY_BLOCK, 0, VERIFY_BLOCK);
	assert_false(verify_check(9, 42, 0, buf, LEN, &bad));
	assert_int_equal(bad.block, 2 * VERIFY_BLOCK);
	assert_string_equal(bad.what, "block holds zeros (lost write or hole)");
	memset(buf + 2 * VERIFY_BLOCK, 'x', VERIFY_BLOCK);
	assert_false(verify_check(9, 42, 0, buf, LEN, &bad));
	assert_string_equal(bad.what, "block holds garbage (no fslab header)");
	/* a header whose check does not match its fields is garbage too */
	verify_fill(9, 42, 0, buf, LEN);
	buf[2 * VERIFY_BLOCK + 9] ^= 0x40;
	assert_false(verify_check(9, 42, 0, buf, LEN, &bad));
	assert_int_equal(bad.byte, 2 * VERIFY_BLOCK + 9);
	assert_string_equal(bad.what, "block holds garbage (no fslab header)");
	free(buf);
}

static void test_fd(void **state)
{
	char path[] = "/tmp/test_verify.XXXXXX";
	int fd = mkstemp(path);
	unsigned char *buf = malloc(LEN);
	struct verify_bad bad;
	uint64_t n = 0;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	verify_fill(1, verify_file_id("a/b"), 0, buf, LEN);
	assert_int_equal(write(fd, buf, LEN), LEN);
	assert_int_equal(verify_fd(fd, 1, verify_file_id("a/b"), &bad, &n), 0);
	assert_int_equal(n, LEN);
	assert_int_equal(pwrite(fd, "!", 1, LEN - 2), 1);
	assert_int_equal(verify_fd(fd, 1, verify_file_id("a/b"), &bad, &n), 1);
	assert_int_equal(bad.byte, LEN - 2);
	assert_int_equal(bad.block, 5 * VERIFY_BLOCK);
	close(fd);
	free(buf);
}

static void test_file_id(void **state)
{
	(void)state;
	/* FNV-1a 64, documented in verify.h */
	assert_true(verify_file_id("") == 0xcbf29ce484222325ULL);
	assert_true(verify_file_id("a") == 0xaf63dc4c8601ec8cULL);
	assert_true(verify_file_id("a/b") != verify_file_id("a/c"));
}

/* The final pass checks data; compare must never rank runs by it. */
static void test_not_a_key_metric(void **state)
{
	(void)state;
	for (const struct workload *const *w = workloads; *w; w++)
		for (const char *const *k = (*w)->key_metrics; k && *k; k++)
			assert_null(strstr(*k, "verify-data/"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pure_function_of_offset),
		cmocka_unit_test(test_distinct),
		cmocka_unit_test(test_check_ok_any_range),
		cmocka_unit_test(test_corrupt_byte),
		cmocka_unit_test(test_misdirected),
		cmocka_unit_test(test_zeros_and_garbage),
		cmocka_unit_test(test_fd),
		cmocka_unit_test(test_file_id),
		cmocka_unit_test(test_not_a_key_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
