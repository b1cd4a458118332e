/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frag.c - the survey engine: pure aggregation (bins, run counting with
 * filefrag's rule, layout score, worst-N heap) and a multi-threaded
 * walker over directory fds (openat/fdopendir; glibc's readdir is
 * getdents64 underneath), so no path is rebuilt per file.  Each worker
 * owns its own result and they are merged at the end: no lock on the
 * per-file path.
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

void frag_bins_default(struct frag_bins *b)
{
	static const uint64_t k[] = { 1, 2, 3, 4, 5, 6, 10, 20, 30, 40,
				      50, 60, 100 };
	size_t n = 0;

	for (uint64_t i = 0; i < 10; i++)
		b->edge[n++] = i * 100;
	for (size_t i = 0; i < ARRAY_SIZE(k); i++)
		b->edge[n++] = k[i] * KIB;
	b->edge[n++] = MIB;
	b->edge[n++] = 10 * MIB;
	b->edge[n++] = 100 * MIB;
	b->edge[n++] = GIB;
	b->edge[n++] = 10 * GIB;
	b->edge[n++] = 100 * GIB;
	b->nr = n;
}

int frag_bins_parse(const char *s, struct frag_bins *b, char *err,
		    size_t errlen)
{
	char *dup = xstrdup(s), *save = NULL, *tok;
	int rc = 0;

	b->nr = 0;
	b->edge[b->nr++] = 0;
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (parse_size(tok, &v) < 0) {
			snprintf(err, errlen, "'%s' is not a size in --bins",
				 tok);
			rc = -1;
			break;
		}
		if (v == 0 && b->nr == 1)
			continue;
		if (v <= b->edge[b->nr - 1]) {
			snprintf(err, errlen, "--bins edges must increase "
				 "('%s')", tok);
			rc = -1;
			break;
		}
		if (b->nr == FRAG_MAX_BINS) {
			snprintf(err, errlen, "--bins takes at most %d edges",
				 FRAG_MAX_BINS);
			rc = -1;
			break;
		}
		b->edge[b->nr++] = v;
	}
	free(dup);
	return rc;
}

size_t frag_bin_of(const struct frag_bins *b, uint64_t size)
{
	size_t lo = 0, hi = b->nr;

	/* Last edge <= size, by bisection: edges increase strictly. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->edge[mid] <= size)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t group_unit(uint64_t lower)
{
	return lower < KIB ? 1 : lower < MIB ? KIB : lower < GIB ? MIB : GIB;
}

const char *frag_bin_group(const struct frag_bins *b, size_t i)
{
	uint64_t u = group_unit(b->edge[i]);

	return u == 1 ? "B" : u == KIB ? "K" : u == MIB ? "M" : "G";
}

static void fmt_edge(char *buf, size_t len, uint64_t v, uint64_t unit)
{
	if (v % unit == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(v / unit));
	else
		snprintf(buf, len, "%.2f", (double)v / (double)unit);
}

void frag_bin_label(const struct frag_bins *b, size_t i, char *buf,
		    size_t len)
{
	uint64_t u = group_unit(b->edge[i]);
	char lo[32], hi[32];

	fmt_edge(lo, sizeof(lo), b->edge[i], u);
	if (i + 1 < b->nr)
		fmt_edge(hi, sizeof(hi), b->edge[i + 1], u);
	else
		snprintf(hi, sizeof(hi), "inf");
	snprintf(buf, len, "[%s,%s)", lo, hi);
}

size_t frag_run_bucket(uint64_t runs)
{
	size_t i = 2;
	uint64_t top = 2;

	if (runs < 3)
		return (size_t)runs;
	while (i < FRAG_RUN_BUCKETS - 1) {
		i++;
		top *= 2;
		if (runs <= top)
			return i;
	}
	return FRAG_RUN_BUCKETS - 1;
}

void frag_run_bucket_label(size_t i, char *buf, size_t len)
{
	uint64_t lo, hi;

	if (i < 3) {
		snprintf(buf, len, "%zu", i);
		return;
	}
	hi = 1ULL << (i - 1);
	lo = hi / 2 + 1;
	if (i == FRAG_RUN_BUCKETS - 1)
		snprintf(buf, len, "%llu+", (unsigned long long)lo);
	else
		snprintf(buf, len, "%llu-%llu", (unsigned long long)lo,
			 (unsigned long long)hi);
}

void frag_file_init(struct frag_file *f, uint64_t blksize)
{
	memset(f, 0, sizeof(*f));
	f->blksize = blksize ? blksize : 4096;
}

/* Where the data of an extent is not (yet) a place on disk. */
#define NO_PLACE (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | \
		  FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED)

