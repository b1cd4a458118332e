/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * journal.h - the journal file as state.c writes it and replay.c reads
 * it (the format is in state.h).  Private to src/fs.
 */
#ifndef FSLAB_JOURNAL_H
#define FSLAB_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "fs/state.h"

struct jentry {
	struct undo_entry u;
	bool done;          /* a later "done" line cancelled it */
};

/* One journal as read back. */
struct journal {
	char *path;
	bool have_pid, alive;
	long pid;
	unsigned long long start;
	struct jentry *e;
	size_t nr, alloc;
	char **scratches;     /* owns the strings entries point to */
	size_t nr_scratch, alloc_scratch;
};

/*
 * Read path into j if it is ours (a regular file owned by us, mode 0600
 * or stricter, not too long, no NUL byte).  0, or -1 with an error
 * printed; j must be released either way.
 */
int journal_read(const char *path, struct journal *j);
void journal_release(struct journal *j);
/* The entries no "done" line cancelled. */
size_t journal_open_entries(const struct journal *j);

/* Append line to the journal open on fd and sync it.  0 or -1. */
int journal_append(int fd, const char *path, const char *line);
/* fsync a directory, so that a created or removed journal stays so. */
void journal_fsync_dir(const char *dir);
/* Does s hold a control character (no journal line may)? */
bool journal_has_ctl(const char *s);
/* The state directory must be ours alone; 0, or -1 with an error. */
int state_dir_check(const char *dir);

#endif
