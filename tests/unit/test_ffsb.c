/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_ffsb.c - FFSB profiles (src/workloads/ffsb/profile.c): both section
 * syntaxes and the size suffixes parse; every class of bad profile is
 * refused with its file:line; FFSB's transaction counting; the seeded
 * op and size draws repeat; the workload's check() on a profile file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "workloads/ffsb/profile.h"
#include "util/util.h"
#include "workloads/registry.h"

static const char v6[] =
	"# a 6.0 profile\n"
	"directio = 0\n"
	"time\t\t= 10\n"
	"alignio = 1\n"
	"\n"
	"[filesystem]\n"
	"\tlocation = /mnt/test1   # trailing comment\n"
	"\tnum_files = 100\n"
	"\tnum_dirs = 10\n"
	"\tsize_weight 4k 33\n"
	"\tsize_weight 8KB 21\n"
	"\tsize_weight 1m 2\n"
	"\tsize_weight 1G 1\n"
	"\tinit_size = 100m\n"
	"\t[threadgroup]\n"
	"\t\tnum_threads = 10\n"
	"\t\tcreate_weight = 10\n"
	"\t\twrite_blocksize = 1024\n"
	"\t[end]\n"
	"[end]\n"
	"\n"
	"[threadgroup]\n"
	"\tnum_threads = 4\n"
	"\tbindfs = /mnt/test1\n"
	"\tappend_weight = 1\n"
	"\tappend_fsync_weight = 2\n"
	"\tstat_weight = 3\n"
	"\treadall_weight = 1\n"
	"\tread_weight = 5\n"
	"\tread_random = 1\n"
	"\twrite_size = 40k\n"
	"\twrite_blocksize = 4k\n"
	"\tread_size = 4k\n"
	"\tread_blocksize = 4k\n"
	"\t[stats]\n"
	"\t\tenable_stats = 1\n"
	"\t\tmsec_range 0.00 0.01\n"
	"\t[end]\n"
	"[end]\n";

static const char v5[] =
	"num_filesystems=1\n"
	"num_threadgroups=1\n"
	"directio=0\n"
	"time=300\n"
	"[filesystem0]\n"
	"location=/mnt/ext3\n"
	"num_files=20\n"
	"num_dirs=10\n"
	"max_filesize=64k\n"
	"min_filesize=4096\n"
	"[end0]\n"
	"[threadgroup0]\n"
	"num_threads=1\n"
	"write_size=4096\n"
	"write_blocksize=4096\n"
	"create_weight=3\n"
	"write_weight=2\n"
	"delete_weight=1\n"
	"fsync_file=1\n"
	"[end0]\n";

static void test_parse_v6(void **state)
{
	struct ffsb_profile p;
	char err[256];
	(void)state;

	assert_int_equal(ffsb_profile_parse(v6, "v6", &p, err, sizeof(err)),
			 0);
	assert_int_equal(p.time, 10);
	assert_true(p.alignio);
	assert_false(p.directio);
	assert_int_equal(p.nr_fs, 1);
	assert_string_equal(p.fs[0].location, "/mnt/test1");
	assert_int_equal(p.fs[0].num_files, 100);
	assert_int_equal(p.fs[0].num_dirs, 10);
	assert_int_equal(p.fs[0].nr_sw, 4);
	assert_int_equal(p.fs[0].sw[0].size, 4096);
	assert_int_equal(p.fs[0].sw[0].weight, 33);
	assert_int_equal(p.fs[0].sw[1].size, 8192);
	assert_int_equal(p.fs[0].sw[2].size, 1 << 20);
	assert_int_equal(p.fs[0].sw[3].size, 1ULL << 30);
	assert_int_equal(p.fs[0].init_size, 100 << 20);
	assert_int_equal(p.fs[0].nr_age_tgs, 1);
	assert_int_equal(ffsb_fs_min_size(&p.fs[0]), 4096);
	/* the aging threadgroup is not a benchmark threadgroup */
	assert_int_equal(p.nr_tg, 1);
	assert_int_equal(p.tg[0].line, 22);
	assert_int_equal(p.tg[0].num_threads, 4);
	assert_string_equal(p.tg[0].bindfs, "/mnt/test1");
	assert_int_equal(p.tg[0].weight[FFSB_OP_APPEND], 1);
	assert_int_equal(p.tg[0].weight[FFSB_OP_APPEND_FSYNC], 2);
	assert_int_equal(p.tg[0].weight[FFSB_OP_STAT], 3);
	assert_int_equal(p.tg[0].weight[FFSB_OP_READ], 5);
	assert_int_equal(ffsb_tg_total_weight(&p.tg[0]), 12);
	assert_int_equal(p.tg[0].write_size, 40960);
	assert_true(p.tg[0].read_random);
	assert_int_equal(p.nr_notices, 0);
	ffsb_profile_release(&p);
}

