/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ffsb.c - run FFSB (Flexible Filesystem Benchmark) profiles natively:
 * create the profile's file set (phase "setup"), then let its thread
 * groups draw weighted operations against it for `time` seconds (phase
 * "run", final sync included), and report FFSB's transactions table.
 *
 * The profile grammar, the transaction counting and the draws live in
 * model/ffsb_profile.c (pure, unit-tested); this file owns the file
 * table shared by the threads, the I/O of each operation and the report.
 * Besides FFSB's own figures it records what FFSB lacks: per-op latency
 * percentiles, fsyncs/s, files/s, the machine's CPU and the seed.
 */
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

#include "model/ffsb_profile.h"
#include "stats/lathist.h"
#include "stats/stats.h"
#include "util/util.h"
#include "util/verify.h"
#include "workloads/registry.h"

struct ffsb_opts {
	char *profile;
	long long time;
	long long seed;
};

#define OFF(f) offsetof(struct ffsb_opts, f)
static const struct opt ffsb_opt_table[] = {
	{ "profile", OPT_STRING, OFF(profile), "",
	  "FFSB profile file (empty: the built-in small-create+fsync "
	  "profile of the FLEX_BG mail)", 0, 0, NULL },
	{ "time", OPT_INT, OFF(time), "0",
	  "seconds of the timed run (0: the profile's 'time')", 0,
	  100000000, NULL },
	{ "seed", OPT_INT, OFF(seed), "-1",
	  "seed of the op and size draws (-1: the run's --seed)", -1,
	  LLONG_MAX, NULL },
	OPT_END,
};

static const char *const ffsb_phase_names[] = { "setup", "run", NULL };

static int load_profile(const struct ffsb_opts *o, struct ffsb_profile *p,
			char *err, size_t errlen)
{
	if (o->profile && *o->profile)
		return ffsb_profile_load(o->profile, p, err, errlen);
	return ffsb_profile_parse(ffsb_builtin_profile, "built-in", p, err,
				  errlen);
}

static int ffsb_check(const void *vopts, char *err, size_t errlen)
{
	const struct ffsb_opts *o = vopts;
	struct ffsb_profile p;

	if (load_profile(o, &p, err, errlen) < 0)
		return -1;
	if (!o->time && !p.time) {
		snprintf(err, errlen, "%s: the profile has no 'time' and no "
			 "time= option was given", p.file);
		ffsb_profile_release(&p);
		return -1;
	}
	ffsb_profile_release(&p);
	return 0;
}

/* ---- the shared file table ---- */

/*
 * One slot per file name ever used.  A live file sits in `live` (for a
 * uniform O(1) draw); `busy` counts ops using it, so delete only takes an
 * idle file; a deleted slot goes to `freed` once unlinked and the next
 * create reuses its name, as FFSB does.  One mutex per file set: ops
 * hold it only to draw and to update, never across I/O.
 */
struct slot {
	uint64_t size;
	int64_t live_pos;   /* index in live[], -1 when not live */
	uint32_t busy;
};

struct fset {
	const struct ffsb_fs *fs;
	char *dir;          /* rewritten location */
	char *rel;          /* its data/ relative to ctx->dir (--verify ids) */
	int data_fd, meta_fd;
	pthread_mutex_t lock;
	struct slot *slots;
	size_t nr_slots, alloc_slots;
	uint32_t *live;
	size_t nr_live, alloc_live;
	uint32_t *freed;
	size_t nr_freed, alloc_freed;
	uint64_t next_dir, next_meta;
};

