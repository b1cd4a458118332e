/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * outfile.h - a file the user names for fslab's output (-o, --record,
 * --svg ...).  fslab runs as root, often in a directory other users can
 * write, so the name is never opened with O_TRUNC: the output goes to a
 * new file made beside it with O_EXCL and is renamed over the name when
 * complete.  A symlink or hard link planted at the name is replaced, not
 * written through; a failed write leaves the old file as it was.
 *
 * Exceptions, because users mean them: "-" is stdout; a name that is
 * already a FIFO, character device or socket (/dev/null, a pipe) is
 * written in place; a symlink is followed only when its owner is fslab's
 * effective user or root (/dev/stdout), and refused otherwise.
 */
#ifndef FSLAB_OUTFILE_H
#define FSLAB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;     /* write here */
	char *path;  /* the name asked for */
	char *tmp;   /* the new file, renamed over path at commit; or NULL */
};

/* Would outfile_open refuse path's symlink?  -1 with why filled (for a
 * pre-flight that refuses before the work), else 0. */
int outfile_link_refused(const char *path, char *why, size_t len);
/* Open path for writing (see above); NULL after an error message. */
FILE *outfile_open(struct outfile *o, const char *path);
/* Flush, sync and put the file in place; 0, or -1 after an error
 * message (the old file is then untouched). Always releases o. */
int outfile_commit(struct outfile *o);
/* Give up: the new file is removed, the old one untouched. */
void outfile_abort(struct outfile *o);
/* Commit when ok, abort otherwise; 0 or -1 as commit. */
int outfile_finish(struct outfile *o, int ok);

#endif
