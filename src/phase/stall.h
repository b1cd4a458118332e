/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stall.h - stalls of a running phase: an interval of at least a
 * threshold (default 200 ms) in which no operation of the phase
 * completed, between two completions.  A frozen filesystem, a journal
 * that blocks every writer, a device that stops answering: the mean
 * hides them, a maintainer asks for them first.
 *
 * Workers report each completion through phase_progress(); the watch
 * keeps only the time of the latest (one compare-and-swap, any thread),
 * so the gap seen by the completion that ends a stall is exact to the
 * clock, whatever the number of threads.  The time before the first
 * completion and after the last one is not counted: a phase's set-up
 * and its final sync are not stalls of its operations.
 *
 * The watch keeps the first STALL_LIST_MAX stalls (the count, longest
 * and sum are over all) and a series of completions per
 * STALL_SERIES_MS interval from t0, STALL_SERIES_MAX intervals (an
 * hour at 100 ms); a completion costs one relaxed atomic add into its
 * interval's slot, later ones count only in nr_done.  The store keeps
 * both (README "Latency and stalls").
 */
#ifndef FSLAB_STALL_H
#define FSLAB_STALL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define STALL_DEFAULT_MS 200
#define STALL_LIST_MAX 1000
#define STALL_SERIES_MS 100
#define STALL_SERIES_MAX 36000

struct stall {
	uint64_t start_ns;      /* since the watch began */
	uint64_t len_ns;
};

struct stallwatch {
	_Atomic uint64_t last_ns;       /* latest completion; 0: none yet */
	_Atomic uint64_t nr_done;
	uint64_t t0_ns, threshold_ns;
	pthread_mutex_t lock;           /* the list only: taken per stall */
	struct stall *v;                /* the first STALL_LIST_MAX */
	size_t nr, alloc;
	uint64_t nr_all, max_ns, total_ns;      /* over every stall */
	uint64_t series_ns;
	_Atomic uint32_t *series;       /* STALL_SERIES_MAX slots */
};

/* Times are CLOCK_MONOTONIC nanoseconds (now_ns()). */
void stallwatch_init(struct stallwatch *sw, uint64_t t0_ns,
		     uint64_t threshold_ns);
/* One operation completed at now_ns.  Thread-safe. */
void stallwatch_done(struct stallwatch *sw, uint64_t now_ns);
/* The longest and the summed stall, 0 when none. */
uint64_t stallwatch_max_ns(const struct stallwatch *sw);
uint64_t stallwatch_total_ns(const struct stallwatch *sw);
/*
 * The series' length: up to the interval of the latest completion, 0
 * with none.  Read after every worker finished.
 */
size_t stallwatch_series_len(const struct stallwatch *sw);
void stallwatch_release(struct stallwatch *sw);

#endif
