/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * openq.h - open and close many files of one directory with few system
 * calls.  On this kind of machine (a paravirtualised VM) the entry and
 * exit of a system call cost about as much as the work of the small
 * ones, and a survey does open+fstat+FIEMAP+close per file.  FIEMAP and
 * fstat have no cheap io_uring form (statx is always punted to a kernel
 * worker), but openat and close do: a batch of opens goes in one
 * io_uring_enter, and the closes of a batch ride along with the next
 * one.  When io_uring is not there (old kernel, seccomp, sysctl
 * kernel.io_uring_disabled) the same calls fall back to plain openat
 * and close, so callers never care which one they got.
 */
#ifndef FSLAB_FRAG_OPENQ_H
#define FSLAB_FRAG_OPENQ_H

#include <liburing.h>
#include <stdbool.h>
#include <stddef.h>

/* Opens per batch: enough to amortise io_uring_enter, few enough
 * fds (twice this per worker with the pending closes). */
#define OPENQ_BATCH 64

struct openq {
	bool ring_ok;           /* the calls go through the ring */
	bool inited;            /* the ring exists (to tear down) */
	struct io_uring ring;
	unsigned pending;       /* closes queued, not yet reaped */
};

/* With use_ring false, or when io_uring cannot be set up, every call
 * is a plain system call.  Never fails. */
void openq_init(struct openq *q, bool use_ring);
void openq_release(struct openq *q);
static inline bool openq_uses_ring(const struct openq *q)
{
	return q->ring_ok;
}

/*
 * Open names[0..n) relative to dfd (n <= OPENQ_BATCH) with flags; fds[i]
 * is the descriptor or -errno, exactly what openat would have given.
 * Returns when every open is done, so dfd may be closed afterwards.
 */
void openq_open(struct openq *q, int dfd, const char *const *names,
		size_t n, int flags, int *fds);
/* Close fd, maybe later (with the next openq_open or openq_flush). */
void openq_close(struct openq *q, int fd);
/* Wait for every queued close. */
void openq_flush(struct openq *q);

#endif
