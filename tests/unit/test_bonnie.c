/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_bonnie.c - the pure parts of the bonnie workload
 * (src/workloads/bonnie/): option parsing and cross-checks, the +++++
 * rule, bonnie++'s number formats, the CSV row against a known row, the
 * seek tickets and the file names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/opt.h"
#include "workloads/bonnie/bonnie.h"
#include "workloads/registry.h"

#define MIB (1024ULL * 1024ULL)
#define GIB (1024ULL * MIB)

static void parse_opts(struct bon_opts *o, const char *s)
{
	char err[256];

	opt_defaults(wl_bonnie.opts, o);
	assert_int_equal(opt_parse(wl_bonnie.opts, o, s, err, sizeof(err)),
			 0);
}

static void test_defaults(void **state)
{
	struct bon_opts o;
	char err[256];
	(void)state;

	parse_opts(&o, "");
	assert_int_equal(o.size, 0);
	assert_int_equal(o.chunk, 8192);
	assert_int_equal(o.byte_io, 3 * MIB);
	assert_int_equal(o.seeks, 8192);
	assert_int_equal(o.seekers, 5);
	assert_int_equal(o.perchar, BON_PERCHAR_AUTO);
	assert_int_equal(bon_perchar_of(&o), BON_PERCHAR_SYSCALL);
	o.format = BON_FMT_103;
	assert_int_equal(bon_perchar_of(&o), BON_PERCHAR_STDIO);
	o.format = BON_FMT_200A;
	assert_string_equal(o.ram, "auto");
	assert_int_equal(bon_check_opts(&o, 24 * GIB, err, sizeof(err)), 0);
	/* max(300 MiB, 2 x RAM), like bonnie++ */
	assert_int_equal(bon_effective_size(&o, 24 * GIB), 48 * GIB);
	assert_int_equal(bon_effective_size(&o, 100 * MIB), 300 * MIB);
	assert_int_equal(bon_default_size(0), 300 * MIB);
	opt_release(wl_bonnie.opts, &o);
}

static void test_bad_values(void **state)
{
	static const char *const bad_parse[] = {
		"chunk=abc", "seeks=0", "seekers=0", "perchar=putc",
		"direct=maybe", "size=-1", "nosuch=1", "seed=-2",
	};
	static const char *const bad_check[] = {
		"size=256M,ram=0,chunk=1000",      /* not a power of two */
		"size=256M,ram=0,chunk=128",       /* below 256 */
		"size=256M,ram=0,chunk=2M",        /* above 1M */
		"size=256M",                       /* below 2 x 24G RAM */
		"size=256M,ram=200M",              /* below 2 x 200M */
		"size=256M,ram=0,byte_io=512M",    /* more than the file */
		"size=256M,ram=0,files=x",
		"size=256M,ram=0,files=1:1k:4k",   /* min above max */
		"size=256M,ram=0,files=1:::0",     /* no directories */
		"size=256M,ram=0,files=1:1:1:1:1:1",
		"size=256M,ram=lots",
		"size=256M,direct=1,chunk=512",
		"size=8k,ram=0",                   /* below two chunks */
		"size=1000000,ram=0",              /* not whole chunks */
	};
	static const char *const good[] = {
		"size=256M,ram=0", "size=256M,ram=100M", "size=256M,direct=1",
		"size=256M,ram=0,files=1:4k:1k:4:512", "size=256M,ram=0,"
		"files=0", "size=256M,ram=0,perchar=none,byte_io=0",
		"size=256M,ram=0,chunk=256", "size=256M,ram=0,chunk=1M",
		"size=256M,ram=0,perchar=stdio,cold=1,seed=7",
	};
	struct bon_opts o;
	char err[256];
	(void)state;

	for (size_t i = 0; i < sizeof(bad_parse) / sizeof(*bad_parse); i++) {
		opt_defaults(wl_bonnie.opts, &o);
		assert_int_equal(opt_parse(wl_bonnie.opts, &o, bad_parse[i],
					   err, sizeof(err)), -1);
		opt_release(wl_bonnie.opts, &o);
	}
	for (size_t i = 0; i < sizeof(bad_check) / sizeof(*bad_check); i++) {
		parse_opts(&o, bad_check[i]);
		err[0] = '\0';
		if (bon_check_opts(&o, 24 * GIB, err, sizeof(err)) != -1)
			fail_msg("'%s' passed the check", bad_check[i]);
		assert_true(strlen(err) > 5);
		opt_release(wl_bonnie.opts, &o);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		parse_opts(&o, good[i]);
		if (bon_check_opts(&o, 24 * GIB, err, sizeof(err)))
			fail_msg("'%s' refused: %s", good[i], err);
		opt_release(wl_bonnie.opts, &o);
	}
}

