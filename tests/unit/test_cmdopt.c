/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test_cmdopt.c - command option tables (src/util/cmdopt.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/cmdopt.h"
#include "util/util.h"

struct targs {
	struct cmdopt_store store;
	struct cmdopt_format fmt;
	bool verbose, makej;
	const char *out;
	long long n;
	double pct;
	int cb_calls;
	const char *cb_last;
};

static int count_cb(const struct cmdopt *o, void *field, const char *arg,
		    char *err, size_t errlen)
{
	(void)o;
	if (arg && !strcmp(arg, "bad")) {
		snprintf(err, errlen, "bad thing '%s'", arg);
		return -1;
	}
	(*(int *)field)++;
	return 0;
}

static const struct cmdopt tab[] = {
	CMDOPT_INCLUDE_AT(struct targs, store, cmdopt_store_opts),
	CMDOPT_INCLUDE_AT(struct targs, fmt, cmdopt_format_opts),
	CMDOPT_BOOL('v', "verbose", struct targs, verbose, "more output"),
	CMDOPT_BOOL('m', "makej", struct targs, makej, "make -j"),
	CMDOPT_STR('o', "output", struct targs, out, "FILE", "write FILE"),
	CMDOPT_INTEGER('n', "repeat", struct targs, n, "N", 1, 10,
		       "repetitions"),
	CMDOPT_DBL(0, "min-change", struct targs, pct, "PCT", 0, HUGE_VAL, NULL,
		   "threshold"),
	CMDOPT_CB_OPTARG(0, "trace", struct targs, cb_calls, "PHASE",
			 count_cb, "trace phases"),
	CMDOPT_TABLE_END,
};

static const struct cmdopt_cmd cmd = {
	.name = "test", .summary = "a test", .usage = "[options] ARG...",
	.desc = "A test command.", .opts = tab,
};

static const struct cmdopt_cmd stop_cmd = {
	.name = "stop", .usage = "[options] CMD...", .opts = tab,
	.flags = CMDOPT_STOP_AT_ARG,
};

/* argv from a literal list; the parser rewrites argv in place. */
#define ARGV(...) mkargv((const char *[]){ "test", __VA_ARGS__, NULL })

static char *argv_buf[32];

/* A writable argv over string literals (the parser only moves pointers). */
static char **mkargv(const char **src)
{
	size_t i;

	for (i = 0; src[i] && i < ARRAY_SIZE(argv_buf) - 1; i++)
		argv_buf[i] = (char *)(uintptr_t)src[i];
	argv_buf[i] = NULL;
	return argv_buf;
}

static int parse(const struct cmdopt_cmd *c, char **argv, int unused,
		 struct targs *a)
{
	int argc = 0;

	(void)unused;
	while (argv[argc])
		argc++;
	memset(a, 0, sizeof(*a));
	a->fmt.format = "text";
	return cmdopt_parse(c, argc, argv, a);
}

static void test_basic(void **state)
{
	char **v = ARGV("x", "--db", "d.db", "-v", "--format=json", "y",
			"-o", "out", "--repeat", "3", "--min-change", "2.5");
	struct targs a;
	int n;

	(void)state;
	n = parse(&cmd, v, 13, &a);
	assert_int_equal(n, 11);
	assert_string_equal(v[11], "x");
	assert_string_equal(v[12], "y");
	assert_string_equal(v[1], "--db");
	assert_string_equal(a.store.db, "d.db");
	assert_string_equal(a.fmt.format, "json");
	assert_true(a.verbose);
	assert_false(a.makej);
	assert_string_equal(a.out, "out");
	assert_int_equal(a.n, 3);
	assert_true(a.pct == 2.5);
}

static void test_short_forms(void **state)
{
	char **v = ARGV("-vm", "-ofile", "-n4");
	struct targs a;

	(void)state;
	assert_int_equal(parse(&cmd, v, 3, &a), 4);
	assert_true(a.verbose);
	assert_true(a.makej);
	assert_string_equal(a.out, "file");
	assert_int_equal(a.n, 4);
}

static void test_prefix_and_dashdash(void **state)
{
	char **v = ARGV("--verb", "--", "--db", "-v");
	struct targs a;

	(void)state;
	assert_int_equal(parse(&cmd, v, 4, &a), 3);
	assert_true(a.verbose);
	assert_null(a.store.db);
	assert_string_equal(v[3], "--db");
	assert_string_equal(v[4], "-v");
	/* --m is --makej or --min-change */
	assert_int_equal(parse(&cmd, ARGV("--m"), 1, &a), CMDOPT_ERROR);
}

static void test_errors(void **state)
{
	struct targs a;

	(void)state;
	assert_int_equal(parse(&cmd, ARGV("--bogus"), 1, &a), CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("-x"), 1, &a), CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("--db"), 1, &a), CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("-n", "0"), 2, &a), CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("-n", "11"), 2, &a), CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("--min-change", "-1"), 2, &a),
			 CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("--min-change", "x"), 2, &a),
			 CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("--format", "xml"), 2, &a),
			 CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("--verbose=1"), 1, &a),
			 CMDOPT_ERROR);
	assert_int_equal(parse(&cmd, ARGV("--trace=bad"), 1, &a),
			 CMDOPT_ERROR);
	assert_int_equal(cmdopt_exit(CMDOPT_ERROR), EXIT_USAGE);
	assert_int_equal(cmdopt_exit(CMDOPT_HELP), EXIT_OK);
}

