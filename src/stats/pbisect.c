/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pbisect.c - the change-point posterior of a noisy bisection and the
 * policy that drives it (see pbisect.h for the model and its source).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/pbisect.h"
#include "stats/ttest.h"

int pbisect_init(struct pbisect *b, size_t nr_steps)
{
	memset(b, 0, sizeof(*b));
	if (nr_steps < 2)
		return -1;
	b->post = calloc(nr_steps, sizeof(*b->post));
	b->skip = calloc(nr_steps, sizeof(*b->skip));
	if (!b->post || !b->skip) {
		pbisect_free(b);
		return -1;
	}
	b->nr_steps = nr_steps;
	for (size_t c = 1; c < nr_steps; c++)
		b->post[c] = 1.0 / (double)(nr_steps - 1);
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
	if (b->nr_obs == b->alloc_obs) {
		size_t n = b->alloc_obs ? 2 * b->alloc_obs : 64;
		struct pbisect_obs *o = realloc(b->obs, n * sizeof(*o));

		if (!o)
			return -1;
		b->obs = o;
		b->alloc_obs = n;
	}
	b->obs[b->nr_obs].step = step;
	b->obs[b->nr_obs].x = x;
	b->nr_obs++;
	return 0;
}

void pbisect_skip(struct pbisect *b, size_t step)
{
	if (step < b->nr_steps)
		b->skip[step] = 1;
}

size_t pbisect_count(const struct pbisect *b, size_t step)
{
	size_t n = 0;

	if (step >= b->nr_steps || b->skip[step])
		return 0;
	for (size_t i = 0; i < b->nr_obs; i++)
		n += b->obs[i].step == step;
	return n;
}

/* Per-step count, sum and sum of squares of the runs, centred on m. */
static void step_sums(const struct pbisect *b, double m, double *k,
		      double *s, double *q)
{
	for (size_t i = 0; i < b->nr_obs; i++) {
		size_t st = b->obs[i].step;
		double x = b->obs[i].x - m;

		if (b->skip[st])
			continue;
		k[st] += 1;
		s[st] += x;
		q[st] += x * x;
	}
}

int pbisect_update(struct pbisect *b)
{
	size_t ns = b->nr_steps, last = ns - 1;
	double *k, *s, *q, n = 0, sum = 0, sst = 0, floor, mx = -INFINITY;
	double k1 = 0, s1 = 0, q1 = 0, stot = 0, tot = 0;

	if (b->skip[0] || b->skip[last] || pbisect_count(b, 0) < 2 ||
	    pbisect_count(b, last) < 2)
		return -1;
	k = calloc(3 * ns, sizeof(*k));
	if (!k)
		return -1;
	s = k + ns;
	q = s + ns;
	for (size_t i = 0; i < b->nr_obs; i++) {
		if (!b->skip[b->obs[i].step]) {
			n += 1;
			sum += b->obs[i].x;
		}
	}
	/* Centred sums keep SSE = Q - S^2 / n from cancelling. */
	step_sums(b, sum / n, k, s, q);
	for (size_t i = 0; i < ns; i++) {
		stot += s[i];
		sst += q[i];
	}
	/*
	 * Noiseless data make SSE 0 at the true split: a floor far below
	 * any real noise keeps the log finite and the split's P near 1.
	 */
	floor = 1e-12 * sst + 1e-300;
	for (size_t c = 1; c < ns; c++) {
		double k2, s2, q2, sse;

		k1 += k[c - 1];
		s1 += s[c - 1];
		q1 += q[c - 1];
		k2 = n - k1;
		s2 = stot - s1;
		q2 = sst - q1;
		sse = (q1 - s1 * s1 / k1) + (q2 - s2 * s2 / k2);
		if (sse < floor)
			sse = floor;
		b->post[c] = -0.5 * log(k1 * k2) - 0.5 * (n - 2) * log(sse);
		if (b->post[c] > mx)
			mx = b->post[c];
	}
	b->post[0] = 0;
	for (size_t c = 1; c < ns; c++) {
		b->post[c] = exp(b->post[c] - mx);
		tot += b->post[c];
	}
	for (size_t c = 1; c < ns; c++)
		b->post[c] /= tot;
	free(k);
	return 0;
}

