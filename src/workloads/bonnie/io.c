/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io.c - bonnie++'s sequential tests (per-char and block output,
 * rewrite, per-char and block input) and the random seeks.
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

int bon_test_putc(struct bon_run *r)
{
	struct bon_phase bp;
	uint64_t n = r->stdio ? r->size : r->o->byte_io, t = now_ns();
	uint64_t chunk = r->o->chunk;
	int ret = 0;

	bp_begin(r, &bp, BON_PUTC);
	phase_expect(bp.ph, n, 0, 0);
	if (r->stdio) {
		FILE *f = fopen(r->path, "w");

		if (!f)
			return bp_end(r, &bp, BON_PUTC,
				      bp_fail(&bp, "create", r->path), -1);
		for (uint64_t i = 0; i < n && !ret; i++) {
			int c = r->verify ? bon_vbyte(r, i) : (int)(i & 0x7f);

			if (putc(c, f) == EOF)
				ret = bp_fail(&bp, "write", r->path);
			if ((i + 1) % chunk == 0 &&
			    bp_chars_done(&bp, &t, chunk))
				break;
		}
		if (fflush(f) && !ret)
			ret = bp_fail(&bp, "write", r->path);
		if (!ret && fsync(fileno(f)))
			ret = bp_fail(&bp, "fsync", r->path);
		if (fclose(f) && !ret)
			ret = bp_fail(&bp, "close", r->path);
	} else {
		int fd = open(r->path, O_WRONLY | O_CREAT | O_TRUNC |
			      O_NOFOLLOW | O_CLOEXEC, 0600);

		if (fd < 0)
			return bp_end(r, &bp, BON_PUTC,
				      bp_fail(&bp, "create", r->path), -1);
		for (uint64_t i = 0; i < n && !ret; i++) {
			char c = r->verify ? (char)bon_vbyte(r, i) :
					     (char)(i & 0x7f);

			if (write_full(fd, &c, 1))
				ret = bp_fail(&bp, "write", r->path);
			if ((i + 1) % chunk == 0 &&
			    bp_chars_done(&bp, &t, chunk))
				break;
		}
		ret = bon_fsync_close(&bp, fd, r->path, ret);
	}
	bp.bytes = n;
	bp.ops = n;
	return bp_end(r, &bp, BON_PUTC, ret, -1);
}

static int open_block(struct bon_run *r, int flags)
{
	return open(r->path, flags | O_NOFOLLOW | O_CLOEXEC |
		    (r->o->direct ? O_DIRECT : 0),
		    0600);
}

int bon_test_block_write(struct bon_run *r)
{
	struct bon_phase bp;
	size_t chunk = (size_t)r->o->chunk;
	uint64_t nchunks = r->size / chunk;
	int fd, ret = 0;

	bp_begin(r, &bp, BON_WRITE);
	phase_expect(bp.ph, nchunks * chunk, 0, 0);
	fd = open_block(r, O_WRONLY | O_CREAT | O_TRUNC);
	if (fd < 0)
		return bp_end(r, &bp, BON_WRITE,
			      bp_fail(&bp, "create", r->path), -1);
	for (uint64_t i = 0; i < nchunks && !ret; i++) {
		uint64_t t = now_ns();

		/* one byte changed per chunk, so no two chunks are alike */
		if (r->verify)
			verify_fill(r->ctx->seed, r->vid, i * chunk, r->buf,
				    chunk);
		else
			r->buf[i % chunk]++;
		if (write_full(fd, r->buf, chunk))
			ret = bp_fail(&bp, "write", r->path);
		bp_block_done(&bp, now_ns() - t, chunk);
		if (phase_stop_requested())
			break;
	}
	ret = bon_fsync_close(&bp, fd, r->path, ret);
	return bp_end(r, &bp, BON_WRITE, ret, -1);
}