static void slot_name(const struct fset *s, uint32_t id, char *buf,
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
static uint32_t slot_new(struct fset *s)
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

static void slot_publish(struct fset *s, uint32_t id, uint64_t size)
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

struct ffsb_run;

struct worker {
	struct ffsb_run *run;
	const struct ffsb_tg *tg;
	int index;
	pthread_t thread;
	bool started;
	struct pyrand rng;
	char *buf;
	size_t bufsize;
	uint64_t trans[FFSB_OP_NR], calls[FFSB_OP_NR], bytes[FFSB_OP_NR];
	uint64_t rbytes, wbytes, fsyncs, created, deleted;
	struct lathist *lat;            /* FFSB_OP_NR of them */
	uint64_t start_rt, end_rt;
	bool failed;
	char errmsg[512];
};

struct ffsb_run {
	struct wl_ctx *ctx;
	struct ffsb_profile p;
	unsigned time_s;
	uint64_t seed;
	struct fset *sets;
	size_t nr_sets;
	struct worker *w;
	size_t nr_w;
	uint64_t deadline;
	atomic_bool stop;
	int oflags;                     /* O_DIRECT or 0 */
	bool verify;                    /* --verify: util/verify.h data */
};

/*
 * --verify file id: that of the path relative to the workload directory
 * ("data/d3/f17", "fs1/data/f2"), as the final verify-data pass sees it.
 * A reused slot is a new file of the same name: the same pattern.
 */
static uint64_t file_vid(const struct fset *s, const char *name)
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
	uint64_t vid = w->run->verify ? file_vid(s, name) : 0;
	struct verify_bad bad;
	off_t off = 0;

	if (w->run->verify && (off = lseek(fd, 0, SEEK_CUR)) < 0)
		return -1;
	while (len) {
		size_t cur = len < bs ? (size_t)len : (size_t)bs;
		ssize_t n = read(fd, w->buf, cur);

		if (n < 0 && errno == EINTR)
			continue;
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
static int run_op(struct worker *w, enum ffsb_op op)
{
	const struct ffsb_tg *tg = w->tg;
	struct fset *s = pick_set(w);
	char name[64];
	uint64_t size = 0, moved = 0, got = 0, grew = 0;
	int64_t id = -1;
	int fd = -1, ret = 0;
	const char *what = "open";

	if (ffsb_op_needs_file(op)) {
		id = slot_pick(s, &w->rng, op == FFSB_OP_DELETE, &size);
		if (id < 0)
			return 0;
		slot_name(s, (uint32_t)id, name, sizeof(name));
	}
	switch (op) {
	case FFSB_OP_READ: {
		uint64_t bs = tg->read_blocksize;

		fd = openat(s->data_fd, name, O_RDONLY | O_CLOEXEC |
			    w->run->oflags);
		if (fd < 0)
			break;
		what = "read";
		if (tg->read_random) {
			uint64_t n = tg->read_size / bs;

			for (uint64_t i = 0; i < n && !ret; i++) {
				off_t off = (off_t)rand_offset(
					w, span(size, bs));

				ret = lseek(fd, off, SEEK_SET) < 0 ||
				      read_blocks(w, fd, bs, bs, &got, s,
						  name);
			}
		} else if (tg->read_skip) {
			uint64_t n = tg->read_size / bs;

			for (uint64_t i = 0; i < n && !ret; i++)
				ret = read_blocks(w, fd, bs, bs, &got, s,
						  name) ||
				      lseek(fd, (off_t)tg->read_skipsize,
					    SEEK_CUR) < 0;
		} else {
			off_t off = (off_t)rand_offset(w, span(size,
							    tg->read_size));

			ret = lseek(fd, off, SEEK_SET) < 0 ||
			      read_blocks(w, fd, tg->read_size, bs, &got, s,
					  name);
		}
		moved = tg->read_size;
		w->rbytes += got;
		break;
	}
	case FFSB_OP_READALL: {
		struct stat sb;

		fd = openat(s->data_fd, name, O_RDONLY | O_CLOEXEC |
			    w->run->oflags);
		if (fd < 0)
			break;
		what = "read";
		ret = fstat(fd, &sb) ||
		      read_blocks(w, fd, (uint64_t)sb.st_size,
				  tg->read_blocksize, &got, s, name);
		moved = got;
		w->rbytes += got;
		break;
	}
	case FFSB_OP_WRITE:
	case FFSB_OP_WRITE_FSYNC: {
		uint64_t bs = tg->write_blocksize;

		fd = openat(s->data_fd, name, O_WRONLY | O_CLOEXEC |
			    w->run->oflags);
		if (fd < 0)
			break;
		what = "write";
		if (tg->write_random) {
			uint64_t n = tg->write_size / bs;

			for (uint64_t i = 0; i < n && !ret; i++) {
				off_t off = (off_t)rand_offset(
					w, span(size, bs));

				ret = lseek(fd, off, SEEK_SET) < 0 ||
				      write_blocks(w, fd, bs, bs,
						   file_vid(s, name));
			}
		} else {
			off_t off = (off_t)rand_offset(w, span(size,
							    tg->write_size));

			ret = lseek(fd, off, SEEK_SET) < 0 ||
			      write_blocks(w, fd, tg->write_size, bs,
					   file_vid(s, name));
		}
		if (!ret && (ret = do_fsync(w, fd, op)))
			what = "fsync";
		moved = tg->write_size;
		w->wbytes += moved;
		break;
	}
	case FFSB_OP_WRITEALL:
	case FFSB_OP_WRITEALL_FSYNC: {
		struct stat sb;

		fd = openat(s->data_fd, name, O_WRONLY | O_CLOEXEC |
			    w->run->oflags);
		if (fd < 0)
			break;
		what = "write";
		ret = fstat(fd, &sb) ||
		      write_blocks(w, fd, (uint64_t)sb.st_size,
				   tg->write_blocksize, file_vid(s, name));
		if (!ret && (ret = do_fsync(w, fd, op)))
			what = "fsync";
		moved = (uint64_t)sb.st_size;
		w->wbytes += moved;
		break;
	}
	case FFSB_OP_APPEND:
	case FFSB_OP_APPEND_FSYNC:
		/*
		 * --verify: no O_APPEND but a write at the end as found, so
		 * the pattern matches where the bytes land; two threads
		 * appending at once then write the same bytes at the same
		 * place instead of a misplaced copy.
		 */
		fd = openat(s->data_fd, name, O_WRONLY |
			    (w->run->verify ? 0 : O_APPEND) |
			    O_CLOEXEC | w->run->oflags);
		if (fd < 0)
			break;
		what = "append to";
		ret = (w->run->verify && lseek(fd, 0, SEEK_END) < 0) ||
		      write_blocks(w, fd, tg->write_size,
				   tg->write_blocksize, file_vid(s, name));
		if (!ret && (ret = do_fsync(w, fd, op)))
			what = "fsync";
		moved = grew = tg->write_size;
		w->wbytes += moved;
		break;
	case FFSB_OP_CREATE:
	case FFSB_OP_CREATE_FSYNC:
		size = ffsb_choose_size(s->fs, &w->rng);
		id = slot_new(s);
		slot_name(s, (uint32_t)id, name, sizeof(name));
		what = "create";
		fd = openat(s->data_fd, name, O_WRONLY | O_CREAT | O_TRUNC |
			    O_NOFOLLOW | O_CLOEXEC | w->run->oflags, 0644);
		if (fd < 0)
			break;
		what = "write";
		ret = write_blocks(w, fd, size, tg->write_blocksize,
				   file_vid(s, name));
		if (!ret && (ret = do_fsync(w, fd, op)))
			what = "fsync";
		moved = size;
		w->wbytes += moved;
		w->created++;
		break;
	case FFSB_OP_DELETE:
		what = "delete";
		ret = unlinkat(s->data_fd, name, 0);
		if (!ret)
			slot_free(s, (uint32_t)id);
		w->deleted++;
		fd = -2;
		break;
	case FFSB_OP_STAT: {
		struct stat sb;

		what = "stat";
		ret = fstatat(s->data_fd, name, &sb, 0);
		fd = -2;
		break;
	}
	case FFSB_OP_OPEN_CLOSE:
		fd = openat(s->data_fd, name, O_RDONLY | O_CLOEXEC);
		break;
	case FFSB_OP_CREATEDIR:
		snprintf(name, sizeof(name), "x%llu", (unsigned long long)
			 counter_next(s, &s->next_dir));
		what = "create directory";
		ret = mkdirat(s->data_fd, name, 0755);
		fd = -2;
		break;
	case FFSB_OP_METAOP: {
		/* FFSB's metaop: two mkdirs, a rename and an rmdir */
		uint64_t n = counter_next(s, &s->next_meta);
		char a[32], b[32], c[32];

		snprintf(a, sizeof(a), "m%llu", (unsigned long long)n);
		snprintf(b, sizeof(b), "t%llu", (unsigned long long)n);
		snprintf(c, sizeof(c), "r%llu", (unsigned long long)n);
		snprintf(name, sizeof(name), "../meta/%s", a);
		what = "do a metaop on";
		ret = mkdirat(s->meta_fd, a, 0755) ||
		      mkdirat(s->meta_fd, b, 0755) ||
		      renameat(s->meta_fd, a, s->meta_fd, c) ||
		      unlinkat(s->meta_fd, b, AT_REMOVEDIR);
		fd = -2;
		break;
	}
	default:
		BUG("bad op %d", (int)op);
	}
	if (fd == -1 && !ret)
		ret = -1;
	if (fd >= 0 && close(fd) && !ret) {
		what = "close";
		ret = -1;
	}
	if (ret && !w->failed)
		wfail(w, what, s, name);
	if (op == FFSB_OP_CREATE || op == FFSB_OP_CREATE_FSYNC) {
		if (!ret)
			slot_publish(s, (uint32_t)id, size);
		else
			slot_free(s, (uint32_t)id);
	} else if (id >= 0 && op != FFSB_OP_DELETE) {
		slot_done(s, (uint32_t)id, ret ? 0 : grew);
	}
	if (ret)
		return -1;
	w->calls[op]++;
	w->bytes[op] += moved;
	w->trans[op] += ffsb_transactions(op, moved,
					  op_is_read(op) ? tg->read_blocksize :
					  tg->write_blocksize,
					  op_is_pwrite(op) && tg->write_random);
	return 1;
}

static void *worker_main(void *arg)
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
	return NULL;
}

static char *aligned_buf(size_t size, uint64_t seed)
{
	void *p;
	struct pyrand r;

	if (posix_memalign(&p, 4096, size))
		die("out of memory");
	/* incompressible, so compressing filesystems do the real work */
	pyrand_seed(&r, seed);
	for (size_t i = 0; i + 4 <= size; i += 4) {
		uint32_t v = pyrand_u32(&r);

		memcpy((char *)p + i, &v, 4);
	}
	return p;
}

static int open_dir_at(int dfd, const char *path, const char *name,
		       bool create)
{
	int fd;

	if (create && mkdirat(dfd, name, 0755) && errno != EEXIST)
		return error_errno("cannot create directory '%s/%s'", path,
				   name);
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open directory '%s/%s'", path,
				   name);
	return fd;
}