static void test_parse_v5(void **state)
{
	struct ffsb_profile p;
	char err[256];
	(void)state;

	assert_int_equal(ffsb_profile_parse(v5, "v5", &p, err, sizeof(err)),
			 0);
	assert_int_equal(p.time, 300);
	assert_int_equal(p.nr_fs, 1);
	assert_int_equal(p.fs[0].max_filesize, 65536);
	assert_int_equal(p.fs[0].min_filesize, 4096);
	assert_int_equal(p.nr_tg, 1);
	/* fsync_file moves the plain weights to the _fsync variants */
	assert_int_equal(p.tg[0].weight[FFSB_OP_CREATE], 0);
	assert_int_equal(p.tg[0].weight[FFSB_OP_CREATE_FSYNC], 3);
	assert_int_equal(p.tg[0].weight[FFSB_OP_WRITE], 0);
	assert_int_equal(p.tg[0].weight[FFSB_OP_WRITE_FSYNC], 2);
	assert_int_equal(p.tg[0].weight[FFSB_OP_DELETE], 1);
	assert_int_equal(p.nr_notices, 3);
	assert_non_null(strstr(p.notices[2], "v5:19: fsync_file=1"));
	assert_non_null(strstr(p.notices[0], "v5:1: 'num_filesystems'"));
	ffsb_profile_release(&p);
}

static void test_builtin(void **state)
{
	struct ffsb_profile p;
	char err[256];
	(void)state;

	assert_int_equal(ffsb_profile_parse(ffsb_builtin_profile, "b", &p,
					    err, sizeof(err)), 0);
	assert_int_equal(p.nr_tg, 1);
	assert_int_equal(p.tg[0].num_threads, 1);
	assert_int_equal(ffsb_tg_total_weight(&p.tg[0]), 1);
	assert_int_equal(p.tg[0].weight[FFSB_OP_CREATE_FSYNC], 1);
	assert_int_equal(p.fs[0].min_filesize, 4096);
	assert_int_equal(p.fs[0].max_filesize, 65536);
	ffsb_profile_release(&p);
}

/* A minimal valid profile with one line replaced/added, for bad cases. */
static const char base_fs[] =
	"time = 5\n"                          /* 1 */
	"[filesystem]\n"                      /* 2 */
	"num_files = 10\n"                    /* 3 */
	"min_filesize = 4k\n"                 /* 4 */
	"max_filesize = 8k\n"                 /* 5 */
	"[end]\n";                            /* 6 */

static void expect_bad(const char *tg, const char *want)
{
	char *text = xasprintf("%s%s", base_fs, tg);
	struct ffsb_profile p;
	char err[512];

	err[0] = '\0';
	if (ffsb_profile_parse(text, "bad.ffsb", &p, err, sizeof(err)) == 0)
		fail_msg("parsed, wanted '%s'", want);
	if (!strstr(err, want))
		fail_msg("error '%s', wanted '%s'", err, want);
	free(text);
}

