/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tarball.c - libarchive reading for the `tree` workload (tarball.h).
 *
 * Every call into libarchive that can decompress - the next header, the
 * next data block - is bracketed with the monotonic clock and this
 * thread's CPU clock, so the caller can subtract the decompressor from
 * its own timings: libarchive works in the calling thread.
 */
#include "model/tarball.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

#define TAR_BLOCK (1 << 20)

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct lib_clock {
	uint64_t wall, cpu;
};

static void lib_enter(struct lib_clock *c)
{
	c->wall = now_ns();
	c->cpu = thread_cpu_ns();
}

static void lib_leave(struct tarball *t, const struct lib_clock *c)
{
	t->lib_ns += now_ns() - c->wall;
	t->lib_cpu_ns += thread_cpu_ns() - c->cpu;
}

static struct archive *new_reader(void)
{
	struct archive *a = archive_read_new();

	if (!a)
		die("out of memory");
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	return a;
}

int tarball_open(struct tarball *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	t->a = new_reader();
	t->name = xstrdup(path);
	if (archive_read_open_filename(t->a, path, TAR_BLOCK) != ARCHIVE_OK) {
		error("cannot open tarball '%s': %s", path,
		      archive_error_string(t->a));
		tarball_close(t);
		return -1;
	}
	return 0;
}

int tarball_open_memory(struct tarball *t, const void *buf, size_t len,
			const char *name)
{
	memset(t, 0, sizeof(*t));
	t->a = new_reader();
	t->name = xstrdup(name);
	if (archive_read_open_memory(t->a, buf, len) != ARCHIVE_OK) {
		error("cannot read tarball '%s': %s", name,
		      archive_error_string(t->a));
		tarball_close(t);
		return -1;
	}
	return 0;
}

int tarball_open_fd(struct tarball *t, int fd, const char *name)
{
	memset(t, 0, sizeof(*t));
	t->a = new_reader();
	t->name = xstrdup(name);
	if (archive_read_open_fd(t->a, fd, TAR_BLOCK) != ARCHIVE_OK) {
		error("cannot read tarball '%s': %s", name,
		      archive_error_string(t->a));
		tarball_close(t);
		return -1;
	}
	return 0;
}

void tarball_close(struct tarball *t)
{
	if (t->a)
		archive_read_free(t->a);
	free(t->name);
	t->a = NULL;
	t->name = NULL;
	treemodel_release(&t->links);
}

int tarball_norm_path(const char *in, char *out, size_t outlen)
{
	size_t n = 0;

	/* drop leading "/" and "./" runs, as tar does */
	for (;;) {
		if (*in == '/')
			in++;
		else if (in[0] == '.' && (in[1] == '/' || !in[1]))
			in += in[1] ? 2 : 1;
		else
			break;
	}
	while (*in) {
		size_t l = strcspn(in, "/");

		if (!l || (l == 1 && in[0] == '.')) {
			/* "a//b", "a/./b": nothing to add */
		} else if (l == 2 && in[0] == '.' && in[1] == '.') {
			return -1;
		} else {
			if (n + !!n + l >= outlen)
				return -1;
			if (n)
				out[n++] = '/';
			memcpy(out + n, in, l);
			n += l;
		}
		in += l;
		if (*in == '/')
			in++;
	}
	if (!n)
		return -1;
	out[n] = '\0';
	return 0;
}

/*
 * Tar-slip: "esc -> /outside" then "esc/pwned" would write outside the
 * tree, and so would a file entry that reuses a symlink's name.  Any
 * entry at or beneath an earlier symlink is refused (a symlink may
 * replace a symlink), naming the entry's number in the archive.
 */
static int refuse_under_link(struct tarball *t, const char *path,
			     mode_t type)
{
	const struct tm_entry *self = treemodel_get(&t->links, path);
	char buf[PATH_MAX];
	const char *link = treemodel_link_parent(&t->links, path, buf,
						 sizeof(buf));

	if (link)
		return error("%s: entry %zu: '%s' lies beneath the symlink "
			     "'%s'; refusing the tarball", t->name, t->nr,
			     path, link);
	if (self && type != AE_IFLNK)
		return error("%s: entry %zu: '%s' would be written through "
			     "the symlink of the same name; refusing the "
			     "tarball", t->name, t->nr, path);
	return 0;
}

