/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * walker.c - the survey's multi-threaded walker over directory fds
 * (openat/fdopendir; glibc's readdir is getdents64 underneath), so no
 * path is rebuilt per file.  Each worker owns its own result and they
 * are merged at the end: no lock on the per-file path.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frag/frag.h"
#include "frag/openq.h"
#include "util/util.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)


/* Hand subdirectories to other workers only while the queue is short;
 * beyond that a worker descends itself, which bounds open fds. */
#define FRAG_QUEUE_MAX 64
/* Warnings of one kind before we only count. */
#define FRAG_WARN_MAX 5

/* ---- the walker ---- */

struct wq_item {
	int fd;
	char *path;
	dev_t dev;
};

struct walker {
	const struct frag_opts *o;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct wq_item *q;
	size_t nr_q, alloc_q;
	int busy;
	dev_t *nomap_devs;
	size_t nr_nomap, alloc_nomap;
	unsigned warned[4];
	atomic_uint_fast64_t scanned;
	atomic_bool stop;
};

struct worker {
	struct walker *w;
	struct frag_result res;
	struct fiemap_buf fm;
	struct openq oq;
	pthread_t tid;
	uint64_t pending;       /* files not yet added to w->scanned */
};

enum { WARN_UNREADABLE, WARN_ERROR, WARN_DIR, WARN_MAX_KINDS };

/* A warning per kind up to FRAG_WARN_MAX; after that we only count. */
static void walk_warn(struct walker *w, int kind, const char *dir,
		      const char *name, int err, const char *what)
{
	bool say;

	pthread_mutex_lock(&w->mu);
	say = w->warned[kind]++ < FRAG_WARN_MAX;
	pthread_mutex_unlock(&w->mu);
	if (say)
		warning("cannot %s '%s%s%s': %s", what, dir, name ? "/" : "",
			name ? name : "", strerror(err));
}

/* EOPNOTSUPP is a property of the filesystem: say so once per st_dev. */
static void note_nomap(struct walker *w, dev_t dev, const char *dir)
{
	bool seen = false;

	pthread_mutex_lock(&w->mu);
	for (size_t i = 0; i < w->nr_nomap && !seen; i++)
		seen = w->nomap_devs[i] == dev;
	if (!seen) {
		ALLOC_GROW(w->nomap_devs, w->nr_nomap + 1, w->alloc_nomap);
		w->nomap_devs[w->nr_nomap++] = dev;
	}
	pthread_mutex_unlock(&w->mu);
	if (!seen)
		warning("the filesystem of '%s' does not support FIEMAP; "
			"its files are counted without extents", dir);
}

struct path_arg {
	const char *dir, *name;
};

static char *make_path(void *arg)
{
	struct path_arg *p = arg;

	if (!p->name)
		return xstrdup(p->dir);
	return xasprintf("%s/%s", p->dir, p->name);
}

static void count_scanned(struct worker *wk)
{
	if (++wk->pending >= 64) {
		atomic_fetch_add_explicit(&wk->w->scanned, wk->pending,
					  memory_order_relaxed);
		wk->pending = 0;
	}
}

struct dir_loc {
	bool have_prev;
	uint64_t prev_end;
	uint64_t pairs;
	double gap_sum;
};

/* d_type of an entry that vanished before we could stat it. */
#define DENT_GONE 0xff

/* One directory entry of a batch read ahead of scanning (see scan_dir). */
struct dent {
	uint64_t ino;
	size_t name;            /* offset into the batch's names */
	unsigned char type;
	bool scanned, have_phys;
	uint64_t first, end;    /* the file's first and past-last byte */
};

struct dir_batch {
	struct dent *e;
	size_t nr, alloc;
	char *names;
	size_t names_len, names_alloc;
	size_t *order;          /* indexes into e, by inode number */
	size_t alloc_order;
};

/* Count a failed open of dir/name; err is the errno. */
static void open_failed(struct worker *wk, const char *dir, const char *name,
			int err)
{
	struct frag_result *r = &wk->res;

	if (err == ENOENT || err == ELOOP) {
		r->vanished++;
	} else if (err == EACCES || err == EPERM) {
		r->unreadable++;
		walk_warn(wk->w, WARN_UNREADABLE, dir, name, err, "open");
	} else {
		r->errors++;
		walk_warn(wk->w, WARN_ERROR, dir, name, err, "open");
	}
}

/*
 * Survey the open file fd, dir/name (name NULL: dir is the whole path),
 * and close it.  The close may go through the worker's ring, later.
 */
static void scan_fd(struct worker *wk, int fd, const char *dir,
		    const char *name, dev_t dev, struct dent *out)
{
	struct walker *w = wk->w;
	struct frag_result *r = &wk->res;
	struct path_arg pa = { dir, name };
	struct frag_file ff;
	struct stat st;
	int rc;

	if (fstat(fd, &st) < 0) {
		r->errors++;
		walk_warn(w, WARN_ERROR, dir, name, errno, "stat");
		openq_close(&wk->oq, fd);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		r->special++;
		openq_close(&wk->oq, fd);
		return;
	}
	if (w->o->xdev && name && st.st_dev != dev) {
		/* A file bind-mounted over the tree. */
		r->mounts_skipped++;
		openq_close(&wk->oq, fd);
		return;
	}
	frag_file_init(&ff, (uint64_t)st.st_blksize);
	rc = fiemap_scan(fd, w->o->sync, &wk->fm, frag_file_add_cb, &ff);
	openq_close(&wk->oq, fd);
	if (rc == -EOPNOTSUPP) {
		note_nomap(w, st.st_dev, dir);
		r->nomap++;
		frag_file_init(&ff, (uint64_t)st.st_blksize);
	} else if (rc < 0) {
		r->errors++;
		walk_warn(w, WARN_ERROR, dir, name, -rc, "map");
		return;
	}
	frag_result_add(r, &ff, (uint64_t)st.st_size, make_path, &pa);
	count_scanned(wk);
	if (w->o->list) {
		flockfile(w->o->list);
		fprintf(w->o->list, "%s%s%s %llu %llu %llu\n", dir,
			name ? "/" : "", name ? name : "",
			(unsigned long long)ff.runs,
			(unsigned long long)ff.extents,
			(unsigned long long)st.st_size);
		funlockfile(w->o->list);
	}
	if (out) {
		out->have_phys = ff.have_phys;
		out->first = ff.first_phys;
		out->end = ff.end_phys;
	}
}

/* Never block on a FIFO or take a controlling tty; keep atimes. */
#define FILE_OPEN_FLAGS (O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)

/* A regular file named on the command line: may be a symlink, like
 * find -H. */
static void scan_file(struct worker *wk, const char *path, dev_t dev)
{
	int fd = open(path, FILE_OPEN_FLAGS | O_NOATIME);

	if (fd < 0 && errno == EPERM)
		fd = open(path, FILE_OPEN_FLAGS);
	if (fd < 0) {
		open_failed(wk, path, NULL, errno);
		return;
	}
	scan_fd(wk, fd, path, NULL, dev, NULL);
}

/*
 * Survey the regular files e[0..n) of the directory dfd (path): one
 * batch of opens, then fstat+FIEMAP of each, whose closes go out with
 * the next batch.
 */
static void scan_files(struct worker *wk, int dfd, const char *path,
		       dev_t dev, struct dent **e, const char *const *names,
		       size_t n)
{
	const int fl = FILE_OPEN_FLAGS | O_NOFOLLOW;
	int fds[OPENQ_BATCH];

	openq_open(&wk->oq, dfd, names, n, fl | O_NOATIME, fds);
	for (size_t i = 0; i < n; i++) {
		int fd = fds[i];

		/* O_NOATIME is refused on files of other users. */
		if (fd == -EPERM) {
			fd = openat(dfd, names[i], fl);
			if (fd < 0)
				fd = -errno;
		}
		e[i]->scanned = true;
		if (fd < 0)
			open_failed(wk, path, names[i], -fd);
		else
			scan_fd(wk, fd, path, names[i], dev, e[i]);
	}
}

static void queue_push(struct walker *w, int fd, char *path, dev_t dev)
{
	ALLOC_GROW(w->q, w->nr_q + 1, w->alloc_q);
	w->q[w->nr_q].fd = fd;
	w->q[w->nr_q].path = path;
	w->q[w->nr_q].dev = dev;
	w->nr_q++;
	pthread_cond_signal(&w->cv);
}

static void scan_dir(struct worker *wk, int fd, char *path, dev_t dev);

static void scan_subdir(struct worker *wk, int dfd, const char *dir,
			const char *name, dev_t dev)
{
	struct walker *w = wk->w;
	struct stat st;
	char *sub;
	int fd;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				       O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) {
			wk->res.vanished++;
		} else {
			wk->res.unreadable++;
			walk_warn(w, WARN_DIR, dir, name, errno, "open");
		}
		return;
	}
	if (fstat(fd, &st) < 0) {
		wk->res.errors++;
		close(fd);
		return;
	}
	if (w->o->xdev && st.st_dev != dev) {
		wk->res.mounts_skipped++;
		close(fd);
		return;
	}
	sub = xasprintf("%s/%s", dir, name);
	pthread_mutex_lock(&w->mu);
	if (w->nr_q < FRAG_QUEUE_MAX) {
		queue_push(w, fd, sub, dev);
		pthread_mutex_unlock(&w->mu);
		return;
	}
	pthread_mutex_unlock(&w->mu);
	scan_dir(wk, fd, sub, dev);
}