size_t pbisect_next(const struct pbisect *b)
{
	size_t best = b->nr_steps, best_n = 0;
	double cum = 0, best_d = INFINITY;

	for (size_t st = 0; st < b->nr_steps; st++) {
		double d;

		cum += b->post[st];
		if (b->skip[st])
			continue;
		d = fabs(cum - 0.5);
		if (d < best_d - 1e-12) {
			best = st;
			best_d = d;
			best_n = SIZE_MAX;
		} else if (d <= best_d + 1e-12) {
			size_t n = pbisect_count(b, st);

			if (best_n == SIZE_MAX)
				best_n = pbisect_count(b, best);
			if (n < best_n) {
				best = st;
				best_n = n;
			}
		}
	}
	return best;
}

size_t pbisect_best(const struct pbisect *b, double *p)
{
	size_t best = 1;

	for (size_t c = 2; c < b->nr_steps; c++)
		if (b->post[c] > b->post[best])
			best = c;
	if (p)
		*p = b->post[best];
	return best;
}

double pbisect_range(const struct pbisect *b, double p_target, size_t *lo,
		     size_t *hi)
{
	size_t ns = b->nr_steps, l = 1, blo = 1, bhi = ns - 1;
	double tot = 0, acc = 0, bp = -1;

	for (size_t c = 1; c < ns; c++)
		tot += b->post[c];
	/* What rounding leaves of 1 must not make the target unreachable. */
	if (p_target > tot)
		p_target = tot;
	for (size_t h = 1; h < ns; h++) {
		acc += b->post[h];
		while (l < h && acc - b->post[l] >= p_target) {
			acc -= b->post[l];
			l++;
		}
		if (acc < p_target)
			continue;
		if (h - l < bhi - blo || (h - l == bhi - blo && acc > bp)) {
			blo = l;
			bhi = h;
			bp = acc;
		}
	}
	if (bp < 0)
		bp = tot;
	*lo = blo;
	*hi = bhi;
	return bp;
}

bool pbisect_range_final(const struct pbisect *b, size_t lo, size_t hi)
{
	for (size_t st = lo; st < hi; st++)
		if (!b->skip[st])
			return false;
	return true;
}

static void end_sample(const struct pbisect *b, size_t step,
		       struct ttest_sample *t)
{
	double s = 0, q = 0;
	size_t n = 0;

	for (size_t i = 0; i < b->nr_obs; i++) {
		if (b->obs[i].step == step) {
			s += b->obs[i].x;
			n++;
		}
	}
	t->n = n;
	t->mean = n ? s / (double)n : NAN;
	for (size_t i = 0; i < b->nr_obs; i++) {
		if (b->obs[i].step == step) {
			double d = b->obs[i].x - t->mean;

			q += d * d;
		}
	}
	t->sd = n > 1 ? sqrt(q / (double)(n - 1)) : NAN;
}

double pbisect_ends_p(const struct pbisect *b)
{
	struct ttest_sample g, x;
	struct welch_result w;

	end_sample(b, 0, &g);
	end_sample(b, b->nr_steps - 1, &x);
	if (g.n < 2 || x.n < 2 || ttest_welch(&g, &x, 0.05, &w))
		return NAN;
	return w.p;
}

/* The culprit fields of d from an updated posterior. */
static void fill_culprit(const struct pbisect *b, double target,
			 struct pbisect_decision *d)
{
	d->culprit = pbisect_best(b, &d->p);
	d->p_range = pbisect_range(b, target, &d->lo, &d->hi);
}

void pbisect_decide(struct pbisect *b, const struct pbisect_policy *pol,
		    struct pbisect_decision *d)
{
	size_t last = b->nr_steps - 1, emin = pol->ends_min, n0, n1;
	double p;

	memset(d, 0, sizeof(*d));
	if (b->skip[0] || b->skip[last]) {
		d->verdict = PBISECT_UNTESTABLE;
		return;
	}
	if (emin < 2)
		emin = 2;
	n0 = pbisect_count(b, 0);
	n1 = pbisect_count(b, last);
	p = pbisect_ends_p(b);
	d->ends_differ = p < PBISECT_ENDS_ALPHA;
	if (b->nr_obs >= pol->budget) {
		d->verdict = PBISECT_BUDGET;
		if (d->ends_differ && !pbisect_update(b))
			fill_culprit(b, pol->target_p, d);
		return;
	}
	d->verdict = PBISECT_MEASURE;
	if (n0 < emin || n1 < emin || !d->ends_differ) {
		d->step = n0 <= n1 ? 0 : last;
		return;
	}
	pbisect_update(b);
	fill_culprit(b, pol->target_p, d);
	if (d->p_range >= pol->target_p &&
	    pbisect_range_final(b, d->lo, d->hi)) {
		d->verdict = PBISECT_DONE;
		return;
	}
	d->step = pbisect_next(b);
}