static void test_bad_profiles(void **state)
{
	(void)state;
	/* unknown key, with a suggestion, at its line */
	expect_bad("[threadgroup]\nnum_threads = 1\ncreate_wieght = 1\n"
		   "write_blocksize = 4k\n[end]\n",
		   "bad.ffsb:9: unknown key 'create_wieght' in [threadgroup] "
		   "(did you mean 'create_weight'?)");
	expect_bad("[threadgroup]\nnum_threads = 1\nfrobnicate = 1\n[end]\n",
		   "bad.ffsb:9: unknown key 'frobnicate' in [threadgroup]");
	/* bad suffix, never a silent zero */
	expect_bad("[threadgroup]\nnum_threads = 1\ncreate_weight = 1\n"
		   "write_blocksize = 4x\n[end]\n",
		   "bad.ffsb:10: bad size suffix in '4x' for "
		   "'write_blocksize' (k, m or g)");
	expect_bad("[threadgroup]\nnum_threads = 1\ncreate_weight = 1\n"
		   "write_blocksize = 4kk\n[end]\n",
		   "bad.ffsb:10: bad size suffix in '4kk'");
	expect_bad("[threadgroup]\nnum_threads = 1\ncreate_weight = 1\n"
		   "write_blocksize = k\n[end]\n",
		   "bad.ffsb:10: 'k' is not a size for 'write_blocksize'");
	/* a weight-less threadgroup: error at its header line */
	expect_bad("[threadgroup]\nnum_threads = 1\nwrite_blocksize = 4k\n"
		   "[end]\n",
		   "bad.ffsb:7: threadgroup has no weighted operation");
	expect_bad("[threadgroup]\nnum_threads = 1\ncreate_weight = 0\n[end]\n",
		   "bad.ffsb:7: threadgroup has no weighted operation");
	/* numbers and booleans */
	expect_bad("[threadgroup]\nnum_threads = many\n[end]\n",
		   "bad.ffsb:8: 'many' is not a number for 'num_threads'");
	expect_bad("[threadgroup]\nnum_threads = 1\nread_random = 2\n[end]\n",
		   "bad.ffsb:9: '2' for 'read_random' is not a boolean "
		   "(0 or 1 as FFSB writes it, or no or yes)");
	expect_bad("[threadgroup]\nnum_threads =\n[end]\n",
		   "bad.ffsb:8: missing value for 'num_threads'");
	expect_bad("[threadgroup]\nnum_threads = 1 2\n[end]\n",
		   "bad.ffsb:8: 'num_threads' takes one value");
	/* sections */
	expect_bad("[threadgroup]\nnum_threads = 1\ncreate_weight = 1\n"
		   "write_blocksize = 4k\n",
		   "bad.ffsb:7: [threadgroup] is never closed by [end]");
	expect_bad("[end]\n", "bad.ffsb:7: '[end]' without an open section");
	expect_bad("[threadgroup3]\nnum_threads = 1\ncreate_weight = 1\n"
		   "write_blocksize = 4k\n[end2]\n",
		   "bad.ffsb:11: '[end2]' closes '[threadgroup3]' of line 7");
	expect_bad("[threads]\n", "bad.ffsb:7: unknown section '[threads]'");
	expect_bad("[threadgroup]\n[filesystem]\n",
		   "bad.ffsb:8: [filesystem] cannot be inside [threadgroup]");
	expect_bad("", "bad.ffsb:6: no [threadgroup] section");
	/* what FFSB checks after parsing */
	expect_bad("[threadgroup]\nnum_threads = 1\ncreate_weight = 1\n[end]\n",
		   "bad.ffsb:7: write, writeall, create and append need a "
		   "write_blocksize");
	expect_bad("[threadgroup]\nnum_threads = 1\nread_weight = 1\n"
		   "read_blocksize = 4k\nread_size = 64k\n[end]\n",
		   "bad.ffsb:7: read of 65536 bytes does not fit the "
		   "4096-byte files of line 2");
	expect_bad("[threadgroup]\nnum_threads = 1\nstat_weight = 1\n"
		   "bindfs = /nowhere\n[end]\n",
		   "bad.ffsb:7: bindfs '/nowhere' is no filesystem's location");
	expect_bad("[threadgroup]\nnum_threads = 1\nread_weight = 1\n"
		   "read_blocksize = 4k\nread_size = 4k\nread_random = 1\n"
		   "read_skip = 1\nread_skipsize = 4k\n[end]\n",
		   "read_random and read_skip are mutually exclusive");
	expect_bad("callout = /bin/true\n",
		   "bad.ffsb:7: 'callout' is not supported by fslab");
}

static void test_bad_fs(void **state)
{
	struct ffsb_profile p;
	char err[256];
	(void)state;

	assert_int_equal(ffsb_profile_parse("time=1\n[filesystem]\n"
					    "num_files=1\n[end]\n"
					    "[threadgroup]\nnum_threads=1\n"
					    "stat_weight=1\n[end]\n", "f",
					    &p, err, sizeof(err)), -1);
	assert_string_equal(err, "f:2: filesystem has no file size "
			    "(min_filesize/max_filesize or size_weight)");
	assert_int_equal(ffsb_profile_parse("[filesystem]\nmax_filesize=1k\n"
					    "agefs=1\n[end]\n[threadgroup]\n"
					    "num_threads=1\nstat_weight=1\n"
					    "[end]\n", "f", &p, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "f:1: agefs=1"));
	assert_int_equal(ffsb_profile_parse("[filesystem]\nmax_filesize=1k\n"
					    "[end]\n[threadgroup]\n"
					    "num_threads=1\nstat_weight=1\n"
					    "[end]\n", "f", &p, err,
					    sizeof(err)), -1);
	assert_string_equal(err, "f:4: its operations need files but the "
			    "filesystem of line 1 starts with none and it "
			    "creates none");
	assert_int_equal(ffsb_profile_parse("[filesystem]\n"
					    "size_weight 4k\n[end]\n", "f",
					    &p, err, sizeof(err)), -1);
	assert_string_equal(err, "f:2: 'size_weight' needs two values, not "
			    "'4k'");
}

