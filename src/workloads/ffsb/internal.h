/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the files of the ffsb workload share: the file sets
 * the threads draw from and the run's state.  ffsb.c sets up, runs and
 * records; ops.c is the file table and one operation of a thread;
 * report.c renders stored phases; profile.c parses FFSB's profiles.
 */
#ifndef FSLAB_WORKLOADS_FFSB_INTERNAL_H
#define FSLAB_WORKLOADS_FFSB_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/lathist.h"
#include "util/pyrand.h"
#include "phase/workload.h"
#include "workloads/ffsb/profile.h"

struct slot {
	uint64_t size;
	int64_t live_pos;   /* index in live[], -1 when not live */
	uint32_t busy;
};

struct fset {
	const struct ffsb_fs *fs;
	char *dir;          /* rewritten location */
	char *rel;          /* its data/ relative to ctx->dir (--verify ids) */
	int data_fd, meta_fd;
	pthread_mutex_t lock;
	struct slot *slots;
	size_t nr_slots, alloc_slots;
	uint32_t *live;
	size_t nr_live, alloc_live;
	uint32_t *freed;
	size_t nr_freed, alloc_freed;
	uint64_t next_dir, next_meta;
};

struct ffsb_run;

struct worker {
	struct ffsb_run *run;
	const struct ffsb_tg *tg;
	int index;
	pthread_t thread;
	bool started;
	struct pyrand rng;
	char *buf;
	size_t bufsize;
	uint64_t trans[FFSB_OP_NR], calls[FFSB_OP_NR], bytes[FFSB_OP_NR];
	uint64_t rbytes, wbytes, fsyncs, created, deleted;
	struct lathist *lat;            /* FFSB_OP_NR of them */
	uint64_t start_rt, end_rt;
	bool failed;
	char errmsg[512];
};

struct ffsb_run {
	struct wl_ctx *ctx;
	struct phase *ph;                /* the timed run's, while it runs */
	struct ffsb_profile p;
	unsigned time_s;
	uint64_t seed;
	struct fset *sets;
	size_t nr_sets;
	struct worker *w;
	size_t nr_w;
	uint64_t deadline;
	atomic_bool stop;
	atomic_uint done;               /* workers that have finished */
	bool stopped_full;              /* the fullness bound ended the run */
	double fullness_pct;            /* of the target when it ended */
	int oflags;                     /* O_DIRECT or 0 */
	bool verify;                    /* --verify: util/verify.h data */
};

/* ops.c */
void ffsb_slot_name(const struct fset *s, uint32_t id, char *buf,
		      size_t len);
uint32_t ffsb_slot_new(struct fset *s);
void ffsb_slot_publish(struct fset *s, uint32_t id, uint64_t size);
uint64_t ffsb_file_vid(const struct fset *s, const char *name);
void *ffsb_worker_main(void *arg);

/* The timed run stops cleanly when the target is this full (percent of
 * its blocks in use, as df counts them): a time-based run that writes
 * must not end in ENOSPC on a machine fast enough to fill the target. */
#define FFSB_FULLNESS_BOUND_PCT 90.0

/* ffsb.c */
void ffsb_metric_name(char *buf, size_t len, enum ffsb_op op,
			const char *what);

/* report.c */
void ffsb_report(FILE *out, const struct run_rec *run,
		 const struct wlrun_rec *wr);
void ffsb_report_compare(FILE *out, const struct cmp_group *groups,
			 size_t nr_groups);

#endif
