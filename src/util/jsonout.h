/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonout.h - the one set of JSON helpers every fslab writer uses (runs,
 * comparisons, the run list, frag, trace), so their documents agree:
 *
 *  - strings: NULL is null; bytes that are not valid UTF-8 each become
 *    U+FFFD (the rest of the string is kept), never '?' or null;
 *  - numbers: a non-finite double (NaN, +-inf: "no value") is null,
 *    never a made-up 0 and never a missing key;
 *  - unsigned 64-bit integers above INT64_MAX are written as their
 *    decimal string (JSON readers hold int64 or double);
 *  - setting a key never fails silently: a NULL value becomes null and a
 *    key jansson refuses is a BUG.
 *
 * Built on jansson (never printf), so escaping is never hand-rolled.
 */
#ifndef FSLAB_UTIL_JSONOUT_H
#define FSLAB_UTIL_JSONOUT_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

json_t *jout_str(const char *s);
json_t *jout_num(double v);
json_t *jout_u64(uint64_t v);
/* Every element of x[0..n) through jout_num. */
json_t *jout_nums(const double *x, size_t n);
/* Set o[key] = v (stolen; NULL = null); dies with a BUG when refused. */
void jout_set(json_t *o, const char *key, json_t *v);
/* Append v (stolen; NULL = null) to the array a. */
void jout_push(json_t *a, json_t *v);
/*
 * Serialize root (not consumed) indented by 2, keys in insertion order,
 * doubles to 17 significant digits (they round-trip), with a newline:
 * to path, "-" meaning stdout.  0, or -1 with a message naming what.
 */
int jout_write(json_t *root, const char *path, const char *what);
/* The same as a newly allocated string; NULL only when out of memory. */
char *jout_dumps(json_t *root);

#endif
