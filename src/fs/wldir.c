/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wldir.c - see wldir.h.  The walk holds an fd for every directory on its
 * way down and opens each child with O_NOFOLLOW relative to it, so a
 * directory swapped for a symlink mid-walk is met as a symlink (unlinked,
 * not followed); a child on another filesystem (a mount someone made) is
 * left alone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/state.h"
#include "fs/wldir.h"
#include "util/util.h"

/* Deeper than any tree a workload builds; a bound on fds held. */
#define WLDIR_MAX_DEPTH 256

unsigned long long wldir_nonce(void)
{
	unsigned long long n = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		n = realtime_ns() ^ ((unsigned long long)getpid() << 32);
	if (fd >= 0)
		close(fd);
	return n;
}

int wldir_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		error_errno("cannot open '%s'", path);
	return fd;
}

char *wldir_create(const char *parent, const char *stem, const char *tag,
		   bool journal, int *fdp)
{
	char *name, *path;
	struct stat st;
	int pfd, fd;

	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0) {
		error_errno("cannot open '%s'", parent);
		return NULL;
	}
	name = xasprintf("%s%s%s", stem, WLDIR_MARK, tag);
	path = path_join(parent, name);
	if (journal && state_record("wldir", path) < 0)
		goto fail;
	if (mkdirat(pfd, name, 0755) < 0) {
		error_errno("cannot create '%s'%s", path, errno == EEXIST ?
			    " (fslab never works in a directory it did not "
			    "create)" : "");
		if (journal)
			state_done("wldir", path);
		goto fail;
	}
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		error_errno("cannot open '%s'", path);
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	if (journal && state_ident("wldir", (unsigned long long)st.st_dev,
				   (unsigned long long)st.st_ino, path) < 0) {
		close(fd);
		goto fail;
	}
	close(pfd);
	free(name);
	*fdp = fd;
	return path;
fail:
	close(pfd);
	free(name);
	free(path);
	return NULL;
}

static int empty_at(int fd, const char *path, dev_t dev, int depth)
{
	DIR *d;
	struct dirent *de;
	int ret = 0, dfd = dup(fd);

	if (dfd < 0)
		return error_errno("cannot walk '%s'", path);
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return error_errno("cannot walk '%s'", path);
	}
	while ((de = readdir(d))) {
		struct stat st;
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno == ENOENT)
				continue;
			ret = error_errno("cannot stat '%s/%s'", path,
					  de->d_name);
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (unlinkat(fd, de->d_name, 0) < 0 && errno != ENOENT)
				ret = error_errno("cannot remove '%s/%s'", path,
						  de->d_name);
			continue;
		}
		if (st.st_dev != dev) {
			ret = error("not removing '%s/%s': another filesystem "
				    "is mounted there", path, de->d_name);
			continue;
		}
		if (depth >= WLDIR_MAX_DEPTH) {
			ret = error("not removing '%s/%s': deeper than %d "
				    "levels", path, de->d_name,
				    WLDIR_MAX_DEPTH);
			continue;
		}
		sub = openat(fd, de->d_name, O_RDONLY | O_DIRECTORY |
			     O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			if (errno != ENOENT)
				ret = error_errno("cannot open '%s/%s'", path,
						  de->d_name);
			continue;
		}
		{
			char *p = path_join(path, de->d_name);
			struct stat sst;

			/* Opened what we stat'ed, not a swapped-in mount. */
			if (fstat(sub, &sst) < 0 || sst.st_dev != dev ||
			    sst.st_ino != st.st_ino)
				ret = error("not removing '%s': it changed "
					    "while fslab removed it", p);
			else if (empty_at(sub, p, dev, depth + 1) < 0)
				ret = -1;
			else if (unlinkat(fd, de->d_name, AT_REMOVEDIR) < 0 &&
				 errno != ENOENT)
				ret = error_errno("cannot remove '%s'", p);
			free(p);
		}
		close(sub);
	}
	closedir(d);
	return ret;
}

/* Remove everything beneath the directory fd (not fd itself).  0 or -1. */
static int wldir_empty(int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return error_errno("cannot stat '%s'", path);
	return empty_at(fd, path, st.st_dev, 0);
}

int wldir_remove(const char *path, int fd, bool journal)
{
	const char *slash = strrchr(path, '/');
	struct stat st, pst;
	char *parent;
	int pfd, ret;

	if (wldir_empty(fd, path) < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		return error_errno("cannot stat '%s'", path);
	parent = slash && slash != path ? xstrndup(path, (size_t)(slash - path))
					: xstrdup("/");
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(parent);
	if (pfd < 0)
		return error_errno("cannot open the parent of '%s'", path);
	ret = 0;
	if (fstatat(pfd, slash ? slash + 1 : path, &pst,
		    AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			ret = error_errno("cannot stat '%s'", path);
	} else if (pst.st_dev != st.st_dev || pst.st_ino != st.st_ino) {
		ret = error("not removing '%s': the name leads elsewhere now",
			    path);
	} else if (unlinkat(pfd, slash ? slash + 1 : path, AT_REMOVEDIR) < 0 &&
		   errno != ENOENT) {
		ret = error_errno("cannot remove '%s'", path);
	}
	close(pfd);
	if (!ret && journal)
		state_done("wldir", path);
	return ret;
}
