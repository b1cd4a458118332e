/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * par.h - running one fslab per MPI rank on a shared filesystem.
 *
 * MPI is an optional build feature (Open MPI, found with pkg-config); a
 * build without it, or a process not started by mpirun, is a world of
 * one rank and every call here is a cheap no-op.  Under mpirun every
 * phase is collective: ranks meet at a barrier before and after it, and
 * rank 0 gathers each rank's start, end and work to store the aggregate
 * the IOR way (global time = latest end - earliest start).
 *
 * Contract for code above this layer: every rank makes the same sequence
 * of collective calls (phase_begin/phase_end, par_agree), so a rank that
 * fails must still take part and report its failure through them.
 */
#ifndef FSLAB_PAR_H
#define FSLAB_PAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/result.h"

/* True when fslab was built with MPI. */
bool par_built(void);
/*
 * The number of ranks a launcher (mpirun, mpiexec, srun) says this
 * process is one of, from its environment (get is getenv): 0 when none
 * started it.  A launcher that names only the rank gives rank + 1, a
 * lower bound.  Pure given get; both builds have it.
 */
int par_launcher_size(char *(*get)(const char *));
/* Initialise MPI when started by mpirun (else nothing).  Never fails:
 * on an MPI error it prints and exits.  Built without MPI and started as
 * one of several ranks, it exits with EXIT_USAGE, naming the package to
 * install, before any work. */
void par_init(int *argc, char ***argv);
void par_finalize(void);
/* True under mpirun (even with one rank). */
bool par_active(void);
int par_rank(void);
int par_size(void);
/* True on the lowest rank of each node (it drops that node's caches). */
bool par_node_leader(void);
void par_barrier(void);

/*
 * Every rank passes ok (and, when !ok, a one-line reason).  Returns the
 * lowest failing rank, or -1 when all are ok; on rank 0 the failing
 * rank's reason is copied to why.  Collective.
 */
int par_agree(bool ok, const char *reason, char *why, size_t whylen);

/* One rank's share of a phase, as gathered by rank 0. */
struct par_share {
	uint64_t start_ns, end_ns;   /* CLOCK_REALTIME */
	uint64_t bytes, files, ops;
	int failed;
	char error[200];
};

/*
 * Gather every rank's share on rank 0 (all[size] there, unused elsewhere).
 * Returns the lowest failing rank or -1, on every rank.  Collective.
 */
int par_gather(const struct par_share *mine, struct par_share *all);

/*
 * Gather every rank's len bytes at mine on rank 0: there a new buffer
 * of them all, rank after rank, with lens[r] rank r's length (lens has
 * size entries); NULL elsewhere.  Alone: a copy of mine.  Collective.
 */
unsigned char *par_gather_bytes(const void *mine, size_t len, size_t *lens);

/* How the values of all ranks combine in par_allreduce_u64(). */
enum par_op { PAR_MAX, PAR_MIN, PAR_SUM };

/*
 * Combine v[0..n) element-wise over all ranks, in place, on every rank
 * (MPI_Allreduce).  Alone, v is left as it is.  Collective.
 */
void par_allreduce_u64(uint64_t *v, size_t n, enum par_op op);
/*
 * Every rank's mine[0..n) into all[rank * n + i] on every rank
 * (MPI_Allgather); all holds size * n values.  Collective.
 */
void par_allgather_u64(const uint64_t *mine, size_t n, uint64_t *all);
/* Number of nodes (shared-memory domains) the ranks run on; 1 alone. */
int par_nodes(void);

/*
 * Where each rank runs: its host name (MPI_Get_processor_name, the
 * node's hostname) and its node's index, nodes numbered 0.. in the
 * order of their lowest rank.  Alone: this machine's name, node 0.
 * rank out of range gives "?" and -1.
 */
const char *par_host(int rank);
int par_node_of(int rank);

/*
 * How many ranks read files made on their own node with reorder=k
 * (0 when every peer is on another node, size alone), and the smallest
 * shift 1..size-1 for which that is 0 (0 when there is none, e.g. on
 * one node).
 */
int par_same_node_peers(long long k);
/* The same for a given placement: node[r] is rank r's node.  Pure. */
int par_same_node_peers_of(const int *node, int n, long long k);
int par_cross_node_shift_of(const int *node, int n);

/*
 * With ranks on several nodes, one line to out on where reorder=k's
 * peers are: every one on another host, or how many share their host
 * and the shift that would not (prefix: the workload's name).  Nothing
 * on one node (the workloads say so themselves).
 */
void par_reorder_note(FILE *out, const char *prefix, long long k);

/*
 * The rank whose files rank reads with reorder=k: (rank + k) mod size,
 * for any k (negative too), IOR's -C/-Q shift.  Pure.
 */
int par_peer(int rank, long long k, int size);

#endif
