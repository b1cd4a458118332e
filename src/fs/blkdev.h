/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkdev.h - block device questions: is it safe to format (nothing
 * mounted, no swap, no holders, no signature unless --destroy-data names
 * it), how large is it, what is its /sys/block name and its UUID.
 */
#ifndef FSLAB_BLKDEV_H
#define FSLAB_BLKDEV_H

#include <stdint.h>
#include <sys/types.h>

/*
 * Refuse to format dev unless it is a block device that neither it nor
 * any of its partitions is mounted, used as swap, held by LVM/md/dm or
 * opened exclusively by anyone, and that carries no signature libblkid
 * can see -- unless destroy_data names the same device.  0 when safe,
 * -2 when refused (the reason printed, naming what was found), -1 on
 * other errors.  Writes nothing.
 */
int blkdev_check(const char *dev, const char *destroy_data);
/*
 * The same checks for a reader: refuse ("refusing to VERB ...") a device
 * that is not a block device, or that it or a partition of it is mounted,
 * swap, held or opened exclusively; a signature is fine.  0 or -2.
 */
int blkdev_check_unused(const char *dev, const char *verb);
/* Size of a block device in bytes.  0 or -1 (printed). */
int blkdev_size(const char *dev, uint64_t *size);
/* /sys/class/block name of a device number ("sda1", "loop3"), or NULL. */
char *blkdev_sysname(dev_t devno);
/* Filesystem UUID on dev as libblkid reads it, or NULL. */
char *blkdev_uuid(const char *dev);

#endif
