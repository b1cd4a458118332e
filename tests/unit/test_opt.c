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
#include "util/suggest.h"
#include "util/util.h"

struct topts {
	long long runs;
	uint64_t size;
	bool sync;
	char *name;
	int mode;
	double frac;
	uint64_t bufsize, byte_io;
	long long seed;
};

static const struct opt_enum modes[] = {
	{ "fast", 1, "quick" }, { "slow", 2, "careful" }, { NULL, 0, NULL },
};

/* a workload whose seed=0 once meant the run's --seed */
static const struct opt_enum seed_old[] = {
	{ "0", 0, "old spelling of run" }, { NULL, 0, NULL },
};

static const struct opt tab[] = {
	{ "runs", OPT_INT, offsetof(struct topts, runs), "30", "how many",
	  1, 1000, NULL },
	{ "size", OPT_SIZE, offsetof(struct topts, size), "8G", "bytes", 0, 0,
	  NULL },
	{ "sync", OPT_BOOL, offsetof(struct topts, sync), "yes", "sync", 0, 0,
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
	{ "seed", OPT_SEED, offsetof(struct topts, seed), OPT_SEED_DEFAULT,
	  "draws", 0, 0, seed_old },
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

/* One boolean rule: written yes/no, the old spellings read. */
static void test_bool_spellings(void **state)
{
	static const struct {
		const char *in;
		bool want;
	} cases[] = {
		{ "yes", true }, { "no", false }, { "1", true }, { "0", false },
		{ "true", true }, { "false", false }, { "on", true },
		{ "off", false }, { "YES", true }, { "No", false },
		{ "", true }, /* a bare key */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topts o;
		char err[256], in[32], *s;

		opt_defaults(tab, &o);
		o.sync = !cases[i].want;
		snprintf(in, sizeof(in), "sync=%s", cases[i].in);
		assert_int_equal(opt_parse(tab, &o, in, err, sizeof(err)), 0);
		assert_int_equal(o.sync, cases[i].want);
		s = opt_format(tab, &o);
		assert_non_null(strstr(s, cases[i].want ? ",sync=yes,"
							 : ",sync=no,"));
		free(s);
		opt_release(tab, &o);
	}
}

/* One seed rule: "run" (the run's --seed) by default, a number >= 0,
 * and the old spellings of "run" (-1; the row's own, here 0). */
static void test_seed(void **state)
{
	static const struct {
		const char *in;
		long long want;
	} cases[] = {
		{ "run", OPT_SEED_RUN }, { "RUN", OPT_SEED_RUN },
		{ "-1", OPT_SEED_RUN }, { "0", OPT_SEED_RUN }, { "7", 7 },
		{ "555", 555 },
	};
	struct topts o;
	char err[256], *s;
	(void)state;

	opt_defaults(tab, &o);
	assert_int_equal(o.seed, OPT_SEED_RUN);
	assert_int_equal(opt_seed(o.seed, 555), 555);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char in[32];

		snprintf(in, sizeof(in), "seed=%s", cases[i].in);
		assert_int_equal(opt_parse(tab, &o, in, err, sizeof(err)), 0);
		assert_int_equal(o.seed, cases[i].want);
	}
	assert_int_equal(opt_seed(o.seed, 1), 555);
	s = opt_format(tab, &o);
	assert_non_null(strstr(s, ",seed=555"));
	free(s);
	o.seed = OPT_SEED_RUN;
	s = opt_format(tab, &o);
	assert_non_null(strstr(s, ",seed=run"));
	free(s);
	assert_int_equal(opt_parse(tab, &o, "seed=-2", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a seed"));
	assert_string_equal(opt_default_text(&tab[8]),
			    "run (the run's --seed)");
	assert_string_equal(opt_default_text(&tab[0]), "30");
	opt_release(tab, &o);
}

/*
 * Stored option strings in old spellings read as today's: what compare
 * matches runs by, so cold=0 and cold=no are one configuration.
 */
static void test_canonical(void **state)
{
	const uint64_t run_seed = 555;
	char *a, *b, *c;
	(void)state;

	a = opt_canonical(tab, sizeof(struct topts),
			  "sync=0,byte_io=2k,seed=-1", NULL);
	b = opt_canonical(tab, sizeof(struct topts),
			  "sync=no,byte-io=2k,seed=run", NULL);
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "sync=no"));
	free(a);
	/* a literal seed that is the run's draws what "run" draws */
	a = opt_canonical(tab, sizeof(struct topts),
			  "sync=off,byte_io=2k,seed=555", &run_seed);
	assert_string_equal(a, b);
	c = opt_canonical(tab, sizeof(struct topts),
			  "sync=off,byte_io=2k,seed=556", &run_seed);
	assert_string_not_equal(c, b);
	free(a);
	free(b);
	free(c);
	/* an option since removed: left to compare as it is */
	assert_null(opt_canonical(tab, sizeof(struct topts), "gone=1", NULL));
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
		cmocka_unit_test(test_bool_spellings),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_canonical),
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_util_parsers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
