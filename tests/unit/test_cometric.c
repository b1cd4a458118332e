// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_cometric.c - the co-metric parsers against files captured from a
 * real 6.18 kernel (tests/data/cometrics/NAME-6.18.txt) and variants with
 * the fields other kernel versions lack or add (NAME-variant.txt), and the
 * difference of two snapshots.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cometric/cometric.h"
#include "measure/result.h"
#include "util/util.h"

static char *data(const char *name)
{
	char *path = xasprintf("%s/cometrics/%s", FSLAB_TEST_DATA_DIR, name);
	char *text = read_file(path, NULL);

	assert_non_null(text);
	free(path);
	return text;
}

static double get(const struct co_set *s, const char *name)
{
	double v = NAN;

	if (!co_set_get(s, name, &v))
		fail_msg("no %s", name);
	return v;
}

static void test_vmstat(void **state)
{
	struct co_set s = { 0 };
	char *text = data("vmstat-6.18.txt");
	(void)state;

	assert_int_equal(cometric_parse_vmstat(text, 4096, &s), 0);
	assert_true(get(&s, "vm.dirtied_B") == 583923.0 * 4096);
	assert_true(get(&s, "vm.written_B") == 448231.0 * 4096);
	assert_true(get(&s, "vm.pgpgin_B") == 3071086.0 * 1024);
	assert_true(get(&s, "vm.pgpgout_B") == 1959058.0 * 1024);
	assert_true(get(&s, "vm.pgfault") == 12755660);
	assert_true(get(&s, "vm.pgmajfault") == 4713);
	assert_true(get(&s, "vm.dirty_B") == 23979.0 * 4096);
	assert_true(get(&s, "vm.throttled_written_B") == 0);
	/* five allocstall_* zones, four pgscan sources: all zero here */
	assert_true(get(&s, "vm.allocstall") == 0);
	assert_true(get(&s, "vm.pgscan") == 0);
	assert_true(get(&s, "vm.pgsteal") == 0);
	co_set_release(&s);
	free(text);

	/* 4.4: per-zone reclaim counters, no nr_throttled_written */
	text = data("vmstat-4.4-variant.txt");
	assert_int_equal(cometric_parse_vmstat(text, 4096, &s), 0);
	assert_true(get(&s, "vm.pgscan") == 20 + 40 + 2);
	assert_true(get(&s, "vm.pgsteal") == 5 + 10 + 1);
	assert_true(get(&s, "vm.direct_throttle") == 3);
	assert_true(get(&s, "vm.allocstall") == 4);
	assert_true(get(&s, "vm.vmscan_write_B") == 7.0 * 4096);
	assert_false(co_set_get(&s, "vm.throttled_written_B", NULL));
	co_set_release(&s);
	free(text);

	assert_int_equal(cometric_parse_vmstat("", 4096, &s), -1);
	assert_int_equal(cometric_parse_vmstat("garbage\n", 4096, &s), -1);
	co_set_release(&s);
}

static void test_diskstat(void **state)
{
	struct co_set s = { 0 };
	char *text = data("diskstat-loop-6.18.txt");
	(void)state;

	/* 498 2 17672 244 349 530 338880 526 0 412 950 2 0 4194304 0 49 179 */
	assert_int_equal(cometric_parse_diskstat(text, &s), 0);
	assert_true(get(&s, "dev.rd_ios") == 498);
	assert_true(get(&s, "dev.read_merges") == 2);
	assert_true(get(&s, "dev.rd_bytes") == 17672.0 * 512);
	assert_true(get(&s, "dev.write_merges") == 530);
	assert_true(get(&s, "dev.wr_bytes") == 338880.0 * 512);
	assert_true(get(&s, "dev.io_ticks_ms") == 412);
	assert_true(get(&s, "dev.time_in_queue_ms") == 950);
	assert_true(get(&s, "dev.discards") == 2);
	assert_true(get(&s, "dev.discard_B") == 4194304.0 * 512);
	assert_true(get(&s, "dev.flushes") == 49);
	assert_true(get(&s, "dev.flush_ticks_ms") == 179);
	co_set_release(&s);
	free(text);

	text = data("diskstat-15-variant.txt");
	assert_int_equal(cometric_parse_diskstat(text, &s), 0);
	assert_true(get(&s, "dev.discards") == 2);
	assert_false(co_set_get(&s, "dev.flushes", NULL));
	co_set_release(&s);
	free(text);

	text = data("diskstat-11-variant.txt");
	assert_int_equal(cometric_parse_diskstat(text, &s), 0);
	assert_true(get(&s, "dev.time_in_queue_ms") == 950);
	assert_false(co_set_get(&s, "dev.discards", NULL));
	co_set_release(&s);
	free(text);

	text = data("diskstat-6.18.txt"); /* the VM's own disk */
	assert_int_equal(cometric_parse_diskstat(text, &s), 0);
	co_set_release(&s);
	free(text);
	assert_int_equal(cometric_parse_diskstat("1 2 3\n", &s), -1);
	co_set_release(&s);
}

