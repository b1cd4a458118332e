/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stall.c - stalls between a phase's completions (see stall.h).
 */
#include "phase/stall.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void stallwatch_init(struct stallwatch *sw, uint64_t t0_ns,
		     uint64_t threshold_ns)
{
	memset(sw, 0, sizeof(*sw));
	atomic_init(&sw->last_ns, 0);
	atomic_init(&sw->nr_done, 0);
	sw->t0_ns = t0_ns;
	sw->threshold_ns = threshold_ns;
	sw->series_ns = STALL_SERIES_MS * 1000000ULL;
	/* calloc: the pages of intervals never reached are never touched */
	sw->series = xcalloc(STALL_SERIES_MAX, sizeof(*sw->series));
	pthread_mutex_init(&sw->lock, NULL);
}

void stallwatch_done(struct stallwatch *sw, uint64_t now_ns)
{
	uint64_t prev, slot;
	struct stall *s;

	atomic_fetch_add_explicit(&sw->nr_done, 1, memory_order_relaxed);
	slot = now_ns > sw->t0_ns ? (now_ns - sw->t0_ns) / sw->series_ns : 0;
	if (slot < STALL_SERIES_MAX)
		atomic_fetch_add_explicit(&sw->series[slot], 1,
					  memory_order_relaxed);
	/* The latest time only moves forward: two threads may report out
	 * of order by a few ns, and the one whose time is already passed
	 * ended no gap. */
	prev = atomic_load_explicit(&sw->last_ns, memory_order_relaxed);
	do {
		if (now_ns <= prev)
			return;
	} while (!atomic_compare_exchange_weak_explicit(
		&sw->last_ns, &prev, now_ns, memory_order_relaxed,
		memory_order_relaxed));
	if (!prev || now_ns - prev < sw->threshold_ns)
		return;
	pthread_mutex_lock(&sw->lock);
	sw->nr_all++;
	sw->total_ns += now_ns - prev;
	if (now_ns - prev > sw->max_ns)
		sw->max_ns = now_ns - prev;
	if (sw->nr < STALL_LIST_MAX) {
		ALLOC_GROW(sw->v, sw->nr + 1, sw->alloc);
		s = &sw->v[sw->nr++];
		s->start_ns = prev > sw->t0_ns ? prev - sw->t0_ns : 0;
		s->len_ns = now_ns - prev;
	}
	pthread_mutex_unlock(&sw->lock);
}

uint64_t stallwatch_max_ns(const struct stallwatch *sw)
{
	return sw->max_ns;
}

uint64_t stallwatch_total_ns(const struct stallwatch *sw)
{
	return sw->total_ns;
}

size_t stallwatch_series_len(const struct stallwatch *sw)
{
	uint64_t last = atomic_load(&sw->last_ns), slot;

	if (!last)
		return 0;
	slot = last > sw->t0_ns ? (last - sw->t0_ns) / sw->series_ns : 0;
	return slot < STALL_SERIES_MAX ? (size_t)slot + 1 : STALL_SERIES_MAX;
}

void stallwatch_release(struct stallwatch *sw)
{
	free(sw->v);
	sw->v = NULL;
	sw->nr = sw->alloc = 0;
	free((void *)sw->series);
	sw->series = NULL;
	pthread_mutex_destroy(&sw->lock);
}
