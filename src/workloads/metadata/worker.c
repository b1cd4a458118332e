/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * worker.c - one thread's share of a metadata phase: create, stat, read,
 * unlink its files (or make and remove its directories), each op timed
 * into the thread's latency histogram.
 */
#include "workloads/metadata/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "phase/par.h"
#include "stats/lathist.h"
#include "util/pyrand.h"
#include "util/splitmix.h"
#include "util/util.h"
#include "util/verify.h"

void md_top_name(const struct md_run *r, int t, char *buf, size_t len)
{
	if (r->o->shared)
		snprintf(buf, len, "shared");
	else
		snprintf(buf, len, "t%d", t);
}

int md_worker_top(const struct md_worker *w)
{
	return w->r->o->shared ? 0 : w->idx;
}

/* The number of thread t of rank owner in names and directory shares. */
uint64_t md_global_thread(const struct md_run *r, int owner, int t)
{
	return r->o->shared ? (uint64_t)owner * (uint64_t)r->nthreads +
				      (uint64_t)t
			    : (uint64_t)t;
}

/* The directory that holds rank owner's top directories.  Allocated. */
char *md_tops_base(const struct md_run *r, int owner)
{
	if (r->o->shared)
		return xstrdup(r->ctx->shared_dir);
	return wl_rank_dir(r->ctx, owner);
}

static void worker_fail(struct md_worker *w, const char *what)
{
	if (!w->err) {
		w->err = errno ? errno : EIO;
		w->what = what;
	}
	atomic_store(&w->r->abort, true);
}

static bool worker_stop(struct md_worker *w)
{
	return phase_stop_requested() ||
	       atomic_load_explicit(&w->r->abort, memory_order_relaxed);
}

/*
 * --verify file id: that of the path relative to the directory that holds
 * the top directories ("t0/d3/NAME", "shared/d0/NAME"), which alone is
 * ctx->dir, as the final verify-data pass walks it.
 */
static uint64_t file_vid(const struct md_worker *w)
{
	char top[32], rel[128];

	md_top_name(w->r, md_worker_top(w), top, sizeof(top));
	snprintf(rel, sizeof(rel), "%s/%s", top, w->path);
	return verify_file_id(rel);
}

/* Write n bytes by repeating buf (bufsize bytes), or with --verify the
 * pattern of file vid, generated chunk by chunk into buf. */
static int write_n(int fd, char *buf, size_t bufsize, uint64_t n,
		   const struct md_run *r, uint64_t vid)
{
	uint64_t off = 0;

	while (off < n) {
		size_t cur = n - off < bufsize ? (size_t)(n - off) : bufsize;

		if (r->verify)
			verify_fill(r->ctx->seed, vid, off, buf, cur);
		if (write_full(fd, buf, cur) < 0)
			return -1;
		off += cur;
	}
	return 0;
}

/* open(O_EXCL) and write w->path: its fd, or -1 (the worker failed). */
static int create_file(struct md_worker *w)
{
	const struct md_run *r = w->r;
	int fd = openat(w->topfd, w->path,
			O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0) {
		worker_fail(w, "create");
		return -1;
	}
	if (r->o->size && write_n(fd, w->buf, w->bufsize, r->o->size, r,
				  r->verify ? file_vid(w) : 0)) {
		worker_fail(w, "write");
		close(fd);
		return -1;
	}
	return fd;
}

/* One create: open(O_EXCL), write, fsync as asked, close. */
static int op_create(struct md_worker *w, uint64_t dir, int *dirfd,
		     uint64_t *curdir)
{
	const struct md_run *r = w->r;
	int fd = create_file(w);

	if (fd < 0)
		return -1;
	if (r->o->sync >= MD_SYNC_FSYNC && r->o->sync <= MD_SYNC_FSYNC_DIR &&
	    fsync(fd)) {
		worker_fail(w, "fsync");
		close(fd);
		return -1;
	}
	if (close(fd)) {
		worker_fail(w, "close");
		return -1;
	}
	w->bytes += r->o->size;
	if (r->o->sync != MD_SYNC_FSYNC_DIR)
		return 0;
	/* files come in directory runs: keep the directory open between */
	if (*dirfd < 0 || *curdir != dir) {
		char d[32];

		if (*dirfd >= 0)
			close(*dirfd);
		snprintf(d, sizeof(d), "d%" PRIu64, dir);
		*dirfd = openat(w->topfd, d, O_RDONLY | O_DIRECTORY |
				O_CLOEXEC);
		*curdir = dir;
		if (*dirfd < 0) {
			worker_fail(w, "open directory");
			return -1;
		}
	}
	if (fsync(*dirfd)) {
		worker_fail(w, "fsync directory");
		return -1;
	}
	return 0;
}

