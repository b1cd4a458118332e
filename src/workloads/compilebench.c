/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compilebench.c - Chris Mason's compilebench 0.6, in C: age a
 * filesystem by creating, patching, compiling, cleaning, reading,
 * stat'ing and deleting kernel-like trees in a random but fixed order.
 *
 * The decisions (which op, which tree) come from cb/cbstate.c, drawn
 * exactly like the Python tool; this file does the file I/O for each
 * action, one phase per op, and renders compilebench's report from the
 * phase records.  Progress lines match compilebench's stderr byte for
 * byte, so scripts that parse them keep working.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cb/cbstate.h"
#include "model/treemodel.h"
#include "util/util.h"
#include "util/verify.h"
#include "workloads/registry.h"

enum cb_fill { CB_FILL_A, CB_FILL_RANDOM };

struct cb_opts {
	long long initial_dirs;
	long long runs;
	char *sources;
	uint64_t buffer_size;
	bool makej;
	bool no_sync;
	int data;
	int compat;
	long long seed;
};

static const struct opt_enum fill_values[] = {
	{ "a", CB_FILL_A, "every byte is 'a', like compilebench" },
	{ "random", CB_FILL_RANDOM, "incompressible bytes" },
	{ NULL, 0, NULL },
};

static const struct opt_enum compat_values[] = {
	{ "py3", CB_COMPAT_PY3, "compilebench 0.6 on Python 3, quirks kept" },
	{ "fixed", CB_COMPAT_FIXED, "same draws, compiled trees counted "
	  "correctly" },
	{ NULL, 0, NULL },
};

#define OFF(f) offsetof(struct cb_opts, f)
static const struct opt cb_opt_table[] = {
	{ "initial-dirs", OPT_INT, OFF(initial_dirs), "30",
	  "trees created before the random ops", 0, 100000, NULL },
	{ "runs", OPT_INT, OFF(runs), "100", "random ops to complete",
	  0, 100000000, NULL },
	{ "sources", OPT_STRING, OFF(sources), "",
	  "directory with compilebench's dataset-* files (empty: the "
	  "built-in model)", 0, 0, NULL },
	{ "buffer-size", OPT_SIZE, OFF(buffer_size), "262144",
	  "read/write buffer, 4096..64M", 0, 0, NULL },
	{ "makej", OPT_BOOL, OFF(makej), "no",
	  "compile, read and delete the initial trees, then stop",
	  0, 0, NULL },
	{ "no-sync", OPT_BOOL, OFF(no_sync), "no",
	  "no syncs and no cache drops", 0, 0, NULL },
	{ "data", OPT_ENUM, OFF(data), "a", "file contents", 0, 0,
	  fill_values },
	{ "compat", OPT_ENUM, OFF(compat), "py3", "compilebench flavour",
	  0, 0, compat_values },
	{ "seed", OPT_INT, OFF(seed), "555", "random.Random() seed",
	  0, LLONG_MAX, NULL },
	OPT_END,
};

static const char *const cb_phase_names[] = {
	"native", "initial-create", "create", "patch", "compile", "clean",
	"read", "read-compiled", "delete", "delete-compiled", "stat",
	"stat-compiled", "summary", NULL,
};

/* ---- statistics, shared by the summary phase and the report ---- */

enum { K_INITIAL, K_CREATE, K_PATCH, K_COMPILE, K_CLEAN, K_READ,
       K_READ_COMPILED, K_DELETE, K_DELETE_COMPILED, K_STAT,
       K_STAT_COMPILED, K_NR };

struct kind_info {
	const char *phase;  /* phase name */
	const char *tag;    /* compilebench's report label */
	bool seconds;       /* averages times, not rates */
};

static const struct kind_info kinds[K_NR] = {
	{ "initial-create", "intial create", false },
	{ "create", "create", false },
	{ "patch", "patch", false },
	{ "compile", "compile", false },
	{ "clean", "clean", false },
	{ "read", "read tree", false },
	{ "read-compiled", "read compiled tree", false },
	{ "delete", "delete tree", true },
	{ "delete-compiled", "delete compiled tree", true },
	{ "stat", "stat tree", true },
	{ "stat-compiled", "stat compiled tree", true },
};

