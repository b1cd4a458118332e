/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mount.c - thin wrappers over libmount: mount and unmount with a
 * context (so errors come back as libmount's own explanations), and the
 * few mountinfo questions fslab asks (is this a mount point, with which
 * effective options, which mount holds this path, is this device used).
 */
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Mount source on target (options may be NULL).  0 or -1 (printed). */
static int mount_fs(const char *source, const char *target, const char *fstype,
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

/* libmount's userspace-only options: nothing for the kernel. */
static bool userspace_opt(const char *o)
{
	static const char *const skip[] = {
		"defaults", "auto", "noauto", "user", "nouser", "users",
		"owner", "group", "nofail", "_netdev", "rw", "dev", "suid",
		"exec",
	};
	size_t i;

	if (!strncmp(o, "x-", 2) || !strncmp(o, "comment=", 8))
		return true;
	for (i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strcmp(o, skip[i]))
			return true;
	return false;
}

/* Per-mount flags of the new mount API; 0 when o is not one. */
static unsigned mount_attr(const char *o, unsigned *clear)
{
	static const struct {
		const char *name;
		unsigned attr, clear;
	} attrs[] = {
		{ "ro", MOUNT_ATTR_RDONLY, 0 },
		{ "nosuid", MOUNT_ATTR_NOSUID, 0 },
		{ "nodev", MOUNT_ATTR_NODEV, 0 },
		{ "noexec", MOUNT_ATTR_NOEXEC, 0 },
		{ "noatime", MOUNT_ATTR_NOATIME, MOUNT_ATTR__ATIME },
		{ "relatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME },
		{ "strictatime", MOUNT_ATTR_STRICTATIME, MOUNT_ATTR__ATIME },
		{ "atime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME },
		{ "nodiratime", MOUNT_ATTR_NODIRATIME, 0 },
		{ "diratime", 0, MOUNT_ATTR_NODIRATIME },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (!strcmp(o, attrs[i].name)) {
			*clear = attrs[i].clear;
			return attrs[i].attr | (attrs[i].attr ? 0 : 1u << 31);
		}
	*clear = 0;
	return 0;
}

/* The kernel's own words about a failed fsconfig/fsmount. */
static void fs_log(int fsfd, char *msg, size_t len)
{
	char buf[256];
	ssize_t n;
	size_t used = strlen(msg);

	while ((n = read(fsfd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		while (n && buf[n - 1] == '\n')
			buf[--n] = '\0';
		if (used + 3 + (size_t)n < len) {
			snprintf(msg + used, len - used, "%s%s",
				 used ? "; " : "", buf + (n > 2 &&
				 buf[1] == ' ' ? 2 : 0));
			used = strlen(msg);
		}
	}
}

/*
 * Split options at commas outside quotes into kernel sb options
 * (fsconfig) and mount attributes; returns -1 (msg set) on an option
 * that asks for something else than mounting a filesystem.
 */
static int apply_options(int fsfd, const char *opts, unsigned *attr,
			 char *msg, size_t len)
{
	char *copy = xstrdup(opts ? opts : ""), *p = copy, *o;
	int ret = 0;

	while (*p && !ret) {
		char quote = 0, *eq;
		unsigned a, clear;

		o = p;
		for (; *p && (quote || *p != ','); p++)
			if (*p == '"' || *p == '\'')
				quote = quote == *p ? 0 : quote ? quote : *p;
		if (*p)
			*p++ = '\0';
		if (!*o || userspace_opt(o))
			continue;
		if (!strcmp(o, "remount") || !strcmp(o, "bind") ||
		    !strcmp(o, "rbind") || !strcmp(o, "move")) {
			snprintf(msg, len, "option '%s' is not for a new mount",
				 o);
			ret = -1;
			break;
		}
		a = mount_attr(o, &clear);
		if (a || clear) {
			*attr &= ~clear;
			*attr |= a & ~(1u << 31);
			if (strcmp(o, "ro"))
				continue;
		}
		eq = strchr(o, '=');
		if (eq) {
			*eq++ = '\0';
			if (fsconfig(fsfd, FSCONFIG_SET_STRING, o, eq, 0) < 0) {
				snprintf(msg, len, "option '%s=%s': %s", o, eq,
					 strerror(errno));
				fs_log(fsfd, msg, len);
				ret = -1;
			}
		} else if (fsconfig(fsfd, FSCONFIG_SET_FLAG, o, NULL, 0) < 0) {
			snprintf(msg, len, "option '%s': %s", o,
				 strerror(errno));
			fs_log(fsfd, msg, len);
			ret = -1;
		}
	}
	free(copy);
	return ret;
}

/*
 * The new mount API: the filesystem is made and mounted detached, then
 * moved onto the directory fslab holds open, so no name is resolved at
 * mount time.  Returns 1 when the kernel lacks the API.
 */
static int mount_new_api(const char *source, int dirfd, const char *fstype,
			 const char *options, char *msg, size_t len,
			 int *rootfd)
{
	unsigned attr = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
	int fsfd, mfd, ret = -1;

	*msg = '\0';
	fsfd = fsopen(fstype, FSOPEN_CLOEXEC);
	if (fsfd < 0) {
		if (errno == ENOSYS)
			return 1;
		snprintf(msg, len, "%s", errno == ENODEV ?
			 "the kernel does not know this filesystem type" :
			 strerror(errno));
		return -1;
	}
	if (fsconfig(fsfd, FSCONFIG_SET_STRING, "source", source, 0) < 0) {
		snprintf(msg, len, "source: %s", strerror(errno));
		fs_log(fsfd, msg, len);
		goto out;
	}
	if (apply_options(fsfd, options, &attr, msg, len) < 0)
		goto out;
	if (fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		snprintf(msg, len, "%s", strerror(errno));
		fs_log(fsfd, msg, len);
		goto out;
	}
	mfd = fsmount(fsfd, FSMOUNT_CLOEXEC, attr);
	if (mfd < 0) {
		snprintf(msg, len, "fsmount: %s", strerror(errno));
		fs_log(fsfd, msg, len);
		goto out;
	}
	if (move_mount(mfd, "", dirfd, "", MOVE_MOUNT_F_EMPTY_PATH |
		       MOVE_MOUNT_T_EMPTY_PATH) < 0) {
		snprintf(msg, len, "move_mount: %s", strerror(errno));
		close(mfd);
	} else {
		ret = 0;
		*rootfd = mfd;
	}
out:
	close(fsfd);
	return ret;
}

int mount_fs_at(const char *source, int dirfd, const char *target,
		const char *fstype, const char *options, int *rootfd)
{
	struct stat fst, lst;
	char msg[512];
	int rc;

	*rootfd = -1;
	rc = mount_new_api(source, dirfd, fstype, options, msg, sizeof(msg),
			   rootfd);

	if (rc <= 0) {
		if (rc < 0)
			return error("cannot mount '%s' on '%s' (%s, options "
				     "'nosuid,nodev%s%s'): %s", source, target,
				     fstype, options && *options ? "," : "",
				     options ? options : "", msg);
		return 0;
	}
	/* An old kernel: mount by name, right after checking the name
	 * still leads to the directory we created. */
	if (fstat(dirfd, &fst) < 0 || lstat(target, &lst) < 0 ||
	    fst.st_dev != lst.st_dev || fst.st_ino != lst.st_ino ||
	    !S_ISDIR(lst.st_mode))
		return error("cannot mount on '%s': it is not the directory "
			     "fslab created any more", target);
	return mount_fs(source, target, fstype, options);
}

bool mount_name_is_root(const char *target, int rootfd)
{
	struct stat want, got;
	int fd;
	bool same;

	if (rootfd < 0)
		return true; /* an old kernel: mounted by name, checked then */
	fd = open(target, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	same = fd >= 0 && !fstat(fd, &got) && !fstat(rootfd, &want) &&
	       got.st_dev == want.st_dev && got.st_ino == want.st_ino;
	if (fd >= 0)
		close(fd);
	return same;
}

int mount_umount_at(const char *target, int *rootfd, bool lazy)
{
	char *self;
	int rc;

	if (*rootfd < 0)
		return mount_umount(target, lazy);
	/* Is the name still our mount's root?  Then unmount by name. */
	if (mount_name_is_root(target, *rootfd)) {
		/* Our own reference would keep it busy. */
		close(*rootfd);
		*rootfd = -1;
		rc = mount_umount(target, lazy);
		if (rc < 0) {
			int e = errno;

			/* Retry later through the name, checked again. */
			*rootfd = open(target, O_PATH | O_DIRECTORY |
				       O_NOFOLLOW | O_CLOEXEC);
			errno = e;
		}
		return rc;
	}
	/* The name leads elsewhere now: detach the mount we hold. */
	self = xasprintf("/proc/self/fd/%d", *rootfd);
	rc = umount2(self, MNT_DETACH);
	free(self);
	if (rc == 0) {
		close(*rootfd);
		*rootfd = -1;
	}
	return rc;
}

int mount_source_devno(const char *target, dev_t *devno)
{
	struct libmnt_table *tb = mountinfo();
	struct libmnt_fs *fs;
	int ret = -1;

	if (!tb)
		return -1;
	fs = mnt_table_find_target(tb, target, MNT_ITER_BACKWARD);
	if (fs) {
		*devno = mnt_fs_get_devno(fs);
		ret = 0;
	}
	mnt_unref_table(tb);
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
