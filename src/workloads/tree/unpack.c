/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * unpack.c - tree's unpack: create the tree from a tarball or a
 * tree model, and tree_replay for `fslab model`.
 */
#include "workloads/tree/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
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

/* ---- unpack ---- */

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
				ret = tree_run_fail_errno(u->r,
						"create directory", p);
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
			O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return tree_run_fail_errno(r, "create", path);
	while (size) {
		size_t n = size < r->bufsize ? (size_t)size : r->bufsize;

		if (write_full(fd, r->buf, n)) {
			tree_run_fail_errno(r, "write", path);
			close(fd);
			return -1;
		}
		size -= n;
	}
	if (close(fd))
		return tree_run_fail_errno(r, "close", path);
	return 0;
}

int tree_unpack_model(struct unpack *u, const struct treemodel *m)
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
				ret = tree_run_fail_errno(u->r, "create link",
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
			O_NOFOLLOW | O_CLOEXEC, e->mode ? e->mode & 0777 : 0644);
	int ret = 0;

	if (fd < 0) {
		ret = tree_run_fail_errno(r, "create", e->path);
		goto out;
	}
	for (;;) {
		ssize_t n;

		u->fs_ns += now_ns() - t0;
		n = tarball_read(t, r->buf, r->bufsize);
		t0 = now_ns();
		if (n < 0) {
			ret = tree_run_fail(r, "bad tarball '%s' at '%s'",
					    r->o->tarball, e->path);
			break;
		}
		if (!n)
			break;
		if (write_full(fd, r->buf, (size_t)n)) {
			ret = tree_run_fail_errno(r, "write", e->path);
			break;
		}
		written += (uint64_t)n;
	}
	if (fd >= 0 && close(fd) && !ret)
		ret = tree_run_fail_errno(r, "close", e->path);
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
			ret = tree_run_fail_errno(r, "create link", e->path);
		treemodel_set_link(u->want, e->path, e->target);
		u->links++;
		u->ops++;
	} else {
		const struct tm_entry *src = treemodel_get(u->want,
							   e->target);

		unlinkat(r->root, e->path, 0);
		if (linkat(r->root, e->target, r->root, e->path, 0))
			ret = tree_run_fail_errno(r, "create hard link",
						  e->path);
		treemodel_set(u->want, e->path, src ? src->size : 0);
		u->files++;
		u->ops++;
	}
	u->fs_ns += now_ns() - t0;
	return ret;
}

/* The decompressor of `tar xjf`: its own thread, writing into a pipe. */
struct decomp {
	const char *path;
	int fd;
	uint64_t start_ns, end_ns, cpu_ns;
	int ret;
};

static void *decomp_main(void *arg)
{
	struct decomp *d = arg;
	sigset_t set;

	/* a reader that stops early must give EPIPE here, not kill fslab */
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	d->start_ns = now_ns();
	d->ret = tarball_decompress_fd(d->path, d->fd, &d->cpu_ns);
	close(d->fd);
	d->end_ns = now_ns();
	return NULL;
}

/*
 * Unpack a tarball.  From a file it goes as `tar xjf` does: a decompressor
 * thread writes the uncompressed stream into a pipe while this thread
 * parses it and writes the files, so decompression overlaps the writes;
 * *lib_ns and *lib_cpu_ns are the decompressor's wall and CPU time.  From
 * memory (predecompress=1) there is nothing to decompress: they are the
 * time spent parsing inside libarchive.
 */
int tree_unpack_tarball(struct unpack *u, const char *mem, size_t len,
			uint64_t *lib_ns, uint64_t *lib_cpu_ns)
{
	struct tree_run *r = u->r;
	struct decomp d = { .path = r->o->tarball, .fd = -1 };
	int pfd[2] = { -1, -1 }, ret = 0, n;
	bool threaded = !mem;
	struct tarball t;
	struct tar_entry e;
	pthread_t th;

	*lib_ns = *lib_cpu_ns = 0;
	if (threaded) {
		if (pipe2(pfd, O_CLOEXEC))
			return tree_run_fail(r, "cannot create a pipe: %s",
					     strerror(errno));
		/* fewer hand-overs: a pipe as large as a tar block */
		fcntl(pfd[1], F_SETPIPE_SZ, 1 << 20);
		d.fd = pfd[1];
		if (pthread_create(&th, NULL, decomp_main, &d)) {
			close(pfd[0]);
			close(pfd[1]);
			return tree_run_fail(r, "cannot start the "
					     "decompressor thread");
		}
	}
	if (threaded ? tarball_open_fd(&t, pfd[0], r->o->tarball) :
	    tarball_open_memory(&t, mem, len, r->o->tarball)) {
		ret = tree_run_fail(r, "cannot open tarball '%s'",
				    r->o->tarball);
		goto done;
	}
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
		ret = tree_run_fail(r, "bad tarball '%s'", r->o->tarball);
	if (t.skipped)
		warning("'%s': skipped %zu entries (devices, fifos, paths "
			"with '..')", r->o->tarball, t.skipped);
	*lib_ns = t.lib_ns;
	*lib_cpu_ns = t.lib_cpu_ns;
	tarball_close(&t);
done:
	if (threaded) {
		close(pfd[0]);
		pthread_join(th, NULL);
		*lib_ns = d.end_ns - d.start_ns;
		*lib_cpu_ns = d.cpu_ns;
		if (d.ret && !ret)
			ret = tree_run_fail(r, "cannot decompress '%s'",
					    r->o->tarball);
	}
	return ret;
}

/* A printable, mildly compressible fill, like source text. */
void tree_fill_text(char *buf, size_t len)
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
	tree_fill_text(r.buf, r.bufsize);
	treemodel_init(&u.made);
	ret = tree_unpack_model(&u, m);
	if (ret)
		error("%s", r.err);
	treemodel_release(&u.made);
	free(r.buf);
	free(r.rootpath);
	close(r.root);
	return ret;
}