int tarball_next(struct tarball *t, struct tar_entry *e)
{
	for (;;) {
		struct archive_entry *ae;
		struct lib_clock c;
		const char *p, *hl, *sl;
		mode_t type;
		int r;

		lib_enter(&c);
		r = archive_read_next_header(t->a, &ae);
		lib_leave(t, &c);
		if (r == ARCHIVE_EOF)
			return 0;
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
			return error("bad tarball '%s': %s", t->name,
				     archive_error_string(t->a));
		t->nr++;
		p = archive_entry_pathname(ae);
		if (!p || tarball_norm_path(p, t->path, sizeof(t->path))) {
			t->skipped++;
			continue;
		}
		if (refuse_under_link(t, t->path, archive_entry_filetype(ae)))
			return -1;
		memset(e, 0, sizeof(*e));
		e->path = t->path;
		e->mode = archive_entry_perm(ae) & 07777;
		hl = archive_entry_hardlink(ae);
		type = archive_entry_filetype(ae);
		if (hl) {
			if (tarball_norm_path(hl, t->target,
					      sizeof(t->target))) {
				t->skipped++;
				continue;
			}
			if (refuse_under_link(t, t->target, AE_IFREG))
				return -1;
			e->type = TM_FILE;
			e->hardlink = true;
			e->target = t->target;
			return 1;
		}
		switch (type) {
		case AE_IFREG:
			e->type = TM_FILE;
			e->size = archive_entry_size_is_set(ae) ?
				  (uint64_t)archive_entry_size(ae) : 0;
			return 1;
		case AE_IFDIR:
			e->type = TM_DIR;
			return 1;
		case AE_IFLNK:
			sl = archive_entry_symlink(ae);
			if (!sl || (size_t)snprintf(t->target,
						    sizeof(t->target), "%s",
						    sl) >= sizeof(t->target)) {
				t->skipped++;
				continue;
			}
			treemodel_set_link(&t->links, t->path, sl);
			e->type = TM_LINK;
			e->target = t->target;
			return 1;
		default:
			t->skipped++;
			continue;
		}
	}
}

ssize_t tarball_read(struct tarball *t, void *buf, size_t len)
{
	struct lib_clock c;
	la_ssize_t n;

	lib_enter(&c);
	n = archive_read_data(t->a, buf, len);
	lib_leave(t, &c);
	if (n < 0) {
		error("bad tarball '%s' at '%s': %s", t->name, t->path,
		      archive_error_string(t->a));
		return -1;
	}
	return (ssize_t)n;
}

/*
 * Open path's decompressed stream: libarchive's "raw" format hands it out
 * as one entry.  The archive, or NULL with an error printed.
 */
static struct archive *raw_open(const char *path)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ae;

	if (!a)
		die("out of memory");
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_filename(a, path, TAR_BLOCK) != ARCHIVE_OK ||
	    archive_read_next_header(a, &ae) != ARCHIVE_OK) {
		error("cannot open tarball '%s': %s", path,
		      archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
	return a;
}

int tarball_decompress_fd(const char *path, int fd, uint64_t *cpu_ns)
{
	struct archive *a;
	uint64_t cpu0 = thread_cpu_ns();
	char *b;
	int ret = 0;

	a = raw_open(path);
	if (!a) {
		*cpu_ns = thread_cpu_ns() - cpu0;
		return -1;
	}
	b = xmalloc(TAR_BLOCK);
	for (;;) {
		la_ssize_t r = archive_read_data(a, b, TAR_BLOCK);

		if (r < 0) {
			ret = error("cannot decompress '%s': %s", path,
				    archive_error_string(a));
			break;
		}
		if (!r)
			break;
		/* EPIPE: the reader stopped early and says why itself */
		if (write_full(fd, b, (size_t)r)) {
			ret = errno == EPIPE ? 0 : error_errno("cannot pass "
						"on '%s'", path);
			break;
		}
	}
	archive_read_free(a);
	free(b);
	*cpu_ns = thread_cpu_ns() - cpu0;
	return ret;
}

int tarball_decompress(const char *path, char **buf, size_t *len)
{
	struct archive *a = raw_open(path);
	size_t n = 0, alloc = 0;
	char *b = NULL;
	int ret = 0;

	if (!a)
		return -1;
	for (;;) {
		la_ssize_t r;

		ALLOC_GROW(b, n + TAR_BLOCK, alloc);
		r = archive_read_data(a, b + n, TAR_BLOCK);
		if (r < 0) {
			ret = error("cannot decompress '%s': %s", path,
				    archive_error_string(a));
			goto out;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
out:
	archive_read_free(a);
	if (ret) {
		free(b);
		return ret;
	}
	*buf = b;
	*len = n;
	return 0;
}

int tarball_load(struct treemodel *m, const char *path)
{
	struct tarball t;
	struct tar_entry e;
	int r;

	if (tarball_open(&t, path))
		return -1;
	while ((r = tarball_next(&t, &e)) > 0) {
		if (e.type == TM_DIR) {
			treemodel_set_dir(m, e.path);
		} else if (e.type == TM_LINK) {
			treemodel_set_link(m, e.path, e.target);
		} else if (e.hardlink) {
			const struct tm_entry *src = treemodel_get(m,
								   e.target);

			treemodel_set(m, e.path, src ? src->size : 0);
		} else {
			treemodel_set(m, e.path, e.size);
		}
	}
	tarball_close(&t);
	return r;
}
