/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tail.h - the latency-distribution section of `fslab compare`
 * (compare/tail.h) as text and as JSON.
 */
#ifndef FSLAB_OUTPUT_TAIL_H
#define FSLAB_OUTPUT_TAIL_H

#include <stdio.h>

#include <jansson.h>

#include "compare/compare.h"

/* Nothing when no phase has histograms on both sides. */
void tail_print_text(FILE *out, const struct cmp_table *t,
		     const struct cmp_group *groups, double alpha);
/* An array, one object per compared group; empty when nothing. */
json_t *tail_json(const struct cmp_table *t, const struct cmp_group *groups,
		  double alpha);

#endif