static int op_read(struct md_worker *w)
{
	uint64_t total = 0, vid = w->r->verify ? file_vid(w) : 0;
	int fd = openat(w->topfd, w->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		w->missing++;
		return 0;
	}
	if (fd < 0) {
		worker_fail(w, "open");
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, w->buf, w->bufsize);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			worker_fail(w, "read");
			close(fd);
			return -1;
		}
		if (!n)
			break;
		if (w->r->verify &&
		    !verify_check(w->r->ctx->seed, vid, total, w->buf,
				  (size_t)n, &w->bad)) {
			errno = EILSEQ;
			w->bad_data = true;
			worker_fail(w, "verify");
			close(fd);
			return -1;
		}
		total += (uint64_t)n;
	}
	close(fd);
	w->bytes += total;
	if (total != w->r->o->size)
		w->wrong_size++;
	return 0;
}

static int op_file(struct md_worker *w, uint64_t dir, int *dirfd,
		   uint64_t *curdir)
{
	struct stat sb;

	switch (w->kind) {
	case MD_CREATE:
		return op_create(w, dir, dirfd, curdir);
	case MD_STAT:
		if (fstatat(w->topfd, w->path, &sb, AT_SYMLINK_NOFOLLOW)) {
			if (errno != ENOENT) {
				worker_fail(w, "stat");
				return -1;
			}
			w->missing++;
		} else if (!S_ISREG(sb.st_mode) ||
			   (uint64_t)sb.st_size != w->r->o->size) {
			w->wrong_size++;
		}
		return 0;
	case MD_READ:
		return op_read(w);
	case MD_UNLINK:
		if (unlinkat(w->topfd, w->path, 0)) {
			if (errno != ENOENT) {
				worker_fail(w, "unlink");
				return -1;
			}
			w->missing++;
		}
		return 0;
	default:
		BUG("bad file op %d", (int)w->kind);
	}
}

/* w->path of the thread's file k. */
static void set_path(struct md_worker *w, uint64_t k)
{
	const struct md_run *r = w->r;
	uint64_t base = md_global_thread(r, w->owner, w->idx) * r->files;
	char name[MD_NAME_LEN];

	md_name(name, (enum md_names)r->o->names, r->seed, base + k);
	snprintf(w->path, sizeof(w->path), "d%" PRIu64 "/%s",
		 md_file_dir(k, r->files, r->ndirs), name);
}

/* sync=uring: fsync the held files together; they count once synced. */
static int flush_batch(struct md_worker *w)
{
	unsigned n = md_ring_held(w->ring);
	struct md_ring_err e;

	if (md_ring_flush(w->ring, &w->lat, &e)) {
		set_path(w, e.key);
		errno = e.err;
		worker_fail(w, e.what);
		return -1;
	}
	w->files += n;
	w->ops += n;
	w->bytes += n * w->r->o->size;
	phase_progress(w->r->ph, 0, n, 0);
	return 0;
}

/*
 * sync=uring's create: write each file and hold it open; a full batch
 * is fsynced together (uring.c), and so is what is held when the files,
 * the stonewall or the phase end.  A file's latency runs from before
 * its open to its fsync's completion: it includes waiting for the rest
 * of its batch, the price of the batching this measures.
 */
static void do_creates_uring(struct md_worker *w)
{
	const struct md_run *r = w->r;
	bool wall = r->o->stonewall > 0 && !r->wearing_out;

	for (uint64_t i = w->from; i < w->n && !worker_stop(w); i++) {
		uint64_t k = w->order[i], t0;
		int fd;

		if (wall && phase_stonewall_hit(r->ph))
			break;
		set_path(w, k);
		t0 = now_ns();
		fd = create_file(w);
		if (fd < 0)
			return;
		if (md_ring_hold(w->ring, fd, t0, k) && flush_batch(w))
			return;
	}
	if (!atomic_load(&r->abort))
		flush_batch(w);
}

static void do_files(struct md_worker *w)
{
	const struct md_run *r = w->r;
	uint64_t curdir = 0, base;
	bool wall = w->kind == MD_CREATE && r->o->stonewall > 0 &&
		    !r->wearing_out;
	int dirfd = -1;
	char name[MD_NAME_LEN];

	base = md_global_thread(r, w->owner, w->idx) * r->files;
	for (uint64_t i = w->from; i < w->n && !worker_stop(w); i++) {
		uint64_t k = w->order[i];
		uint64_t dir = md_file_dir(k, r->files, r->ndirs);
		uint64_t t0;
		int ret;

		/* the deadline is checked before each op, as mdtest does */
		if (wall && phase_stonewall_hit(r->ph))
			break;
		md_name(name, (enum md_names)r->o->names, r->seed, base + k);
		snprintf(w->path, sizeof(w->path), "d%" PRIu64 "/%s", dir,
			 name);
		t0 = now_ns();
		ret = op_file(w, dir, &dirfd, &curdir);
		lathist_add(&w->lat, now_ns() - t0);
		if (ret)
			break;
		w->files++;
		w->ops++;
		phase_progress(r->ph, 0, 1, 0);
	}
	if (dirfd >= 0)
		close(dirfd);
}

/* mkdir/rmdir: own subdirectories, or every nthreads-th shared one (of
 * all threads of all ranks). */
