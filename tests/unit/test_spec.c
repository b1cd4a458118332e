/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_spec.c - table-driven tests of the target SPEC grammar
 * (target_spec_parse): every accepted form with the fields it yields, and
 * every rejected form with a piece of the message the user will read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fs/target.h"

struct good_case {
	const char *spec;
	enum target_kind kind;
	const char *fstype, *mkfs, *mount, *name, *path;
	uint64_t size;
};

static const struct good_case good[] = {
	{ "ext4", TARGET_LOOP, "ext4", NULL, NULL, "ext4", NULL,
	  TARGET_DEFAULT_SIZE },
	{ "xfs:size=1G", TARGET_LOOP, "xfs", NULL, NULL, "xfs", NULL,
	  1ULL << 30 },
	{ "ext4:mount=noatime", TARGET_LOOP, "ext4", NULL, "noatime",
	  "ext4(noatime)", NULL, TARGET_DEFAULT_SIZE },
	{ "ext4:mount=data=writeback\\,noatime", TARGET_LOOP, "ext4", NULL,
	  "data=writeback,noatime", "ext4(data=writeback,noatime)", NULL,
	  TARGET_DEFAULT_SIZE },
	{ "ext4:mount='data=writeback,noatime'", TARGET_LOOP, "ext4", NULL,
	  "data=writeback,noatime", "ext4(data=writeback,noatime)", NULL,
	  TARGET_DEFAULT_SIZE },
	{ "ext4:mkfs=-O ^flex_bg,mount=noatime\\,nobarrier,size=2g",
	  TARGET_LOOP, "ext4", "-O ^flex_bg", "noatime,nobarrier",
	  "ext4(-O ^flex_bg,noatime,nobarrier)", NULL, 2ULL << 30 },
	{ "ext4:mkfs=-b 1024,name=small", TARGET_LOOP, "ext4", "-b 1024",
	  NULL, "small", NULL, TARGET_DEFAULT_SIZE },
	{ "btrfs:size=114M", TARGET_LOOP, "btrfs", NULL, NULL, "btrfs", NULL,
	  114ULL << 20 },
	{ "f2fs:size=64M", TARGET_LOOP, "f2fs", NULL, NULL, "f2fs", NULL,
	  64ULL << 20 },
	{ "dir:/tmp", TARGET_DIR, NULL, NULL, NULL, "/tmp", "/tmp",
	  TARGET_DEFAULT_SIZE },
	{ "dir:/var/tmp/x:name=scratch", TARGET_DIR, NULL, NULL, NULL,
	  "scratch", "/var/tmp/x", TARGET_DEFAULT_SIZE },
	{ "dev:/dev/loop7", TARGET_DEV, "ext4", NULL, NULL, "ext4",
	  "/dev/loop7", TARGET_DEFAULT_SIZE },
	{ "dev:/dev/sdb:fs=xfs,mkfs=-m crc=0,mount=noatime,name=disk",
	  TARGET_DEV, "xfs", "-m crc=0", "noatime", "disk", "/dev/sdb",
	  TARGET_DEFAULT_SIZE },
	{ "dev:/dev/sdb:fs=btrfs", TARGET_DEV, "btrfs", NULL, NULL, "btrfs",
	  "/dev/sdb", TARGET_DEFAULT_SIZE },
};

struct bad_case {
	const char *spec;
	const char *msg; /* substring of the error */
	const char *msg2; /* second substring, or NULL */
};

