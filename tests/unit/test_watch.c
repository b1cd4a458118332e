/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_watch.c - the pure parts of progress, pre-flight, provenance and
 * the report's glyph sharing: shell quoting (the stored command pastes
 * back), ETA and time formats, filesystem capacity estimates, output
 * path checks, the mkfs command line, shared SVG glyphs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fs/mkfs.h"
#include "output/svgglyph.h"
#include "run/preflight.h"
#include "phase/progress.h"
#include "util/shquote.h"
#include "util/util.h"

static void test_sh_quote(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "run", "run" },
		{ "ext4:size=1G,name=a", "ext4:size=1G,name=a" },
		{ "/var/tmp/x.db", "/var/tmp/x.db" },
		{ "ext4:mkfs=-O ^flex_bg", "'ext4:mkfs=-O ^flex_bg'" },
		{ "it's", "'it'\\''s'" },
		{ "", "''" },
		{ "a\\,b", "'a\\,b'" },
		{ "$HOME", "'$HOME'" },
		{ "=x", "'=x'" },
		{ "~", "'~'" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *q = sh_quote(cases[i].in);

		assert_string_equal(q, cases[i].out);
		free(q);
	}
}

/* What the shell makes of sh_join's output is the argv we started from. */
static void test_sh_join_roundtrip(void **state)
{
	const char *argv[] = { "fslab", "run", "-t",
			       "ext4:mkfs=-O ^flex_bg -m 1,name=it's",
			       "--tag", "a b", "" };
	char *s = sh_join(ARRAY_SIZE(argv), argv), err[128];
	char **back = argv_split(s, err, sizeof(err));

	(void)state;
	assert_non_null(back);
	assert_int_equal(argv_len(back), ARRAY_SIZE(argv));
	for (size_t i = 0; i < ARRAY_SIZE(argv); i++)
		assert_string_equal(back[i], argv[i]);
	argv_free(back);
	free(s);
}

static void test_progress_eta(void **state)
{
	char buf[32];

	(void)state;
	assert_true(progress_eta(2.0, 0, 100) < 0);
	assert_true(progress_eta(2.0, 10, 0) < 0);
	assert_true(progress_eta(0, 10, 100) < 0);
	assert_float_equal(progress_eta(2.0, 25, 100), 6.0, 1e-9);
	assert_float_equal(progress_eta(2.0, 100, 100), 0.0, 1e-9);
	assert_float_equal(progress_eta(2.0, 150, 100), 0.0, 1e-9);
	assert_string_equal(progress_fmt_secs(buf, sizeof(buf), 3.21), "3.2 s");
	assert_string_equal(progress_fmt_secs(buf, sizeof(buf), 65), "1m05s");
	assert_string_equal(progress_fmt_secs(buf, sizeof(buf), 3725),
			    "1h02m");
	assert_string_equal(progress_fmt_secs(buf, sizeof(buf), -1), "?");
}

static void test_fs_capacity(void **state)
{
	uint64_t bytes, inodes;

	(void)state;
	preflight_fs_capacity("ext4", NULL, 1ULL << 30, &bytes, &inodes);
	assert_true(bytes < (1ULL << 30) && bytes > (1ULL << 30) / 10 * 8);
	assert_int_equal(inodes, (1ULL << 30) / 16384);
	preflight_fs_capacity("ext4", NULL, 256ULL << 20, &bytes, &inodes);
	assert_int_equal(inodes, (256ULL << 20) / 4096);
	/* mkfs= that sets the inode count: no estimate. */
	preflight_fs_capacity("ext4", "-N 100000", 1ULL << 30, &bytes,
			      &inodes);
	assert_int_equal(inodes, 0);
	/* xfs and btrfs allocate inodes as they go. */
	preflight_fs_capacity("xfs", NULL, 1ULL << 30, &bytes, &inodes);
	assert_int_equal(inodes, 0);
}

