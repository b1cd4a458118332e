/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ops.c - the ffsb threads: the file table they share and FFSB's
 * operations, one function each, timed into per-op latency histograms.
 */
#include "workloads/ffsb/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "stats/lathist.h"
#include "stats/stats.h"
#include "util/util.h"
#include "util/verify.h"
#include "workloads/registry.h"

/* ---- the shared file table ---- */

/*
 * One slot per file name ever used.  A live file sits in `live` (for a
 * uniform O(1) draw); `busy` counts ops using it, so delete only takes an
 * idle file; a deleted slot goes to `freed` once unlinked and the next
 * create reuses its name, as FFSB does.  One mutex per file set: ops
 * hold it only to draw and to update, never across I/O.
 */


void ffsb_slot_name(const struct fset *s, uint32_t id, char *buf,
		      size_t len)
{
	if (s->fs->num_dirs)
		snprintf(buf, len, "d%llu/f%u",
			 (unsigned long long)(id % s->fs->num_dirs), id);
	else
		snprintf(buf, len, "f%u", id);
}

/* Caller holds the lock. */
static void live_add(struct fset *s, uint32_t id)
{
	ALLOC_GROW(s->live, s->nr_live + 1, s->alloc_live);
	s->slots[id].live_pos = (int64_t)s->nr_live;
	s->live[s->nr_live++] = id;
}

static void live_remove(struct fset *s, uint32_t id)
{
	size_t pos = (size_t)s->slots[id].live_pos;
	uint32_t last = s->live[--s->nr_live];

	s->live[pos] = last;
	s->slots[last].live_pos = (int64_t)pos;
	s->slots[id].live_pos = -1;
}

/* A name for a new file: the most recently freed slot, else a new one. */
uint32_t ffsb_slot_new(struct fset *s)
{
	uint32_t id;

	pthread_mutex_lock(&s->lock);
	if (s->nr_freed) {
		id = s->freed[--s->nr_freed];
	} else {
		ALLOC_GROW(s->slots, s->nr_slots + 1, s->alloc_slots);
		id = (uint32_t)s->nr_slots++;
	}
	s->slots[id].size = 0;
	s->slots[id].live_pos = -1;
	s->slots[id].busy = 0;
	pthread_mutex_unlock(&s->lock);
	return id;
}

void ffsb_slot_publish(struct fset *s, uint32_t id, uint64_t size)
{
	pthread_mutex_lock(&s->lock);
	s->slots[id].size = size;
	live_add(s, id);
	pthread_mutex_unlock(&s->lock);
}

/* Uniform draw among live files; busy++ unless deleting.  -1: none. */
static int64_t slot_pick(struct fset *s, struct pyrand *r, bool for_delete,
			 uint64_t *size)
{
	int64_t id = -1;

	pthread_mutex_lock(&s->lock);
	/* a few draws for an idle victim; else the op is drawn again */
	for (int tries = 0; s->nr_live && tries < (for_delete ? 8 : 1);
	     tries++) {
		uint32_t c = s->live[pyrand_below(r, s->nr_live)];

		if (for_delete && s->slots[c].busy)
			continue;
		id = c;
		if (for_delete)
			live_remove(s, c);
		else
			s->slots[c].busy++;
		*size = s->slots[c].size;
		break;
	}
	pthread_mutex_unlock(&s->lock);
	return id;
}

static void slot_done(struct fset *s, uint32_t id, uint64_t grew)
{
	pthread_mutex_lock(&s->lock);
	s->slots[id].busy--;
	s->slots[id].size += grew;
	pthread_mutex_unlock(&s->lock);
}

static void slot_free(struct fset *s, uint32_t id)
{
	pthread_mutex_lock(&s->lock);
	ALLOC_GROW(s->freed, s->nr_freed + 1, s->alloc_freed);
	s->freed[s->nr_freed++] = id;
	pthread_mutex_unlock(&s->lock);
}

static uint64_t counter_next(struct fset *s, uint64_t *c)
{
	uint64_t v;

	pthread_mutex_lock(&s->lock);
	v = (*c)++;
	pthread_mutex_unlock(&s->lock);
	return v;
}

/* ---- one run ---- */