static int set_open(struct ffsb_run *r, size_t i)
{
	struct fset *s = &r->sets[i];
	const char *base = r->ctx->dir;
	char d[32];
	int bfd;

	s->fs = &r->p.fs[i];
	s->data_fd = s->meta_fd = -1;
	pthread_mutex_init(&s->lock, NULL);
	/* one filesystem: the target's directory; more: fsN under it */
	if (r->p.nr_fs == 1) {
		s->dir = xstrdup(base);
		s->rel = xstrdup("data");
	} else {
		s->dir = xasprintf("%s/fs%zu", base, i);
		s->rel = xasprintf("fs%zu/data", i);
	}
	if (r->p.nr_fs > 1 && mkdir(s->dir, 0755) && errno != EEXIST)
		return error_errno("cannot create directory '%s'", s->dir);
	bfd = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0)
		return error_errno("cannot open '%s'", s->dir);
	s->data_fd = open_dir_at(bfd, s->dir, "data", true);
	if (s->data_fd >= 0)
		s->meta_fd = open_dir_at(bfd, s->dir, "meta", true);
	close(bfd);
	if (s->meta_fd < 0)
		return -1;
	for (uint64_t k = 0; k < s->fs->num_dirs; k++) {
		snprintf(d, sizeof(d), "d%llu", (unsigned long long)k);
		if (mkdirat(s->data_fd, d, 0755) && errno != EEXIST)
			return error_errno("cannot create directory "
					   "'%s/data/%s'", s->dir, d);
	}
	return 0;
}

