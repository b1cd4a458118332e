/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checks.h - the validity checks (check/check.h) and the recorded setup
 * (struct fact) rendered as text, JSON and CSV, for `fslab check` and
 * the short blocks of run, show, compare and report.
 */
#ifndef FSLAB_OUTPUT_CHECKS_H
#define FSLAB_OUTPUT_CHECKS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "check/check.h"
#include "compare/compare.h"
#include "measure/result.h"

/*
 * The findings: every one with its level, id, subject and reason, then
 * the coverage line.  brief: only warnings and invalids (one line each,
 * notes counted) under a "setup check:" heading, for run and show.
 */
void checks_print_text(FILE *out, const struct check_report *rep, bool brief);
/* check_run() with the defaults and the brief text: run's and show's
 * block. */
void checks_print_run_brief(FILE *out, const struct run_rec *r);

json_t *checks_json(const struct check_report *rep);
/* {"machine": {"cpu.model": ...}, "target:0": {...}, ...} */
json_t *facts_json(const struct run_rec *r);
/* A run's JSON additions: "facts" and "checks" (the defaults). */
void checks_json_add_run(json_t *run_obj, const struct run_rec *r);

/* CSV: run, id, level, subject, reason, accepted (header when asked). */
void checks_write_csv(FILE *out, const struct check_report *rep,
		      bool header);

/*
 * compare's guard, after a table's "differs" lines: each undeclared
 * difference as a warning (name it with --factor), each configuration
 * with an invalid setup ("invalid setup: ...; no verdict").
 */
void checks_print_compare_guard(FILE *out, const struct cmp_table *t);

/* "setup check run N: 0 invalid, 2 warnings, 1 note" and the first
 * invalid or warning, for compare's header. */
void checks_print_oneline(FILE *out, const struct check_report *rep);

/* The facts, one paragraph per scope wrapped at 79 columns. */
void facts_print_text(FILE *out, const struct run_rec *r);

#endif
