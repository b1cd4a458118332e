/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blktrace.h - block-I/O capture through the kernel's block tracepoints
 * (block_rq_issue, block_rq_complete) in a private tracefs instance,
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

/* What a finished capture saw; rq in issue order, times CLOCK_MONOTONIC. */
struct trace_result {
	struct trace_rq *rq;
	size_t nr;
	uint64_t lost;         /* events the ring buffer overwrote/dropped */
	uint64_t start_ns, end_ns;
	unsigned dev;          /* kernel dev_t: (major << 20) | minor */
};

/*
 * Start tracing block device `device` (a /dev node).  Needs root.
 * Returns 0, or -1 with the reason printed (and nothing left behind).
 */
int trace_capture_start(const char *device, struct trace_capture **out);
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
 * request, in time order), so `blkparse -i - <FILE` and `btt -i FILE`
 * read it.  0 or -1.
 */
int trace_write_blk(const char *path, const struct trace_result *res);
/* Stop every capture still running (error paths, signals).  0 or -1. */
int trace_teardown(void);

/*
 * `fslab run --trace[=PHASE,...]`: register the phase hook that traces
 * the target's device during the named phases (NULL or "" = all) and
 * stores the figures as trace.* metrics.
 */
void trace_hook_register(const char *phases);

/*
 * The "tracefs-instance" journal entry's replay (state.c): remove it if
 * it exists.  1 when it acted (or would), 0 when nothing was left, -1.
 */
int trace_cleanup_instance(const char *name, int dry_run);
/* The "tracefs-mount" entry: unmount unless in use.  1, 0 or -1 (same). */
int trace_cleanup_mount(const char *dir, int dry_run);

#endif
