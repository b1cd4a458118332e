/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * undo.c - undo handlers for the resources fs/ creates.  replay.c has
 * checked each entry's place, name and inode before it gets here; these
 * check the live state once more right before acting (is it still
 * mounted, from a loop device backed by our image?) and act through fds
 * where the kernel lets them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fs/loop.h"
#include "fs/mount.h"
#include "fs/state.h"
#include "fs/undo.h"
#include "fs/wldir.h"
#include "util/util.h"

#define UMOUNT_TRIES 5

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The ident of the image entry whose path is image, if journaled. */
static const struct undo_entry *image_of(const struct undo_journal *j,
					 const char *image)
{
	size_t i;

	for (i = j->nr; i-- > 0;)
		if (!strcmp(j->e[i].kind, "image") &&
		    !strcmp(j->e[i].arg, image) && j->e[i].have_ident)
			return &j->e[i];
	return NULL;
}

/* Is the block device devno a loop device backed by an image of j's? */
static bool source_is_ours(const struct undo_journal *j, dev_t devno)
{
	unsigned long long bd, ino;
	char *sys, *dev;
	bool ours = false;
	struct stat st;

	/* fslab mounts block devices only: a tmpfs or the like is not ours. */
	sys = xasprintf("/sys/dev/block/%u:%u", major(devno), minor(devno));
	if (stat(sys, &st) < 0) {
		free(sys);
		return false;
	}
	free(sys);
	sys = xasprintf("/sys/dev/block/%u:%u/loop", major(devno),
			minor(devno));
	if (stat(sys, &st) < 0) {
		free(sys);
		return true; /* not a loop: a dev: target, checked by devno */
	}
	free(sys);
	/* /sys/dev/block/7:0 -> ../../devices/virtual/block/loop0 */
	sys = xasprintf("/sys/dev/block/%u:%u", major(devno), minor(devno));
	dev = realpath(sys, NULL);
	free(sys);
	if (!dev)
		return false;
	sys = xasprintf("/dev/%s", strrchr(dev, '/') + 1);
	if (!loop_backing_ident(sys, &bd, &ino))
		ours = state_journal_has_ident(j, "image", bd, ino);
	free(sys);
	free(dev);
	return ours;
}

static int undo_mount(const struct undo_journal *j, const struct undo_entry *e,
		      bool dry_run, bool verbose)
{
	const char *dir = e->arg;
	dev_t devno;
	int i;

	if (!mount_is_mountpoint(dir) || mount_source_devno(dir, &devno) < 0) {
		if (verbose)
			printf("'%s' is not mounted\n", dir);
		return 0;
	}
	if (!e->have_ident || (unsigned long long)devno != e->dev ||
	    !source_is_ours(j, devno))
		return error("not unmounting '%s': the filesystem there is not "
			     "the one fslab mounted (device %u:%u)", dir,
			     major(devno), minor(devno));
	if (dry_run) {
		printf("would unmount %s\n", dir);
		return 1;
	}
	for (i = 0; i < UMOUNT_TRIES; i++) {
		if (!mount_umount(dir, false)) {
			printf("unmounted %s\n", dir);
			return 1;
		}
		if (errno != EBUSY)
			return error_errno("cannot unmount '%s'", dir);
		sleep_ms(200);
	}
	if (mount_umount(dir, true) < 0)
		return error_errno("cannot unmount '%s' even lazily", dir);
	printf("unmounted %s lazily: it was busy, so the filesystem lives "
	       "on until its last user closes it\n", dir);
	return 1;
}

static int undo_loop(const struct undo_journal *j, const struct undo_entry *e,
		     bool dry_run, bool verbose)
{
	const struct undo_entry *img = image_of(j, e->arg);
	char **devs, **d;
	int ret = 0;

	/* No image inode, no proof: the image was never fully made, and
	 * autoclear has freed any device once its fd went. */
	if (!img) {
		if (verbose)
			printf("no loop device is bound to %s\n", e->arg);
		return 0;
	}
	devs = loop_find_by_ident(img->dev, img->ino);
	if (!*devs && verbose)
		printf("no loop device is bound to %s\n", e->arg);
	for (d = devs; *d; d++) {
		if (dry_run) {
			printf("would detach %s (%s)\n", *d, e->arg);
			ret = 1;
		} else if (loop_clear_ident(*d, img->dev, img->ino) < 0) {
			ret = -1;
		} else {
			printf("detached %s (%s)\n", *d, e->arg);
			if (ret >= 0)
				ret = 1;
		}
	}
	argv_free(devs);
	return ret;
}

