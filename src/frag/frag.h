/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frag.h - the fragmentation and layout survey of a whole tree: the
 * filefrag-compatible run count of every regular file, the size
 * histogram of the getdents mail, Smith & Seltzer's layout score, the
 * worst files and readdir-order locality.  Aggregation is streaming
 * (memory does not grow with the tree), so any workload or the aging
 * step can call frag_survey() on a tree of any size.
 */
#ifndef FSLAB_FRAG_H
#define FSLAB_FRAG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frag/fiemap.h"
#include "measure/result.h"

#define FRAG_JSON_FORMAT_VERSION 1
#define FRAG_MAX_BINS 64
/* Runs-per-file buckets: 0, 1, 2, 3-4, 5-8, ... 513-1024, 1025+. */
#define FRAG_RUN_BUCKETS 13
#define FRAG_DEFAULT_WORST 10

/* Size bins as lower edges in bytes; edge[0] is 0, the last is open. */
struct frag_bins {
	size_t nr;
	uint64_t edge[FRAG_MAX_BINS];
};

void frag_bins_default(struct frag_bins *b);
/* "0,4k,1M": increasing sizes with suffixes; 0 is prepended if absent.
 * 0, or -1 with a one-line reason in err. */
int frag_bins_parse(const char *s, struct frag_bins *b, char *err,
		    size_t errlen);
size_t frag_bin_of(const struct frag_bins *b, uint64_t size);
/* "B", "K", "M" or "G": the unit a bin is shown in (by its lower edge). */
const char *frag_bin_group(const struct frag_bins *b, size_t i);
/* "[100,200)" in the group's unit; "[100,inf)" for the last. */
void frag_bin_label(const struct frag_bins *b, size_t i, char *buf,
		    size_t len);
size_t frag_run_bucket(uint64_t runs);
/* "0", "1", "2", "3-4", ... "1025+" */
void frag_run_bucket_label(size_t i, char *buf, size_t len);

/* One file's extents, folded one at a time (see frag_file_add). */
struct frag_file {
	uint64_t blksize;
	uint64_t extents;       /* as FIEMAP returned them */
	uint64_t runs;          /* physically separate runs, filefrag's rule */
	uint64_t blocks;        /* blocks with a known place on disk */
	uint64_t follow_blocks; /* of those, directly after their predecessor */
	uint64_t first_phys, end_phys;
	bool have_phys;
	uint32_t flags;         /* OR of every extent's flags */
	struct frag_extent last;
	bool have_last;
};

void frag_file_init(struct frag_file *f, uint64_t blksize);
void frag_file_add(struct frag_file *f, const struct frag_extent *e);
/* fiemap_fn adapter: arg is a struct frag_file. */
void frag_file_add_cb(void *arg, const struct frag_extent *e);

struct frag_worst {
	char *path;
	uint64_t runs, extents, size;
};

struct frag_opts {
	bool sync;              /* FIEMAP_FLAG_SYNC (default true) */
	bool xdev;              /* stay on each path's filesystem (true) */
	int jobs;               /* worker threads; 0 = number of CPUs */
	size_t worst;           /* worst files kept; 0 = none */
	const struct frag_bins *bins; /* NULL = the default bins */
	unsigned batch;         /* extents per FIEMAP call; 0 = default */
	bool uring;             /* batch opens/closes via io_uring (true) */
	FILE *list;             /* "path runs extents size" per file, or NULL */
	bool progress;          /* files scanned and files/s on stderr */
};

void frag_opts_default(struct frag_opts *o);

