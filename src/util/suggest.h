/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * suggest.h - "did you mean": the one rule for every unknown name fslab
 * meets (commands, options, workloads, target keys, profile keys).
 *
 *	struct suggest s;
 *
 *	suggest_init(&s, typed);
 *	for (each known name)
 *		suggest_add(&s, name);
 *	if (suggest_result(&s)) ... "did you mean '%s'?"
 *
 * The closest candidate by edit distance (str_distance) wins, the first
 * on a tie; it is offered only within 1 + a third of the typed word's
 * length: further away it is a different word, not a typo.
 */
#ifndef FSLAB_UTIL_SUGGEST_H
#define FSLAB_UTIL_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

struct suggest {
	const char *key;   /* what was typed */
	const char *best;  /* closest candidate so far (not copied) */
	size_t best_d;
};

void suggest_init(struct suggest *s, const char *key);
/* Consider cand; true when it is the closest so far (copy it if it is
 * about to go away). */
bool suggest_add(struct suggest *s, const char *cand);
/* The candidate to offer, or NULL when none is close enough. */
const char *suggest_result(const struct suggest *s);
/* Levenshtein distance: the edits that turn a into b. */
size_t str_distance(const char *a, const char *b);

#endif
