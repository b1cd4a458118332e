/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tree.c - the classic allocator benchmark on a source tree: unpack a
 * kernel tarball, traverse it cold and hot the way
 * `find . -type f | xargs -n 500 cat > /dev/null` does, stat every
 * entry, then `rm -rf` it, and print the minutes:seconds table of the
 * mails that compared allocators side by side (doc/tree.md).
 *
 * The tree comes from a tarball (libarchive, decompressed in this
 * process and timed apart), a tree model file, or the built-in
 * kernel-like model.  The read, stat and delete phases can walk it in
 * readdir order, in inode order per directory (spd_readdir), or in the
 * order of the files' first extents on disk (FIEMAP), several orders on
 * the same image in one run; the order is the phase label.
 */
#include "workloads/tree.h"

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
#include "measure.h"
#include "model/tarball.h"
#include "model/treemodel.h"
#include "util/util.h"
#include "workloads/registry.h"

#define TREE_DIR "tree"

struct tree_opts {
	char *tarball;
	char *model;
	bool predecompress;
	char *order;
	uint64_t bufsize;
	long long threads;
	long long batch;
	bool keep;
	bool verify;
};

#define OFF(f) offsetof(struct tree_opts, f)
static const struct opt tree_opt_table[] = {
	{ "tarball", OPT_STRING, OFF(tarball), "",
	  "tar file to unpack (.tar, .gz, .bz2, .xz, .zst)", 0, 0, NULL },
	{ "model", OPT_STRING, OFF(model), "",
	  "tree model file ('path size' lines, doc/tree.md); empty and no "
	  "tarball: the built-in kernel-like model", 0, 0, NULL },
	{ "predecompress", OPT_BOOL, OFF(predecompress), "no",
	  "decompress the tarball into memory before the unpack phase",
	  0, 0, NULL },
	{ "order", OPT_STRING, OFF(order), "readdir",
	  "traversal orders, '+'-separated: readdir, inode, disk", 0, 0,
	  NULL },
	{ "bufsize", OPT_SIZE, OFF(bufsize), "256k",
	  "read and write buffer, 4k..64M", 0, 0, NULL },
	{ "threads", OPT_INT, OFF(threads), "1", "parallel readers",
	  1, 256, NULL },
	{ "batch", OPT_INT, OFF(batch), "500",
	  "names per read batch (xargs -n)", 1, 1000000, NULL },
	{ "keep", OPT_BOOL, OFF(keep), "no",
	  "skip the delete phase and leave the tree in place", 0, 0, NULL },
	{ "verify", OPT_BOOL, OFF(verify), "yes",
	  "compare the unpacked tree with its source (untimed phase)",
	  0, 0, NULL },
	OPT_END,
};

static const char *const tree_phase_names[] = {
	"unpack", "verify", "cold-read", "hot-read", "stat", "delete", NULL,
};

static const char *const tree_key_metrics[] = {
	"cold-read/MiB/s", "unpack/wall_s", NULL,
};

/* ---- pure helpers (tree.h) ---- */

static const char *const order_names[TREE_NR_ORDERS] = {
	"readdir", "inode", "disk",
};

const char *tree_order_name(enum tree_order o)
{
	return (unsigned)o < TREE_NR_ORDERS ? order_names[o] : "?";
}

int tree_parse_orders(const char *s, enum tree_order *orders, size_t *nr,
		      char *err, size_t errlen)
{
	*nr = 0;
	while (*s) {
		size_t l = strcspn(s, "+");
		int o;

		for (o = 0; o < TREE_NR_ORDERS; o++)
			if (strlen(order_names[o]) == l &&
			    !strncmp(s, order_names[o], l))
				break;
		if (o == TREE_NR_ORDERS) {
			snprintf(err, errlen, "unknown order '%.*s' (want "
				 "readdir, inode or disk)", (int)l, s);
			return -1;
		}
		for (size_t i = 0; i < *nr; i++) {
			if (orders[i] == (enum tree_order)o) {
				snprintf(err, errlen, "order '%s' given "
					 "twice", order_names[o]);
				return -1;
			}
		}
		orders[(*nr)++] = (enum tree_order)o;
		s += l;
		if (*s == '+' && !*++s) {
			snprintf(err, errlen, "order list ends in '+'");
			return -1;
		}
	}
	if (!*nr) {
		snprintf(err, errlen, "no traversal order given");
		return -1;
	}
	return 0;
}

static int cmp_ino(const struct tree_file *a, const struct tree_file *b)
{
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return strcmp(a->path, b->path);
}

static int cmp_phys(const struct tree_file *a, const struct tree_file *b)
{
	if (a->phys != b->phys)
		return a->phys < b->phys ? -1 : 1;
	return cmp_ino(a, b);
}

/* Merge sort: stable, so equal keys keep the walk order. */
static void file_msort(struct tree_file *v, struct tree_file *tmp, size_t n,
		       int (*cmp)(const struct tree_file *,
				  const struct tree_file *))
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	file_msort(v, tmp, h, cmp);
	file_msort(v + h, tmp, n - h, cmp);
	while (i < h && j < n)
		tmp[k++] = cmp(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

static void file_sort(struct tree_file *v, size_t n,
		      int (*cmp)(const struct tree_file *,
				 const struct tree_file *))
{
	struct tree_file *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));

	file_msort(v, tmp, n, cmp);
	free(tmp);
}

