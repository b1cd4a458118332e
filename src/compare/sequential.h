/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sequential.h - `fslab run --until decided`: the sequential test of
 * stats/sequential.h applied to compare's tables, look after look.
 *
 * The family is what compare's deciding family is: every key metric
 * tested (compare_build's "tested": enough repetitions, long enough, a
 * direction, no failure) against the baseline, over every workload and
 * configuration of the run.  Each is carried across looks by its name
 * (workload, matched name, phase, metric, configuration label), so a
 * decision once made stays made.  Pure: tables in, decisions out.
 */
#ifndef FSLAB_COMPARE_SEQUENTIAL_H
#define FSLAB_COMPARE_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/compare.h"
#include "stats/sequential.h"

#define SEQ_DEFAULT_MAX_REPEAT 15
#define SEQ_DEFAULT_MIN_REPEAT 3

struct cmp_seq_item {
	char *workload, *name, *phase, *metric, *label, *unit;
	enum better better;
	struct seq_cmp c;
	bool seen;               /* in the family at the last look */
};

struct cmp_seq {
	struct seq_design d;
	double min_change_pct, power;
	struct cmp_seq_item *items;
	size_t nr, alloc;
	size_t family;           /* the largest family seen */
	int n;                   /* repetitions at the last look, 0: none */
	size_t open;             /* undecided after the last look */
};

/* 0, or -1 when the repetition bounds make no design. */
int cmp_seq_init(struct cmp_seq *s, int min_n, int max_n,
		 const struct compare_opts *o);
void cmp_seq_release(struct cmp_seq *s);
/* Forget every decision, keep the design (its boundaries are costly). */
void cmp_seq_reset(struct cmp_seq *s);

/*
 * Look at the tables of one comparison (compare_session_build's) after n
 * complete repetitions.  Returns true when every comparison in the
 * family is decided (an empty family after min_n repetitions counts as
 * decided: no repetition can make a too-short phase judgeable).  A
 * comparison compare did not test at this look stays in Holm's family
 * but does not hold the series open.
 */
bool cmp_seq_look(struct cmp_seq *s, const struct cmp_table *tabs,
		  size_t nr, int n);

/* "improvement", "REGRESSION", "equivalent", "undecided", or "no
 * verdict" (not tested at the last look: too short, a failure). */
const char *cmp_seq_item_verdict(const struct cmp_seq_item *it);
/* The largest mdc % over the undecided comparisons; NaN when none. */
double cmp_seq_mdc(const struct cmp_seq *s);

#endif
