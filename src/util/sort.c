/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sort.c - a top-down merge sort (see sort.h): O(n log n), one scratch
 * array, and a later element never passes an equal earlier one.
 */
#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/util.h"

struct msort {
	size_t size;
	int (*cmp)(const void *, const void *, void *);
	void *arg;
	char *tmp;
};

static void msort(const struct msort *s, char *v, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0, sz = s->size;

	if (n < 2)
		return;
	msort(s, v, h);
	msort(s, v + h * sz, n - h);
	while (i < h && j < n) {
		/* only a strictly smaller right element goes first */
		size_t from = s->cmp(v + j * sz, v + i * sz, s->arg) < 0 ?
			      j++ : i++;

		memcpy(s->tmp + k++ * sz, v + from * sz, sz);
	}
	memcpy(s->tmp + k * sz, v + i * sz, (h - i) * sz);
	k += h - i;
	memcpy(s->tmp + k * sz, v + j * sz, (n - j) * sz);
	memcpy(v, s->tmp, n * sz);
}

void stable_sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *a, const void *b, void *arg),
		 void *arg)
{
	struct msort s = { size, cmp, arg, NULL };

	if (n < 2 || !size)
		return;
	s.tmp = xmalloc(n * size);
	msort(&s, base, n);
	free(s.tmp);
}
