/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * par.c - the MPI layer (see par.h).  Without HAVE_MPI every function is
 * the one-rank case, so the rest of fslab never needs an #ifdef.
 */
#include "phase/par.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

int par_peer(int rank, long long k, int size)
{
	long long p;

	if (size <= 1)
		return 0;
	p = ((long long)rank + k % size) % size;
	return (int)(p < 0 ? p + size : p);
}

/* Host names are cut here: node names in a hostfile are short. */
#define HOST_MAX 64

/* Per rank: host name and node index (par_init fills them). */
static char (*hostname_of)[HOST_MAX];
static int *node_of;

static void hosts_alone(void)
{
	if (hostname_of)
		return;
	hostname_of = xcalloc(1, sizeof(*hostname_of));
	node_of = xcalloc(1, sizeof(*node_of));
	if (gethostname(hostname_of[0], HOST_MAX - 1) < 0)
		snprintf(hostname_of[0], HOST_MAX, "localhost");
}

const char *par_host(int rank)
{
	hosts_alone();
	return rank >= 0 && rank < par_size() ? hostname_of[rank] : "?";
}

int par_node_of(int rank)
{
	hosts_alone();
	return rank >= 0 && rank < par_size() ? node_of[rank] : -1;
}

int par_same_node_peers_of(const int *node, int n, long long k)
{
	int same = 0;

	for (int r = 0; r < n && n > 1; r++)
		same += node[r] == node[par_peer(r, k, n)];
	return same;
}

int par_cross_node_shift_of(const int *node, int n)
{
	for (int k = 1; k < n; k++)
		if (!par_same_node_peers_of(node, n, k))
			return k;
	return 0;
}

int par_same_node_peers(long long k)
{
	hosts_alone();
	return par_same_node_peers_of(node_of, par_size(), k);
}

static int par_cross_node_shift(void)
{
	hosts_alone();
	return par_cross_node_shift_of(node_of, par_size());
}

void par_reorder_note(FILE *out, const char *prefix, long long k)
{
	int n = par_size(), same, shift, peer = par_peer(0, k, n);

	if (par_nodes() <= 1 || !out)
		return;
	same = par_same_node_peers(k);
	if (!same) {
		fprintf(out, "%s: reorder=%lld: every rank reads another host's "
			"files (rank 0 on %s reads rank %d's on %s)\n", prefix,
			k, par_host(0), peer, par_host(peer));
		return;
	}
	shift = par_cross_node_shift();
	fprintf(out, "%s: note: reorder=%lld: %d of %d ranks read files made "
		"on their own host, whose cache may still hold them; ", prefix,
		k, same, n);
	if (shift)
		fprintf(out, "reorder=%d (or mpirun --map-by node) gives every "
			"rank another host's files\n", shift);
	else
		fprintf(out, "no shift gives every rank another host's files "
			"with this placement\n");
}

/* A launcher variable as a count: -1 when unset or not a number. */
static long launcher_var(char *(*get)(const char *), const char *name)
{
	const char *v = get(name);
	char *end;
	long n;

	if (!v || !*v)
		return -1;
	n = strtol(v, &end, 10);
	return *end || n < 0 ? -1 : n;
}

int par_launcher_size(char *(*get)(const char *))
{
	/* The sizes Open MPI (orted/prterun) and MPICH's Hydra (PMI) set. */
	static const char *const size_vars[] = {
		"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
	};
	/* PMIx alone (srun --mpi=pmix, prterun) names only the rank. */
	static const char *const rank_vars[] = {
		"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
	};
	long best = 0, n;

	for (size_t i = 0; i < ARRAY_SIZE(size_vars); i++)
		if ((n = launcher_var(get, size_vars[i])) > best)
			best = n;
	for (size_t i = 0; i < ARRAY_SIZE(rank_vars); i++) {
		n = launcher_var(get, rank_vars[i]);
		/* rank N means at least N + 1 ranks; rank 0 at least one */
		if (n >= 0 && n + 1 > best)
			best = n + 1;
	}
	return best > INT_MAX ? INT_MAX : (int)best;
}

#ifdef HAVE_MPI
#include <mpi.h>

