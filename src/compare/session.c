/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.c - build every table of one comparison and adjust them
 * together (see session.h).
 */
#include <stdlib.h>
#include <string.h>

#include "compare/session.h"
#include "util/util.h"
#include "workloads/registry.h"

void compare_session_build(const struct cmp_input *in,
			   struct compare_opts *o, struct cmp_session *s)
{
	const char **wls;
	size_t alloc = 0, galloc = 0, nalloc = 0;

	memset(s, 0, sizeof(*s));
	wls = compare_workloads((const struct run_rec *const *)in->runs,
				in->nr, &s->nr_wls);
	s->sets = xcalloc(s->nr_wls + 1, sizeof(*s->sets));
	s->nr_sets = xcalloc(s->nr_wls + 1, sizeof(*s->nr_sets));
	for (size_t i = 0; i < s->nr_wls; i++) {
		const struct workload *wl = wl_find(wls[i]);
		char **notes;
		size_t nn;

		o->key_metrics = wl ? wl->key_metrics : NULL;
		s->sets[i] = compare_sets(
			(const struct run_rec *const *)in->runs, in->arg_of,
			in->nr, (const char *const *)in->arg_labels,
			in->nr_args, wls[i], &s->nr_sets[i], &notes, &nn);
		for (size_t k = 0; k < nn; k++) {
			ALLOC_GROW(s->notes, s->nr_notes + 1, nalloc);
			s->notes[s->nr_notes++] = notes[k];
		}
		free(notes);
		for (size_t k = 0; k < s->nr_sets[i]; k++) {
			const struct cmp_set *set = &s->sets[i][k];
			struct cmp_table *t;

			ALLOC_GROW(s->tabs, s->nr + 1, alloc);
			ALLOC_GROW(s->groups, s->nr + 1, galloc);
			t = &s->tabs[s->nr];
			compare_build(wls[i], set->groups, set->nr_groups, o,
				      t);
			t->name = set->name ? xstrdup(set->name) : NULL;
			t->name_is_options = set->name_is_options;
			s->groups[s->nr++] = set->groups;
		}
	}
	compare_finish(s->tabs, s->nr, o);
	free(wls);
}

void compare_session_release(struct cmp_session *s)
{
	for (size_t i = 0; i < s->nr; i++)
		compare_table_release(&s->tabs[i]);
	for (size_t i = 0; i < s->nr_wls; i++)
		compare_sets_free(s->sets[i], s->nr_sets[i]);
	for (size_t i = 0; i < s->nr_notes; i++)
		free(s->notes[i]);
	free(s->tabs);
	free(s->groups);
	free(s->sets);
	free(s->nr_sets);
	free(s->notes);
	memset(s, 0, sizeof(*s));
}

size_t compare_session_key_tests(const struct cmp_session *s)
{
	size_t m = 0;

	for (size_t i = 0; i < s->nr; i++)
		for (size_t r = 0; r < s->tabs[i].nr_rows; r++)
			for (size_t g = 1; g < s->tabs[i].nr_groups; g++)
				m += s->tabs[i].rows[r].key &&
				     s->tabs[i].rows[r].d[g].tested;
	return m;
}

enum cmp_outcome compare_session_outcome(const struct cmp_session *s)
{
	bool regression = false;

	if (!s->nr)
		return CMP_OUTCOME_NOTHING;
	for (size_t i = 0; i < s->nr; i++) {
		for (size_t g = 0; g < s->tabs[i].nr_groups; g++)
			if (s->tabs[i].failed[g])
				return CMP_OUTCOME_FAILED;
		regression |= s->tabs[i].regression;
	}
	if (regression)
		return CMP_OUTCOME_REGRESSION;
	return compare_session_key_tests(s) ? CMP_OUTCOME_OK
					    : CMP_OUTCOME_NO_VERDICT;
}