/* Entries read ahead per batch: bounds memory on huge directories. */
#define FRAG_DIR_BATCH 4096

static void batch_add(struct dir_batch *b, const struct dirent *de)
{
	size_t len = strlen(de->d_name) + 1;
	struct dent *e;

	ALLOC_GROW(b->e, b->nr + 1, b->alloc);
	ALLOC_GROW(b->names, b->names_len + len, b->names_alloc);
	memcpy(b->names + b->names_len, de->d_name, len);
	e = &b->e[b->nr++];
	memset(e, 0, sizeof(*e));
	e->ino = de->d_ino;
	e->type = de->d_type;
	e->name = b->names_len;
	b->names_len += len;
}

static int by_ino(const void *a, const void *b, void *arg)
{
	const struct dent *e = arg;
	uint64_t x = e[*(const size_t *)a].ino;
	uint64_t y = e[*(const size_t *)b].ino;

	return x < y ? -1 : x > y;
}


/*
 * Scan a batch in inode order (inode tables are then read ahead
 * sequentially instead of in hash order, which is what makes a cold
 * survey fast), then fold locality in readdir order.
 */
static void scan_batch(struct worker *wk, int fd, const char *path,
		       dev_t dev, struct dir_batch *b, struct dir_loc *loc)
{
	struct frag_result *r = &wk->res;

	ALLOC_GROW(b->order, b->nr, b->alloc_order);
	for (size_t i = 0; i < b->nr; i++)
		b->order[i] = i;
	qsort_r(b->order, b->nr, sizeof(*b->order), by_ino, b->e);
	/* Files first, in batches for the ring; subdirectories after, as
	 * descending into one would leave a batch half done. */
	for (size_t k = 0; k < b->nr; ) {
		struct dent *files[OPENQ_BATCH];
		const char *names[OPENQ_BATCH];
		size_t nf = 0;

		if (atomic_load_explicit(&wk->w->stop, memory_order_relaxed))
			break;
		for (; k < b->nr && nf < OPENQ_BATCH; k++) {
			struct dent *e = &b->e[b->order[k]];
			const char *name = b->names + e->name;

			if (e->type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(fd, name, &st,
					    AT_SYMLINK_NOFOLLOW) < 0) {
					r->vanished++;
					e->type = DENT_GONE;
					continue;
				}
				e->type = S_ISDIR(st.st_mode) ? DT_DIR
					  : S_ISREG(st.st_mode) ? DT_REG
					  : DT_LNK;
			}
			if (e->type == DT_REG) {
				files[nf] = e;
				names[nf++] = name;
			} else if (e->type != DT_DIR && e->type != DENT_GONE) {
				r->special++;
			}
		}
		if (nf)
			scan_files(wk, fd, path, dev, files, names, nf);
	}
	for (size_t k = 0; k < b->nr; k++) {
		struct dent *e = &b->e[b->order[k]];

		if (atomic_load_explicit(&wk->w->stop, memory_order_relaxed))
			break;
		if (e->type == DT_DIR)
			scan_subdir(wk, fd, path, b->names + e->name, dev);
	}
	for (size_t i = 0; i < b->nr; i++) {
		const struct dent *e = &b->e[i];

		if (!e->scanned || !e->have_phys)
			continue;
		if (loc->have_prev) {
			uint64_t x = e->first, y = loc->prev_end;

			loc->pairs++;
			loc->gap_sum += (double)(x > y ? x - y : y - x);
			r->loc_adjacent += x == y;
		}
		loc->have_prev = true;
		loc->prev_end = e->end;
	}
	b->nr = 0;
	b->names_len = 0;
}

