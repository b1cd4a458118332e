/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * text.h - a fragmentation survey as the text table of the getdents
 * mail (so results can be set side by side with it), followed by what
 * fslab measures beyond filefrag.
 */
#ifndef FSLAB_FRAG_TEXT_H
#define FSLAB_FRAG_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "frag/frag.h"

void frag_print_text(FILE *out, const struct frag_result *r);
/* The free-space part; "unavailable (reason)" when not known. */
void frag_print_freesp(FILE *out, const char *path,
		       const struct frag_freesp *fs);
/*
 * A stored survey (phase "survey" of a frag run) in the same table, from
 * its metrics alone; b: the bins it was taken with.
 */
void frag_print_stored(FILE *out, const struct phase_rec *p,
		       const struct frag_bins *b);

#endif