void frag_file_add(struct frag_file *f, const struct frag_extent *e)
{
	const struct frag_extent *l = &f->last;

	/*
	 * filefrag's rule (e2fsprogs misc/filefrag.c): an extent starts a
	 * new run unless it continues the previous one physically, either
	 * as the file's offsets would place it (holes included) or simply
	 * right after it on disk.  Flags do not matter to it, so not here.
	 */
	if (!f->have_last) {
		f->runs = 1;
	} else if (e->logical != 0 &&
		   e->physical != l->physical + (e->logical - l->logical) &&
		   e->physical != l->physical + l->length) {
		f->runs++;
	}
	f->extents++;
	f->flags |= e->flags;

	/* Layout score: only blocks with a known place count, and a block
	 * follows its predecessor only when strictly adjacent on disk. */
	if (!(e->flags & NO_PLACE) && e->length) {
		uint64_t nb = (e->length + f->blksize - 1) / f->blksize;

		if (f->have_phys) {
			if (e->physical == f->end_phys)
				f->follow_blocks++;
		} else {
			f->first_phys = e->physical;
		}
		f->follow_blocks += nb - 1;
		f->blocks += nb;
		f->end_phys = e->physical + e->length;
		f->have_phys = true;
	}
	f->last = *e;
	f->have_last = true;
}

void frag_file_add_cb(void *arg, const struct frag_extent *e)
{
	frag_file_add(arg, e);
}

void frag_opts_default(struct frag_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sync = true;
	o->xdev = true;
	o->uring = true;
	o->worst = FRAG_DEFAULT_WORST;
}

void frag_result_init(struct frag_result *r, const struct frag_bins *b,
		      size_t worst_cap)
{
	memset(r, 0, sizeof(*r));
	if (b)
		r->bins = *b;
	else
		frag_bins_default(&r->bins);
	r->worst_cap = worst_cap;
	if (worst_cap)
		r->worst = xcalloc(worst_cap, sizeof(*r->worst));
}

void frag_result_release(struct frag_result *r)
{
	for (size_t i = 0; i < r->nr_worst; i++)
		free(r->worst[i].path);
	free(r->worst);
	r->worst = NULL;
	r->nr_worst = 0;
}

/* Worse = more runs, then more extents, then bigger. */
static int worst_cmp(const struct frag_worst *a, const struct frag_worst *b)
{
	if (a->runs != b->runs)
		return a->runs < b->runs ? -1 : 1;
	if (a->extents != b->extents)
		return a->extents < b->extents ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return 0;
}

bool frag_result_wants_worst(const struct frag_result *r, uint64_t runs,
			     uint64_t extents, uint64_t size)
{
	struct frag_worst w = { NULL, runs, extents, size };

	if (!r->worst_cap || runs < 2)
		return false;
	return r->nr_worst < r->worst_cap || worst_cmp(&w, &r->worst[0]) > 0;
}

static void heap_swap(struct frag_worst *h, size_t a, size_t b)
{
	struct frag_worst t = h[a];

	h[a] = h[b];
	h[b] = t;
}

/* Min-heap on worst_cmp: the root is the mildest of the worst. */
static void heap_push(struct frag_result *r, struct frag_worst w)
{
	struct frag_worst *h = r->worst;
	size_t i;

	if (r->nr_worst < r->worst_cap) {
		i = r->nr_worst++;
		h[i] = w;
		while (i && worst_cmp(&h[i], &h[(i - 1) / 2]) < 0) {
			heap_swap(h, i, (i - 1) / 2);
			i = (i - 1) / 2;
		}
		return;
	}
	free(h[0].path);
	h[0] = w;
	i = 0;
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < r->nr_worst && worst_cmp(&h[l], &h[m]) < 0)
			m = l;
		if (l + 1 < r->nr_worst && worst_cmp(&h[l + 1], &h[m]) < 0)
			m = l + 1;
		if (m == i)
			break;
		heap_swap(h, i, m);
		i = m;
	}
}

