/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkfs.h - run mkfs.<fstype> with the flags each tool needs to format
 * without asking, and record which version of the tool made the
 * filesystem (results of different mkfs versions are not comparable).
 */
#ifndef FSLAB_MKFS_H
#define FSLAB_MKFS_H

#include <stddef.h>

/*
 * Can we make and mount fstype here?  0, or -2 after saying why:
 * mkfs.<fstype> is not installed (naming the Debian package) or the
 * kernel does not know the filesystem (not in /proc/filesystems and
 * modprobe failed).
 */
int mkfs_check(const char *fstype);
/* The same check, silent: 0, or -2 with the reason in why (pre-flight). */
int mkfs_check_why(const char *fstype, char *why, size_t len);
/*
 * The mkfs command line mkfs_run() runs, shell-quoted (extra as given),
 * for provenance; device NULL writes DEVICE.  Allocated.
 */
char *mkfs_command(const char *fstype, const char *extra, const char *device);
/*
 * Format device.  extra is the user's mkfs= text (split like a shell
 * would, may be NULL).  *version (may be NULL) receives the tool's
 * version line or NULL when it could not be read.  0, -1 when mkfs
 * failed (its output is printed), -2 for a bad extra or a missing tool.
 */
int mkfs_run(const char *fstype, const char *device, const char *extra,
	     char **version);

#endif