/*
 * --verify file id: that of the path relative to the workload directory
 * ("data/d3/f17", "fs1/data/f2"), as the final verify-data pass sees it.
 * A reused slot is a new file of the same name: the same pattern.
 */
uint64_t ffsb_file_vid(const struct fset *s, const char *name)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "%s/%s", s->rel, name);
	return verify_file_id(rel);
}

static int wfail(struct worker *w, const char *what, const struct fset *s,
		 const char *name)
{
	snprintf(w->errmsg, sizeof(w->errmsg), "cannot %s '%s/data/%s': %s",
		 what, s->dir, name, strerror(errno));
	w->failed = true;
	atomic_store(&w->run->stop, true);
	return -1;
}

/*
 * Write len bytes in blocks of bs: FFSB's writefile_helper.  With
 * --verify each block is the pattern for where it lands (vid: the file's
 * id), so the file position is asked once.
 */
static int write_blocks(struct worker *w, int fd, uint64_t len, uint64_t bs,
			uint64_t vid)
{
	off_t off = 0;

	if (w->run->verify && (off = lseek(fd, 0, SEEK_CUR)) < 0)
		return -1;
	while (len) {
		size_t cur = len < bs ? (size_t)len : (size_t)bs;

		if (w->run->verify)
			verify_fill(w->run->ctx->seed, vid, (uint64_t)off,
				    w->buf, cur);
		if (write_full(fd, w->buf, cur))
			return -1;
		off += (off_t)cur;
		len -= cur;
	}
	return 0;
}

/*
 * Read len bytes in blocks of bs; EOF early is fine (the file shrank).
 * --verify checks each block: a mismatch fails the worker with file and
 * offset (w->failed set, -1 returned).
 */