void tree_sort_ino(struct tree_file *v, size_t n)
{
	file_sort(v, n, cmp_ino);
}

void tree_sort_phys(struct tree_file *v, size_t n)
{
	file_sort(v, n, cmp_phys);
}

char *tree_fmt_mss(char *buf, size_t len, double secs)
{
	long long tenths;

	if (secs < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	tenths = (long long)(secs * 10 + 0.5);
	if (!tenths)
		snprintf(buf, len, "<0:00.1");
	else
		snprintf(buf, len, "%lld:%02lld.%lld", tenths / 600,
			 tenths / 10 % 60, tenths % 10);
	return buf;
}

static bool has_opt(const char *opts, const char *name)
{
	size_t l = strlen(name);

	for (const char *p = opts; p && *p;) {
		size_t n = strcspn(p, ",");

		if (n == l && !strncmp(p, name, l))
			return true;
		p += n;
		if (*p)
			p++;
	}
	return false;
}

const char *tree_atime_mode(const char *mount_opts)
{
	if (has_opt(mount_opts, "noatime"))
		return "noatime";
	if (has_opt(mount_opts, "relatime"))
		return "relatime";
	/* mountinfo shows no flag for strictatime */
	return "strictatime";
}

int tree_atime_code(const char *mode)
{
	return !strcmp(mode, "noatime") ? 0 :
	       !strcmp(mode, "relatime") ? 1 : 2;
}

/* ---- the run's state ---- */

struct tree_run {
	struct wl_ctx *ctx;
	const struct tree_opts *o;
	enum tree_order orders[TREE_MAX_ORDERS];
	size_t nr_orders;
	int root;                 /* the tree's directory */
	char *rootpath;
	char *buf;                /* bufsize, for the single-thread paths */
	size_t bufsize;
	char err[PATH_MAX + 256]; /* first failure, for phase_fail */
	bool failed, stopped;
	bool fiemap_warned;
};

static int run_fail(struct tree_run *r, const char *fmt, ...)
	PRINTF(2, 3);

/* Keep the first failure; it is printed and recorded by the caller. */
static int run_fail(struct tree_run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->failed = true;
	return -1;
}

static int run_fail_errno(struct tree_run *r, const char *what,
			  const char *path)
{
	return run_fail(r, "cannot %s '%s/%s': %s", what, r->rootpath, path,
			strerror(errno));
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* ---- unpack ---- */

struct unpack {
	struct tree_run *r;
	struct treemodel made;    /* directories created */
	struct treemodel *want;   /* tarball: what the archive held */
	uint64_t bytes, files, dirs, links, ops;
	uint64_t fs_ns;           /* in filesystem calls */
};

/* mkdir -p of dir (relative to the root), remembering what exists. */
static int make_dirs(struct unpack *u, const char *dir)
{
	char *p;
	int ret = 0;

	if (!*dir || treemodel_get(&u->made, dir))
		return 0;
	p = xstrdup(dir);
	for (char *s = p;; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;

		*s = '\0';
		if (!treemodel_get(&u->made, p)) {
			if (mkdirat(u->r->root, p, 0755) && errno != EEXIST) {
				ret = run_fail_errno(u->r, "create directory",
						     p);
				break;
			}
			treemodel_set(&u->made, p, 0);
			u->dirs++;
			u->ops++;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

static int make_parent(struct unpack *u, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	if (!slash)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	return make_dirs(u, dir);
}

/* Create one file from the model's size, writing the fill buffer. */
static int put_model_file(struct unpack *u, const char *path, uint64_t size)
{
	struct tree_run *r = u->r;
	int fd = openat(r->root, path, O_WRONLY | O_CREAT | O_TRUNC |
			O_CLOEXEC, 0644);

	if (fd < 0)
		return run_fail_errno(r, "create", path);
	while (size) {
		size_t n = size < r->bufsize ? (size_t)size : r->bufsize;

		if (write_full(fd, r->buf, n)) {
			run_fail_errno(r, "write", path);
			close(fd);
			return -1;
		}
		size -= n;
	}
	if (close(fd))
		return run_fail_errno(r, "close", path);
	return 0;
}

static int unpack_model(struct unpack *u, const struct treemodel *m)
{
	uint64_t t0 = now_ns();
	int ret = 0;

	for (size_t i = 0; i < m->nr && !ret; i++) {
		const struct tm_entry *e = &m->e[i];

		if (phase_stop_requested()) {
			u->r->stopped = true;
			break;
		}
		ret = make_parent(u, e->path);
		if (ret)
			break;
		if (e->type == TM_DIR) {
			ret = make_dirs(u, e->path);
		} else if (e->type == TM_LINK) {
			if (symlinkat(e->target, u->r->root, e->path))
				ret = run_fail_errno(u->r, "create link",
						     e->path);
			u->links++;
			u->ops++;
		} else {
			ret = put_model_file(u, e->path, e->size);
			u->bytes += e->size;
			u->files++;
			u->ops++;
		}
	}
	u->fs_ns += now_ns() - t0;
	return ret;
}

/* Copy the current file entry's data from the archive into path. */
static int put_tar_file(struct unpack *u, struct tarball *t,
			const struct tar_entry *e)
{
	struct tree_run *r = u->r;
	uint64_t t0 = now_ns(), written = 0;
	int fd = openat(r->root, e->path, O_WRONLY | O_CREAT | O_TRUNC |
			O_CLOEXEC, e->mode ? e->mode & 0777 : 0644);
	int ret = 0;

	if (fd < 0) {
		ret = run_fail_errno(r, "create", e->path);
		goto out;
	}
	for (;;) {
		ssize_t n;

		u->fs_ns += now_ns() - t0;
		n = tarball_read(t, r->buf, r->bufsize);
		t0 = now_ns();
		if (n < 0) {
			ret = run_fail(r, "bad tarball '%s' at '%s'",
				       r->o->tarball, e->path);
			break;
		}
		if (!n)
			break;
		if (write_full(fd, r->buf, (size_t)n)) {
			ret = run_fail_errno(r, "write", e->path);
			break;
		}
		written += (uint64_t)n;
	}
	if (fd >= 0 && close(fd) && !ret)
		ret = run_fail_errno(r, "close", e->path);
out:
	u->fs_ns += now_ns() - t0;
	u->bytes += written;
	treemodel_set(u->want, e->path, written);
	return ret;
}

static int unpack_tar_entry(struct unpack *u, struct tarball *t,
			    const struct tar_entry *e)
{
	struct tree_run *r = u->r;
	uint64_t t0 = now_ns();
	int ret = make_parent(u, e->path);

	u->fs_ns += now_ns() - t0;
	if (ret)
		return ret;
	if (e->type == TM_FILE && !e->hardlink) {
		u->files++;
		u->ops++;
		return put_tar_file(u, t, e);
	}
	t0 = now_ns();
	if (e->type == TM_DIR) {
		ret = make_dirs(u, e->path);
		treemodel_set_dir(u->want, e->path);
	} else if (e->type == TM_LINK) {
		unlinkat(r->root, e->path, 0);
		if (symlinkat(e->target, r->root, e->path))
			ret = run_fail_errno(r, "create link", e->path);
		treemodel_set_link(u->want, e->path, e->target);
		u->links++;
		u->ops++;
	} else {
		const struct tm_entry *src = treemodel_get(u->want,
							   e->target);

		unlinkat(r->root, e->path, 0);
		if (linkat(r->root, e->target, r->root, e->path, 0))
			ret = run_fail_errno(r, "create hard link", e->path);
		treemodel_set(u->want, e->path, src ? src->size : 0);
		u->files++;
		u->ops++;
	}
	u->fs_ns += now_ns() - t0;
	return ret;
}

static int unpack_tarball(struct unpack *u, const char *mem, size_t len,
			  uint64_t *lib_ns, uint64_t *lib_cpu_ns)
{
	struct tree_run *r = u->r;
	struct tarball t;
	struct tar_entry e;
	int ret = 0, n;

	if (mem ? tarball_open_memory(&t, mem, len, r->o->tarball) :
	    tarball_open(&t, r->o->tarball))
		return run_fail(r, "cannot open tarball '%s'", r->o->tarball);
	while ((n = tarball_next(&t, &e)) > 0) {
		if (phase_stop_requested()) {
			r->stopped = true;
			break;
		}
		ret = unpack_tar_entry(u, &t, &e);
		if (ret)
			break;
	}
	if (n < 0)
		ret = run_fail(r, "bad tarball '%s'", r->o->tarball);
	if (t.skipped)
		warning("'%s': skipped %zu entries (devices, fifos, paths "
			"with '..')", r->o->tarball, t.skipped);
	*lib_ns = t.lib_ns;
	*lib_cpu_ns = t.lib_cpu_ns;
	tarball_close(&t);
	return ret;
}

/* A printable, mildly compressible fill, like source text. */
static void fill_text(char *buf, size_t len)
{
	static const char words[] = "static int struct return if else for "
				    "while unsigned long char void\n\t";
	uint64_t x = 88172645463325252ULL;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = words[(i + (x >> 60)) % (sizeof(words) - 1)];
	}
}

int tree_replay(const char *dir, const struct treemodel *m)
{
	struct tree_opts o = { .bufsize = 65536 };
	struct tree_run r = { .o = &o, .bufsize = 65536 };
	struct unpack u = { .r = &r };
	int ret;

	r.root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.root < 0)
		return error_errno("cannot open '%s'", dir);
	r.rootpath = xstrdup(dir);
	r.buf = xmalloc(r.bufsize);
	fill_text(r.buf, r.bufsize);
	treemodel_init(&u.made);
	ret = unpack_model(&u, m);
	if (ret)
		error("%s", r.err);
	treemodel_release(&u.made);
	free(r.buf);
	free(r.rootpath);
	close(r.root);
	return ret;
}

/* ---- walking ---- */

struct ent {
	char *name;
	uint64_t ino;
	bool dir, reg;  /* from d_type, like find -type */
};

struct ents {
	struct ent *v;
	size_t nr, alloc;
};

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
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return run_fail_errno(r, "open directory", path);
	}
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
		return run_fail_errno(r, "read directory", path);
	}
	closedir(d);
	if (order == TREE_INODE)
		qsort(out->v, out->nr, sizeof(*out->v), cmp_ent_ino);
	return 0;
}