static void set_close(struct fset *s)
{
	if (s->data_fd >= 0)
		close(s->data_fd);
	if (s->meta_fd >= 0)
		close(s->meta_fd);
	pthread_mutex_destroy(&s->lock);
	free(s->dir);
	free(s->rel);
	free(s->slots);
	free(s->live);
	free(s->freed);
}

/* Bytes the initial file set must reach beyond num_files (init_*). */
static uint64_t init_target(const struct fset *s)
{
	struct statvfs sv;
	double total, used, want;

	if (s->fs->init_size)
		return s->fs->init_size;
	if (s->fs->init_util <= 0 || statvfs(s->dir, &sv))
		return 0;
	total = (double)sv.f_blocks * (double)sv.f_frsize;
	used = total - (double)sv.f_bfree * (double)sv.f_frsize;
	want = s->fs->init_util * total - used;
	return want > 0 ? (uint64_t)want : 0;
}

/* The initial file set: num_files files (and up to init_size/util). */
static int setup_set(struct fset *s, struct phase *ph, struct pyrand *rng,
		     char *buf, const struct wl_ctx *ctx)
{
	uint64_t target = init_target(s), bytes = 0, files = 0;
	uint64_t bs = s->fs->create_blocksize;
	char name[64];

	for (uint64_t n = 0; n < s->fs->num_files || bytes < target; n++) {
		uint64_t size = ffsb_choose_size(s->fs, rng);
		uint32_t id;
		int fd;

		if (phase_stop_requested())
			break;
		id = slot_new(s);
		slot_name(s, id, name, sizeof(name));
		fd = openat(s->data_fd, name, O_WRONLY | O_CREAT | O_TRUNC |
			    O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			phase_fail(ph, "cannot create '%s/data/%s': %s",
				   s->dir, name, strerror(errno));
			return error_errno("cannot create '%s/data/%s'",
					   s->dir, name);
		}
		for (uint64_t left = size; left;) {
			size_t cur = left < bs ? (size_t)left : (size_t)bs;

			if (ctx->verify)
				verify_fill(ctx->seed, file_vid(s, name),
					    size - left, buf, cur);
			if (write_full(fd, buf, cur)) {
				int e = errno;

				close(fd);
				phase_fail(ph, "cannot write '%s/data/%s': "
					   "%s", s->dir, name, strerror(e));
				return error("cannot write '%s/data/%s': %s",
					     s->dir, name, strerror(e));
			}
			left -= cur;
		}
		if (close(fd)) {
			phase_fail(ph, "cannot close '%s/data/%s': %s",
				   s->dir, name, strerror(errno));
			return error_errno("cannot close '%s/data/%s'",
					   s->dir, name);
		}
		slot_publish(s, id, size);
		bytes += size;
		files++;
	}
	phase_work(ph, bytes, files, files);
	return 0;
}

static const char *profile_label(const struct ffsb_profile *p)
{
	const char *slash = strrchr(p->file, '/');

	return slash ? slash + 1 : p->file;
}

static int do_setup(struct ffsb_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "setup", profile_label(&r->p));
	uint64_t bs = 4096;
	struct pyrand rng;
	char *buf;
	int ret = 0;

	for (size_t i = 0; i < r->p.nr_fs; i++)
		if (r->p.fs[i].create_blocksize > bs)
			bs = r->p.fs[i].create_blocksize;
	buf = aligned_buf((size_t)bs, r->seed);
	pyrand_seed(&rng, ffsb_thread_seed(r->seed, UINT_MAX));
	for (size_t i = 0; i < r->nr_sets && !ret; i++)
		ret = setup_set(&r->sets[i], ph, &rng, buf, r->ctx);
	if (!ret && !phase_stop_requested() && wl_sync(r->ctx)) {
		phase_fail(ph, "sync failed");
		ret = -1;
	}
	free(buf);
	if (phase_end(r->ctx, ph, NULL) < 0)
		ret = -1;
	return ret;
}

