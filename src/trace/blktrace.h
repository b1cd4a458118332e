/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blktrace.h - block-I/O capture through the kernel's block tracepoints
 * (block_rq_issue, block_rq_complete; with TRACE_CAP_QUEUE also
 * block_bio_queue, block_rq_insert and the bio merges) in a private
 * tracefs instance,
 * filtered to one device and read in fslab's own process with
 * libtracefs/libtraceevent; and the phase hook behind `fslab run --trace`.
 *
 * A capture journals its instance name in the state journal before it
 * creates it, and mounts tracefs only when nobody has (journaled too, and
 * unmounted again), so `fslab cleanup` can undo a killed capture and a
 * finished one leaves tracefs exactly as it found it.
 */
#ifndef FSLAB_TRACE_BLKTRACE_H
#define FSLAB_TRACE_BLKTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "trace/analyze.h"

struct trace_capture;

/*
 * A queue-side event, kept only for the blktrace stream: btt measures
 * from the queueing of a bio (Q), through its insertion into the
 * scheduler (I) or its merge into a request (M back, F front), to the
 * issue (D) and completion (C); without Q events its tables stay empty.
 */
struct trace_qev {
	uint64_t ts_ns;
	uint64_t sector;
	uint32_t nr_sector;
	uint32_t flags;        /* enum trace_rq_flags */
	char action;           /* 'Q', 'I', 'M' or 'F' */
};

enum trace_cap_flags {
	TRACE_CAP_QUEUE = 1 << 0,  /* also Q, I, M, F (for trace_write_blk) */
};

/* What a finished capture saw; rq in issue order, times CLOCK_MONOTONIC. */
struct trace_result {
	struct trace_rq *rq;
	size_t nr;
	struct trace_qev *qev; /* with TRACE_CAP_QUEUE, in capture order */
	size_t nr_qev;
	uint64_t lost;         /* events the ring buffer overwrote/dropped */
	uint64_t start_ns, end_ns;
	unsigned dev;          /* kernel dev_t: (major << 20) | minor */
};

/*
 * Start tracing block device `device` (a /dev node); flags is a mask of
 * enum trace_cap_flags.  Needs root.  Returns 0, or -1 with the reason
 * printed (and nothing left behind).
 */
int trace_capture_start(const char *device, unsigned flags,
			struct trace_capture **out);
/*
 * Stop, restore and remove everything, and hand over the requests
 * (res may be NULL to discard).  0, or -1 when the teardown failed
 * (printed; the journal keeps what `fslab cleanup` must finish).
 */
int trace_capture_stop(struct trace_capture *tc, struct trace_result *res);
void trace_result_release(struct trace_result *res);
/*
 * Write res as a blktrace binary stream (struct blk_io_trace records of
 * blktrace_api.h, version 7: an issue "D" and a completion "C" per
 * request and the Q/I/M/F events of res->qev, in time order), so
 * `blkparse -i - <FILE` and `btt -i FILE` read it.  0 or -1.
 */
int trace_write_blk(const char *path, const struct trace_result *res);
/* Stop every capture still running (error paths, signals).  0 or -1. */
int trace_teardown(void);

/* Register the undo handlers of the two journal entries below (state.h). */
void trace_register_undo(void);

#endif
