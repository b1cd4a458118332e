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
	{ "buffer-size", OPT_SIZE, OFF(bufsize), "256k",
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
	"unpack", "sync", "verify",
	"cold-read-readdir", "hot-read-readdir", "stat-readdir",
	"cold-read-inode", "hot-read-inode", "stat-inode",
	"cold-read-disk", "hot-read-disk", "stat-disk", "delete", NULL,
};

static const char *const tree_key_metrics[] = {
	"cold-read-readdir/MiB/s", "unpack/wall_s", NULL,
};

/* Keep the first failure; it is printed and recorded by the caller. */
int tree_run_fail(struct tree_run *r, const char *fmt, ...)
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

int tree_run_fail_errno(struct tree_run *r, const char *what,
			const char *path)
{
	return tree_run_fail(r, "cannot %s '%s/%s': %s", what, r->rootpath,
			     path, strerror(errno));
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

/*
 * A traversal phase: one name per order ("cold-read-inode"), so each
 * order has its own statistics and trace panels; the order is also the
 * label.
 */
static struct phase *order_phase(struct tree_run *r, const char *step,
				 enum tree_order order)
{
	char name[64];

	snprintf(name, sizeof(name), "%s-%s", step, tree_order_name(order));
	return phase_begin(r->ctx, name, tree_order_name(order));
}

static int read_phase(struct tree_run *r, const char *name,
		      enum tree_order order)
{
	struct phase *ph = order_phase(r, name, order);
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
		ret = tree_collect_disk_order(&w);
	} else {
		w.mode = WK_READ;
		ret = tree_walk_dir(&w, r->root);
	}
	if (!ret && !r->stopped && w.batch.nr)
		ret = tree_read_batch(r, &rs, &w.batch);
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
	tree_file_list_release(&w.batch);
	tree_file_list_release(&w.dirs);
	return end_phase(r, ph, ret, NULL);
}

static int stat_phase(struct tree_run *r, enum tree_order order)
{
	struct phase *ph = order_phase(r, "stat", order);
	struct walk w = { .r = r, .mode = WK_STAT, .order = order };
	struct measure_snap s0, s1;
	int ret;

	/* disk order is about data; stat follows inode order there */
	if (order == TREE_DISK)
		w.order = TREE_INODE;
	dev_snap(r, &s0);
	ret = tree_walk_dir(&w, r->root);
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
	DIR *d = opendir_at(r->root);
	struct dirent *de;

	*left = 0;
	if (!d)
		return tree_run_fail_errno(r, "open directory", ".");
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
		ret = tree_collect_disk_order(&w);
		for (size_t i = 0; !ret && i < w.batch.nr; i++) {
			if (phase_stop_requested()) {
				r->stopped = true;
				break;
			}
			if (unlinkat(r->root, w.batch.v[i].path, 0))
				ret = tree_run_fail_errno(r, "unlink",
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
				ret = tree_run_fail_errno(r, "open directory",
							  w.dirs.v[i].path);
				break;
			}
			ret = tree_walk_dir(&sub, fd);
			close(fd);
			w.entries += sub.entries;
			w.ops += sub.ops + 1;
			if (!ret && unlinkat(r->root, w.dirs.v[i].path,
					     AT_REMOVEDIR))
				ret = tree_run_fail_errno(r, "remove",
							  w.dirs.v[i].path);
		}
		if (!ret && !r->stopped) {
			struct walk top = { .r = r, .mode = WK_DELETE,
					    .order = TREE_INODE };

			ret = tree_walk_dir(&top, r->root);
			w.entries += top.entries;
		}
	} else {
		w.mode = WK_DELETE;
		ret = tree_walk_dir(&w, r->root);
	}
	t0 = now_ns();
	if (!ret && !r->stopped && wl_sync(r->ctx))
		ret = tree_run_fail(r, "cannot sync '%s'", r->rootpath);
	phase_metric(ph, "sync_s", secs(now_ns() - t0), "s", BETTER_LOWER);
	if (!ret && !r->stopped)
		ret = count_left(r, &left);
	phase_metric(ph, "left_entries", (double)left, "entries",
		     BETTER_NONE);
	if (!ret && left)
		ret = tree_run_fail(r, "'%s' still holds %llu entries after "
				    "the delete", r->rootpath,
				    (unsigned long long)left);
	phase_work(ph, 0, w.entries, w.ops);
	tree_file_list_release(&w.batch);
	tree_file_list_release(&w.dirs);
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
		tree_run_fail(r, "cannot capture '%s'", r->rootpath);
	} else {
		bad = treemodel_diff(want, &got, 10);
		if (bad)
			ret = tree_run_fail(r, "'%s' differs from its source "
					    "in %zu paths", r->rootpath, bad);
	}
	phase_work(ph, got.bytes, got.nr, got.nr);
	phase_metric(ph, "mismatches", (double)bad, "paths", BETTER_LOWER);
	phase_metric(ph, "model_files",
		     (double)treemodel_count(want, TM_FILE), "files",
		     BETTER_NONE);
	phase_metric(ph, "model_B", (double)want->bytes, "B",
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
	uint64_t lib_ns = 0, lib_cpu_ns = 0;
	int ret;

	treemodel_init(&u.made);
	if (*o->tarball)
		ret = tree_unpack_tarball(&u, mem, memlen, &lib_ns,
					  &lib_cpu_ns);
	else
		ret = tree_unpack_model(&u, want);
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

/*
 * The sync after the unpack, its own step as `time sync` was after `time
 * tar xjf`: what the unpack left dirty reaching the disk.
 */
static int sync_phase(struct tree_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "sync", NULL);
	int ret = 0;

	if (wl_sync(r->ctx))
		ret = tree_run_fail(r, "cannot sync '%s'", r->rootpath);
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

	if (!ret && !r->stopped)
		ret = sync_phase(r);
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
	tree_fill_text(r.buf, r.bufsize);
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
		snprintf(err, errlen, "buffer-size must be between 4k and 64M, "
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
	.report_run = tree_report_compare,
	.report_compare = tree_report_compare,
	.key_metrics = tree_key_metrics,
};
