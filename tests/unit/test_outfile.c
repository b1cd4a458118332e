/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_outfile.c - the user's output files (util/outfile.h): written
 * whole and renamed into place, so a planted link is replaced and never
 * written through, a failed write leaves the old file, no temporary file
 * stays behind; streams are written in place; another user's symlink is
 * refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/outfile.h"
#include "util/util.h"

static char dir[] = "/tmp/fslab-outfile-XXXXXX";

static char *at(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file's whole content (short files only). */
static char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static size_t entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static int write_text(const char *path, const char *text)
{
	struct outfile of;

	if (!outfile_open(&of, path))
		return -1;
	fputs(text, of.f);
	return outfile_commit(&of);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	int rc = system(cmd);

	(void)state;
	free(cmd);
	return rc;
}

static void test_new_and_replaced(void **state)
{
	char *p = at("new"), *other = at("hardlink");
	struct stat st;

	(void)state;
	assert_int_equal(write_text(p, "one\n"), 0);
	assert_string_equal(get(p), "one\n");
	assert_int_equal(entries(), 1); /* no temporary file left */
	/* A hard link to the old file keeps the old content: the name
	 * gets a new inode, nothing is written through. */
	assert_int_equal(link(p, other), 0);
	assert_int_equal(write_text(p, "two\n"), 0);
	assert_string_equal(get(p), "two\n");
	assert_string_equal(get(other), "one\n");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_nlink, 1);
	assert_int_equal(entries(), 2);
	unlink(p);
	unlink(other);
	free(p);
	free(other);
}

static void test_abort_keeps_old(void **state)
{
	char *p = at("kept");
	struct outfile of;

	(void)state;
	put(p, "old\n");
	assert_non_null(outfile_open(&of, p));
	fputs("half", of.f);
	outfile_abort(&of);
	assert_string_equal(get(p), "old\n");
	assert_int_equal(entries(), 1);
	unlink(p);
	free(p);
}

static void test_foreign_symlink_refused(void **state)
{
	char *p = at("link"), *victim = at("victim");
	struct outfile of;

	(void)state;
	put(victim, "precious\n");
	assert_int_equal(symlink(victim, p), 0);
	if (lchown(p, 65534, 65534) < 0) {
		unlink(p);
		unlink(victim);
		free(p);
		free(victim);
		skip(); /* not root: cannot plant another user's link */
	}
	assert_null(outfile_open(&of, p));
	assert_string_equal(get(victim), "precious\n");
	assert_int_equal(entries(), 2);
	unlink(p);
	unlink(victim);
	free(p);
	free(victim);
}

static void test_own_symlink_followed(void **state)
{
	char *p = at("mylink"), *real = at("real");
	struct stat st;

	(void)state;
	put(real, "old\n");
	assert_int_equal(symlink(real, p), 0);
	assert_int_equal(write_text(p, "new\n"), 0);
	assert_string_equal(get(real), "new\n");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISLNK(st.st_mode)); /* the link stays a link */
	assert_int_equal(entries(), 2);
	unlink(p);
	unlink(real);
	free(p);
	free(real);
}

static void test_streams_and_refusals(void **state)
{
	char *fifo = at("fifo");
	struct outfile of;
	struct stat st;

	(void)state;
	/* A device is written in place and stays a device. */
	assert_int_equal(write_text("/dev/null", "x\n"), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	/* A directory is no file to write. */
	assert_null(outfile_open(&of, dir));
	/* A FIFO is opened in place (here with a reader: ourselves). */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	{
		FILE *r;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid) {
			r = fopen(fifo, "r");
			_exit(r && fgetc(r) == 'y' ? 0 : 1);
		}
		assert_int_equal(write_text(fifo, "y\n"), 0);
		assert_int_equal(lstat(fifo, &st), 0);
		assert_true(S_ISFIFO(st.st_mode));
		{
			int status;

			assert_int_equal(waitpid(pid, &status, 0), pid);
			assert_true(WIFEXITED(status));
			assert_int_equal(WEXITSTATUS(status), 0);
		}
	}
	unlink(fifo);
	free(fifo);
	/* "-" is stdout. */
	assert_non_null(outfile_open(&of, "-"));
	assert_ptr_equal(of.f, stdout);
	assert_int_equal(outfile_commit(&of), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_and_replaced),
		cmocka_unit_test(test_abort_keeps_old),
		cmocka_unit_test(test_foreign_symlink_refused),
		cmocka_unit_test(test_own_symlink_followed),
		cmocka_unit_test(test_streams_and_refusals),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