struct kind_stats {
	int runs;
	double sum;          /* per-op MB/s, or seconds */
	double user, sys;    /* seconds */
	uint64_t bytes, wall_ns;
	double sync_s;
};

static double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* compilebench's per-op figure: MB / seconds (0 if the clock saw 0). */
static double op_rate(uint64_t bytes, uint64_t wall_ns)
{
	return wall_ns ? mib(bytes) / secs(wall_ns) : 0.0;
}

static void stats_add(struct kind_stats *st, const struct phase_rec *p)
{
	const struct metric *sync;

	if (p->status != PHASE_OK)
		return;
	for (int k = 0; k < K_NR; k++) {
		if (strcmp(p->name, kinds[k].phase))
			continue;
		st[k].runs++;
		st[k].sum += kinds[k].seconds ? secs(p->m.wall_ns) :
			     op_rate(p->bytes, p->m.wall_ns);
		st[k].user += secs(p->m.user_ns);
		st[k].sys += secs(p->m.sys_ns);
		st[k].bytes += p->bytes;
		st[k].wall_ns += p->m.wall_ns;
		sync = phase_rec_metric(p, "sync_s");
		if (sync)
			st[k].sync_s += sync->value;
		return;
	}
}

/* ---- the run ---- */

struct cb_run {
	struct wl_ctx *ctx;
	const struct cb_opts *o;
	struct cb_sets sets;
	struct cb_state st;
	int bench_fd;
	char *buf;
	size_t bufsize;
	bool drop_err;
	bool verify;         /* --verify: util/verify.h data */
	struct kind_stats stats[K_NR];
};

/* What the current op did; the phase gets it at the end. */
struct op_work {
	struct phase *ph;
	uint64_t bytes, files, ops;
	bool stopped;
};

static int op_error(struct cb_run *r, struct op_work *w, const char *what,
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

static int open_tree(struct cb_run *r, struct op_work *w, const char *tree,
		     bool create)
{
	int fd;

	if (create && mkdirat(r->bench_fd, tree, 0755) && errno != EEXIST)
		return op_error(r, w, "create directory", tree, "");
	fd = openat(r->bench_fd, tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return op_error(r, w, "open directory", tree, "");
	return fd;
}

/*
 * run_directory(): write every file of m into tree, creating parent
 * directories on first sight.  A patch (readfirst) reads each file,
 * truncates it and rewrites it through an O_APPEND descriptor.
 */
static int write_set(struct cb_run *r, struct op_work *w, const char *tree,
		     const struct treemodel *m, bool unlink_first,
		     bool readfirst)
{
	struct treemodel seen;
	int tfd = open_tree(r, w, tree, true), ret = 0;
	int flags = (readfirst ? O_RDWR : O_WRONLY) | O_APPEND | O_CREAT |
		    O_CLOEXEC;
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
			ret = op_error(r, w, "open", tree, path);
			break;
		}
		if (readfirst) {
			int rc = read_all(r, fd, &rd, w, tree, path);

			if (rc == -2)
				ret = -1;
			else if (rc || ftruncate(fd, 0))
				ret = op_error(r, w, "read and truncate", tree,
					       path);
		}
		/* --verify: O_APPEND writes land at the end as it is now */
		off = 0;
		if (!ret && r->verify) {
			if (fstat(fd, &sb))
				ret = op_error(r, w, "stat", tree, path);
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
				ret = op_error(r, w, "write", tree, path);
			off += cur;
			left -= cur;
		}
		if (close(fd) && !ret)
			ret = op_error(r, w, "close", tree, path);
		w->bytes += m->e[i].size;
		w->files++;
		w->ops++;
		phase_progress(w->ph, m->e[i].size, 1, 0);
	}
	treemodel_release(&seen);
	close(tfd);
	return ret;
}

