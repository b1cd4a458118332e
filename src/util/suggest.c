/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

size_t str_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof(*row));
	size_t d;

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

void suggest_init(struct suggest *s, const char *key)
{
	s->key = key;
	s->best = NULL;
	s->best_d = (size_t)-1;
}

bool suggest_add(struct suggest *s, const char *cand)
{
	size_t d = str_distance(s->key, cand);

	if (d >= s->best_d)
		return false;
	s->best_d = d;
	s->best = cand;
	return true;
}

const char *suggest_result(const struct suggest *s)
{
	if (s->best && s->best_d <= 1 + strlen(s->key) / 3)
		return s->best;
	return NULL;
}
