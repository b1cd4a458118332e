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
 * Attach image to a free loop device.  On success *fd is the open device
 * (keep it open: with autoclear, the last close detaches) and *dev is
 * "/dev/loopN" (caller frees).  0 or -1 (message printed).
 */
int loop_attach(const char *image, int *fd, char **dev);
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
/* Detach dev if, and only if, it is still bound to image.  0 or -1. */
int loop_clear(const char *dev, const char *image);

#endif