static double ns_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL +
	       (uint64_t)tv->tv_usec * 1000ULL;
}

/* Expected share of op among all calls: FFSB's "% Op Weight". */
static double weight_pct(const struct ffsb_profile *p, enum ffsb_op op)
{
	double threads = 0, share = 0;

	for (size_t i = 0; i < p->nr_tg; i++) {
		const struct ffsb_tg *tg = &p->tg[i];

		threads += tg->num_threads;
		share += (double)tg->num_threads * tg->weight[op] /
			 ffsb_tg_total_weight(tg);
	}
	return threads ? 100.0 * share / threads : 0.0;
}

static void metric_name(char *buf, size_t len, enum ffsb_op op,
			const char *what)
{
	snprintf(buf, len, "%s.%s", ffsb_op_name(op), what);
}

static void record_run(struct ffsb_run *r, struct phase *ph,
		       uint64_t elapsed, uint64_t sync_ns, uint64_t cpu_user,
		       uint64_t cpu_sys)
{
	uint64_t trans[FFSB_OP_NR] = { 0 }, calls[FFSB_OP_NR] = { 0 };
	uint64_t bytes[FFSB_OP_NR] = { 0 }, total = 0;
	uint64_t rbytes = 0, wbytes = 0, fsyncs = 0, created = 0;
	uint64_t deleted = 0;
	struct lathist *lat = xcalloc(FFSB_OP_NR, sizeof(*lat));
	double secs = ns_s(elapsed) > 0 ? ns_s(elapsed) : 1e-9;
	char name[96];

	for (int op = 0; op < FFSB_OP_NR; op++)
		lathist_init(&lat[op]);
	for (size_t i = 0; i < r->nr_w; i++) {
		struct worker *w = &r->w[i];
		uint64_t wt = 0;

		for (int op = 0; op < FFSB_OP_NR; op++) {
			trans[op] += w->trans[op];
			calls[op] += w->calls[op];
			bytes[op] += w->bytes[op];
			wt += w->trans[op];
			lathist_merge(&lat[op], &w->lat[op]);
		}
		total += wt;
		rbytes += w->rbytes;
		wbytes += w->wbytes;
		fsyncs += w->fsyncs;
		created += w->created;
		deleted += w->deleted;
		phase_worker(ph, w->index, w->start_rt, w->end_rt,
			     w->rbytes + w->wbytes, w->created, wt);
	}
	for (int i = 0; i < FFSB_OP_NR; i++) {
		enum ffsb_op op = (enum ffsb_op)i;
		double wp = weight_pct(&r->p, op);

		if (!wp && !calls[op])
			continue;
		metric_name(name, sizeof(name), op, "transactions");
		phase_metric(ph, name, (double)trans[op], "transactions",
			     BETTER_NONE);
		metric_name(name, sizeof(name), op, "tps");
		phase_metric(ph, name, (double)trans[op] / secs,
			     "transactions/s", BETTER_HIGHER);
		metric_name(name, sizeof(name), op, "weight_pct");
		phase_metric(ph, name, wp, "%", BETTER_NONE);
		metric_name(name, sizeof(name), op, "calls");
		phase_metric(ph, name, (double)calls[op], "ops", BETTER_NONE);
		metric_name(name, sizeof(name), op, "bytes");
		phase_metric(ph, name, (double)bytes[op], "B", BETTER_NONE);
		if (!calls[op])
			continue;
		phase_latency(ph, ffsb_op_name(op), &lat[op]);
	}
	free(lat);
	phase_metric(ph, "transactions", (double)total, "transactions",
		     BETTER_NONE);
	phase_metric(ph, "tps", (double)total / secs, "transactions/s",
		     BETTER_HIGHER);
	phase_metric(ph, "elapsed_s", secs, "s", BETTER_NONE);
	phase_metric(ph, "sync_s", ns_s(sync_ns), "s", BETTER_LOWER);
	phase_metric(ph, "read_bytes", (double)rbytes, "B", BETTER_NONE);
	phase_metric(ph, "write_bytes", (double)wbytes, "B", BETTER_NONE);
	phase_metric(ph, "read_MiB/s", (double)rbytes / 1048576.0 / secs,
		     "MiB/s", BETTER_HIGHER);
	phase_metric(ph, "write_MiB/s", (double)wbytes / 1048576.0 / secs,
		     "MiB/s", BETTER_HIGHER);
	phase_metric(ph, "user_pct", 100.0 * ns_s(cpu_user) / secs, "%",
		     BETTER_LOWER);
	phase_metric(ph, "sys_pct", 100.0 * ns_s(cpu_sys) / secs, "%",
		     BETTER_LOWER);
	phase_metric(ph, "cpu_pct", 100.0 * ns_s(cpu_user + cpu_sys) / secs,
		     "%", BETTER_LOWER);
	phase_metric(ph, "fsyncs", (double)fsyncs, "ops", BETTER_NONE);
	phase_metric(ph, "fsyncs/s", (double)fsyncs / secs, "ops/s",
		     BETTER_HIGHER);
	phase_metric(ph, "files_created", (double)created, "files",
		     BETTER_NONE);
	phase_metric(ph, "files_deleted", (double)deleted, "files",
		     BETTER_NONE);
	phase_metric(ph, "files/s", (double)created / secs, "files/s",
		     BETTER_HIGHER);
	phase_metric(ph, "seed", (double)r->seed, "", BETTER_NONE);
	phase_metric(ph, "threads", (double)r->nr_w, "threads", BETTER_NONE);
	phase_metric(ph, "time_s", r->time_s, "s", BETTER_NONE);
	phase_work(ph, rbytes + wbytes, created, total);
}

