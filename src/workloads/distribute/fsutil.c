/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsutil.c - distribute's directory tree: create, open, remove.
 */
#include "workloads/distribute/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- directories ---- */

/* rm -rf of name inside dfd; ENOENT is success. */
int dist_rmtree_at(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	struct dirent *de;
	int ret = 0;
	DIR *d;

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno == ENOTDIR || errno == ELOOP)
			return unlinkat(dfd, name, 0);
		return -1;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN)
			ret = dist_rmtree_at(fd, de->d_name);
		else
			ret = unlinkat(fd, de->d_name, 0);
	}
	closedir(d);
	if (!ret && unlinkat(dfd, name, AT_REMOVEDIR) && errno != ENOENT)
		ret = -1;
	return ret;
}

static int mkdir_open(int dfd, const char *name)
{
	if (mkdirat(dfd, name, 0755) && errno != EEXIST)
		return -1;
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

int dist_setup_dirs(struct dist_run *r)
{
	int top, base = open(r->ctx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char name[32];

	if (base < 0)
		return error_errno("cannot open '%s'", r->ctx->dir);
	if (dist_rmtree_at(base, TOPDIR)) {
		error_errno("cannot remove '%s/%s'", r->ctx->dir, TOPDIR);
		close(base);
		return -1;
	}
	top = mkdir_open(base, TOPDIR);
	close(base);
	if (top < 0)
		return error_errno("cannot create '%s/%s'", r->ctx->dir,
				   TOPDIR);
	for (unsigned i = 0; i < r->ninst; i++) {
		struct dist_inst *in = &r->inst[i];

		snprintf(name, sizeof(name), "i%u", i);
		if ((in->dir_fd = mkdir_open(top, name)) < 0 ||
		    (in->pool_fd = mkdir_open(in->dir_fd, "pool")) < 0 ||
		    (in->out_fd = mkdir_open(in->dir_fd, "out")) < 0)
			goto fail;
		for (unsigned s = 0; s < r->nsrc; s++) {
			snprintf(name, sizeof(name), "s%u", s);
			if ((in->src_fd[s] = mkdir_open(in->dir_fd,
							name)) < 0)
				goto fail;
		}
		for (unsigned d = 0; d < r->fanout; d++) {
			snprintf(name, sizeof(name), "d%u", d);
			if ((in->dst_fd[d] = mkdir_open(in->dir_fd,
							name)) < 0)
				goto fail;
		}
	}
	close(top);
	return 0;
fail:
	error_errno("cannot create '%s/%s/i.../%s'", r->ctx->dir, TOPDIR,
		    name);
	close(top);
	return -1;
}

void dist_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}
