/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkdev.c - the safety checks before fslab formats a device the user
 * named.  A wrong dev: spec destroys someone's data, so every check that
 * could find a user (mounts, swap, holders, exclusive openers, any
 * signature libblkid knows) runs before a single byte is written, and a
 * refusal names exactly what was found and how to override it.
 */
#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fs/blkdev.h"
#include "fs/mount.h"
#include "util/util.h"

struct devset {
	dev_t *devno;
	char **sys;   /* /sys/dev/block/M:m directory of each */
	size_t nr, alloc, sys_alloc;
};

static void devset_add(struct devset *s, dev_t d, const char *sys)
{
	ALLOC_GROW(s->devno, s->nr + 1, s->alloc);
	ALLOC_GROW(s->sys, s->nr + 1, s->sys_alloc);
	s->devno[s->nr] = d;
	s->sys[s->nr] = xstrdup(sys);
	s->nr++;
}

static void devset_release(struct devset *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->sys[i]);
	free(s->sys);
	free(s->devno);
}

static char *sysfs_dir(dev_t d)
{
	char *link = xasprintf("/sys/dev/block/%u:%u", major(d), minor(d));
	char *real = realpath(link, NULL);

	free(link);
	return real;
}

/* The device and its partitions, from sysfs. */
static void collect_devs(dev_t d, struct devset *s)
{
	char *dir = sysfs_dir(d);
	struct dirent *de;
	DIR *dp;

	if (!dir) {
		devset_add(s, d, "");
		return;
	}
	devset_add(s, d, dir);
	dp = opendir(dir);
	while (dp && (de = readdir(dp))) {
		char *part = xasprintf("%s/%s/partition", dir, de->d_name);
		char *devf = xasprintf("%s/%s/dev", dir, de->d_name);
		char *txt = NULL;
		unsigned ma, mi;

		if (de->d_name[0] != '.' && !access(part, F_OK) &&
		    (txt = read_file(devf, NULL)) &&
		    sscanf(txt, "%u:%u", &ma, &mi) == 2) {
			char *pdir = xasprintf("%s/%s", dir, de->d_name);

			devset_add(s, makedev(ma, mi), pdir);
			free(pdir);
		}
		free(txt);
		free(part);
		free(devf);
	}
	if (dp)
		closedir(dp);
	free(dir);
}

static char *first_holder(const char *sysdir)
{
	char *hdir, *name = NULL;
	struct dirent *de;
	DIR *dp;

	if (!*sysdir)
		return NULL;
	hdir = xasprintf("%s/holders", sysdir);
	dp = opendir(hdir);
	while (dp && !name && (de = readdir(dp)))
		if (de->d_name[0] != '.')
			name = xstrdup(de->d_name);
	if (dp)
		closedir(dp);
	free(hdir);
	return name;
}

static char *swap_user(const struct devset *s)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	char *hit = NULL;
	size_t i;

	if (tb && itr && mnt_table_parse_swaps(tb, NULL) == 0) {
		while (!hit && mnt_table_next_fs(tb, itr, &fs) == 0) {
			const char *src = mnt_fs_get_srcpath(fs);
			struct stat st;

			if (!src || stat(src, &st) || !S_ISBLK(st.st_mode))
				continue;
			for (i = 0; i < s->nr; i++)
				if (s->devno[i] == st.st_rdev)
					hit = xstrdup(src);
		}
	}
	mnt_free_iter(itr);
	mnt_unref_table(tb);
	return hit;
}

static const char *article(const char *word)
{
	return strchr("aeioxAEIOX", word[0]) ? "an" : "a";
}

/* Describe every signature libblkid sees; NULL when there is none. */
static char *signatures(const char *dev)
{
	blkid_probe pr = blkid_new_probe_from_filename(dev);
	char *desc = NULL;

	if (!pr)
		return NULL;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_UUID |
					  BLKID_SUBLKS_USAGE |
					  BLKID_SUBLKS_MAGIC |
					  BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	while (blkid_do_probe(pr) == 0) {
		const char *type = NULL, *uuid = NULL, *usage = NULL;
		char *one, *joined;

		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
			blkid_probe_lookup_value(pr, "UUID", &uuid, NULL);
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			one = xasprintf("%s %s %s%s%s%s", article(type), type,
					usage && !strcmp(usage, "filesystem") ?
					"filesystem" : "signature",
					uuid ? " (UUID " : "", uuid ? uuid : "",
					uuid ? ")" : "");
		} else if (!blkid_probe_lookup_value(pr, "PTTYPE", &type,
						     NULL)) {
			one = xasprintf("%s %s partition table", article(type),
					type);
		} else {
			continue;
		}
		joined = desc ? xasprintf("%s and %s", desc, one) : one;
		if (desc) {
			free(desc);
			free(one);
		}
		desc = joined;
	}
	blkid_free_probe(pr);
	return desc;
}

