/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv.h - results as CSV for spreadsheets and scripts: RFC 4180 (CRLF
 * line ends, fields with comma, quote, CR or LF quoted, quotes doubled),
 * always a header row, numbers with enough digits to round-trip and an
 * empty field for "no value".
 */
#ifndef FSLAB_CSV_H
#define FSLAB_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/compare.h"
#include "measure/result.h"

/* One field; first says whether it opens the record (no comma). */
void csv_field(FILE *out, const char *s, bool first);
void csv_num(FILE *out, double v, bool first);
void csv_int(FILE *out, long long v, bool first);
void csv_end(FILE *out);

/* One row per (run, target, workload, phase, metric). */
void csv_write_run(FILE *out, const struct run_rec *r);
/* One row per run (the `results` listing). */
void csv_write_run_list(FILE *out, struct run_rec *const *runs, size_t nr);
/* One row per (workload, phase, metric, group). */
void csv_write_compare(FILE *out, const struct cmp_table *t, size_t nr,
		       const struct compare_opts *o);

#endif
