/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile.c - aging profiles: the built-in texts (the same as
 * the files in examples/age, embedded so fslab needs no data files), the
 * parser, and the bucket model the ager steers by.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "age/profile.h"
#include "util/util.h"

static const char profile_desktop[] =
	"# SPDX-License-Identifier: GPL-2.0-or-later\n"
	"# desktop - a home directory: file sizes follow a lognormal body\n"
	"# (median 4 KiB, sigma 1.8 in ln) up to 256 KiB and a Pareto\n"
	"# tail above it; most files live two to five directories down;\n"
	"# ages spread over many generations (one generation = as many\n"
	"# operations as there were live files when the fill ended).\n"
	"# Weights are percentages.\n"
	"[size]\n"
	"0\t2.0\n"
	"512\t10.4\n"
	"1k\t9.7\n"
	"2k\t12.9\n"
	"4k\t15.0\n"
	"8k\t15.0\n"
	"16k\t12.9\n"
	"32k\t9.7\n"
	"64k\t6.2\n"
	"128k\t3.5\n"
	"256k\t1.7\n"
	"1m\t0.6\n"
	"4m\t0.25\n"
	"16m\t0.1\n"
	"64m\t0.05\n"
	"\n"
	"[depth]\n"
	"0\t2\n"
	"1\t8\n"
	"2\t20\n"
	"3\t25\n"
	"4\t20\n"
	"5\t15\n"
	"6\t7\n"
	"7\t3\n"
	"\n"
	"[age]\n"
	"0.05\t2\n"
	"0.25\t8\n"
	"1\t20\n"
	"3\t30\n"
	"inf\t40\n"
;
static const char profile_compile_farm[] =
	"# SPDX-License-Identifier: GPL-2.0-or-later\n"
	"# compile-farm - source and object trees: the size histogram of\n"
	"# the getdents mail's build machine, 53.8 % of files under 1\n"
	"# KiB, 45.9 % from 1 KiB to 1 MiB and 0.33 % over 1 MiB (weights\n"
	"# are percentages); deep trees; short-lived objects and long-\n"
	"# lived sources.\n"
	"[size]\n"
	"0\t3.0\n"
	"256\t15.0\n"
	"512\t15.8\n"
	"1k\t20.0\n"
	"2k\t10.0\n"
	"4k\t10.0\n"
	"8k\t9.0\n"
	"16k\t7.0\n"
	"32k\t4.5\n"
	"64k\t2.8\n"
	"128k\t1.6\n"
	"256k\t0.7\n"
	"1m\t0.3\n"
	"4m\t0.25\n"
	"16m\t0.08\n"
	"\n"
	"[depth]\n"
	"1\t5\n"
	"2\t10\n"
	"3\t20\n"
	"4\t25\n"
	"5\t20\n"
	"6\t12\n"
	"7\t8\n"
	"\n"
	"[age]\n"
	"0.1\t5\n"
	"0.5\t15\n"
	"2\t30\n"
	"inf\t50\n"
;

const char *profile_builtin(const char *name)
{
	if (!strcmp(name, "desktop"))
		return profile_desktop;
	if (!strcmp(name, "compile-farm"))
		return profile_compile_farm;
	return NULL;
}

static int parse_value(enum age_dim dim, const char *s, double *v)
{
	uint64_t u;
	char *end;

	switch (dim) {
	case AGE_DIM_SIZE:
		if (parse_size(s, &u) < 0)
			return -1;
		*v = (double)u;
		return 0;
	case AGE_DIM_DEPTH:
		if (parse_u64(s, &u) < 0 || u > 40)
			return -1;
		*v = (double)u;
		return 0;
	default:
		if (!strcmp(s, "inf")) {
			*v = INFINITY;
			return 0;
		}
		*v = strtod(s, &end);
		return *end || end == s || !(*v > 0) ? -1 : 0;
	}
}

static const char *const dim_names[] = { "size", "depth", "age" };

int profile_parse(const char *text, const char *origin,
		  struct age_profile *p)
{
	char *copy = xstrdup(text), *line, *save = NULL, *nl;
	int dim = -1, lineno = 0, rc = -1;
	double sum;

