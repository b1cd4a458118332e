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

/* What one invocation found, most serious first (the result line and
 * the exit code of --fail-on-regression). */
enum cmp_outcome {
	CMP_OUTCOME_NOTHING = 0, /* no comparison could be matched */
	CMP_OUTCOME_FAILED,      /* a compared run failed */
	CMP_OUTCOME_REGRESSION,  /* a key metric regressed significantly */
	CMP_OUTCOME_NO_VERDICT,  /* no key metric could be tested */
	CMP_OUTCOME_OK,          /* tested, and nothing regressed */
};

/* Key metrics tested against a baseline, over every table. */
size_t compare_session_key_tests(const struct cmp_session *s);
enum cmp_outcome compare_session_outcome(const struct cmp_session *s);

#endif
