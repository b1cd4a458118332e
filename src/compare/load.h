/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.h - turn the RUN|TAG|SELECTOR arguments of `compare` and
 * `report` into loaded runs, shared so both commands resolve them the
 * same way.  A TAG names every finished run with that tag (their
 * repetitions pool), a SELECTOR (store.h) every run it matches; a run id
 * or "latest" names one run.
 */
#ifndef FSLAB_COMPARE_LOAD_H
#define FSLAB_COMPARE_LOAD_H

#include <stddef.h>

#include "measure/result.h"

struct cmp_input {
	struct run_rec **runs;   /* loaded whole, every argument's */
	char **labels;           /* per run: its argument's label */
	size_t *arg_of;          /* per run: index of its argument */
	size_t *db_of;           /* per run: index of its database, NULL
				  * when all are the first */
	size_t nr_dbs;           /* databases read (0: one, the default) */
	size_t nr;               /* runs */
	char **arg_labels;       /* per argument: as given, or the run id */
	size_t nr_args;
};

/*
 * Load args; no args means the latest run.  dbs[0..nr_dbs) are opened
 * read-only; none means the default path.  Each argument is looked up in
 * every database: a TAG or SELECTOR pools its runs from all of them, a
 * run present in two (imported: the same global id) counts once,
 * "latest" is the newest of all, and a run id must be in exactly one
 * ("ID@N" picks the N-th database).  0, or -1 with a message.
 */
int cmp_input_load(const char *const *dbs, size_t nr_dbs,
		   char *const *args, size_t nr_args, struct cmp_input *in);
void cmp_input_release(struct cmp_input *in);
/* "ID@K", run ID of the K-th of nst --db (from 1): K - 1 in *k and ID
 * (malloc'd) returned; NULL (and *k SIZE_MAX) when arg is no such name. */
char *cmp_split_db_ref(const char *arg, size_t nst, size_t *k);

/*
 * --pair A=B: targets named A in some runs and B in others are one
 * configuration; both are renamed "A=B" so they match.  0, or -1 with a
 * message (not A=B, or one run holding both names).
 */
int cmp_input_pair(struct cmp_input *in, const char *pair);

#endif