static void test_optarg_callback(void **state)
{
	char **v = ARGV("--trace", "arg", "--trace=x");
	struct targs a;

	(void)state;
	/* An optional argument is only ever --name=VAL. */
	assert_int_equal(parse(&cmd, v, 3, &a), 3);
	assert_string_equal(v[3], "arg");
	assert_int_equal(a.cb_calls, 2);
}

static void test_stop_at_arg(void **state)
{
	char **v = ARGV("-v", "sleep", "-v", "--db", "x");
	struct targs a;

	(void)state;
	assert_int_equal(parse(&stop_cmd, v, 5, &a), 2);
	assert_true(a.verbose);
	assert_null(a.store.db);
	assert_string_equal(v[2], "sleep");
	assert_string_equal(v[5], "x");
}

static void test_suggest(void **state)
{
	(void)state;
	assert_string_equal(cmdopt_suggest(tab, "verbos"), "verbose");
	assert_string_equal(cmdopt_suggest(tab, "fromat"), "format");
	assert_string_equal(cmdopt_suggest(tab, "dbb"), "db");
	assert_null(cmdopt_suggest(tab, "completely-else"));
}

static void test_signature(void **state)
{
	char *s;

	(void)state;
	s = cmdopt_signature(&tab[4]);
	assert_string_equal(s, "-o, --output FILE");
	free(s);
	s = cmdopt_signature(&tab[7]);
	assert_string_equal(s, "--trace[=PHASE]");
	free(s);
	s = cmdopt_signature(&tab[3]);
	assert_string_equal(s, "-m, --makej");
	free(s);
}

static int count_rows(const struct cmdopt *o, void *data)
{
	(void)o;
	(*(int *)data)++;
	return 0;
}

static void test_help_lists_every_option(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rows = 0;

	(void)state;
	cmdopt_help(f, &cmd);
	fclose(f);
	assert_non_null(strstr(buf, "usage: fslab test [options] ARG..."));
	assert_non_null(strstr(buf, "A test command."));
	assert_non_null(strstr(buf, "--db PATH"));
	assert_non_null(strstr(buf, "--format FORMAT"));
	assert_non_null(strstr(buf, "-o, --output FILE"));
	assert_non_null(strstr(buf, "--trace[=PHASE]"));
	assert_non_null(strstr(buf, "-h, --help"));
	cmdopt_for_each(tab, count_rows, &rows);
	assert_int_equal(rows, 8);
	free(buf);
}

static void test_help_returns(void **state)
{
	struct targs a;
	int fd = dup(1), null;

	(void)state;
	null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	assert_int_equal(parse(&cmd, ARGV("x", "-h"), 2, &a), CMDOPT_HELP);
	assert_int_equal(parse(&cmd, ARGV("--help"), 1, &a), CMDOPT_HELP);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	close(null);
}

struct neg_args {
	bool sync, list;
};