/* Takes ownership of fd and path. */
static void scan_dir(struct worker *wk, int fd, char *path, dev_t dev)
{
	struct dir_loc loc = { 0 };
	struct dir_batch b = { 0 };
	struct dirent *de;
	DIR *d;

	d = fdopendir(fd);
	if (!d) {
		wk->res.errors++;
		walk_warn(wk->w, WARN_DIR, path, NULL, errno, "read");
		close(fd);
		free(path);
		return;
	}
	wk->res.dirs++;
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno) {
				wk->res.errors++;
				walk_warn(wk->w, WARN_DIR, path, NULL, errno,
					  "read");
			}
			break;
		}
		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] ||
		     (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		batch_add(&b, de);
		if (b.nr == FRAG_DIR_BATCH)
			scan_batch(wk, fd, path, dev, &b, &loc);
	}
	if (b.nr)
		scan_batch(wk, fd, path, dev, &b, &loc);
	if (loc.pairs) {
		wk->res.loc_dirs++;
		wk->res.loc_pairs += loc.pairs;
		wk->res.loc_gap_sum += loc.gap_sum;
		wk->res.loc_dir_mean_sum += loc.gap_sum / (double)loc.pairs;
	}
	free(b.e);
	free(b.names);
	free(b.order);
	closedir(d);
	free(path);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct walker *w = wk->w;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		struct wq_item it;

		while (!w->nr_q && w->busy)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->nr_q)
			break;
		/* LIFO: depth first keeps the queue (and open fds) small. */
		it = w->q[--w->nr_q];
		w->busy++;
		pthread_mutex_unlock(&w->mu);
		scan_dir(wk, it.fd, it.path, it.dev);
		pthread_mutex_lock(&w->mu);
		w->busy--;
		if (!w->nr_q && !w->busy)
			pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	openq_flush(&wk->oq);
	atomic_fetch_add_explicit(&w->scanned, wk->pending,
				  memory_order_relaxed);
	wk->pending = 0;
	return NULL;
}