static void test_transactions(void **state)
{
	(void)state;
	/* create/append/write: a partial last block is one more write */
	assert_int_equal(ffsb_transactions(FFSB_OP_CREATE, 10000, 4096,
					   false), 3);
	assert_int_equal(ffsb_transactions(FFSB_OP_CREATE_FSYNC, 8192, 4096,
					   false), 2);
	assert_int_equal(ffsb_transactions(FFSB_OP_APPEND, 1, 4096, false),
			 1);
	assert_int_equal(ffsb_transactions(FFSB_OP_WRITEALL, 4097, 4096,
					   false), 2);
	/* reads: the partial block is read but not counted */
	assert_int_equal(ffsb_transactions(FFSB_OP_READALL, 10000, 4096,
					   false), 2);
	assert_int_equal(ffsb_transactions(FFSB_OP_READ, 4095, 4096, false),
			 0);
	/* random writes: write_size/bs whole blocks */
	assert_int_equal(ffsb_transactions(FFSB_OP_WRITE, 10000, 4096,
					   true), 2);
	/* metadata ops: one per call, whatever the size */
	assert_int_equal(ffsb_transactions(FFSB_OP_DELETE, 1 << 20, 4096,
					   false), 1);
	assert_int_equal(ffsb_transactions(FFSB_OP_STAT, 0, 0, false), 1);
	assert_int_equal(ffsb_transactions(FFSB_OP_METAOP, 0, 0, false), 1);
	assert_int_equal(ffsb_transactions(FFSB_OP_OPEN_CLOSE, 0, 0, false),
			 1);
	assert_int_equal(ffsb_transactions(FFSB_OP_CREATEDIR, 0, 0, false),
			 1);
	assert_int_equal(ffsb_transactions(FFSB_OP_CREATE, 0, 4096, false),
			 0);
}

static void draw_seq(const struct ffsb_profile *p, uint64_t seed,
		     enum ffsb_op *ops, uint64_t *sizes, size_t n)
{
	struct pyrand r;

	pyrand_seed(&r, ffsb_thread_seed(seed, 0));
	for (size_t i = 0; i < n; i++) {
		ops[i] = ffsb_choose_op(&p->tg[0], &r);
		sizes[i] = ffsb_choose_size(&p->fs[0], &r);
	}
}

static void test_seed(void **state)
{
	enum ffsb_op a[500], b[500];
	uint64_t sa[500], sb[500];
	unsigned count[FFSB_OP_NR] = { 0 };
	struct ffsb_profile p;
	char err[256];
	bool differ = false;
	(void)state;

	assert_int_equal(ffsb_profile_parse(v6, "v6", &p, err, sizeof(err)),
			 0);
	draw_seq(&p, 42, a, sa, 500);
	draw_seq(&p, 42, b, sb, 500);
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_equal(sa, sb, sizeof(sa));
	draw_seq(&p, 43, b, sb, 500);
	differ = memcmp(a, b, sizeof(a)) || memcmp(sa, sb, sizeof(sa));
	assert_true(differ);
	for (size_t i = 0; i < 500; i++) {
		bool known = false;

		count[a[i]]++;
		assert_true(p.tg[0].weight[a[i]] > 0);
		for (size_t k = 0; k < p.fs[0].nr_sw; k++)
			known |= sa[i] == p.fs[0].sw[k].size;
		assert_true(known);
	}
	/* weights 5:3:2:1:1 of 12 over 500 draws: loose bounds */
	assert_true(count[FFSB_OP_READ] > 150 && count[FFSB_OP_READ] < 270);
	assert_true(count[FFSB_OP_STAT] > 70 && count[FFSB_OP_STAT] < 190);
	assert_true(ffsb_thread_seed(1, 0) != ffsb_thread_seed(1, 1));
	ffsb_profile_release(&p);

	/* uniform sizes stay within [min, max] */
	assert_int_equal(ffsb_profile_parse(v5, "v5", &p, err, sizeof(err)),
			 0);
	draw_seq(&p, 1, a, sa, 500);
	for (size_t i = 0; i < 500; i++)
		assert_true(sa[i] >= 4096 && sa[i] <= 65536);
	ffsb_profile_release(&p);
}