void frag_result_add(struct frag_result *r, const struct frag_file *f,
		     uint64_t size, char *(*path)(void *), void *arg)
{
	size_t b = frag_bin_of(&r->bins, size);
	bool frag = f->runs > 1;

	r->files++;
	r->bytes += size;
	r->bin_files[b]++;
	r->bin_bytes[b] += size;
	r->extents += f->extents;
	r->runs += f->runs;
	r->run_hist[frag_run_bucket(f->runs)]++;
	if (frag) {
		r->frag_files++;
		r->frag_bytes += size;
		r->bin_frag[b]++;
	}
	if (f->runs >= 3)
		r->files_3plus++;
	if (f->blocks >= 2) {
		r->layout_files++;
		r->layout_blocks += f->blocks - 1;
		r->layout_follow += f->follow_blocks;
	}
	r->f_inline += !!(f->flags & FIEMAP_EXTENT_DATA_INLINE);
	r->f_delalloc += !!(f->flags & FIEMAP_EXTENT_DELALLOC);
	r->f_unknown += !!(f->flags & FIEMAP_EXTENT_UNKNOWN);
	r->f_encoded += !!(f->flags & FIEMAP_EXTENT_ENCODED);
	r->f_unwritten += !!(f->flags & FIEMAP_EXTENT_UNWRITTEN);
	r->f_shared += !!(f->flags & FIEMAP_EXTENT_SHARED);
	if (path && frag_result_wants_worst(r, f->runs, f->extents, size)) {
		struct frag_worst w = { path(arg), f->runs, f->extents,
					size };

		heap_push(r, w);
	}
}

void frag_result_merge(struct frag_result *d, struct frag_result *s)
{
	for (size_t i = 0; i < FRAG_MAX_BINS; i++) {
		d->bin_files[i] += s->bin_files[i];
		d->bin_frag[i] += s->bin_frag[i];
		d->bin_bytes[i] += s->bin_bytes[i];
	}
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++)
		d->run_hist[i] += s->run_hist[i];
#define ADD(x) d->x += s->x
	ADD(files); ADD(bytes); ADD(frag_files); ADD(frag_bytes);
	ADD(files_3plus); ADD(extents); ADD(runs); ADD(layout_files);
	ADD(layout_blocks); ADD(layout_follow); ADD(dirs); ADD(loc_pairs);
	ADD(loc_adjacent); ADD(loc_dirs); ADD(loc_gap_sum);
	ADD(loc_dir_mean_sum); ADD(f_inline); ADD(f_delalloc);
	ADD(f_unknown); ADD(f_encoded); ADD(f_unwritten); ADD(f_shared);
	ADD(unreadable); ADD(vanished); ADD(errors); ADD(nomap);
	ADD(mounts_skipped); ADD(special);
#undef ADD
	for (size_t i = 0; i < s->nr_worst; i++) {
		struct frag_worst *w = &s->worst[i];

		if (frag_result_wants_worst(d, w->runs, w->extents,
					    w->size)) {
			heap_push(d, *w);
		} else {
			free(w->path);
		}
	}
	s->nr_worst = 0;
}

static int worst_qsort(const void *a, const void *b)
{
	return -worst_cmp(a, b);
}

void frag_result_finish(struct frag_result *r)
{
	if (r->nr_worst)
		qsort(r->worst, r->nr_worst, sizeof(*r->worst), worst_qsort);
}

double frag_layout_score(const struct frag_result *r)
{
	if (!r->layout_blocks)
		return 1.0;
	return (double)r->layout_follow / (double)r->layout_blocks;
}

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

