/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the files of the metadata workload share: the run
 * and worker state (metadata.c drives the phases, worker.c is one
 * thread's share of a phase, report.c renders stored phases).
 */
#ifndef FSLAB_WORKLOADS_METADATA_INTERNAL_H
#define FSLAB_WORKLOADS_METADATA_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/lathist.h"
#include "util/verify.h"
#include "phase/workload.h"
#include "workloads/metadata/metadata.h"

/* Largest total file count: the name keeps it in ten digits. */
#define MD_MAX_TOTAL 1000000000LL
#define MD_MAX_SIZE (1ULL << 30)
#define MD_WBUF_MAX ((size_t)1 << 20)
#define MD_RBUF 65536

enum md_kind { MD_MKDIR, MD_CREATE, MD_STAT, MD_READ, MD_UNLINK, MD_RMDIR,
	       MD_NR_KINDS };

struct md_run {
	struct wl_ctx *ctx;
	const struct md_opts *o;
	uint64_t seed;
	int nthreads;
	uint64_t files;         /* per thread, as planned */
	uint64_t ndirs;         /* subdirectories of each top directory */
	int ntops;              /* top directories: one per thread, or 1 */
	/*
	 * Ranks: with shared every rank works in one tree under
	 * ctx->shared_dir and its threads are numbered rank * nthreads + t
	 * there (names and directory shares stay unique); without, each rank
	 * has its own tree in ctx->dir and threads are numbered t.
	 */
	int rank, nranks;
	int peer;               /* whose files stat and read visit */
	uint64_t *counts;       /* files made, [rank * nthreads + t] */
	uint64_t disk_min, disk_max; /* per-rank files found by readdir */
	bool have_disk;
	struct phase *ph;       /* the phase running, for the stonewall */
	bool final_round;       /* create: no wear-out round follows */
	bool wearing_out;       /* create: past the stonewall */
	bool verify;            /* --verify: util/verify.h data */
	/* the start gate: threads get ready, then start together */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int ready;
	bool go;
	atomic_bool abort;      /* a thread failed: the others stop too */
	atomic_int done;        /* threads through their creates (batch) */
};

struct md_worker {
	struct md_run *r;
	enum md_kind kind;
	int idx;
	int owner;                      /* rank whose files these are */
	int topfd;
	uint32_t *order;
	uint64_t from, n;               /* visit order[from..n) */
	char *buf;
	size_t bufsize;
	uint64_t start_ns, end_ns;      /* CLOCK_REALTIME */
	uint64_t files, bytes, ops;
	uint64_t missing, wrong_size;
	uint64_t sync_ns;               /* batch: the syncfs, if ours */
	struct md_ring *ring;           /* sync=uring create: uring.c */
	struct lathist lat;
	int err;                        /* errno of the first failure */
	bool bad_data;                  /* --verify mismatch, in bad */
	struct verify_bad bad;
	const char *what;
	char path[64];
};

/* worker.c: one thread's share of a phase */
void md_top_name(const struct md_run *r, int t, char *buf, size_t len);
int md_worker_top(const struct md_worker *w);
uint64_t md_global_thread(const struct md_run *r, int owner, int t);
char *md_tops_base(const struct md_run *r, int owner);
int md_prepare_worker(struct md_run *r, struct md_worker *w, int i,
		      enum md_kind kind);
void md_release_workers(struct md_worker *w, int n);
void *md_worker_main(void *arg);

/* uring.c: sync=uring's batches of fsyncs */
struct md_ring;
struct md_ring_err {
	int err;                /* errno of the first failure, or 0 */
	const char *what;
	uint64_t key;           /* md_ring_hold's key of its file */
};
/* A ring for batches of up to batch files; 0, or -1 with the cause
 * (no io_uring, kernel.io_uring_disabled, ...) printed. */
int md_ring_open(struct md_ring **out, unsigned batch);
/* Closes the files still held (after a failure) and the ring. */
void md_ring_close(struct md_ring *q);
/* Hold fd, opened at t0 (now_ns); true when the batch is now full. */
bool md_ring_hold(struct md_ring *q, int fd, uint64_t t0, uint64_t key);
unsigned md_ring_held(const struct md_ring *q);
/*
 * fsync every held file through the ring, wait for every completion and
 * close the files; each file whose fsync succeeded goes into lat, from
 * its t0 to its completion.  0, or -1 with the first failure in e.
 */
int md_ring_flush(struct md_ring *q, struct lathist *lat,
		  struct md_ring_err *e);

/* report.c */
void md_report(FILE *out, const struct run_rec *run,
	       const struct wlrun_rec *wr);

/* metadata.c */
extern const struct opt md_opt_table[];
extern const struct opt_enum md_names_values[], md_sync_values[];
/* The name of an enum option's value. */
const char *md_enum_name(const struct opt_enum *v, int value);

#endif
