/* SPDX-License-Identifier: GPL-2.0-or-later */
/* repmean.c - the workloads' mean over repetitions (repmean.h). */
#include "workloads/repmean.h"

#include <stdbool.h>
#include <string.h>

double wl_rep_mean(const double *x, size_t n, const char *unit)
{
	size_t ul = unit ? strlen(unit) : 0;
	bool rate = ul >= 2 && !strcmp(unit + ul - 2, "/s");
	double sum = 0, inv = 0;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] > 0)
			inv += 1 / x[i];
		else
			rate = false;
	}
	return rate ? (double)n / inv : sum / (double)n;
}
