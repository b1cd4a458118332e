/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/suggest.h"

#include <string.h>

#include "util/opt.h"

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
