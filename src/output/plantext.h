/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plantext.h - the text of `fslab plan` (compare/plan.h).
 */
#ifndef FSLAB_PLANTEXT_H
#define FSLAB_PLANTEXT_H

#include <stdio.h>

#include "compare/plan.h"

void plan_print(FILE *out, const struct plan *p);

#endif
