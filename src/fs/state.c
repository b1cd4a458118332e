/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state.c - writing this process's undo journal (see state.h).  A
 * resource is journaled before it exists, so after a crash at any point
 * the journal names a superset of what is left; the journal is opened
 * lazily, one per process, and removed when everything in it is done.
 * replay.c replays the journals of dead processes for `fslab cleanup`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/journal.h" /* layer-ok: known circle with journal.h (issue 38), to untangle */
#include "fs/state.h"
#include "util/util.h"

static int jfd = -1;
static pid_t jpid;
static char *jpath;
static char *jscratch;   /* the scratch line last written */

/* Is an existing <pid>.state ours (same pid and start time)? */
static bool journal_is_ours(const char *path, unsigned long long start)
{
	struct journal j;
	bool ours;

	if (journal_read(path, &j) < 0) {
		journal_release(&j);
		return false;
	}
	ours = j.have_pid && j.pid == (long)getpid() && j.start == start;
	journal_release(&j);
	return ours;
}

static int journal_open(void)
{
	const char *dir = state_dir();
	unsigned long long start = 0;
	char *line;
	int fd;

	if (jfd >= 0 && jpid == getpid())
		return 0;
	if (jfd >= 0)
		close(jfd); /* a forked child: the journal is the parent's */
	jfd = -1;
	free(jpath);
	free(jscratch);
	jscratch = NULL;
	jpid = getpid();
	jpath = xasprintf("%s/%ld.state", dir, (long)jpid);
	if (mkdir_p(dir, 0700) < 0)
		return error_errno("cannot create state directory '%s'", dir);
	if (state_dir_check(dir) < 0)
		return -1;
	if (proc_starttime(jpid, &start, NULL) < 0)
		return error("cannot read the start time of pid %ld",
			     (long)jpid);
	fd = open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW |
		  O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST) {
		if (journal_is_ours(jpath, start)) {
			fd = open(jpath, O_WRONLY | O_APPEND | O_NOFOLLOW |
				  O_CLOEXEC);
			if (fd < 0)
				return error_errno("cannot open journal '%s'",
						   jpath);
			jfd = fd;
			return 0;
		}
		/*
		 * A dead process with our pid left it: keep it for
		 * cleanup under another name rather than mix the two.
		 */
		line = xasprintf("%s/%ld.%llu.stale.state", dir, (long)jpid,
				 (unsigned long long)realtime_ns());
		if (rename(jpath, line) < 0) {
			error_errno("cannot move stale journal '%s'", jpath);
			free(line);
			return -1;
		}
		free(line);
		fd = open(jpath, O_WRONLY | O_CREAT | O_EXCL | O_APPEND |
			  O_NOFOLLOW | O_CLOEXEC, 0600);
	}
	if (fd < 0)
		return error_errno("cannot create journal '%s'", jpath);
	line = xasprintf("pid %ld %llu\n", (long)jpid, start);
	if (journal_append(fd, jpath, line) < 0) {
		free(line);
		close(fd);
		return -1;
	}
	free(line);
	journal_fsync_dir(dir);
	jfd = fd;
	return 0;
}

static int state_write(const char *line)
{
	int ret;

	if (journal_open() < 0)
		return -1;
	ret = journal_append(jfd, jpath, line);
	return ret;
}

static int bad_entry(const char *kind, const char *arg)
{
	/* Callers refuse such names up front (spec, --scratch); be safe. */
	if (!*kind || strchr(kind, ' ') || journal_has_ctl(kind) || journal_has_ctl(arg))
		return error("cannot journal '%s %s': a control character "
			     "in the name", kind, arg);
	return 0;
}

int state_record(const char *kind, const char *arg)
{
	char *line;
	int ret;

	if (bad_entry(kind, arg) < 0)
		return -1;
	line = xasprintf("%s %s\n", kind, arg);
	ret = state_write(line);
	free(line);
	return ret;
}

int state_ident(const char *kind, unsigned long long dev,
		unsigned long long ino, const char *arg)
{
	char *line;
	int ret;

	if (bad_entry(kind, arg) < 0)
		return -1;
	line = xasprintf("ident %s %llu %llu %s\n", kind, dev, ino, arg);
	ret = state_write(line);
	free(line);
	return ret;
}

int state_done(const char *kind, const char *arg)
{
	char *line;
	int ret;

	if (bad_entry(kind, arg) < 0)
		return -1;
	line = xasprintf("done %s %s\n", kind, arg);
	ret = state_write(line);
	free(line);
	return ret;
}

int state_scratch(const char *path)
{
	char *mark, *line, *dir;
	int fd, ret;

	if (bad_entry("scratch", path) < 0)
		return -1;
	if (journal_open() < 0)
		return -1;
	dir = realpath(path, NULL);
	if (!dir)
		return error_errno("cannot resolve '%s'", path);
	if (jscratch && !strcmp(jscratch, dir)) {
		free(dir);
		return 0;
	}
	mark = path_join(dir, STATE_SCRATCH_MARK);
	fd = open(mark, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = error_errno("cannot create '%s'", mark);
		free(mark);
		free(dir);
		return ret;
	}
	close(fd);
	free(mark);
	line = xasprintf("scratch %s\n", dir);
	ret = state_write(line);
	free(line);
	if (!ret) {
		free(jscratch);
		jscratch = dir;
	} else {
		free(dir);
	}
	return ret;
}

void state_finish(void)
{
	struct journal j;

	if (jfd < 0 || jpid != getpid())
		return;
	close(jfd);
	jfd = -1;
	free(jscratch);
	jscratch = NULL;
	if (journal_read(jpath, &j) < 0) {
		journal_release(&j);
		return;
	}
	if (!journal_open_entries(&j)) {
		if (unlink(jpath) < 0 && errno != ENOENT)
			warning("cannot remove journal '%s': %s", jpath,
				strerror(errno));
		else
			journal_fsync_dir(state_dir());
	}
	journal_release(&j);
}