struct progress {
	struct walker *w;
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool done;
	uint64_t start;
};

static void *progress_main(void *arg)
{
	struct progress *p = arg;
	struct timespec ts;

	pthread_mutex_lock(&p->mu);
	while (!p->done) {
		uint64_t n, el;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 500000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->cv, &p->mu, &ts);
		n = atomic_load(&p->w->scanned);
		el = now_ns() - p->start;
		fprintf(stderr, "\rfslab: frag: %llu files scanned, %.0f "
			"files/s ", (unsigned long long)n,
			el ? (double)n * 1e9 / (double)el : 0.0);
	}
	pthread_mutex_unlock(&p->mu);
	fputc('\n', stderr);
	return NULL;
}

static int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* Deep trees hold one fd per level per worker; take what we may. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int frag_survey(const char *const *paths, size_t n,
		const struct frag_opts *o, struct frag_result *r)
{
	struct walker w;
	struct worker *wks;
	struct progress pg;
	uint64_t t0 = now_ns();
	int jobs = o->jobs > 0 ? o->jobs : ncpus();
	int rc = 0;

	frag_result_init(r, o->bins, o->worst);
	memset(&w, 0, sizeof(w));
	w.o = o;
	pthread_mutex_init(&w.mu, NULL);
	pthread_cond_init(&w.cv, NULL);
	raise_nofile();

	wks = xcalloc((size_t)jobs, sizeof(*wks));
	for (int i = 0; i < jobs; i++) {
		wks[i].w = &w;
		frag_result_init(&wks[i].res, &r->bins, o->worst);
		fiemap_buf_init(&wks[i].fm, o->batch);
		openq_init(&wks[i].oq, o->uring);
	}

	/* Check every path before scanning any: a typo is a usage error. */
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (stat(paths[i], &st) < 0) {
			rc = errno == ENOENT || errno == ENOTDIR ? -2 : -1;
			error_errno("cannot access '%s'", paths[i]);
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		int fd;

		if (stat(paths[i], &st) < 0) {
			rc = error_errno("cannot access '%s'", paths[i]);
			goto out;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (S_ISREG(st.st_mode))
				scan_file(&wks[0], paths[i], st.st_dev);
			else
				wks[0].res.special++;
			continue;
		}
		fd = open(paths[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			rc = error_errno("cannot open '%s'", paths[i]);
			goto out;
		}
		queue_push(&w, fd, xstrdup(paths[i]), st.st_dev);
	}

	if (o->progress) {
		memset(&pg, 0, sizeof(pg));
		pg.w = &w;
		pg.start = t0;
		pthread_mutex_init(&pg.mu, NULL);
		pthread_cond_init(&pg.cv, NULL);
		if (pthread_create(&pg.tid, NULL, progress_main, &pg))
			pg.done = true;
	}
	for (int i = 0; i < jobs; i++) {
		if (pthread_create(&wks[i].tid, NULL, worker_main, &wks[i])) {
			/* Fewer workers only make it slower. */
			wks[i].tid = 0;
			if (i == 0)
				worker_main(&wks[0]);
		}
	}
	for (int i = 0; i < jobs; i++)
		if (wks[i].tid)
			pthread_join(wks[i].tid, NULL);
	if (o->progress && !pg.done) {
		pthread_mutex_lock(&pg.mu);
		pg.done = true;
		pthread_cond_signal(&pg.cv);
		pthread_mutex_unlock(&pg.mu);
		pthread_join(pg.tid, NULL);
	}
	if (o->progress) {
		pthread_mutex_destroy(&pg.mu);
		pthread_cond_destroy(&pg.cv);
	}
out:
	for (size_t i = 0; i < w.nr_q; i++) {
		close(w.q[i].fd);
		free(w.q[i].path);
	}
	for (int i = 0; i < jobs; i++) {
		frag_result_merge(r, &wks[i].res);
		r->io_uring |= openq_uses_ring(&wks[i].oq);
		frag_result_release(&wks[i].res);
		fiemap_buf_release(&wks[i].fm);
		openq_release(&wks[i].oq);
	}
	free(wks);
	free(w.q);
	free(w.nomap_devs);
	pthread_mutex_destroy(&w.mu);
	pthread_cond_destroy(&w.cv);
	frag_result_finish(r);
	r->elapsed_s = (double)(now_ns() - t0) / 1e9;
	return rc;
}