static int do_run(struct ffsb_run *r)
{
	struct phase *ph = phase_begin(r->ctx, "run", profile_label(&r->p));
	struct rusage ru0, ru1;
	uint64_t t0, ts, elapsed, sync_ns = 0;
	const char *fail = NULL;
	int ret = 0;

	getrusage(RUSAGE_SELF, &ru0);
	t0 = now_ns();
	r->deadline = t0 + (uint64_t)r->time_s * 1000000000ULL;
	for (size_t i = 0; i < r->nr_w; i++) {
		int e = pthread_create(&r->w[i].thread, NULL, worker_main,
				       &r->w[i]);

		if (e) {
			errno = e;
			error_errno("cannot start thread %zu", i);
			phase_fail(ph, "cannot start thread %zu: %s", i,
				   strerror(e));
			atomic_store(&r->stop, true);
			ret = -1;
			break;
		}
		r->w[i].started = true;
	}
	for (size_t i = 0; i < r->nr_w; i++)
		if (r->w[i].started)
			pthread_join(r->w[i].thread, NULL);
	for (size_t i = 0; i < r->nr_w; i++) {
		if (r->w[i].failed && !fail)
			fail = r->w[i].errmsg;
		else if (!r->w[i].failed && r->w[i].errmsg[0])
			warning("%s", r->w[i].errmsg);
	}
	/* FFSB syncs inside its timed run: the data must reach the disk */
	ts = now_ns();
	if (!fail && !ret && !phase_stop_requested()) {
		if (wl_sync(r->ctx)) {
			phase_fail(ph, "sync failed");
			ret = -1;
		}
		sync_ns = now_ns() - ts;
	}
	elapsed = now_ns() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	record_run(r, ph, elapsed, sync_ns,
		   tv_ns(&ru1.ru_utime) - tv_ns(&ru0.ru_utime),
		   tv_ns(&ru1.ru_stime) - tv_ns(&ru0.ru_stime));
	if (fail) {
		error("%s", fail);
		phase_fail(ph, "%s", fail);
		ret = -1;
	}
	if (phase_end(r->ctx, ph, NULL) < 0)
		ret = -1;
	return ret;
}

static int ffsb_run_fn(struct wl_ctx *ctx, const void *vopts)
{
	const struct ffsb_opts *o = vopts;
	struct ffsb_run *r = xcalloc(1, sizeof(*r));
	char err[1024];
	size_t bufsize = 4096, k = 0;
	int ret = 0;

	r->ctx = ctx;
	if (load_profile(o, &r->p, err, sizeof(err)) < 0) {
		free(r);
		return error("%s", err);
	}
	for (size_t i = 0; i < r->p.nr_notices; i++)
		fprintf(ctx->progress, "ffsb: %s\n", r->p.notices[i]);
	r->time_s = o->time ? (unsigned)o->time : r->p.time;
	r->seed = o->seed >= 0 ? (uint64_t)o->seed : ctx->seed;
	r->oflags = r->p.directio ? O_DIRECT : 0;
	r->verify = ctx->verify;
	atomic_init(&r->stop, false);
	for (size_t i = 0; i < r->p.nr_tg; i++) {
		const struct ffsb_tg *tg = &r->p.tg[i];

		r->nr_w += tg->num_threads;
		if (tg->read_blocksize > bufsize)
			bufsize = (size_t)tg->read_blocksize;
		if (tg->write_blocksize > bufsize)
			bufsize = (size_t)tg->write_blocksize;
	}
	bufsize = (bufsize + 4095) & ~(size_t)4095;
	r->nr_sets = r->p.nr_fs;
	r->sets = xcalloc(r->nr_sets, sizeof(*r->sets));
	r->w = xcalloc(r->nr_w, sizeof(*r->w));
	for (size_t i = 0; i < r->p.nr_tg; i++) {
		for (unsigned t = 0; t < r->p.tg[i].num_threads; t++, k++) {
			struct worker *w = &r->w[k];

			w->run = r;
			w->tg = &r->p.tg[i];
			w->index = (int)k;
			pyrand_seed(&w->rng, ffsb_thread_seed(r->seed,
							      (unsigned)k));
			w->bufsize = bufsize;
			w->buf = aligned_buf(bufsize, r->seed + k);
			w->lat = xcalloc(FFSB_OP_NR, sizeof(*w->lat));
			for (int op = 0; op < FFSB_OP_NR; op++)
				lathist_init(&w->lat[op]);
		}
	}
	fprintf(ctx->progress, "ffsb: profile %s, %u s, %zu thread%s, "
		"seed %llu, in %s\n", r->p.file, r->time_s, r->nr_w,
		r->nr_w == 1 ? "" : "s", (unsigned long long)r->seed,
		ctx->dir);
	for (size_t i = 0; i < r->nr_sets && !ret; i++)
		ret = set_open(r, i);
	if (!ret)
		ret = do_setup(r);
	if (!ret && !phase_stop_requested())
		ret = do_run(r);
	/* --verify: every file the run leaves, once more from the disk */
	if (!ret && !phase_stop_requested() && r->verify)
		ret = verify_phase_tree(ctx, NULL);
	for (size_t i = 0; i < r->nr_sets; i++)
		if (r->sets[i].fs)
			set_close(&r->sets[i]);
	for (size_t i = 0; i < r->nr_w; i++) {
		free(r->w[i].buf);
		free(r->w[i].lat);
	}
	free(r->w);
	free(r->sets);
	ffsb_profile_release(&r->p);
	free(r);
	return ret;
}

