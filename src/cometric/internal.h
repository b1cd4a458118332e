/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the co-metric files share (table.c, parse.c,
 * cometric.c); nothing outside src/cometric/ includes it.
 */
#ifndef FSLAB_COMETRIC_INTERNAL_H
#define FSLAB_COMETRIC_INTERNAL_H

#include "cometric/cometric.h"

/* table.c: add v to the value of name (0 when unset). */
void co_set_add(struct co_set *s, const char *name, double v);

#endif
