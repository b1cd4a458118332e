/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_opt.c - option tables and key=val lists (src/util/opt.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/opt.h"
#include "util/util.h"

struct topts {
	long long runs;
	uint64_t size;
	bool sync;
	char *name;
	int mode;
	double frac;
	uint64_t bufsize, byte_io;
};

static const struct opt_enum modes[] = {
	{ "fast", 1, "quick" }, { "slow", 2, "careful" }, { NULL, 0, NULL },
};

static const struct opt tab[] = {
	{ "runs", OPT_INT, offsetof(struct topts, runs), "30", "how many",
	  1, 1000, NULL },
	{ "size", OPT_SIZE, offsetof(struct topts, size), "8G", "bytes", 0, 0,
	  NULL },
	{ "sync", OPT_BOOL, offsetof(struct topts, sync), "1", "sync", 0, 0,
	  NULL },
	{ "name", OPT_STRING, offsetof(struct topts, name), "", "label", 0, 0,
	  NULL },
	{ "mode", OPT_ENUM, offsetof(struct topts, mode), "fast", "mode", 0, 0,
	  modes },
	{ "frac", OPT_DOUBLE, offsetof(struct topts, frac), "0.5", "fraction",
	  0, 1, NULL },
	{ "bufsize", OPT_SIZE, offsetof(struct topts, bufsize), "4k", "buf",
	  0, 0, NULL },
	{ "byte_io", OPT_SIZE, offsetof(struct topts, byte_io), "1k", "io",
	  0, 0, NULL },
	OPT_END,
};

static void test_kv_split(void **state)
{
	static const struct {
		const char *in;
		size_t nr;
		const char *k1, *v1, *k2, *v2;
	} cases[] = {
		{ "a=1,b=2", 2, "a", "1", "b", "2" },
		{ "mount=data=writeback\\,noatime", 1, "mount",
		  "data=writeback,noatime", NULL, NULL },
		{ "mount='x,y',name=z", 2, "mount", "x,y", "name", "z" },
		{ "m=\"a,b\"", 1, "m", "a,b", NULL, NULL },
		{ "flag,b=", 2, "flag", "", "b", "" },
		{ "p=it's", 1, "p", "it's", NULL, NULL },
		{ "", 0, NULL, NULL, NULL, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kvlist l;
		char err[128];

		assert_int_equal(kv_parse(cases[i].in, &l, err, sizeof(err)),
				 0);
		assert_int_equal(l.nr, cases[i].nr);
		if (cases[i].k1) {
			assert_string_equal(l.v[0].key, cases[i].k1);
			assert_string_equal(l.v[0].val, cases[i].v1);
		}
		if (cases[i].k2) {
			assert_string_equal(l.v[1].key, cases[i].k2);
			assert_string_equal(l.v[1].val, cases[i].v2);
		}
		kv_release(&l);
	}
}

static void test_kv_errors(void **state)
{
	static const char *const bad[] = { "a='x", "=1", "a=1,\\", "a=1,,b" };
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kvlist l;
		char err[128] = "";

		assert_int_equal(kv_parse(bad[i], &l, err, sizeof(err)), -1);
		assert_true(err[0] != '\0');
	}
}

static void test_defaults_and_parse(void **state)
{
	struct topts o;
	char err[256];
	(void)state;

	opt_defaults(tab, &o);
	assert_int_equal(o.runs, 30);
	assert_int_equal(o.size, 8ULL << 30);
	assert_true(o.sync);
	assert_string_equal(o.name, "");
	assert_int_equal(o.mode, 1);
	assert_int_equal(opt_parse(tab, &o, "runs=6,size=1m,sync=no,"
				   "name=x\\,y,mode=slow,frac=0.25",
				   err, sizeof(err)), 0);
	assert_int_equal(o.runs, 6);
	assert_int_equal(o.size, 1 << 20);
	assert_false(o.sync);
	assert_string_equal(o.name, "x,y");
	assert_int_equal(o.mode, 2);
	assert_true(o.frac == 0.25);
	opt_release(tab, &o);
}

/* One key convention: '-' and '_' are the same; buffer-size = bufsize. */
static void test_key_spellings(void **state)
{
	struct topts o;
	char err[256];
	(void)state;

	opt_defaults(tab, &o);
	assert_int_equal(opt_parse(tab, &o, "byte-io=2k,buffer-size=8k",
				   err, sizeof(err)), 0);
	assert_int_equal(o.byte_io, 2048);
	assert_int_equal(o.bufsize, 8192);
	assert_int_equal(opt_parse(tab, &o, "byte_io=3k,buffer_size=16k",
				   err, sizeof(err)), 0);
	assert_int_equal(o.byte_io, 3072);
	assert_int_equal(o.bufsize, 16384);
	assert_int_equal(opt_parse(tab, &o, "byteio=1", err, sizeof(err)),
			 -1);
	opt_release(tab, &o);
}

static void test_parse_errors(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "rns=3", "did you mean 'runs'" },
		{ "bogus=1", "unknown option 'bogus'" },
		{ "runs=0", "out of range" },
		{ "runs=x", "not an integer" },
		{ "size=12q", "not a size" },
		{ "sync=maybe", "not a boolean" },
		{ "mode=medium", "one of fast|slow" },
		{ "frac=2", "out of range" },
		{ "runs", "needs a value" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topts o;
		char err[256] = "";

		opt_defaults(tab, &o);
		assert_int_equal(opt_parse(tab, &o, cases[i].in, err,
					   sizeof(err)), -1);
		if (!strstr(err, cases[i].want))
			fail_msg("'%s': got '%s', want '%s'", cases[i].in, err,
				 cases[i].want);
		opt_release(tab, &o);
	}
}