/* ---- figures out ---- */

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void frag_to_phase_metrics(const struct frag_result *r, struct phase_rec *p)
{
	char lab[48], name[80];

	p->files = r->files;
	p->bytes = r->bytes;
	phase_rec_add_metric(p, "files_scanned", (double)r->files, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "bytes_scanned", (double)r->bytes, "B",
			     BETTER_NONE);
	phase_rec_add_metric(p, "files_fragmented", (double)r->frag_files,
			     "files", BETTER_LOWER);
	phase_rec_add_metric(p, "fragmented_pct",
			     pct(r->frag_files, r->files), "%", BETTER_LOWER);
	phase_rec_add_metric(p, "files_3plus_runs", (double)r->files_3plus,
			     "files", BETTER_LOWER);
	phase_rec_add_metric(p, "fragmented_bytes", (double)r->frag_bytes,
			     "B", BETTER_LOWER);
	phase_rec_add_metric(p, "fragmented_bytes_pct",
			     pct(r->frag_bytes, r->bytes), "%", BETTER_LOWER);
	phase_rec_add_metric(p, "extents", (double)r->extents, "extents",
			     BETTER_NONE);
	phase_rec_add_metric(p, "runs", (double)r->runs, "extents",
			     BETTER_NONE);
	phase_rec_add_metric(p, "runs_per_file",
			     r->files ? (double)r->runs / (double)r->files
				      : 0.0, "extents", BETTER_LOWER);
	phase_rec_add_metric(p, "layout_score", frag_layout_score(r), "ratio",
			     BETTER_HIGHER);
	phase_rec_add_metric(p, "locality_mean_gap",
			     r->loc_pairs ? r->loc_gap_sum /
						    (double)r->loc_pairs
					  : 0.0, "B", BETTER_LOWER);
	phase_rec_add_metric(p, "locality_adjacent_pct",
			     pct(r->loc_adjacent, r->loc_pairs), "%",
			     BETTER_HIGHER);
	phase_rec_add_metric(p, "unreadable", (double)r->unreadable, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "vanished", (double)r->vanished, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "errors", (double)r->errors, "files",
			     BETTER_NONE);
	phase_rec_add_metric(p, "no_fiemap", (double)r->nomap, "files",
			     BETTER_NONE);
	for (size_t i = 0; i < r->bins.nr; i++) {
		frag_bin_label(&r->bins, i, lab, sizeof(lab));
		snprintf(name, sizeof(name), "bin %s%s files",
			 frag_bin_group(&r->bins, i), lab);
		phase_rec_add_metric(p, name, (double)r->bin_files[i],
				     "files", BETTER_NONE);
		snprintf(name, sizeof(name), "bin %s%s fragmented",
			 frag_bin_group(&r->bins, i), lab);
		phase_rec_add_metric(p, name, (double)r->bin_frag[i],
				     "files", BETTER_LOWER);
	}
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++) {
		frag_run_bucket_label(i, lab, sizeof(lab));
		snprintf(name, sizeof(name), "runs %s files", lab);
		phase_rec_add_metric(p, name, (double)r->run_hist[i], "files",
				     BETTER_NONE);
	}
}

