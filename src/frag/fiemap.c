/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fiemap.c - the FS_IOC_FIEMAP loop.  The kernel returns at most
 * fm_extent_count extents per call; we restart after the last one
 * returned until an extent carries FIEMAP_EXTENT_LAST (or none come
 * back), exactly as filefrag does, so run counts agree with it.
 */
#include <errno.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "frag/fiemap.h"
#include "util/util.h"

void fiemap_buf_init(struct fiemap_buf *b, unsigned count)
{
	if (!count)
		count = FIEMAP_DEFAULT_BATCH;
	b->count = count;
	b->fm = xcalloc(1, sizeof(*b->fm) +
			       count * sizeof(struct fiemap_extent));
}

void fiemap_buf_release(struct fiemap_buf *b)
{
	free(b->fm);
	b->fm = NULL;
}

int fiemap_scan(int fd, bool sync, struct fiemap_buf *b, fiemap_fn fn,
		void *arg)
{
	struct fiemap *fm = b->fm;
	uint64_t start = 0;
	bool first = true;

	for (;;) {
		const struct fiemap_extent *last;
		uint64_t next;

		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = ~0ULL - start;
		/* Writeback once is enough; later calls see its result. */
		fm->fm_flags = sync && first ? FIEMAP_FLAG_SYNC : 0;
		fm->fm_extent_count = b->count;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0)
			return errno == ENOTTY ? -EOPNOTSUPP : -errno;
		first = false;
		if (!fm->fm_mapped_extents)
			return 0;
		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *x = &fm->fm_extents[i];
			struct frag_extent e = {
				.logical = x->fe_logical,
				.physical = x->fe_physical,
				.length = x->fe_length,
				.flags = x->fe_flags,
			};

			fn(arg, &e);
		}
		last = &fm->fm_extents[fm->fm_mapped_extents - 1];
		if (last->fe_flags & FIEMAP_EXTENT_LAST)
			return 0;
		next = last->fe_logical + last->fe_length;
		/* A map that does not advance would loop forever. */
		if (next <= start)
			return 0;
		start = next;
	}
}
