/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop.h - loop devices for owned images: attach with LOOP_CONFIGURE
 * (direct I/O so the image is not cached twice, autoclear so a dead
 * fslab leaves no bound device behind), detach, and find devices by
 * their backing file so cleanup only touches what it created.
 */
#ifndef FSLAB_LOOP_H
#define FSLAB_LOOP_H

#include <stddef.h>

/*
 * Attach the open image (ffd, O_RDWR) to a free loop device, so the
 * device is bound to the very file fslab created, whatever its name
 * leads to by now; image is its name for messages and the loop's file
 * name.  ffd stays open.  On success *fd is the open device (keep it
 * open: with autoclear, the last close detaches) and *dev is
 * "/dev/loopN" (caller frees).  0 or -1 (message printed).
 */
int loop_attach_fd(int ffd, const char *image, int *fd, char **dev);
/* The device and inode of dev's backing file (LOOP_GET_STATUS64).  0/-1. */
int loop_backing_ident(const char *dev, unsigned long long *bdev,
		       unsigned long long *ino);
/* Every loop device backed by the file bdev:ino (argv_free).  Never NULL. */
char **loop_find_by_ident(unsigned long long bdev, unsigned long long ino);
/* Detach dev if, and only if, its backing file is bdev:ino.  0 or -1. */
int loop_clear_ident(const char *dev, unsigned long long bdev,
		     unsigned long long ino);
/*
 * Close fd and make sure dev no longer serves image: wait briefly for
 * autoclear, then LOOP_CLR_FD.  0 or -1 (message printed).
 */
int loop_detach(int fd, const char *dev, const char *image);
/*
 * Every loop device whose backing file is path (also when the file was
 * deleted since), as a NULL-terminated list of "/dev/loopN" (free with
 * argv_free).  Never NULL.
 */
char **loop_find_by_backing(const char *path);

#endif