static bool active;
static int rank, size = 1;
static bool leader = true;
static int nodes = 1;

bool par_built(void)
{
	return true;
}

/* mpirun (Open MPI, PMIx, MPICH's PMI) marks the processes it starts. */
static bool under_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") ||
	       getenv("PMI_RANK");
}

/*
 * Learn every rank's host name and node index.  A node is named by its
 * lowest rank (the leader): every rank learns its leader within the
 * node, then all leaders; nodes are numbered in the order of those.
 */
static void map_hosts(MPI_Comm node)
{
	char name[MPI_MAX_PROCESSOR_NAME] = "", mine[HOST_MAX] = "";
	int len = 0, first = rank, *firsts;

	MPI_Get_processor_name(name, &len);
	snprintf(mine, sizeof(mine), "%s", name);
	hostname_of = xcalloc((size_t)size, sizeof(*hostname_of));
	node_of = xcalloc((size_t)size, sizeof(*node_of));
	firsts = xcalloc((size_t)size, sizeof(*firsts));
	MPI_Allgather(mine, HOST_MAX, MPI_CHAR, hostname_of, HOST_MAX,
		      MPI_CHAR, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, node);
	MPI_Allgather(&first, 1, MPI_INT, firsts, 1, MPI_INT,
		      MPI_COMM_WORLD);
	/* A leader is first of its node; its index counts leaders below. */
	for (int r = 0; r < size; r++) {
		int idx = 0;

		for (int q = 0; q < firsts[r]; q++)
			idx += firsts[q] == q;
		node_of[r] = idx;
	}
	free(firsts);
}

void par_init(int *argc, char ***argv)
{
	MPI_Comm node;
	int node_rank;

	if (!under_mpirun())
		return;
	if (MPI_Init(argc, argv) != MPI_SUCCESS)
		die("cannot initialise MPI");
	/* A failing rank must end the job with a message, not hang it. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
			    MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &node_rank);
	leader = node_rank == 0;
	/* One leader per node, so counting leaders counts nodes. */
	node_rank = leader;
	MPI_Allreduce(&node_rank, &nodes, 1, MPI_INT, MPI_SUM,
		      MPI_COMM_WORLD);
	map_hosts(node);
	MPI_Comm_free(&node);
	active = true;
}

void par_finalize(void)
{
	if (active)
		MPI_Finalize();
	active = false;
}

bool par_active(void)
{
	return active;
}

int par_rank(void)
{
	return rank;
}

int par_size(void)
{
	return size;
}

bool par_node_leader(void)
{
	return leader;
}

void par_barrier(void)
{
	if (active)
		MPI_Barrier(MPI_COMM_WORLD);
}

int par_agree(bool ok, const char *reason, char *why, size_t whylen)
{
	struct par_share mine, *all = NULL;
	int bad;

	if (!active) {
		if (!ok && why)
			snprintf(why, whylen, "%s", reason ? reason : "");
		return ok ? -1 : 0;
	}
	memset(&mine, 0, sizeof(mine));
	mine.failed = !ok;
	if (!ok && reason)
		snprintf(mine.error, sizeof(mine.error), "%s", reason);
	if (rank == 0)
		all = xcalloc((size_t)size, sizeof(*all));
	bad = par_gather(&mine, all);
	if (rank == 0 && bad >= 0 && why)
		snprintf(why, whylen, "%s", all[bad].error);
	free(all);
	return bad;
}

int par_gather(const struct par_share *mine, struct par_share *all)
{
	int bad = -1;

	if (!active) {
		if (all)
			all[0] = *mine;
		return mine->failed ? 0 : -1;
	}
	/* The struct is plain data, so bytes are the simplest datatype. */
	MPI_Gather(mine, (int)sizeof(*mine), MPI_BYTE, all,
		   (int)sizeof(*mine), MPI_BYTE, 0, MPI_COMM_WORLD);
	if (rank == 0)
		for (int i = 0; i < size && bad < 0; i++)
			if (all[i].failed)
				bad = i;
	MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return bad;
}

static unsigned char *gather_alone(const void *mine, size_t len,
				    size_t *lens)
{
	unsigned char *all = xmalloc(len ? len : 1);

	if (len)
		memcpy(all, mine, len);
	lens[0] = len;
	return all;
}