static void test_files_spec(void **state)
{
	struct bon_files f;
	char err[256];
	(void)state;

	assert_int_equal(bon_parse_files("16", &f, err, sizeof(err)), 0);
	assert_int_equal(f.n, 16);
	assert_int_equal(f.max, 0);
	assert_int_equal(f.dirs, 1);
	assert_int_equal(f.chunk, 4096);
	assert_int_equal(bon_parse_files("2:64k:1k:8:512", &f, err,
					 sizeof(err)), 0);
	assert_int_equal(f.n, 2);
	assert_int_equal(f.max, 65536);
	assert_int_equal(f.min, 1024);
	assert_int_equal(f.dirs, 8);
	assert_int_equal(f.chunk, 512);
	assert_int_equal(bon_parse_files("1:::4", &f, err, sizeof(err)), 0);
	assert_int_equal(f.dirs, 4);
	assert_int_equal(f.max, 0);
}

static void test_plus_rule(void **state)
{
	struct bon_cell c = { .present = true, .rate = 123456.7,
			      .cpu_pct = 97.9 };
	char b[32];
	(void)state;

	assert_true(bon_too_fast(0));
	assert_true(bon_too_fast(499999999));
	assert_false(bon_too_fast(500000000));
	bon_fmt_rate(b, sizeof(b), &c, BON_WRITE);
	assert_string_equal(b, "123456");
	bon_fmt_cpu(b, sizeof(b), &c);
	assert_string_equal(b, "97");
	c.too_fast = true;
	bon_fmt_rate(b, sizeof(b), &c, BON_WRITE);
	assert_string_equal(b, "+++++");
	bon_fmt_cpu(b, sizeof(b), &c);
	assert_string_equal(b, "+++");
	c.too_fast = false;
	c.rate = 271.14;
	bon_fmt_rate(b, sizeof(b), &c, BON_SEEKS);
	assert_string_equal(b, "271.1");
	c.rate = 1198.6;
	bon_fmt_rate(b, sizeof(b), &c, BON_SEEKS);
	assert_string_equal(b, "1198");
	c.present = false;
	bon_fmt_rate(b, sizeof(b), &c, BON_WRITE);
	assert_string_equal(b, "");
}

static void test_formats(void **state)
{
	char b[32];
	(void)state;

	bon_fmt_latency(b, sizeof(b), 118.4);
	assert_string_equal(b, "118us");
	bon_fmt_latency(b, sizeof(b), 9999);
	assert_string_equal(b, "9999us");
	bon_fmt_latency(b, sizeof(b), 11234);
	assert_string_equal(b, "11ms");
	bon_fmt_latency(b, sizeof(b), 12.5e6);
	assert_string_equal(b, "12s");
	bon_fmt_latency(b, sizeof(b), -1);
	assert_string_equal(b, "");
	bon_fmt_size(b, sizeof(b), 16 * GIB);
	assert_string_equal(b, "16G");
	bon_fmt_size(b, sizeof(b), 300 * MIB);
	assert_string_equal(b, "300M");
}

