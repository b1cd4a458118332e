/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_distribute.c - the pure bookkeeping of the distribute workload
 * (src/workloads/distribute/): option rules, file names and sizes,
 * shares and batches, the accounting ledger (produced x fanout =
 * delivered, and every kind of flaw named) and the bounded intervals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/opt.h"
#include "workloads/distribute/distribute.h"
#include "workloads/registry.h"

/* Parse spec over the defaults and run the workload's check. */
static int check_spec(const char *spec, char *err, size_t errlen)
{
	struct dist_opts o;
	int ret;

	opt_defaults(wl_distribute.opts, &o);
	ret = opt_parse(wl_distribute.opts, &o, spec, err, errlen);
	if (!ret)
		ret = wl_distribute.check(&o, err, errlen);
	opt_release(wl_distribute.opts, &o);
	return ret;
}

static void test_options(void **state)
{
	char err[256];
	(void)state;

	assert_int_equal(check_spec("", err, sizeof(err)), 0);
	assert_int_equal(check_spec("files=2000,fanout=3", err, sizeof(err)),
			 0);
	assert_int_equal(check_spec("rate=500,duration=5", err, sizeof(err)),
			 0);
	assert_int_equal(check_spec("size=4k", err, sizeof(err)), 0);
	assert_int_equal(check_spec("files=10,rate=10", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "exclusive"));
	assert_int_equal(check_spec("size=5k-1k", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "minimum above"));
	assert_int_equal(check_spec("size=1k-x", err, sizeof(err)), -1);
	assert_int_equal(check_spec("size=abc", err, sizeof(err)), -1);
	assert_int_equal(check_spec("size=2g", err, sizeof(err)), -1);
	assert_int_equal(check_spec("fanout=0", err, sizeof(err)), -1);
	assert_int_equal(check_spec("batch=0", err, sizeof(err)), -1);
	assert_int_equal(check_spec("workers=0", err, sizeof(err)), -1);
	assert_int_equal(check_spec("deliver=ftp", err, sizeof(err)), -1);
	assert_int_equal(check_spec("instances=200,fanout=10", err,
				    sizeof(err)), -1);
	assert_non_null(strstr(err, "threads"));
	assert_int_equal(check_spec("until=time,duration=60,timeout=10", err,
				    sizeof(err)), -1);
}

static void test_population(void **state)
{
	struct dist_opts o;
	(void)state;

	opt_defaults(wl_distribute.opts, &o);
	assert_int_equal(dist_population(&o), DIST_DEFAULT_FILES);
	o.files = 2000;
	assert_int_equal(dist_population(&o), 2000);
	o.files = 0;
	o.rate = 100;
	assert_int_equal(dist_population(&o), 0);
	o.instances = 2;
	o.sources = 3;
	o.fanout = 4;
	o.workers = 2;
	assert_int_equal(dist_threads(&o), 2 * (3 + 1 + 4 * 2));
	opt_release(wl_distribute.opts, &o);
}

static void test_size(void **state)
{
	uint64_t min, max, sum = 0;
	char err[128];
	(void)state;

	assert_int_equal(dist_parse_size("1k-5k", &min, &max, err,
					 sizeof(err)), 0);
	assert_int_equal(min, 1024);
	assert_int_equal(max, 5120);
	assert_int_equal(dist_parse_size("3000", &min, &max, err,
					 sizeof(err)), 0);
	assert_int_equal(min, 3000);
	assert_int_equal(max, 3000);
	assert_int_equal(dist_parse_size("-5k", &min, &max, err,
					 sizeof(err)), -1);
	/* deterministic, in range, and the default's mean is ~3 KiB */
	for (uint64_t i = 0; i < 20000; i++) {
		uint64_t s = dist_file_size(7, 0, 1, i, 1024, 5120);

		assert_true(s >= 1024 && s <= 5120);
		assert_int_equal(s, dist_file_size(7, 0, 1, i, 1024, 5120));
		sum += s;
	}
	assert_true(sum / 20000 > 3000 && sum / 20000 < 3144);
	assert_int_equal(dist_file_size(7, 0, 0, 0, 4096, 4096), 4096);
	assert_true(dist_file_size(1, 0, 0, 5, 0, 1u << 30) !=
		    dist_file_size(2, 0, 0, 5, 0, 1u << 30));
}