int bon_test_rewrite(struct bon_run *r)
{
	struct bon_phase bp;
	size_t chunk = (size_t)r->o->chunk;
	int fd, ret = 0;

	bp_begin(r, &bp, BON_REWRITE);
	phase_expect(bp.ph, r->size, 0, 0);
	fd = open_block(r, O_RDWR);
	if (fd < 0)
		return bp_end(r, &bp, BON_REWRITE,
			      bp_fail(&bp, "open", r->path), -1);
	while (!ret && !phase_stop_requested()) {
		uint64_t t = now_ns();
		ssize_t n = read_full(fd, r->buf, chunk);

		if (n < 0) {
			ret = bp_fail(&bp, "read", r->path);
			break;
		}
		if (!n)
			break;
		/* --verify: check what was read, write the same back */
		if (r->verify) {
			ret = bp_verify(r, bp.ph, r->vname, r->vid, bp.bytes,
					r->buf, (size_t)n);
			if (ret)
				break;
		} else {
			r->buf[bp.ops % (uint64_t)n]++;
		}
		if (lseek(fd, -n, SEEK_CUR) < 0)
			ret = bp_fail(&bp, "seek in", r->path);
		else if (write_full(fd, r->buf, (size_t)n))
			ret = bp_fail(&bp, "write", r->path);
		bp_block_done(&bp, now_ns() - t, (uint64_t)n);
	}
	ret = bon_fsync_close(&bp, fd, r->path, ret);
	return bp_end(r, &bp, BON_REWRITE, ret, -1);
}

int bon_test_getc(struct bon_run *r)
{
	struct bon_phase bp;
	uint64_t n = r->stdio ? r->size : r->o->byte_io, got = 0;
	uint64_t chunk = r->o->chunk, t = now_ns();
	int ret = 0;

	bp_begin(r, &bp, BON_GETC);
	phase_expect(bp.ph, n, 0, 0);
	bon_add_reorder(r, bp.ph);
	if (r->stdio) {
		FILE *f = fopen(r->path, "r");

		if (!f)
			return bp_end(r, &bp, BON_GETC,
				      bp_fail(&bp, "open", r->path), -1);
		int c;

		while (got < n && (c = getc(f)) != EOF) {
			if (r->verify && c != bon_vbyte(r, got)) {
				ret = bp_verify_byte(r, bp.ph, fileno(f), got);
				break;
			}
			if (++got % chunk == 0 &&
			    bp_chars_done(&bp, &t, chunk))
				break;
		}
		if (ferror(f))
			ret = bp_fail(&bp, "read", r->path);
		fclose(f);
	} else {
		int fd = open(r->path, O_RDONLY | O_CLOEXEC);
		char c;

		if (fd < 0)
			return bp_end(r, &bp, BON_GETC,
				      bp_fail(&bp, "open", r->path), -1);
		while (got < n) {
			ssize_t k = read(fd, &c, 1);

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
				ret = bp_fail(&bp, "read", r->path);
			if (k <= 0)
				break;
			if (r->verify &&
			    (unsigned char)c != bon_vbyte(r, got)) {
				ret = bp_verify_byte(r, bp.ph, fd, got);
				break;
			}
			if (++got % chunk == 0 &&
			    bp_chars_done(&bp, &t, chunk))
				break;
		}
		close(fd);
	}
	bp.bytes = got;
	bp.ops = got;
	return bp_end(r, &bp, BON_GETC, ret, -1);
}

int bon_test_block_read(struct bon_run *r)
{
	struct bon_phase bp;
	size_t chunk = (size_t)r->o->chunk;
	int fd, ret = 0;

	bp_begin(r, &bp, BON_READ);
	phase_expect(bp.ph, r->size, 0, 0);
	bon_add_reorder(r, bp.ph);
	fd = open_block(r, O_RDONLY);
	if (fd < 0)
		return bp_end(r, &bp, BON_READ,
			      bp_fail(&bp, "open", r->path), -1);
	while (!phase_stop_requested()) {
		uint64_t t = now_ns(), lat;
		ssize_t n = read_full(fd, r->buf, chunk);

		if (n < 0)
			ret = bp_fail(&bp, "read", r->path);
		if (n <= 0)
			break;
		/* the read's latency, not the check's */
		lat = now_ns() - t;
		ret = bp_verify(r, bp.ph, r->vname, r->vid, bp.bytes, r->buf,
				(size_t)n);
		if (ret)
			break;
		bp_block_done(&bp, lat, (uint64_t)n);
	}
	close(fd);
	return bp_end(r, &bp, BON_READ, ret, -1);
}

/* ---- random seeks ---- */