static int clean_set(struct cb_run *r, struct op_work *w, const char *tree,
		     const struct treemodel *m)
{
	int tfd = open_tree(r, w, tree, false), ret = 0;

	if (tfd < 0)
		return -1;
	phase_expect(w->ph, 0, m->nr, 0);
	for (size_t i = 0; i < m->nr; i++) {
		if (phase_stop_requested()) {
			w->stopped = true;
			break;
		}
		if (unlinkat(tfd, m->e[i].path, 0)) {
			ret = op_error(r, w, "unlink", tree, m->e[i].path);
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

enum walk_mode { WALK_READ, WALK_STAT, WALK_DELETE, WALK_COLLECT };

struct walk {
	struct cb_run *r;
	struct op_work *w;
	enum walk_mode mode;
	const char *tree;
	char path[PATH_MAX];    /* relative to the tree */
	struct treemodel *collect; /* WALK_COLLECT: files in walk order */
	const struct treemodel *sizes;
};

struct names {
	char **v;
	size_t nr, alloc;
};

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
			ret = op_error(r, w, "read", wk->tree, wk->path);
			break;
		}
		ret = read_all(r, fd, &w->bytes, w, wk->tree, wk->path);
		if (ret == -1)
			ret = op_error(r, w, "read", wk->tree, wk->path);
		else if (ret)
			ret = -1;
		close(fd);
		break;
	case WALK_STAT:
		if (fstatat(dfd, name, &sb, 0))
			ret = op_error(r, w, "stat", wk->tree, wk->path);
		break;
	case WALK_DELETE:
		if (unlinkat(dfd, name, 0))
			ret = op_error(r, w, "unlink", wk->tree, wk->path);
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
		return op_error(wk->r, wk->w, "open directory", wk->tree,
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
			ret = op_error(wk->r, wk->w, "open directory",
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
			ret = op_error(wk->r, wk->w, wk->mode == WALK_STAT ?
				       "stat" : "remove", wk->tree, wk->path);
		wk->w->ops++;
		wk->path[l] = '\0';
	}
	names_release(&files);
	names_release(&dirs);
	return ret;
}

static int walk_tree(struct cb_run *r, struct op_work *w, const char *tree,
		     enum walk_mode mode, struct treemodel *collect,
		     const struct treemodel *sizes)
{
	struct walk wk = {
		.r = r, .w = w, .mode = mode, .tree = tree,
		.collect = collect, .sizes = sizes,
	};
	int tfd = open_tree(r, w, tree, false), ret;

	if (tfd < 0)
		return -1;
	ret = walk_dir(&wk, tfd);
	close(tfd);
	return ret;
}

/* Sync inside the op's timing, timed on its own as sync_s. */
static int op_sync(struct cb_run *r, struct op_work *w)
{
	uint64_t t0 = now_ns();
	int ret = wl_sync(r->ctx);

	phase_metric(w->ph, "sync_s", secs(now_ns() - t0), "s",
		     BETTER_LOWER);
	if (ret)
		phase_fail(w->ph, "sync failed");
	return ret;
}

static int finish(struct cb_run *r, struct op_work *w, int ret,
		  const struct phase_rec **rec)
{
	phase_work(w->ph, w->bytes, w->files, w->ops);
	if (phase_end(r->ctx, w->ph, rec) < 0)
		ret = -1;
	w->ph = NULL;
	return ret;
}

/* The progress line of a run_directory() op, as compilebench prints it. */
static void print_written(struct cb_run *r, const char *operation,
			  const char *tree, const struct phase_rec *p)
{
	fprintf(r->ctx->progress, "%s %s %dMB in %.2f seconds (%.2f MB/s)\n",
		operation, tree, (int)mib(p->bytes), secs(p->m.wall_ns),
		op_rate(p->bytes, p->m.wall_ns));
}

static const char *data_label(enum cb_data d)
{
	static const char *const l[] = { "unpatched", "patched",
					 "unpatched compiled",
					 "patched compiled" };

	return l[d];
}

/* native_order(): create the set, keep the order readdir gives back. */
static int native_pass(struct cb_run *r, enum cb_data d)
{
	struct treemodel sorted, order;
	struct op_work w = { 0 };
	const struct phase_rec *rec;
	char name[32], op[64];
	struct stat sb;
	int ret;

	for (int i = 0;; i++) {
		snprintf(name, sizeof(name), "native-%d", i);
		if (fstatat(r->bench_fd, name, &sb, 0) && errno == ENOENT)
			break;
	}
	treemodel_init(&sorted);
	treemodel_init(&order);
	treemodel_copy(&sorted, &r->sets.d[d]);
	treemodel_sort(&sorted, treemodel_pathcmp);
	w.ph = phase_begin(r->ctx, "native", data_label(d));
	ret = write_set(r, &w, name, &sorted, false, false);
	ret = finish(r, &w, ret, &rec);
	if (!ret && !w.stopped) {
		snprintf(op, sizeof(op), "native %s", data_label(d));
		print_written(r, op, name, rec);
	}
	/* the walk and the removal are setup, not measured */
	memset(&w, 0, sizeof(w));
	if (!ret)
		ret = walk_tree(r, &w, name, WALK_COLLECT, &order,
				&r->sets.d[d]);
	if (!ret)
		ret = walk_tree(r, &w, name, WALK_DELETE, NULL, NULL);
	if (!ret && unlinkat(r->bench_fd, name, AT_REMOVEDIR))
		ret = op_error(r, &w, "remove", name, "");
	if (!ret && order.nr == r->sets.d[d].nr) {
		treemodel_release(&r->sets.d[d]);
		r->sets.d[d] = order;
	} else {
		if (!ret && !w.stopped)
			warning("native order of '%s' lost files; keeping "
				"the sorted order", data_label(d));
		treemodel_release(&order);
	}
	treemodel_release(&sorted);
	return ret;
}

static int do_op(struct cb_run *r, const struct cb_action *a)
{
	const struct treemodel *m = a->data < CB_NR_DATA ?
				    &r->sets.d[a->data] : NULL;
	struct op_work w = { 0 };
	const struct phase_rec *rec = NULL;
	FILE *pr = r->ctx->progress;
	int ret = 0;

	w.ph = phase_begin(r->ctx, cb_phase_name(a), a->tree);
	switch (a->op) {
	case CB_OP_CREATE:
	case CB_OP_COMPILE:
		ret = write_set(r, &w, a->tree, m, false, false);
		break;
	case CB_OP_PATCH:
		ret = write_set(r, &w, a->tree, m, a->unlink_first, true);
		break;
	case CB_OP_CLEAN:
		ret = clean_set(r, &w, a->tree, m);
		break;
	case CB_OP_READ:
		ret = walk_tree(r, &w, a->tree, WALK_READ, NULL, NULL);
		break;
	case CB_OP_STAT:
		ret = walk_tree(r, &w, a->tree, WALK_STAT, NULL, NULL);
		break;
	case CB_OP_DELETE:
		ret = walk_tree(r, &w, a->tree, WALK_DELETE, NULL, NULL);
		break;
	default:
		BUG("bad op %d", (int)a->op);
	}
	if (!ret && !w.stopped && a->sync && !r->o->no_sync)
		ret = op_sync(r, &w);
	ret = finish(r, &w, ret, &rec);
	if (ret || w.stopped)
		return ret;
	stats_add(r->stats, rec);
	switch (a->op) {
	case CB_OP_CREATE:
		print_written(r, "create dir", a->tree, rec);
		break;
	case CB_OP_COMPILE:
		print_written(r, "compile dir", a->tree, rec);
		break;
	case CB_OP_PATCH:
		print_written(r, "patch dir", a->tree, rec);
		break;
	case CB_OP_CLEAN:
		fprintf(pr, "clean %s %dMB in %.2f seconds (%.2f MB/s)\n",
			a->tree, (int)mib(rec->bytes), secs(rec->m.wall_ns),
			op_rate(rec->bytes, rec->m.wall_ns));
		break;
	case CB_OP_READ:
		fprintf(pr, "read dir %s in %.2f %.2f MB/s\n", a->tree,
			secs(rec->m.wall_ns),
			op_rate(rec->bytes, rec->m.wall_ns));
		break;
	case CB_OP_STAT:
		fprintf(pr, "stat dir %s in %.2f seconds\n", a->tree,
			secs(rec->m.wall_ns));
		break;
	default:
		fprintf(pr, "delete %s in %.2f seconds\n", a->tree,
			secs(rec->m.wall_ns));
		break;
	}
	return 0;
}

static int summary(struct cb_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "summary", NULL);
	char name[64];

	for (int k = 0; k < K_NR; k++) {
		const struct kind_stats *s = &r->stats[k];
		const char *kn = kinds[k].phase;

		snprintf(name, sizeof(name), "%s.runs", kn);
		phase_metric(ph, name, s->runs, "runs", BETTER_NONE);
		if (!s->runs)
			continue;
		snprintf(name, sizeof(name), "%s.avg", kn);
		if (kinds[k].seconds)
			phase_metric(ph, name, s->sum / s->runs, "s",
				     BETTER_LOWER);
		else
			phase_metric(ph, name, s->sum / s->runs, "MiB/s",
				     BETTER_HIGHER);
		if (!kinds[k].seconds) {
			snprintf(name, sizeof(name), "%s.total_MiB/s", kn);
			phase_metric(ph, name, op_rate(s->bytes, s->wall_ns),
				     "MiB/s", BETTER_HIGHER);
		}
		snprintf(name, sizeof(name), "%s.sync_s", kn);
		phase_metric(ph, name, s->sync_s, "s", BETTER_LOWER);
	}
	return phase_end(r->ctx, ph, NULL);
}

static bool tree_exists(void *arg, const char *name)
{
	struct cb_run *r = arg;
	struct stat sb;

	return !fstatat(r->bench_fd, name, &sb, 0);
}

/* xorshift64*: fast, and plenty for incompressible file contents. */
static void fill_random(char *buf, size_t len, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;

	for (size_t i = 0; i < len; i++) {
		if (!(i & 7)) {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
		}
		buf[i] = (char)((x * 0x2545f4914f6cdd1dULL) >> (8 * (i & 7)));
	}
}

static int cb_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct cb_opts *o = vopts;
	struct cb_params par = {
		.initial_dirs = (int)o->initial_dirs, .runs = (int)o->runs,
		.makej = o->makej, .compat = (enum cb_compat)o->compat,
		.seed = (uint64_t)o->seed,
	};
	struct cb_run r = { .ctx = ctx, .o = o };
	struct cb_action a;
	enum cb_event ev;
	bool stopped = false;
	int ret = 0;

	fprintf(ctx->progress, "using working directory %s, %d intial dirs "
		"%d runs\n", ctx->dir, par.initial_dirs, par.runs);
	if (o->sources && *o->sources) {
		if (cb_sets_load(&r.sets, o->sources) < 0)
			return -1;
	} else {
		cb_sets_builtin(&r.sets);
	}
	r.bench_fd = open(ctx->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.bench_fd < 0) {
		cb_sets_release(&r.sets);
		return error_errno("cannot open '%s'", ctx->dir);
	}
	r.verify = ctx->verify;
	r.bufsize = (size_t)o->buffer_size;
	r.buf = xmalloc(r.bufsize);
	if (o->data == CB_FILL_RANDOM)
		fill_random(r.buf, r.bufsize, (uint64_t)o->seed);
	else
		memset(r.buf, 'a', r.bufsize);
	cb_state_init(&r.st, &par, &r.sets);
	r.st.exists = tree_exists;
	r.st.exists_arg = &r;

	ret = native_pass(&r, CB_DATA_CLEAN);
	if (!ret && !phase_stop_requested())
		ret = native_pass(&r, CB_DATA_PS);
	if (!ret && !phase_stop_requested())
		ret = native_pass(&r, CB_DATA_PCS);
	while (!ret && !(stopped = phase_stop_requested()) &&
	       (ev = cb_state_next(&r.st, &a)) != CB_EV_DONE) {
		if (ev == CB_EV_OP)
			ret = do_op(&r, &a);
		else if (o->no_sync)
			continue;
		else if (ev == CB_EV_SYNC)
			ret = wl_sync(ctx);
		else if (!r.drop_err && wl_drop_caches(ctx)) {
			fprintf(ctx->progress, "error on drop caches, will "
				"skip it from now on\n");
			r.drop_err = true;
		}
	}
	/* --verify: every tree the run leaves, once more from the disk */
	if (!ret && !stopped && r.verify)
		ret = verify_phase_tree(ctx, NULL);
	if (!ret && !stopped)
		ret = summary(&r);
	cb_state_release(&r.st);
	cb_sets_release(&r.sets);
	free(r.buf);
	close(r.bench_fd);
	return ret;
}

