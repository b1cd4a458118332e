/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the fio workload's files share: the job file model
 * (jobfile.c: sections, the safety scan, overrides) and fio's JSON output
 * (fiojson.c), both pure so the unit tests read captured files.
 */
#ifndef FSLAB_WL_FIO_INTERNAL_H
#define FSLAB_WL_FIO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/lathist.h"

/* ---- job files (jobfile.c) ---- */

struct fio_section {
	char *name;
	size_t end_line;   /* index of the section's last line + 1 */
};

struct fio_jobfile {
	char **lines;      /* the file split at '\n', without it */
	size_t nr_lines;
	struct fio_section *sections;  /* in file order, without [global] */
	size_t nr_sections;
	bool has_verify;   /* some section or [global] sets verify= */
};

/*
 * Split text into lines and sections.  Then refuse (-1, the reason with
 * its line number in err) what would reach outside the workload
 * directory or run other code as root: an absolute or `..` path in
 * filename, directory, opendir, filename_format or an I/O log option,
 * environment expansion in them, include directives, exec_prerun and
 * exec_postrun, ioscheduler, cgroups and external engines.  A job file
 * without a job section is refused too.
 */
int fio_jobfile_parse(const char *text, struct fio_jobfile *jf, char *err,
		      size_t errlen);
void fio_jobfile_release(struct fio_jobfile *jf);
/* Index of the section called name, or -1. */
int fio_jobfile_find(const struct fio_jobfile *jf, const char *name);
/*
 * The job file as fslab runs it: the same lines, with `key=value` for
 * each override appended to every job section, so it wins over what the
 * section said (fio keeps the last value).  overrides: "key=value"
 * strings, NULL-terminated; may be NULL.  Allocated.
 */
char *fio_jobfile_render(const struct fio_jobfile *jf,
			 const char *const *overrides);

/* ---- fio's JSON output (fiojson.c) ---- */

enum fio_dir { FIO_READ, FIO_WRITE, FIO_TRIM, FIO_NR_DIRS };
extern const char *const fio_dir_names[FIO_NR_DIRS];

/* One direction of one job (or of several jobs of the same name). */
struct fio_dirstat {
	uint64_t io_bytes;
	uint64_t total_ios;
	double bw_bytes;      /* bytes per second, summed over jobs */
	double iops;          /* summed over jobs */
	double runtime_s;     /* longest job's */
	double clat_mean_ns;  /* weighted by completions */
	/* fio's own percentiles of completion latency, ns; NaN if absent */
	double clat_p50_ns, clat_p90_ns, clat_p99_ns, clat_p999_ns;
	bool have_bins;       /* json+: the histogram below is fio's */
	struct lathist *hist; /* completion latencies (ns), or NULL */
};

struct fio_job {
	char *name;
	int error;            /* fio's error code of the job (errno) */
	int nr_merged;        /* job entries folded into this one */
	double usr_cpu_pct, sys_cpu_pct;
	uint64_t ctx_switches;
	uint64_t majf, minf;
	bool verify;          /* job options set verify= (not "0"/"none") */
	struct fio_dirstat dir[FIO_NR_DIRS];
};

struct fio_result {
	char *version;        /* "fio-3.33" */
	struct fio_job *jobs; /* one per job name, in output order */
	size_t nr_jobs;
	double disk_util_pct; /* highest disk_util entry; NaN if none */
	bool old_format;      /* fio 2.x: clat in usec, io_bytes in KiB */
};

/*
 * Parse fio's --output-format=json or json+ output (fio 2.x and 3.x).
 * Jobs of one name (numjobs= without group_reporting) are summed into
 * one: bandwidth and IOPS added, latencies merged.  Returns 0, or -1
 * with the reason in err (not JSON, no jobs array).
 */
int fio_json_parse(const char *text, size_t len, struct fio_result *r,
		   char *err, size_t errlen);
void fio_result_release(struct fio_result *r);

#endif