static void test_pressure(void **state)
{
	struct co_set s = { 0 };
	char *text = data("pressure-io-6.18.txt");
	(void)state;

	assert_int_equal(cometric_parse_pressure(text, "io", &s), 0);
	assert_true(fabs(get(&s, "psi.io_some_s") - 15.347836) < 1e-9);
	assert_true(fabs(get(&s, "psi.io_full_s") - 4.674468) < 1e-9);
	free(text);
	text = data("pressure-memory-6.18.txt");
	assert_int_equal(cometric_parse_pressure(text, "memory", &s), 0);
	assert_true(get(&s, "psi.memory_full_s") == 0);
	free(text);
	text = data("pressure-cpu-6.18.txt");
	assert_int_equal(cometric_parse_pressure(text, "cpu", &s), 0);
	assert_true(fabs(get(&s, "psi.cpu_some_s") - 288.608660) < 1e-9);
	co_set_release(&s);
	free(text);
	/* before 5.13 the cpu file had no "full" line */
	text = data("pressure-cpu-5.4-variant.txt");
	assert_int_equal(cometric_parse_pressure(text, "cpu", &s), 0);
	assert_false(co_set_get(&s, "psi.cpu_full_s", NULL));
	assert_int_equal(cometric_parse_pressure(text, "disk", &s), -1);
	co_set_release(&s);
	free(text);
}

static void test_jbd2(void **state)
{
	struct co_set s = { 0 };
	char *text = data("jbd2-info-6.18.txt");
	(void)state;

	/* 2 transactions; 148 ms running, 48 ms logging, 316 handles, 35
	 * blocks and 37 logged blocks per transaction; 43001 us commit */
	assert_int_equal(cometric_parse_jbd2(text, &s), 0);
	assert_true(get(&s, "jbd2.commits") == 2);
	assert_true(get(&s, "jbd2.commits_requested") == 2);
	assert_true(fabs(get(&s, "jbd2.running_s") - 0.296) < 1e-12);
	assert_true(fabs(get(&s, "jbd2.logging_s") - 0.096) < 1e-12);
	assert_true(get(&s, "jbd2.flushing_s") == 0);
	assert_true(get(&s, "jbd2.handles") == 632);
	assert_true(get(&s, "jbd2.blocks") == 70);
	assert_true(get(&s, "jbd2.blocks_logged") == 74);
	assert_true(fabs(get(&s, "jbd2.commit_time_s") - 0.043001) < 1e-12);
	co_set_release(&s);
	free(text);

	text = data("jbd2-info-variant.txt");
	assert_int_equal(cometric_parse_jbd2(text, &s), 0);
	assert_false(co_set_get(&s, "jbd2.blocks_logged", NULL));
	assert_true(get(&s, "jbd2.blocks") == 70);
	co_set_release(&s);
	free(text);

	/* a fresh journal prints only its first line: nothing committed,
	 * every total 0 (a phase starting there has a start) */
	assert_int_equal(cometric_parse_jbd2("0 transactions (0 requested), "
					     "each up to 2730 blocks\n", &s), 0);
	assert_true(get(&s, "jbd2.commits") == 0);
	assert_true(get(&s, "jbd2.blocks") == 0);
	assert_true(get(&s, "jbd2.handles") == 0);
	assert_true(get(&s, "jbd2.blocks_logged") == 0);
	assert_true(get(&s, "jbd2.running_s") == 0);
	co_set_release(&s);
	assert_int_equal(cometric_parse_jbd2("nonsense\n", &s), -1);
	co_set_release(&s);
}

