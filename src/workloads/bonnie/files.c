/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * files.c - bonnie++'s file-creation tests: create, stat and delete
 * in sequential and random order.
 */
#include "workloads/bonnie/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "util/pyrand.h"
#include "phase/par.h"
#include "util/util.h"
#include "util/verify.h"

/* ---- file creation tests ---- */

static int make_dirs(struct bon_run *r, struct bon_phase *bp)
{
	char sub[24];
	int dfd;

	if (mkdir(r->fdir, 0700))
		return bp_fail(bp, "create directory", r->fdir);
	if (r->files.dirs < 2)
		return 0;
	dfd = open(r->fdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return bp_fail(bp, "open directory", r->fdir);
	for (long long i = 0; i < r->files.dirs; i++) {
		snprintf(sub, sizeof(sub), "%05lld", i);
		if (mkdirat(dfd, sub, 0700)) {
			close(dfd);
			return bp_fail(bp, "create directory", sub);
		}
	}
	close(dfd);
	return 0;
}

/* Remove the directories (after the files); 0 or -1 with errno. */
int bon_remove_dirs(struct bon_run *r)
{
	char *p;

	for (long long i = 0; r->files.dirs > 1 && i < r->files.dirs; i++) {
		p = xasprintf("%s/%05lld", r->fdir, i);
		if (rmdir(p)) {
			free(p);
			return -1;
		}
		free(p);
	}
	return rmdir(r->fdir);
}

int bon_test_create(struct bon_run *r, bool random)
{
	enum bon_test t = random ? BON_RAND_CREATE : BON_SEQ_CREATE;
	const struct bon_files *f = &r->files;
	size_t fchunk = (size_t)f->chunk;
	char *buf = xcalloc(1, fchunk);
	struct bon_phase bp;
	struct pyrand rnd;
	int dfd = -1, ret;

	pyrand_seed(&rnd, r->seed + (random ? 3 : 2));
	bon_names_free(r->names, r->nr_names);
	free(r->dir_of);
	r->nr_names = f->n * 1024;
	r->names = bon_make_names(r->seed + (random ? 1 : 0), r->nr_names,
				  f->dirs, random, &r->dir_of);
	bp_begin(r, &bp, t);
	ret = make_dirs(r, &bp);
	r->on_disk = !ret;
	if (!ret) {
		dfd = open(r->fdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			ret = bp_fail(&bp, "open directory", r->fdir);
	}
	for (long long i = 0; !ret && i < r->nr_names; i++) {
		uint64_t size = f->max, tt = now_ns();
		int fd;

		if (phase_stop_requested())
			break;
		if (f->max > f->min)
			size = f->min + pyrand_below(&rnd, f->max - f->min + 1);
		fd = openat(dfd, r->names[i], O_WRONLY | O_CREAT | O_TRUNC |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			ret = bp_fail(&bp, "create", r->names[i]);
			break;
		}
		for (uint64_t done = 0; done < size && !ret;) {
			size_t w = size - done < fchunk ? (size_t)(size - done)
							: fchunk;

			if (r->verify)
				verify_fill(r->ctx->seed,
					    verify_file_id(bon_file_base(
						    r->names[i])),
					    done, buf, w);
			if (write_full(fd, buf, w))
				ret = bp_fail(&bp, "write", r->names[i]);
			done += w;
			bp.bytes += w;
		}
		if (close(fd) && !ret)
			ret = bp_fail(&bp, "close", r->names[i]);
		lathist_add(&bp.lat, now_ns() - tt);
		bp.files++;
		bp.ops++;
	}
	if (dfd >= 0)
		close(dfd);
	/* the final sync belongs to the test: the files must be on disk */
	if (!ret && !phase_stop_requested() && wl_sync(r->ctx)) {
		phase_fail(bp.ph, "sync failed");
		ret = -1;
	}
	free(buf);
	return bp_end(r, &bp, t, ret, -1);
}

/* stat a file and read it when it has data, as bonnie++'s stat_file. */
static int stat_one(struct bon_run *r, struct bon_phase *bp, int dfd,
		    const char *name, const char *shown)
{
	size_t fchunk = (size_t)r->files.chunk;
	struct stat sb;
	int fd;

	if (fstatat(dfd, name, &sb, 0))
		return bp_fail(bp, "stat", shown);
	if (sb.st_size) {
		fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return bp_fail(bp, "open", shown);
		for (off_t done = 0; done < sb.st_size;) {
			char *tmp = r->buf;
			size_t want = fchunk;
			ssize_t n;

			/* r->buf is one I/O chunk; larger file chunks loop */
			if (want > r->o->chunk)
				want = (size_t)r->o->chunk;
			n = read(fd, tmp, want);
			if (n <= 0) {
				close(fd);
				errno = n ? errno : EIO;
				return bp_fail(bp, "read", shown);
			}
			if (bp_verify(r, bp->ph, shown,
				      verify_file_id(bon_file_base(name)),
				      (uint64_t)done, tmp, (size_t)n)) {
				close(fd);
				return -1;
			}
			done += n;
			bp->bytes += (uint64_t)n;
		}
		close(fd);
	}
	return 0;
}

/* Walk the directories in readdir order: stat (+read), or delete. */
static int walk_files(struct bon_run *r, struct bon_phase *bp, bool del)
{
	long long count = 0;
	int ret = 0;

	for (long long i = 0; i < r->files.dirs && !ret; i++) {
		char *dir = r->files.dirs > 1 ?
			    xasprintf("%s/%05lld", r->fdir, i) :
			    xstrdup(r->fdir);
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		struct dirent *de;
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;

		if (!d) {
			ret = bp_fail(bp, "open directory", dir);
			if (dfd >= 0)
				close(dfd);
			free(dir);
			break;
		}
		while (!ret && (de = readdir(d))) {
			uint64_t t = now_ns();

			if (de->d_name[0] == '.' ||
			    (r->files.dirs == 1 && de->d_type == DT_DIR))
				continue;
			if (phase_stop_requested())
				break;
			if (del) {
				if (unlinkat(dfd, de->d_name, 0))
					ret = bp_fail(bp, "delete",
						      de->d_name);
			} else {
				ret = stat_one(r, bp, dfd, de->d_name,
					       de->d_name);
			}
			lathist_add(&bp->lat, now_ns() - t);
			count++;
			bp->files++;
			bp->ops++;
		}
		closedir(d);
		free(dir);
	}
	if (!ret && !phase_stop_requested() && count != r->nr_names) {
		phase_fail(bp->ph, "expected %lld files, found %lld",
			   r->nr_names, count);
		ret = error("expected %lld files in '%s', found %lld",
			    r->nr_names, r->fdir, count);
	}
	return ret;
}

static void shuffle_names(struct bon_run *r, uint64_t salt)
{
	struct pyrand rnd;
	long long *idx = xcalloc((size_t)r->nr_names, sizeof(*idx));
	char **nn = xcalloc((size_t)r->nr_names, sizeof(*nn));
	int *nd = xcalloc((size_t)r->nr_names, sizeof(*nd));

	for (long long i = 0; i < r->nr_names; i++)
		idx[i] = i;
	pyrand_seed(&rnd, r->seed + salt);
	pyrand_shuffle(&rnd, idx, (size_t)r->nr_names, sizeof(*idx));
	for (long long i = 0; i < r->nr_names; i++) {
		nn[i] = r->names[idx[i]];
		nd[i] = r->dir_of[idx[i]];
	}
	free(r->names);
	free(r->dir_of);
	r->names = nn;
	r->dir_of = nd;
	free(idx);
}

int bon_test_stat_del(struct bon_run *r, enum bon_test t)
{
	bool del = t == BON_SEQ_DEL || t == BON_RAND_DEL;
	struct bon_phase bp;
	int dfd, ret = 0;

	if (t == BON_RAND_STAT || t == BON_RAND_DEL)
		shuffle_names(r, (uint64_t)t);
	bp_begin(r, &bp, t);
	if (t == BON_SEQ_STAT || t == BON_SEQ_DEL) {
		ret = walk_files(r, &bp, del);
	} else {
		dfd = open(r->fdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			ret = bp_fail(&bp, "open directory", r->fdir);
		for (long long i = 0; !ret && i < r->nr_names; i++) {
			uint64_t tt = now_ns();

			if (phase_stop_requested())
				break;
			if (del) {
				if (unlinkat(dfd, r->names[i], 0))
					ret = bp_fail(&bp, "delete",
						      r->names[i]);
			} else {
				ret = stat_one(r, &bp, dfd, r->names[i],
					       r->names[i]);
			}
			lathist_add(&bp.lat, now_ns() - tt);
			bp.files++;
			bp.ops++;
		}
		if (dfd >= 0)
			close(dfd);
	}
	if (!ret && del && !phase_stop_requested()) {
		if (bon_remove_dirs(r))
			ret = bp_fail(&bp, "remove directory", r->fdir);
		else
			r->on_disk = false;
	}
	if (!ret && !phase_stop_requested() && wl_sync(r->ctx)) {
		phase_fail(bp.ph, "sync failed");
		ret = -1;
	}
	return bp_end(r, &bp, t, ret, -1);
}
