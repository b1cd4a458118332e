/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history.h - `fslab history` as text, JSON and CSV: per series its
 * points (label, runs, mean, 95 % interval, repetitions) and change
 * points with what changed at each.  Output depends only on the
 * history, never on the clock, so the same store prints the same bytes.
 */
#ifndef FSLAB_OUTPUT_HISTORY_H
#define FSLAB_OUTPUT_HISTORY_H

#include <stdio.h>

#include "compare/history.h"

void history_print_text(FILE *out, const struct history *h);
int history_print_json(FILE *out, const struct history *h);
void history_print_csv(FILE *out, const struct history *h);

#endif