static void test_xfs(void **state)
{
	struct co_set s = { 0 };
	char *text = data("xfs-stats-6.18.txt");
	(void)state;

	/* log 4 136 0 3 3; trans 0 823 0; extent_alloc 206 8402 1 3056;
	 * dir 201 201 0 0; xpc 34308096 20971920 0 */
	assert_int_equal(cometric_parse_xfs(text, &s), 0);
	assert_true(get(&s, "xfs.log_writes") == 4);
	assert_true(get(&s, "xfs.log_blocks") == 136);
	assert_true(get(&s, "xfs.log_forces") == 3);
	assert_true(get(&s, "xfs.log_force_sleeps") == 3);
	assert_true(get(&s, "xfs.trans_async") == 823);
	assert_true(get(&s, "xfs.extents_allocated") == 206);
	assert_true(get(&s, "xfs.blocks_allocated") == 8402);
	assert_true(get(&s, "xfs.dir_creates") == 201);
	assert_true(get(&s, "xfs.write_B") == 20971920);
	/* lookup + insrec + delrec: abtb2 209 1 1, abtc2 825 207 207,
	 * ibt2 205 3 0, fibt2 344 3 3 */
	assert_true(get(&s, "xfs.abt_ops") == 211 + 1239);
	assert_true(get(&s, "xfs.ibt_ops") == 208 + 350);
	assert_true(get(&s, "xfs.bmbt_ops") == 0);
	assert_true(get(&s, "xfs.btree_ops") == 211 + 1239 + 208 + 350);
	co_set_release(&s);
	free(text);

	text = data("xfs-stat-global-6.18.txt");
	assert_int_equal(cometric_parse_xfs(text, &s), 0);
	assert_true(get(&s, "xfs.log_writes") == 88);
	assert_true(get(&s, "xfs.read_B") == 29774898);
	co_set_release(&s);
	free(text);

	text = data("xfs-stats-variant.txt");
	assert_int_equal(cometric_parse_xfs(text, &s), 0);
	assert_false(co_set_get(&s, "xfs.write_B", NULL));
	assert_false(co_set_get(&s, "xfs.btree_ops", NULL));
	assert_true(get(&s, "xfs.log_writes") == 4);
	co_set_release(&s);
	free(text);
	assert_int_equal(cometric_parse_xfs("nothing 1 2\n", &s), -1);
	co_set_release(&s);
}

static void test_btrfs(void **state)
{
	struct co_set s = { 0 };
	char *text = data("btrfs-commit_stats-6.18.txt");
	(void)state;

	assert_int_equal(cometric_parse_btrfs(text, &s), 0);
	assert_true(get(&s, "btrfs.commits") == 2);
	assert_true(fabs(get(&s, "btrfs.commit_s") - 0.036) < 1e-12);
	co_set_release(&s);
	free(text);
	text = data("btrfs-commit_stats-variant.txt");
	assert_int_equal(cometric_parse_btrfs(text, &s), 0);
	assert_true(get(&s, "btrfs.commits") == 2);
	assert_false(co_set_get(&s, "btrfs.commit_s", NULL));
	co_set_release(&s);
	free(text);
	assert_int_equal(cometric_parse_btrfs("", &s), -1);
	co_set_release(&s);
}

/* Every name a parser emits is defined, with a unit that follows the
 * naming rule. */
static void test_defs(void **state)
{
	static const char *const files[] = {
		"vmstat-6.18.txt", "vmstat-4.4-variant.txt",
		"diskstat-loop-6.18.txt", "jbd2-info-6.18.txt",
		"xfs-stats-6.18.txt", "btrfs-commit_stats-6.18.txt",
		"pressure-io-6.18.txt", "pressure-cpu-6.18.txt",
		"pressure-memory-6.18.txt",
	};
	struct co_set s = { 0 };
	size_t nr;
	const struct cometric_def *d = cometric_defs(&nr);
	(void)state;

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *text = data(files[i]);

		cometric_parse_vmstat(text, 4096, &s);
		cometric_parse_diskstat(text, &s);
		cometric_parse_jbd2(text, &s);
		cometric_parse_xfs(text, &s);
		cometric_parse_btrfs(text, &s);
		cometric_parse_pressure(text, "io", &s);
		free(text);
	}
	/* co_set_put refuses (BUG) a name that is not defined, so getting
	 * here is the check that every name a parser emits is one. */
	assert_true(s.n > 0);
	co_set_release(&s);
	for (size_t i = 0; i < nr; i++) {
		size_t l = strlen(d[i].name);

		assert_non_null(strchr(d[i].name, '.'));
		if (l > 2 && !strcmp(d[i].name + l - 2, "_B"))
			assert_string_equal(d[i].unit, "B");
		if (l > 2 && !strcmp(d[i].name + l - 2, "_s"))
			assert_string_equal(d[i].unit, "s");
		if (l > 4 && !strcmp(d[i].name + l - 4, "_pct"))
			assert_string_equal(d[i].unit, "%");
		if (d[i].kind != CO_RAW)
			assert_non_null(d[i].what);
	}
	assert_int_equal(cometric_level_parse("none"), COMETRIC_NONE);
	assert_int_equal(cometric_level_parse("basic"), COMETRIC_BASIC);
	assert_int_equal(cometric_level_parse("all"), COMETRIC_ALL);
	assert_int_equal(cometric_level_parse("most"), -1);
}

