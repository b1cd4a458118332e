/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bshare.c - the culprit's share of the change (see bshare.h).
 */
#include "stats/bshare.h"

#include <math.h>
#include <string.h>

#include "stats/ttest.h"

int bshare_explained(const struct bshare_step *steps, size_t nr, size_t good,
		     size_t culprit, size_t bad, double alpha, double tol,
		     struct bshare_result *r)
{
	size_t before = culprit - 1, dfn = 0;
	double ss = 0, s2, vg, vb, va, vp, num, den, cov, var, t;

	memset(r, 0, sizeof(*r));
	r->share = r->lo = r->hi = r->sigma = NAN;
	if (good >= bad || culprit <= good || culprit > bad || bad >= nr ||
	    !steps[good].n || !steps[bad].n || !steps[before].n ||
	    !steps[culprit].n)
		return -1;
	for (size_t i = 0; i < nr; i++) {
		if (steps[i].n < 2)
			continue;
		ss += steps[i].ss;
		dfn += steps[i].n - 1;
	}
	den = steps[bad].mean - steps[good].mean;
	if (!dfn || !(fabs(den) > 0))
		return -1;
	s2 = ss / (double)dfn;
	r->sigma = sqrt(s2);
	r->df = (double)dfn;
	vg = s2 / (double)steps[good].n;
	vb = s2 / (double)steps[bad].n;
	vp = s2 / (double)steps[before].n;
	va = s2 / (double)steps[culprit].n;
	num = steps[culprit].mean - steps[before].mean;
	r->share = num / den;
	/* cov(a - p, b - g): a shared step counts once in each */
	cov = (culprit == bad ? vb : 0) + (before == good ? vg : 0);
	var = (va + vp - 2 * r->share * cov + r->share * r->share *
	       (vb + vg)) / (den * den);
	if (var < 0)
		var = 0;
	t = ttest_tcrit(alpha, r->df);
	r->lo = r->share - t * sqrt(var);
	r->hi = r->share + t * sqrt(var);
	r->partial = (r->hi < 1 || r->lo > 1) && fabs(r->share - 1) >= tol;
	return 0;
}
