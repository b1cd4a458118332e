/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbisect.c - TEMPORARY stand-in until branch pbisect lands: culprit c
 * splits the runs into two normal groups of one unknown variance; the
 * posterior over c (flat prior) is the marginal likelihood
 * RSS_c^-(N-2)/2 (n_good n_bad)^-1/2, and the next step is the median
 * of that posterior.
 */
#include "stats/pbisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int pbisect_init(struct pbisect *b, size_t nr_steps)
{
	memset(b, 0, sizeof(*b));
	if (nr_steps < 2)
		return -1;
	b->nr_steps = nr_steps;
	b->post = xcalloc(nr_steps, sizeof(*b->post));
	b->skip = xcalloc(nr_steps, 1);
	for (size_t i = 1; i < nr_steps; i++)
		b->post[i] = 1.0 / (double)(nr_steps - 1);
	return 0;
}

void pbisect_free(struct pbisect *b)
{
	free(b->obs);
	free(b->post);
	free(b->skip);
	memset(b, 0, sizeof(*b));
}

int pbisect_add(struct pbisect *b, size_t step, double x)
{
	if (step >= b->nr_steps || !isfinite(x))
		return -1;
	ALLOC_GROW(b->obs, b->nr_obs + 1, b->alloc_obs);
	b->obs[b->nr_obs].step = step;
	b->obs[b->nr_obs++].x = x;
	return 0;
}

void pbisect_skip(struct pbisect *b, size_t step)
{
	if (step > 0 && step + 1 < b->nr_steps)
		b->skip[step] = 1;
}

static double loglik(const struct pbisect *b, size_t c)
{
	double s[2] = { 0, 0 }, ss[2] = { 0, 0 }, n[2] = { 0, 0 }, rss;

	for (size_t i = 0; i < b->nr_obs; i++) {
		int g = b->obs[i].step >= c;

		n[g]++;
		s[g] += b->obs[i].x;
		ss[g] += b->obs[i].x * b->obs[i].x;
	}
	rss = ss[0] - s[0] * s[0] / n[0] + ss[1] - s[1] * s[1] / n[1];
	if (rss < 1e-300)
		rss = 1e-300;
	return -0.5 * ((double)b->nr_obs - 2) * log(rss) -
	       0.5 * log(n[0] * n[1]);
}

int pbisect_update(struct pbisect *b)
{
	size_t lo = 0, hi = 0;
	double max = -HUGE_VAL, sum = 0;

	for (size_t i = 0; i < b->nr_obs; i++) {
		lo += b->obs[i].step == 0;
		hi += b->obs[i].step == b->nr_steps - 1;
	}
	if (lo < 2 || hi < 2)
		return -1;
	for (size_t c = 1; c < b->nr_steps; c++) {
		b->post[c] = loglik(b, c);
		if (b->post[c] > max)
			max = b->post[c];
	}
	for (size_t c = 1; c < b->nr_steps; c++) {
		b->post[c] = exp(b->post[c] - max);
		sum += b->post[c];
	}
	for (size_t c = 1; c < b->nr_steps; c++)
		b->post[c] /= sum;
	b->post[0] = 0;
	return 0;
}

size_t pbisect_next(const struct pbisect *b)
{
	size_t best = 0;
	double cdf = 0, dist = HUGE_VAL;

	for (size_t m = 0; m < b->nr_steps; m++) {
		cdf += b->post[m];
		if (!b->skip[m] && fabs(cdf - 0.5) < dist) {
			dist = fabs(cdf - 0.5);
			best = m;
		}
	}
	return best;
}

size_t pbisect_best(const struct pbisect *b, double *p)
{
	size_t best = 1;

	for (size_t c = 1; c < b->nr_steps; c++)
		if (b->post[c] > b->post[best])
			best = c;
	if (p)
		*p = b->post[best];
	return best;
}