static void test_diff(void **state)
{
	struct cometric_snap b = { 0 }, e = { 0 };
	struct co_set out = { 0 };
	struct phase_rec p = { 0 };
	(void)state;

	b.mono_ns = 1000000000ULL;
	e.mono_ns = 3000000000ULL; /* 2 s */
	co_set_put(&b.vals, "vm.written_B", 1000);
	co_set_put(&e.vals, "vm.written_B", 5096);
	co_set_put(&b.vals, "vm.pgfault", 10);
	co_set_put(&e.vals, "vm.pgfault", 5); /* went backwards: dropped */
	co_set_put(&e.vals, "vm.dirty_B", 8192);      /* gauge: end */
	co_set_put(&b.vals, "jbd2.blocks", 3);        /* only at begin */
	co_set_put(&b.vals, "dev.io_ticks_ms", 100);
	co_set_put(&e.vals, "dev.io_ticks_ms", 1100); /* 1 s of 2 */
	co_set_put(&b.vals, "dev.time_in_queue_ms", 0);
	co_set_put(&e.vals, "dev.time_in_queue_ms", 6000);
	co_set_put(&b.vals, "dev.wr_ios", 10);
	co_set_put(&e.vals, "dev.wr_ios", 30);
	co_set_put(&b.vals, "dev.wr_ticks_ms", 0);
	co_set_put(&e.vals, "dev.wr_ticks_ms", 100);
	co_set_put(&b.vals, "dev.wr_bytes", 0);
	co_set_put(&e.vals, "dev.wr_bytes", 20 * 8192);
	co_set_put(&b.vals, "cpu.freq_sum_MHz", 4000);
	co_set_put(&b.vals, "cpu.freq_cpus", 2);
	co_set_put(&e.vals, "cpu.freq_sum_MHz", 3000);
	co_set_put(&e.vals, "cpu.freq_cpus", 2);
	cometric_diff(&b, &e, &out);
	assert_true(get(&out, "vm.written_B") == 4096);
	assert_false(co_set_get(&out, "vm.pgfault", NULL));
	assert_true(get(&out, "vm.dirty_B") == 8192);
	assert_false(co_set_get(&out, "jbd2.blocks", NULL));
	assert_true(fabs(get(&out, "dev.util_pct") - 50) < 1e-9);
	assert_true(fabs(get(&out, "dev.queue_depth") - 3) < 1e-9);
	assert_true(fabs(get(&out, "dev.write_lat_mean_ms") - 5) < 1e-9);
	assert_true(get(&out, "dev.write_rq_size_B") == 8192);
	assert_true(fabs(get(&out, "cpu.freq_MHz") - 1750) < 1e-9);
	assert_false(co_set_get(&out, "dev.wr_ios", NULL)); /* raw */
	cometric_record(&out, &p);
	assert_int_equal(p.nr_metrics, out.n);
	assert_non_null(phase_rec_metric(&p, "dev.util_pct"));
	assert_string_equal(phase_rec_metric(&p, "dev.util_pct")->unit, "%");
	assert_int_equal(phase_rec_metric(&p, "vm.written_B")->better,
			 BETTER_NONE);
	phase_rec_release(&p);
	co_set_release(&out);
	cometric_snap_release(&b);
	cometric_snap_release(&e);
}

/* The name -> slot index finds every definition at its own index and
 * nothing else; the slots keep the definitions' order. */
static void test_index(void **state)
{
	struct co_set s = { 0 };
	size_t nr;
	const struct cometric_def *d = cometric_defs(&nr);
	double v;
	(void)state;

	assert_int_equal(nr, COMETRIC_NR);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(cometric_index(d[i].name), (int)i);
		assert_ptr_equal(cometric_def(d[i].name), &d[i]);
	}
	assert_int_equal(cometric_index(""), -1);
	assert_int_equal(cometric_index("vm.dirtied"), -1);
	assert_int_equal(cometric_index("vm.dirtied_B2"), -1);
	assert_null(cometric_def("user_s"));
	assert_false(co_set_get(&s, "vm.pgfault", NULL));
	assert_false(co_set_get(&s, "no.such", NULL));
	co_set_put(&s, "vm.pgfault", 3);
	co_set_put(&s, "vm.pgfault", 4); /* replaced, not added */
	co_set_put(&s, d[nr - 1].name, 5);
	assert_int_equal(s.n, 2);
	assert_true(co_set_get(&s, "vm.pgfault", &v) && v == 4);
	assert_true(co_set_at(&s, nr - 1, &v) && v == 5);
	assert_false(co_set_at(&s, 0, NULL));
	assert_false(co_set_at(&s, nr, NULL));
	co_set_release(&s);
	assert_int_equal(s.n, 0);
	assert_false(co_set_at(&s, nr - 1, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vmstat),
		cmocka_unit_test(test_diskstat),
		cmocka_unit_test(test_pressure),
		cmocka_unit_test(test_jbd2),
		cmocka_unit_test(test_xfs),
		cmocka_unit_test(test_btrfs),
		cmocka_unit_test(test_defs),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
