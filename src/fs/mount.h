/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mount.h - mounting, unmounting and mountinfo queries through libmount,
 * so fslab never parses /proc/self/mountinfo by hand.
 */
#ifndef FSLAB_MOUNT_H
#define FSLAB_MOUNT_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Mount source on the directory open as dirfd (target is its name, for
 * messages), with nosuid,nodev always: through fsopen/fsmount/move_mount,
 * so no name is resolved, or on an old kernel by name right after an
 * lstat+fstat check that target still is dirfd.  *rootfd receives the
 * mount's root (O_PATH; -1 on an old kernel).  0 or -1 (printed).
 */
int mount_fs_at(const char *source, int dirfd, const char *target,
		const char *fstype, const char *options, int *rootfd);
/* Does the name target lead to the mount root rootfd (-1: true)? */
bool mount_name_is_root(const char *target, int rootfd);
/*
 * Unmount what mount_fs_at mounted: by name when target still is the root
 * the kernel gave us (*rootfd, closed first since it would keep the mount
 * busy), else lazily through *rootfd itself.  *rootfd -1: by name.
 * 0, or -1 with errno (nothing printed), as mount_umount().
 */
int mount_umount_at(const char *target, int *rootfd, bool lazy);
/* The device number of the filesystem mounted on target.  0 or -1. */
int mount_source_devno(const char *target, dev_t *devno);
/*
 * Unmount target; lazy detaches it (MNT_DETACH).  0, or -1 with errno
 * set and nothing printed, so callers can retry on EBUSY.
 */
int mount_umount(const char *target, bool lazy);
/* True when target is itself a mount point (exact match in mountinfo). */
bool mount_is_mountpoint(const char *target);
/* Effective options of the mount on target ("rw,noatime,..."), or NULL. */
char *mount_options(const char *target);
/*
 * The mount that contains path: its fstype, effective options and device
 * number (out pointers may be NULL; strings are allocated).  0 or -1
 * (not found, nothing printed).
 */
int mount_find_containing(const char *path, char **fstype, char **options,
			  dev_t *devno);
/*
 * Is a block device with one of these device numbers mounted?  Returns
 * the first mount point found (allocated) or NULL.  Matches on the
 * mount's device number and, for filesystems like btrfs whose mountinfo
 * shows an anonymous device, on the source path's st_rdev.
 */
char *mount_find_devno(const dev_t *devnos, size_t nr);

#endif