struct seeker {
	struct bon_run *r;
	const struct bon_ticket *tickets;
	size_t nr_tickets;
	atomic_size_t *next;
	struct lathist lat;
	uint64_t start_ns, end_ns, ops, bytes;
	int err;            /* errno of the first failure, 0 if none */
	const char *what;
	bool bad;           /* --verify found a block that differs */
	uint64_t bad_off;   /* ... read at this offset, */
	char *bad_buf;      /* ... holding this (chunk bytes) */
};

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	size_t chunk = (size_t)s->r->o->chunk;
	char *buf = aligned_alloc(DIRECT_ALIGN, chunk);
	int fd;

	if (!buf)
		BUG("out of memory");
	memset(buf, 0, chunk);
	s->start_ns = realtime_ns();
	fd = open_block(s->r, O_RDWR);
	if (fd < 0) {
		s->err = errno;
		s->what = "open";
	}
	while (fd >= 0 && !s->err && !phase_stop_requested()) {
		size_t i = atomic_fetch_add(s->next, 1);
		const struct bon_ticket *tk;
		off_t off;
		uint64_t t;

		if (i >= s->nr_tickets)
			break;
		tk = &s->tickets[i];
		off = (off_t)(tk->block * chunk);
		t = now_ns();
		if (lseek(fd, off, SEEK_SET) < 0) {
			s->err = errno;
			s->what = "seek in";
		} else if (read_full(fd, buf, chunk) != (ssize_t)chunk) {
			s->err = errno ? errno : EIO;
			s->what = "read";
		} else if (s->r->verify &&
			   !verify_check(s->r->ctx->seed, s->r->vid,
					 (uint64_t)off, buf, chunk,
					 &(struct verify_bad){ 0 })) {
			/* the main thread reports it, with phase_fail */
			s->bad = true;
			s->bad_off = (uint64_t)off;
			s->bad_buf = buf;
			buf = NULL;
			break;
		} else if (tk->update) {
			/* --verify writes the pattern back unchanged */
			if (!s->r->verify)
				buf[i % chunk]++;
			if (lseek(fd, off, SEEK_SET) < 0 ||
			    write_full(fd, buf, chunk)) {
				s->err = errno;
				s->what = "write";
			}
			s->bytes += chunk;
		}
		lathist_add(&s->lat, now_ns() - t);
		s->bytes += chunk;
		s->ops++;
	}
	if (fd >= 0)
		close(fd);
	s->end_ns = realtime_ns();
	free(buf);
	return NULL;
}

int bon_test_seeks(struct bon_run *r)
{
	size_t n = (size_t)r->o->seeks, nt = (size_t)r->o->seekers;
	struct bon_ticket *tk = xcalloc(n, sizeof(*tk));
	struct seeker *s = xcalloc(nt, sizeof(*s));
	pthread_t *th = xcalloc(nt, sizeof(*th));
	atomic_size_t next = 0;
	uint64_t first = UINT64_MAX, last = 0;
	struct bon_phase bp;
	size_t started = 0;
	double rate;
	int ret = 0;

	bon_seek_tickets(r->seed, r->size / r->o->chunk, n, tk);
	bp_begin(r, &bp, BON_SEEKS);
	for (size_t i = 0; i < nt; i++) {
		s[i] = (struct seeker){ .r = r, .tickets = tk,
					.nr_tickets = n, .next = &next };
		lathist_init(&s[i].lat);
		if (pthread_create(&th[i], NULL, seeker_main, &s[i])) {
			errno = EAGAIN;
			ret = error_errno("cannot start seeker thread");
			phase_fail(bp.ph, "cannot start seeker thread");
			atomic_store(&next, n);
			break;
		}
		started++;
	}
	for (size_t i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		if (s[i].err && !ret) {
			errno = s[i].err;
			ret = bp_fail(&bp, s[i].what, r->path);
		}
		if (s[i].bad && !ret)
			ret = bp_verify_fail(r, bp.ph, r->vname, r->vid,
					     s[i].bad_off, s[i].bad_buf,
					     (size_t)r->o->chunk);
		free(s[i].bad_buf);
		if (s[i].start_ns < first)
			first = s[i].start_ns;
		if (s[i].end_ns > last)
			last = s[i].end_ns;
		phase_worker(bp.ph, (int)i, s[i].start_ns, s[i].end_ns,
			     s[i].bytes, 0, s[i].ops);
		lathist_merge(&bp.lat, &s[i].lat);
		bp.ops += s[i].ops;
		bp.bytes += s[i].bytes;
	}
	/* bonnie++: seeks / (last seeker's stop - first seeker's start) */
	rate = last > first ? (double)bp.ops / ((double)(last - first) / 1e9)
			    : 0;
	free(tk);
	free(s);
	free(th);
	return bp_end(r, &bp, BON_SEEKS, ret, rate);
}
