/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * order.c - counterbalanced target order (see order.h): a Williams
 * Latin square over the repetitions, its symbols relabelled by a
 * permutation drawn from the seed with splitmix64 + Fisher-Yates.
 */
#include "phase/order.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const char *order_name(enum target_order o)
{
	return o == ORDER_FIXED ? "fixed" : "balanced";
}

int order_parse(const char *s, enum target_order *o)
{
	if (!strcmp(s, "balanced"))
		*o = ORDER_BALANCED;
	else if (!strcmp(s, "fixed"))
		*o = ORDER_FIXED;
	else
		return -1;
	return 0;
}

size_t order_cycle(size_t n)
{
	if (n < 2)
		return 1;
	return n % 2 ? 2 * n : n;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Williams' first row 0, 1, n-1, 2, n-2, ...; row r adds r mod n. */
static size_t williams(size_t n, size_t row, size_t pos)
{
	size_t first = pos == 0 ? 0 : pos % 2 ? (pos + 1) / 2 : n - pos / 2;

	return (first + row) % n;
}

void order_for_rep(enum target_order o, size_t n, uint64_t seed, size_t rep,
		   size_t *out)
{
	size_t *perm, cycle = order_cycle(n), row;
	uint64_t s = seed;

	for (size_t i = 0; i < n; i++)
		out[i] = i;
	if (o == ORDER_FIXED || n < 2)
		return;
	perm = xcalloc(n, sizeof(*perm));
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(splitmix64(&s) % (i + 1)), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	row = rep % cycle;
	for (size_t pos = 0; pos < n; pos++) {
		/* Odd n: the second half of the cycle mirrors the first. */
		size_t p = row >= n ? n - 1 - pos : pos;

		out[pos] = perm[williams(n, row % n, p)];
	}
	free(perm);
}

size_t order_pos(enum target_order o, size_t n, uint64_t seed, size_t rep,
		 size_t target)
{
	size_t *out = xcalloc(n + 1, sizeof(*out)), pos = 0;

	order_for_rep(o, n, seed, rep, out);
	for (size_t p = 0; p < n; p++)
		if (out[p] == target)
			pos = p;
	free(out);
	return pos;
}

void order_print_run(FILE *out, const struct run_rec *r)
{
	int max_rep = -1;

	if (!r->target_order)
		return;
	for (size_t j = 0; j < r->nr_wlruns; j++)
		if (r->wlruns[j].pos >= 0 && r->wlruns[j].rep > max_rep)
			max_rep = r->wlruns[j].rep;
	fprintf(out, "target order: %s", r->target_order);
	if (max_rep < 0 || r->nr_targets < 2) {
		fputc('\n', out);
		return;
	}
	for (int rep = 0; rep <= max_rep; rep++) {
		int max_pos = -1;

		fprintf(out, "; rep %d:", rep + 1);
		for (size_t j = 0; j < r->nr_wlruns; j++)
			if (r->wlruns[j].rep == rep &&
			    r->wlruns[j].pos > max_pos)
				max_pos = r->wlruns[j].pos;
		for (int pos = 0; pos <= max_pos; pos++) {
			const struct target_rec *t = NULL;

			for (size_t j = 0; j < r->nr_wlruns && !t; j++)
				if (r->wlruns[j].rep == rep &&
				    r->wlruns[j].pos == pos)
					t = run_rec_target(r, &r->wlruns[j]);
			fprintf(out, " %s", t && t->name ? t->name : "?");
		}
	}
	fputc('\n', out);
}
