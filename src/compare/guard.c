// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guard.c - no verdict from an invalid setup (see guard.h): a figure
 * served from memory says nothing about a filesystem, however
 * significant its change.
 */
#include "compare/guard.h"

#include <stdlib.h>

#include "util/util.h"

static const struct check_report *report_of(const struct cmp_input *in,
					    struct check_report *reports,
					    const struct run_rec *run)
{
	for (size_t i = 0; i < in->nr; i++)
		if (in->runs[i] == run || in->runs[i]->id == run->id)
			return &reports[i];
	return NULL;
}

size_t compare_guard(struct cmp_session *s, const struct cmp_input *in,
		     const struct check_opts *o, bool allow_invalid,
		     struct check_report **reports)
{
	struct check_report *rep = xcalloc(in->nr + 1, sizeof(*rep));
	size_t marked = 0;

	for (size_t i = 0; i < in->nr; i++)
		check_run(in->runs[i], o, &rep[i]);
	*reports = rep;
	if (allow_invalid)
		return 0;
	for (size_t i = 0; i < s->nr; i++) {
		struct cmp_table *t = &s->tabs[i];

		for (size_t g = 0; g < t->nr_groups; g++) {
			const struct cmp_group *grp = &s->groups[i][g];

			for (size_t r = 0; r < grp->nr_reps; r++) {
				const struct run_rec *run = grp->rep_runs ?
					grp->rep_runs[r] : grp->run;
				const struct check_report *cr =
					report_of(in, rep, run);
				const struct check_finding *f =
					cr ? check_first(cr, CHECK_INVALID)
					   : NULL;
				char *why;

				if (!f)
					continue;
				why = xasprintf("run %lld: %s: %s: %s",
						(long long)run->id, f->id,
						f->subject, f->reason);
				compare_mark_invalid(t, g, why);
				free(why);
				marked++;
				break;
			}
		}
	}
	return marked;
}
