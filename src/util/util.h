/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - allocation that never returns NULL, git-style error reporting,
 * clocks, and small file helpers shared by every module.
 *
 * Conventions: functions return 0 on success and -1 (or -errno where
 * documented) on failure.  The layer that has the context prints the
 * message, once, with error(); callers just propagate the -1.
 */
#ifndef FSLAB_UTIL_H
#define FSLAB_UTIL_H

#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PRINTF(f, a) __attribute__((format(printf, f, a)))
#define MUST_CHECK __attribute__((warn_unused_result))

/* Exit codes, documented in `fslab help`. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,  /* the run failed: I/O error, mkfs failed, ... */
	EXIT_USAGE = 2,    /* bad command line, bad spec, bad input file */
	EXIT_REGRESSION = 3, /* compare --fail-on-regression found one */
	EXIT_NO_VERDICT = 4, /* --fail-on-regression, but nothing tested */
};

/* Abort with a message on out-of-memory: callers never check for NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) PRINTF(1, 2);

/*
 * Grow arr (of *nr used and *alloc allocated elements) so it can hold at
 * least n elements.  Like git's ALLOC_GROW.
 */
#define ALLOC_GROW(arr, n, alloc)                                          \
	do {                                                               \
		if ((size_t)(n) > (alloc)) {                               \
			size_t na_ = (alloc) ? (alloc) * 2 : 16;           \
			if (na_ < (size_t)(n))                             \
				na_ = (n);                                 \
			(arr) = xrealloc((arr), na_ * sizeof(*(arr)));     \
			(alloc) = na_;                                     \
		}                                                          \
	} while (0)

/* "fslab: error: ..." on stderr; returns -1 so callers can `return error()`. */
int error(const char *fmt, ...) PRINTF(1, 2);
/* Same, with ": strerror(errno)" appended (errno captured at entry). */
int error_errno(const char *fmt, ...) PRINTF(1, 2);
void warning(const char *fmt, ...) PRINTF(1, 2);
/* The text of the last error() of this process ("" if none): what an MPI
 * rank sends to rank 0 when it fails. */
const char *last_error(void);
/* Print and exit(EXIT_RUNTIME).  Only before any mount or loop device exists. */
noreturn void die(const char *fmt, ...) PRINTF(1, 2);
/* Programmer error: print file/line and abort. */
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
noreturn void bug_fl(const char *file, int line, const char *fmt, ...)
	PRINTF(3, 4);

/* CLOCK_MONOTONIC in ns. */
uint64_t now_ns(void);
/* CLOCK_REALTIME in ns since the epoch. */
uint64_t realtime_ns(void);

/* mkdir -p; 0 or -1 with errno set (no message). */
int mkdir_p(const char *path, unsigned mode);
/* Read a whole (small) file; NUL-terminated, *len optional.  NULL on error. */
char *read_file(const char *path, size_t *len);
/* Write s to path (O_WRONLY|O_TRUNC, no create); 0 or -1, errno set. */
int write_file_str(const char *path, const char *s);
/* Read until len bytes or end of file (EINTR retried): the count, or -1. */
ssize_t read_full(int fd, void *buf, size_t len);
/* write(2) all of buf, retrying short writes and EINTR; 0, or -1 with
 * errno set (EIO for a write that made no progress). */
int write_full(int fd, const void *buf, size_t len);
/*
 * A directory stream of its own on the directory dfd is open on: its own
 * offset, unlike fdopendir(dup(dfd)).  NULL with errno set.
 */
DIR *opendir_at(int dfd);
/* Join a and b with one '/'; returns a new string. */
char *path_join(const char *a, const char *b);

/*
 * Parse a size with optional binary suffix (k, m, g, t; case-insensitive,
 * optional trailing 'b' or 'ib'): "8G" -> 8 GiB.  0 or -1 on bad input.
 */
int parse_size(const char *s, uint64_t *out) MUST_CHECK;
/* Parse a non-negative decimal integer that fits in *out; 0 or -1. */
int parse_u64(const char *s, uint64_t *out) MUST_CHECK;
int parse_int(const char *s, long long min, long long max,
	      long long *out) MUST_CHECK;
/* Is s non-empty and only decimal digits (a run id, say)? */
bool all_digits(const char *s);
/* Format a byte count as "8.0G" style into buf; returns buf. */
char *fmt_size(char *buf, size_t len, uint64_t bytes);

/* Split a command-line-like string on blanks, honouring '...', "..." and
 * backslash escapes.  Returns a NULL-terminated argv (free with argv_free)
 * or NULL with a message in err on unbalanced quotes. */
char **argv_split(const char *s, char *err, size_t errlen);
void argv_free(char **argv);
size_t argv_len(char *const *argv);

/*
 * Run argv (argv[0] searched in PATH) and wait.  stdout/stderr of the child
 * are captured into *out (may be NULL to discard) when capture is true,
 * else inherited.  Returns the exit status (0..255), 127 when the program
 * is not found, or -1 on fork/exec failure (message printed).
 */
int run_cmd(char *const argv[], char **out, bool capture);

/* True when running with effective uid 0. */
bool is_root(void);
/*
 * Field 22 of /proc/<pid>/stat (start time in clock ticks since boot) and
 * whether the process is a zombie.  0, or -1 when there is no such pid.
 */
int proc_starttime(long pid, unsigned long long *start, bool *zombie);
/*
 * Is pid alive and the process that was already running at wall-clock
 * second since (not a later one that reused the pid)?
 */
bool proc_is_same(long pid, int64_t since);

#endif