static void do_dirs(struct md_worker *w)
{
	const struct md_run *r = w->r;
	uint64_t first = r->o->shared ? md_global_thread(r, r->rank, w->idx) : 0;
	uint64_t step = r->o->shared ? (uint64_t)r->nthreads *
					       (uint64_t)r->nranks
				     : 1;

	for (uint64_t d = first; d < r->ndirs && !worker_stop(w); d += step) {
		uint64_t t0;
		int ret;

		snprintf(w->path, sizeof(w->path), "d%" PRIu64, d);
		t0 = now_ns();
		ret = w->kind == MD_MKDIR ? mkdirat(w->topfd, w->path, 0755) :
		      unlinkat(w->topfd, w->path, AT_REMOVEDIR);
		lathist_add(&w->lat, now_ns() - t0);
		if (ret) {
			worker_fail(w, w->kind == MD_MKDIR ?
				    "create directory" : "remove directory");
			break;
		}
		w->files++;
		w->ops++;
	}
}

void *md_worker_main(void *arg)
{
	struct md_worker *w = arg;
	struct md_run *r = w->r;

	pthread_mutex_lock(&r->mu);
	r->ready++;
	pthread_cond_broadcast(&r->cv);
	while (!r->go)
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);

	/* a wear-out round goes on with the first round's clock */
	if (!w->start_ns)
		w->start_ns = realtime_ns();
	if (w->kind == MD_MKDIR || w->kind == MD_RMDIR)
		do_dirs(w);
	else if (w->ring)
		do_creates_uring(w);
	else
		do_files(w);
	/*
	 * batch: the last thread through its creates syncs the filesystem
	 * before it stops its clock, so the sync counts in the phase's
	 * first-start-to-last-end time, as fs_mark counts its sync.
	 */
	if (w->kind == MD_CREATE && r->o->sync == MD_SYNC_BATCH &&
	    r->final_round &&
	    atomic_fetch_add(&r->done, 1) == r->nthreads - 1 &&
	    !atomic_load(&r->abort)) {
		uint64_t t0 = now_ns();

		if (syncfs(w->topfd))
			worker_fail(w, "sync");
		w->sync_ns = now_ns() - t0;
	}
	w->end_ns = realtime_ns();
	return NULL;
}


/* The seed of thread i's visiting order in a phase of kind. */
static uint64_t order_seed(const struct md_run *r, enum md_kind kind, int i)
{
	return splitmix64(r->seed ^ splitmix64((uint64_t)kind << 32 | (unsigned)i));
}

int md_prepare_worker(struct md_run *r, struct md_worker *w, int i,
		      enum md_kind kind)
{
	char top[32];
	bool files = kind != MD_MKDIR && kind != MD_RMDIR;
	bool shuffle = r->o->names == MD_NAMES_RANDOM;
	char *base;

	w->r = r;
	w->kind = kind;
	w->idx = i;
	/* reorder: stat and read another rank's files (IOR -C) */
	w->owner = kind == MD_STAT || kind == MD_READ ? r->peer : r->rank;
	lathist_init(&w->lat);
	md_top_name(r, md_worker_top(w), top, sizeof(top));
	base = md_tops_base(r, w->owner);
	w->topfd = openat(AT_FDCWD, base, O_RDONLY | O_DIRECTORY |
			  O_CLOEXEC);
	if (w->topfd >= 0) {
		int fd = openat(w->topfd, top, O_RDONLY | O_DIRECTORY |
				O_CLOEXEC);

		close(w->topfd);
		w->topfd = fd;
	}
	if (w->topfd < 0) {
		error_errno("cannot open '%s/%s'", base, top);
		free(base);
		return -1;
	}
	free(base);
	if (!files)
		return 0;
	w->order = xmalloc((size_t)r->files * sizeof(*w->order));
	w->from = 0;
	if (kind == MD_CREATE) {
		w->n = r->files;
		md_order(w->order, (size_t)r->files, shuffle,
			 order_seed(r, kind, i));
	} else {
		/* the files the owner's thread i made (all, or up to the
		 * stonewall), in a different order per thread and phase */
		w->n = r->counts[(size_t)w->owner * (size_t)r->nthreads +
				 (size_t)i];
		md_visit_order(w->order, (size_t)w->n, (size_t)r->files,
			       shuffle, order_seed(r, MD_CREATE, i),
			       order_seed(r, kind, i));
	}
	if (kind == MD_CREATE) {
		w->bufsize = r->o->size < MD_WBUF_MAX ? (size_t)r->o->size :
			     MD_WBUF_MAX;
		w->buf = xmalloc(w->bufsize ? w->bufsize : 1);
		memset(w->buf, 0x5a, w->bufsize);
		if (r->o->sync == MD_SYNC_URING &&
		    md_ring_open(&w->ring, (unsigned)r->o->batch))
			return -1;
	} else if (kind == MD_READ) {
		w->bufsize = MD_RBUF;
		w->buf = xmalloc(w->bufsize);
	}
	return 0;
}

void md_release_workers(struct md_worker *w, int n)
{
	for (int i = 0; i < n; i++) {
		if (w[i].topfd >= 0)
			close(w[i].topfd);
		md_ring_close(w[i].ring);
		free(w[i].order);
		free(w[i].buf);
	}
	free(w);
}
