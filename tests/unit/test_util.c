/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_util.c - util's small fd and string helpers: all_digits,
 * read_full (short reads and end of file), opendir_at (a stream with its
 * own offset, where fdopendir(dup(fd)) would share one).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

static void test_all_digits(void **state)
{
	(void)state;
	assert_true(all_digits("0"));
	assert_true(all_digits("1234567890"));
	assert_false(all_digits(""));
	assert_false(all_digits("12a"));
	assert_false(all_digits("-1"));
	assert_false(all_digits(" 1"));
	assert_false(all_digits("latest"));
}

static void test_read_full(void **state)
{
	char buf[16];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	/* two writes: a pipe read returns them one at a time */
	assert_int_equal(write(p[1], "abc", 3), 3);
	assert_int_equal(write(p[1], "defgh", 5), 5);
	close(p[1]);
	assert_int_equal(read_full(p[0], buf, 6), 6);
	assert_memory_equal(buf, "abcdef", 6);
	/* end of file cuts the count short */
	assert_int_equal(read_full(p[0], buf, sizeof(buf)), 2);
	assert_memory_equal(buf, "gh", 2);
	assert_int_equal(read_full(p[0], buf, sizeof(buf)), 0);
	close(p[0]);
	assert_int_equal(read_full(-1, buf, 1), -1);
}

static size_t count_entries(DIR *d)
{
	size_t n = 0;

	while (readdir(d))
		n++;
	return n;
}

static void test_opendir_at(void **state)
{
	char dir[] = "/tmp/fslab-test-util-XXXXXX";
	DIR *a, *b;
	int dfd, fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	fd = openat(dfd, "f", O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	/* each stream sees all three entries (., .., f): no shared offset */
	a = opendir_at(dfd);
	assert_non_null(a);
	assert_int_equal(count_entries(a), 3);
	b = opendir_at(dfd);
	assert_non_null(b);
	assert_int_equal(count_entries(b), 3);
	closedir(a);
	closedir(b);
	/* a file is not a directory: NULL with errno, nothing leaked */
	fd = openat(dfd, "f", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_null(opendir_at(fd));
	assert_int_equal(errno, ENOTDIR);
	close(fd);
	assert_int_equal(unlinkat(dfd, "f", 0), 0);
	close(dfd);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_digits),
		cmocka_unit_test(test_read_full),
		cmocka_unit_test(test_opendir_at),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
