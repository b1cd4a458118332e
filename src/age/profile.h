/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.h - aging profiles: the target distributions of file size,
 * directory depth and file age that `fslab age` drives a filesystem to
 * (the Geriatrix method), and the bucket model that compares a live file
 * population with them.  Pure: no I/O except profile_load() reading the
 * text, so every rule is unit-tested.
 *
 * Text format (doc/aging.md): sections [size], [depth], [age], each of
 * "VALUE WEIGHT" lines; '#' starts a comment.
 *   [size]  VALUE is the exclusive upper bound of the bucket (k/m/g
 *           suffixes); the bucket starts at the previous VALUE; a VALUE
 *           of 0 is the bucket of empty files.
 *   [depth] VALUE is an exact directory depth below the work directory.
 *   [age]   VALUE is the inclusive upper bound in generations (one
 *           generation = as many operations as there were live files when
 *           the fill ended); the last may be "inf".
 * Weights are relative; they are normalised to shares.
 */
#ifndef FSLAB_AGE_PROFILE_H
#define FSLAB_AGE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define AGE_MAX_BUCKETS 64

enum age_dim { AGE_DIM_SIZE, AGE_DIM_DEPTH, AGE_DIM_AGE, AGE_NR_DIMS };

struct age_dist {
	size_t nr;
	double value[AGE_MAX_BUCKETS]; /* bucket bounds, see above */
	double share[AGE_MAX_BUCKETS]; /* normalised weights, sum 1 */
};

struct age_profile {
	char *name;
	struct age_dist d[AGE_NR_DIMS];
};

/* The built-in profile text for "desktop" or "compile-farm", or NULL. */
const char *profile_builtin(const char *name);
/* Parse text; origin names it in "origin:line: reason" errors (printed).
 * 0 or -1. */
int profile_parse(const char *text, const char *origin,
		  struct age_profile *p);
/* A built-in name or a file.  0 or -1 (message printed). */
int profile_load(const char *name_or_file, struct age_profile *p);
void profile_release(struct age_profile *p);

/* The size bucket of a file of this size. */
size_t profile_size_bucket(const struct age_dist *d, uint64_t size);
/* [lo, hi) of size bucket i (lo == hi == 0 for the empty-file bucket). */
void profile_size_range(const struct age_dist *d, size_t i, uint64_t *lo,
			uint64_t *hi);
/* The depth bucket of depth, or (size_t)-1 when depth is not listed. */
size_t profile_depth_bucket(const struct age_dist *d, unsigned depth);
/* The age bucket of an age in generations. */
size_t profile_age_bucket(const struct age_dist *d, double gens);

/*
 * Bucket selection: the bucket whose share of n live files (counts[i]
 * of them) is furthest below its target share, skipping zero-share
 * buckets; ties go to the lowest index.  n may be 0.
 */
size_t profile_pick_below(const struct age_dist *d, const uint64_t *counts,
			  uint64_t n);
/* The bucket furthest above its target share among non-empty ones, or
 * (size_t)-1 when every bucket is empty. */
size_t profile_pick_above(const struct age_dist *d, const uint64_t *counts,
			  uint64_t n);
/*
 * Distance of observed counts to the target: the symmetric chi-square
 * 1/2 * sum (o_i - p_i)^2 / (o_i + p_i) over shares o_i = counts[i] / n.
 * 0 when equal, at most 1 when disjoint; defined for zero shares on
 * either side.  1 when n is 0.
 */
double profile_distance(const struct age_dist *d, const uint64_t *counts,
			uint64_t n);

#endif
