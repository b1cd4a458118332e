/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_par.c - the pure parts of the MPI layer (src/phase/par.c): the reorder
 * peer (IOR -C/-Q shift, any K, negative too) and the one-rank world
 * that every collective is outside mpirun (allreduce leaves the values,
 * allgather copies them), where reorder's peers are on a placement,
 * and how many ranks a launcher's environment says there are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "phase/par.h"

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
	/* alone, gathering bytes gives a copy of one's own */
	{
		size_t lens[1] = { 99 };
		unsigned char *b = par_gather_bytes("abc", 3, lens);

		assert_int_equal(lens[0], 3);
		assert_memory_equal(b, "abc", 3);
		free(b);
		b = par_gather_bytes(NULL, 0, lens);
		assert_non_null(b);
		assert_int_equal(lens[0], 0);
		free(b);
	}
}

/*
 * Where reorder=k's peers are: 6 ranks round-robin over 3 nodes (mpirun
 * --map-by node) have none on their own node for k=1; placed by slot,
 * 2 per node, k=1 leaves half at home and k=2 none; 4+2 has no shift.
 */
static void test_same_node_peers(void **state)
{
	static const int rr[6] = { 0, 1, 2, 0, 1, 2 };
	static const int slot[6] = { 0, 0, 1, 1, 2, 2 };
	static const int lop[6] = { 0, 0, 0, 0, 1, 1 };
	static const int one[1] = { 0 };

	(void)state;
	assert_int_equal(par_same_node_peers_of(rr, 6, 1), 0);
	assert_int_equal(par_same_node_peers_of(rr, 6, 3), 6);
	assert_int_equal(par_cross_node_shift_of(rr, 6), 1);
	assert_int_equal(par_same_node_peers_of(slot, 6, 1), 3);
	assert_int_equal(par_same_node_peers_of(slot, 6, 2), 0);
	assert_int_equal(par_same_node_peers_of(slot, 6, -2), 0);
	assert_int_equal(par_cross_node_shift_of(slot, 6), 2);
	assert_int_equal(par_same_node_peers_of(lop, 6, 1), 4);
	assert_int_equal(par_cross_node_shift_of(lop, 6), 0);
	assert_int_equal(par_same_node_peers_of(one, 1, 1), 0);
	assert_int_equal(par_cross_node_shift_of(one, 1), 0);
	/* alone: this machine, node 0 */
	assert_int_equal(par_node_of(0), 0);
	assert_int_equal(par_node_of(1), -1);
	assert_string_equal(par_host(1), "?");
	assert_true(par_host(0)[0] != '\0');
}

/* A launcher's environment as NAME=VALUE strings, for fake_getenv. */
static const char *const *fake_env;

static char *fake_getenv(const char *name)
{
	size_t n = strlen(name);

	for (const char *const *e = fake_env; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return (char *)*e + n + 1;
	return NULL;
}

static int launcher_size(const char *const *env)
{
	fake_env = env;
	return par_launcher_size(fake_getenv);
}

/*
 * What mpirun, mpiexec and srun set, as Open MPI 4.1 and MPICH's Hydra
 * set it (a build without MPI refuses a size above one).
 */
static void test_launcher_size(void **state)
{
	static const char *const none[] = { "PATH=/usr/bin", NULL };
	static const char *const ompi[] = {
		"OMPI_COMM_WORLD_SIZE=4", "OMPI_COMM_WORLD_RANK=2",
		"PMIX_RANK=2", NULL,
	};
	static const char *const ompi1[] = {
		"OMPI_COMM_WORLD_SIZE=1", "OMPI_COMM_WORLD_RANK=0",
		"PMIX_RANK=0", NULL,
	};
	static const char *const hydra[] = {
		"PMI_RANK=0", "PMI_SIZE=2", "PMI_FD=5", NULL,
	};
	static const char *const pmix0[] = { "PMIX_RANK=0", NULL };
	static const char *const pmix3[] = { "PMIX_RANK=3", NULL };
	static const char *const junk[] = {
		"OMPI_COMM_WORLD_SIZE=", "PMI_SIZE=two", "PMI_RANK=-1", NULL,
	};

	(void)state;
	assert_int_equal(launcher_size(none), 0);
	assert_int_equal(launcher_size(ompi), 4);
	assert_int_equal(launcher_size(ompi1), 1);
	assert_int_equal(launcher_size(hydra), 2);
	/* only the rank: rank 0 could be alone, rank 3 is one of >= 4 */
	assert_int_equal(launcher_size(pmix0), 1);
	assert_int_equal(launcher_size(pmix3), 4);
	assert_int_equal(launcher_size(junk), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer),
		cmocka_unit_test(test_one_rank_world),
		cmocka_unit_test(test_same_node_peers),
		cmocka_unit_test(test_launcher_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