/*
 * The fill pre-flight's arithmetic, speed-free: the built-in profile (one
 * thread, creates of 4k..64k with fsync, mean 34 KiB) whose create took
 * 10 ms grows at most 3.4 MB/s and fills 1 GB of room in about 287 s,
 * before the 300 s are up; 2 GB it does not.  A create/delete balance
 * does not grow; appends count write_size, op_delay slows an op.
 */
static void test_fill_estimate(void **state)
{
	struct ffsb_profile p;
	char err[256];
	double mean = (4096.0 + 65536.0) / 2, rate;
	(void)state;

	assert_int_equal(ffsb_profile_parse(ffsb_builtin_profile, "b", &p,
					    err, sizeof(err)), 0);
	assert_true(ffsb_fs_mean_size(&p.fs[0]) == mean);
	rate = ffsb_growth_bound(&p, 0.010, 0);
	assert_true(rate > mean / 0.010 * 0.999999 &&
		    rate < mean / 0.010 * 1.000001);
	assert_true(ffsb_fill_seconds(rate, 1e9) < p.time);
	assert_true(ffsb_fill_seconds(rate, 2e9) > p.time);
	assert_true(ffsb_fill_seconds(rate, -5) == 0);
	assert_true(isinf(ffsb_fill_seconds(0, 1e9)));
	/* two threads, half the ops deletes: nothing grows */
	p.tg[0].num_threads = 2;
	p.tg[0].weight[FFSB_OP_DELETE] = 1;
	assert_true(ffsb_growth_bound(&p, 0.010, 0) == 0);
	/* appends of 8 KiB at 1 ms plus a 1 ms op_delay: 2 x 8k / 2 ms */
	p.tg[0].weight[FFSB_OP_DELETE] = 0;
	p.tg[0].weight[FFSB_OP_CREATE_FSYNC] = 0;
	p.tg[0].weight[FFSB_OP_APPEND] = 1;
	p.tg[0].write_size = 8192;
	p.tg[0].op_delay = 1;
	rate = ffsb_growth_bound(&p, 0.010, 0.001);
	assert_true(rate > 2 * 8192 / 0.002 * 0.999999 &&
		    rate < 2 * 8192 / 0.002 * 1.000001);
	ffsb_profile_release(&p);
}

static void test_op_names(void **state)
{
	(void)state;
	for (int i = 0; i < FFSB_OP_NR; i++)
		assert_int_equal(ffsb_op_from_name(ffsb_op_name(
				 (enum ffsb_op)i)), i);
	assert_int_equal(ffsb_op_from_name("nope"), FFSB_OP_NR);
	assert_true(ffsb_op_fsyncs(FFSB_OP_CREATE_FSYNC));
	assert_false(ffsb_op_fsyncs(FFSB_OP_CREATE));
	assert_false(ffsb_op_needs_file(FFSB_OP_CREATE));
	assert_true(ffsb_op_needs_file(FFSB_OP_DELETE));
	assert_false(ffsb_op_is_data(FFSB_OP_STAT));
}

/* check() reads the profile file: a bad one is refused with file:line. */
static void test_check(void **state)
{
	const struct workload *wl = wl_find("ffsb");
	char path[] = "/tmp/test_ffsb.XXXXXX", err[512];
	void *o;
	int fd;
	(void)state;

	assert_non_null(wl);
	o = calloc(1, wl->opts_size);
	opt_defaults(wl->opts, o);
	assert_int_equal(wl->check(o, err, sizeof(err)), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, "time = 1\nbogus = 2\n", 19) == 19);
	close(fd);
	assert_int_equal(opt_set(wl->opts, o, "profile", path, err,
				 sizeof(err)), 0);
	assert_int_equal(wl->check(o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":2: unknown key 'bogus' in [global]"));
	assert_int_equal(opt_set(wl->opts, o, "profile", "/nonexistent/x",
				 err, sizeof(err)), 0);
	assert_int_equal(wl->check(o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot read profile '/nonexistent/x'"));
	unlink(path);
	opt_release(wl->opts, o);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_v6),
		cmocka_unit_test(test_parse_v5),
		cmocka_unit_test(test_builtin),
		cmocka_unit_test(test_bad_profiles),
		cmocka_unit_test(test_bad_fs),
		cmocka_unit_test(test_transactions),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_fill_estimate),
		cmocka_unit_test(test_op_names),
		cmocka_unit_test(test_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
