/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * padjust.c - Holm and Benjamini-Hochberg adjusted p-values (see
 * padjust.h), computed on the sorted finite p-values with the running
 * max (Holm) or min (BH) that makes them monotone, then put back in the
 * caller's order.
 */
#include "stats/padjust.h"

#include <math.h>
#include <stdlib.h>

#include "util/util.h"

struct pv {
	double p;
	size_t i;
};

static int cmp_pv(const void *a, const void *b)
{
	const struct pv *x = a, *y = b;

	if (x->p != y->p)
		return (x->p > y->p) - (x->p < y->p);
	return (x->i > y->i) - (x->i < y->i);
}

static size_t sorted(const double *p, size_t n, struct pv **out)
{
	struct pv *v = xcalloc(n + 1, sizeof(*v));
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(p[i]))
			v[m++] = (struct pv){ p[i], i };
	qsort(v, m, sizeof(*v), cmp_pv);
	*out = v;
	return m;
}

static double clamp1(double x)
{
	return x > 1 ? 1 : x;
}

void padjust_holm(const double *p, size_t n, double *adj)
{
	struct pv *v;
	size_t m = sorted(p, n, &v);
	double run = 0;

	for (size_t i = 0; i < n; i++)
		if (!isfinite(p[i]))
			adj[i] = NAN;
	for (size_t k = 0; k < m; k++) {
		double a = clamp1((double)(m - k) * v[k].p);

		if (a > run)
			run = a;
		adj[v[k].i] = run;
	}
	free(v);
}

void padjust_bh(const double *p, size_t n, double *adj)
{
	struct pv *v;
	size_t m = sorted(p, n, &v);
	double run = 1;

	for (size_t i = 0; i < n; i++)
		if (!isfinite(p[i]))
			adj[i] = NAN;
	for (size_t k = m; k-- > 0;) {
		double a = clamp1((double)m / (double)(k + 1) * v[k].p);

		if (a < run)
			run = a;
		adj[v[k].i] = run;
	}
	free(v);
}
