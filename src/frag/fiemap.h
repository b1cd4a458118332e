/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fiemap.h - read a file's extent map with FS_IOC_FIEMAP, a batch of
 * extents per ioctl, looping until the kernel marks the last one, and
 * hand each extent to a callback so a file with a million extents costs
 * no more memory than one with two.
 */
#ifndef FSLAB_FIEMAP_H
#define FSLAB_FIEMAP_H

#include <stdbool.h>
#include <stdint.h>

/* Extents asked for per ioctl; small so the multi-call path is common. */
#define FIEMAP_DEFAULT_BATCH 32

/* One extent as FIEMAP reports it (bytes; flags are FIEMAP_EXTENT_*). */
struct frag_extent {
	uint64_t logical, physical, length;
	uint32_t flags;
};

struct fiemap_buf {
	struct fiemap *fm;
	unsigned count;
};

typedef void (*fiemap_fn)(void *arg, const struct frag_extent *e);

void fiemap_buf_init(struct fiemap_buf *b, unsigned count);
void fiemap_buf_release(struct fiemap_buf *b);

/*
 * Call fn for every extent of the open file fd, in logical order.  With
 * sync, FIEMAP_FLAG_SYNC makes the kernel write back first so delayed
 * allocations have their final place.  Returns 0 or -errno (no message:
 * the caller decides whether EOPNOTSUPP deserves one per filesystem).
 */
int fiemap_scan(int fd, bool sync, struct fiemap_buf *b, fiemap_fn fn,
		void *arg);

#endif
