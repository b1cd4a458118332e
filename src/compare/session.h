/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h - one invocation's comparison: every workload of the loaded
 * runs, every matched set of configurations, built and then adjusted as
 * one family (compare_finish), shared by `compare` and `report`.
 */
#ifndef FSLAB_COMPARE_SESSION_H
#define FSLAB_COMPARE_SESSION_H

#include <stddef.h>

#include "compare/compare.h"
#include "compare/load.h"

struct cmp_session {
	struct cmp_table *tabs;          /* one per (workload, set) */
	const struct cmp_group **groups; /* [nr] the table's groups */
	size_t nr;
	struct cmp_set **sets;           /* per workload, for release */
	size_t *nr_sets;
	size_t nr_wls;
	char **notes;                    /* "xfs only in t1, not compared" */
	size_t nr_notes;
};

/* o->key_metrics is set per workload from the registry. */
void compare_session_build(const struct cmp_input *in,
			   struct compare_opts *o, struct cmp_session *s);
void compare_session_release(struct cmp_session *s);

#endif
