/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - the distribute workload's run state, shared by its
 * pipeline threads (pipeline.c), directories (fsutil.c), phases
 * (distribute.c) and verification (verify.c).
 */
#ifndef FSLAB_DISTRIBUTE_INTERNAL_H
#define FSLAB_DISTRIBUTE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "stats/lathist.h"
#include "util/util.h"
#include "workloads/distribute/distribute.h"
#include "workloads/registry.h"

#define NS 1000000000ULL
#define MIB (1024.0 * 1024.0)
#define IOBUF (64 * 1024)
#define TOPDIR "distribute"

/* ---- the run ---- */

struct dist_item {
	unsigned src;
	uint64_t seq, size, pub_ns;
};

/* One outgoing directory: a scanner pass for one destination. */
struct dist_job {
	struct dist_job *next;
	uint64_t pass;
	size_t nr;
	struct dist_item items[];
};

struct dist_queue {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	struct dist_job *head, *tail;
	bool closed;           /* the scanner is done */
};

struct dist_run;

struct dist_inst {
	struct dist_run *r;
	unsigned idx;
	int dir_fd, pool_fd, out_fd;
	int *src_fd, *dst_fd;
	/* publication, under mu: the scanner waits on cond */
	pthread_mutex_t mu;
	pthread_cond_t cond;
	uint64_t *cap;          /* per source: slots in pub_ns */
	/* per source, per seq: publish time; read by the scanner */
	_Atomic uint64_t **pub_ns;
	uint64_t *produced;     /* per source */
	uint64_t published, scanned;
	unsigned producers_left;
	struct dist_queue *q;   /* per destination */
	uint64_t pass;
};

enum dist_role { ROLE_DELIVER, ROLE_SCAN, ROLE_PRODUCE };

struct dist_thread {
	struct dist_run *r;
	struct dist_inst *in;
	enum dist_role role;
	unsigned src, dest;     /* producer's source, deliverer's dest */
	int worker;             /* phase_worker() index */
	pthread_t th;
	bool started;
	uint64_t start_rt, end_rt, bytes, files, ops;
	/* deliverers: realtime of the first delivery's start, the last's end */
	uint64_t first_rt, last_rt;
	struct lathist *hist;   /* deliverers */
	char *buf;
};

struct dist_run {
	struct wl_ctx *ctx;
	const struct dist_opts *o;
	unsigned ninst, nsrc, fanout;
	uint64_t min_size, max_size, seed;
	bool burst;
	uint64_t release_ns;    /* monotonic: latency origin in burst mode */
	uint64_t prod_start_ns, prod_end_ns; /* rate mode schedule */
	struct dist_inst *inst;
	struct dist_thread *th;
	size_t nr_th;
	/* counters for the interval sampler, over all instances */
	_Atomic uint64_t c_published, c_scanned, c_pool, c_out, c_delivered;
	atomic_bool stop;
	/* thread exits and the first error, under mu */
	pthread_mutex_t mu;
	pthread_cond_t cond;
	unsigned running;
	char *err;
	char buf[IOBUF];        /* file contents */
	bool verify;            /* --verify: util/verify.h data */
};

/* pipeline.c: the producer, scanner and deliverer threads */
void dist_request_stop(struct dist_run *r);
uint64_t dist_vid(unsigned inst, const char *name, char *rel, size_t len);
int dist_start_threads(struct dist_run *r, unsigned roles);
void dist_join_threads(struct dist_run *r);
void dist_drain_queues(struct dist_run *r);

/* fsutil.c: the directory tree */
int dist_rmtree_at(int dfd, const char *name);
int dist_setup_dirs(struct dist_run *r);
void dist_close_fd(int *fd);

/* verify.c: phase `verify` */
int dist_verify_phase(struct dist_run *r, bool drained);

/* report.c: the report from the stored phases */
struct run_rec;
struct wlrun_rec;
void dist_report(FILE *out, const struct run_rec *run,
		 const struct wlrun_rec *wr);

#endif
