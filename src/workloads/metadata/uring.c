/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uring.c - sync=uring, the fsyncs of a batch of new files submitted
 * together through io_uring (IORING_OP_FSYNC) instead of one fsync(2)
 * per file, as Chinner's aio_fsync measured with fs_mark: the kernel
 * runs them concurrently, so one journal commit or log force can cover
 * many files.  The worker writes each file, holds it here, and when the
 * batch is full (or its files are done) flushes it: submit every fsync,
 * wait for every completion, close.  No fallback to fsync(2): a run
 * that asks for io_uring and does not get it measures something else.
 */
#include "workloads/metadata/internal.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

/* Besides the batches: the store, the co-metric readers, stdio. */
#define MD_FDS_SLACK 64

struct md_ring {
	struct io_uring ring;
	unsigned n, cap;
	struct md_held {
		int fd;
		uint64_t t0;    /* now_ns() before the file's open */
		uint64_t key;   /* the caller's number of the file */
	} *held;
};

uint64_t md_uring_fds(long long threads, long long batch)
{
	/* each thread's batch and its top directory */
	return (uint64_t)threads * ((uint64_t)batch + 1) + MD_FDS_SLACK;
}

void md_uring_cause(char *buf, size_t len, int err, int disabled)
{
	switch (err) {
	case ENOSYS:
		snprintf(buf, len, "this kernel has no io_uring (built "
			 "without CONFIG_IO_URING, or a seccomp filter hides "
			 "io_uring_setup)");
		break;
	case EPERM:
		if (disabled == 2)
			snprintf(buf, len, "io_uring is disabled by sysctl "
				 "kernel.io_uring_disabled=2");
		else if (disabled == 1)
			snprintf(buf, len, "sysctl kernel.io_uring_disabled=1 "
				 "allows io_uring only to CAP_SYS_ADMIN and "
				 "the group kernel.io_uring_group");
		else
			snprintf(buf, len, "io_uring_setup is not permitted "
				 "(a seccomp filter or security module?)");
		break;
	case ENOMEM:
		snprintf(buf, len, "no memory for the ring (the locked-memory "
			 "limit, ulimit -l, on kernels before 5.12)");
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, len, "too many open files for the ring's own");
		break;
	default:
		snprintf(buf, len, "%s", strerror(err));
		break;
	}
}

/* /proc/sys/kernel/io_uring_disabled, or -1 (kernels before 6.6). */
static int uring_disabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int md_ring_open(struct md_ring **out, unsigned batch)
{
	struct md_ring *q = xcalloc(1, sizeof(*q));
	int rc = io_uring_queue_init(batch, &q->ring, 0);

	*out = NULL;
	if (rc < 0) {
		char why[200];

		md_uring_cause(why, sizeof(why), -rc, uring_disabled());
		free(q);
		return error("metadata: sync=uring: io_uring_queue_init(%u) "
			     "failed: %s: %s", batch, strerror(-rc), why);
	}
	q->cap = batch;
	q->held = xcalloc(batch, sizeof(*q->held));
	*out = q;
	return 0;
}

void md_ring_close(struct md_ring *q)
{
	if (!q)
		return;
	/* only after a failure are files still held: the run is failed */
	for (unsigned i = 0; i < q->n; i++)
		close(q->held[i].fd);
	io_uring_queue_exit(&q->ring);
	free(q->held);
	free(q);
}

bool md_ring_hold(struct md_ring *q, int fd, uint64_t t0, uint64_t key)
{
	if (q->n >= q->cap)
		BUG("md_ring_hold on a full batch");
	q->held[q->n++] = (struct md_held){ fd, t0, key };
	return q->n == q->cap;
}

unsigned md_ring_held(const struct md_ring *q)
{
	return q->n;
}

/* The first failure of a flush: its errno, what, and which file. */
static void note(struct md_ring_err *e, int err, const char *what,
		 uint64_t key)
{
	if (e->err)
		return;
	e->err = err;
	e->what = what;
	e->key = key;
}

/* Submit every held file's fsync; how many went in, or -errno. */
static int submit_all(struct md_ring *q)
{
	for (unsigned i = 0; i < q->n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);

		/* the ring has cap entries and is empty between flushes */
		if (!sqe)
			BUG("no sqe for fsync %u of %u", i, q->n);
		io_uring_prep_fsync(sqe, q->held[i].fd, 0);
		io_uring_sqe_set_data64(sqe, i);
	}
	for (;;) {
		int rc = io_uring_submit(&q->ring);

		if (rc != -EINTR)
			return rc;
	}
}

int md_ring_flush(struct md_ring *q, struct lathist *lat,
		  struct md_ring_err *e)
{
	int sub;

	memset(e, 0, sizeof(*e));
	if (!q->n)
		return 0;
	sub = submit_all(q);
	if (sub < 0 || (unsigned)sub < q->n)
		note(e, sub < 0 ? -sub : EIO, "submit the fsyncs of",
		     q->held[sub < 0 ? 0 : sub].key);
	for (int got = 0; got < sub; got++) {
		struct io_uring_cqe *cqe;
		int rc = io_uring_wait_cqe(&q->ring, &cqe);
		uint64_t i;

		if (rc == -EINTR) {
			got--;
			continue;
		}
		if (rc < 0) {
			/* the ring is broken: the run fails, the fds close */
			note(e, -rc, "wait for the fsync of", q->held[0].key);
			return -1;
		}
		i = io_uring_cqe_get_data64(cqe);
		if (i >= q->n)
			BUG("cqe for file %llu of %u",
			    (unsigned long long)i, q->n);
		if (cqe->res < 0)
			note(e, -cqe->res, "fsync", q->held[i].key);
		else
			lathist_add(lat, now_ns() - q->held[i].t0);
		io_uring_cqe_seen(&q->ring, cqe);
	}
	for (unsigned i = 0; i < q->n; i++)
		if (close(q->held[i].fd))
			note(e, errno, "close", q->held[i].key);
	q->n = 0;
	return e->err ? -1 : 0;
}
