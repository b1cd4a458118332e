/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * registry.c - every workload fslab knows, in one visible table sorted by
 * name (no constructors, no link-order magic).  tests/unit/test_registry.c
 * checks the table: sorted, unique, run set, options with valid defaults.
 */
#include "workloads/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/result.h"
#include "util/suggest.h"

const struct workload *const workloads[] = {
	&wl_bonnie,
	&wl_compilebench,
	&wl_distribute,
	&wl_exec,
	&wl_ffsb,
	&wl_fio,
	&wl_frag,
	&wl_fsck,
	&wl_metadata,
	&wl_tree,
	NULL,
};

const char *const *wl_phase_names(const struct workload *wl,
				  const void *opts)
{
	const char *const *p = wl->phases_of && opts ? wl->phases_of(opts) :
			       NULL;

	return p ? p : wl->phases;
}

const struct workload *wl_find(const char *name)
{
	for (size_t i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

const char *wl_suggest(const char *name)
{
	struct suggest s;

	suggest_init(&s, name);
	for (size_t i = 0; workloads[i]; i++)
		suggest_add(&s, workloads[i]->name);
	return suggest_result(&s);
}

void wl_canonical_options(struct run_rec *r)
{
	for (size_t i = 0; i < r->nr_wlruns; i++) {
		struct wlrun_rec *w = &r->wlruns[i];
		const struct workload *wl = w->workload ? wl_find(w->workload)
							: NULL;
		char *s;

		if (!wl || !wl->opts || !w->options)
			continue;
		s = opt_canonical(wl->opts, wl->opts_size, w->options,
				  &r->seed);
		if (s) {
			free(w->options);
			w->options = s;
		}
	}
}

void wl_print_verify_support(FILE *out)
{
	const char *sep = "";

	fputs("\nWorkloads and --verify:\n  checked: ", out);
	for (size_t i = 0; workloads[i]; i++)
		if (workloads[i]->flags & WL_VERIFY) {
			fprintf(out, "%s%s", sep, workloads[i]->name);
			sep = ", ";
		}
	fputc('\n', out);
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload *wl = workloads[i];

		if (wl->flags & WL_VERIFY)
			continue;
		if (wl->flags & WL_NO_DATA)
			fprintf(out, "  %s writes no file data and ignores it\n",
				wl->name);
		else
			fprintf(out, "  %s refuses it%s%s\n", wl->name,
				wl->no_verify ? ": " : " (not yet supported)",
				wl->no_verify ? wl->no_verify : "");
	}
}
