/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_tarball.c - tarball reading: small archives written here with
 * libarchive's write API in every compression the `tree` workload
 * accepts (none, gzip, bzip2, xz, zstd) are read back entry by entry,
 * as a tree model, and after decompressing into memory; plus the path
 * normalisation that keeps entries inside the tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/tarball.h"
#include "model/treemodel.h"

#define BIG 300000

static void add(struct archive *a, const char *path, mode_t type,
		const char *data, size_t len, const char *link, bool hard)
{
	struct archive_entry *e = archive_entry_new();

	archive_entry_set_pathname(e, path);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, type == AE_IFDIR ? 0755 : 0644);
	if (hard)
		archive_entry_set_hardlink(e, link);
	else if (link)
		archive_entry_set_symlink(e, link);
	archive_entry_set_size(e, (la_int64_t)len);
	assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
	if (len)
		assert_int_equal(archive_write_data(a, data, len),
				 (la_ssize_t)len);
	archive_entry_free(e);
}

static char *big_data(void)
{
	char *b = malloc(BIG);

	assert_non_null(b);
	for (size_t i = 0; i < BIG; i++)
		b[i] = (char)('a' + i * 7 % 26);
	return b;
}

/* Write the test archive with filter f to path; false if unsupported. */
static bool make_archive(const char *path, int f)
{
	struct archive *a = archive_write_new();
	char *big = big_data();

	assert_non_null(a);
	assert_int_equal(archive_write_set_format_pax_restricted(a),
			 ARCHIVE_OK);
	if (archive_write_add_filter(a, f) != ARCHIVE_OK) {
		archive_write_free(a);
		free(big);
		return false;
	}
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	add(a, "./", AE_IFDIR, NULL, 0, NULL, false);
	add(a, "./linux/", AE_IFDIR, NULL, 0, NULL, false);
	add(a, "./linux/Makefile", AE_IFREG, "all:\n", 5, NULL, false);
	add(a, "linux/mm/", AE_IFDIR, NULL, 0, NULL, false);
	add(a, "linux/mm/big.c", AE_IFREG, big, BIG, NULL, false);
	add(a, "linux/empty/", AE_IFDIR, NULL, 0, NULL, false);
	add(a, "linux/link", AE_IFLNK, NULL, 0, "mm/big.c", false);
	add(a, "linux/hard", AE_IFREG, NULL, 0, "linux/mm/big.c", true);
	add(a, "../evil", AE_IFREG, "x", 1, NULL, false);
	add(a, "linux/fifo", AE_IFIFO, NULL, 0, NULL, false);
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	free(big);
	return true;
}

