/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sequential.c - compare's tables through the sequential test, look
 * after look (see sequential.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/sequential.h"
#include "util/util.h"

int cmp_seq_init(struct cmp_seq *s, int min_n, int max_n,
		 const struct compare_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->min_change_pct = o->min_change_pct;
	s->power = o->power;
	return seq_design_init(&s->d, min_n, max_n, o->alpha);
}

static void drop_items(struct cmp_seq *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		struct cmp_seq_item *it = &s->items[i];

		free(it->workload);
		free(it->name);
		free(it->phase);
		free(it->metric);
		free(it->label);
		free(it->unit);
	}
	s->nr = 0;
}

void cmp_seq_reset(struct cmp_seq *s)
{
	drop_items(s);
	s->family = 0;
	s->n = 0;
	s->open = 0;
}

void cmp_seq_release(struct cmp_seq *s)
{
	drop_items(s);
	free(s->items);
	seq_design_release(&s->d);
	memset(s, 0, sizeof(*s));
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static struct cmp_seq_item *item_for(struct cmp_seq *s,
				     const struct cmp_table *t,
				     const struct cmp_row *row, size_t g)
{
	struct cmp_seq_item *it;

	for (size_t i = 0; i < s->nr; i++) {
		it = &s->items[i];
		if (same(it->workload, t->workload) &&
		    same(it->name, t->name) && same(it->phase, row->phase) &&
		    same(it->metric, row->metric) &&
		    same(it->label, t->labels[g]))
			return it;
	}
	ALLOC_GROW(s->items, s->nr + 1, s->alloc);
	it = &s->items[s->nr++];
	memset(it, 0, sizeof(*it));
	it->workload = xstrdup(t->workload);
	it->name = t->name ? xstrdup(t->name) : NULL;
	it->phase = xstrdup(row->phase);
	it->metric = xstrdup(row->metric);
	it->label = xstrdup(t->labels[g]);
	it->unit = xstrdup(row->unit);
	it->better = row->better;
	it->c.pct = it->c.lo_pct = it->c.hi_pct = it->c.mdc_pct = NAN;
	return it;
}

bool cmp_seq_look(struct cmp_seq *s, const struct cmp_table *tabs,
		  size_t nr, int n)
{
	struct seq_cmp *c;
	size_t k = 0, m = 0;

	if (n < s->d.min_n)
		return false;
	if (n > s->d.max_n)
		n = s->d.max_n;
	for (size_t i = 0; i < s->nr; i++)
		s->items[i].seen = false;
	for (size_t i = 0; i < nr; i++)
		for (size_t r = 0; r < tabs[i].nr_rows; r++) {
			const struct cmp_row *row = &tabs[i].rows[r];

			for (size_t g = 1; g < tabs[i].nr_groups; g++) {
				const struct cmp_delta *d = &row->d[g];
				struct cmp_seq_item *it;

				if (!row->key || !d->tested)
					continue;
				it = item_for(s, &tabs[i], row, g);
				it->seen = true;
				/* the log ratio as compare tested it: finite
				 * se only for positive means */
				it->c.log_ratio = d->ratio > 0 ? log(d->ratio)
							       : NAN;
				it->c.se = d->se_log;
				it->c.df = d->df;
			}
		}
	/* A comparison that stopped being testable (a failed repetition)
	 * stays in the family, undecided. */
	for (size_t i = 0; i < s->nr; i++)
		if (!s->items[i].seen && s->items[i].c.decision ==
		    SEQ_UNDECIDED)
			s->items[i].c.se = NAN;
	m = s->nr;
	if (m > s->family)
		s->family = m;
	c = xcalloc(s->family + 1, sizeof(*c));
	for (k = 0; k < s->nr; k++)
		c[k] = s->items[k].c;
	/* Comparisons not seen yet still count: Holm's m never shrinks. */
	for (; k < s->family; k++)
		c[k].se = c[k].log_ratio = NAN;
	seq_look(&s->d, n, c, s->family, s->min_change_pct, s->power);
	s->open = 0;
	for (k = 0; k < s->nr; k++) {
		s->items[k].c = c[k];
		/* One that compare did not test at this look (a phase now
		 * too short to judge) cannot hold the series open. */
		s->open += c[k].decision == SEQ_UNDECIDED &&
			   s->items[k].seen;
	}
	free(c);
	s->n = n;
	return s->open == 0;
}

const char *cmp_seq_item_verdict(const struct cmp_seq_item *it)
{
	double oriented;

	if (it->c.decision == SEQ_EQUIVALENT)
		return "equivalent";
	if (it->c.decision == SEQ_UNDECIDED && !it->seen)
		return "no verdict";
	if (it->c.decision != SEQ_DIFFERENT)
		return "undecided";
	oriented = it->better == BETTER_LOWER ? -it->c.pct : it->c.pct;
	return oriented > 0 ? "improvement" : "REGRESSION";
}

double cmp_seq_mdc(const struct cmp_seq *s)
{
	double m = NAN;

	for (size_t i = 0; i < s->nr; i++)
		if (s->items[i].c.decision == SEQ_UNDECIDED &&
		    isfinite(s->items[i].c.mdc_pct))
			m = isfinite(m) ? fmax(m, s->items[i].c.mdc_pct)
					: s->items[i].c.mdc_pct;
	return m;
}