static json_t *ju(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *frag_to_json(const struct frag_result *r)
{
	json_t *root = json_object(), *bins = json_array();
	json_t *hist = json_array(), *worst = json_array();
	json_t *o;
	char lab[48];

	json_object_set_new(root, "format_version",
			    json_integer(FRAG_JSON_FORMAT_VERSION));
	for (size_t i = 0; i < r->bins.nr; i++) {
		frag_bin_label(&r->bins, i, lab, sizeof(lab));
		o = json_object();
		json_object_set_new(o, "group",
				    json_string(frag_bin_group(&r->bins, i)));
		json_object_set_new(o, "label", json_string(lab));
		json_object_set_new(o, "lo", ju(r->bins.edge[i]));
		json_object_set_new(o, "hi", i + 1 < r->bins.nr
					     ? ju(r->bins.edge[i + 1])
					     : json_null());
		json_object_set_new(o, "files", ju(r->bin_files[i]));
		json_object_set_new(o, "fragmented", ju(r->bin_frag[i]));
		json_object_set_new(o, "fragmented_pct",
				    json_real(pct(r->bin_frag[i],
						  r->bin_files[i])));
		json_object_set_new(o, "bytes", ju(r->bin_bytes[i]));
		json_array_append_new(bins, o);
	}
	json_object_set_new(root, "bins", bins);
	json_object_set_new(root, "files", ju(r->files));
	json_object_set_new(root, "bytes", ju(r->bytes));
	json_object_set_new(root, "fragmented_files", ju(r->frag_files));
	json_object_set_new(root, "fragmented_pct",
			    json_real(pct(r->frag_files, r->files)));
	json_object_set_new(root, "files_3plus", ju(r->files_3plus));
	json_object_set_new(root, "fragmented_bytes", ju(r->frag_bytes));
	json_object_set_new(root, "fragmented_bytes_pct",
			    json_real(pct(r->frag_bytes, r->bytes)));
	json_object_set_new(root, "extents", ju(r->extents));
	json_object_set_new(root, "runs", ju(r->runs));
	for (size_t i = 0; i < FRAG_RUN_BUCKETS; i++) {
		frag_run_bucket_label(i, lab, sizeof(lab));
		o = json_object();
		json_object_set_new(o, "runs", json_string(lab));
		json_object_set_new(o, "files", ju(r->run_hist[i]));
		json_array_append_new(hist, o);
	}
	json_object_set_new(root, "runs_histogram", hist);
	o = json_object();
	json_object_set_new(o, "score", json_real(frag_layout_score(r)));
	json_object_set_new(o, "files", ju(r->layout_files));
	json_object_set_new(o, "blocks", ju(r->layout_blocks));
	json_object_set_new(o, "following", ju(r->layout_follow));
	json_object_set_new(root, "layout", o);
	o = json_object();
	json_object_set_new(o, "dirs", ju(r->loc_dirs));
	json_object_set_new(o, "pairs", ju(r->loc_pairs));
	json_object_set_new(o, "adjacent", ju(r->loc_adjacent));
	json_object_set_new(o, "mean_gap_bytes", json_real(r->loc_pairs
		? r->loc_gap_sum / (double)r->loc_pairs : 0.0));
	json_object_set_new(o, "mean_dir_gap_bytes", json_real(r->loc_dirs
		? r->loc_dir_mean_sum / (double)r->loc_dirs : 0.0));
	json_object_set_new(root, "locality", o);
	for (size_t i = 0; i < r->nr_worst; i++) {
		o = json_object();
		json_object_set_new(o, "path", json_string(r->worst[i].path));
		json_object_set_new(o, "runs", ju(r->worst[i].runs));
		json_object_set_new(o, "extents", ju(r->worst[i].extents));
		json_object_set_new(o, "size", ju(r->worst[i].size));
		json_array_append_new(worst, o);
	}
	json_object_set_new(root, "worst", worst);
	o = json_object();
	json_object_set_new(o, "inline", ju(r->f_inline));
	json_object_set_new(o, "delalloc", ju(r->f_delalloc));
	json_object_set_new(o, "unknown", ju(r->f_unknown));
	json_object_set_new(o, "encoded", ju(r->f_encoded));
	json_object_set_new(o, "unwritten", ju(r->f_unwritten));
	json_object_set_new(o, "shared", ju(r->f_shared));
	json_object_set_new(root, "flagged_files", o);
	o = json_object();
	json_object_set_new(o, "dirs", ju(r->dirs));
	json_object_set_new(o, "unreadable", ju(r->unreadable));
	json_object_set_new(o, "vanished", ju(r->vanished));
	json_object_set_new(o, "errors", ju(r->errors));
	json_object_set_new(o, "no_fiemap", ju(r->nomap));
	json_object_set_new(o, "mounts_skipped", ju(r->mounts_skipped));
	json_object_set_new(o, "special", ju(r->special));
	json_object_set_new(o, "io_uring", json_boolean(r->io_uring));
	json_object_set_new(root, "walk", o);
	json_object_set_new(root, "elapsed_s", json_real(r->elapsed_s));
	return root;
}

/* ---- free-space fragmentation ---- */

void frag_freesp_release(struct frag_freesp *fs)
{
	free(fs->device);
	free(fs->fstype);
	fs->device = fs->fstype = NULL;
}

static uint64_t field_u64(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* "   64M...  128M-  :             4        118375   47.50%" */
int frag_parse_e2freefrag(const char *text, struct frag_freesp *fs)
{
	const char *p = strstr(text, "HISTOGRAM OF FREE EXTENT SIZES:");

	fs->blksize = field_u64(text, "Blocksize: ");
	fs->free_bytes = field_u64(text, "Free blocks: ") * fs->blksize;
	fs->free_extents = field_u64(text, "Num. free extent: ");
	fs->max_extent = field_u64(text, "Max. free extent: ") * 1024;
	if (!fs->blksize || !p)
		return -1;
	fs->nr_bins = 0;
	for (p = strchr(p, '\n'); p && *p; p = strchr(p, '\n')) {
		char lo[32], hi[32];
		unsigned long long ext, blocks;
		uint64_t l, h;

		p++;
		if (sscanf(p, " %31[0-9KMGTP]... %31[0-9KMGTP]- : %llu %llu",
			   lo, hi, &ext, &blocks) != 4)
			continue;
		if (parse_size(lo, &l) < 0 || parse_size(hi, &h) < 0 ||
		    fs->nr_bins == FRAG_FREESP_BINS)
			continue;
		fs->bins[fs->nr_bins].lo = l;
		fs->bins[fs->nr_bins].hi = h;
		fs->bins[fs->nr_bins].extents = ext;
		fs->bins[fs->nr_bins].bytes = blocks * fs->blksize;
		fs->nr_bins++;
	}
	return 0;
}

/*
 * One "freesp -s" section: "from to extents blocks pct" rows, then
 * "total free extents N" / "total free blocks N".  Returns the text
 * after the section, or NULL when there is none.
 */
static const char *xfs_section(const char *p, uint64_t blksize,
			       struct frag_freesp *fs, uint64_t *largest)
{
	bool any = false;

	if (fs)
		fs->nr_bins = 0;
	*largest = 0;
	while (p && *p) {
		unsigned long long from, to, ext, blocks;
		const char *nl = strchr(p, '\n');

		if (sscanf(p, " %llu %llu %llu %llu", &from, &to, &ext,
			   &blocks) == 4) {
			uint64_t big;

			any = true;
			/* The largest extent of the top bucket: exact when
			 * it is alone, else bounded by the others' minimum. */
			big = ext <= 1 ? blocks : blocks - (ext - 1) * from;
			if (big > to)
				big = to;
			if (ext)
				*largest = big * blksize;
			if (fs && fs->nr_bins < FRAG_FREESP_BINS) {
				fs->bins[fs->nr_bins].lo = from * blksize;
				fs->bins[fs->nr_bins].hi = (to + 1) * blksize;
				fs->bins[fs->nr_bins].extents = ext;
				fs->bins[fs->nr_bins].bytes = blocks * blksize;
				fs->nr_bins++;
			}
		} else if (!strncmp(p, "total free extents ", 19)) {
			if (fs)
				fs->free_extents = strtoull(p + 19, NULL, 10);
		} else if (!strncmp(p, "total free blocks ", 18)) {
			if (fs)
				fs->free_bytes = strtoull(p + 18, NULL, 10) *
						 blksize;
		} else if (!strncmp(p, "average free extent size", 24)) {
			return nl ? nl + 1 : p + strlen(p);
		}
		p = nl ? nl + 1 : NULL;
	}
	return any ? p : NULL;
}

int frag_parse_xfs_freesp(const char *text, uint64_t blksize,
			  struct frag_freesp *fs)
{
	uint64_t largest;

	fs->blksize = blksize;
	if (!xfs_section(text, blksize, fs, &largest))
		return -1;
	fs->max_extent = largest;
	return 0;
}

int frag_parse_xfs_ag_freesp(const char *text, double **pct, size_t *n)
{
	size_t alloc = 0;
	const char *p = text;

	*pct = NULL;
	*n = 0;
	for (;;) {
		struct frag_freesp one;
		uint64_t largest;

		memset(&one, 0, sizeof(one));
		p = xfs_section(p, 1, &one, &largest);
		if (!p)
			break;
		ALLOC_GROW(*pct, *n + 1, alloc);
		(*pct)[(*n)++] = one.free_bytes ? 100.0 * (1.0 -
			(double)largest / (double)one.free_bytes) : 0.0;
	}
	return *n ? 0 : -1;
}

/* "#0    : 28521 1     4247  [ 1 0 ... 3 ]": free, frags, first, buddy
 * counts per order.  One fragment: the largest is all of it; else the
 * biggest buddy order, a lower bound (buddies are aligned). */
int frag_parse_mb_groups(const char *text, double **pct, size_t *n)
{
	size_t alloc = 0;

	*pct = NULL;
	*n = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n')) {
		unsigned long long free_b, frags, first;
		unsigned long long largest = 0;
		const char *q;
		int order = 0, used;

		if (*p == '\n')
			p++;
		if (*p != '#' || p[1] < '0' || p[1] > '9')
			continue;
		q = strchr(p, ':');
		if (!q || sscanf(q + 1, " %llu %llu %llu [%n", &free_b, &frags,
				 &first, &used) != 3)
			continue;
		q += 1 + used;
		for (;;) {
			unsigned long long c;
			int m;

			if (sscanf(q, " %llu%n", &c, &m) != 1)
				break;
			if (c)
				largest = 1ULL << order;
			order++;
			q += m;
		}
		if (frags == 1)
			largest = free_b;
		ALLOC_GROW(*pct, *n + 1, alloc);
		(*pct)[(*n)++] = free_b ? 100.0 * (1.0 - (double)largest /
						   (double)free_b) : 0.0;
	}
	return *n ? 0 : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void frag_freesp_groups(struct frag_freesp *fs, double *pct, size_t n)
{
	double sum = 0;

	fs->groups = n;
	if (!n)
		return;
	qsort(pct, n, sizeof(*pct), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += pct[i];
	fs->grp_mean = sum / (double)n;
	/* Nearest rank. */
	fs->grp_p50 = pct[(size_t)ceil(0.50 * (double)n) - 1];
	fs->grp_p95 = pct[(size_t)ceil(0.95 * (double)n) - 1];
	fs->grp_max = pct[n - 1];
}

/* The mount whose mount point is exactly path: source and fstype. */
static int mount_root_of(const char *path, char **src, char **fstype)
{
	char *real = realpath(path, NULL);
	char *text = read_file("/proc/self/mountinfo", NULL);
	char *line, *save = NULL;
	int rc = -1;

	if (!real || !text)
		goto out;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char mp[4096], fst[64], source[4096];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1 ||
		    sscanf(dash + 3, "%63s %4095s", fst, source) != 2)
			continue;
		/* The last match wins: it is the mount on top. */
		if (!strcmp(mp, real)) {
			free(*src);
			free(*fstype);
			*src = xstrdup(source);
			*fstype = xstrdup(fst);
			rc = 0;
		}
	}
out:
	free(real);
	free(text);
	return rc;
}

static void probe_ext4(struct frag_freesp *fs)
{
	char *argv[] = { (char *)"e2freefrag", fs->device, NULL };
	char *out = NULL, *mb, *sysp;
	double *pct;
	size_t n;
	int st;

	snprintf(fs->tool, sizeof(fs->tool), "e2freefrag");
	st = run_cmd(argv, &out, true);
	if (st != 0 || frag_parse_e2freefrag(out, fs) < 0) {
		snprintf(fs->why, sizeof(fs->why), "e2freefrag failed "
			 "(exit %d)", st);
		free(out);
		return;
	}
	free(out);
	fs->available = true;
	sysp = xasprintf("/proc/fs/ext4/%s/mb_groups",
			 strrchr(fs->device, '/') + 1);
	mb = read_file(sysp, NULL);
	free(sysp);
	if (mb && frag_parse_mb_groups(mb, &pct, &n) == 0) {
		frag_freesp_groups(fs, pct, n);
		free(pct);
	}
	free(mb);
}

static void probe_xfs(struct frag_freesp *fs)
{
	char *argv[] = { (char *)"xfs_db", (char *)"-r", (char *)"-c",
			 (char *)"sb 0", (char *)"-c", (char *)"p blocksize",
			 (char *)"-c", (char *)"p agcount", fs->device, NULL };
	char *out = NULL, **av;
	uint64_t bs, agc;
	size_t na = 0;
	double *pct;
	size_t n;
	int st;

	snprintf(fs->tool, sizeof(fs->tool), "xfs_db");
	st = run_cmd(argv, &out, true);
	bs = out ? field_u64(out, "blocksize = ") : 0;
	agc = out ? field_u64(out, "agcount = ") : 0;
	free(out);
	if (st != 0 || !bs || !agc || agc > 1000000) {
		snprintf(fs->why, sizeof(fs->why), "xfs_db failed (exit %d)",
			 st);
		return;
	}
	/* One xfs_db: the whole fs, then every AG. */
	/* xfs_db -r -c 'freesp -s' (-c AG)... DEV NULL */
	av = xcalloc(2 * agc + 6, sizeof(*av));
	av[na++] = xstrdup("xfs_db");
	av[na++] = xstrdup("-r");
	av[na++] = xstrdup("-c");
	av[na++] = xstrdup("freesp -s");
	for (uint64_t i = 0; i < agc; i++) {
		av[na++] = xstrdup("-c");
		av[na++] = xasprintf("freesp -s -a %llu",
				     (unsigned long long)i);
	}
	av[na++] = xstrdup(fs->device);
	out = NULL;
	st = run_cmd(av, &out, true);
	for (size_t i = 0; i < na; i++)
		free(av[i]);
	free(av);
	if (st != 0 || !out || frag_parse_xfs_freesp(out, bs, fs) < 0) {
		snprintf(fs->why, sizeof(fs->why), "xfs_db freesp failed "
			 "(exit %d)", st);
		free(out);
		return;
	}
	fs->available = true;
	{
		/* Skip the whole-fs section; the rest are the AGs. */
		const char *p = strstr(out, "average free extent size");

		p = p ? strchr(p, '\n') : NULL;
		if (p && frag_parse_xfs_ag_freesp(p + 1, &pct, &n) == 0) {
			frag_freesp_groups(fs, pct, n);
			free(pct);
		}
	}
	free(out);
}

void frag_freesp_probe(const char *path, struct frag_freesp *fs)
{
	struct stat st;

	memset(fs, 0, sizeof(*fs));
	if (!is_root()) {
		snprintf(fs->why, sizeof(fs->why), "needs root");
		return;
	}
	if (mount_root_of(path, &fs->device, &fs->fstype) < 0) {
		snprintf(fs->why, sizeof(fs->why), "'%s' is not the root of "
			 "a mount", path);
		return;
	}
	if (stat(fs->device, &st) < 0 || !S_ISBLK(st.st_mode)) {
		snprintf(fs->why, sizeof(fs->why), "'%s' is not a block "
			 "device", fs->device);
		return;
	}
	if (!strcmp(fs->fstype, "ext4") || !strcmp(fs->fstype, "ext3") ||
	    !strcmp(fs->fstype, "ext2"))
		probe_ext4(fs);
	else if (!strcmp(fs->fstype, "xfs"))
		probe_xfs(fs);
	else
		snprintf(fs->why, sizeof(fs->why), "no free-space tool for "
			 "%s", fs->fstype);
}

json_t *frag_freesp_json(const struct frag_freesp *fs)
{
	json_t *o = json_object(), *bins, *g;

	json_object_set_new(o, "available", json_boolean(fs->available));
	if (!fs->available) {
		json_object_set_new(o, "reason", json_string(fs->why));
		return o;
	}
	json_object_set_new(o, "tool", json_string(fs->tool));
	json_object_set_new(o, "device", json_string(fs->device));
	json_object_set_new(o, "fstype", json_string(fs->fstype));
	json_object_set_new(o, "block_size", ju(fs->blksize));
	json_object_set_new(o, "free_bytes", ju(fs->free_bytes));
	json_object_set_new(o, "free_extents", ju(fs->free_extents));
	json_object_set_new(o, "max_extent_bytes", ju(fs->max_extent));
	bins = json_array();
	for (size_t i = 0; i < fs->nr_bins; i++) {
		json_t *b = json_object();

		json_object_set_new(b, "lo", ju(fs->bins[i].lo));
		json_object_set_new(b, "hi", ju(fs->bins[i].hi));
		json_object_set_new(b, "extents", ju(fs->bins[i].extents));
		json_object_set_new(b, "bytes", ju(fs->bins[i].bytes));
		json_array_append_new(bins, b);
	}
	json_object_set_new(o, "histogram", bins);
	g = json_object();
	json_object_set_new(g, "groups", ju(fs->groups));
	json_object_set_new(g, "mean", json_real(fs->grp_mean));
	json_object_set_new(g, "p50", json_real(fs->grp_p50));
	json_object_set_new(g, "p95", json_real(fs->grp_p95));
	json_object_set_new(g, "max", json_real(fs->grp_max));
	json_object_set_new(o, "group_frag_pct", g);
	return o;
}
