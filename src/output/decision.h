/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decision.h - the text of a run's `--until decided` state, shown by
 * the run's summary and by `fslab show`.
 */
#ifndef FSLAB_DECISION_H
#define FSLAB_DECISION_H

#include <stdio.h>

#include "measure/result.h"

/* Nothing for a run without --until decided. */
void decision_print(FILE *out, const struct run_rec *r);

#endif