static int read_blocks(struct worker *w, int fd, uint64_t len, uint64_t bs,
		       uint64_t *got, const struct fset *s, const char *name)
{
	uint64_t vid = w->run->verify ? ffsb_file_vid(s, name) : 0;
	struct verify_bad bad;
	off_t off = 0;

	if (w->run->verify && (off = lseek(fd, 0, SEEK_CUR)) < 0)
		return -1;
	while (len) {
		size_t cur = len < bs ? (size_t)len : (size_t)bs;
		ssize_t n = read_full(fd, w->buf, cur);

		if (n < 0)
			return -1;
		if (!n)
			break;
		if (w->run->verify &&
		    !verify_check(w->run->ctx->seed, vid, (uint64_t)off,
				  w->buf, (size_t)n, &bad)) {
			snprintf(w->errmsg, sizeof(w->errmsg), "verify: file "
				 "%s/%s offset %llu: %s", s->rel, name,
				 (unsigned long long)bad.block, bad.what);
			w->failed = true;
			atomic_store(&w->run->stop, true);
			return -1;
		}
		off += n;
		*got += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

static uint64_t rand_offset(struct worker *w, uint64_t range)
{
	if (!range)
		return 0;
	if (!w->run->p.alignio)
		return pyrand_below(&w->rng, range);
	range /= 4096;
	return range ? pyrand_below(&w->rng, range) * 4096 : 0;
}

/* size - less, or 0: the range a random offset is drawn from */
static uint64_t span(uint64_t size, uint64_t less)
{
	return size > less ? size - less : 0;
}

static bool op_is_read(enum ffsb_op op)
{
	return op == FFSB_OP_READ || op == FFSB_OP_READALL;
}

static bool op_is_pwrite(enum ffsb_op op)
{
	return op == FFSB_OP_WRITE || op == FFSB_OP_WRITE_FSYNC;
}

static struct fset *pick_set(struct worker *w)
{
	struct ffsb_run *r = w->run;

	if (w->tg->bindfs) {
		for (size_t i = 0; i < r->nr_sets; i++)
			if (!strcmp(r->sets[i].fs->location, w->tg->bindfs))
				return &r->sets[i];
	}
	if (r->nr_sets == 1)
		return &r->sets[0];
	return &r->sets[pyrand_below(&w->rng, r->nr_sets)];
}

static int do_fsync(struct worker *w, int fd, enum ffsb_op op)
{
	if (!ffsb_op_fsyncs(op))
		return 0;
	w->fsyncs++;
	return fsync(fd);
}

/*
 * One operation.  Returns 1 when it ran, 0 when it could not (no live
 * file: the caller draws again), -1 on error (message in w->errmsg).
 */
/*
 * One operation, as FFSB's op table has it: the file (picked by run_op
 * for the ops that need one), what the op moved, and how it ended.
 */
struct op_ctx {
	struct worker *w;
	const struct ffsb_tg *tg;
	struct fset *s;
	enum ffsb_op op;
	char name[64];
	uint64_t size;          /* the file's size (create: the new one) */
	int64_t id;             /* its slot, -1 for none */
	uint64_t moved, grew;   /* bytes of the op; bytes the file grew */
	int fd;                 /* -1: open failed; -2: the op has none */
	const char *what;       /* what failed, for the message */
};

/* An op: 0 done, non-zero failed (errno set; c->what says what). */
typedef int (*op_fn)(struct op_ctx *c);

/* Open the op's file in the set's data directory (mode for O_CREAT). */
static int open_data(struct op_ctx *c, int flags)
{
	c->fd = openat(c->s->data_fd, c->name, flags | O_CLOEXEC |
		       c->w->run->oflags, 0644);
	return c->fd < 0;
}

static int op_read(struct op_ctx *c)
{
	const struct ffsb_tg *tg = c->tg;
	struct worker *w = c->w;
	uint64_t bs = tg->read_blocksize, got = 0;
	int ret = 0;

	if (open_data(c, O_RDONLY))
		return 0;  /* run_op reports the failed open */
	c->what = "read";
	if (tg->read_random) {
		uint64_t n = tg->read_size / bs;

		for (uint64_t i = 0; i < n && !ret; i++) {
			off_t off = (off_t)rand_offset(w, span(c->size, bs));

			ret = lseek(c->fd, off, SEEK_SET) < 0 ||
			      read_blocks(w, c->fd, bs, bs, &got, c->s,
					  c->name);
		}
	} else if (tg->read_skip) {
		uint64_t n = tg->read_size / bs;

		for (uint64_t i = 0; i < n && !ret; i++)
			ret = read_blocks(w, c->fd, bs, bs, &got, c->s,
					  c->name) ||
			      lseek(c->fd, (off_t)tg->read_skipsize,
				    SEEK_CUR) < 0;
	} else {
		off_t off = (off_t)rand_offset(w, span(c->size,
						    tg->read_size));

		ret = lseek(c->fd, off, SEEK_SET) < 0 ||
		      read_blocks(w, c->fd, tg->read_size, bs, &got, c->s,
				  c->name);
	}
	c->moved = tg->read_size;
	w->rbytes += got;
	return ret;
}

static int op_readall(struct op_ctx *c)
{
	struct stat sb;
	uint64_t got = 0;
	int ret;

	if (open_data(c, O_RDONLY))
		return 0;
	c->what = "read";
	ret = fstat(c->fd, &sb) ||
	      read_blocks(c->w, c->fd, (uint64_t)sb.st_size,
			  c->tg->read_blocksize, &got, c->s, c->name);
	c->moved = got;
	c->w->rbytes += got;
	return ret;
}

/* The fsync of the _fsync variants, after a write that went well. */
static int then_fsync(struct op_ctx *c, int ret)
{
	if (!ret && (ret = do_fsync(c->w, c->fd, c->op)))
		c->what = "fsync";
	return ret;
}

static int op_write(struct op_ctx *c)
{
	const struct ffsb_tg *tg = c->tg;
	struct worker *w = c->w;
	uint64_t bs = tg->write_blocksize;
	uint64_t vid = ffsb_file_vid(c->s, c->name);
	int ret = 0;

	if (open_data(c, O_WRONLY))
		return 0;
	c->what = "write";
	if (tg->write_random) {
		uint64_t n = tg->write_size / bs;

		for (uint64_t i = 0; i < n && !ret; i++) {
			off_t off = (off_t)rand_offset(w, span(c->size, bs));

			ret = lseek(c->fd, off, SEEK_SET) < 0 ||
			      write_blocks(w, c->fd, bs, bs, vid);
		}
	} else {
		off_t off = (off_t)rand_offset(w, span(c->size,
						    tg->write_size));

		ret = lseek(c->fd, off, SEEK_SET) < 0 ||
		      write_blocks(w, c->fd, tg->write_size, bs, vid);
	}
	ret = then_fsync(c, ret);
	c->moved = tg->write_size;
	w->wbytes += c->moved;
	return ret;
}

static int op_writeall(struct op_ctx *c)
{
	struct stat sb;
	int ret;

	if (open_data(c, O_WRONLY))
		return 0;
	c->what = "write";
	ret = fstat(c->fd, &sb) ||
	      write_blocks(c->w, c->fd, (uint64_t)sb.st_size,
			   c->tg->write_blocksize, ffsb_file_vid(c->s, c->name));
	ret = then_fsync(c, ret);
	c->moved = (uint64_t)sb.st_size;
	c->w->wbytes += c->moved;
	return ret;
}

static int op_append(struct op_ctx *c)
{
	bool verify = c->w->run->verify;
	int ret;

	/*
	 * --verify: no O_APPEND but a write at the end as found, so the
	 * pattern matches where the bytes land; two threads appending at
	 * once then write the same bytes at the same place instead of a
	 * misplaced copy.
	 */
	if (open_data(c, O_WRONLY | (verify ? 0 : O_APPEND)))
		return 0;
	c->what = "append to";
	ret = (verify && lseek(c->fd, 0, SEEK_END) < 0) ||
	      write_blocks(c->w, c->fd, c->tg->write_size,
			   c->tg->write_blocksize, ffsb_file_vid(c->s, c->name));
	ret = then_fsync(c, ret);
	c->moved = c->grew = c->tg->write_size;
	c->w->wbytes += c->moved;
	return ret;
}

static int op_create(struct op_ctx *c)
{
	struct worker *w = c->w;
	int ret;

	c->size = ffsb_choose_size(c->s->fs, &w->rng);
	c->id = ffsb_slot_new(c->s);
	ffsb_slot_name(c->s, (uint32_t)c->id, c->name, sizeof(c->name));
	c->what = "create";
	if (open_data(c, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW))
		return 0;
	c->what = "write";
	ret = write_blocks(w, c->fd, c->size, c->tg->write_blocksize,
			   ffsb_file_vid(c->s, c->name));
	ret = then_fsync(c, ret);
	c->moved = c->size;
	w->wbytes += c->moved;
	w->created++;
	return ret;
}

static int op_delete(struct op_ctx *c)
{
	int ret;

	c->what = "delete";
	c->fd = -2;
	ret = unlinkat(c->s->data_fd, c->name, 0);
	if (!ret)
		slot_free(c->s, (uint32_t)c->id);
	c->w->deleted++;
	return ret;
}

static int op_stat(struct op_ctx *c)
{
	struct stat sb;

	c->what = "stat";
	c->fd = -2;
	return fstatat(c->s->data_fd, c->name, &sb, 0);
}

static int op_open_close(struct op_ctx *c)
{
	c->fd = openat(c->s->data_fd, c->name, O_RDONLY | O_CLOEXEC);
	return 0;
}

static int op_createdir(struct op_ctx *c)
{
	snprintf(c->name, sizeof(c->name), "x%llu", (unsigned long long)
		 counter_next(c->s, &c->s->next_dir));
	c->what = "create directory";
	c->fd = -2;
	return mkdirat(c->s->data_fd, c->name, 0755);
}

/* FFSB's metaop: two mkdirs, a rename and an rmdir. */
static int op_metaop(struct op_ctx *c)
{
	struct fset *s = c->s;
	uint64_t n = counter_next(s, &s->next_meta);
	char a[32], b[32], d[32];

	snprintf(a, sizeof(a), "m%llu", (unsigned long long)n);
	snprintf(b, sizeof(b), "t%llu", (unsigned long long)n);
	snprintf(d, sizeof(d), "r%llu", (unsigned long long)n);
	snprintf(c->name, sizeof(c->name), "../meta/%s", a);
	c->what = "do a metaop on";
	c->fd = -2;
	return mkdirat(s->meta_fd, a, 0755) || mkdirat(s->meta_fd, b, 0755) ||
	       renameat(s->meta_fd, a, s->meta_fd, d) ||
	       unlinkat(s->meta_fd, b, AT_REMOVEDIR);
}

static const op_fn op_fns[FFSB_OP_NR] = {
	[FFSB_OP_READ] = op_read,
	[FFSB_OP_READALL] = op_readall,
	[FFSB_OP_WRITE] = op_write,
	[FFSB_OP_WRITE_FSYNC] = op_write,
	[FFSB_OP_WRITEALL] = op_writeall,
	[FFSB_OP_WRITEALL_FSYNC] = op_writeall,
	[FFSB_OP_APPEND] = op_append,
	[FFSB_OP_APPEND_FSYNC] = op_append,
	[FFSB_OP_CREATE] = op_create,
	[FFSB_OP_CREATE_FSYNC] = op_create,
	[FFSB_OP_DELETE] = op_delete,
	[FFSB_OP_STAT] = op_stat,
	[FFSB_OP_OPEN_CLOSE] = op_open_close,
	[FFSB_OP_CREATEDIR] = op_createdir,
	[FFSB_OP_METAOP] = op_metaop,
};

/*
 * Pick the file, run the op, account it.  1 done, 0 nothing to do (no
 * file left for an op that needs one), -1 failed (recorded).
 */
static int run_op(struct worker *w, enum ffsb_op op)
{
	const struct ffsb_tg *tg = w->tg;
	struct op_ctx c = {
		.w = w, .tg = tg, .s = pick_set(w), .op = op, .id = -1,
		.fd = -1, .what = "open",
	};
	int ret;

	if ((unsigned)op >= FFSB_OP_NR || !op_fns[op])
		BUG("bad op %d", (int)op);
	if (ffsb_op_needs_file(op)) {
		c.id = slot_pick(c.s, &w->rng, op == FFSB_OP_DELETE, &c.size);
		if (c.id < 0)
			return 0;
		ffsb_slot_name(c.s, (uint32_t)c.id, c.name, sizeof(c.name));
	}
	ret = op_fns[op](&c);
	if (c.fd == -1 && !ret)
		ret = -1;
	if (c.fd >= 0 && close(c.fd) && !ret) {
		c.what = "close";
		ret = -1;
	}
	if (ret && !w->failed)
		wfail(w, c.what, c.s, c.name);
	if (op == FFSB_OP_CREATE || op == FFSB_OP_CREATE_FSYNC) {
		if (!ret)
			ffsb_slot_publish(c.s, (uint32_t)c.id, c.size);
		else
			slot_free(c.s, (uint32_t)c.id);
	} else if (c.id >= 0 && op != FFSB_OP_DELETE) {
		slot_done(c.s, (uint32_t)c.id, ret ? 0 : c.grew);
	}
	if (ret)
		return -1;
	w->calls[op]++;
	w->bytes[op] += c.moved;
	w->trans[op] += ffsb_transactions(op, c.moved,
					  op_is_read(op) ? tg->read_blocksize :
					  tg->write_blocksize,
					  op_is_pwrite(op) && tg->write_random);
	return 1;
}

void *ffsb_worker_main(void *arg)
{
	struct worker *w = arg;
	struct ffsb_run *r = w->run;
	unsigned skips = 0;

	w->start_rt = realtime_ns();
	while (!atomic_load(&r->stop) && !phase_stop_requested() &&
	       now_ns() < r->deadline) {
		enum ffsb_op op = ffsb_choose_op(w->tg, &w->rng);
		uint64_t t0 = now_ns();
		int rc = run_op(w, op);

		if (rc < 0)
			break;
		if (!rc) {
			/* only ops on files left and no file is left */
			if (++skips > 100000) {
				snprintf(w->errmsg, sizeof(w->errmsg),
					 "thread %d stopped early: no file "
					 "left for its operations", w->index);
				break;
			}
			continue;
		}
		skips = 0;
		lathist_add(&w->lat[op], now_ns() - t0);
		/* A completion for the progress line and the stall watch;
		 * not with a think time between ops, whose pauses are the
		 * profile's, not the filesystem's. */
		if (!w->tg->op_delay)
			phase_progress(r->ph, 0, 0, 1);
		if (w->tg->op_delay) {
			struct timespec ts = {
				.tv_sec = w->tg->op_delay / 1000,
				.tv_nsec = (long)(w->tg->op_delay % 1000) *
					   1000000L,
			};

			nanosleep(&ts, NULL);
		}
	}
	w->end_rt = realtime_ns();
	atomic_fetch_add(&r->done, 1);
	return NULL;
}
