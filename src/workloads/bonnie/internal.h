/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - the bonnie workload's run state, shared by its phase
 * helpers (phase.c), I/O and seek tests (io.c), file-creation tests
 * (files.c), the run (bonnie.c) and the report (report.c).
 */
#ifndef FSLAB_BONNIE_INTERNAL_H
#define FSLAB_BONNIE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "stats/lathist.h"
#include "util/util.h"
#include "util/verify.h"
#include "workloads/bonnie/bonnie.h"
#include "workloads/registry.h"

#define MIB (1024ULL * 1024ULL)
#define RAND_EXTRA_LEN 12   /* bonnie++'s RandExtraLen */
#define DIRECT_ALIGN 4096

extern const struct opt bon_opt_table[];
extern const char *const bon_phase_names[];


struct bon_run {
	struct wl_ctx *ctx;
	const struct bon_opts *o;
	uint64_t size, seed;
	char *path;         /* the scratch file */
	char *fdir;         /* the file-test directory */
	char *buf;          /* chunk-sized, DIRECT_ALIGN-aligned */
	struct bon_files files;
	char **names;
	int *dir_of;
	long long nr_names;  /* entries in names */
	bool on_disk;        /* the file-test directory exists */
	bool stdio;
	/*
	 * --verify: the data is util/verify.h's pattern with ctx->seed; the
	 * scratch file's id is that of its name "Bonnie.PID", a file-test
	 * file's that of its own name (without the directory).
	 */
	bool verify;
	const char *vname;  /* r->path relative to ctx->dir, for messages */
	uint64_t vid;
	unsigned char vblk[VERIFY_BLOCK]; /* per-char tests: current block */
	/*
	 * reorder=K: the read tests swap path, vname and vid for those of
	 * rank peer's scratch file (its name has that rank's pid).
	 */
	int peer;
	char *peer_path, *own_path;
	const char *own_vname;
	uint64_t peer_vid, own_vid;
};

struct bon_phase {
	struct phase *ph;
	struct lathist lat;      /* per-op latencies, ns */
	uint64_t bytes, files, ops;
	uint64_t t0;
};

/* phase.c: one bonnie++ test as one phase, and shared I/O helpers */
void bon_read_peer(struct bon_run *r, bool on);
void bon_add_reorder(const struct bon_run *r, struct phase *ph);
void bon_setup_reorder(struct bon_run *r);
const char *bon_file_base(const char *name);
unsigned char bon_vbyte(struct bon_run *r, uint64_t i);
int bp_verify_fail(struct bon_run *r, struct phase *ph, const char *shown,
		   uint64_t id, uint64_t off, const void *buf, size_t len);
int bp_verify(struct bon_run *r, struct phase *ph, const char *shown,
	      uint64_t id, uint64_t off, const void *buf, size_t len);
int bp_verify_byte(struct bon_run *r, struct phase *ph, int fd,
		   uint64_t off);
void bp_begin(struct bon_run *r, struct bon_phase *bp, enum bon_test t);
int bp_fail(struct bon_phase *bp, const char *what, const char *path);
int bp_end(struct bon_run *r, struct bon_phase *bp, enum bon_test t,
	   int ret, double rate_override);
int bon_between(struct bon_run *r);
/* fsync (unless ret already says it failed) and close fd.  The result. */
int bon_fsync_close(struct bon_phase *bp, int fd, const char *path, int ret);
/* A chunk of per-char I/O is done since *t: its latency, progress; stop? */
bool bp_chars_done(struct bon_phase *bp, uint64_t *t, uint64_t chunk);
/* One block of bytes done in lat_ns: latency, counts, progress. */
void bp_block_done(struct bon_phase *bp, uint64_t lat_ns, uint64_t bytes);

/* io.c: per-char and block I/O, rewrite, random seeks */
int bon_test_putc(struct bon_run *r);
int bon_test_block_write(struct bon_run *r);
int bon_test_rewrite(struct bon_run *r);
int bon_test_getc(struct bon_run *r);
int bon_test_block_read(struct bon_run *r);
int bon_test_seeks(struct bon_run *r);

/* files.c: the file-creation tests */
int bon_remove_dirs(struct bon_run *r);
int bon_test_create(struct bon_run *r, bool random);
int bon_test_stat_del(struct bon_run *r, enum bon_test t);

/* report.c */
struct run_rec;
struct wlrun_rec;
struct cmp_group;
void bon_report(FILE *out, const struct run_rec *run,
		const struct wlrun_rec *wr);
void bon_report_table(FILE *out, const struct cmp_group *groups, size_t nr);

#endif