static int cb_check(const void *vopts, char *err, size_t errlen)
{
	const struct cb_opts *o = vopts;

	if (o->buffer_size < 4096 || o->buffer_size > (64ULL << 20)) {
		snprintf(err, errlen, "buffer-size must be between 4096 and "
			 "64M, not %llu", (unsigned long long)o->buffer_size);
		return -1;
	}
	if (o->sources && *o->sources &&
	    cb_sources_check(o->sources, err, errlen) < 0)
		return -1;
	return 0;
}

static void print_stat(FILE *out, const struct kind_stats *s,
		       const struct kind_info *k)
{
	if (!s->runs) {
		fprintf(out, "no runs for %s\n", k->tag);
		return;
	}
	fprintf(out, "%s total runs %d avg %.2f %s (user %.2fs sys %.2fs)\n",
		k->tag, s->runs, s->sum / s->runs,
		k->seconds ? "seconds" : "MB/s", s->user / s->runs,
		s->sys / s->runs);
}

static void cb_report(FILE *out, const struct run_rec *run,
		      const struct wlrun_rec *wr)
{
	struct kind_stats st[K_NR];

	(void)run;
	memset(st, 0, sizeof(st));
	for (size_t i = 0; i < wr->nr_phases; i++)
		stats_add(st, &wr->phases[i]);
	fprintf(out, "\nrun complete:\n");
	for (int i = 0; i < 74; i++)
		fputc('=', out);
	fputc('\n', out);
	for (int k = 0; k < K_NR; k++)
		print_stat(out, &st[k], &kinds[k]);
}