unsigned char *par_gather_bytes(const void *mine, size_t len, size_t *lens)
{
	int n = (int)len, *counts = NULL, *displs = NULL;
	unsigned char *all = NULL;
	size_t total = 0;

	if (!active)
		return gather_alone(mine, len, lens);
	if (len > INT32_MAX)
		die("%zu bytes are too many to gather over MPI", len);
	if (rank == 0) {
		counts = xcalloc((size_t)size, sizeof(*counts));
		displs = xcalloc((size_t)size, sizeof(*displs));
	}
	MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		for (int r = 0; r < size; r++) {
			if (total + (size_t)counts[r] > INT32_MAX)
				die("too many bytes to gather over MPI");
			displs[r] = (int)total;
			lens[r] = (size_t)counts[r];
			total += (size_t)counts[r];
		}
		all = xmalloc(total ? total : 1);
	}
	MPI_Gatherv(mine, n, MPI_BYTE, all, counts, displs, MPI_BYTE, 0,
		    MPI_COMM_WORLD);
	free(counts);
	free(displs);
	return all;
}

void par_allreduce_u64(uint64_t *v, size_t n, enum par_op op)
{
	static const MPI_Op ops[] = { [PAR_MAX] = MPI_MAX,
				      [PAR_MIN] = MPI_MIN,
				      [PAR_SUM] = MPI_SUM };

	if (!active || !n)
		return;
	MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, ops[op],
		      MPI_COMM_WORLD);
}

void par_allgather_u64(const uint64_t *mine, size_t n, uint64_t *all)
{
	if (!active) {
		memcpy(all, mine, n * sizeof(*mine));
		return;
	}
	MPI_Allgather(mine, (int)n, MPI_UINT64_T, all, (int)n, MPI_UINT64_T,
		      MPI_COMM_WORLD);
}

int par_nodes(void)
{
	return nodes;
}

#else /* !HAVE_MPI */

bool par_built(void)
{
	return false;
}

void par_init(int *argc, char ***argv)
{
	int n = par_launcher_size(getenv);

	(void)argc;
	(void)argv;
	/*
	 * Each rank would run the whole job alone and store it: N runs
	 * that each look like the job's result.  Refuse before any work.
	 */
	if (n > 1) {
		error("started by mpirun as one of %d ranks, but this fslab "
		      "was built without MPI (fslab --version: mpi: no), so "
		      "every rank would run the whole job alone: install "
		      "Open MPI's development package (apt-get install "
		      "libopenmpi-dev) and rebuild fslab (make clean && make), "
		      "or run it without mpirun", n);
		exit(EXIT_USAGE);
	}
	if (n == 1 && !getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMI_SIZE") &&
	    !getenv("PMIX_SIZE"))
		warning("started by mpirun, but this fslab was built without "
			"MPI: if there are other ranks, each runs alone");
}

void par_finalize(void)
{
}

bool par_active(void)
{
	return false;
}

int par_rank(void)
{
	return 0;
}

int par_size(void)
{
	return 1;
}

bool par_node_leader(void)
{
	return true;
}

void par_barrier(void)
{
}

int par_agree(bool ok, const char *reason, char *why, size_t whylen)
{
	if (!ok && why)
		snprintf(why, whylen, "%s", reason ? reason : "");
	return ok ? -1 : 0;
}

int par_gather(const struct par_share *mine, struct par_share *all)
{
	if (all)
		all[0] = *mine;
	return mine->failed ? 0 : -1;
}

unsigned char *par_gather_bytes(const void *mine, size_t len, size_t *lens)
{
	unsigned char *all = xmalloc(len ? len : 1);

	if (len)
		memcpy(all, mine, len);
	lens[0] = len;
	return all;
}

void par_allreduce_u64(uint64_t *v, size_t n, enum par_op op)
{
	(void)v;
	(void)n;
	(void)op;
}

void par_allgather_u64(const uint64_t *mine, size_t n, uint64_t *all)
{
	memcpy(all, mine, n * sizeof(*mine));
}

int par_nodes(void)
{
	return 1;
}

#endif
