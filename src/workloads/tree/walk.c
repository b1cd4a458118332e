/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walk.c - tree's walks: list directories, read batches of files
 * from one or several threads, walk in readdir/inode/disk order.
 */
#include "workloads/tree/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/target.h"
#include "measure/measure.h"
#include "model/tarball.h"
#include "model/treemodel.h"
#include "util/util.h"

/* ---- walking ---- */

static void ents_release(struct ents *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i].name);
	free(l->v);
}

static int cmp_ent_ino(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* One directory's entries, read in full before any is used (fts does
 * the same), sorted by inode for TREE_INODE like spd_readdir. */
static int list_dir(struct tree_run *r, int dfd, const char *path,
		    enum tree_order order, struct ents *out)
{
	/* not dup(): a dup shares the offset, and the root is walked again */
	DIR *d = opendir_at(dfd);
	struct dirent *de;

	if (!d)
		return tree_run_fail_errno(r, "open directory", path);
	while ((errno = 0, de = readdir(d))) {
		bool is_dir = de->d_type == DT_DIR;
		bool is_reg = de->d_type == DT_REG;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat sb;

			if (!fstatat(dfd, de->d_name, &sb,
				     AT_SYMLINK_NOFOLLOW)) {
				is_dir = S_ISDIR(sb.st_mode);
				is_reg = S_ISREG(sb.st_mode);
			}
		}
		ALLOC_GROW(out->v, out->nr + 1, out->alloc);
		out->v[out->nr].name = xstrdup(de->d_name);
		out->v[out->nr].ino = de->d_ino;
		out->v[out->nr].dir = is_dir;
		out->v[out->nr].reg = is_reg;
		out->nr++;
	}
	if (errno) {
		closedir(d);
		return tree_run_fail_errno(r, "read directory", path);
	}
	closedir(d);
	if (order == TREE_INODE)
		qsort(out->v, out->nr, sizeof(*out->v), cmp_ent_ino);
	return 0;
}

/* walk.c */
static void tree_file_list_clear(struct file_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i].path);
	l->nr = 0;
}

void tree_file_list_release(struct file_list *l)
{
	tree_file_list_clear(l);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static void file_list_add(struct file_list *l, const char *path,
			  uint64_t ino)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].path = xstrdup(path);
	l->v[l->nr].ino = ino;
	l->v[l->nr].phys = 0;
	l->nr++;
}

/* ---- reading: one batch of files, by one or several threads ---- */

static int read_one(struct reader *rd, const char *path)
{
	int fd = openat(rd->r->root, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, rd->buf, rd->r->bufsize);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = errno;

			close(fd);
			errno = e;
			return n < 0 ? -1 : 0;
		}
		rd->bytes += (uint64_t)n;
	}
}

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	struct tree_run *r = rd->r;

	if (!rd->start_ns)
		rd->start_ns = realtime_ns();
	for (;;) {
		size_t i = __atomic_fetch_add(rd->next, 1, __ATOMIC_RELAXED);

		if (i >= rd->files->nr || phase_stop_requested() ||
		    __atomic_load_n(&r->failed, __ATOMIC_RELAXED))
			break;
		if (read_one(rd, rd->files->v[i].path)) {
			pthread_mutex_lock(rd->lock);
			tree_run_fail_errno(r, "read", rd->files->v[i].path);
			pthread_mutex_unlock(rd->lock);
			break;
		}
		rd->files_done++;
	}
	rd->end_ns = realtime_ns();
	return NULL;
}

int tree_read_batch(struct tree_run *r, struct read_state *rs,
		    const struct file_list *files)
{
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_t tid[256];
	size_t next = 0, started = 0;

	for (size_t i = 0; i < rs->nr; i++) {
		rs->rd[i].files = files;
		rs->rd[i].next = &next;
		rs->rd[i].lock = &lock;
	}
	if (rs->nr == 1) {
		reader_main(&rs->rd[0]);
	} else {
		for (; started < rs->nr; started++) {
			if (pthread_create(&tid[started], NULL, reader_main,
					   &rs->rd[started])) {
				tree_run_fail(r, "cannot start a reader "
					      "thread");
				break;
			}
		}
		for (size_t i = 0; i < started; i++)
			pthread_join(tid[i], NULL);
	}
	if (phase_stop_requested())
		r->stopped = true;
	return r->failed ? -1 : 0;
}