/*
 * compare: compilebench's two "Average ... results" blocks of the
 * mailing-list comparisons, side by side, one column per configuration.
 * Each figure is the mean over the repetitions of that repetition's
 * compilebench average (what its own report prints).
 */
static void cb_report_compare(FILE *out, const struct cmp_group *groups,
			      size_t nr)
{
	double *avg = xcalloc(nr * K_NR + 1, sizeof(*avg));
	int *reps = xcalloc(nr * K_NR + 1, sizeof(*reps));
	char **head = xcalloc(nr + 1, sizeof(*head));
	int w = 22;

	for (size_t g = 0; g < nr; g++) {
		head[g] = xasprintf("Average %s results", groups[g].label);
		if ((int)strlen(head[g]) + 2 > w)
			w = (int)strlen(head[g]) + 2;
		for (size_t r = 0; r < groups[g].nr_reps; r++) {
			const struct wlrun_rec *wr = groups[g].reps[r];
			struct kind_stats st[K_NR];

			memset(st, 0, sizeof(st));
			for (size_t i = 0; i < wr->nr_phases; i++)
				stats_add(st, &wr->phases[i]);
			for (int k = 0; k < K_NR; k++) {
				if (!st[k].runs)
					continue;
				avg[g * K_NR + k] += st[k].sum / st[k].runs;
				reps[g * K_NR + k]++;
			}
		}
	}
	fprintf(out, "compilebench averages (mean over repetitions; change "
		"against '%s')\n", nr ? groups[0].label : "-");
	fprintf(out, "%-22s", "");
	for (size_t g = 0; g < nr; g++)
		fprintf(out, "%-*s", w, head[g]);
	fputc('\n', out);
	for (int k = 0; k < K_NR; k++) {
		fprintf(out, "%-22s", kinds[k].tag);
		for (size_t g = 0; g < nr; g++) {
			int n = reps[g * K_NR + k];
			double v = n ? avg[g * K_NR + k] / n : 0;
			double b = reps[k] ? avg[k] / reps[k] : 0;
			char cell[64];

			if (!n)
				snprintf(cell, sizeof(cell), "no runs");
			else if (g && reps[k] && b != 0)
				snprintf(cell, sizeof(cell), "%.2f %s (%+.1f%%)",
					 v, kinds[k].seconds ? "s" : "MB/s",
					 100.0 * (v - b) / b);
			else
				snprintf(cell, sizeof(cell), "%.2f %s", v,
					 kinds[k].seconds ? "s" : "MB/s");
			fprintf(out, "%-*s", w, cell);
		}
		fputc('\n', out);
	}
	for (size_t g = 0; g < nr; g++)
		free(head[g]);
	free(head);
	free(avg);
	free(reps);
}

