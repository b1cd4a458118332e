/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * order.h - the order in which one repetition visits the targets.
 *
 * Whatever the first position of a repetition costs or gains (the
 * previous target's writeback still draining, a warm or throttled CPU, a
 * neighbour's load) must not land on the same target every time, or no
 * number of repetitions removes the bias.  The balanced order is a
 * Williams design (Williams 1949): a Latin square whose rows are the
 * repetitions, so over one cycle every target runs in every position
 * equally often AND follows every other target equally often (first-order
 * carry-over balanced too).  A cycle is n repetitions for an even number
 * of targets, 2n for an odd one (the square and its mirror).  The seed
 * relabels the targets (a seeded permutation), which keeps the balance
 * and makes the order reproducible from the run's --seed.  A fully random
 * permutation per repetition would balance only on average: with the
 * usual 3-5 repetitions one target would often lead most of them.
 * ORDER_FIXED is the command-line order every time (--order fixed).
 * Pure functions.
 */
#ifndef FSLAB_ORDER_H
#define FSLAB_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/result.h"

enum target_order {
	ORDER_BALANCED = 0,
	ORDER_FIXED,
};

/* "balanced" or "fixed"; order_parse: 0, or -1 for another word. */
const char *order_name(enum target_order o);
int order_parse(const char *s, enum target_order *o);

/* Repetitions after which the balanced order repeats itself. */
size_t order_cycle(size_t n);

/* out[pos] = the target index (0..n-1) that runs pos-th in repetition
 * rep (from 0). */
void order_for_rep(enum target_order o, size_t n, uint64_t seed, size_t rep,
		   size_t *out);

/* The position (from 0) of target in repetition rep's order. */
size_t order_pos(enum target_order o, size_t n, uint64_t seed, size_t rep,
		 size_t target);

/* "target order: balanced; rep 0: A B; rep 1: B A" from what a run
 * stored; nothing for runs older than the order (no mode stored). */
void order_print_run(FILE *out, const struct run_rec *r);

#endif
