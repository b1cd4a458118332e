/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.c - resolve RUN|TAG arguments against the results database and
 * load the runs (see load.h).  A missing database is reported, never
 * created: comparing is read-only.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/load.h"
#include "store/store.h"
#include "util/util.h"

int cmp_input_load(const char *db, char *const *args, size_t nr_args,
		   struct cmp_input *in)
{
	static char latest[] = "latest";
	char *const dflt[] = { latest };
	struct store *st;
	int rc = 0;

	memset(in, 0, sizeof(*in));
	if (!nr_args) {
		args = dflt;
		nr_args = 1;
	}
	if (store_open_existing(db, &st))
		return -1;
	in->runs = xcalloc(nr_args, sizeof(*in->runs));
	in->labels = xcalloc(nr_args, sizeof(*in->labels));
	for (size_t i = 0; i < nr_args && !rc; i++) {
		int64_t id;

		if (store_resolve_run(st, args[i], &id) ||
		    store_load_run(st, id, &in->runs[in->nr])) {
			rc = -1;
			break;
		}
		in->labels[in->nr++] = strcmp(args[i], "latest") ?
			xstrdup(args[i]) : xasprintf("%lld", (long long)id);
	}
	store_close(st);
	if (rc)
		cmp_input_release(in);
	return rc;
}

void cmp_input_release(struct cmp_input *in)
{
	for (size_t i = 0; i < in->nr; i++) {
		run_rec_free(in->runs[i]);
		free(in->labels[i]);
	}
	free(in->runs);
	free(in->labels);
	memset(in, 0, sizeof(*in));
}
