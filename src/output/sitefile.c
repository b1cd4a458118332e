// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sitefile.c - the files of `fslab site` (see site.h): its directory,
 * opened once and refused unless fslab made it, and each page written
 * through that fd only when its bytes changed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/site.h"
#include "output/site_internal.h"
#include "util/util.h"

static const char marker_text[] =
	"made by fslab site: it may rewrite or remove any page here\n";

/* Is the directory dfd is open on empty? */
static int dir_empty(int dfd, bool *empty)
{
	DIR *d = opendir_at(dfd);
	struct dirent *de;

	if (!d)
		return -1;
	*empty = true;
	while ((errno = 0, de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			*empty = false;
	closedir(d);
	return errno ? -1 : 0;
}

int site_dir_open(const char *dir)
{
	struct stat sb;
	bool empty;
	int dfd, fd;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return error_errno("cannot create '%s'", dir);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return error_errno("cannot open the directory '%s'", dir);
	fd = openat(dfd, SITE_MARKER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK);
	if (fd >= 0) {
		int bad = fstat(fd, &sb) || !S_ISREG(sb.st_mode);

		close(fd);
		if (!bad)
			return dfd;
	}
	if (fd < 0 && errno == ENOENT && !dir_empty(dfd, &empty) && empty) {
		if (!site_put(dfd, SITE_MARKER, marker_text,
			      strlen(marker_text), NULL))
			return dfd;
		close(dfd);
		return -1;
	}
	close(dfd);
	return error("'%s' exists and was not made by fslab site (no plain "
		     "file %s in it): name a new or empty directory", dir,
		     SITE_MARKER);
}

/* Does the file name in dfd hold exactly buf[0..len)? */
static bool same_bytes(int dfd, const char *name, const char *buf,
		       size_t len)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
			O_NONBLOCK);
	struct stat sb;
	bool same = false;
	char *old;

	if (fd < 0)
		return false;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_nlink == 1 &&
	    (size_t)sb.st_size == len) {
		old = xmalloc(len + 1);
		same = read_full(fd, old, len + 1) == (ssize_t)len &&
		       !memcmp(old, buf, len);
		free(old);
	}
	close(fd);
	return same;
}

int site_put(int dfd, const char *name, const char *buf, size_t len,
	     bool *written)
{
	char *tmp;
	int fd;

	if (same_bytes(dfd, name, buf, len)) {
		if (written)
			*written = false;
		return 0;
	}
	/* A new file renamed over the name: a planted link is replaced. */
	tmp = xasprintf(".%s.tmp", name);
	unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd < 0) {
		error_errno("cannot create '%s'", tmp);
		free(tmp);
		return -1;
	}
	if (write_full(fd, buf, len) || close(fd)) {
		error_errno("cannot write '%s'", tmp);
		unlinkat(dfd, tmp, 0);
		free(tmp);
		return -1;
	}
	if (renameat(dfd, tmp, dfd, name)) {
		error_errno("cannot rename '%s' to '%s'", tmp, name);
		unlinkat(dfd, tmp, 0);
		free(tmp);
		return -1;
	}
	free(tmp);
	if (written)
		*written = true;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int site_prune(int dfd, char **keep, size_t nkeep, size_t *removed)
{
	DIR *d = opendir_at(dfd);
	struct dirent *de;
	size_t l;
	char *name;

	if (!d)
		return error_errno("cannot read the site directory");
	qsort(keep, nkeep, sizeof(*keep), cmp_str);
	while ((errno = 0, de = readdir(d))) {
		l = strlen(de->d_name);
		name = de->d_name;
		/* Only pages this command writes: *.html and no other. */
		if (l < 6 || strcmp(name + l - 5, ".html") || name[0] == '.')
			continue;
		if (bsearch(&name, keep, nkeep, sizeof(*keep), cmp_str))
			continue;
		if (!unlinkat(dfd, name, 0))
			(*removed)++;
	}
	closedir(d);
	return 0;
}
