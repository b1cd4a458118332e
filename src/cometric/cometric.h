/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cometric.h - co-metrics: evidence recorded around every phase, beside
 * measure.c's figures, so `compare --explain` can say why a phase got
 * faster or slower: /proc/vmstat deltas, the process's faults and
 * context switches, the whole /sys/block/DEV/stat line, pressure stall
 * totals, the filesystem's own statistics (jbd2, XFS, btrfs, ext4) and
 * the CPU clock.  doc/cometrics.md lists every one.
 *
 * Sampled at phase boundaries only (a few reads of /proc and /sys per
 * boundary, never per operation) and stored as ordinary metric rows of
 * the phase with a family prefix ("vm.", "dev.", "proc.", "psi.",
 * "jbd2.", "xfs.", "btrfs.", "ext4.", "cpu.") and direction none: a
 * co-metric is evidence, not a goal.
 *
 * Under MPI each rank records its own host's figures; the stored phase
 * is rank 0's, so they describe rank 0's host.
 *
 * The parsers are pure functions over a file's text, tolerant of the
 * fields other kernel versions add or lack: a field that is missing is
 * simply not recorded.
 */
#ifndef FSLAB_COMETRIC_H
#define FSLAB_COMETRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct phase_rec;

/* --co-metrics; zero is the default, so every run_config gets it. */
enum cometric_level {
	COMETRIC_BASIC = 0, /* vmstat, diskstats, rusage, PSI, fs stats */
	COMETRIC_NONE,
	COMETRIC_ALL,       /* basic + the CPU clock (a file per CPU) */
};

/* "none", "basic", "all" -> level; -1 when unknown. */
int cometric_level_parse(const char *s);

/* How many co-metrics cometric.c defines (checked there at compile
 * time): a set holds one slot per definition, so a snapshot needs no
 * allocation and no search by name. */
#define COMETRIC_NR 79

/*
 * Values by co-metric, a slot per definition (in the definitions'
 * order); zero-initialised it is empty.  n counts the values present.
 */
struct co_set {
	size_t n;
	uint64_t have[(COMETRIC_NR + 63) / 64];
	double v[COMETRIC_NR];
};

/* Set name's value; name must be a co-metric (else a BUG). */
void co_set_put(struct co_set *s, const char *name, double v);
/* Does s have name?  *v (may be NULL) gets its value. */
bool co_set_get(const struct co_set *s, const char *name, double *v);
/* Does s have the i-th definition's value?  *v (may be NULL) gets it. */
bool co_set_at(const struct co_set *s, size_t i, double *v);
/* Empty s (nothing is allocated: kept for the callers' symmetry). */
void co_set_release(struct co_set *s);

/* The index of the co-metric name in cometric_defs(), or -1. */
int cometric_index(const char *name);

/*
 * Parsers: add what text holds to out under the co-metric's name, in
 * its unit (pages and KiB turned into bytes, ms into s).  0 when the
 * text had the expected shape, -1 otherwise (out untouched or partly
 * filled).  page_size in bytes.
 */
int cometric_parse_vmstat(const char *text, long page_size,
			  struct co_set *out);
/* /sys/block/DEV/stat: 11, 15 or 17 fields (4.18 discards, 5.5 flush). */
int cometric_parse_diskstat(const char *text, struct co_set *out);
/* /proc/pressure/RES; res is "cpu", "io" or "memory". */
int cometric_parse_pressure(const char *text, const char *res,
			    struct co_set *out);
/* /proc/fs/jbd2/DEV-8/info (averages turned back into totals). */
int cometric_parse_jbd2(const char *text, struct co_set *out);
/* /sys/fs/xfs/DEV/stats/stats, /sys/fs/xfs/stats/stats or
 * /proc/fs/xfs/stat. */
int cometric_parse_xfs(const char *text, struct co_set *out);
/* /sys/fs/btrfs/UUID/commit_stats (5.19+). */
int cometric_parse_btrfs(const char *text, struct co_set *out);

/* What is known of one co-metric (doc/cometrics.md is built from it). */
enum co_kind {
	CO_COUNTER,  /* a total since boot/mount: recorded as end - begin */
	CO_GAUGE,    /* a level: recorded as its value at the end */
	CO_RAW,      /* only an input of a derived figure: never recorded */
	CO_DERIVED,  /* computed by cometric_diff from raw counters */
};

struct cometric_def {
	const char *name;
	const char *unit;
	enum co_kind kind;
	bool per_work;   /* a quantity that grows with the work done: explain
			  * compares it per file / per MiB */
	const char *what;
};

/* The definition of name, or NULL when it is not a co-metric. */
const struct cometric_def *cometric_def(const char *name);
const struct cometric_def *cometric_defs(size_t *nr);

/* Where a snapshot reads from; all may be NULL / unknown. */
struct cometric_src {
	enum cometric_level level;
	const char *devname;  /* /sys/block name ("loop3") */
	const char *fstype;   /* "ext4" ... */
	const char *uuid;     /* filesystem UUID (btrfs' sysfs directory) */
};

struct cometric_snap {
	struct co_set vals;
	uint64_t mono_ns;
};

/* Does this machine show the CPU clock (most VMs do not)? */
bool cometric_have_cpufreq(void);

/*
 * The /proc and /sys files snapshots read, kept open between them so a
 * snapshot costs a pread(2) at offset 0 per file (procfs and sysfs
 * regenerate the text there) and no allocation: opened O_CLOEXEC (fio
 * and exec workloads spawn programs) and O_NOFOLLOW, the target's files
 * opened again when the target changes or a read fails (the filesystem
 * was remounted), jbd2's info for every snapshot (its figures are
 * copied when it is opened).  One per run, used by one thread.
 */
struct cometric_reader;

struct cometric_reader *cometric_reader_new(void);
/* Close every file; r may be NULL. */
void cometric_reader_free(struct cometric_reader *r);

/*
 * Take a snapshot through r (NULL: open and close the files for this
 * snapshot alone); nothing read at COMETRIC_NONE.
 */
void cometric_snap(struct cometric_snap *s, const struct cometric_src *src,
		   struct cometric_reader *r);
/*
 * The co-metrics of the window begin..end, in the definitions' order
 * (counters as deltas, gauges at end, derived figures), into out.
 */
void cometric_diff(const struct cometric_snap *begin,
		   const struct cometric_snap *end, struct co_set *out);
/* Append out's values to p as metric rows (direction none). */
void cometric_record(const struct co_set *vals, struct phase_rec *p);
void cometric_snap_release(struct cometric_snap *s);

#endif
