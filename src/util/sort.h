/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sort.h - a stable sort.  qsort(3) promises no order for equal keys, and
 * the orders fslab replays (a tree's walk order broken by inode or block)
 * must come out the same on every libc.
 */
#ifndef FSLAB_SORT_H
#define FSLAB_SORT_H

#include <stddef.h>

/* Sort n elements of size bytes at base by cmp(a, b, arg); stable. */
void stable_sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *a, const void *b, void *arg),
		 void *arg);

#endif