/* Each kind's average, as the summary phase records it. */
static const char *const cb_key_metrics[] = {
	"summary/initial-create.avg", "summary/create.avg",
	"summary/patch.avg", "summary/compile.avg", "summary/clean.avg",
	"summary/read.avg", "summary/read-compiled.avg",
	"summary/delete.avg", "summary/delete-compiled.avg",
	"summary/stat.avg", "summary/stat-compiled.avg", NULL,
};

/*
 * Pre-flight: the initial trees alone (the random ops add and remove
 * trees, so this is a floor, not the peak).  Only for the built-in
 * model; a sources= directory is read when the run starts.
 */
static void cb_needs(const void *vopts, int nranks, struct wl_needs *n)
{
	static uint64_t tree_bytes, tree_inodes;
	const struct cb_opts *o = vopts;
	uint64_t trees = (uint64_t)o->initial_dirs * (uint64_t)nranks;
	char sz[32];

	if (*o->sources || !trees)
		return;
	if (!tree_bytes) {
		struct treemodel d[4];

		for (int i = 0; i < 4; i++)
			treemodel_init(&d[i]);
		kmodel_generate(&d[0], &d[1], &d[2], &d[3]);
		tree_bytes = d[0].bytes;
		tree_inodes = d[0].nr + treemodel_dir_count(&d[0]);
		for (int i = 0; i < 4; i++)
			treemodel_release(&d[i]);
	}
	n->bytes = trees * tree_bytes;
	n->inodes = trees * tree_inodes;
	snprintf(n->what, sizeof(n->what), "compilebench's %llu initial "
		 "trees of %s", (unsigned long long)trees,
		 fmt_size(sz, sizeof(sz), tree_bytes));
}

const struct workload wl_compilebench = {
	.name = "compilebench",
	.summary = "compilebench 0.6: age a filesystem with kernel-tree "
		   "create/patch/compile/clean/read/stat/delete",
	.phases = cb_phase_names,
	/* Every rank draws the same op sequence from the same seed, in its
	 * own rank directory, so phases line up across ranks. */
	.flags = WL_MPI_AWARE,
	.opts = cb_opt_table,
	.opts_size = sizeof(struct cb_opts),
	.check = cb_check,
	.run = cb_run_fn,
	.report = cb_report,
	.report_compare = cb_report_compare,
	.key_metrics = cb_key_metrics,
	.needs = cb_needs,
};
