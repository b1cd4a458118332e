/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wldir.h - workload directories: created exclusively under a unique
 * name, journaled with their inode, and removed through directory fds, so
 * fslab never works in or deletes a directory it did not create.
 */
#ifndef FSLAB_WLDIR_H
#define FSLAB_WLDIR_H

#include <stdbool.h>

/* The marker in every workload directory's name, before its nonce. */
#define WLDIR_MARK ".fslab-"

/*
 * Create <parent>/<stem>.fslab-<tag> with mkdirat (never an existing
 * one: EEXIST is an error), journal it when journal is set (a dir:
 * target, which fslab does not destroy wholesale), and return its path;
 * *fd is the open directory (O_DIRECTORY).  NULL (message printed) on
 * failure.  tag should be unique (wldir_tag()).
 */
char *wldir_create(const char *parent, const char *stem, const char *tag,
		   bool journal, int *fd);
/* Open the directory another rank created (no symlink followed). */
int wldir_open(const char *path);
/* A fresh 64-bit random number for names. */
unsigned long long wldir_nonce(void);

/*
 * Remove the tree open as fd, named path, through fds only: openat with
 * O_NOFOLLOW, unlinkat, never leaving its filesystem; then path itself
 * when it is still the same directory.  Marks the journal entry done when
 * journal is set.  0 or -1 (printed).
 */
int wldir_remove(const char *path, int fd, bool journal);

#endif