static void test_names(void **state)
{
	char buf[32];
	unsigned src;
	uint64_t seq;
	(void)state;

	dist_file_name(buf, sizeof(buf), 3, 42);
	assert_string_equal(buf, "s3-00000042");
	assert_int_equal(dist_parse_name(buf, &src, &seq), 0);
	assert_int_equal(src, 3);
	assert_int_equal(seq, 42);
	dist_file_name(buf, sizeof(buf), 0, 123456789012ULL);
	assert_string_equal(buf, "s0-123456789012");
	assert_int_equal(dist_parse_name(buf, &src, &seq), 0);
	assert_int_equal(seq, 123456789012ULL);
	assert_int_equal(dist_parse_name(".s3-00000042", &src, &seq), -1);
	assert_int_equal(dist_parse_name("s3-0042", &src, &seq), -1);
	assert_int_equal(dist_parse_name("s-00000042", &src, &seq), -1);
	assert_int_equal(dist_parse_name("s3-00000042x", &src, &seq), -1);
	assert_int_equal(dist_parse_name("x3-00000042", &src, &seq), -1);
	assert_int_equal(dist_parse_name("", &src, &seq), -1);
}

static void test_shares_batches(void **state)
{
	uint64_t sum = 0, files = 0;
	(void)state;

	for (uint64_t i = 0; i < 7; i++)
		sum += dist_share(2000, 7, i);
	assert_int_equal(sum, 2000);
	assert_int_equal(dist_share(2000, 7, 0), 286);
	assert_int_equal(dist_share(2000, 7, 6), 285);
	assert_int_equal(dist_share(5, 1, 1), 0);
	assert_int_equal(dist_batches(2000, 100), 20);
	assert_int_equal(dist_batches(2001, 100), 21);
	assert_int_equal(dist_batches(0, 100), 0);
	for (uint64_t i = 0; i < dist_batches(2001, 100); i++)
		files += dist_batch_len(2001, 100, i);
	assert_int_equal(files, 2001);
	assert_int_equal(dist_batch_len(2001, 100, 20), 1);
	assert_int_equal(dist_batch_len(2001, 100, 21), 0);
	assert_int_equal(dist_batch_len(50, 100, 0), 50);
}

static void test_ledger_complete(void **state)
{
	const uint64_t produced[2] = { 5, 3 };
	struct dist_ledger l;
	struct dist_verdict v;
	(void)state;

	dist_ledger_init(&l, 2, produced, 3);
	for (unsigned d = 0; d < 3; d++)
		for (unsigned s = 0; s < 2; s++)
			for (uint64_t q = 0; q < produced[s]; q++)
				assert_int_equal(dist_ledger_mark(&l,
						 DIST_LOC_DST, d, s, q), 0);
	dist_ledger_check(&l, true, &v);
	/* produced x fanout = delivered */
	assert_int_equal(v.expected, 8 * 3);
	assert_int_equal(v.delivered, 8 * 3);
	assert_int_equal(v.lost + v.duplicated + v.backlog, 0);
	assert_true(dist_verdict_ok(&v));
	/* never produced: refused */
	assert_int_equal(dist_ledger_mark(&l, DIST_LOC_DST, 0, 1, 3), -1);
	assert_int_equal(dist_ledger_mark(&l, DIST_LOC_DST, 3, 0, 0), -1);
	assert_int_equal(dist_ledger_mark(&l, DIST_LOC_UP, 0, 2, 0), -1);
	dist_ledger_release(&l);
}