/* ---- the walk for reading, stat'ing and deleting ---- */

static size_t path_push(struct walk *w, const char *name)
{
	size_t l = strlen(w->path);

	snprintf(w->path + l, sizeof(w->path) - l, "%s%s", l ? "/" : "",
		 name);
	return l;
}

int tree_walk_dir(struct walk *w, int dfd)
{
	struct tree_run *r = w->r;
	struct ents l = { 0 };
	int ret = list_dir(r, dfd, w->path, w->order, &l);

	for (size_t i = 0; !ret && i < l.nr; i++) {
		const struct ent *e = &l.v[i];
		size_t old = path_push(w, e->name);
		struct stat sb;

		if (phase_stop_requested()) {
			r->stopped = true;
			w->path[old] = '\0';
			break;
		}
		w->entries++;
		w->ops++;
		if (w->mode == WK_STAT &&
		    fstatat(dfd, e->name, &sb, AT_SYMLINK_NOFOLLOW))
			ret = tree_run_fail_errno(r, "stat", w->path);
		if (!ret && e->dir) {
			int sub = openat(dfd, e->name, O_RDONLY | O_DIRECTORY |
					 O_NOFOLLOW | O_CLOEXEC);

			if (w->mode == WK_COLLECT)
				file_list_add(&w->dirs, w->path, e->ino);
			if (sub < 0) {
				ret = tree_run_fail_errno(r, "open directory",
							  w->path);
			} else {
				ret = tree_walk_dir(w, sub);
				close(sub);
			}
			if (!ret && !r->stopped && w->mode == WK_DELETE &&
			    unlinkat(dfd, e->name, AT_REMOVEDIR))
				ret = tree_run_fail_errno(r, "remove", w->path);
		} else if (!ret && w->mode == WK_DELETE) {
			if (unlinkat(dfd, e->name, 0))
				ret = tree_run_fail_errno(r, "unlink", w->path);
		} else if (!ret && w->mode != WK_STAT && e->reg) {
			/* find -type f: symbolic links are not read */
			file_list_add(&w->batch, w->path, e->ino);
			if (w->mode == WK_READ &&
			    w->batch.nr >= (size_t)r->o->batch) {
				ret = tree_read_batch(r, w->rs, &w->batch);
				tree_file_list_clear(&w->batch);
			}
		}
		w->path[old] = '\0';
		if (r->stopped)
			break;
	}
	ents_release(&l);
	return ret;
}

/* Physical address of the first extent (FS_IOC_FIEMAP), 0 if none. */
static int first_extent(struct tree_run *r, const char *path, uint64_t *phys)
{
	union {
		struct fiemap fm;
		char raw[sizeof(struct fiemap) + sizeof(struct fiemap_extent)];
	} u;
	int fd = openat(r->root, path, O_RDONLY | O_CLOEXEC);

	*phys = 0;
	if (fd < 0)
		return tree_run_fail_errno(r, "open", path);
	memset(&u, 0, sizeof(u));
	u.fm.fm_length = FIEMAP_MAX_OFFSET;
	u.fm.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &u.fm)) {
		if (!r->fiemap_warned)
			warning("FIEMAP on '%s/%s' failed (%s): disk order "
				"falls back to inode order", r->rootpath, path,
				strerror(errno));
		r->fiemap_warned = true;
	} else if (u.fm.fm_mapped_extents) {
		*phys = u.fm.fm_extents[0].fe_physical;
	}
	close(fd);
	return 0;
}

/*
 * Disk order: walk everything first (readdir order), then look up each
 * file's first extent and sort by it.  The lookups are part of the
 * timed phase - an order that needs them pays for them.
 */
int tree_collect_disk_order(struct walk *w)
{
	int ret = tree_walk_dir(w, w->r->root);

	for (size_t i = 0; !ret && i < w->batch.nr && !w->r->stopped; i++)
		ret = first_extent(w->r, w->batch.v[i].path,
				   &w->batch.v[i].phys);
	if (!ret)
		tree_sort_phys(w->batch.v, w->batch.nr);
	return ret;
}
