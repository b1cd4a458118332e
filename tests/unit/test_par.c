/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_par.c - the pure parts of the MPI layer (src/par.c): the reorder
 * peer (IOR -C/-Q shift, any K, negative too) and the one-rank world
 * that every collective is outside mpirun (allreduce leaves the values,
 * allgather copies them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "par.h"

static void test_peer(void **state)
{
	(void)state;
	assert_int_equal(par_peer(0, 1, 4), 1);
	assert_int_equal(par_peer(3, 1, 4), 0);
	assert_int_equal(par_peer(2, 5, 4), 3);
	assert_int_equal(par_peer(1, 4, 4), 1);
	assert_int_equal(par_peer(0, -1, 4), 3);
	assert_int_equal(par_peer(1, -6, 4), 3);
	assert_int_equal(par_peer(0, 1000001, 3), 2);
	assert_int_equal(par_peer(0, 7, 1), 0);
	/* a shift is a permutation: every rank is read by exactly one */
	for (int n = 1; n <= 9; n++)
		for (long long k = -11; k <= 11; k++) {
			int seen[9] = { 0 };

			for (int r = 0; r < n; r++) {
				int p = par_peer(r, k, n);

				assert_in_range(p, 0, n - 1);
				seen[p]++;
			}
			for (int r = 0; r < n; r++)
				assert_int_equal(seen[r], 1);
		}
}

static void test_one_rank_world(void **state)
{
	uint64_t v[2] = { 42, 7 }, all[2] = { 0, 0 };

	(void)state;
	assert_false(par_active());
	assert_int_equal(par_size(), 1);
	assert_int_equal(par_nodes(), 1);
	par_allreduce_u64(v, 2, PAR_SUM);
	assert_true(v[0] == 42 && v[1] == 7);
	par_allgather_u64(v, 2, all);
	assert_true(all[0] == 42 && all[1] == 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer),
		cmocka_unit_test(test_one_rank_world),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
