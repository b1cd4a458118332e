/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openq.c - batched openat/close through io_uring (see openq.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "frag/openq.h"

void openq_init(struct openq *q, bool use_ring)
{
	memset(q, 0, sizeof(*q));
	/* Room for a batch of opens plus the previous batch's closes. */
	if (use_ring && io_uring_queue_init(2 * OPENQ_BATCH, &q->ring, 0) == 0)
		q->ring_ok = q->inited = true;
}

void openq_release(struct openq *q)
{
	if (!q->inited)
		return;
	openq_flush(q);
	io_uring_queue_exit(&q->ring);
	q->ring_ok = q->inited = false;
}

/* Reap want completions; user_data is 1 + the index into fds for an
 * open, 0 for a close. */
static void reap(struct openq *q, unsigned want, int *fds)
{
	while (want) {
		struct io_uring_cqe *cqe;
		int rc = io_uring_wait_cqe(&q->ring, &cqe);
		uint64_t d;

		if (rc == -EINTR)
			continue;
		if (rc < 0)
			break;
		d = io_uring_cqe_get_data64(cqe);
		if (d && fds)
			fds[d - 1] = cqe->res;
		else
			q->pending--;
		io_uring_cqe_seen(&q->ring, cqe);
		want--;
	}
}

void openq_open(struct openq *q, int dfd, const char *const *names,
		size_t n, int flags, int *fds)
{
	size_t queued = 0;

	if (q->ring_ok) {
		for (; queued < n; queued++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);

			if (!sqe)
				break;
			io_uring_prep_openat(sqe, dfd, names[queued], flags, 0);
			io_uring_sqe_set_data64(sqe, queued + 1);
			fds[queued] = -EIO;
		}
		/* One enter submits the opens and the queued closes and
		 * waits for all of them. */
		if (io_uring_submit_and_wait(&q->ring, (unsigned)queued +
						       q->pending) >= 0) {
			reap(q, (unsigned)queued + q->pending, fds);
		} else {
			/*
			 * Cannot happen with a ring we never overfill; if it
			 * does, stop using the ring (at worst the queued
			 * closes leak, a bounded number of fds).
			 */
			q->ring_ok = false;
			queued = 0;
		}
	}
	for (size_t i = queued; i < n; i++) {
		fds[i] = openat(dfd, names[i], flags);
		if (fds[i] < 0)
			fds[i] = -errno;
	}
}

void openq_close(struct openq *q, int fd)
{
	struct io_uring_sqe *sqe;

	if (q->ring_ok && q->pending < OPENQ_BATCH) {
		sqe = io_uring_get_sqe(&q->ring);
		if (sqe) {
			io_uring_prep_close(sqe, fd);
			io_uring_sqe_set_data64(sqe, 0);
			q->pending++;
			return;
		}
	}
	close(fd);
}

void openq_flush(struct openq *q)
{
	if (!q->ring_ok || !q->pending)
		return;
	if (io_uring_submit_and_wait(&q->ring, q->pending) >= 0)
		reap(q, q->pending, NULL);
	else
		q->ring_ok = false;
}
