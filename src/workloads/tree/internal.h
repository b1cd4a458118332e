/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - the tree workload's run state, shared by its unpack
 * (unpack.c), walks (walk.c), phases (tree.c) and report (report.c).
 */
#ifndef FSLAB_TREE_INTERNAL_H
#define FSLAB_TREE_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/tarball.h"
#include "model/treemodel.h"
#include "util/util.h"
#include "workloads/registry.h"
#include "workloads/tree/tree.h"

#define TREE_DIR "tree"

struct tree_opts {
	char *tarball;
	char *model;
	bool predecompress;
	char *order;
	uint64_t bufsize;
	long long threads;
	long long batch;
	bool keep;
	bool verify;
};

/* ---- the run's state ---- */

struct tree_run {
	struct wl_ctx *ctx;
	const struct tree_opts *o;
	enum tree_order orders[TREE_MAX_ORDERS];
	size_t nr_orders;
	int root;                 /* the tree's directory */
	char *rootpath;
	char *buf;                /* bufsize, for the single-thread paths */
	size_t bufsize;
	char err[PATH_MAX + 256]; /* first failure, for phase_fail */
	bool failed, stopped;
	bool fiemap_warned;
};

struct unpack {
	struct tree_run *r;
	struct treemodel made;    /* directories created */
	struct treemodel *want;   /* tarball: what the archive held */
	uint64_t bytes, files, dirs, links, ops;
	uint64_t fs_ns;           /* in filesystem calls */
};

/* mkdir -p of dir (relative to the root), remembering what exists. */
struct ent {
	char *name;
	uint64_t ino;
	bool dir, reg;  /* from d_type, like find -type */
};

struct ents {
	struct ent *v;
	size_t nr, alloc;
};

struct file_list {
	struct tree_file *v;
	size_t nr, alloc;
};

struct reader {
	struct tree_run *r;
	const struct file_list *files;
	size_t *next;             /* shared index, atomically advanced */
	pthread_mutex_t *lock;    /* for run_fail from several threads */
	char *buf;
	uint64_t bytes, files_done;
	uint64_t start_ns, end_ns;
};

struct read_state {
	struct reader *rd;   /* one per thread, totals across batches */
	size_t nr;
};

enum walk_mode { WK_READ, WK_COLLECT, WK_STAT, WK_DELETE };

struct walk {
	struct tree_run *r;
	enum walk_mode mode;
	enum tree_order order;
	char path[PATH_MAX];
	struct file_list batch;    /* WK_READ: names not read yet */
	struct file_list dirs;     /* WK_COLLECT: directories, pre-order */
	struct read_state *rs;
	uint64_t entries, ops;
};

int tree_run_fail(struct tree_run *r, const char *fmt, ...) PRINTF(2, 3);
int tree_run_fail_errno(struct tree_run *r, const char *what,
			const char *path);

static inline double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* unpack.c */
int tree_unpack_model(struct unpack *u, const struct treemodel *m);
int tree_unpack_tarball(struct unpack *u, const char *mem, size_t len,
			uint64_t *lib_ns, uint64_t *lib_cpu_ns);
void tree_fill_text(char *buf, size_t len);

void tree_file_list_release(struct file_list *l);
int tree_read_batch(struct tree_run *r, struct read_state *rs,
		    const struct file_list *files);
int tree_walk_dir(struct walk *w, int dfd);
int tree_collect_disk_order(struct walk *w);

/* report.c */
struct run_rec;
struct wlrun_rec;
struct cmp_group;
void tree_report(FILE *out, const struct run_rec *run,
		 const struct wlrun_rec *wr);
void tree_report_compare(FILE *out, const struct cmp_group *groups,
			 size_t ng);

#endif