static void kept_loop(const struct undo_handler *h, const struct undo_entry *e)
{
	char **devs = loop_find_by_backing(e->arg), **d;

	/* The journal names the image; the user looks for the device. */
	if (!*devs)
		printf("  kept %s %s\n", h->what, e->arg);
	for (d = devs; *d; d++)
		printf("  kept %s %s (%s)\n", h->what, e->arg, *d);
	argv_free(devs);
}

static int undo_image(const struct undo_journal *j, const struct undo_entry *e,
		      bool dry_run, bool verbose)
{
	const char *image = e->arg;
	struct stat st;

	(void)j;
	if (lstat(image, &st) < 0) {
		if (errno != ENOENT)
			return error_errno("cannot stat '%s'", image);
		if (verbose)
			printf("%s is already gone\n", image);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return error("'%s' is not a regular file any more; leaving it",
			     image);
	if (dry_run) {
		printf("would remove %s\n", image);
		return 1;
	}
	if (unlink(image) < 0 && errno != ENOENT)
		return error_errno("cannot remove '%s'", image);
	printf("removed %s\n", image);
	return 1;
}

static int undo_mountpoint(const struct undo_journal *j,
			   const struct undo_entry *e, bool dry_run,
			   bool verbose)
{
	const char *dir = e->arg;
	struct stat st;

	(void)j;
	if (lstat(dir, &st) < 0) {
		if (errno != ENOENT)
			return error_errno("cannot stat '%s'", dir);
		if (verbose)
			printf("%s is already gone\n", dir);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return error("'%s' is not a directory any more; leaving it",
			     dir);
	if (dry_run) {
		printf("would remove mount point %s\n", dir);
		return 1;
	}
	if (mount_is_mountpoint(dir))
		return error("cannot remove '%s': still mounted", dir);
	if (rmdir(dir) < 0) {
		if (errno == ENOTEMPTY || errno == EEXIST)
			return error("cannot remove '%s': not empty, and fslab "
				     "only removes what it created", dir);
		return error_errno("cannot remove '%s'", dir);
	}
	printf("removed mount point %s\n", dir);
	return 1;
}

static int undo_wldir(const struct undo_journal *j, const struct undo_entry *e,
		      bool dry_run, bool verbose)
{
	struct stat st;
	int fd, ret;

	(void)j;
	if (!strstr(strrchr(e->arg, '/'), WLDIR_MARK))
		return error("not removing '%s': not named like a workload "
			     "directory of fslab's", e->arg);
	fd = open(e->arg, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			return error_errno("cannot open '%s'", e->arg);
		if (verbose)
			printf("%s is already gone\n", e->arg);
		return 0;
	}
	/* replay.c compared the name's inode; compare what we opened. */
	if (fstat(fd, &st) < 0 || !e->have_ident ||
	    (unsigned long long)st.st_dev != e->dev ||
	    (unsigned long long)st.st_ino != e->ino) {
		close(fd);
		return error("not removing '%s': not the directory fslab "
			     "created", e->arg);
	}
	if (dry_run) {
		close(fd);
		printf("would remove workload directory %s\n", e->arg);
		return 1;
	}
	ret = wldir_remove(e->arg, fd, false);
	close(fd);
	if (ret < 0)
		return -1;
	printf("removed workload directory %s\n", e->arg);
	return 1;
}

static const struct undo_handler handlers[] = {
	{ "mount", "mount on", UNDO_IN_SCRATCH, NULL, ".mnt", undo_mount,
	  NULL },
	{ "loop", "loop device for", UNDO_IN_SCRATCH, NULL, ".img", undo_loop,
	  kept_loop },
	{ "image", "image", UNDO_IN_SCRATCH | UNDO_IDENT, NULL, ".img",
	  undo_image, NULL },
	{ "mountpoint", "mount point", UNDO_IN_SCRATCH | UNDO_IDENT, NULL,
	  ".mnt", undo_mountpoint, NULL },
	{ "wldir", "workload directory", UNDO_IDENT, NULL, NULL, undo_wldir,
	  NULL },
};

void fs_register_undo(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(handlers); i++)
		state_register_undo(&handlers[i]);
}
