/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_frag_openq.c - batched opens through io_uring and the plain
 * fallback give the same answers: each fd is the named file (same
 * inode), a missing name is -ENOENT, a symlink with O_NOFOLLOW is
 * -ELOOP, more names than one ring batch work, and queued closes are
 * really done by the next batch or a flush (no fd is left open).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

#include "frag/openq.h"

#define NFILES (OPENQ_BATCH + 9)

static char tmpl[] = "/tmp/fslab-openq.XXXXXX";
static ino_t inos[NFILES];

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the DIR's own fd */
}

static int setup(void **state)
{
	char p[256];

	(void)state;
	if (!mkdtemp(tmpl))
		return -1;
	for (int i = 0; i < NFILES; i++) {
		struct stat st;
		int fd;

		snprintf(p, sizeof(p), "%s/f%d", tmpl, i);
		fd = open(p, O_WRONLY | O_CREAT, 0644);
		if (fd < 0 || fstat(fd, &st) < 0)
			return -1;
		inos[i] = st.st_ino;
		close(fd);
	}
	snprintf(p, sizeof(p), "%s/link", tmpl);
	return symlink("f0", p);
}

static int teardown(void **state)
{
	char p[256];

	(void)state;
	for (int i = 0; i < NFILES; i++) {
		snprintf(p, sizeof(p), "%s/f%d", tmpl, i);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/link", tmpl);
	unlink(p);
	return rmdir(tmpl);
}

static void check_mode(bool ring)
{
	char names[NFILES + 2][16];
	const char *ptr[OPENQ_BATCH];
	int fds[OPENQ_BATCH], before = open_fds();
	int dfd = open(tmpl, O_RDONLY | O_DIRECTORY);
	struct openq q;
	size_t total = NFILES + 2;

	assert_true(dfd >= 0);
	openq_init(&q, ring);
	if (!ring)
		assert_false(openq_uses_ring(&q));
	for (int i = 0; i < NFILES; i++)
		snprintf(names[i], sizeof(names[i]), "f%d", i);
	snprintf(names[NFILES], sizeof(names[0]), "missing");
	snprintf(names[NFILES + 1], sizeof(names[0]), "link");
	for (size_t at = 0; at < total; at += OPENQ_BATCH) {
		size_t n = total - at < OPENQ_BATCH ? total - at
						    : OPENQ_BATCH;

		for (size_t i = 0; i < n; i++)
			ptr[i] = names[at + i];
		openq_open(&q, dfd, ptr, n, O_RDONLY | O_NOFOLLOW |
			   O_CLOEXEC, fds);
		for (size_t i = 0; i < n; i++) {
			size_t k = at + i;
			struct stat st;

			if (k == NFILES) {
				assert_int_equal(fds[i], -ENOENT);
			} else if (k == NFILES + 1) {
				assert_int_equal(fds[i], -ELOOP);
			} else {
				assert_true(fds[i] >= 0);
				assert_int_equal(fstat(fds[i], &st), 0);
				assert_int_equal(st.st_ino, inos[k]);
				openq_close(&q, fds[i]);
			}
		}
	}
	openq_flush(&q);
	close(dfd);
	assert_int_equal(open_fds(), before + (openq_uses_ring(&q) ? 1 : 0));
	openq_release(&q);
	assert_int_equal(open_fds(), before);
}

static void test_plain(void **state)
{
	(void)state;
	check_mode(false);
}

static void test_ring(void **state)
{
	(void)state;
	/* Where io_uring is refused this is the fallback again: fine. */
	check_mode(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_ring),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