/* ---- the report, from stored phases only ---- */

static double op_val(const struct phase_rec *p, enum ffsb_op op,
		     const char *what, bool *have)
{
	char name[96];
	const struct metric *m;

	metric_name(name, sizeof(name), op, what);
	m = phase_rec_metric(p, name);
	if (have)
		*have = m != NULL;
	return m ? m->value : 0.0;
}

/* FFSB's ffsb_printsize(): binary units, "B", "KB", "MB", "GB". */
static char *fmt_rate(char *buf, size_t len, double bytes_s)
{
	static const char *const u[] = { "B", "KB", "MB", "GB", "TB" };
	size_t i = 0;

	while (bytes_s >= 1024.0 && i + 1 < ARRAY_SIZE(u)) {
		bytes_s /= 1024.0;
		i++;
	}
	snprintf(buf, len, "%.3g%s/sec", bytes_s, u[i]);
	return buf;
}

static void ffsb_report(FILE *out, const struct run_rec *run,
			const struct wlrun_rec *wr)
{
	const struct phase_rec *p = wlrun_rec_phase(wr, "run", true);
	const struct phase_rec *su = wlrun_rec_phase(wr, "setup", true);
	double total, secs, tps, threads;
	char rb[32];
	bool have;

	(void)run;
	if (!p) {
		fprintf(out, "\nffsb: no completed run phase\n");
		return;
	}
	total = phase_rec_value(p, "transactions", 0);
	secs = phase_rec_value(p, "elapsed_s", 0);
	tps = phase_rec_value(p, "tps", 0);
	threads = phase_rec_value(p, "threads", 0);
	fprintf(out, "\nffsb profile %s: %.0f s, %.0f thread%s, seed %.0f\n",
		p->label ? p->label : "?", phase_rec_value(p, "time_s", 0),
		threads, threads == 1 ? "" : "s", phase_rec_value(p, "seed", 0));
	if (su)
		fprintf(out, "Setup: %llu files, %.1f MiB in %.2f sec "
			"(untimed)\n", (unsigned long long)su->files,
			(double)su->bytes / 1048576.0,
			(double)su->m.wall_ns / 1e9);
	fprintf(out, "\nResults:\nBenchmark took %.2f sec\n\n", secs);
	fprintf(out, "Total Results\n===============\n");
	fprintf(out, "%20s %14s %14s %12s %15s %14s\n", "Op Name",
		"Transactions", "Trans/sec", "% Trans", "% Op Weight",
		"Throughput");
	fprintf(out, "%20s %14s %14s %12s %15s %14s\n", "=======",
		"============", "=========", "=======", "===========",
		"==========");
	for (int i = 0; i < FFSB_OP_NR; i++) {
		enum ffsb_op op = (enum ffsb_op)i;
		double t = op_val(p, op, "transactions", &have);

		if (!have)
			continue;
		fprintf(out, "%18s : %14.0f %14.2f %11.3f%% %14.3f%% %14s\n",
			ffsb_op_name(op), t, op_val(p, op, "tps", NULL),
			total ? 100.0 * t / total : 0.0,
			op_val(p, op, "weight_pct", NULL),
			fmt_rate(rb, sizeof(rb),
				 secs ? op_val(p, op, "bytes", NULL) / secs
				      : 0.0));
	}
	fprintf(out, "-\n%.2f Transactions per Second\n\n", tps);
	fprintf(out, "Throughput Results\n===================\n");
	fprintf(out, "Read Throughput: %s\n", fmt_rate(rb, sizeof(rb),
		secs ? phase_rec_value(p, "read_bytes", 0) / secs : 0.0));
	fprintf(out, "Write Throughput: %s\n\n", fmt_rate(rb, sizeof(rb),
		secs ? phase_rec_value(p, "write_bytes", 0) / secs : 0.0));
	fprintf(out, "%.1f%% User   Time\n", phase_rec_value(p, "user_pct", 0));
	fprintf(out, "%.1f%% System Time\n", phase_rec_value(p, "sys_pct", 0));
	fprintf(out, "%.1f%% CPU Utilization\n", phase_rec_value(p, "cpu_pct", 0));

	fprintf(out, "\nfslab additions\n===============\n");
	if (p->m.sys_busy_pct >= 0)
		fprintf(out, "%.1f%% System-wide CPU busy\n",
			p->m.sys_busy_pct);
	else
		fprintf(out, "System-wide CPU busy: unknown\n");
	fprintf(out, "%.2f fsyncs/sec\n", phase_rec_value(p, "fsyncs/s", 0));
	fprintf(out, "%.2f files/sec created (%.0f created, %.0f deleted)\n",
		phase_rec_value(p, "files/s", 0), phase_rec_value(p, "files_created", 0),
		phase_rec_value(p, "files_deleted", 0));
	fprintf(out, "%.2f sec final sync (inside the timed run)\n",
		phase_rec_value(p, "sync_s", 0));
	fprintf(out, "Seed: %.0f\n\n", phase_rec_value(p, "seed", 0));
	fprintf(out, "Operation latency in millisecs\n");
	fprintf(out, "%20s %12s %12s %12s %12s %12s\n", "Op Name", "Calls",
		"p50", "p95", "p99", "max");
	for (int i = 0; i < FFSB_OP_NR; i++) {
		enum ffsb_op op = (enum ffsb_op)i;
		double p50 = op_val(p, op, "lat_p50_ms", &have);

		if (!have)
			continue;
		fprintf(out, "%18s : %12.0f %12.3f %12.3f %12.3f %12.3f\n",
			ffsb_op_name(op), op_val(p, op, "calls", NULL), p50,
			op_val(p, op, "lat_p95_ms", NULL),
			op_val(p, op, "lat_p99_ms", NULL),
			op_val(p, op, "lat_max_ms", NULL));
	}
}