static void test_csv_row(void **state)
{
	struct bon_row r = {
		.version = "fslab-0.1.0", .machine = "ext3", .concurrency = 1,
		.seed = 1234, .size = 16 * GIB, .chunk = 8192, .seeks = 8192,
		.seekers = 5, .have_files = true,
		.files = { .n = 16, .dirs = 1, .chunk = 4096 },
	};
	static const double rate[BON_NR] = {
		51501, 210601, 100479, 55528, 301589, 1198.4,
		8000, 20000, 9000, 7000, 30000, 6000,
	};
	static const double cpu[BON_NR] = {
		97, 91, 32, 98, 44, 5, 50, 60, 40, 51, 61, 41,
	};
	static const char want[] =
		"1.98,fslab-0.1.0,ext3,1,1234,16G,8192,8192,5,"
		"51501,97,210601,91,100479,32,55528,98,301589,44,1198,5,"
		"16,,,1,,"
		"8000,50,20000,60,+++++,+++,7000,51,30000,61,6000,41,"
		"3577us,118us,111us,1543us,142us,11ms,"
		"91us,35us,172us,92us,6us,51us";
	static const double lat[BON_NR] = {
		3577, 118, 111, 1543, 142, 11000, 91, 35, 172, 92, 6, 51,
	};
	char *csv;
	(void)state;

	for (int i = 0; i < BON_NR; i++) {
		r.cell[i].present = true;
		r.cell[i].rate = rate[i];
		r.cell[i].cpu_pct = cpu[i];
		r.cell[i].lat_us = lat[i];
	}
	r.cell[BON_SEQ_DEL].too_fast = true;
	csv = bon_csv_row(&r);
	assert_string_equal(csv, want);
	free(csv);

	/* no per-char tests, no file tests: those fields stay empty */
	r.cell[BON_PUTC].present = r.cell[BON_GETC].present = false;
	r.have_files = false;
	for (int i = BON_NR_IO; i < BON_NR; i++)
		r.cell[i].present = false;
	r.files.max = 0;
	csv = bon_csv_row(&r);
	assert_string_equal(csv,
		"1.98,fslab-0.1.0,ext3,1,1234,16G,8192,8192,5,"
		",,210601,91,100479,32,,,301589,44,1198,5,"
		",,,,,,,,,,,,,,,,,"
		",118us,111us,,142us,11ms,,,,,,");
	free(csv);
}

static void test_csv_fields(void **state)
{
	struct bon_row r = {
		.version = "v", .machine = "m", .concurrency = 1,
		.size = 256 * MIB, .chunk = 8192, .seeks = 1, .seekers = 1,
		.have_files = true,
		.files = { .n = 1, .max = 4096, .min = 1024, .dirs = 3,
			   .chunk = 512 },
	};
	char *csv, *p;
	int commas = 0;
	(void)state;

	csv = bon_csv_row(&r);
	for (p = csv; *p; p++)
		commas += *p == ',';
	/* 50 fields, as bonnie++ 2.00a writes them */
	assert_int_equal(commas, 49);
	assert_non_null(strstr(csv, ",1,4096,1024,3,512,"));
	free(csv);
}

static void test_tickets(void **state)
{
	enum { N = 100000 };
	struct bon_ticket *a = calloc(N, sizeof(*a));
	struct bon_ticket *b = calloc(N, sizeof(*b));
	size_t upd = 0, same = 0;
	(void)state;

	bon_seek_tickets(42, 32768, N, a);
	for (size_t i = 0; i < N; i++) {
		assert_true(a[i].block < 32768);
		upd += a[i].update;
	}
	/* about one in ten seeks writes back */
	assert_true(upd > N * 9 / 100 && upd < N * 11 / 100);
	bon_seek_tickets(42, 32768, N, b);
	assert_memory_equal(a, b, N * sizeof(*a));
	bon_seek_tickets(43, 32768, N, b);
	for (size_t i = 0; i < N; i++)
		same += a[i].block == b[i].block;
	assert_true(same < N / 100);
	/* a prefix of a longer draw: the count changes nothing else */
	bon_seek_tickets(42, 32768, 10, b);
	assert_memory_equal(a, b, 10 * sizeof(*a));
	free(a);
	free(b);
}

static void test_names(void **state)
{
	char **n;
	int *dir;
	(void)state;

	n = bon_make_names(1, 2048, 1, false, &dir);
	assert_memory_equal(n[0], "0000000", 7);
	assert_memory_equal(n[2047], "0002047", 7);
	assert_true(strlen(n[5]) >= 7 && strlen(n[5]) <= 19);
	assert_int_equal(dir[2047], 0);
	bon_names_free(n, 2048);
	free(dir);

	n = bon_make_names(1, 2048, 4, true, &dir);
	assert_memory_equal(n[0], "00000/", 6);
	assert_string_equal(n[5] + strlen(n[5]) - 7, "0000005");
	/* bonnie++ fills n/dirs + 1 names before moving on */
	assert_int_equal(dir[512], 0);
	assert_int_equal(dir[513], 1);
	assert_memory_equal(n[513], "00001/", 6);
	assert_true(dir[2047] <= 3);
	bon_names_free(n, 2048);
	free(dir);
}

/*
 * Two rows through the table renderer, against what bonnie++ 2.00a's own
 * bon_csv2txt printed for the same two lines (Debian 12, bonnie++ 2.00a):
 * names cut to fit the size, K/sec converted, "+++++" shown as 0k, the
 * file row's size alone when it is 18 characters or longer.
 */