static const struct bad_case bad[] = {
	{ "", "empty target spec", NULL },
	{ "Ext4", "bad filesystem type 'Ext4'", NULL },
	{ "ext-4", "bad filesystem type 'ext-4'", NULL },
	{ ":size=1G", "bad filesystem type ''", NULL },
	{ "ext4:", "empty option list", NULL },
	{ "ext4:sze=1G", "unknown key 'sze'", "did you mean 'size'?" },
	{ "ext4:mnt=noatime", "unknown key 'mnt'", "did you mean 'mount'?" },
	{ "ext4:bogus=1", "unknown key 'bogus'", NULL },
	{ "ext4:mount=data=writeback,noatime", "unknown item 'noatime'",
	  "write '\\,' or quote the value" },
	{ "ext4:mount=noatime,mount=relatime", "duplicate key 'mount'", NULL },
	{ "ext4:mount=", "empty value for 'mount'", NULL },
	{ "ext4:size=", "empty value for 'size'", NULL },
	{ "ext4:size=lots", "bad size 'lots'", NULL },
	{ "ext4:size=10M", "too small", "64M" },
	{ "btrfs:size=100M", "btrfs needs at least 114M", NULL },
	{ "ext4:mount='noatime", "cannot parse", NULL },
	{ "ext4:fs=xfs", "'fs' is not valid for FSTYPE: targets", NULL },
	{ "dir:", "missing path", NULL },
	{ "dir:relative", "must be absolute", NULL },
	{ "dir:/tmp:size=1G", "'size' is not valid for dir: targets", NULL },
	{ "dir:/tmp:nme=x", "unknown key 'nme'", "did you mean 'name'?" },
	{ "dev:/dev/sdb:size=1G", "'size' is not valid for dev: targets",
	  NULL },
	{ "dev:/dev/sdb:fs=Ext4", "bad filesystem type 'Ext4'", NULL },
	{ "dev:", "missing path", NULL },
};

static void assert_str(const char *want, const char *got, const char *spec,
		       const char *field)
{
	if (!want && !got)
		return;
	if (!want || !got || strcmp(want, got)) {
		print_error("%s: %s: want '%s', got '%s'\n", spec, field,
			    want ? want : "(null)", got ? got : "(null)");
		fail();
	}
}

static void test_good(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const struct good_case *c = &good[i];
		struct target_spec ts;
		char err[512] = "";

		if (target_spec_parse(c->spec, &ts, err, sizeof(err)) < 0) {
			print_error("%s: unexpected error: %s\n", c->spec,
				    err);
			fail();
		}
		assert_int_equal(ts.kind, c->kind);
		assert_str(c->spec, ts.spec, c->spec, "spec");
		assert_str(c->fstype, ts.fstype, c->spec, "fstype");
		assert_str(c->mkfs, ts.mkfs_args, c->spec, "mkfs_args");
		assert_str(c->mount, ts.mount_opts, c->spec, "mount_opts");
		assert_str(c->name, ts.name, c->spec, "name");
		assert_str(c->path, ts.path, c->spec, "path");
		if (c->kind == TARGET_LOOP)
			assert_int_equal(ts.size, c->size);
		target_spec_release(&ts);
		assert_null(ts.spec);
	}
}

static void test_bad(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct bad_case *c = &bad[i];
		struct target_spec ts;
		char err[512] = "";

		memset(&ts, 0x5a, sizeof(ts));
		if (target_spec_parse(c->spec, &ts, err, sizeof(err)) == 0) {
			print_error("'%s': accepted, expected '%s'\n", c->spec,
				    c->msg);
			target_spec_release(&ts);
			fail();
		}
		if (!strstr(err, c->msg) ||
		    (c->msg2 && !strstr(err, c->msg2))) {
			print_error("'%s': error '%s' lacks '%s' / '%s'\n",
				    c->spec, err, c->msg,
				    c->msg2 ? c->msg2 : "");
			fail();
		}
		/* One line, lowercase start, no trailing period. */
		assert_null(strchr(err, '\n'));
		assert_true(err[strlen(err) - 1] != '.');
	}
}

/* The error names the whole spec so the user sees which target it was. */
static void test_error_names_spec(void **state)
{
	struct target_spec ts;
	char err[512];

	(void)state;
	assert_int_equal(target_spec_parse("xfs:size=1G,sizee=2G", &ts, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "'xfs:size=1G,sizee=2G'"));
	assert_non_null(strstr(err, "did you mean 'size'?"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_error_names_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