static void test_format_roundtrip(void **state)
{
	struct topts a, b;
	char err[256];
	char *s;
	(void)state;

	opt_defaults(tab, &a);
	assert_int_equal(opt_parse(tab, &a, "name=a\\,b\\\\c,mode=slow", err,
				   sizeof(err)), 0);
	s = opt_format(tab, &a);
	opt_defaults(tab, &b);
	assert_int_equal(opt_parse(tab, &b, s, err, sizeof(err)), 0);
	assert_string_equal(a.name, b.name);
	assert_string_equal(b.name, "a,b\\c");
	assert_int_equal(a.mode, b.mode);
	assert_int_equal(a.size, b.size);
	free(s);
	opt_release(tab, &a);
	opt_release(tab, &b);
}

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(str_distance("kitten", "sitting"), 3);
	assert_int_equal(str_distance("", "abc"), 3);
	assert_int_equal(str_distance("same", "same"), 0);
	assert_string_equal(opt_suggest(tab, "szie"), "size");
	assert_null(opt_suggest(tab, "completely-different"));
}

static void test_util_parsers(void **state)
{
	static const struct {
		const char *in;
		int rc;
		uint64_t want;
	} sizes[] = {
		{ "0", 0, 0 },         { "512", 0, 512 },
		{ "4k", 0, 4096 },     { "8G", 0, 8ULL << 30 },
		{ "1MiB", 0, 1 << 20 }, { "2mb", 0, 2 << 20 },
		{ "1t", 0, 1ULL << 40 }, { "-1", -1, 0 },
		{ "1x", -1, 0 },       { "", -1, 0 },
		{ "99999999999999999999", -1, 0 },
		{ "20000000000000000000k", -1, 0 },
	};
	char err[64];
	char **av;
	(void)state;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t v = 0;
		int rc = parse_size(sizes[i].in, &v);

		assert_int_equal(rc, sizes[i].rc);
		if (!rc)
			assert_int_equal(v, sizes[i].want);
	}
	av = argv_split("-O ^flex_bg  -E 'lazy_itable_init=0' \"a b\"", err,
			sizeof(err));
	assert_non_null(av);
	assert_int_equal(argv_len(av), 5);
	assert_string_equal(av[1], "^flex_bg");
	assert_string_equal(av[3], "lazy_itable_init=0");
	assert_string_equal(av[4], "a b");
	argv_free(av);
	assert_null(argv_split("'open", err, sizeof(err)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_split),
		cmocka_unit_test(test_kv_errors),
		cmocka_unit_test(test_defaults_and_parse),
		cmocka_unit_test(test_key_spellings),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_format_roundtrip),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_util_parsers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
