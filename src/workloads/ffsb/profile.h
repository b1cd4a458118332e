/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ffsb_profile.h - FFSB (the Flexible Filesystem Benchmark) profiles and
 * the pure rules of its accounting.
 *
 * The parser reads both the 5.x syntax ([filesystem0] ... [end0],
 * key=value, fsync_file) and the 6.0 one ([filesystem] ... [end], nested
 * sections, "key = value", size_weight lists), and refuses what FFSB
 * would have silently read as zero: an unknown key, a bad size suffix, a
 * threadgroup without a weighted operation.  Every error names file:line.
 *
 * The rest is what ffsb.c must agree on with the unit tests: how many
 * transactions an operation counts, and which operation and file size a
 * seeded generator draws next.  No I/O here beyond reading the file.
 */
#ifndef FSLAB_FFSB_PROFILE_H
#define FSLAB_FFSB_PROFILE_H

/* Ceilings on what a profile may ask for (summed over its sections). */
#define FFSB_MAX_THREADS 1024
#define FFSB_MAX_FILES 10000000ULL
#define FFSB_MAX_DIRS 1000000ULL

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/pyrand.h"

/* The operations, in FFSB's own table order (its report order). */
enum ffsb_op {
	FFSB_OP_READ,
	FFSB_OP_READALL,
	FFSB_OP_WRITE,
	FFSB_OP_CREATE,
	FFSB_OP_APPEND,
	FFSB_OP_DELETE,
	FFSB_OP_METAOP,
	FFSB_OP_CREATEDIR,
	FFSB_OP_STAT,
	FFSB_OP_WRITEALL,
	FFSB_OP_WRITEALL_FSYNC,
	FFSB_OP_OPEN_CLOSE,
	FFSB_OP_WRITE_FSYNC,
	FFSB_OP_CREATE_FSYNC,
	FFSB_OP_APPEND_FSYNC,
	FFSB_OP_NR
};

/* "read", "write_fsync", ...: the weight key without "_weight". */
const char *ffsb_op_name(enum ffsb_op op);
/* FFSB_OP_NR when name is not an operation. */
enum ffsb_op ffsb_op_from_name(const char *name);
/* Reads or writes data in blocks (vs one call: delete, stat, ...). */
bool ffsb_op_is_data(enum ffsb_op op);
/* Calls fsync() before close. */
bool ffsb_op_fsyncs(enum ffsb_op op);
/* Works on an existing file (so needs a live one). */
bool ffsb_op_needs_file(enum ffsb_op op);

struct ffsb_size_weight {
	uint64_t size;
	unsigned weight;
};

struct ffsb_tg;

struct ffsb_fs {
	int line;                 /* of its section header */
	char *location;           /* as written; fslab rewrites it */
	uint64_t num_files, num_dirs;
	uint64_t min_filesize, max_filesize;
	struct ffsb_size_weight *sw;  /* size_weight lines, in order */
	size_t nr_sw, alloc_sw;
	uint64_t create_blocksize;    /* setup's write size (4k) */
	bool reuse;
	/* aging and initial-size keys */
	bool agefs;
	double desired_util, init_util;
	uint64_t init_size, age_blocksize;
	char *clone;
	int nr_age_tgs;           /* nested [threadgroup]s (aging only) */
};

struct ffsb_tg {
	int line;                 /* of its section header */
	unsigned num_threads;
	unsigned weight[FFSB_OP_NR];
	uint64_t read_size, read_blocksize, read_skipsize;
	uint64_t write_size, write_blocksize;
	bool read_random, write_random, read_skip;
	unsigned op_delay;        /* ms between ops */
	char *bindfs;             /* a filesystem's location, or NULL */
};

struct ffsb_profile {
	char *file;               /* for messages */
	unsigned time;            /* seconds */
	int time_line;            /* 0 when the profile has no time */
	bool directio, alignio, bufferio, verbose;
	struct ffsb_fs *fs;
	size_t nr_fs, alloc_fs;
	struct ffsb_tg *tg;
	size_t nr_tg, alloc_tg;
	/* "file:line: ..." lines worth telling the user (fsync_file) */
	char **notices;
	size_t nr_notices, alloc_notices;
};

/*
 * Parse profile text; name is used in messages ("name:line: ...").
 * Returns 0, or -1 with "name:line: reason" in err (p is released).
 * Parsing also validates: weights, block sizes, file sizes, bindfs.
 */
int ffsb_profile_parse(const char *text, const char *name,
		       struct ffsb_profile *p, char *err, size_t errlen);
/* Read path and parse it. */
int ffsb_profile_load(const char *path, struct ffsb_profile *p, char *err,
		      size_t errlen);
void ffsb_profile_release(struct ffsb_profile *p);

/* Sum of a threadgroup's weights. */
unsigned ffsb_tg_total_weight(const struct ffsb_tg *tg);
/* Smallest file size a filesystem's creates can produce. */
uint64_t ffsb_fs_min_size(const struct ffsb_fs *fs);

/*
 * Transactions one operation counts, as FFSB counts them: one per read()
 * or write() of the block size for data ops, one per call otherwise.
 * size is the bytes the op moves (read_size/write_size, or the file's
 * size for create/readall/writeall); a partial last block is a write
 * of its own for writes (so create and append count ceil(size/bs)) but
 * is not counted for reads (readall counts floor(size/bs)).
 */
uint64_t ffsb_transactions(enum ffsb_op op, uint64_t size, uint64_t bs,
			   bool random);

/*
 * The pure draws of a thread: which op next (weighted) and, for creates,
 * which size.  FFSB draws from its own generator and has no seed; fslab
 * seeds one pyrand per thread so the sequences repeat.
 */
enum ffsb_op ffsb_choose_op(const struct ffsb_tg *tg, struct pyrand *r);
uint64_t ffsb_choose_size(const struct ffsb_fs *fs, struct pyrand *r);
/* Seed of thread `thread` from the run seed (splitmix64 of both). */
uint64_t ffsb_thread_seed(uint64_t seed, unsigned thread);

/* The mean size a create draws (ffsb_choose_size's expectation). */
double ffsb_fs_mean_size(const struct ffsb_fs *fs);

/*
 * The pre-flight's arithmetic (doc/ffsb.md "Bounded by the target's free
 * space").  How fast, at most, the timed run can grow the file set, in
 * bytes/s: per thread group, what an op adds on average (its creates of
 * the mean size and appends of write_size, less its deletes of the mean
 * size) over the least time an op takes when only creates and appends
 * cost anything, t_create_s and t_append_s each as a probe on the target
 * measured them (and op_delay), times its threads.  An upper bound: the
 * other ops take time too.  0 when the profile does not grow.
 */
double ffsb_growth_bound(const struct ffsb_profile *p, double t_create_s,
			 double t_append_s);
/*
 * Seconds until a file set growing at rate bytes/s fills room bytes;
 * INFINITY when it does not grow.  The run can reach the fullness bound
 * when this is less than its time.
 */
double ffsb_fill_seconds(double rate, double room);

/* The built-in profile (the FLEX_BG mail's, see doc/ffsb.md). */
extern const char ffsb_builtin_profile[];

#endif
