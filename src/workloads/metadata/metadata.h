/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * metadata.h - the pure parts of the metadata workload (file names,
 * file-to-directory spreading, option checks), exposed for
 * tests/unit/test_metadata.c.  The workload itself is wl_metadata.
 */
#ifndef FSLAB_WORKLOADS_METADATA_H
#define FSLAB_WORKLOADS_METADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum md_names { MD_NAMES_SEQ, MD_NAMES_RANDOM };
enum md_sync { MD_SYNC_NONE, MD_SYNC_FSYNC, MD_SYNC_FSYNC_DIR,
	       MD_SYNC_BATCH, MD_SYNC_URING };

/* sync=uring: files held open per batch of fsyncs (the default, bounds) */
#define MD_BATCH_DEF 32
#define MD_BATCH_MAX 4096

struct md_opts {
	long long files;    /* per thread */
	uint64_t size;      /* bytes written per file */
	long long dirs;     /* per thread, or in all with shared */
	long long threads;
	bool shared;
	int names;          /* enum md_names */
	int sync;           /* enum md_sync */
	bool cold;
	long long seed;     /* 0: the run's --seed */
	double stonewall;   /* create stops after this many seconds; 0: no */
	bool wearout;       /* then every thread goes on to the largest count */
	long long reorder;  /* stat/read the files of rank + reorder */
	long long batch;    /* sync=uring: fsyncs submitted together */
};

/* Bytes of a file name, NUL included. */
#define MD_NAME_LEN 21

/*
 * The name of file number num (unique over all threads): ten digits of
 * num and ten characters of [0-9A-Za-z] drawn from (seed, num).  seq puts
 * the number first, so names sort in creation order; random puts the
 * random characters first, so they do not (bonnie++'s two flavours).
 */
void md_name(char buf[MD_NAME_LEN], enum md_names names, uint64_t seed,
	     uint64_t num);
/* The directory (0..dirs-1) of a thread's file k of files. */
uint64_t md_file_dir(uint64_t k, uint64_t files, uint64_t dirs);
/* A seeded shuffle of 0..n-1 into order (the random access order). */
void md_order(uint32_t *order, size_t n, bool shuffle, uint64_t seed);
/*
 * The visiting order of a phase after a create that made only the first
 * count of its files (stonewall): those files, the create's order[0..count)
 * (seeded with create_seed), visited in the phase's own order (seed).
 * With count == files it is md_order(order, files, shuffle, seed).
 */
void md_visit_order(uint32_t *order, size_t count, size_t files,
		    bool shuffle, uint64_t create_seed, uint64_t seed);
/* The file number in a name made by md_name(), or UINT64_MAX if it is
 * not such a name. */
uint64_t md_name_num(const char *name, enum md_names names);
/*
 * sync=uring: the file descriptors a rank's create holds at once (each
 * thread's batch and its directory), plus room for everything else.
 */
uint64_t md_uring_fds(long long threads, long long batch);
/*
 * Why io_uring_queue_init failed with -err, into buf: err and the
 * value of /proc/sys/kernel/io_uring_disabled (-1 when it is not
 * there) name the cause as well as the kernel lets us tell.
 */
void md_uring_cause(char *buf, size_t len, int err, int disabled);

#endif