static void test_output_path(void **state)
{
	char why[512], dir[] = "/tmp/fslab-unit-XXXXXX", *p;

	(void)state;
	assert_int_equal(preflight_output_path("-", "--json", why,
					       sizeof(why)), 0);
	assert_int_equal(preflight_output_path(NULL, "--json", why,
					       sizeof(why)), 0);
	assert_non_null(mkdtemp(dir));
	p = xasprintf("%s/x.json", dir);
	assert_int_equal(preflight_output_path(p, "--json", why, sizeof(why)),
			 0);
	free(p);
	p = xasprintf("%s/nodir/x.json", dir);
	assert_int_equal(preflight_output_path(p, "--json", why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "does not exist"));
	free(p);
	assert_int_equal(preflight_output_path(dir, "-o", why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "is a directory"));
	rmdir(dir);
}

static void test_mkfs_command(void **state)
{
	char *s;

	(void)state;
	s = mkfs_command("ext4", "-O ^flex_bg", "/dev/loop3");
	assert_string_equal(s, "mkfs.ext4 -F -q -O ^flex_bg /dev/loop3");
	free(s);
	s = mkfs_command("xfs", NULL, NULL);
	assert_string_equal(s, "mkfs.xfs -f -q DEVICE");
	free(s);
}

static char *put(const char *svg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	svg_glyphs_put(f, svg);
	fclose(f);
	return buf;
}

static void test_svg_glyphs(void **state)
{
	static const char a[] =
		"<svg><defs><g>\n"
		"<symbol overflow=\"visible\" id=\"c1-glyph0-0\">\n<path d=\"A\"/>\n</symbol>\n"
		"<symbol overflow=\"visible\" id=\"c1-glyph0-1\">\n<path d=\"B\"/>\n</symbol>\n"
		"</g></defs><use xlink:href=\"#c1-glyph0-1\" x=\"1\"/>"
		"<use xlink:href=\"#c1-glyph0-0\" x=\"2\"/><a xlink:href=\"#other\"/></svg>";
	static const char b[] =
		"<svg><defs><g>\n"
		"<symbol overflow=\"visible\" id=\"c2-glyph0-0\">\n<path d=\"B\"/>\n</symbol>\n"
		"<symbol overflow=\"visible\" id=\"c2-glyph0-1\">\n<path d=\"C\"/>\n</symbol>\n"
		"</g></defs><use xlink:href=\"#c2-glyph0-0\" x=\"1\"/>"
		"<use xlink:href=\"#c2-glyph0-1\" x=\"2\"/></svg>";
	char *x, *y;

	(void)state;
	svg_glyphs_reset();
	x = put(a);
	y = put(b);
	/* a defines A and B; b only C, and reuses B. */
	assert_non_null(strstr(x, "id=\"fslab-g0\">\n<path d=\"A\"/>\n</symbol>"));
	assert_non_null(strstr(x, "id=\"fslab-g1\">\n<path d=\"B\"/>\n</symbol>"));
	assert_non_null(strstr(x, "<use xlink:href=\"#fslab-g1\" x=\"1\"/>"
			       "<use xlink:href=\"#fslab-g0\" x=\"2\"/>"));
	assert_non_null(strstr(x, "xlink:href=\"#other\""));
	assert_null(strstr(x, "c1-glyph"));
	assert_null(strstr(y, "\"B\""));
	assert_non_null(strstr(y, "id=\"fslab-g2\">\n<path d=\"C\"/>"));
	assert_non_null(strstr(y, "<use xlink:href=\"#fslab-g1\" x=\"1\"/>"
			       "<use xlink:href=\"#fslab-g2\" x=\"2\"/>"));
	free(x);
	free(y);
	/* Nothing to share: the text passes unchanged. */
	x = put("<svg><rect/></svg>");
	assert_string_equal(x, "<svg><rect/></svg>");
	free(x);
	svg_glyphs_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sh_quote),
		cmocka_unit_test(test_sh_join_roundtrip),
		cmocka_unit_test(test_progress_eta),
		cmocka_unit_test(test_fs_capacity),
		cmocka_unit_test(test_output_path),
		cmocka_unit_test(test_mkfs_command),
		cmocka_unit_test(test_svg_glyphs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