static bool same_device(const char *path, dev_t rdev)
{
	struct stat st;

	return path && !stat(path, &st) && S_ISBLK(st.st_mode) &&
	       st.st_rdev == rdev;
}

/* verb: what is refused ("format"); read_only: signatures are fine. */
static int check_dev(const char *dev, const char *destroy_data,
		     const char *verb, bool read_only)
{
	struct devset s = { 0 };
	struct stat st;
	char *what = NULL;
	size_t i;
	int fd, ret = -2;

	if (stat(dev, &st) < 0) {
		error_errno("cannot use '%s'", dev);
		return -2;
	}
	if (!S_ISBLK(st.st_mode)) {
		error("refusing to %s '%s': not a block device", verb, dev);
		return -2;
	}
	collect_devs(st.st_rdev, &s);

	what = mount_find_devno(s.devno, s.nr);
	if (what) {
		error("refusing to %s '%s': it %s mounted on '%s'", verb, dev,
		      s.nr > 1 ? "or one of its partitions is" : "is", what);
		goto out;
	}
	what = swap_user(&s);
	if (what) {
		error("refusing to %s '%s': '%s' is in use as swap", verb,
		      dev, what);
		goto out;
	}
	for (i = 0; i < s.nr && !what; i++)
		if ((what = first_holder(s.sys[i])))
			error("refusing to %s '%s': it is held by '%s' "
			      "(LVM, md or device-mapper)", verb, dev, what);
	if (what)
		goto out;

	fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EBUSY)
			error("refusing to %s '%s': another program has it "
			      "open exclusively", verb, dev);
		else
			error_errno("cannot open '%s'", dev);
		goto out;
	}
	close(fd);
	if (read_only) {
		ret = 0;
		goto out;
	}

	what = signatures(dev);
	if (what && !same_device(destroy_data, st.st_rdev)) {
		if (destroy_data)
			error("refusing to format '%s': it holds %s, and "
			      "--destroy-data names '%s', not this device",
			      dev, what, destroy_data);
		else
			error("refusing to format '%s': it holds %s; pass "
			      "--destroy-data=%s to destroy it", dev, what,
			      dev);
		goto out;
	}
	if (what)
		warning("destroying %s on '%s' as --destroy-data asked", what,
			dev);
	ret = 0;
out:
	free(what);
	devset_release(&s);
	return ret;
}

int blkdev_check(const char *dev, const char *destroy_data)
{
	return check_dev(dev, destroy_data, "format", false);
}

int blkdev_check_unused(const char *dev, const char *verb)
{
	return check_dev(dev, NULL, verb, true);
}

int blkdev_size(const char *dev, uint64_t *size)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return error_errno("cannot open '%s'", dev);
	if (ioctl(fd, BLKGETSIZE64, size) < 0)
		ret = error_errno("cannot get the size of '%s'", dev);
	close(fd);
	return ret;
}

char *blkdev_sysname(dev_t devno)
{
	char *dir, *name, *stat_path;

	if (!major(devno))
		return NULL;
	dir = sysfs_dir(devno);
	if (!dir)
		return NULL;
	name = xstrdup(strrchr(dir, '/') + 1);
	free(dir);
	stat_path = xasprintf("/sys/class/block/%s/stat", name);
	if (access(stat_path, R_OK)) {
		free(name);
		name = NULL;
	}
	free(stat_path);
	return name;
}

char *blkdev_uuid(const char *dev)
{
	blkid_probe pr = blkid_new_probe_from_filename(dev);
	const char *uuid;
	char *ret = NULL;

	if (!pr)
		return NULL;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_UUID);
	if (blkid_do_safeprobe(pr) == 0 &&
	    !blkid_probe_lookup_value(pr, "UUID", &uuid, NULL))
		ret = xstrdup(uuid);
	blkid_free_probe(pr);
	return ret;
}
