/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_stall.c - the stall watch (src/phase/stall.c): a gap of at least
 * the threshold between two completions is one stall of exactly that
 * length; the time before the first and after the last completion is
 * none; threads reporting at once lose no stall and invent none.  The
 * list keeps the first STALL_LIST_MAX; the series counts each
 * completion once, in the 100 ms interval its time falls in.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "phase/stall.h"

#define MS 1000000ULL

static void test_gaps(void **state)
{
	struct stallwatch sw;
	/* completions every 10 ms, then held 400 ms three times */
	uint64_t t = 1000 * MS, t0 = t;

	(void)state;
	stallwatch_init(&sw, t0, 200 * MS);
	t += 900 * MS;            /* before the first completion: set-up */
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < 50; i++) {
			t += 10 * MS;
			stallwatch_done(&sw, t);
		}
		t += 400 * MS;
		stallwatch_done(&sw, t);
	}
	t += 199 * MS;            /* just below the threshold */
	stallwatch_done(&sw, t);
	t += 200 * MS;            /* exactly the threshold: a stall */
	stallwatch_done(&sw, t);
	assert_int_equal(sw.nr, 4);
	for (int k = 0; k < 3; k++)
		assert_int_equal(sw.v[k].len_ns, 400 * MS);
	assert_int_equal(sw.v[3].len_ns, 200 * MS);
	/* the first stall starts at the 50th completion: 900 + 500 ms */
	assert_int_equal(sw.v[0].start_ns, 1400 * MS);
	assert_int_equal(stallwatch_max_ns(&sw), 400 * MS);
	assert_int_equal(stallwatch_total_ns(&sw), 1400 * MS);
	assert_int_equal(sw.nr_done, 3 * 51 + 2);
	stallwatch_release(&sw);
}

static void test_none(void **state)
{
	struct stallwatch sw;

	(void)state;
	stallwatch_init(&sw, 0, 200 * MS);
	assert_int_equal(stallwatch_max_ns(&sw), 0);
	stallwatch_done(&sw, 5000 * MS);  /* one completion: no gap yet */
	stallwatch_done(&sw, 5100 * MS);
	/* a time older than the latest (another thread swapped first) */
	stallwatch_done(&sw, 4000 * MS);
	stallwatch_done(&sw, 5150 * MS);
	assert_int_equal(sw.nr, 0);
	assert_int_equal(stallwatch_total_ns(&sw), 0);
	stallwatch_release(&sw);
}

static void test_series(void **state)
{
	struct stallwatch sw;
	uint64_t t0 = 7000 * MS;

	(void)state;
	stallwatch_init(&sw, t0, 200 * MS);
	assert_int_equal(stallwatch_series_len(&sw), 0);
	/* 3 in [0, 100) ms, none in [100, 200), 1 at exactly 200 ms (the
	 * interval's start), 2 in [500, 600) */
	stallwatch_done(&sw, t0);
	stallwatch_done(&sw, t0 + 50 * MS);
	stallwatch_done(&sw, t0 + 99 * MS);
	stallwatch_done(&sw, t0 + 200 * MS);
	stallwatch_done(&sw, t0 + 550 * MS);
	stallwatch_done(&sw, t0 + 599 * MS);
	assert_int_equal(stallwatch_series_len(&sw), 6);
	assert_int_equal(sw.series[0], 3);
	assert_int_equal(sw.series[1], 0);
	assert_int_equal(sw.series[2], 1);
	assert_int_equal(sw.series[3] + sw.series[4], 0);
	assert_int_equal(sw.series[5], 2);
	/* the gap 200 -> 550 ms is the one stall, 350 ms from 200 ms */
	assert_int_equal(sw.nr, 1);
	assert_int_equal(sw.v[0].start_ns, 200 * MS);
	assert_int_equal(sw.v[0].len_ns, 350 * MS);
	/* past the hour the series holds, a completion counts in nr_done
	 * only and the series ends at its last slot */
	stallwatch_done(&sw, t0 + (uint64_t)STALL_SERIES_MAX * 100 * MS);
	assert_int_equal(stallwatch_series_len(&sw), STALL_SERIES_MAX);
	assert_int_equal(sw.series[STALL_SERIES_MAX - 1], 0);
	assert_int_equal(sw.nr_done, 7);
	stallwatch_release(&sw);
}

static void test_list_bound(void **state)
{
	struct stallwatch sw;
	uint64_t t = MS;    /* a latest time of 0 means none yet */

	(void)state;
	stallwatch_init(&sw, 0, 200 * MS);
	stallwatch_done(&sw, t);
	/* 1005 stalls, the last one the longest */
	for (int i = 0; i < STALL_LIST_MAX + 5; i++) {
		t += (i == STALL_LIST_MAX + 4 ? 900 : 300) * MS;
		stallwatch_done(&sw, t);
	}
	assert_int_equal(sw.nr, STALL_LIST_MAX);
	assert_int_equal(sw.nr_all, STALL_LIST_MAX + 5);
	assert_int_equal(sw.v[STALL_LIST_MAX - 1].start_ns,
			 MS + (uint64_t)(STALL_LIST_MAX - 1) * 300 * MS);
	/* longest and sum over all, not only the kept ones */
	assert_int_equal(stallwatch_max_ns(&sw), 900 * MS);
	assert_int_equal(stallwatch_total_ns(&sw),
			 (uint64_t)(STALL_LIST_MAX + 4) * 300 * MS + 900 * MS);
	stallwatch_release(&sw);
}

struct thr {
	struct stallwatch *sw;
	_Atomic uint64_t *clock;
};

/* Threads take turns on one shared clock that advances 1 ms per
 * completion, with one 300 ms jump in the middle. */
static void *worker(void *arg)
{
	struct thr *t = arg;

	for (int i = 0; i < 2000; i++) {
		uint64_t step = atomic_fetch_add(t->clock, 1) == 4000 ? 300 : 1;
		uint64_t now = atomic_fetch_add(t->clock + 1, step * MS) +
			       step * MS;

		stallwatch_done(t->sw, now);
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct stallwatch sw;
	_Atomic uint64_t clock[2] = { 0, 1 };
	struct thr t = { &sw, clock };
	pthread_t th[4];

	(void)state;
	stallwatch_init(&sw, 0, 200 * MS);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker, &t), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(sw.nr_done, 8000);
	{
		uint64_t sum = 0;

		for (size_t i = 0; i < stallwatch_series_len(&sw); i++)
			sum += sw.series[i];
		assert_int_equal(sum, 8000);
	}
	/* Threads store their times out of order by a few steps: the
	 * first one past the jump ends it, seeing the latest time before
	 * it.  Exactly one stall, 300 ms plus at most a few steps. */
	assert_int_equal(sw.nr, 1);
	assert_true(sw.v[0].len_ns >= 300 * MS &&
		    sw.v[0].len_ns <= 320 * MS);
	stallwatch_release(&sw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_list_bound),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
