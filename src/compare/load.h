/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.h - turn the RUN|TAG arguments of `compare` and `report` into
 * loaded runs, shared so both commands resolve them the same way.  A
 * TAG names every finished run with that tag (their repetitions pool);
 * a run id or "latest" names one run.
 */
#ifndef FSLAB_COMPARE_LOAD_H
#define FSLAB_COMPARE_LOAD_H

#include <stddef.h>

#include "result.h"

struct cmp_input {
	struct run_rec **runs;   /* loaded whole, every argument's */
	char **labels;           /* per run: its argument's label */
	size_t *arg_of;          /* per run: index of its argument */
	size_t nr;               /* runs */
	char **arg_labels;       /* per argument: as given, or the run id */
	size_t nr_args;
};

/*
 * Load args; no args means the latest run.  db may be NULL (the default
 * path).  0, or -1 with a message.
 */
int cmp_input_load(const char *db, char *const *args, size_t nr_args,
		   struct cmp_input *in);
void cmp_input_release(struct cmp_input *in);

/*
 * --pair A=B: targets named A in some runs and B in others are one
 * configuration; both are renamed "A=B" so they match.  0, or -1 with a
 * message (not A=B, or one run holding both names).
 */
int cmp_input_pair(struct cmp_input *in, const char *pair);

#endif
