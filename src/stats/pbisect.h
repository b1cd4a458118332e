/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbisect.h - probabilistic bisection of a change point in noisy
 * measurements (`fslab bisect`): the posterior of the culprit step from
 * every run so far, and the step to measure next.
 */
#ifndef FSLAB_PBISECT_H
#define FSLAB_PBISECT_H

#include <stddef.h>

struct pbisect_obs { size_t step; double x; };   /* x: the metric's log, one run */
struct pbisect {
	size_t nr_steps;      /* positions 0..nr_steps-1: 0 is good, nr_steps-1 is bad */
	struct pbisect_obs *obs; size_t nr_obs, alloc_obs;
	double *post;         /* [nr_steps]: P(culprit = i) after pbisect_update; post[0] = 0 */
	unsigned char *skip;  /* [nr_steps]: untestable steps */
};
int pbisect_init(struct pbisect *b, size_t nr_steps);   /* 0, or -1 when nr_steps < 2 */
void pbisect_free(struct pbisect *b);
int pbisect_add(struct pbisect *b, size_t step, double x);
void pbisect_skip(struct pbisect *b, size_t step);
int pbisect_update(struct pbisect *b);  /* -1 when fewer than 2 obs at each end */
size_t pbisect_next(const struct pbisect *b);  /* next step to measure, never skipped */
size_t pbisect_best(const struct pbisect *b, double *p); /* MAP culprit and its probability */

#endif
