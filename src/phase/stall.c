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
	pthread_mutex_init(&sw->lock, NULL);
}

void stallwatch_done(struct stallwatch *sw, uint64_t now_ns)
{
	uint64_t prev;
	struct stall *s;

	atomic_fetch_add_explicit(&sw->nr_done, 1, memory_order_relaxed);
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
	ALLOC_GROW(sw->v, sw->nr + 1, sw->alloc);
	s = &sw->v[sw->nr++];
	s->start_ns = prev > sw->t0_ns ? prev - sw->t0_ns : 0;
	s->len_ns = now_ns - prev;
	pthread_mutex_unlock(&sw->lock);
}

uint64_t stallwatch_max_ns(const struct stallwatch *sw)
{
	uint64_t m = 0;

	for (size_t i = 0; i < sw->nr; i++)
		if (sw->v[i].len_ns > m)
			m = sw->v[i].len_ns;
	return m;
}

uint64_t stallwatch_total_ns(const struct stallwatch *sw)
{
	uint64_t t = 0;

	for (size_t i = 0; i < sw->nr; i++)
		t += sw->v[i].len_ns;
	return t;
}

void stallwatch_release(struct stallwatch *sw)
{
	free(sw->v);
	sw->v = NULL;
	sw->nr = sw->alloc = 0;
	pthread_mutex_destroy(&sw->lock);
}
