/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explain.h - `compare --explain` rendered: text beside the comparison,
 * a JSON value for the comparison's JSON document, CSV rows.
 */
#ifndef FSLAB_OUTPUT_EXPLAIN_H
#define FSLAB_OUTPUT_EXPLAIN_H

#include <jansson.h>
#include <stdio.h>

#include "compare/compare.h"
#include "compare/explain.h"

/* The leads of every key metric that changed significantly. */
void explain_print_text(FILE *out, const struct explain *e,
			const struct cmp_table *tabs);
/* Every configuration and phase explained, changed or not (new ref). */
json_t *explain_json(const struct explain *e, const struct cmp_table *tabs);
/* The HTML report's section for table table_idx (only its changes). */
void explain_print_html(FILE *out, const struct explain *e, size_t table_idx,
			const struct cmp_table *t);
/* One row per lead, header first. */
void explain_write_csv(FILE *out, const struct explain *e,
		       const struct cmp_table *tabs);

#endif
