/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsops.c - compilebench's file operations: write and clean a set
 * of files, walk a tree to read, stat or delete it.
 */
#include "workloads/compilebench/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/treemodel.h"
#include "util/util.h"
#include "util/verify.h"

int cb_op_error(struct cb_run *r, struct op_work *w, const char *what,
		const char *tree, const char *path)
{
	int e = errno;

	if (w->ph)
		phase_fail(w->ph, "cannot %s '%s/%s/%s': %s", what,
			   r->ctx->dir, tree, path, strerror(e));
	return error("cannot %s '%s/%s/%s': %s", what, r->ctx->dir, tree,
		     path, strerror(e));
}

/* os.makedirs(), errors ignored like compilebench (open() reports). */
static void mkdirs_at(int dfd, char *path)
{
	char *slash;

	if (!mkdirat(dfd, path, 0755) || errno != ENOENT)
		return;
	slash = strrchr(path, '/');
	if (!slash)
		return;
	*slash = '\0';
	mkdirs_at(dfd, path);
	*slash = '/';
	mkdirat(dfd, path, 0755);
}

/*
 * --verify file id and name: the path under the workload directory,
 * TREE/PATH (bench_fd is ctx->dir), as the final verify-data pass sees
 * it.
 */
static uint64_t cb_vid(const char *tree, const char *path, char *rel,
		       size_t len)
{
	snprintf(rel, len, "%s/%s", tree, path);
	return verify_file_id(rel);
}

/*
 * Read fd to its end; bytes read added to *total.  With --verify each
 * chunk is checked: -2 on a mismatch (failed and printed, in w's phase).
 */
static int read_all(struct cb_run *r, int fd, uint64_t *total,
		    struct op_work *w, const char *tree, const char *path)
{
	char rel[PATH_MAX];
	uint64_t vid = r->verify ? cb_vid(tree, path, rel, sizeof(rel)) : 0;
	uint64_t off = 0;
	struct verify_bad bad;

	for (;;) {
		ssize_t n = read(fd, r->buf, r->bufsize);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			return 0;
		if (r->verify && !verify_check(r->ctx->seed, vid, off, r->buf,
					       (size_t)n, &bad)) {
			verify_fail(w->ph, rel, &bad);
			return -2;
		}
		off += (uint64_t)n;
		*total += (uint64_t)n;
	}
}

static int cb_open_tree(struct cb_run *r, struct op_work *w, const char *tree,
			bool create)
{
	int fd;

	if (create && mkdirat(r->bench_fd, tree, 0755) && errno != EEXIST)
		return cb_op_error(r, w, "create directory", tree, "");
	fd = openat(r->bench_fd, tree, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return cb_op_error(r, w, "open directory", tree, "");
	return fd;
}

/*
 * run_directory(): write every file of m into tree, creating parent
 * directories on first sight.  A patch (readfirst) reads each file,
 * truncates it and rewrites it through an O_APPEND descriptor.
 */
int cb_write_set(struct cb_run *r, struct op_work *w, const char *tree,
		 const struct treemodel *m, bool unlink_first,
		 bool readfirst)
{
	struct treemodel seen;
	int tfd = cb_open_tree(r, w, tree, true), ret = 0;
	int flags = (readfirst ? O_RDWR : O_WRONLY) | O_APPEND | O_CREAT |
		    O_NOFOLLOW | O_CLOEXEC;
	char dir[PATH_MAX];

	if (tfd < 0)
		return -1;
	phase_expect(w->ph, m->bytes, m->nr, 0);
	treemodel_init(&seen);
	for (size_t i = 0; i < m->nr && !ret; i++) {
		const char *path = m->e[i].path, *slash = strrchr(path, '/');
		uint64_t left = m->e[i].size, rd = 0, off, vid = 0;
		char rel[PATH_MAX];
		struct stat sb;
		int fd;

		if (phase_stop_requested()) {
			w->stopped = true;
			break;
		}
		if (slash && (size_t)(slash - path) < sizeof(dir)) {
			memcpy(dir, path, (size_t)(slash - path));
			dir[slash - path] = '\0';
			if (!treemodel_get(&seen, dir)) {
				char *s;

				mkdirs_at(tfd, dir);
				do {
					treemodel_set(&seen, dir, 0);
					s = strrchr(dir, '/');
					if (s)
						*s = '\0';
				} while (s);
			}
		}
		if (unlink_first && !unlinkat(tfd, path, 0))
			w->ops++;
		fd = openat(tfd, path, flags, 0644);
		if (fd < 0) {
			ret = cb_op_error(r, w, "open", tree, path);
			break;
		}
		if (readfirst) {
			int rc = read_all(r, fd, &rd, w, tree, path);

			if (rc == -2)
				ret = -1;
			else if (rc || ftruncate(fd, 0))
				ret = cb_op_error(r, w, "read and truncate",
						  tree, path);
		}
		/* --verify: O_APPEND writes land at the end as it is now */
		off = 0;
		if (!ret && r->verify) {
			if (fstat(fd, &sb))
				ret = cb_op_error(r, w, "stat", tree, path);
			else
				off = (uint64_t)sb.st_size;
			vid = cb_vid(tree, path, rel, sizeof(rel));
		}
		while (!ret && left) {
			size_t cur = left < r->bufsize ? (size_t)left :
				     r->bufsize;

			if (r->verify)
				verify_fill(r->ctx->seed, vid, off, r->buf, cur);
			if (write_full(fd, r->buf, cur))
				ret = cb_op_error(r, w, "write", tree, path);
			off += cur;
			left -= cur;
		}
		if (close(fd) && !ret)
			ret = cb_op_error(r, w, "close", tree, path);
		w->bytes += m->e[i].size;
		w->files++;
		w->ops++;
		phase_progress(w->ph, m->e[i].size, 1, 0);
	}
	treemodel_release(&seen);
	close(tfd);
	return ret;
}

int cb_clean_set(struct cb_run *r, struct op_work *w, const char *tree,
		 const struct treemodel *m)
{
	int tfd = cb_open_tree(r, w, tree, false), ret = 0;

	if (tfd < 0)
		return -1;
	phase_expect(w->ph, 0, m->nr, 0);
	for (size_t i = 0; i < m->nr; i++) {
		if (phase_stop_requested()) {
			w->stopped = true;
			break;
		}
		if (unlinkat(tfd, m->e[i].path, 0)) {
			ret = cb_op_error(r, w, "unlink", tree, m->e[i].path);
			break;
		}
		w->bytes += m->e[i].size;
		w->files++;
		w->ops++;
		phase_progress(w->ph, 0, 1, 0);
	}
	close(tfd);
	return ret;
}

static void names_release(struct names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
}

/* Append name to w->path; returns the old length to restore. */
static size_t path_push(struct walk *wk, const char *name)
{
	size_t l = strlen(wk->path);

	snprintf(wk->path + l, sizeof(wk->path) - l, "%s%s", l ? "/" : "",
		 name);
	return l;
}

static int walk_file(struct walk *wk, int dfd, const char *name)
{
	struct cb_run *r = wk->r;
	struct op_work *w = wk->w;
	size_t l = path_push(wk, name);
	struct stat sb;
	int fd, ret = 0;

	switch (wk->mode) {
	case WALK_READ:
		fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = cb_op_error(r, w, "read", wk->tree, wk->path);
			break;
		}
		ret = read_all(r, fd, &w->bytes, w, wk->tree, wk->path);
		if (ret == -1)
			ret = cb_op_error(r, w, "read", wk->tree, wk->path);
		else if (ret)
			ret = -1;
		close(fd);
		break;
	case WALK_STAT:
		if (fstatat(dfd, name, &sb, 0))
			ret = cb_op_error(r, w, "stat", wk->tree, wk->path);
		break;
	case WALK_DELETE:
		if (unlinkat(dfd, name, 0))
			ret = cb_op_error(r, w, "unlink", wk->tree, wk->path);
		break;
	case WALK_COLLECT: {
		const struct tm_entry *e = treemodel_get(wk->sizes, wk->path);

		treemodel_set(wk->collect, wk->path, e ? e->size : 0);
		break;
	}
	}
	w->files++;
	w->ops++;
	phase_progress(w->ph, 0, 1, 0);
	wk->path[l] = '\0';
	return ret;
}

