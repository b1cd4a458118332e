/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * repmean.c - figure per repetition and mean over repetitions (the rules
 * are in repmean.h).
 */
#include "stats/repmean.h"

#include <math.h>
#include <string.h>

#include "stats/stats.h"

bool rep_unit_is_rate(const char *unit)
{
	size_t l = unit ? strlen(unit) : 0;

	return l > 2 && !strcmp(unit + l - 2, "/s");
}

enum rep_mean_kind rep_mean_kind(const char *unit, const double *x, size_t n)
{
	if (!rep_unit_is_rate(unit) || !n)
		return REP_MEAN_ARITHMETIC;
	for (size_t i = 0; i < n; i++)
		if (!(x[i] > 0) || !isfinite(x[i]))
			return REP_MEAN_ARITHMETIC;
	return REP_MEAN_HARMONIC;
}

const char *rep_mean_name(enum rep_mean_kind k)
{
	return k == REP_MEAN_HARMONIC ? "harmonic" : "arithmetic";
}

double rep_mean(const char *unit, const double *x, size_t n,
		enum rep_mean_kind *kind)
{
	enum rep_mean_kind k = rep_mean_kind(unit, x, n);

	if (kind)
		*kind = k;
	if (!n)
		return NAN;
	return k == REP_MEAN_HARMONIC ? stats_hmean(x, n) : stats_mean(x, n);
}

double rep_fold(const char *unit, const double *x, const double *wall_s,
		size_t n)
{
	double work = 0, time = 0;

	if (!n)
		return NAN;
	if (n == 1)
		return x[0];
	if (!rep_unit_is_rate(unit) || !wall_s)
		return stats_mean(x, n);
	for (size_t i = 0; i < n; i++) {
		if (!(wall_s[i] > 0) || !isfinite(x[i]))
			return stats_mean(x, n);
		work += x[i] * wall_s[i];
		time += wall_s[i];
	}
	return work / time;
}
