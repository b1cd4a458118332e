/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.h - run an external program (fio, a user's benchmark command) in
 * a directory fslab holds open, and keep what it printed.
 *
 * The child starts in the directory given by fd (fchdir: never a path
 * that could have been swapped), with /dev/null as stdin; stdout is kept
 * whole up to a cap, stderr's last lines are kept for the error message.
 * While it runs, stop() is polled: once it turns true the child's process
 * group gets SIGTERM, then SIGKILL after a grace period, so Ctrl-C of
 * fslab never leaves a benchmark running behind it.
 */
#ifndef FSLAB_SPAWN_H
#define FSLAB_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

struct spawn_result {
	int status;           /* wait status */
	int code;             /* exit code, or 128 + signal */
	bool stopped;         /* killed because stop() turned true */
	bool out_truncated;   /* stdout was longer than the cap */
	char *out;            /* stdout, NUL-terminated */
	size_t out_len;
	char *err;            /* the last SPAWN_ERR_KEEP bytes of stderr */
	struct rusage ru;     /* the child's and its waited-for children's */
};

#define SPAWN_ERR_KEEP 8192

/* flags of spawn_run */
enum {
	/* stderr into the same pipe as stdout, interleaved as printed
	 * (checkers whose verdict may be on either); err stays empty */
	SPAWN_MERGE_ERR = 1 << 0,
};

/*
 * Run argv[0] (searched on PATH) with argv in the directory dirfd (-1:
 * the current one), stdout kept up to out_cap bytes.  Returns 0 once
 * the child was waited for (whatever its exit code), -1 with a message
 * when it could not be started.  Release res with spawn_result_release.
 */
int spawn_run(char *const argv[], int dirfd, size_t out_cap, unsigned flags,
	      bool (*stop)(void), struct spawn_result *res);
void spawn_result_release(struct spawn_result *res);

/* Is prog (a name searched on PATH, or a path) an executable? */
bool spawn_in_path(const char *prog);

/* The last n lines of text (at most len - 1 bytes), newlines as " | ". */
void spawn_tail_lines(const char *text, int n, char *buf, size_t len);

#endif
