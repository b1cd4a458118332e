/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safedir.c - see safedir.h.  The walk opens each component of the
 * canonical path with O_NOFOLLOW relative to its parent, so what is
 * checked is what a later openat() on the returned fd reaches; symlinks
 * in the path as given are allowed only when root (or we) own them in a
 * safe directory, since their owner could re-point them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/safedir.h"
#include "util/util.h"

static bool trusted_uid(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* An ancestor: others may add entries only where sticky protects ours. */
static bool ancestor_ok(const struct stat *st)
{
	return trusted_uid(st->st_uid) &&
	       (!(st->st_mode & (S_IWGRP | S_IWOTH)) ||
		(st->st_mode & S_ISVTX));
}

static int why_ancestor(const char *dir, const struct stat *st, char *why,
			size_t len)
{
	if (!trusted_uid(st->st_uid))
		snprintf(why, len, "'%s' is owned by uid %u, who could swap "
			 "what fslab creates beneath it for symlinks; use a "
			 "directory owned by root", dir, (unsigned)st->st_uid);
	else
		snprintf(why, len, "'%s' is writable by group or others and "
			 "not sticky; run 'chmod go-w %s' or use another "
			 "directory", dir, dir);
	errno = EPERM;
	return -1;
}

/* Symlinks in the path as given: their owner could re-point them. */
static int check_links(const char *path, char *why, size_t len)
{
	char *p = xstrdup(path), *s;
	struct stat st;
	int ret = 0;

	for (s = p + 1; !ret; s++) {
		char c = *s;

		if (c && c != '/')
			continue;
		*s = '\0';
		if (lstat(p, &st) == 0 && S_ISLNK(st.st_mode) &&
		    !trusted_uid(st.st_uid)) {
			snprintf(why, len, "'%s' is a symlink owned by uid %u, "
				 "who could re-point it; name the directory "
				 "it leads to instead", p, (unsigned)st.st_uid);
			errno = EPERM;
			ret = -1;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

/* Walk canon (absolute, canonical) from /; returns the open leaf. */
static int walk(const char *canon, char *why, size_t len)
{
	char *p = xstrdup(canon), *comp, *save = NULL, *sofar;
	struct stat st;
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), next;

	sofar = xstrdup("/");
	for (comp = strtok_r(p, "/", &save); fd >= 0 && comp;
	     comp = strtok_r(NULL, "/", &save)) {
		char *tmp;

		if (fstat(fd, &st) < 0 || !ancestor_ok(&st)) {
			if (!errno || errno == EEXIST)
				errno = EPERM;
			why_ancestor(sofar, &st, why, len);
			close(fd);
			fd = -1;
			break;
		}
		next = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			      O_CLOEXEC);
		tmp = path_join(sofar, comp);
		free(sofar);
		sofar = tmp;
		if (next < 0) {
			snprintf(why, len, "cannot open '%s': %s", sofar,
				 errno == ENOTDIR ? "not a directory (or a "
				 "symlink swapped in)" : strerror(errno));
			close(fd);
			fd = -1;
			break;
		}
		close(fd);
		fd = next;
	}
	if (fd >= 0) {
		if (fstat(fd, &st) < 0) {
			snprintf(why, len, "cannot stat '%s': %s", canon,
				 strerror(errno));
			close(fd);
			fd = -1;
		} else if (st.st_uid != geteuid()) {
			snprintf(why, len, "'%s' is owned by uid %u, not by "
				 "uid %u running fslab, so its owner could "
				 "swap its files for symlinks; remove it "
				 "(fslab creates it) or use a directory of "
				 "your own",
				 canon, (unsigned)st.st_uid,
				 (unsigned)geteuid());
			errno = EPERM;
			close(fd);
			fd = -1;
		} else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
			snprintf(why, len, "'%s' is writable by group or "
				 "others; run 'chmod go-w %s'", canon, canon);
			errno = EPERM;
			close(fd);
			fd = -1;
		}
	}
	free(sofar);
	free(p);
	return fd;
}

static int check_open(const char *path, char **canonp, char *why, size_t len)
{
	char *canon;
	int fd;

	if (*path != '/') {
		char *abs = realpath(path, NULL);

		if (!abs) {
			snprintf(why, len, "cannot resolve '%s': %s", path,
				 strerror(errno));
			return -1;
		}
		if (check_links(abs, why, len) < 0) {
			free(abs);
			return -1;
		}
		canon = abs;
	} else {
		if (check_links(path, why, len) < 0)
			return -1;
		canon = realpath(path, NULL);
		if (!canon) {
			snprintf(why, len, "cannot resolve '%s': %s", path,
				 strerror(errno));
			return -1;
		}
	}
	fd = walk(canon, why, len);
	if (fd < 0 || !canonp)
		free(canon);
	else
		*canonp = canon;
	return fd;
}

int safedir_check(const char *path, char *why, size_t len)
{
	int fd = check_open(path, NULL, why, len);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int safedir_open(const char *path, char **canon, char *why, size_t len)
{
	int fd, dfd;

	if (mkdir_p(path, 0700) < 0) {
		snprintf(why, len, "cannot create '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	fd = check_open(path, canon, why, len);
	if (fd < 0)
		return -1;
	/* O_PATH cannot serve openat(O_CREAT) everywhere: reopen it. */
	dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		snprintf(why, len, "cannot open '%s': %s", path,
			 strerror(errno));
		if (canon) {
			free(*canon);
			*canon = NULL;
		}
	}
	close(fd);
	return dfd;
}

bool safedir_plain_name(const char *name)
{
	return *name && strcmp(name, ".") && strcmp(name, "..") &&
	       !strchr(name, '/');
}