static void check_entries(struct tarball *t)
{
	struct tar_entry e;
	char buf[65536];
	uint64_t got = 0;
	bool same = true;
	char *big = big_data();
	ssize_t n;

	assert_int_equal(tarball_next(t, &e), 1);
	assert_string_equal(e.path, "linux");
	assert_int_equal(e.type, TM_DIR);
	assert_int_equal(tarball_next(t, &e), 1);
	assert_string_equal(e.path, "linux/Makefile");
	assert_int_equal(e.type, TM_FILE);
	assert_int_equal(e.size, 5);
	assert_int_equal(tarball_read(t, buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "all:\n", 5);
	assert_int_equal(tarball_read(t, buf, sizeof(buf)), 0);
	assert_int_equal(tarball_next(t, &e), 1);
	assert_string_equal(e.path, "linux/mm");
	assert_int_equal(tarball_next(t, &e), 1);
	assert_string_equal(e.path, "linux/mm/big.c");
	assert_int_equal(e.size, BIG);
	while ((n = tarball_read(t, buf, sizeof(buf))) > 0) {
		same = same && !memcmp(buf, big + got, (size_t)n);
		got += (uint64_t)n;
	}
	assert_int_equal(n, 0);
	assert_int_equal(got, BIG);
	assert_true(same);
	assert_int_equal(tarball_next(t, &e), 1);
	assert_string_equal(e.path, "linux/empty");
	assert_int_equal(tarball_next(t, &e), 1);
	assert_string_equal(e.path, "linux/link");
	assert_int_equal(e.type, TM_LINK);
	assert_string_equal(e.target, "mm/big.c");
	assert_int_equal(tarball_next(t, &e), 1);
	assert_string_equal(e.path, "linux/hard");
	assert_true(e.hardlink);
	assert_string_equal(e.target, "linux/mm/big.c");
	/* ../evil and the fifo are skipped */
	assert_int_equal(tarball_next(t, &e), 0);
	assert_int_equal(t->skipped, 3); /* "./" too */
	free(big);
}

static void one_format(int filter, const char *name)
{
	char path[] = "/tmp/fslab-tarball-XXXXXX";
	struct treemodel m;
	struct tarball t;
	char *mem;
	size_t len;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	if (!make_archive(path, filter)) {
		/* cmocka counts it as skipped, not passed */
		printf("libarchive cannot write %s here\n", name);
		unlink(path);
		skip();
	}
	assert_int_equal(tarball_open(&t, path), 0);
	check_entries(&t);
	tarball_close(&t);

	treemodel_init(&m);
	assert_int_equal(tarball_load(&m, path), 0);
	assert_int_equal(m.nr, 7);
	assert_int_equal(m.bytes, 5 + 2 * BIG);
	assert_int_equal(treemodel_get(&m, "linux/hard")->size, BIG);
	assert_int_equal(treemodel_get(&m, "linux/empty")->type, TM_DIR);
	treemodel_release(&m);

	assert_int_equal(tarball_decompress(path, &mem, &len), 0);
	assert_true(len > BIG);
	assert_memory_not_equal(mem, "\x1f\x8b", 2);
	assert_int_equal(tarball_open_memory(&t, mem, len, name), 0);
	check_entries(&t);
	assert_true(t.lib_ns > 0);
	tarball_close(&t);
	free(mem);
	unlink(path);
}

static void test_plain(void **state)
{
	(void)state;
	one_format(ARCHIVE_FILTER_NONE, "tar");
}

static void test_gzip(void **state)
{
	(void)state;
	one_format(ARCHIVE_FILTER_GZIP, "gzip");
}

static void test_bzip2(void **state)
{
	(void)state;
	one_format(ARCHIVE_FILTER_BZIP2, "bzip2");
}

static void test_xz(void **state)
{
	(void)state;
	one_format(ARCHIVE_FILTER_XZ, "xz");
}

static void test_zstd(void **state)
{
	(void)state;
	one_format(ARCHIVE_FILTER_ZSTD, "zstd");
}

static void test_bad(void **state)
{
	char path[] = "/tmp/fslab-tarball-XXXXXX";
	struct tarball t;
	struct tar_entry e;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not a tarball at all\n", 21), 21);
	close(fd);
	fprintf(stderr, "expect an error: ");
	if (!tarball_open(&t, path)) {
		assert_int_equal(tarball_next(&t, &e), -1);
		tarball_close(&t);
	}
	fprintf(stderr, "expect an error: ");
	assert_int_equal(tarball_open(&t, "/nonexistent/x.tar"), -1);
	unlink(path);
}

static void test_norm_path(void **state)
{
	char out[16];

	(void)state;
	assert_int_equal(tarball_norm_path("./a/b/", out, sizeof(out)), 0);
	assert_string_equal(out, "a/b");
	assert_int_equal(tarball_norm_path("/abs//x/./y", out, sizeof(out)),
			 0);
	assert_string_equal(out, "abs/x/y");
	assert_int_equal(tarball_norm_path("././a", out, sizeof(out)), 0);
	assert_string_equal(out, "a");
	assert_int_equal(tarball_norm_path(".hidden", out, sizeof(out)), 0);
	assert_string_equal(out, ".hidden");
	assert_int_equal(tarball_norm_path("..x/y", out, sizeof(out)), 0);
	assert_string_equal(out, "..x/y");
	assert_int_equal(tarball_norm_path("a/../b", out, sizeof(out)), -1);
	assert_int_equal(tarball_norm_path("./", out, sizeof(out)), -1);
	assert_int_equal(tarball_norm_path(".", out, sizeof(out)), -1);
	assert_int_equal(tarball_norm_path("", out, sizeof(out)), -1);
	assert_int_equal(tarball_norm_path("0123456789/abcdef", out,
					   sizeof(out)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_bzip2),
		cmocka_unit_test(test_xz),
		cmocka_unit_test(test_zstd),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_norm_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
