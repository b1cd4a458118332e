/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svgglyph.h - share the glyph outlines of many inline SVG charts.
 *
 * cairo's SVG surface writes every glyph it uses as a <symbol> in each
 * chart: in a report of 70 charts that is 80 % of the bytes, the same
 * few dozen letters over and over.  Inline SVGs of one HTML page share
 * one id space, so each distinct glyph is written once, in a hidden
 * <svg> of its own, and every chart points at it.
 */
#ifndef FSLAB_SVGGLYPH_H
#define FSLAB_SVGGLYPH_H

#include <stdio.h>

/* Forget the glyphs written so far (a new page). */
void svg_glyphs_reset(void);
/* Write svg to out with its glyphs shared as above. */
void svg_glyphs_put(FILE *out, const char *svg);

#endif
