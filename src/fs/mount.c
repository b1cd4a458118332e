/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mount.c - thin wrappers over libmount: mount and unmount with a
 * context (so errors come back as libmount's own explanations), and the
 * few mountinfo questions fslab asks (is this a mount point, with which
 * effective options, which mount holds this path, is this device used).
 */
#include <errno.h>
#include <libmount.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fs/mount.h"
#include "util/util.h"

static struct libmnt_table *mountinfo(void)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_cache *cache;

	if (!tb) {
		error("cannot read '/proc/self/mountinfo'");
		return NULL;
	}
	/* A cache makes lookups compare canonical paths, not spellings. */
	cache = mnt_new_cache();
	if (cache) {
		mnt_table_set_cache(tb, cache);
		mnt_unref_cache(cache);
	}
	return tb;
}

int mount_fs(const char *source, const char *target, const char *fstype,
	     const char *options)
{
	struct libmnt_context *cxt = mnt_new_context();
	char *opts;
	char msg[512];
	int rc, ret = 0;

	if (!cxt)
		return error("cannot mount '%s': out of memory", source);
	opts = options && *options ? xasprintf("nosuid,nodev,%s", options)
				   : xstrdup("nosuid,nodev");
	/* mount.<fs> helpers would make behaviour depend on the host. */
	mnt_context_disable_helpers(cxt, 1);
	mnt_context_set_source(cxt, source);
	mnt_context_set_target(cxt, target);
	mnt_context_set_fstype(cxt, fstype);
	mnt_context_set_options(cxt, opts);
	rc = mnt_context_mount(cxt);
	if (mnt_context_get_excode(cxt, rc, msg, sizeof(msg)) !=
	    MNT_EX_SUCCESS) {
		ret = error("cannot mount '%s' on '%s' (%s, options '%s'): %s",
			    source, target, fstype, opts,
			    *msg ? msg : "unknown error");
	}
	free(opts);
	mnt_free_context(cxt);
	return ret;
}

int mount_umount(const char *target, bool lazy)
{
	struct libmnt_context *cxt = mnt_new_context();
	int rc, err = 0;

	if (!cxt) {
		errno = ENOMEM;
		return -1;
	}
	mnt_context_disable_helpers(cxt, 1);
	mnt_context_set_target(cxt, target);
	if (lazy)
		mnt_context_enable_lazy(cxt, 1);
	rc = mnt_context_umount(cxt);
	if (rc) {
		if (mnt_context_syscall_called(cxt))
			err = mnt_context_get_syscall_errno(cxt);
		else
			err = rc < 0 ? -rc : EINVAL;
		if (!err)
			err = EINVAL;
	}
	mnt_free_context(cxt);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

bool mount_is_mountpoint(const char *target)
{
	struct libmnt_table *tb = mountinfo();
	bool found;

	if (!tb)
		return false;
	found = mnt_table_find_target(tb, target, MNT_ITER_BACKWARD) != NULL;
	mnt_unref_table(tb);
	return found;
}

char *mount_options(const char *target)
{
	struct libmnt_table *tb = mountinfo();
	struct libmnt_fs *fs;
	char *opts = NULL;

	if (!tb)
		return NULL;
	fs = mnt_table_find_target(tb, target, MNT_ITER_BACKWARD);
	if (fs) {
		char *s = mnt_fs_strdup_options(fs);

		/* Ours must be freeable with free() like any xstrdup. */
		if (s)
			opts = xstrdup(s);
		free(s);
	}
	mnt_unref_table(tb);
	return opts;
}

int mount_find_containing(const char *path, char **fstype, char **options,
			  dev_t *devno)
{
	struct libmnt_table *tb = mountinfo();
	struct libmnt_fs *fs;

	if (!tb)
		return -1;
	fs = mnt_table_find_mountpoint(tb, path, MNT_ITER_BACKWARD);
	if (!fs) {
		mnt_unref_table(tb);
		return -1;
	}
	if (fstype)
		*fstype = mnt_fs_get_fstype(fs) ?
			  xstrdup(mnt_fs_get_fstype(fs)) : NULL;
	if (options) {
		char *o = mnt_fs_strdup_options(fs);

		*options = o ? xstrdup(o) : NULL;
		free(o);
	}
	if (devno)
		*devno = mnt_fs_get_devno(fs);
	mnt_unref_table(tb);
	return 0;
}

static bool devno_in(dev_t d, const dev_t *devnos, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (devnos[i] == d)
			return true;
	return false;
}

char *mount_find_devno(const dev_t *devnos, size_t nr)
{
	struct libmnt_table *tb = mountinfo();
	struct libmnt_iter *itr;
	struct libmnt_fs *fs;
	char *where = NULL;

	if (!tb)
		return NULL;
	itr = mnt_new_iter(MNT_ITER_FORWARD);
	while (itr && !where && mnt_table_next_fs(tb, itr, &fs) == 0) {
		const char *src = mnt_fs_get_srcpath(fs);
		struct stat st;
		bool hit = devno_in(mnt_fs_get_devno(fs), devnos, nr);

		if (!hit && src && !strncmp(src, "/dev/", 5) &&
		    !stat(src, &st) && S_ISBLK(st.st_mode))
			hit = devno_in(st.st_rdev, devnos, nr);
		if (hit)
			where = xstrdup(mnt_fs_get_target(fs) ?
					mnt_fs_get_target(fs) : "?");
	}
	mnt_free_iter(itr);
	mnt_unref_table(tb);
	return where;
}
