/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.h - turn the RUN|TAG arguments of `compare` and `report` into
 * loaded runs, shared so both commands resolve them the same way.
 */
#ifndef FSLAB_COMPARE_LOAD_H
#define FSLAB_COMPARE_LOAD_H

#include <stddef.h>

#include "result.h"

struct cmp_input {
	struct run_rec **runs;   /* loaded whole */
	char **labels;           /* the argument as given, or the run id */
	size_t nr;
};

/*
 * Load args (run ids, tags = the newest run with that tag, or "latest");
 * no args means the latest run.  db may be NULL (the default path).
 * 0, or -1 with a message.
 */
int cmp_input_load(const char *db, char *const *args, size_t nr_args,
		   struct cmp_input *in);
void cmp_input_release(struct cmp_input *in);

#endif