struct frag_result {
	struct frag_bins bins;
	uint64_t bin_files[FRAG_MAX_BINS], bin_frag[FRAG_MAX_BINS];
	uint64_t bin_bytes[FRAG_MAX_BINS];
	uint64_t files, bytes;          /* regular files scanned, st_size sum */
	uint64_t frag_files, frag_bytes, files_3plus;
	uint64_t extents, runs;
	uint64_t run_hist[FRAG_RUN_BUCKETS];
	uint64_t layout_files, layout_blocks, layout_follow;
	uint64_t dirs;
	uint64_t loc_pairs, loc_adjacent, loc_dirs;
	double loc_gap_sum, loc_dir_mean_sum;
	/* Files with at least one extent so flagged. */
	uint64_t f_inline, f_delalloc, f_unknown, f_encoded, f_unwritten;
	uint64_t f_shared;
	/* Not scanned, or scanned without a map. */
	uint64_t unreadable, vanished, errors, nomap, mounts_skipped;
	uint64_t special;
	bool io_uring;                  /* opens went through io_uring */
	size_t worst_cap, nr_worst;
	struct frag_worst *worst;       /* heap while running; sorted after */
	double elapsed_s;
};

void frag_result_init(struct frag_result *r, const struct frag_bins *b,
		      size_t worst_cap);
void frag_result_release(struct frag_result *r);
/* Count one scanned file; path is needed only if it enters the worst
 * list, so it comes from a callback that builds it on demand. */
void frag_result_add(struct frag_result *r, const struct frag_file *f,
		     uint64_t size, char *(*path)(void *), void *arg);
void frag_result_merge(struct frag_result *dst, struct frag_result *src);
/* Sort the worst list, worst first (done by frag_survey). */
void frag_result_finish(struct frag_result *r);
/* Blocks after their predecessor / blocks after the first, over files
 * of two or more blocks; 1.0 when there are none. */
double frag_layout_score(const struct frag_result *r);

/*
 * Survey paths (directories or regular files).  Unreadable and vanished
 * files are counted and the survey goes on.  Returns 0, -1 on a runtime
 * failure, -2 when a path does not exist (message printed).
 */
int frag_survey(const char *const *paths, size_t n,
		const struct frag_opts *o, struct frag_result *r);

/*
 * Free-space fragmentation, where the filesystem's own tools tell it:
 * ext4 (e2freefrag, per-group figures from /proc/fs/ext4/DEV/mb_groups)
 * and xfs (xfs_db freesp -s, per AG).  Per group the figure is
 * 100 * (1 - largest free extent / free space): 0 when all free space
 * of the group is one extent.
 */
#define FRAG_FREESP_BINS 48
struct frag_freesp {
	bool available;
	char why[128];          /* when not available */
	char tool[16];          /* "e2freefrag", "xfs_db" */
	char *device, *fstype;
	uint64_t blksize, free_bytes, free_extents, max_extent;
	size_t nr_bins;
	struct {
		uint64_t lo, hi; /* bytes, [lo, hi) */
		uint64_t extents, bytes;
	} bins[FRAG_FREESP_BINS];
	size_t groups;
	double grp_mean, grp_p50, grp_p95, grp_max;
};

/* Probe path: only the root of a mounted block-device filesystem, as
 * root; otherwise available is false with the reason in why. */
void frag_freesp_probe(const char *path, struct frag_freesp *fs);
void frag_freesp_release(struct frag_freesp *fs);
/* Parsers of the tools' output, 0 or -1 (unit-tested). */
int frag_parse_e2freefrag(const char *text, struct frag_freesp *fs);
int frag_parse_xfs_freesp(const char *text, uint64_t blksize,
			  struct frag_freesp *fs);
/* Per-group fragmentation % into *pct (allocated), *n groups. */
int frag_parse_mb_groups(const char *text, double **pct, size_t *n);
int frag_parse_xfs_ag_freesp(const char *text, double **pct, size_t *n);
/* mean/p50/p95/max of the group figures into fs (sorts pct). */
void frag_freesp_groups(struct frag_freesp *fs, double *pct, size_t n);
json_t *frag_freesp_json(const struct frag_freesp *fs);
/* The free-space figures as metrics of one phase; none when not
 * available. */
void frag_freesp_to_phase_metrics(const struct frag_freesp *fs,
				  struct phase_rec *p);

/* The figures as metrics of one phase (unit and direction each). */
void frag_to_phase_metrics(const struct frag_result *r, struct phase_rec *p);
/* The whole result as JSON (format_version, every bin and figure). */
json_t *frag_to_json(const struct frag_result *r);

#endif
