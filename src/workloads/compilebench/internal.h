/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - the compilebench workload's run state and statistics,
 * shared by its file operations (fsops.c), the run (compilebench.c)
 * and the report (report.c).
 */
#ifndef FSLAB_COMPILEBENCH_INTERNAL_H
#define FSLAB_COMPILEBENCH_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"
#include "workloads/compilebench/cbstate.h"
#include "workloads/registry.h"

enum cb_fill { CB_FILL_A, CB_FILL_RANDOM };

struct cb_opts {
	long long initial_dirs;
	long long runs;
	char *sources;
	uint64_t buffer_size;
	bool makej;
	bool no_sync;
	int data;
	int compat;
	long long seed;
};

/* ---- statistics, shared by the summary phase and the report ---- */

enum { K_INITIAL, K_CREATE, K_PATCH, K_COMPILE, K_CLEAN, K_READ,
       K_READ_COMPILED, K_DELETE, K_DELETE_COMPILED, K_STAT,
       K_STAT_COMPILED, K_NR };

struct kind_info {
	const char *phase;  /* phase name */
	const char *tag;    /* compilebench's report label */
	bool seconds;       /* averages times, not rates */
};

struct kind_stats {
	int runs;
	double sum;          /* per-op MB/s, or seconds */
	double user, sys;    /* seconds */
	uint64_t bytes, wall_ns;
	double sync_s;
};

/* ---- the run ---- */

struct cb_run {
	struct wl_ctx *ctx;
	const struct cb_opts *o;
	struct cb_sets sets;
	struct cb_state st;
	int bench_fd;
	char *buf;
	size_t bufsize;
	bool drop_err;
	bool verify;         /* --verify: util/verify.h data */
	struct kind_stats stats[K_NR];
};

/* What the current op did; the phase gets it at the end. */
struct op_work {
	struct phase *ph;
	uint64_t bytes, files, ops;
	bool stopped;
};

enum walk_mode { WALK_READ, WALK_STAT, WALK_DELETE, WALK_COLLECT };

struct walk {
	struct cb_run *r;
	struct op_work *w;
	enum walk_mode mode;
	const char *tree;
	char path[PATH_MAX];    /* relative to the tree */
	struct treemodel *collect; /* WALK_COLLECT: files in walk order */
	const struct treemodel *sizes;
};

struct names {
	char **v;
	size_t nr, alloc;
};

extern const struct kind_info cb_kinds[K_NR];

static inline double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

static inline double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* report.c: statistics and the report */
double cb_op_rate(uint64_t bytes, uint64_t wall_ns);
void cb_stats_add(struct kind_stats *st, const struct phase_rec *p);
/* One line after the classic block: its "avg" (mean of per-op rates)
 * against fslab's total over total, which differ by definition. */
void cb_print_definitions(FILE *out, const struct kind_stats *st);
struct run_rec;
struct wlrun_rec;
struct cmp_group;
void cb_report(FILE *out, const struct run_rec *run,
	       const struct wlrun_rec *wr);
void cb_report_run(FILE *out, const struct cmp_group *groups, size_t nr);
void cb_report_compare(FILE *out, const struct cmp_group *groups,
		       size_t nr);

/* fsops.c: one action's file operations */
int cb_op_error(struct cb_run *r, struct op_work *w, const char *what,
		const char *tree, const char *path);
int cb_write_set(struct cb_run *r, struct op_work *w, const char *tree,
		 const struct treemodel *m, bool unlink_first,
		 bool readfirst);
int cb_clean_set(struct cb_run *r, struct op_work *w, const char *tree,
		 const struct treemodel *m);
int cb_walk_tree(struct cb_run *r, struct op_work *w, const char *tree,
		 enum walk_mode mode, struct treemodel *collect,
		 const struct treemodel *sizes);

#endif