static void test_ledger_flaws(void **state)
{
	const uint64_t produced[1] = { 4 };
	struct dist_ledger l;
	struct dist_verdict v;
	(void)state;

	dist_ledger_init(&l, 1, produced, 2);
	/* file 0 delivered twice, 1 still upstream, 2 outgoing for d1 only,
	 * 3 delivered to d0 only */
	dist_ledger_mark(&l, DIST_LOC_DST, 0, 0, 0);
	dist_ledger_mark(&l, DIST_LOC_DST, 1, 0, 0);
	dist_ledger_mark(&l, DIST_LOC_OUT, 1, 0, 0);
	dist_ledger_mark(&l, DIST_LOC_UP, 0, 0, 1);
	dist_ledger_mark(&l, DIST_LOC_DST, 0, 0, 2);
	dist_ledger_mark(&l, DIST_LOC_OUT, 1, 0, 2);
	dist_ledger_mark(&l, DIST_LOC_DST, 0, 0, 3);
	dist_ledger_check(&l, false, &v);
	assert_int_equal(v.expected, 8);
	assert_int_equal(v.delivered, 3);      /* d0: 0, 2, 3 */
	assert_int_equal(v.backlog, 3);        /* d0: 1; d1: 1, 2 */
	assert_int_equal(v.duplicated, 1);     /* d1: 0 */
	assert_int_equal(v.lost, 1);           /* d1: 3 */
	assert_int_equal(v.flaw, DIST_DUPLICATE);
	assert_int_equal(v.flaw_dest, 1);
	assert_int_equal(v.flaw_seq, 0);
	dist_ledger_release(&l);

	/* drained: backlog is a flaw, and the first one is named */
	dist_ledger_init(&l, 1, produced, 1);
	for (uint64_t q = 0; q < 4; q++)
		dist_ledger_mark(&l, q == 2 ? DIST_LOC_OUT : DIST_LOC_DST, 0,
				 0, q);
	dist_ledger_check(&l, false, &v);
	assert_true(dist_verdict_ok(&v));
	assert_int_equal(v.backlog, 1);
	dist_ledger_check(&l, true, &v);
	assert_false(dist_verdict_ok(&v));
	assert_int_equal(v.flaw, DIST_LEFT);
	assert_int_equal(v.flaw_seq, 2);
	dist_ledger_release(&l);

	/* nothing produced: trivially complete */
	dist_ledger_init(&l, 1, (const uint64_t[]){ 0 }, 3);
	dist_ledger_check(&l, true, &v);
	assert_true(dist_verdict_ok(&v));
	assert_int_equal(v.expected, 0);
	dist_ledger_release(&l);
}

static void test_intervals(void **state)
{
	struct dist_intervals *iv = malloc(sizeof(*iv));
	uint64_t total = 0;
	double secs = 0;
	(void)state;

	dist_intervals_init(iv);
	for (unsigned i = 0; i < 3; i++)
		dist_intervals_tick(iv, 1.0, 10 * (i + 1), i, 0, 5);
	assert_int_equal(iv->nr, 3);
	assert_int_equal(iv->v[2].delivered, 30);
	assert_int_equal(iv->v[2].source, 2);
	/* a long run stays bounded and loses no delivery */
	dist_intervals_init(iv);
	for (unsigned i = 0; i < 5 * DIST_MAX_INTERVALS; i++)
		dist_intervals_tick(iv, 1.0, 7, i, 1, 2);
	assert_true(iv->nr <= DIST_MAX_INTERVALS);
	assert_int_equal(iv->ticks_per_slot, 8);
	for (size_t i = 0; i < iv->nr; i++) {
		total += iv->v[i].delivered;
		secs += iv->v[i].secs;
	}
	assert_int_equal(total, 7ULL * 5 * DIST_MAX_INTERVALS);
	assert_true(secs > 5.0 * DIST_MAX_INTERVALS - 0.5 &&
		    secs < 5.0 * DIST_MAX_INTERVALS + 0.5);
	/* backlog is the value at the end of the merged slot */
	assert_int_equal(iv->v[iv->nr - 1].source,
			 5 * DIST_MAX_INTERVALS - 1);
	assert_int_equal(iv->v[0].source, 7);
	free(iv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_population),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_shares_batches),
		cmocka_unit_test(test_ledger_complete),
		cmocka_unit_test(test_ledger_flaws),
		cmocka_unit_test(test_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