/* Mean tps and %CPU over a group's completed repetitions; 0 reps: -1. */
static int group_means(const struct cmp_group *g, double *tps, double *cpu)
{
	double t[64], c[64];
	size_t n = 0;

	for (size_t i = 0; i < g->nr_reps && n < ARRAY_SIZE(t); i++) {
		const struct phase_rec *p = wlrun_rec_phase(g->reps[i], "run", true);

		if (!p || !phase_rec_metric(p, "tps"))
			continue;
		t[n] = phase_rec_value(p, "tps", 0);
		c[n] = phase_rec_value(p, "cpu_pct", 0);
		n++;
	}
	if (!n)
		return -1;
	*tps = stats_mean(t, n);
	*cpu = stats_mean(c, n);
	return (int)n;
}

/* The FLEX_BG mail's lines: "name  tps@%CPU  +x% over baseline". */
static void ffsb_report_compare(FILE *out, const struct cmp_group *groups,
				size_t nr_groups)
{
	double base = 0, tps, cpu;
	size_t width = 8;

	for (size_t i = 0; i < nr_groups; i++)
		if (strlen(groups[i].label) > width)
			width = strlen(groups[i].label);
	fprintf(out, "ffsb transactions/s @ %% CPU (FFSB's CPU Utilization), "
		"mean of the repetitions\n");
	for (size_t i = 0; i < nr_groups; i++) {
		int n = group_means(&groups[i], &tps, &cpu);

		if (n < 0) {
			fprintf(out, "  %-*s  no completed run\n", (int)width,
				groups[i].label);
			continue;
		}
		fprintf(out, "  %-*s  %10.2f@%.1f%%", (int)width,
			groups[i].label, tps, cpu);
		if (!i) {
			base = tps;
			fprintf(out, "  (baseline, %d rep%s)\n", n,
				n == 1 ? "" : "s");
		} else if (base > 0) {
			fprintf(out, "  %+.1f%% over baseline\n",
				100.0 * (tps - base) / base);
		} else {
			fputc('\n', out);
		}
	}
}

static const char *const ffsb_key_metrics[] = { "run/tps", NULL };

const struct workload wl_ffsb = {
	.name = "ffsb",
	.summary = "FFSB profiles: weighted threads of create/read/write/"
		   "append/fsync/delete/stat ops, transactions/s @ %CPU",
	.phases = ffsb_phase_names,
	/* Every rank runs the same setup and timed run in its own
	 * directory; phase_end aggregates the ranks' transactions. */
	.flags = WL_MPI_AWARE | WL_VERIFY,
	.opts = ffsb_opt_table,
	.opts_size = sizeof(struct ffsb_opts),
	.check = ffsb_check,
	.run = ffsb_run_fn,
	.report = ffsb_report,
	.report_compare = ffsb_report_compare,
	.key_metrics = ffsb_key_metrics,
};