/*
 * os.walk(): list a directory once, files and subdirectories apart, in
 * readdir order.  Top-down visits the files, then recurses; bottom-up
 * recurses first, then visits the files and then the subdirectories.
 */
static int walk_dir(struct walk *wk, int dfd)
{
	struct names files = { 0 }, dirs = { 0 };
	bool topdown = wk->mode == WALK_READ || wk->mode == WALK_COLLECT;
	struct dirent *de;
	int ret = 0, fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return cb_op_error(wk->r, wk->w, "open directory", wk->tree,
				   wk->path);
	}
	while ((de = readdir(d))) {
		bool is_dir = de->d_type == DT_DIR;
		struct names *n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat sb;

			is_dir = !fstatat(dfd, de->d_name, &sb,
					  AT_SYMLINK_NOFOLLOW) &&
				 S_ISDIR(sb.st_mode);
		}
		n = is_dir ? &dirs : &files;
		ALLOC_GROW(n->v, n->nr + 1, n->alloc);
		n->v[n->nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	for (size_t i = 0; topdown && i < files.nr && !ret; i++)
		ret = walk_file(wk, dfd, files.v[i]);
	for (size_t i = 0; i < dirs.nr && !ret; i++) {
		size_t l = path_push(wk, dirs.v[i]);
		int sub = openat(dfd, dirs.v[i],
				 O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (sub < 0) {
			ret = cb_op_error(wk->r, wk->w, "open directory",
					  wk->tree, wk->path);
		} else {
			ret = walk_dir(wk, sub);
			close(sub);
		}
		wk->path[l] = '\0';
		if (phase_stop_requested()) {
			wk->w->stopped = true;
			break;
		}
	}
	for (size_t i = 0; !topdown && i < files.nr && !ret; i++)
		ret = walk_file(wk, dfd, files.v[i]);
	for (size_t i = 0; !topdown && i < dirs.nr && !ret &&
	     !wk->w->stopped; i++) {
		size_t l = path_push(wk, dirs.v[i]);
		struct stat sb;

		if (wk->mode == WALK_STAT ? fstatat(dfd, dirs.v[i], &sb, 0) :
		    unlinkat(dfd, dirs.v[i], AT_REMOVEDIR))
			ret = cb_op_error(wk->r, wk->w, wk->mode == WALK_STAT ?
				       "stat" : "remove", wk->tree, wk->path);
		wk->w->ops++;
		wk->path[l] = '\0';
	}
	names_release(&files);
	names_release(&dirs);
	return ret;
}

int cb_walk_tree(struct cb_run *r, struct op_work *w, const char *tree,
		 enum walk_mode mode, struct treemodel *collect,
		 const struct treemodel *sizes)
{
	struct walk wk = {
		.r = r, .w = w, .mode = mode, .tree = tree,
		.collect = collect, .sizes = sizes,
	};
	int tfd = cb_open_tree(r, w, tree, false), ret;

	if (tfd < 0)
		return -1;
	ret = walk_dir(&wk, tfd);
	close(tfd);
	return ret;
}