	memset(p, 0, sizeof(*p));
	for (line = copy; line; line = nl) {
		char *hash, *tok[3], *tsave = NULL;
		struct age_dist *d;
		double v, w;
		int nt = 0;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		lineno++;
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		for (char *t = strtok_r(line, " \t\r", &tsave); t && nt < 3;
		     t = strtok_r(NULL, " \t\r", &tsave))
			tok[nt++] = t;
		if (!nt)
			continue;
		if (tok[0][0] == '[') {
			int i;

			for (i = 0; i < AGE_NR_DIMS; i++) {
				char want[16];

				snprintf(want, sizeof(want), "[%s]",
					 dim_names[i]);
				if (!strcmp(tok[0], want))
					break;
			}
			if (nt != 1 || i == AGE_NR_DIMS) {
				error("%s:%d: unknown section '%s' (expected "
				      "[size], [depth] or [age])", origin,
				      lineno, tok[0]);
				goto out;
			}
			if (p->d[i].nr) {
				error("%s:%d: section '%s' appears twice",
				      origin, lineno, tok[0]);
				goto out;
			}
			dim = i;
			continue;
		}
		if (dim < 0) {
			error("%s:%d: '%s' before any section", origin,
			      lineno, tok[0]);
			goto out;
		}
		if (nt != 2) {
			error("%s:%d: expected 'VALUE WEIGHT'", origin,
			      lineno);
			goto out;
		}
		d = &p->d[dim];
		if (parse_value(dim, tok[0], &v) < 0) {
			error("%s:%d: bad %s value '%s'", origin, lineno,
			      dim_names[dim], tok[0]);
			goto out;
		}
		w = strtod(tok[1], &save);
		if (*save || save == tok[1] || !(w >= 0) || isinf(w)) {
			error("%s:%d: bad weight '%s'", origin, lineno,
			      tok[1]);
			goto out;
		}
		if (d->nr && !(v > d->value[d->nr - 1])) {
			error("%s:%d: %s values must increase ('%s')", origin,
			      lineno, dim_names[dim], tok[0]);
			goto out;
		}
		if (d->nr == AGE_MAX_BUCKETS) {
			error("%s:%d: more than %d buckets", origin, lineno,
			      AGE_MAX_BUCKETS);
			goto out;
		}
		d->value[d->nr] = v;
		d->share[d->nr++] = w;
	}
	if (!p->d[AGE_DIM_SIZE].nr) {
		error("%s: no [size] section", origin);
		goto out;
	}
	if (!p->d[AGE_DIM_DEPTH].nr) {
		/* Without [depth] every file goes into the work directory. */
		p->d[AGE_DIM_DEPTH].nr = 1;
		p->d[AGE_DIM_DEPTH].share[0] = 1;
	}
	for (int i = 0; i < AGE_NR_DIMS; i++) {
		struct age_dist *d = &p->d[i];

		sum = 0;
		for (size_t j = 0; j < d->nr; j++)
			sum += d->share[j];
		if (d->nr && !(sum > 0)) {
			error("%s: every weight in [%s] is 0", origin,
			      dim_names[i]);
			goto out;
		}
		for (size_t j = 0; j < d->nr; j++)
			d->share[j] /= sum;
	}
	p->name = xstrdup(origin);
	rc = 0;
out:
	free(copy);
	return rc;
}

int profile_load(const char *name_or_file, struct age_profile *p)
{
	const char *text = profile_builtin(name_or_file);
	char *file;
	int rc;

	if (text) {
		rc = profile_parse(text, name_or_file, p);
		return rc;
	}
	file = read_file(name_or_file, NULL);
	if (!file)
		return error_errno("cannot read profile '%s' (built-in "
				   "profiles: desktop, compile-farm)",
				   name_or_file);
	rc = profile_parse(file, name_or_file, p);
	free(file);
	return rc;
}

void profile_release(struct age_profile *p)
{
	free(p->name);
	memset(p, 0, sizeof(*p));
}

size_t profile_size_bucket(const struct age_dist *d, uint64_t size)
{
	for (size_t i = 0; i < d->nr; i++)
		if ((double)size < d->value[i] ||
		    (size == 0 && d->value[i] == 0))
			return i;
	return d->nr - 1;
}

void profile_size_range(const struct age_dist *d, size_t i, uint64_t *lo,
			uint64_t *hi)
{
	*hi = (uint64_t)d->value[i];
	*lo = i ? (uint64_t)d->value[i - 1] : 0;
	if (*hi && !*lo)
		*lo = 1;
}

size_t profile_depth_bucket(const struct age_dist *d, unsigned depth)
{
	for (size_t i = 0; i < d->nr; i++)
		if (d->value[i] == depth)
			return i;
	return (size_t)-1;
}

size_t profile_age_bucket(const struct age_dist *d, double gens)
{
	for (size_t i = 0; i < d->nr; i++)
		if (gens <= d->value[i])
			return i;
	return d->nr - 1;
}

size_t profile_pick_below(const struct age_dist *d, const uint64_t *counts,
			  uint64_t n)
{
	size_t best = 0;
	double best_gap = -INFINITY;

	for (size_t i = 0; i < d->nr; i++) {
		double have = n ? (double)counts[i] / (double)n : 0;
		double gap = d->share[i] - have;

		if (d->share[i] > 0 && gap > best_gap) {
			best_gap = gap;
			best = i;
		}
	}
	return best;
}

size_t profile_pick_above(const struct age_dist *d, const uint64_t *counts,
			  uint64_t n)
{
	size_t best = (size_t)-1;
	double best_gap = -INFINITY;

	for (size_t i = 0; i < d->nr; i++) {
		double gap;

		if (!counts[i])
			continue;
		gap = (double)counts[i] / (double)n - d->share[i];
		if (gap > best_gap) {
			best_gap = gap;
			best = i;
		}
	}
	return best;
}

double profile_distance(const struct age_dist *d, const uint64_t *counts,
			uint64_t n)
{
	double sum = 0;

	if (!n)
		return 1;
	for (size_t i = 0; i < d->nr; i++) {
		double o = (double)counts[i] / (double)n, p = d->share[i];

		if (o + p > 0)
			sum += (o - p) * (o - p) / (o + p);
	}
	return sum / 2;
}
