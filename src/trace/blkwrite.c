/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkwrite.c - a captured trace as a blktrace binary stream (one
 * per-CPU file's format), so blkparse and btt read what fslab captured.
 * Pure: the records come from trace_capture_stop() (capture.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/blktrace.h"
#include "util/outfile.h"
#include "util/util.h"

/* ---- blktrace's binary format (include/uapi/linux/blktrace_api.h) ---- */

#define BLK_IO_TRACE_MAGIC 0x65617400u
#define BLK_IO_TRACE_VERSION 0x07u
#define BLK_TC_SHIFT 16
#define BLK_TC_ACT(act) ((uint32_t)(act) << BLK_TC_SHIFT)
enum {
	BLK_TC_READ = 1 << 0, BLK_TC_WRITE = 1 << 1, BLK_TC_FLUSH = 1 << 2,
	BLK_TC_SYNC = 1 << 3, BLK_TC_ISSUE = 1 << 6,
	BLK_TC_COMPLETE = 1 << 7, BLK_TC_FS = 1 << 8, BLK_TC_META = 1 << 12,
	BLK_TC_DISCARD = 1 << 13,
};
enum {
	BLK_TC_QUEUE = 1 << 4, BLK_TC_REQUEUE = 1 << 5,
};
enum {
	BLK_TA_QUEUE_ = 1, BLK_TA_BACKMERGE_ = 2, BLK_TA_FRONTMERGE_ = 3,
	BLK_TA_INSERT_ = 5, BLK_TA_ISSUE_ = 7, BLK_TA_COMPLETE_ = 8,
};

struct blk_io_trace {
	uint32_t magic;     /* MAGIC | version */
	uint32_t sequence;
	uint64_t time;      /* ns */
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t pid;
	uint32_t device;
	uint32_t cpu;
	uint16_t error;
	uint16_t pdu_len;
};
_Static_assert(sizeof(struct blk_io_trace) == 48, "blk_io_trace layout");

/* One output record: rq (kind 'D' or 'C') or qev (the others) [idx]. */
struct blk_rec {
	uint64_t t;
	size_t idx;
	int order;             /* Q, M/F, I, D, C at one instant */
	char kind;
};

static int cmp_blk_rec(const void *a, const void *b)
{
	const struct blk_rec *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->order != y->order)
		return x->order - y->order;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int blk_order(char kind)
{
	switch (kind) {
	case 'Q': return 0;
	case 'M': case 'F': return 1;
	case 'I': return 2;
	case 'D': return 3;
	default: return 4;
	}
}

static uint32_t blk_action(char kind, uint32_t flags)
{
	uint32_t cat = BLK_TC_FS;

	cat |= flags & TRQ_WRITE ? BLK_TC_WRITE : BLK_TC_READ;
	if (flags & TRQ_FLUSH)
		cat |= BLK_TC_FLUSH;
	if (flags & TRQ_SYNC)
		cat |= BLK_TC_SYNC;
	if (flags & TRQ_META)
		cat |= BLK_TC_META;
	if (flags & TRQ_DISCARD)
		cat |= BLK_TC_DISCARD;
	switch (kind) {
	case 'Q':
		return BLK_TA_QUEUE_ | BLK_TC_ACT(cat | BLK_TC_QUEUE);
	case 'M':
		return BLK_TA_BACKMERGE_ | BLK_TC_ACT(cat | BLK_TC_QUEUE);
	case 'F':
		return BLK_TA_FRONTMERGE_ | BLK_TC_ACT(cat | BLK_TC_QUEUE);
	case 'I':
		return BLK_TA_INSERT_ | BLK_TC_ACT(cat | BLK_TC_QUEUE);
	case 'D':
		return BLK_TA_ISSUE_ | BLK_TC_ACT(cat | BLK_TC_ISSUE);
	default:
		return BLK_TA_COMPLETE_ | BLK_TC_ACT(cat | BLK_TC_COMPLETE);
	}
}

int trace_write_blk(const char *path, const struct trace_result *res)
{
	struct blk_rec *r = xcalloc(2 * res->nr + res->nr_qev + 1, sizeof(*r));
	size_t n = 0, i;
	uint64_t t0;
	struct outfile of;
	FILE *f = outfile_open(&of, path);
	int rc;

	if (!f) {
		free(r);
		return -1;
	}
	for (i = 0; i < res->nr; i++) {
		r[n++] = (struct blk_rec){ res->rq[i].issue_ns, i,
					   blk_order('D'), 'D' };
		if (res->rq[i].complete_ns)
			r[n++] = (struct blk_rec){ res->rq[i].complete_ns, i,
						   blk_order('C'), 'C' };
	}
	for (i = 0; i < res->nr_qev; i++)
		r[n++] = (struct blk_rec){ res->qev[i].ts_ns, i,
					   blk_order(res->qev[i].action),
					   res->qev[i].action };
	qsort(r, n, sizeof(*r), cmp_blk_rec);
	t0 = n && r[0].t < res->start_ns ? r[0].t : res->start_ns;
	for (i = 0; i < n; i++) {
		struct blk_io_trace t;
		uint64_t sector;
		uint32_t nr_sector, flags;

		if (r[i].kind == 'D' || r[i].kind == 'C') {
			sector = res->rq[r[i].idx].sector;
			nr_sector = res->rq[r[i].idx].nr_sector;
			flags = res->rq[r[i].idx].flags;
		} else {
			sector = res->qev[r[i].idx].sector;
			nr_sector = res->qev[r[i].idx].nr_sector;
			flags = res->qev[r[i].idx].flags;
		}
		memset(&t, 0, sizeof(t));
		t.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION;
		t.sequence = (uint32_t)i + 1;
		t.time = r[i].t - t0;
		t.sector = sector;
		t.bytes = nr_sector * 512;
		t.action = blk_action(r[i].kind, flags);
		t.device = res->dev;
		if (fwrite(&t, sizeof(t), 1, f) != 1)
			break;
	}
	if (i < n) {
		error_errno("cannot write '%s'", path);
		outfile_abort(&of);
		rc = -1;
	} else {
		rc = outfile_commit(&of);
	}
	free(r);
	return rc;
}
