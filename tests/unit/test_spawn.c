/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_spawn.c - util/spawn: stdout and stderr kept apart or merged in
 * the order printed, the exit code, a program that cannot start, the
 * stdout cap, the working directory from a fd, stdin from /dev/null, and
 * a stop request ending the child.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/spawn.h"

static int sh(const char *script, size_t cap, unsigned flags, int dirfd,
	      bool (*stop)(void), struct spawn_result *res)
{
	char a0[] = "sh", a1[] = "-c", *a2 = strdup(script);
	char *argv[] = { a0, a1, a2, NULL };
	int rc = spawn_run(argv, dirfd, cap, flags, stop, res);

	free(a2);
	return rc;
}

static void test_streams(void **state)
{
	struct spawn_result res;

	(void)state;
	assert_int_equal(sh("echo out; echo err >&2; echo more", 1024, 0, -1,
			    NULL, &res), 0);
	assert_string_equal(res.out, "out\nmore\n");
	assert_string_equal(res.err, "err\n");
	assert_int_equal(res.code, 0);
	spawn_result_release(&res);

	assert_int_equal(sh("echo a; echo b >&2; echo c", 1024,
			    SPAWN_MERGE_ERR, -1, NULL, &res), 0);
	assert_string_equal(res.out, "a\nb\nc\n");
	assert_string_equal(res.err, "");
	spawn_result_release(&res);
}

static void test_codes(void **state)
{
	char prog[] = "/nonexistent/fslab-no-such-program";
	char *missing[] = { prog, NULL };
	struct spawn_result res;

	(void)state;
	assert_int_equal(sh("exit 3", 1024, 0, -1, NULL, &res), 0);
	assert_int_equal(res.code, 3);
	assert_false(res.stopped);
	spawn_result_release(&res);
	assert_int_equal(sh("kill -9 $$", 1024, 0, -1, NULL, &res), 0);
	assert_int_equal(res.code, 128 + 9);
	spawn_result_release(&res);
	assert_int_equal(spawn_run(missing, -1, 1024, 0, NULL, &res), -1);
}

static void test_cap_dir_stdin(void **state)
{
	struct spawn_result res;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	(void)state;
	assert_int_equal(sh("head -c 100000 /dev/zero | tr '\\0' x", 1000, 0,
			    -1, NULL, &res), 0);
	assert_int_equal(res.out_len, 1000);
	assert_true(res.out_truncated);
	assert_int_equal(res.code, 0); /* the rest was read, not refused */
	spawn_result_release(&res);

	assert_true(fd >= 0);
	assert_int_equal(sh("pwd; cat; echo end", 1024, 0, fd, NULL, &res), 0);
	assert_string_equal(res.out, "/\nend\n");
	spawn_result_release(&res);
	close(fd);
}

static int polls;

static bool stop_soon(void)
{
	return ++polls > 2;
}

static void test_stop(void **state)
{
	struct spawn_result res;

	(void)state;
	assert_int_equal(sh("sleep 600", 1024, 0, -1, stop_soon, &res), 0);
	assert_true(res.stopped);
	assert_int_equal(res.code, 128 + 15);
	spawn_result_release(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_cap_dir_stdin),
		cmocka_unit_test(test_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
