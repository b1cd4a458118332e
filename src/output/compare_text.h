/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_text.h - `fslab compare` as text: per comparison what differs,
 * the workload's classic side-by-side layout when it has one, then a
 * compact table of the key metrics (mean and 95 % interval with its
 * unit, change, verdict; 80 columns) or, with --long, every statistic
 * per metric; then the method and the result line.
 *
 * The output is a list of sections (compare_text.c: session_sections[]
 * and table_sections[]): a new part of the page is one function added
 * to a list.
 */
#ifndef FSLAB_OUTPUT_COMPARE_TEXT_H
#define FSLAB_OUTPUT_COMPARE_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/compare.h"
#include "compare/load.h"
#include "compare/session.h"

struct check_report;
struct explain;

struct compare_text_opts {
	bool longf;                      /* --long */
	/* one per loaded run (in->nr), the setup check's line; may be NULL */
	const struct check_report *reports;
	/* compare --explain's leads; NULL: none */
	const struct explain *explain;
};

void compare_text_print(FILE *out, const struct cmp_session *s,
			const struct cmp_input *in,
			const struct compare_opts *o,
			const struct compare_text_opts *to);

/* Why nothing could be compared (each argument's target names) and how
 * to pair targets whose names differ (--pair). */
void compare_text_nothing(FILE *out, const struct cmp_input *in,
			  const struct cmp_session *s);

#endif