struct file_list {
	struct tree_file *v;
	size_t nr, alloc;
};

static void file_list_clear(struct file_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->v[i].path);
	l->nr = 0;
}

static void file_list_release(struct file_list *l)
{
	file_list_clear(l);
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

struct reader {
	struct tree_run *r;
	const struct file_list *files;
	size_t *next;             /* shared index, atomically advanced */
	pthread_mutex_t *lock;    /* for run_fail from several threads */
	char *buf;
	uint64_t bytes, files_done;
	uint64_t start_ns, end_ns;
};

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
			run_fail_errno(r, "read", rd->files->v[i].path);
			pthread_mutex_unlock(rd->lock);
			break;
		}
		rd->files_done++;
	}
	rd->end_ns = realtime_ns();
	return NULL;
}

struct read_state {
	struct reader *rd;   /* one per thread, totals across batches */
	size_t nr;
};

static int read_batch(struct tree_run *r, struct read_state *rs,
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
				run_fail(r, "cannot start a reader thread");
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

enum walk_mode { WK_READ, WK_COLLECT, WK_STAT, WK_DELETE };

struct walk {
	struct tree_run *r;
	enum walk_mode mode;
	enum tree_order order;
	char path[PATH_MAX];
	struct file_list batch;    /* WK_READ: names not read yet */
	struct file_list dirs;     /* WK_COLLECT: directories, pre-order */
	struct read_state *rs;
	uint64_t entries, ops;
};

static size_t path_push(struct walk *w, const char *name)
{
	size_t l = strlen(w->path);

	snprintf(w->path + l, sizeof(w->path) - l, "%s%s", l ? "/" : "",
		 name);
	return l;
}

static int walk_dir(struct walk *w, int dfd)
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
			ret = run_fail_errno(r, "stat", w->path);
		if (!ret && e->dir) {
			int sub = openat(dfd, e->name, O_RDONLY | O_DIRECTORY |
					 O_NOFOLLOW | O_CLOEXEC);

			if (w->mode == WK_COLLECT)
				file_list_add(&w->dirs, w->path, e->ino);
			if (sub < 0) {
				ret = run_fail_errno(r, "open directory",
						     w->path);
			} else {
				ret = walk_dir(w, sub);
				close(sub);
			}
			if (!ret && !r->stopped && w->mode == WK_DELETE &&
			    unlinkat(dfd, e->name, AT_REMOVEDIR))
				ret = run_fail_errno(r, "remove", w->path);
		} else if (!ret && w->mode == WK_DELETE) {
			if (unlinkat(dfd, e->name, 0))
				ret = run_fail_errno(r, "unlink", w->path);
		} else if (!ret && w->mode != WK_STAT && e->reg) {
			/* find -type f: symbolic links are not read */
			file_list_add(&w->batch, w->path, e->ino);
			if (w->mode == WK_READ &&
			    w->batch.nr >= (size_t)r->o->batch) {
				ret = read_batch(r, w->rs, &w->batch);
				file_list_clear(&w->batch);
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
		return run_fail_errno(r, "open", path);
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
static int collect_disk_order(struct walk *w)
{
	int ret = walk_dir(w, w->r->root);

	for (size_t i = 0; !ret && i < w->batch.nr && !w->r->stopped; i++)
		ret = first_extent(w->r, w->batch.v[i].path,
				   &w->batch.v[i].phys);
	if (!ret)
		tree_sort_phys(w->batch.v, w->batch.nr);
	return ret;
}

/* ---- phases ---- */

static int end_phase(struct tree_run *r, struct phase *ph, int ret,
		     const struct phase_rec **rec)
{
	if (ret) {
		phase_fail(ph, "%s", r->err);
		error("%s", r->err);
	}
	if (phase_end(r->ctx, ph, rec) < 0)
		ret = -1;
	return ret;
}

static void dev_snap(struct tree_run *r, struct measure_snap *s)
{
	measure_snap(s, r->ctx->target ? r->ctx->target->devname : NULL);
}

static const char *atime_of(struct tree_run *r)
{
	return tree_atime_mode(r->ctx->target ?
			       r->ctx->target->eff_mount_opts : NULL);
}

static int read_phase(struct tree_run *r, const char *name,
		      enum tree_order order)
{
	struct phase *ph = phase_begin(r->ctx, name, tree_order_name(order));
	struct walk w = { .r = r, .order = order };
	struct read_state rs;
	struct measure_snap s0, s1;
	uint64_t bytes = 0, files = 0;
	int ret;

	rs.nr = (size_t)r->o->threads;
	rs.rd = xcalloc(rs.nr, sizeof(*rs.rd));
	for (size_t i = 0; i < rs.nr; i++) {
		rs.rd[i].r = r;
		rs.rd[i].buf = xmalloc(r->bufsize);
	}
	w.rs = &rs;
	dev_snap(r, &s0);
	if (order == TREE_DISK) {
		w.mode = WK_COLLECT;
		ret = collect_disk_order(&w);
	} else {
		w.mode = WK_READ;
		ret = walk_dir(&w, r->root);
	}
	if (!ret && !r->stopped && w.batch.nr)
		ret = read_batch(r, &rs, &w.batch);
	dev_snap(r, &s1);
	for (size_t i = 0; i < rs.nr; i++) {
		bytes += rs.rd[i].bytes;
		files += rs.rd[i].files_done;
		if (rs.nr > 1)
			phase_worker(ph, (int)i, rs.rd[i].start_ns,
				     rs.rd[i].end_ns, rs.rd[i].bytes,
				     rs.rd[i].files_done,
				     rs.rd[i].files_done);
		free(rs.rd[i].buf);
	}
	free(rs.rd);
	phase_work(ph, bytes, files, files + w.ops);
	phase_metric(ph, "entries", (double)w.entries, "entries",
		     BETTER_NONE);
	if (s0.have_dev && s1.have_dev && files)
		phase_metric(ph, "rd_ios_per_file",
			     (double)(s1.rd_ios - s0.rd_ios) / (double)files,
			     "requests", BETTER_LOWER);
	phase_metric(ph, "atime_mode", tree_atime_code(atime_of(r)),
		     "0=noatime,1=relatime,2=strictatime", BETTER_NONE);
	file_list_release(&w.batch);
	file_list_release(&w.dirs);
	return end_phase(r, ph, ret, NULL);
}

static int stat_phase(struct tree_run *r, enum tree_order order)
{
	struct phase *ph = phase_begin(r->ctx, "stat", tree_order_name(order));
	struct walk w = { .r = r, .mode = WK_STAT, .order = order };
	struct measure_snap s0, s1;
	int ret;

	/* disk order is about data; stat follows inode order there */
	if (order == TREE_DISK)
		w.order = TREE_INODE;
	dev_snap(r, &s0);
	ret = walk_dir(&w, r->root);
	dev_snap(r, &s1);
	phase_work(ph, 0, w.entries, w.ops);
	if (s0.have_dev && s1.have_dev && w.entries)
		phase_metric(ph, "rd_ios_per_file",
			     (double)(s1.rd_ios - s0.rd_ios) /
			     (double)w.entries, "requests", BETTER_LOWER);
	return end_phase(r, ph, ret, NULL);
}

static int count_left(struct tree_run *r, uint64_t *left)
{
	int fd = openat(r->root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	*left = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return run_fail_errno(r, "open directory", ".");
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			(*left)++;
	closedir(d);
	return 0;
}

static int delete_phase(struct tree_run *r, enum tree_order order)
{
	struct phase *ph = phase_begin(r->ctx, "delete",
				       tree_order_name(order));
	struct walk w = { .r = r, .order = order };
	uint64_t left = 0, t0;
	int ret;

	if (order == TREE_DISK) {
		/* files in extent order, then directories deepest first */
		w.mode = WK_COLLECT;
		ret = collect_disk_order(&w);
		for (size_t i = 0; !ret && i < w.batch.nr; i++) {
			if (phase_stop_requested()) {
				r->stopped = true;
				break;
			}
			if (unlinkat(r->root, w.batch.v[i].path, 0))
				ret = run_fail_errno(r, "unlink",
						     w.batch.v[i].path);
			w.ops++;
		}
		/* links and other non-files were not collected */
		w.entries = w.batch.nr + w.dirs.nr;
		for (size_t i = w.dirs.nr; !ret && !r->stopped && i-- > 0;) {
			struct walk sub = { .r = r, .mode = WK_DELETE,
					    .order = TREE_INODE };
			int fd;

			/* remove what is not a regular file, then the dir */
			snprintf(sub.path, sizeof(sub.path), "%s",
				 w.dirs.v[i].path);
			fd = openat(r->root, w.dirs.v[i].path, O_RDONLY |
				    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				ret = run_fail_errno(r, "open directory",
						     w.dirs.v[i].path);
				break;
			}
			ret = walk_dir(&sub, fd);
			close(fd);
			w.entries += sub.entries;
			w.ops += sub.ops + 1;
			if (!ret && unlinkat(r->root, w.dirs.v[i].path,
					     AT_REMOVEDIR))
				ret = run_fail_errno(r, "remove",
						     w.dirs.v[i].path);
		}
		if (!ret && !r->stopped) {
			struct walk top = { .r = r, .mode = WK_DELETE,
					    .order = TREE_INODE };

			ret = walk_dir(&top, r->root);
			w.entries += top.entries;
		}
	} else {
		w.mode = WK_DELETE;
		ret = walk_dir(&w, r->root);
	}
	t0 = now_ns();
	if (!ret && !r->stopped && wl_sync(r->ctx))
		ret = run_fail(r, "cannot sync '%s'", r->rootpath);
	phase_metric(ph, "sync_s", secs(now_ns() - t0), "s", BETTER_LOWER);
	if (!ret && !r->stopped)
		ret = count_left(r, &left);
	phase_metric(ph, "left_entries", (double)left, "entries",
		     BETTER_NONE);
	if (!ret && left)
		ret = run_fail(r, "'%s' still holds %llu entries after the "
			       "delete", r->rootpath,
			       (unsigned long long)left);
	phase_work(ph, 0, w.entries, w.ops);
	file_list_release(&w.batch);
	file_list_release(&w.dirs);
	return end_phase(r, ph, ret, NULL);
}

static int verify_phase(struct tree_run *r, const struct treemodel *want)
{
	struct phase *ph = phase_begin(r->ctx, "verify", NULL);
	struct treemodel got;
	size_t bad = 0;
	int ret;

	treemodel_init(&got);
	ret = treemodel_capture(&got, r->rootpath);
	if (ret) {
		run_fail(r, "cannot capture '%s'", r->rootpath);
	} else {
		bad = treemodel_diff(want, &got, 10);
		if (bad)
			ret = run_fail(r, "'%s' differs from its source in "
				       "%zu paths", r->rootpath, bad);
	}
	phase_work(ph, got.bytes, got.nr, got.nr);
	phase_metric(ph, "mismatches", (double)bad, "paths", BETTER_LOWER);
	phase_metric(ph, "model_files",
		     (double)treemodel_count(want, TM_FILE), "files",
		     BETTER_NONE);
	phase_metric(ph, "model_bytes", (double)want->bytes, "B",
		     BETTER_NONE);
	treemodel_release(&got);
	return end_phase(r, ph, ret, NULL);
}

static int unpack_phase(struct tree_run *r, struct treemodel *want,
			const char *mem, size_t memlen)
{
	const struct tree_opts *o = r->o;
	const char *label = *o->tarball ? "tarball" :
			    *o->model ? "model" : "kmodel";
	struct phase *ph = phase_begin(r->ctx, "unpack", label);
	struct unpack u = { .r = r, .want = want };
	uint64_t lib_ns = 0, lib_cpu_ns = 0, t0;
	int ret;

	treemodel_init(&u.made);
	if (*o->tarball)
		ret = unpack_tarball(&u, mem, memlen, &lib_ns, &lib_cpu_ns);
	else
		ret = unpack_model(&u, want);
	t0 = now_ns();
	if (!ret && !r->stopped && wl_sync(r->ctx))
		ret = run_fail(r, "cannot sync '%s'", r->rootpath);
	u.fs_ns += now_ns() - t0;
	phase_metric(ph, "sync_s", secs(now_ns() - t0), "s", BETTER_LOWER);
	phase_metric(ph, "fs_s", secs(u.fs_ns), "s", BETTER_LOWER);
	phase_metric(ph, "decompress_s", secs(lib_ns), "s", BETTER_LOWER);
	phase_metric(ph, "decompress_cpu_s", secs(lib_cpu_ns), "s",
		     BETTER_LOWER);
	phase_metric(ph, "dirs", (double)u.dirs, "dirs", BETTER_NONE);
	phase_metric(ph, "links", (double)u.links, "links", BETTER_NONE);
	phase_metric(ph, "predecompressed", mem ? 1 : 0, "bool",
		     BETTER_NONE);
	phase_work(ph, u.bytes, u.files, u.ops);
	treemodel_release(&u.made);
	return end_phase(r, ph, ret, NULL);
}

static int load_source(struct tree_run *r, struct treemodel *want,
		       char **mem, size_t *memlen)
{
	const struct tree_opts *o = r->o;

	if (*o->tarball) {
		if (!o->predecompress)
			return 0;
		fprintf(r->ctx->progress, "tree: decompressing '%s' into "
			"memory\n", o->tarball);
		return tarball_decompress(o->tarball, mem, memlen);
	}
	if (*o->model) {
		/* a model file's order is the creation order */
		return treemodel_load(want, o->model);
	} else {
		struct treemodel p, uc, pc;

		treemodel_init(&p);
		treemodel_init(&uc);
		treemodel_init(&pc);
		kmodel_generate(want, &p, &uc, &pc);
		treemodel_release(&p);
		treemodel_release(&uc);
		treemodel_release(&pc);
		/* like a tarball made from a sorted tree */
		treemodel_sort(want, treemodel_pathcmp);
	}
	return 0;
}

/*
 * wl_cold_cache() remounts an owned target: the tree's descriptor must
 * not keep the filesystem busy across it.
 */
static int cold(struct tree_run *r)
{
	int ret;

	close(r->root);
	ret = wl_cold_cache(r->ctx);
	r->root = open(r->rootpath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->root < 0)
		return error_errno("cannot open '%s'", r->rootpath);
	return ret;
}

static int tree_run_phases(struct tree_run *r, struct treemodel *want,
			   const char *mem, size_t memlen)
{
	int ret = unpack_phase(r, want, mem, memlen);

	if (!ret && !r->stopped && r->o->verify)
		ret = verify_phase(r, want);
	for (size_t i = 0; i < r->nr_orders && !ret && !r->stopped; i++) {
		enum tree_order o = r->orders[i];

		if (cold(r))
			return -1;
		ret = read_phase(r, "cold-read", o);
		if (!ret && !r->stopped)
			ret = read_phase(r, "hot-read", o);
		if (ret || r->stopped)
			break;
		if (cold(r))
			return -1;
		ret = stat_phase(r, o);
	}
	/* rm -rf follows the traversals with a warm cache, as in the mail */
	if (!ret && !r->stopped && !r->o->keep)
		ret = delete_phase(r, r->orders[0]);
	return ret;
}

static int tree_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct tree_opts *o = vopts;
	struct tree_run r = { .ctx = ctx, .o = o, .root = -1 };
	struct treemodel want;
	char err[256], *mem = NULL;
	size_t memlen = 0;
	int ret = -1;

	if (tree_parse_orders(o->order, r.orders, &r.nr_orders, err,
			      sizeof(err)))
		return error("%s", err);
	treemodel_init(&want);
	r.bufsize = (size_t)o->bufsize;
	r.buf = xmalloc(r.bufsize);
	fill_text(r.buf, r.bufsize);
	r.rootpath = path_join(ctx->dir, TREE_DIR);
	if (load_source(&r, &want, &mem, &memlen))
		goto out;
	if (mkdir(r.rootpath, 0755)) {
		error_errno("cannot create '%s'", r.rootpath);
		goto out;
	}
	r.root = open(r.rootpath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.root < 0) {
		error_errno("cannot open '%s'", r.rootpath);
		goto out;
	}
	fprintf(ctx->progress, "tree: %s into %s, orders %s, atime %s\n",
		*o->tarball ? o->tarball : *o->model ? o->model :
		"built-in kernel model", r.rootpath, o->order, atime_of(&r));
	ret = tree_run_phases(&r, &want, mem, memlen);
	if (!ret && !r.stopped && !o->keep && rmdir(r.rootpath))
		ret = error_errno("cannot remove '%s'", r.rootpath);
out:
	if (r.root >= 0)
		close(r.root);
	free(mem);
	free(r.buf);
	free(r.rootpath);
	treemodel_release(&want);
	return ret;
}

static int tree_check(const void *vopts, char *err, size_t errlen)
{
	const struct tree_opts *o = vopts;
	enum tree_order orders[TREE_MAX_ORDERS];
	size_t nr;

	if (o->bufsize < 4096 || o->bufsize > (64ULL << 20)) {
		snprintf(err, errlen, "bufsize must be between 4k and 64M, "
			 "not %llu", (unsigned long long)o->bufsize);
		return -1;
	}
	if (*o->tarball && *o->model) {
		snprintf(err, errlen, "give tarball= or model=, not both");
		return -1;
	}
	if (o->predecompress && !*o->tarball) {
		snprintf(err, errlen, "predecompress=1 needs tarball=");
		return -1;
	}
	if (*o->tarball && access(o->tarball, R_OK)) {
		snprintf(err, errlen, "cannot read tarball '%s': %s",
			 o->tarball, strerror(errno));
		return -1;
	}
	if (*o->model && access(o->model, R_OK)) {
		snprintf(err, errlen, "cannot read model '%s': %s", o->model,
			 strerror(errno));
		return -1;
	}
	return tree_parse_orders(o->order, orders, &nr, err, errlen);
}

/* ---- the report ---- */

struct row {
	const char *phase, *label;
};

static const char *row_title(const char *phase)
{
	if (!strcmp(phase, "unpack"))
		return "unpacking tree";
	if (!strcmp(phase, "cold-read"))
		return "cold traversal";
	if (!strcmp(phase, "hot-read"))
		return "hot traversal";
	return phase;
}

static bool same_key(const struct phase_rec *p, const struct row *k)
{
	return !strcmp(p->name, k->phase) &&
	       !strcmp(p->label ? p->label : "", k->label ? k->label : "");
}

/* Rows in first-seen order over every group's phases, verify left out. */
static size_t collect_rows(const struct cmp_group *g, size_t ng,
			   struct row **out)
{
	struct row *v = NULL;
	size_t nr = 0, alloc = 0;

	for (size_t i = 0; i < ng; i++)
		for (size_t j = 0; j < g[i].nr_reps; j++)
			for (size_t k = 0; k < g[i].reps[j]->nr_phases; k++) {
				const struct phase_rec *p =
					&g[i].reps[j]->phases[k];
				struct row key = { p->name, p->label };
				size_t n;

				if (!strcmp(p->name, "verify"))
					continue;
				for (n = 0; n < nr; n++)
					if (same_key(p, &v[n]))
						break;
				if (n < nr)
					continue;
				ALLOC_GROW(v, nr + 1, alloc);
				v[nr++] = key;
			}
	*out = v;
	return nr;
}

/* Mean of a figure of the row's phase over a group's reps; <0: none. */
static double group_mean(const struct cmp_group *g, const struct row *k,
			 const char *metric)
{
	double sum = 0;
	int n = 0;

	for (size_t j = 0; j < g->nr_reps; j++)
		for (size_t i = 0; i < g->reps[j]->nr_phases; i++) {
			const struct phase_rec *p = &g->reps[j]->phases[i];
			const struct metric *m;

			if (p->status != PHASE_OK || !same_key(p, k))
				continue;
			if (!metric) {
				sum += secs(p->m.wall_ns);
				n++;
			} else if ((m = phase_rec_metric(p, metric))) {
				sum += m->value;
				n++;
			}
		}
	return n ? sum / n : -1;
}

static void row_name(char *buf, size_t len, const struct row *k,
		     const char *what)
{
	if (k->label && strcmp(k->phase, "unpack"))
		snprintf(buf, len, "%s (%s)%s:", row_title(k->phase),
			 k->label, what);
	else
		snprintf(buf, len, "%s%s:", row_title(k->phase), what);
}

static bool is_read(const struct row *k)
{
	return !strcmp(k->phase, "cold-read") ||
	       !strcmp(k->phase, "hot-read");
}

static void print_table(FILE *out, const struct cmp_group *g, size_t ng)
{
	struct row *rows;
	size_t nr = collect_rows(g, ng, &rows);
	char name[96], cell[32];

	fprintf(out, "    %-38s", "");
	for (size_t i = 0; i < ng; i++)
		fprintf(out, " %10.10s", g[i].label ? g[i].label : "?");
	fputc('\n', out);
	for (size_t r = 0; r < nr; r++) {
		row_name(name, sizeof(name), &rows[r], "");
		fprintf(out, "    %-38s", name);
		for (size_t i = 0; i < ng; i++)
			fprintf(out, " %10s", tree_fmt_mss(cell, sizeof(cell),
				group_mean(&g[i], &rows[r], NULL)));
		fputc('\n', out);
	}
	/* the rates behind the table, and what a read phase wrote */
	static const struct {
		const char *metric, *what, *fmt;
	} extra[] = {
		{ "MiB/s", " MiB/s", " %10.2f" },
		{ "files/s", " files/s", " %10.0f" },
		{ "rd_ios_per_file", " reads/file", " %10.2f" },
		{ "dev_write_MiB", " MiB written", " %10.2f" },
	};
	fputc('\n', out);
	for (size_t r = 0; r < nr; r++) {
		bool is_unpack = !strcmp(rows[r].phase, "unpack");

		for (size_t x = 0; x < ARRAY_SIZE(extra); x++) {
			if (x >= 2 && !is_read(&rows[r]))
				continue;
			if (x == 2 && strcmp(rows[r].phase, "cold-read"))
				continue;
			if (x < 2 && !is_read(&rows[r]) && !is_unpack)
				continue;
			row_name(name, sizeof(name), &rows[r], extra[x].what);
			fprintf(out, "    %-38s", name);
			for (size_t i = 0; i < ng; i++) {
				double v = group_mean(&g[i], &rows[r],
						      extra[x].metric);

				if (v < 0)
					fprintf(out, " %10s", "-");
				else
					fprintf(out, extra[x].fmt, v);
			}
			fputc('\n', out);
		}
	}
	free(rows);
}

static void tree_report_compare(FILE *out, const struct cmp_group *groups,
				size_t nr_groups)
{
	fprintf(out, "\ntree: mean over repetitions, m:ss.s\n");
	print_table(out, groups, nr_groups);
}

static const struct phase_rec *find_phase(const struct wlrun_rec *wr,
					  const char *name)
{
	for (size_t i = 0; i < wr->nr_phases; i++)
		if (!strcmp(wr->phases[i].name, name))
			return &wr->phases[i];
	return NULL;
}

static double metric_or(const struct phase_rec *p, const char *name,
			double def)
{
	const struct metric *m = p ? phase_rec_metric(p, name) : NULL;

	return m ? m->value : def;
}

static void tree_report(FILE *out, const struct run_rec *run,
			const struct wlrun_rec *wr)
{
	const struct target_rec *t = run ? run_rec_target(run, wr) : NULL;
	const struct wlrun_rec *reps[1] = { wr };
	struct cmp_group g = {
		.label = t && t->name ? t->name : "target", .run = run,
		.reps = reps, .nr_reps = 1,
	};
	const struct phase_rec *up = find_phase(wr, "unpack");

	fprintf(out, "\ntree on %s (%s, atime %s, mount %s):\n", g.label,
		t && t->fstype ? t->fstype : "?",
		tree_atime_mode(t ? t->eff_mount_opts : NULL),
		t && t->eff_mount_opts ? t->eff_mount_opts : "?");
	print_table(out, &g, 1);
	if (up && up->status == PHASE_OK) {
		double wall = secs(up->m.wall_ns);

		fprintf(out, "\n    unpack: %.2f MiB/s over %llu files, "
			"%.0f files/s; filesystem %.2f s, decompress %.2f s "
			"(CPU %.2f s), sync %.2f s%s\n",
			metric_or(up, "MiB/s", wall > 0 ? (double)up->bytes /
				  1048576.0 / wall : 0),
			(unsigned long long)up->files,
			metric_or(up, "files/s", wall > 0 ?
				  (double)up->files / wall : 0),
			metric_or(up, "fs_s", 0), metric_or(up, "decompress_s", 0),
			metric_or(up, "decompress_cpu_s", 0),
			metric_or(up, "sync_s", 0),
			metric_or(up, "predecompressed", 0) > 0 ?
			", predecompressed" : "");
	}
	for (size_t i = 0; i < wr->nr_phases; i++) {
		const struct phase_rec *p = &wr->phases[i];
		double wall = secs(p->m.wall_ns);

		if (strcmp(p->name, "cold-read") && strcmp(p->name, "hot-read"))
			continue;
		fprintf(out, "    %s (%s): %.2f megabytes/second over %llu "
			"files, %.0f files/second, cpu %.2f s user %.2f s "
			"sys, wrote %.2f MiB\n", row_title(p->name),
			p->label ? p->label : "-",
			metric_or(p, "MiB/s", wall > 0 ? (double)p->bytes /
				  1048576.0 / wall : 0),
			(unsigned long long)p->files,
			metric_or(p, "files/s", wall > 0 ?
				  (double)p->files / wall : 0),
			secs(p->m.user_ns), secs(p->m.sys_ns),
			metric_or(p, "dev_write_MiB", 0));
	}
	for (size_t i = 0; i < wr->nr_phases; i++)
		if (wr->phases[i].status != PHASE_OK)
			fprintf(out, "    %s: %s\n", wr->phases[i].name,
				wr->phases[i].error ? wr->phases[i].error :
				"failed");
}

const struct workload wl_tree = {
	.name = "tree",
	.summary = "unpack a source tree, cold and hot traversal, stat, "
		   "delete, in readdir/inode/disk order",
	.phases = tree_phase_names,
	/* Orders and phases come from the options alone, so ranks stay
	 * aligned; each unpacks its own copy in its rank directory. */
	.flags = WL_MPI_AWARE,
	.no_verify = "it writes the archive's own contents",
	.opts = tree_opt_table,
	.opts_size = sizeof(struct tree_opts),
	.check = tree_check,
	.run = tree_run_fn,
	.report = tree_report,
	.report_compare = tree_report_compare,
	.key_metrics = tree_key_metrics,
};