static const char *const rows200[] = {
	"1.98,fslab-0.1.0,ext4,1,555,16G,8192,8192,5,727,54,+++++,+++,51234,"
	"12,1302,62,123456,20,271.1,3,16,,,1,,+++++,+++,+++++,+++,+++++,+++,"
	"5120,90,+++++,+++,+++++,+++,50ms,6553us,8985us,22ms,2599us,1144us,"
	"4168us,4us,2742us,1794us,313us,4372us",
	"1.98,fslab-0.1.0,ext4(patchqueue),1,555,16G,8192,8192,5,9999,99,"
	"10000,5,102400,9,1048576,3,2000000,40,1198,3,16,4096,1024,8,4096,"
	"812,80,+++++,+++,3401,55,901,77,+++++,+++,2210,60",
};

static const char want200[] =
"Version     2.00a   ------Sequential Output------ --Sequential Input- --Random-\n"
"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
"Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
"ext 16G:8192:8192:5  727k  54    0k +++ 50.0m  12 1302k  62  121m  20 271.1   3\n"
"Latency                50ms    6553us    8985us      22ms    2599us    1144us\n"
"ext 16G:8192:8192:5 9999k  99  9.8m   5  100m   9  1.0g   3  1.9g  40  1198   3\n"
"                    ------Sequential Create------ --------Random Create--------\n"
"                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
"      files:max:min  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
"ext4           16/1 +++++ +++ +++++ +++ +++++ +++  5120  90 +++++ +++ +++++ +++\n"
"Latency              4168us       4us    2742us    1794us     313us    4372us\n"
"16:4096:1024/8:4096   812  80 +++++ +++  3401  55   901  77 +++++ +++  2210  60\n";

static char *render(void (*fn)(FILE *, const char *const *, size_t),
		    const char *const *rows, size_t nr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, rows, nr);
	fclose(f);
	return buf;
}

static void test_csv2txt(void **state)
{
	char *got;

	(void)state;
	got = render(bon_csv2txt, rows200, 2);
	assert_string_equal(got, want200);
	free(got);
}

static void test_table_103(void **state)
{
	struct bon_row r = { .machine = "ext4(patchqueue)", .concurrency = 1,
			     .size = 16ULL << 30, .have_files = true,
			     .files = { .n = 16, .dirs = 1 } };
	const char *rows[2];
	char *csv, *got;

	(void)state;
	for (int i = 0; i < BON_NR; i++)
		r.cell[i] = (struct bon_cell){ .present = true, .rate = 1000 +
					       i, .cpu_pct = 10 + i };
	r.cell[BON_SEEKS].rate = 271.14;
	r.cell[BON_SEQ_STAT].too_fast = true;
	csv = bon_csv_row_103(&r);
	assert_string_equal(csv, "ext4(patchqueue),16G,1000,10,1001,11,1002,"
			    "12,1003,13,1004,14,271.1,15,16,1006,16,+++++,"
			    "+++,1008,18,1009,19,1010,20,1011,21");
	rows[0] = "ext3,16G,1,2,3,4,5,6,7,8,9,10,11.0,12,16,,,,,,,,,,,,";
	rows[1] = csv;
	got = render(bon_table_103, rows, 2);
	assert_string_equal(got,
"Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
"                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
"Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
"ext3            16G     1   2     3   4     5   6     7   8     9  10  11.0  12\n"
"ext4(patchqueue)16G  1000  10  1001  11  1002  12  1003  13  1004  14 271.1  15\n"
"                    ------Sequential Create------ --------Random Create--------\n"
"                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
"files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
"ext3             16                                                            \n"
"ext4(patchqueue) 16  1006  16 +++++ +++  1008  18  1009  19  1010  20  1011  21\n");
	free(got);
	free(csv);
}

static void test_conv_speed(void **state)
{
	static const struct { const char *in, *out; } c[] = {
		{ "", "" }, { "727", " 727k" }, { "9999", "9999k" },
		{ "10000", " 9.8m" }, { "102400", " 100m" },
		{ "1048576", " 1.0g" }, { "+++++", "   0k" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		bon_conv_speed(buf, sizeof(buf), c[i].in);
		assert_string_equal(buf, c[i].out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_files_spec),
		cmocka_unit_test(test_plus_rule),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_csv_row),
		cmocka_unit_test(test_csv_fields),
		cmocka_unit_test(test_tickets),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_csv2txt),
		cmocka_unit_test(test_table_103),
		cmocka_unit_test(test_conv_speed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