static const struct cmdopt neg_tab[] = {
	CMDOPT_HEADING("Writeback"),
	CMDOPT_BOOL(0, "sync", struct neg_args, sync, "sync first"),
	CMDOPT_CLEAR(0, "no-sync", struct neg_args, sync, "do not sync"),
	CMDOPT_BOOL(0, "list", struct neg_args, list, "list files"),
	CMDOPT_HIDDEN_BOOL(0, "per-file", struct neg_args, list),
	CMDOPT_TABLE_END,
};

static const struct cmdopt_cmd neg_cmd = {
	.name = "neg", .usage = "[options]", .opts = neg_tab,
};

/* --no-X clears, the last of a pair wins; a hidden alias parses but is
 * neither shown nor suggested. */
static void test_negate_and_hidden(void **state)
{
	struct neg_args a = { .sync = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(cmdopt_parse(&neg_cmd, 4,
				      ARGV("--no-sync", "--sync", "--no-sync"),
				      &a), 4);
	assert_false(a.sync);
	assert_int_equal(cmdopt_parse(&neg_cmd, 2, ARGV("--per-file"), &a), 2);
	assert_true(a.list);
	assert_null(cmdopt_suggest(neg_tab, "per-fil"));
	f = open_memstream(&buf, &len);
	cmdopt_help(f, &neg_cmd);
	fclose(f);
	assert_non_null(strstr(buf, "\nWriteback\n"));
	assert_non_null(strstr(buf, "--no-sync"));
	assert_null(strstr(buf, "per-file"));
	free(buf);
}

/* ---- typed rows: u64, size, enum, bounded doubles, whole-struct ---- */

enum tmode { MODE_A = 10, MODE_B = 20 };
static const int mode_values[] = { MODE_A, MODE_B, MODE_A };

struct typed_args {
	double alpha, wall_s, cov, frac;
	uint64_t seed, size;
	enum tmode mode;
	/* what the whole-struct callback fills, not first on purpose */
	const char *bins_arg;
	bool have_bins;
};

static int set_bins(const struct cmdopt *o, void *args, const char *arg,
		    char *err, size_t errlen)
{
	struct typed_args *a = args;

	(void)o;
	if (!strcmp(arg, "bad")) {
		snprintf(err, errlen, "bad bins '%s'", arg);
		return -1;
	}
	a->bins_arg = arg;
	a->have_bins = true;
	return 0;
}

static const struct cmdopt typed_tab[] = {
	CMDOPT_UINT64('s', "seed", struct typed_args, seed, "N", "1",
		      "seed"),
	CMDOPT_BYTES(0, "size", struct typed_args, size, "SIZE", "64M",
		     "how much"),
	CMDOPT_ENUMERATE(0, "mode", struct typed_args, mode, "MODE",
			 "a|b|old-a", mode_values, "a", "the mode"),
	CMDOPT_DBL_OPEN(0, "alpha", struct typed_args, alpha, "LEVEL", 0, 1,
			"0.05", "level"),
	CMDOPT_DBL_SCALED(0, "min-wall", struct typed_args, wall_s, "MS", 0,
			  HUGE_VAL, 1e-3, "50", "too short below MS"),
	CMDOPT_PCT(0, "until-cov", struct typed_args, cov, "P", 0, 1000,
		   NULL, "coefficient of variation"),
	CMDOPT_DBL(0, "frac", struct typed_args, frac, "F", 0.25, 0.75, NULL,
		   "closed range"),
	CMDOPT_ARGS_CB(0, "bins", "LIST", set_bins, "bin edges"),
	CMDOPT_TABLE_END,
};

static const struct cmdopt_cmd typed_cmd = {
	.name = "typed", .usage = "[options]", .opts = typed_tab,
};

static int typed_parse(struct typed_args *a, int argc, char **argv)
{
	memset(a, 0, sizeof(*a));
	return cmdopt_parse(&typed_cmd, argc, argv, a);
}

/* What a failed parse printed on stderr (fd 2), in buf. */
static int typed_error(char *buf, size_t len, int argc, char **argv)
{
	struct typed_args a;
	FILE *tmp = tmpfile();
	int fd = dup(2), rc;
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = typed_parse(&a, argc, argv);
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return rc;
}

static void test_typed_rows(void **state)
{
	struct typed_args a;

	(void)state;
	assert_int_equal(typed_parse(&a, 15, ARGV("-s", "18446744073709551615",
						 "--size", "4k", "--mode", "b",
						 "--alpha", "0.01",
						 "--min-wall", "250",
						 "--until-cov", "5%",
						 "--frac=0.75", "--bins=1,2")),
			 15);
	assert_true(a.seed == UINT64_MAX);
	assert_true(a.size == 4096);
	assert_int_equal(a.mode, MODE_B);
	assert_true(a.alpha == 0.01);
	assert_true(fabs(a.wall_s - 0.25) < 1e-12);
	assert_true(a.cov == 5);
	assert_true(a.frac == 0.75);
	assert_string_equal(a.bins_arg, "1,2");
	assert_true(a.have_bins);
	/* sizes take binary suffixes; an old alias parses to its value */
	assert_int_equal(typed_parse(&a, 5, ARGV("--size", "2G", "--mode",
						"old-a")), 5);
	assert_true(a.size == 2ULL << 30);
	assert_int_equal(a.mode, MODE_A);
	assert_int_equal(typed_parse(&a, 3, ARGV("--until-cov", "7.5")), 3);
	assert_true(a.cov == 7.5);
}

static void test_typed_errors(void **state)
{
	static const char *const bad[][2] = {
		{ "--seed", "-1" }, { "--seed", "1x" }, { "--seed", "" },
		{ "--seed", "18446744073709551616" }, { "--size", "4q" },
		{ "--size", "-4k" }, { "--mode", "c" }, { "--mode", "A" },
		{ "--alpha", "0" }, { "--alpha", "1" }, { "--alpha", "nan" },
		{ "--min-wall", "-1" }, { "--min-wall", "inf" },
		{ "--until-cov", "0" }, { "--until-cov", "1001" },
		{ "--until-cov", "%" }, { "--frac", "0.2" },
		{ "--frac", "0.8" }, { "--frac", "0.5%" }, { "--bins", "bad" },
	};
	char buf[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int rc = typed_error(buf, sizeof(buf), 3,
				     ARGV(bad[i][0], bad[i][1]));

		if (rc != CMDOPT_ERROR)
			fail_msg("%s %s: %d", bad[i][0], bad[i][1], rc);
		/* git's form, one line: error: ...; see '... --help' */
		assert_int_equal(strncmp(buf, "error: ", 7), 0);
		assert_non_null(strstr(buf, "; see 'fslab typed --help'\n"));
		assert_ptr_equal(strchr(buf, '\n'), buf + strlen(buf) - 1);
	}
	typed_error(buf, sizeof(buf), 3, ARGV("--mode", "c"));
	/* the alias is accepted, not offered */
	assert_string_equal(buf, "error: option '--mode' is one of a,b, not "
			    "'c'; see 'fslab typed --help'\n");
	typed_error(buf, sizeof(buf), 3, ARGV("--bins", "bad"));
	assert_string_equal(buf, "error: bad bins 'bad'; see 'fslab typed "
			    "--help'\n");
}

/* The default of a row is shown from the table, in help and man. */
static void test_typed_help(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char *text;

	(void)state;
	cmdopt_help(f, &typed_cmd);
	fclose(f);
	assert_non_null(strstr(buf, "--mode MODE"));
	assert_non_null(strstr(buf, "the mode (default: a)"));
	assert_non_null(strstr(buf, "level (default: 0.05)"));
	assert_non_null(strstr(buf, "--bins LIST"));
	assert_null(strstr(buf, "closed range (default"));
	free(buf);
	text = cmdopt_help_text(&typed_tab[1]);
	assert_string_equal(text, "how much (default: 64M)");
	free(text);
	assert_true(cmdopt_has_choices(&typed_tab[2]));
	assert_false(cmdopt_has_choices(&typed_tab[0]));
	assert_false(cmdopt_choice_hidden(&typed_tab[2], 1));
	assert_true(cmdopt_choice_hidden(&typed_tab[2], 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_short_forms),
		cmocka_unit_test(test_prefix_and_dashdash),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_optarg_callback),
		cmocka_unit_test(test_stop_at_arg),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_signature),
		cmocka_unit_test(test_help_lists_every_option),
		cmocka_unit_test(test_help_returns),
		cmocka_unit_test(test_negate_and_hidden),
		cmocka_unit_test(test_typed_rows),
		cmocka_unit_test(test_typed_errors),
		cmocka_unit_test(test_typed_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
