// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outfile.c - the user's output files, written whole and renamed into
 * place (see outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"
#include "util/util.h"

static void outfile_release(struct outfile *o)
{
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

/* A name that is already a stream (FIFO, device, socket): written in
 * place.  The open must find what lstat/stat saw (no O_CREAT, no
 * O_TRUNC, the same inode), so nothing swapped in between is written. */
static FILE *open_in_place(struct outfile *o, const char *path, int flags,
			   const struct stat *seen)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | flags);
	struct stat st;

	if (fd < 0) {
		error_errno("cannot open '%s'", path);
		return NULL;
	}
	if (fstat(fd, &st) < 0 || st.st_dev != seen->st_dev ||
	    st.st_ino != seen->st_ino) {
		error("'%s' changed while fslab opened it; not written", path);
		close(fd);
		return NULL;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		error_errno("cannot open '%s'", path);
		close(fd);
	}
	return o->f;
}

/* The new file beside o->path, to be renamed over it at commit. */
static FILE *open_beside(struct outfile *o)
{
	mode_t mask;
	int fd;

	o->tmp = xasprintf("%s.tmpXXXXXX", o->path);
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot create a file beside '%s'", o->path);
		return NULL;
	}
	/* mkstemp makes 0600; an output file is as public as any other. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(o->f = fdopen(fd, "w"))) {
		error_errno("cannot create a file beside '%s'", o->path);
		close(fd);
		unlink(o->tmp);
		return NULL;
	}
	return o->f;
}

/* A symbolic link at the name: followed only when fslab's user or root
 * made it; a stream behind it is written in place, a regular file is
 * replaced at the link's resolved name. */
static int foreign_link(const char *path, const struct stat *lst,
			char *why, size_t len)
{
	if (!S_ISLNK(lst->st_mode) || lst->st_uid == geteuid() ||
	    lst->st_uid == 0)
		return 0;
	snprintf(why, len, "'%s' is a symbolic link owned by uid %lu: fslab "
		 "does not write through another user's link; name the file "
		 "itself", path, (unsigned long)lst->st_uid);
	return -1;
}

int outfile_link_refused(const char *path, char *why, size_t len)
{
	struct stat st;

	return strcmp(path, "-") && lstat(path, &st) == 0 ?
	       foreign_link(path, &st, why, len) : 0;
}

static FILE *open_link(struct outfile *o, const char *path,
		       const struct stat *lst)
{
	struct stat st;
	char why[PATH_MAX + 128], *real;

	if (foreign_link(path, lst, why, sizeof(why)) < 0) {
		error("%s", why);
		return NULL;
	}
	if (stat(path, &st) < 0) {
		error_errno("cannot follow the link '%s'", path);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		error("'%s' is a directory: name a file", path);
		return NULL;
	}
	if (!S_ISREG(st.st_mode))
		return open_in_place(o, path, 0, &st);
	real = realpath(path, NULL);
	if (!real) {
		error_errno("cannot follow the link '%s'", path);
		return NULL;
	}
	free(o->path);
	o->path = real;
	return open_beside(o);
}

FILE *outfile_open(struct outfile *o, const char *path)
{
	struct stat st;
	FILE *f = NULL;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return o->f;
	}
	o->path = xstrdup(path);
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			f = open_beside(o);
		else
			error_errno("cannot look at '%s'", path);
	} else if (S_ISLNK(st.st_mode)) {
		f = open_link(o, path, &st);
	} else if (S_ISDIR(st.st_mode)) {
		error("'%s' is a directory: name a file", path);
	} else if (!S_ISREG(st.st_mode)) {
		f = open_in_place(o, path, O_NOFOLLOW, &st);
	} else {
		f = open_beside(o);
	}
	if (!f)
		outfile_release(o);
	return f;
}

int outfile_commit(struct outfile *o)
{
	const char *name = o->path ? o->path : "stdout";
	int rc = 0;

	if (!o->f)
		return -1;
	if (o->f == stdout) {
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = error_errno("cannot write to stdout");
		outfile_release(o);
		return rc;
	}
	if (fflush(o->f) != 0 || ferror(o->f) ||
	    (o->tmp && fsync(fileno(o->f)) < 0))
		rc = error_errno("cannot write '%s'", name);
	if (fclose(o->f) != 0 && !rc)
		rc = error_errno("cannot write '%s'", name);
	o->f = NULL;
	if (o->tmp) {
		if (!rc && rename(o->tmp, o->path) < 0)
			rc = error_errno("cannot put '%s' in place", name);
		if (rc)
			unlink(o->tmp);
	}
	outfile_release(o);
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	else if (o->f)
		fflush(stdout);
	if (o->tmp)
		unlink(o->tmp);
	outfile_release(o);
}

int outfile_finish(struct outfile *o, int ok)
{
	if (ok)
		return outfile_commit(o);
	outfile_abort(o);
	return -1;
}
